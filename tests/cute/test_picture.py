"""unilayout.cute.picture: CuTe layouts, swizzles, bank colouring and TV layouts as pictures."""

import itertools

import numpy as np
import pytest

from svgcheck import cells, label_text, parse_svg, texts
from unilayout import LayoutError, cute
from unilayout.cute.picture import layout_scene, offset_bank_conflicts, tv_scene
from unilayout.viz import to_png, to_svg


def _grid(L):
    rows = cute.size(L[0]) if L.rank >= 2 else 1
    return rows, cute.size(L) // rows


@pytest.mark.parametrize("text", ["(2,3):(3,1)", "8:2", "((2,2),(2,3)):((1,12),(2,4))", "(2,3,2):(1,2,6)",
                                  "Sw<2,0,2> o 0 o (4,4):(4,1)", "(3,(2,2)):(0,(1,3))"])
def test_cells_are_the_layout(text):
    L = cute.parse(text)
    root = parse_svg(to_svg(L))
    cs = cells(root)
    rows, cols = _grid(L)
    assert len(cs) == cute.size(L) == rows * cols
    vals = cute.index_map(L)
    for g in cs:
        i = int(g.get("data-index"))
        assert label_text(g) == str(vals[i])
    assert sorted(int(g.get("data-index")) for g in cs) == list(range(cute.size(L)))
    assert len(texts(root, "label")) == cute.size(L)


def test_cell_positions_follow_print_layout():
    L = cute.parse("(4,(2,3)):(1,(16,4))")
    s = layout_scene(L)
    for m, n in itertools.product(range(4), range(6)):
        assert s.index[m, n] == m + 4 * n
        assert s.labels[m, n] == str(L(m, n))


def test_hierarchical_modes_leave_gaps():
    s = layout_scene(cute.parse("((2,2),(2,3)):((1,12),(2,4))"))
    assert s.row_y[2] - s.row_y[1] > s.row_y[1] - s.row_y[0]
    assert s.col_x[2] - s.col_x[1] > s.col_x[1] - s.col_x[0]


def test_crop_keeps_the_top_left_block_with_a_note():
    L = cute.Layout((300, 300), (300, 1))
    s = layout_scene(L, max_cells=400)
    assert s.shape == (20, 20)
    assert s.labels[19, 19] == str(L(19, 19)) and s.index[19, 19] == 19 + 300 * 19
    assert any("showing rows 0..19" in n for n in s.notes)
    assert len(cells(parse_svg(to_svg(L, max_cells=400)))) == 400


def test_big_swizzled_layout_is_cropped_exactly():
    C = cute.parse("Sw<3,4,3> o 0 o (512,512):(512,1)")
    s = layout_scene(C, max_cells=64)
    full = cute.index_map(C)
    assert all(s.attrs["value"][m, n] == full[s.index[m, n]] for m in range(8) for n in range(8))


def _brute_ways(offsets, element_bytes, bank_bytes=4, banks=32, warp=32):
    ways = []
    for i, o in enumerate(offsets):
        g = i // warp
        word = o * element_bytes // bank_bytes
        b = word % banks
        same = {offsets[j] * element_bytes // bank_bytes for j in range(g * warp, min(len(offsets), (g + 1) * warp))
                if (offsets[j] * element_bytes // bank_bytes) % banks == b}
        ways.append(len(same))
    return ways


@pytest.mark.parametrize("seed", range(5))
def test_offset_bank_conflicts_against_brute_force(seed):
    rng = np.random.default_rng(seed)
    offsets = rng.integers(0, 400, size=int(rng.integers(1, 100))).tolist()
    for eb in (1, 2, 4, 8):
        bank, ways = offset_bank_conflicts(offsets, eb)
        assert ways.tolist() == _brute_ways(offsets, eb)
        assert bank.tolist() == [(o * eb // 4) % 32 for o in offsets]


def test_bank_colouring_shows_conflicts():
    # Column access of a 32x32 row-major fp32 matrix: every thread hits bank 0 (32-way).
    s = layout_scene(cute.Layout((32, 32), (32, 1)), color="bank")
    assert (s.attrs["bank"][:, 0] == 0).all() and (s.attrs["ways"] == 32).all()
    assert len([o for o in s.outlines if o[6] == "conflict"]) == 1024
    assert any("32-way" in n for n in s.notes)
    # The padded layout (stride 33) is conflict-free.
    p = layout_scene(cute.Layout((32, 32), (33, 1)), color="bank")
    assert (p.attrs["ways"] == 1).all() and not [o for o in p.outlines if o[6] == "conflict"]
    root = parse_svg(to_svg(cute.Layout((32, 32), (32, 1)), color="bank"))
    by_index = {int(g.get("data-index")): label_text(g) for g in cells(root)}
    assert by_index[1] == "32\nb0" and by_index[32] == "1\nb1"


def test_thread_colouring():
    s = layout_scene(cute.Layout((8, 8)), color="thread")
    assert s.attrs["thread"].tolist() == (np.arange(64).reshape(8, 8, order="F") % 32).tolist()


def test_tv_layout_labels_match_tv_owner():
    thr, val = cute.Layout((4, 8), (8, 1)), cute.Layout((2, 2))
    tiler, tv = cute.make_layout_tv(thr, val)
    s = tv_scene(tv, tiler)
    root = parse_svg(to_svg(tv, tv=tiler))
    cs = cells(root)
    assert len(cs) == tiler[0] * tiler[1]
    nt = cute.size(tv[0])
    for m in range(tiler[0]):
        for n in range(tiler[1]):
            t, v = cute.tv_owner(tv, tiler, (m, n))
            assert s.labels[m, n] == f"T{t}\nV{v}" and s.index[m, n] == t + nt * v
    assert all(label_text(g).startswith("T") for g in cs)
    assert len(texts(root, "label")) == len(cs)


def test_tv_elements_without_owner_are_blank():
    s = tv_scene(cute.Layout((2, 1), (1, 0)), (2, 2))
    assert s.count_cells() == 2 and (s.index[:, 1] == -1).all()
    assert any("owned by no thread" in n for n in s.notes)


def test_png_of_a_layout():
    data = to_png(cute.parse("((2,2),(2,3)):((1,12),(2,4))"))
    assert data[:8] == b"\x89PNG\r\n\x1a\n"


def test_errors():
    with pytest.raises(LayoutError, match="colour mode"):
        layout_scene(cute.Layout(4), color="rainbow")
    with pytest.raises(LayoutError):
        layout_scene("4:1")
    with pytest.raises(LayoutError, match="2-D tile"):
        tv_scene(cute.Layout((2, 2)), (4,))
    with pytest.raises(LayoutError):
        layout_scene(cute.Layout(4), max_cells=0)
    with pytest.raises(LayoutError):
        offset_bank_conflicts([0, 1], element_bytes=0)


@pytest.mark.parametrize("bms", [(2, 0, 2), (3, 4, 3), (1, 2, -2), (0, 1, 1)])
def test_bare_swizzle_is_drawn_as_its_block(bms):
    from unilayout.cute.picture import swizzle_layout
    from unilayout.viz import scene

    sw = cute.Swizzle(*bms)
    C = swizzle_layout(sw)
    assert cute.size(C) == sw.size
    s = scene(sw)
    R, W = C.shape
    assert s.count_cells() == sw.size and sorted(s.index.reshape(-1).tolist()) == list(range(sw.size))
    # the cell of 1-D coordinate i = m + R*n shows Sw(m * W + n), wherever wrapping put it
    for i, v in zip(s.index.reshape(-1).tolist(), s.attrs["value"].reshape(-1).tolist()):
        assert v == sw((i % R) * W + i // R)
    assert s.shape[1] <= 32 or s.shape[1] == W  # long rows wrap into bands


def test_huge_layout_evaluates_only_the_crop():
    L = cute.Layout((1 << 15, 1 << 15), (1 << 15, 1))  # 2^30 elements
    s = layout_scene(L, max_cells=256)
    assert s.shape == (16, 16) and s.labels[15, 15] == str(L(15, 15))
    b = layout_scene(L, color="bank", max_cells=256)
    assert (b.attrs["ways"] == 32).all()


def test_a_1d_layout_of_2_16_elements_folds_into_a_readable_png():
    # issue 23: 65536:1 drew one row of 16,384 cells, 786,465 px wide (too large for a PNG)
    from unilayout import cute, viz
    from unilayout.draw.png import rasterise

    s = viz.scene(cute.parse("65536:2"))
    R, C = s.shape
    assert R > 1 and R * C == 16384
    h, w, _ = rasterise(s).shape
    assert w < 8000 and h < 8000
    assert s.index.reshape(-1).tolist() == list(range(16384))  # row-major reading is the 1-D order
    assert [t[2] for t in s.texts if t[6] == "header" and t[4] == "end"] == [str(i) for i in range(0, 16384, C)]
    assert str(2 * (C + 5)) == s.labels[1, 5]
