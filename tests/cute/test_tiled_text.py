"""TiledMMA from C++'s texts: print(tiled_mma)'s block and the make_tiled_mma(...) expression (issue 23).

The oracle is CuTe C++ itself: ``tests/cute/cute_cpp.py`` compiled each ``make_tiled_mma`` expression of
``PRINTS`` against the CUTLASS 4.2 headers and stored what ``print`` wrote.
"""

import numpy as np
import pytest

from unilayout import ParseError, cute
from unilayout.cute.family import TILED
from unilayout.cute.tiled_text import parse_tiled_mma

from . import cute_cpp

CASES = [(key.split(":", 1)[1], expr) for key, expr in cute_cpp.PRINTS if key.startswith("tiled_mma:")]


def _printed(key):
    """C++'s block, and its fields without the static markers."""
    text = cute_cpp.raw(f"tiled_mma:{key}")
    fields = dict(line.strip().split(":", 1) for line in text.splitlines() if ":" in line)
    return text, {k: v.strip().replace("_", "") if k != "PermutationMNK" else v.strip() for k, v in fields.items()}


def _same(a, b):
    for f in ("get_layoutA_TV", "get_layoutB_TV", "get_layoutC_TV"):
        x, y = getattr(a, f)(), getattr(b, f)()
        assert x.shape == y.shape and np.array_equal(x.index_map(), y.index_map()), f
    assert a.tile_size_mnk() == b.tile_size_mnk() and a.thr_layout_vmnk == b.thr_layout_vmnk


@pytest.mark.parametrize("key,expr", CASES)
def test_cpp_expression_builds_what_cpp_prints(key, expr):
    """make_tiled_mma(OP{}, Layout<..>{}, Tile<..>{}) read here gives the ThrLayoutVMNK and atom C++ printed."""
    mma = parse_tiled_mma(expr)
    _, f = _printed(key)
    assert str(mma.thr_layout_vmnk) == f["ThrLayoutVMNK"]
    assert (str(mma.atom.thr_id), str(mma.atom.layout_a), str(mma.atom.layout_b), str(mma.atom.layout_c)) == (
        f["ThrID"], f["LayoutA_TV"], f["LayoutB_TV"], f["LayoutC_TV"])


@pytest.mark.parametrize("key,expr", CASES)
def test_cpp_print_block_reads_to_the_tiled_mma_it_printed(key, expr):
    text, f = _printed(key)
    mma = parse_tiled_mma(text)
    _same(mma, parse_tiled_mma(expr))
    assert mma.permutation_mnk == parse_tiled_mma(expr).permutation_mnk
    assert TILED.parse(text) == mma                               # the family record reads it too


def test_print_block_names_a_representative_atom_with_the_printed_traits():
    """C++ prints no types: F16 and BF16 atoms share their layouts, and the first in the catalogue is read."""
    text, _ = _printed("tile")
    atom = parse_tiled_mma(text).atom
    first = next(n for n in cute.mma_atoms() if cute.mma_atom(n).layout_a == atom.layout_a
                 and cute.mma_atom(n).shape_mnk == (16, 8, 16) and cute.mma_atom(n).thr_id == atom.thr_id)
    assert atom.name == first


@pytest.mark.parametrize("name,layout,perm", [
    ("SM80_16x8x16_F32BF16BF16F32_TN", (2, 2, 1), (32, None, 16)),
    ("SM70_8x8x4_F16F16F16F16_TT", (2, 2, 1), None),
    ("SM90_64x64x16_F32F16F16_RS", (2, 1, 1), None),
    ("SM61_DP4A", (4, 8, 1), None),
])
def test_str_of_tiled_mma_reads_back(name, layout, perm):
    mma = cute.make_tiled_mma(name, layout, perm)
    assert parse_tiled_mma(str(mma)) == mma
    one = parse_tiled_mma(str(mma.atom).replace("MMA_Atom " + name, "MMA_Atom"))    # print(mma_atom), unnamed
    _same(one, cute.make_tiled_mma(one.atom))
    assert one.atom.layout_c == mma.atom.layout_c


def test_exported_from_cute():
    assert cute.parse_tiled_mma is parse_tiled_mma and "parse_tiled_mma" in cute.__all__


@pytest.mark.parametrize("text,match", [
    ("TiledMMA\n  ThrLayoutVMNK:  (_32,_2,_2,_1):(_1,_32,_64,_0)\n  PermutationMNK: (_,_,_)\nMMA_Atom\n"
     "  ThrID:      _32:_1\n  Shape_MNK:  (_16,_8,_16)\n  LayoutA_TV: (_32,_4):(_1,_32)\n"
     "  LayoutB_TV: ((_4,_8),(_2,_2)):((_16,_1),(_8,_64))\n  LayoutC_TV: ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))",
     "no MMA atom in the catalogue"),
    ("TiledMMA\n  ThrLayoutVMNK:  (_32,_2,_2,_1):(_1,_32,_48,_0)\n  PermutationMNK: (_,_,_)\nMMA_Atom\n"
     "  ThrID:      _32:_1\n  Shape_MNK:  (_16,_8,_8)\n  LayoutA_TV: ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))\n"
     "  LayoutB_TV: ((_4,_8),_2):((_16,_1),_8)\n  LayoutC_TV: ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))",
     "ThrLayoutVMNK"),
    ("TiledMMA\n  PermutationMNK: (_,_,_)\nMMA_Atom\n  ThrID: _32:_1", "Shape_MNK"),
    ("TiledMMA\n  something odd\n", "Key: value"),
    ("make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Foo<_2>{})", "cannot read 'Foo'"),
    ("make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN<int>{})", "template arguments"),
    ("make_tiled_mma(SM80_16x8x99_F32F16F16F32_TN{})", "no MMA atom named"),
    ("make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2>>{}", "',' or '\\)'"),
])
def test_bad_tiled_mma_text_is_a_parse_error(text, match):
    with pytest.raises(ParseError, match=match):
        parse_tiled_mma(text)


@pytest.mark.parametrize("name,layout", [
    ("SM70_8x8x4_F32F16F16F32_NT", cute.Layout((2, 2, 1), (1, 4, 0))),     # a gap: atoms 0, 1, 4, 5
    ("SM80_16x8x8_F16F16F16F16_TN", cute.Layout((2, 3, 1), (3, 1, 0))),    # row-major over 2x3 atoms
    ("SM90_64x64x16_F32F16F16_SS", cute.Layout((2, 1, 2), (1, 0, 2))),     # K split over warpgroups
    ("SM70_8x8x4_F16F16F16F16_TN", cute.Layout((2, 2, 2), (2, 1, 4))),
])
def test_atom_layout_is_recovered_from_thr_layout_vmnk(name, layout):
    mma = cute.make_tiled_mma(name, layout)
    text = str(mma).replace(f"MMA_Atom {name}", "MMA_Atom")           # as C++ prints it: no atom name
    got = parse_tiled_mma(text)
    assert got.atom_layout_mnk == layout and got.thr_layout_vmnk == mma.thr_layout_vmnk
    _same(got, mma)


def test_integers_past_int64_and_tiles_past_int64_are_parse_errors():
    # fuzz (issue 30): a 5,000-digit _N was Python's digit-limit ValueError; a 2**63 value layout printed a tile that
    # did not read back
    import pytest

    from unilayout import ParseError, _families

    tiled = _families.record("tiled")
    with pytest.raises(ParseError, match="past int64"):
        tiled.parse("make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_" + "1" * 5000 + ">>{}, "
                    "Tile<_32,_32,_16>{})")
    with pytest.raises(ParseError, match="past int64"):
        tiled.parse("make_tiled_copy(Copy_Atom<SM75_U32x4_LDSM_N, half_t>, (32,1), (9223372036854775808,8))")
