"""unilayout.draw.png: valid PNGs whose pixels show the scene."""

import numpy as np
import pytest

from svgcheck import decode_png
from unilayout import LayoutError
from unilayout.draw import png
from unilayout.draw.colors import PADDING
from unilayout.draw.scene import grid_scene


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
    assert (cell0 < 100).all(axis=2).sum() > 20
    assert (cell1 < 250).any(axis=2).sum() == 0


def test_padding_colour_and_outlines():
    s = grid_scene("pad", 1, 1, headers=False)
    s.fill[0, 0] = PADDING
    s.add_outline(*s.cell_box(0, 0, 1, 1), rgb=(200, 0, 0), width=2)
    img = png.rasterise(s)
    x, y, w, h = (int(v) for v in s.cell_box(0, 0, 1, 1))
    assert img[y + h // 2, x + 4].tolist() == PADDING.tolist()
    assert img[y, x + w // 2].tolist() == [200, 0, 0]


def _ink_box(img):
    ys, xs = np.nonzero((img < 128).all(axis=2))
    return xs.min(), ys.min(), xs.max() + 1, ys.max() + 1


def _text_image(text, scale=1):
    s = grid_scene("", 1, 1, labels=[[text]], headers=False)
    s.fill[:] = 255
    s.texts.clear()
    return png.rasterise(s, scale)


def test_real_font_tells_similar_glyphs_apart():
    # The old 3x5 font drew o, 0 and D alike, ',' as '.', lowercase as uppercase and non-ASCII as '?'.
    imgs = {ch: _text_image(ch) for ch in ["o", "0", "D", "O", ",", ".", "a", "A", "\u00e9", "?"]}
    for a, b in [("o", "0"), ("0", "D"), ("o", "O"), (",", "."), ("a", "A"), ("\u00e9", "?")]:
        assert (imgs[a] != imgs[b]).any(), (a, b)


def test_labels_are_at_least_11_px_and_scale():
    x0, y0, x1, y1 = _ink_box(_text_image("Tg8"))
    assert y1 - y0 >= 11  # cap height + descender of a 12 px font
    a0, b0, a1, b1 = _ink_box(_text_image("Tg8", scale=3))
    assert 2.5 * (y1 - y0) <= b1 - b0 <= 3.5 * (y1 - y0)


def test_scale_multiplies_the_size_and_is_checked():
    s = grid_scene("scaled", 2, 2)
    w, h = png.png_size(png.to_png(s))
    assert png.png_size(png.to_png(s, scale=2)) == (2 * w, 2 * h)
    for bad in (0, 1.5, png.MAX_SCALE + 1, True):
        with pytest.raises(LayoutError, match="scale"):
            png.to_png(s, scale=bad)


def test_captions_wrap_inside_the_picture():
    s = grid_scene("wrap", 1, 2, headers=False)
    s.notes = ["the caption of a small picture goes on for a long while " * 4]
    img = png.rasterise(s)
    assert len(s.note_lines()) > 1
    top = int(s.note_y(0) - 8)
    notes = img[top:]
    # ink on several note lines, none of it clipped at the right edge
    assert (notes[:, -3:] < 200).sum() == 0
    rows_with_ink = np.nonzero((notes < 128).all(axis=2).any(axis=1))[0]
    assert rows_with_ink.max() - rows_with_ink.min() > 18


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


@pytest.mark.skipif(__import__("shutil").which("tesseract") is None, reason="tesseract is not installed "
                    "(apt-get install tesseract-ocr)")
@pytest.mark.parametrize("scale", [1, 2])
def test_swizzle_caption_reads_back_by_ocr(tmp_path, scale):
    """The title of a swizzle picture, read by tesseract, is its text: case, commas and brackets intact.

    An isolated 'o' between digits reads as '0' in tesseract whatever the font, so o and 0 are compared alike.
    """
    import subprocess

    from PIL import Image

    from unilayout import cute
    from unilayout.viz import scene

    text = "Sw<3,4,3> o 0 o (8,64):(64,1)"
    s = scene(cute.parse(text))
    img = png.rasterise(s, scale)
    title = [t for t in s.texts if t[6] == "title"][0]
    y = int(title[1] * scale)
    path = tmp_path / "title.png"
    Image.fromarray(img[max(0, y - 14 * scale): y + 14 * scale, : int((8 + 12 * len(text)) * scale)]).save(path)
    out = subprocess.run(["tesseract", str(path), "stdout", "--psm", "7"], capture_output=True, text=True,
                         timeout=60).stdout

    def norm(t):
        return t.replace(" ", "").replace("o", "0").strip()

    assert norm(out) == norm(text), out


def test_png_captions_leave_out_notes_about_svg_attributes():
    # issue 23: PNG captions said "cells carry data-thread / data-operand" -- attributes a PNG does not have
    from unilayout import cute, viz
    from unilayout.draw.scene import SvgOnly

    s = viz.scene(cute.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1)))
    assert any(isinstance(n, SvgOnly) and "data-" in n for n in s.notes)
    assert all("data-" not in line for line in s.measure(svg=False)[2])
    assert any("data-" in line for line in s.measure()[2])
    plain = grid_scene("t", 2, 2)
    plain.notes = ["colour: value"]
    with_svg_note = grid_scene("t", 2, 2)
    with_svg_note.notes = ["colour: value", SvgOnly("cells carry data-value " * 8)]
    assert np.array_equal(png.rasterise(plain), png.rasterise(with_svg_note))  # the PNG is pixel for pixel the same
