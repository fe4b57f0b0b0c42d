"""unilayout.draw.grid: the default picture of a function over a box, cropped to a budget of cells."""

import numpy as np
import pytest

from unilayout import LayoutError
from unilayout.draw.grid import box_scene, crop


def test_crop_keeps_whole_pictures_and_crops_big_ones_to_about_max_cells():
    assert crop(4, 8, 32) == (4, 8, None)
    r, c, note = crop(1000, 1000, 100)
    assert (r, c) == (10, 10) and r * c <= 100 and note.startswith("showing rows 0..9 and columns 0..9 of 1000x1000")
    with pytest.raises(LayoutError, match="max_cells must be >= 1"):
        crop(2, 2, 0)


def test_box_scene_labels_each_cell_with_its_values_and_row_major_index():
    s = box_scene("t", np.arange(6) * 3, (2, 3))
    assert s.labels.tolist() == [["0", "3", "6"], ["9", "12", "15"]] and s.index.tolist() == [[0, 1, 2], [3, 4, 5]]
    assert s.notes[0].startswith("rows: 2 (row-major), columns: 3")


def test_box_scene_evaluates_only_the_cells_it_draws():
    seen = []

    def f(i, j):
        seen.append(i.size)
        return i * 1000 + j

    s = box_scene("big", f, (1000, 1000), max_cells=16)
    assert seen == [16] and s.labels[1, 2] == "1002" and any(n.startswith("showing") for n in s.notes)


def test_a_1d_box_folds_into_rows_numbered_by_their_first_index():
    # issue 23: a 1-D layout of 2**16 elements was one row 327,713 px wide (too large for a PNG)
    from unilayout.draw.png import rasterise

    s = box_scene("long", lambda i: i * 3, (65536,))
    R, C = s.shape
    assert R > 1 and 8 <= C <= 256 and R * C == 16384  # cropped to the default budget, then folded
    assert s.index[:, 0].tolist() == list(range(0, R * C, C)) and s.index.reshape(-1).tolist() == list(range(R * C))
    assert s.attrs["value"][1, 2] == 3 * (C + 2)
    rows = [t[2] for t in s.texts if t[6] == "header" and t[4] == "end"]
    assert rows == [str(i) for i in range(0, R * C, C)]
    h, w, _ = rasterise(s).shape
    assert w < 8000 and h < 8000 and 1 / 4 < w / h < 4


def test_boxes_past_int64_are_a_layout_error_and_huge_1d_unlabelled_boxes_fold_too():
    import time

    from unilayout import LayoutError

    with pytest.raises(LayoutError, match="do not fit int64"):
        box_scene("t", lambda *c: c[0], (2**40, 2**40))
    t = time.perf_counter()
    s = box_scene("t", lambda *c: c[0], (2**20,), max_cells=2**21, labels=False)  # the explorer's big picture
    assert s.shape[0] > 1 and s.shape[1] <= 4096 and time.perf_counter() - t < 2.0
