"""unilayout.viz.png: valid PNGs whose pixels show the scene."""

import numpy as np
import pytest

from svgcheck import decode_png
from unilayout import LayoutError
from unilayout.viz import png
from unilayout.viz.colors import PADDING
from unilayout.viz.picture import grid_scene


def test_signature_ihdr_and_decoding():
    s = grid_scene("png", 2, 3, labels=[["0", "1", "2"], ["3", "4", "5"]])
    data = png.to_png(s)
    assert data[:8] == png.PNG_SIGNATURE and data[12:16] == b"IHDR"
    w, h, img = decode_png(data)
    assert (w, h) == png.png_size(data) == (int(s.width), int(s.height))
    assert img.shape == (h, w, 3)


def test_cells_are_painted_with_their_fill():
    s = grid_scene("fills", 2, 2, headers=False)
    s.fill[:] = np.array([[(255, 0, 0), (0, 255, 0)], [(0, 0, 255), (1, 2, 3)]], dtype=np.uint8)
    s.drawn[1, 1] = False
    _, _, img = decode_png(png.to_png(s))
    for r in range(2):
        for c in range(2):
            x, y = int(s.col_x[c]) + 2, int(s.row_y[r]) + 2
            want = s.fill[r, c].tolist() if s.drawn[r, c] else [255, 255, 255]
            assert img[y, x].tolist() == want


def test_labels_draw_ink_inside_their_cell():
    s = grid_scene("ink", 1, 2, labels=[["88", ""]], headers=False)
    s.fill[:] = 255
    img = png.rasterise(s)
    x0, y0 = int(s.col_x[0]), int(s.row_y[0])
    cell0 = img[y0 : y0 + int(s.cell_h), x0 : x0 + int(s.cell_w)]
    x1 = int(s.col_x[1])
    cell1 = img[y0 : y0 + int(s.cell_h), x1 : x1 + int(s.cell_w)]
    assert (cell0 == 0).all(axis=2).sum() > 20
    assert (cell1 == 0).all(axis=2).sum() == 0


def test_padding_colour_and_outlines():
    s = grid_scene("pad", 1, 1, headers=False)
    s.fill[0, 0] = PADDING
    s.add_outline(*s.cell_box(0, 0, 1, 1), rgb=(200, 0, 0), width=2)
    img = png.rasterise(s)
    x, y, w, h = (int(v) for v in s.cell_box(0, 0, 1, 1))
    assert img[y + h // 2, x + 4].tolist() == PADDING.tolist()
    assert img[y, x + w // 2].tolist() == [200, 0, 0]


def test_every_glyph_has_ink():
    for ch in "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ()[],:-+=x/_<>#|":
        img = np.full((12, 12, 3), 255, dtype=np.uint8)
        png._blit(img, [ch], [1], [6], ["start"], [(0, 0, 0)], 1)
        assert (img == 0).any(), ch


def test_encode_and_errors():
    img = np.zeros((3, 5, 3), dtype=np.uint8)
    img[1, 2] = (9, 8, 7)
    w, h, back = decode_png(png.encode_png(img))
    assert (w, h) == (5, 3) and (back == img).all()
    with pytest.raises(LayoutError):
        png.encode_png(np.zeros((2, 2), dtype=np.uint8))
    with pytest.raises(LayoutError):
        png.png_size(b"GIF89a" + b"\0" * 30)


def test_too_large(monkeypatch):
    monkeypatch.setattr(png, "MAX_PIXELS", 100)
    with pytest.raises(LayoutError, match="too large"):
        png.to_png(grid_scene("big", 4, 4))
