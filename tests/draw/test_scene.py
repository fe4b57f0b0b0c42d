"""unilayout.draw.scene: the Scene model and grid layout."""

import numpy as np
import pytest

from unilayout import LayoutError
from unilayout.draw.scene import CHAR_W, NOTE_CHARS, Scene, grid_scene, positions


def test_positions_with_groups():
    assert positions(5, 10, 2).tolist() == [2, 12, 22, 32, 42]
    assert positions(5, 10, 0, group=2, gap=4).tolist() == [0, 10, 24, 34, 48]


def test_grid_defaults():
    s = grid_scene("t", 3, 4)
    assert isinstance(s, Scene)
    assert s.shape == (3, 4) and s.count_cells() == 12
    assert s.index.tolist() == np.arange(12).reshape(3, 4).tolist()
    assert not s.padding.any() and s.fill.shape == (3, 4, 3)


def test_cells_fit_their_labels():
    s = grid_scene("t", 1, 2, labels=[["1", "123456"]])
    assert s.cell_w >= CHAR_W * 6
    two = grid_scene("t", 1, 1, labels=[["a\nb"]])
    one = grid_scene("t", 1, 1, labels=[["a"]])
    assert two.cell_h > one.cell_h


def test_cell_box_and_size_cover_everything():
    s = grid_scene("t", 2, 3, row_group=1, gap=10)
    x, y, w, h = s.cell_box(0, 0, 2, 3)
    assert h == pytest.approx(2 * s.cell_h + 10) and w == pytest.approx(3 * s.cell_w)
    assert s.width >= x + w and s.height >= y + h
    h0 = s.height
    s.notes.append("a long caption " * 30)
    lines = s.note_lines()
    assert len(lines) > 1 and " ".join(lines) == ("a long caption " * 30).strip()
    assert s.width < 100 * CHAR_W and s.height >= h0 + 12 * len(lines)


def test_notes_wrap_to_a_wide_picture():
    s = grid_scene("t", 1, 80)
    s.notes = ["x " * 200]
    narrow = grid_scene("t", 1, 2)
    narrow.notes = ["x " * 200]
    assert len(s.note_lines()) < len(narrow.note_lines())
    assert max(map(len, narrow.note_lines())) <= NOTE_CHARS


def test_headers_and_title_are_texts():
    s = grid_scene("title", 2, 3)
    kinds = [t[6] for t in s.texts]
    assert kinds.count("title") == 1 and kinds.count("header") == 5
    assert grid_scene("t", 2, 3, headers=False).texts[0][6] == "title"
    assert len(grid_scene("t", 2, 3, headers=False).texts) == 1


def test_bad_sizes():
    with pytest.raises(LayoutError):
        grid_scene("t", -1, 2)


def test_empty_grid():
    s = grid_scene("t", 0, 0)
    assert s.count_cells() == 0 and s.width > 0 and s.height > 0


def test_label_bands_heads_every_band_with_its_label_and_its_own_column_numbers():
    # issue 23: band labels ran together (``dim132..63``) and only the first band had column headers
    from unilayout.draw.scene import BAND_GAP, label_bands

    s = grid_scene("t", 6, 4, row_names=[0, 1] * 3)
    before = s.row_y.copy()
    label_bands(s, 2, 4, "dim1")
    assert [t[2] for t in s.texts if t[6] == "band"] == ["dim1 4..7", "dim1 8..11"]
    heads = [(t[2], t[1]) for t in s.texts if t[6] == "header" and t[4] == "middle"]
    assert [h for h, _ in heads] == [str(i) for i in range(12)]
    for b in (1, 2):  # each band's numbers sit just above its first row, below its label
        ys = {y for h, y in heads if b * 4 <= int(h) < (b + 1) * 4}
        (y,) = ys
        label_y = next(t[1] for t in s.texts if t[2] == f"dim1 {4 * b}..{4 * b + 3}")
        assert label_y < y < s.row_y[2 * b]
        assert s.row_y[2 * b] - before[2 * b] == b * BAND_GAP
    rows = sorted((t[1], t[2]) for t in s.texts if t[6] == "header" and t[4] == "end")
    assert [name for _, name in rows] == ["0", "1"] * 3
    assert all(abs(y - (s.row_y[i] + s.cell_h / 2)) < 1e-9 for i, (y, _) in enumerate(rows))
