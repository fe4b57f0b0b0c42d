"""TiledCopy: TV layouts and partitions equal CuTe C++'s; every element of the tile is moved once."""

import numpy as np
import pytest

from unilayout import cute
from unilayout.cute import (
    Layout, Tensor, copy_atom, make_identity_tensor, make_tiled_copy, make_tiled_copy_A, make_tiled_copy_B,
    make_tiled_copy_C, make_tiled_mma,
)
from unilayout.errors import LayoutError

from . import cute_cpp

CPP = cute_cpp.load()


def _norm(x) -> str:
    return str(x).replace(" ", "")


def _layout(text):
    return cute.parse(text.replace("Layout<Shape<", "(").replace(">,Stride<", "):(").replace(">>{}", ")")
                      .replace("_", ""))


def _make(case):
    _, name, bits, how, _ = case
    atom = copy_atom(name, bits)
    if how[0] == "tv":
        return make_tiled_copy(atom, _layout(how[1]), _layout(how[2]))
    mma = make_tiled_mma(how[1], _layout(how[2]).shape)
    return {"A": make_tiled_copy_A, "B": make_tiled_copy_B, "C": make_tiled_copy_C}[how[0]](atom, mma)


@pytest.mark.parametrize("case", cute_cpp.TILED_COPY, ids=[c[0] for c in cute_cpp.TILED_COPY])
def test_tiled_copy_equals_cute_cpp(case):
    tc = _make(case)
    s, d, tiler = CPP[f"tcopy:{case[0]}"].split("|")
    assert (_norm(tc.get_layoutS_TV()), _norm(tc.get_layoutD_TV()), _norm(tc.tiler_mn)) == (s, d, tiler)
    for thr, shape, stride in case[4]:
        for which in "SD":
            part = getattr(tc.get_slice(thr), f"partition_{which}")
            layout, offset = part(Layout(shape, stride))
            assert f"{_norm(layout)}|{offset}" == CPP[f"cpart:{case[0]}:{thr}:{which}"]


@pytest.mark.parametrize("case", cute_cpp.TILED_COPY, ids=[c[0] for c in cute_cpp.TILED_COPY])
def test_every_tile_element_is_moved(case):
    tc = _make(case)
    m, n = tc.tiler_mn
    for tv in (tc.get_layoutS_TV(), tc.get_layoutD_TV()):
        counts = np.bincount(tv.index_map(), minlength=m * n)
        assert len(counts) == m * n and (counts >= 1).all()


def test_partition_of_a_tensor_reads_the_coordinates_of_the_identity_partition():
    tc = make_tiled_copy(copy_atom("UniversalCopy<uint64_t>", 16), Layout((8, 4), (4, 1)), Layout((1, 4)))
    T = Tensor(np.arange(16 * 32), Layout((16, 32), (32, 1)))
    for t in (0, 13, 31):
        part = tc.get_slice(t).partition_S(T)
        coords = tc.get_slice(t).partition_S(make_identity_tensor((16, 32)))
        assert part.shape == coords.shape
        assert [int(part[i]) for i in range(part.layout.size)] == \
            [coords[i][0] * 32 + coords[i][1] for i in range(part.layout.size)]


def test_bad_arguments_are_refused():
    with pytest.raises(LayoutError, match="expected a CopyAtom"):
        make_tiled_copy("UniversalCopy<uint32_t>", Layout(32))
    with pytest.raises(LayoutError, match="expected a TiledMMA"):
        make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", 16), None)
    with pytest.raises(LayoutError, match="not a whole number"):
        make_tiled_copy(copy_atom("SM75_U32x4_LDSM_N", 16), Layout(16), Layout(8))
    with pytest.raises(LayoutError, match="outside"):
        make_tiled_copy(copy_atom("UniversalCopy<uint32_t>", 32), Layout(32)).get_slice(32)


def test_an_atom_wider_than_the_fragment_is_refused_as_cpp_does():
    """C++: static_assert 'TiledCopy uses too few vals for selected CopyAtom' (ldmatrix.x4.trans: 8 values)."""
    mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
    with pytest.raises(LayoutError, match="not a whole number of SM75_U16x8_LDSM_T atoms"):
        make_tiled_copy_B(copy_atom("SM75_U16x8_LDSM_T", 16), mma)
