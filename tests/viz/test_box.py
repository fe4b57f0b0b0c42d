"""unilayout.viz.box: TSL layouts and affine maps over their row-major box."""

import numpy as np
import pytest

from svgcheck import cells, label_text, parse_svg
from unilayout import LayoutError, affine, tsl
from unilayout.viz import to_svg
from unilayout.viz.box import affine_scene, box_scene, tsl_scene

SEED = "#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5>"


def test_tsl_cells_are_addresses_in_row_major_order():
    t = tsl.parse(SEED)
    root = parse_svg(to_svg(t))
    cs = cells(root)
    vals = t.index_map()
    assert len(cs) == 64
    for g in cs:
        i = int(g.get("data-index"))
        assert label_text(g) == str(vals[i])
        assert label_text(g) == str(t(i // 8, i % 8))


def test_tsl_tiles_leave_gaps():
    s = tsl_scene(tsl.parse(SEED))
    assert s.col_x[4] - s.col_x[3] > s.col_x[1] - s.col_x[0]
    assert s.row_y[4] - s.row_y[3] > s.row_y[1] - s.row_y[0]


def test_rank3_tsl_folds_rows():
    t = tsl.parse("[2] -> (12), [3] -> (4), [4] -> (1)")
    s = tsl_scene(t)
    assert s.shape == (6, 4) and s.labels[5, 3] == str(t(1, 2, 3))


def test_dynamic_tsl_is_refused():
    with pytest.raises(LayoutError, match="resolve"):
        tsl_scene(tsl.parse("#tsl.tsl<[?, 4] -> (32, 4), [?, 4] -> (?, 1)>"))


def test_affine_multi_result_labels():
    m = affine.parse("(d0, d1) -> (d0 floordiv 2, d1 * 3)")
    s = affine_scene(m, (4, 2))
    assert s.labels.tolist() == [["0,0", "0,3"], ["0,0", "0,3"], ["1,0", "1,3"], ["1,0", "1,3"]]
    assert len(cells(parse_svg(to_svg(m, shape=(4, 2))))) == 8


def test_affine_needs_a_shape():
    with pytest.raises(LayoutError, match="shape"):
        affine_scene(affine.parse("(d0) -> (d0)"), None)


def test_box_crop():
    s = box_scene("b", np.arange(10000), (100, 100), max_cells=25)
    assert s.shape == (5, 5) and s.index[4, 4] == 404 and s.labels[4, 4] == "404"


def test_wrong_types():
    with pytest.raises(LayoutError):
        tsl_scene(affine.parse("(d0) -> (d0)"))
    with pytest.raises(LayoutError):
        affine_scene(tsl.parse(SEED), (8, 8))


def test_huge_boxes_evaluate_only_the_cells_shown():
    t = tsl.parse("#tsl.tsl<[65536, 4] -> (262144, 4), [65536, 4] -> (16, 1)>")  # 2^36 points
    s = tsl_scene(t, max_cells=64)
    assert s.shape == (8, 8) and s.labels[7, 7] == str(t(7, 7)) and s.labels[5, 6] == str(t(5, 6))
    m = affine.parse("(d0, d1) -> (d0 * 1048576 + d1, d1 mod 7)")
    a = affine_scene(m, (1 << 20, 1 << 20), max_cells=16)
    assert a.labels[3, 2] == "3145730,2"


def test_affine_symbols():
    m = affine.parse("(d0)[s0] -> (d0 + s0)")
    assert affine_scene(m, (3,), symbols=(10,)).labels.tolist() == [["10", "11", "12"]]
    with pytest.raises(LayoutError, match="symbols"):
        affine_scene(m, (3,))
    with pytest.raises(LayoutError, match="sizes"):
        affine_scene(m, (3, 3), symbols=(1,))
