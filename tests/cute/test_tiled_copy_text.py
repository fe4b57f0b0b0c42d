"""TiledCopy from C++'s print(tiled_copy) block (issue 23); the text is CuTe C++'s own print (cute_cpp PRINTS)."""

import numpy as np
import pytest

from unilayout import ParseError, cute
from unilayout.cute.family import TILED
from unilayout.cute.tiled_copy_text import parse_tiled_copy

from . import cute_cpp


def test_cpp_print_block_reads_to_the_tiled_copy_it_printed():
    expr = dict(cute_cpp.PRINTS)["tiled_copy"]
    assert "UniversalCopy<uint128_t>, half_t" in expr and "Shape<_16,_8>,Stride<_8,_1>" in expr
    built = cute.make_tiled_copy(cute.copy_atom("UniversalCopy<uint128_t>", 16), cute.Layout((16, 8), (8, 1)),
                                 cute.Layout((1, 8)))
    text = cute_cpp.raw("tiled_copy")
    tc = parse_tiled_copy(text)
    assert tc.tiler_mn == built.tiler_mn and tc.layout_tv == built.layout_tv
    for f in ("get_layoutS_TV", "get_layoutD_TV"):
        assert np.array_equal(getattr(tc, f)().index_map(), getattr(built, f)().index_map())
    assert (tc.atom.layout_src, tc.atom.layout_dst, tc.atom.element_bits) == (
        built.atom.layout_src, built.atom.layout_dst, 16)
    assert TILED.parse(text) == tc


@pytest.mark.parametrize("atom,bits,thr,val", [
    ("SM75_U32x4_LDSM_N", 16, (32, 1), (1, 8)),
    ("UniversalCopy<uint32_t>", 32, ((16, 8), (8, 1)), None),
])
def test_str_of_tiled_copy_reads_back(atom, bits, thr, val):
    tc = cute.make_tiled_copy(cute.copy_atom(atom, bits), cute.Layout(*thr) if isinstance(thr[0], tuple)
                              else cute.Layout(thr), None if val is None else cute.Layout(val))
    assert parse_tiled_copy(str(tc)) == tc


@pytest.mark.parametrize("text,match", [
    ("TiledCopy\n  Tiler_MN: (_16,_64)\n  TiledLayout_TV: ((_8,_16),_8):((_128,_1),_16)\nCopy_Atom\n  ThrID: _1:_0\n"
     "  ValLayoutSrc: (_1,_8):(_0,_1)\n  ValLayoutDst: (_1,_8):(_0,_1)\n  ValLayoutRef: (_1,_8):(_0,_1)", "ValueType"),
    ("TiledCopy\n  Tiler_MN: (_16,_64)\n  TiledLayout_TV: ((_8,_16),_8):((_128,_1),_16)\nCopy_Atom\n  ThrID: _1:_0\n"
     "  ValLayoutSrc: (_1,_7):(_0,_1)\n  ValLayoutDst: (_1,_7):(_0,_1)\n  ValLayoutRef: (_1,_7):(_0,_1)\n"
     "  ValueType: 16b", "no copy atom"),
    ("TiledCopy\n  Tiler_MN: (_16,_64)\nCopy_Atom\n  ThrID: _1:_0\n", "ValLayoutSrc"),
])
def test_bad_tiled_copy_block_is_a_parse_error(text, match):
    with pytest.raises(ParseError, match=match):
        parse_tiled_copy(text)
