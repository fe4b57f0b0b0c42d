"""TiledCopy: TV layouts and partitions equal CuTe C++'s; every element of the tile is moved once."""

import numpy as np
import pytest

from unilayout import cute
from unilayout.cute import (
    Layout,
    Tensor,
    copy_atom,
    make_identity_tensor,
    make_tiled_copy,
    make_tiled_copy_A,
    make_tiled_copy_B,
    make_tiled_copy_C,
    make_tiled_mma,
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


# ---------------------------------------------------------------- descriptions (CLI, explorer)
@pytest.mark.parametrize("text, built", [
    ("make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>, (4,8):(8,1), (8,1))",
     lambda: make_tiled_copy(copy_atom("UniversalCopy<uint128_t>", 16), Layout((4, 8), (8, 1)), Layout((8, 1)))),
    ("Copy_Atom<SM75_U32x4_LDSM_N, 16> (32,1) (1,8)",
     lambda: make_tiled_copy(copy_atom("SM75_U32x4_LDSM_N", 16), Layout((32, 1)), Layout((1, 8)))),
    ("make_tiled_copy( Copy_Atom< SM80_CP_ASYNC_CACHEALWAYS<uint64_t> , float >, (16,8):(8,1) , (1,2))",
     lambda: make_tiled_copy(copy_atom("SM80_CP_ASYNC_CACHEALWAYS<uint64_t>", 32), Layout((16, 8), (8, 1)),
                             Layout((1, 2)))),
    ("Copy_Atom<UniversalCopy<uint32_t>, 32> 32", lambda: make_tiled_copy(copy_atom("UniversalCopy<uint32_t>", 32),
                                                                          Layout(32))),
    ("make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (2,2,1)))",
     lambda: make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", 16),
                               make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1)))),
    ("make_tiled_copy_C(Copy_Atom<UniversalCopy<uint32_t>, float>, SM80_16x8x8_F32TF32TF32F32_TN (2,1,1))",
     lambda: make_tiled_copy_C(copy_atom("UniversalCopy<uint32_t>", 32),
                               make_tiled_mma("SM80_16x8x8_F32TF32TF32F32_TN", (2, 1, 1)))),
])
def test_a_description_builds_the_same_tiled_copy(text, built):
    from unilayout.cute.tiled_copy import parse_tiled_copy

    got, want = parse_tiled_copy(text), built()
    assert got == want
    assert str(got.get_layoutS_TV()) == str(want.get_layoutS_TV()) and got.tiler_mn == want.tiler_mn


@pytest.mark.parametrize("text, position, words", [
    ("Copy_Atom<SM75_U32x4_LDSM_M, half_t> (32,1)", 10, "no copy atom"),
    ("Copy_Atom<SM75_U32x4_LDSM_N, half> (32,1)", 29, "unknown element type"),
    ("Copy_Atom<SM75_U32x4_LDSM_N, half_t> (32,1", 42, "thread layout"),
    ("make_tiled_copy(Copy_Atom<SM75_U32x4_LDSM_N, half_t>)", 52, "expected ','"),
    ("Copy_Atom<SM90_TMA_LOAD, half_t> (1,1)", 10, "tma_bits"),
    ("Copy_Atom<SM75_U32x4_LDSM_N, double> (32,1)", 29, "not valid for 64-bit"),
    ("make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>, (2,2))", 56, "TiledMMA"),
])
def test_a_bad_description_is_a_positioned_parse_error(text, position, words):
    from unilayout.cute.tiled_copy import parse_tiled_copy
    from unilayout.errors import ParseError

    with pytest.raises(ParseError) as e:
        parse_tiled_copy(text)
    assert e.value.position == position and words in str(e.value)


def test_other_text_is_not_a_tiled_copy():
    from unilayout.cute.tiled_copy import parse_tiled_copy

    assert parse_tiled_copy("(32,8):(8,1)") is None and parse_tiled_copy("SM80_16x8x8_F16F16F16F16_TN") is None


def test_cli_shows_and_renders_a_tiled_copy(tmp_path, capsys):
    import json

    from unilayout.cli import main

    text = "make_tiled_copy(Copy_Atom<SM75_U32x4_LDSM_N, half_t>, (32,1), (1,8))"
    tc = make_tiled_copy(copy_atom("SM75_U32x4_LDSM_N", 16), Layout((32, 1)), Layout((1, 8)))
    assert main(["show", text]) == 0
    out = capsys.readouterr().out
    assert f"layoutS_TV:     {tc.get_layoutS_TV()}" in out and f"layoutD_TV:     {tc.get_layoutD_TV()}" in out
    assert main(["show", text, "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["family"] == "tiled" and got["kind"] == "TiledCopy" and got["tiler_mn"] == [32, 8] and got["threads"] == 32
    path = tmp_path / "copy.svg"
    assert main(["render", text, "-o", str(path)]) == 0
    svg = path.read_text()
    assert svg.count('data-operand="0"') == svg.count('data-operand="1"') == 32 * 8
    assert main(["render", text, "-o", str(tmp_path / "copy.png")]) == 0
    assert (tmp_path / "copy.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["show", "Copy_Atom<SM75_U32x4_LDSM_N, half> (32,1)"]) == 2
    assert "unknown element type" in capsys.readouterr().err
