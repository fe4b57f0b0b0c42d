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
