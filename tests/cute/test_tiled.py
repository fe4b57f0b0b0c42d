"""TiledMMA: TV layouts, thread layouts and partitions equal CuTe C++'s; ownership properties hold."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unilayout import cute
from unilayout.cute import Layout, Tensor, make_identity_tensor, make_tiled_mma, mma_atom, mma_atoms
from unilayout.errors import LayoutError

from . import cute_cpp

CPP = cute_cpp.load()


def _norm(x) -> str:
    return str(x).replace(" ", "")


def _perm(p):
    if isinstance(p, str):  # the C++ text of a layout tiler
        return cute.parse(p.replace("Layout<Shape<", "(").replace(">,Stride<", "):(").replace(">>{}", ")")
                          .replace("_", ""))
    return p


def _make(case):
    key, name, lay, perm, _ = case
    text = lay.replace("Layout<Shape<", "(").replace(">,Stride<", "):(").replace(">>{}", ")").replace("_", "")
    atom_layout = cute.parse(text)
    if ":" not in text:  # Layout<Shape<...>> is compact: size-1 modes get stride 0, as make_tiled_mma's shape form
        atom_layout = atom_layout.shape
    return make_tiled_mma(name, atom_layout, tuple(_perm(p) for p in perm))


@pytest.mark.parametrize("case", cute_cpp.TILED, ids=[c[0] for c in cute_cpp.TILED])
def test_tiled_mma_equals_cute_cpp(case):
    mma = _make(case)
    vmnk, c, a, b, tile = CPP[f"tiled:{case[0]}"].split("|")
    assert _norm(mma.thr_layout_vmnk) == vmnk
    assert (_norm(mma.get_layoutC_TV()), _norm(mma.get_layoutA_TV()), _norm(mma.get_layoutB_TV())) == (c, a, b)
    assert _norm(mma.tile_size_mnk()) == tile


@pytest.mark.parametrize("case", cute_cpp.TILED, ids=[c[0] for c in cute_cpp.TILED])
def test_partitions_equal_cute_cpp(case):
    mma = _make(case)
    for thr, sc, sa, sb in case[4]:
        s = mma.get_slice(thr)
        for which, shape, part in (("C", sc, s.partition_C), ("A", sa, s.partition_A), ("B", sb, s.partition_B)):
            layout, offset = part(Layout(shape))
            assert f"{_norm(layout)}|{offset}" == CPP[f"part:{case[0]}:{thr}:{which}"]


def _owners(tv, size):
    counts = np.zeros(size, dtype=np.int64)
    np.add.at(counts, tv.index_map(), 1)
    return counts


ATOMS = [n for n in mma_atoms() if not n.startswith(("SM90_64x", "SM100"))] + [
    "SM90_64x64x16_F32F16F16_SS", "SM90_64x32x16_F16F16F16_RS", "SM90_64x24x8_F32TF32TF32_RS_TN",
    "SM100_64x32x16_F32F16F16_SS", "SM100_128x64x16_F32BF16BF16_2x1SM_SS"]
INT4_BAD_B = {n for n in ATOMS if n.startswith("SM80_16x8x32_S32") and ("S4" in n or "U4" in n)}


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(ATOMS), st.sampled_from([(1, 1, 1), (2, 1, 1), (1, 2, 1), (2, 2, 1), (4, 2, 1), (2, 1, 2)]),
       st.booleans(), st.integers(1, 2), st.integers(1, 2))
def test_each_c_element_has_one_owner_and_a_b_follow_c(name, layout, row_major, rm, rn):
    """C is owned once (with compact threads and no K split); A and B cover their M x K and N x K tiles.

    (A thread's A rows need not contain its C rows: tensor cores exchange operands across the warp.)
    """
    atom = mma_atom(name)
    lay = Layout(layout, (layout[1] * layout[2], layout[2], 1)) if row_major else layout
    mma0 = make_tiled_mma(atom, lay)
    m0, n0, k0 = mma0.tile_size_mnk()
    mma = make_tiled_mma(atom, lay, (m0 * rm, n0 * rn, None))
    m, n, k = mma.tile_size_mnk()
    c, a, b = mma.get_layoutC_TV(), mma.get_layoutA_TV(), mma.get_layoutB_TV()
    # the thread mode runs over thread indices up to the last one used: SM70's quad-pairs leave gaps
    assert c[0].size == a[0].size == b[0].size >= mma.size
    owners = _owners(c, m * n)
    if layout[2] == 1 and c[0].size == mma.size:  # threads along K (or gaps) own C several times over
        assert (owners == 1).all()
    else:
        assert (owners >= 1).all()
    # A and B are consistent with the tile: every element of the M x K tile of A and N x K of B is held
    assert (_owners(a, m * k) >= 1).all()
    if name not in INT4_BAD_B:
        assert (_owners(b, n * k) >= 1).all()


def test_partition_of_a_tensor_is_a_view_and_of_an_identity_tensor_its_coordinates():
    mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
    data = np.arange(64 * 32)
    T = Tensor(data, Layout((64, 32)))
    thr = mma.get_slice(37)
    part = thr.partition_C(T)
    coords = thr.partition_C(make_identity_tensor((64, 32)))
    assert part.shape == coords.shape == ((2, 2), 2, 2)
    for i in range(part.layout.size):
        mm, nn = coords[i]
        assert int(part[i]) == mm + 64 * nn
    # the coordinates of thread 37's values are what get_layoutC_TV says, tile by tile
    tv = mma.get_layoutC_TV()
    assert {coords[(v, 0, 0)] for v in range(4)} == {divmod(tv(37, v), 32)[::-1] for v in range(4)}


def test_thread_slices_and_shapes():
    mma = make_tiled_mma("SM70_8x8x4_F32F16F16F32_TN", (2, 2, 1))
    assert mma.size == 32 and mma.get_slice(21).thr_vmnk == (5, 1, 0, 0)  # 21 = 1 + 16 (lane 1 of quad-pair 1) + 4 (M-atom 1)
    assert make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2)).partition_shape_C((128, 64)) == ((2, 2), 4, 4)


def test_bad_arguments_are_refused():
    with pytest.raises(LayoutError, match="at most 3"):
        make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN", Layout((2, 2, 1, 1)))
    with pytest.raises(LayoutError, match="permutation must be"):
        make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN", None, (1.5,))
    with pytest.raises(LayoutError, match="expected an MMAAtom"):
        make_tiled_mma(3)
    with pytest.raises(LayoutError, match="outside"):
        make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN").get_slice(32)


def test_tiled_mma_is_a_value_whose_repr_pastes_back():
    mma = make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN", (2, 2), (32, None, None))
    env = {"make_tiled_mma": make_tiled_mma, "mma_atom": mma_atom, "Layout": Layout}
    assert eval(repr(mma), env) == mma
    assert "ThrLayoutVMNK:  (32,2,2,1):(1,32,64,0)" in str(mma)


def test_parse_tiled_mma_reads_the_cli_descriptions():
    from unilayout.cute.tiled import parse_tiled_mma
    from unilayout.errors import ParseError

    assert parse_tiled_mma("SM80_16x8x16_F32F16F16F32_TN (2,2,1)") == make_tiled_mma(
        "SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
    assert parse_tiled_mma("make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN, (2,2,1):(2,1,0), (32,_,_))") == \
        make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN", Layout((2, 2, 1), (2, 1, 0)), (32, None, None))
    assert parse_tiled_mma("(4,2):(2,1)") is None
    with pytest.raises(ParseError, match="no MMA atom named 'SM80_x'") as e:
        parse_tiled_mma("SM80_x (2,2,1)")
    assert e.value.position == 0
    with pytest.raises(ParseError, match="no more"):
        parse_tiled_mma("SM80_16x8x8_F16F16F16F16_TN (2,2,1) (32,_,_) (1,1)")


def test_cli_shows_and_renders_a_tiled_mma(tmp_path, capsys):
    from unilayout.cli import main

    assert main(["show", "SM80_16x8x16_F32F16F16F32_TN (2,2,1)"]) == 0
    out = capsys.readouterr().out
    assert "ThrLayoutVMNK:  (32,2,2,1):(1,32,64,0)" in out and "Shape_MNK:  (16,8,16)" in out
    path = tmp_path / "mma.svg"
    assert main(["render", "SM80_16x8x8_F16F16F16F16_TN", "-o", str(path)]) == 0
    assert 'data-operand="2"' in path.read_text()
    assert main(["show", "SM80_nope"]) == 2


@pytest.mark.parametrize("name, lay", [("SM80_16x8x16_F32F16F16F32_TN", (2, 2)), ("SM80_16x8x8_F16F16F16F16_TN", (4, 1)),
                                       ("SM70_8x8x4_F32F16F16F32_TN", (2, 2)), ("SM75_16x8x8_F32F16F16F32_TN", (1, 2))])
def test_c_owners_agree_with_tensor_layouts_grid(name, lay):
    """tensor-layouts' tile_mma_grid (its make_tiled_mma model) names the same thread for every C element."""
    tl = pytest.importorskip("tensor_layouts")
    from tensor_layouts import atoms_nv
    from tensor_layouts.layout_utils import tile_mma_grid

    mma = make_tiled_mma(name, lay + (1,))
    m, n, _ = mma.tile_size_mnk()
    thr, _ = cute.tv_table(mma.get_layoutC_TV(), (m, n))
    grid, shape = tile_mma_grid(getattr(atoms_nv, name), tl.Layout(lay, (1, lay[0])), "C")
    assert shape[:2] == (m, n) and len(grid) == m * n
    assert all(thr[r, c] == t for (r, c), (t, _, _) in grid.items())
