"""Pictures of TiledMMA / TiledCopy: panels where print_latex puts them, labels and data attributes per cell."""

import numpy as np
import pytest

from unilayout import cute, viz
from unilayout.cute.picture_tiled import tiled_copy_scene, tiled_mma_scene
from unilayout.draw.png import png_size
from unilayout.errors import LayoutError


@pytest.fixture(scope="module")
def mma():
    return cute.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))


def test_panels_are_where_print_latex_puts_them(mma):
    m, n, k = mma.tile_size_mnk()
    s = tiled_mma_scene(mma)
    op = s.attrs["operand"]
    assert s.shape == (k + m, k + n)
    assert (op[:k, :k] == -1).all() and not s.drawn[:k, :k].any()      # the empty corner
    assert (op[k:, :k] == 0).all() and (op[:k, k:] == 1).all() and (op[k:, k:] == 2).all()
    # the gap: C starts right of A and below B, further than one cell
    assert s.col_x[k] - s.col_x[k - 1] > s.cell_w and s.row_y[k] - s.row_y[k - 1] > s.cell_h


def test_cells_show_the_owner_the_tv_layouts_give(mma):
    m, n, k = mma.tile_size_mnk()
    s = tiled_mma_scene(mma)
    c_thr, c_val = cute.tv_table(mma.get_layoutC_TV(), (m, n))
    a_thr, _ = cute.tv_table(mma.get_layoutA_TV(), (m, k))
    b_thr, _ = cute.tv_table(mma.get_layoutB_TV(), (n, k))
    assert np.array_equal(s.attrs["thread"][k:, k:], c_thr)
    assert np.array_equal(s.attrs["thread"][k:, :k], a_thr)
    assert np.array_equal(s.attrs["thread"][:k, k:], b_thr.T)
    assert s.labels[k + 17, k + 2] == f"T{c_thr[17, 2]}\nV{c_val[17, 2]}"
    # one thread's cells share a colour across A, B and C
    t = int(c_thr[17, 2])
    colours = {tuple(s.fill[r, c]) for r, c in zip(*np.nonzero(s.attrs["thread"] == t))}
    assert len(colours) == 1


def test_svg_carries_the_hover_attributes(mma):
    svg = viz.to_svg(tiled_mma_scene(mma))
    assert svg.count('data-operand="2"') == 32 * 16
    assert 'data-thread="37"' in svg


def test_png_renders(mma):
    w, h = png_size(viz.to_png(tiled_mma_scene(mma)))
    assert w > 500 and h > 500


def test_tiled_copy_sides(mma):
    tc = cute.make_tiled_copy_A(cute.copy_atom("SM75_U32x4_LDSM_N", 16), mma)
    s = tiled_copy_scene(tc)
    m, n = tc.tiler_mn
    assert s.shape == (m, 2 * n)
    s_thr, _ = cute.tv_table(tc.get_layoutS_TV(), (m, n))
    d_thr, _ = cute.tv_table(tc.get_layoutD_TV(), (m, n))
    assert np.array_equal(s.attrs["thread"][:, :n], s_thr) and np.array_equal(s.attrs["thread"][:, n:], d_thr)
    # ldmatrix: the source row is one thread's 8 halves; the destination is the MMA's A fragment
    assert (s_thr[0, :8] == s_thr[0, 0]).all()
    a_thr, _ = cute.tv_table(mma.get_layoutA_TV(), (m, n))
    assert np.array_equal(d_thr, a_thr)


def test_refusals_and_big_tiles():
    with pytest.raises(LayoutError, match="expected a cute.TiledMMA"):
        tiled_mma_scene(cute.Layout(4))
    big = cute.make_tiled_mma("SM90_64x256x16_F32F16F16_SS")
    with pytest.raises(LayoutError, match="over max_cells=1,000"):
        tiled_mma_scene(big, max_cells=1000)
    assert tiled_mma_scene(big).shape == (16 + 64, 16 + 256)
