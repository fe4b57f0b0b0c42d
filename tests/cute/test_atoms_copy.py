"""Copy atoms: the recast layouts equal CuTe C++'s Copy_Atom<Op, T> (CUTLASS 4.2), and refusals are clear."""

import pytest

from unilayout.cute import copy_atom, copy_atoms
from unilayout.errors import LayoutError

from . import cute_cpp

CPP = cute_cpp.load()
CASES = sorted(k.split("=")[0] for k in CPP if k.startswith("catom:"))


def _norm(x) -> str:
    return str(x).replace(" ", "")


def test_every_atom_but_tma_has_cpp_outputs():
    names = {k.split(":")[1] for k in CASES}
    assert names == {n for n in copy_atoms() if not n.startswith("SM90_TMA")}


@pytest.mark.parametrize("key", CASES)
def test_recast_layouts_equal_cute_cpp(key):
    _, name, bits = key.split(":")
    a = copy_atom(name, int(bits))
    got = "|".join(_norm(x) for x in (a.thr_id, a.layout_src, a.layout_dst, a.layout_ref))
    assert got == CPP[key]


def test_ldmatrix_moves_an_8x8_matrix_per_address_group():
    """x4: 4 matrices of 8x8 halves; thread t receives 2 halves of row t/4 of each, at columns 2*(t%4)."""
    a = copy_atom("SM75_U32x4_LDSM_N", 16)
    assert a.layout_dst.size == 4 * 64
    offs = sorted(a.layout_dst(t, v) for t in range(32) for v in range(8))
    assert offs == list(range(256))
    assert [a.layout_dst(5, v) for v in range(2)] == [10, 11]


def test_stmatrix_is_ldmatrix_reversed():
    for n in ("U32x1", "U32x2", "U32x4"):
        ld, st = copy_atom(f"SM75_{n}_LDSM_N", 16), copy_atom(f"SM90_{n}_STSM_N", 16)
        assert (st.bits_src, st.bits_dst) == (ld.bits_dst, ld.bits_src)


def test_tma_views_move_one_box_per_thread():
    a = copy_atom("SM90_TMA_LOAD", 16, tma_bits=64 * 64 * 16)
    assert (a.num_threads, a.num_values) == (1, 4096)
    with pytest.raises(LayoutError, match="needs tma_bits"):
        copy_atom("SM90_TMA_STORE", 16)
    with pytest.raises(LayoutError, match="tma_bits is for the SM90_TMA"):
        copy_atom("SM75_U32x1_LDSM_N", 16, tma_bits=128)


def test_bad_names_and_widths_are_refused():
    with pytest.raises(LayoutError, match="did you mean 'SM75_U32x4_LDSM_N'"):
        copy_atom("SM75_U32x4", 16)
    with pytest.raises(LayoutError, match="not valid for 64-bit elements"):
        copy_atom("SM75_U32x4_LDSM_N", 64)
    with pytest.raises(LayoutError, match="positive int"):
        copy_atom("UniversalCopy<uint32_t>", 0)


def test_atoms_are_values():
    a = copy_atom("UniversalCopy<uint64_t>", 16)
    assert a == copy_atom("UniversalCopy<uint64_t>", 16) != copy_atom("UniversalCopy<uint64_t>", 32)
    assert eval(repr(a), {"copy_atom": copy_atom}) == a
