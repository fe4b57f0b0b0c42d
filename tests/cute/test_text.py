import pytest
from hypothesis import given

from cute_strategies import layouts
from unilayout import LayoutError, ParseError
from unilayout.cute import ComposedLayout, Layout, Swizzle, make_identity_layout, parse, tile_to_shape
from unilayout.cute.evaluate import index_map

from . import cute_cpp


@pytest.mark.parametrize("text,expected", [
    ("((2,2),2):((4,1),2)", Layout(((2, 2), 2), ((4, 1), 2))),
    ("8:1", Layout(8, 1)),
    ("(3):(1)", Layout((3,), (1,))),
    ("(_8,_4):(_4,_1)", Layout((8, 4), (4, 1))),
    ("( 3 , 4 ) : ( 1 , 3 )", Layout((3, 4), (1, 3))),
    ("(3,):(2,)", Layout((3,), (2,))),                    # pycute's form
    ("(4,2):(-1,4)", Layout((4, 2), (-1, 4))),
    ("(4,2):(_-1,4)", Layout((4, 2), (-1, 4))),
    ("(2,3)", Layout((2, 3))),                            # shape only: column-major
])
def test_parse_layouts(text, expected):
    assert parse(text) == expected


def test_parse_swizzles_and_composed_layouts():
    assert parse("Sw<3,4,3>") == Swizzle(3, 4, 3)
    assert parse("SW_3_4_3") == Swizzle(3, 4, 3)
    C = parse("Sw<3,4,3> o 0 o (8,64):(64,1)")
    assert C == ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, 64), (64, 1)))
    assert parse("Sw<3,4,3>_o_0_o_(8,64):(64,1)") == C
    assert parse("(4,4):(4,1) o 2 o 8:1") == ComposedLayout(Layout((4, 4), (4, 1)), 2, Layout(8, 1))


@given(layouts(max_depth=3))
def test_str_parse_round_trip(L):
    assert parse(str(L)) == L


def test_composed_round_trip():
    C = ComposedLayout(Swizzle(2, 1, -3), 5, Layout((4, (2, 2)), (1, (8, 4))))
    assert parse(str(C)) == C


@pytest.mark.parametrize("text,position", [
    ("(2,3):(1,", 9),
    ("(2,3)x(1,2)", 5),
    ("(2,3):(1,2))", 11),
    ("(2,3):(1)", 6),
    ("(2;3):(1,2)", 2),
    ("", 0),
    ("(2,0):(1,2)", 0),
    ("Sw<3,4>", 6),
    ("Sw<3,4,1>", 0),
    ("Sw<3,4,3> o 0", 13),
    ("Sw<3,4,3> o 0 o Sw<1,1,1>", 16),
    ("(" * 100 + "1" + ")" * 100, 65),
    ("(\u00b9)", 1),                                     # a superscript digit is not an int
])
def test_malformed_text_gives_parse_error_with_position(text, position):
    with pytest.raises(ParseError) as info:
        parse(text)
    assert info.value.position == position
    assert isinstance(info.value, LayoutError)
    assert "^" in str(info.value)


def test_parse_rejects_non_text():
    with pytest.raises(LayoutError):
        parse(42)


# --- the text round trip through the family parser and unilayout.parse -------------------------------
from hypothesis import strategies as st  # noqa: E402

import unilayout  # noqa: E402

_swizzles = st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(-6, 6)).filter(
    lambda t: abs(t[2]) >= t[0]).map(lambda t: Swizzle(*t))


@given(st.one_of(layouts(max_depth=3), _swizzles,
                 st.tuples(st.one_of(_swizzles, layouts()), st.integers(0, 64), layouts()).map(
                     lambda t: ComposedLayout(*t))))
def test_every_cute_value_round_trips_through_both_parsers(v):
    assert parse(str(v)) == v
    assert unilayout.parse(str(v)) == v


@pytest.mark.parametrize("v", [
    Layout(1, 0), Layout((), ()), Layout((1,), (0,)), Layout(((2, (3, 1)), 4), ((1, (2, 0)), -7)),
    Swizzle(0, 0, 0), Swizzle(3, 4, -3), ComposedLayout(Swizzle(2, 1, 3), 0, Layout((8, 8), (8, 1))),
])
def test_named_cute_values_round_trip(v):
    assert parse(str(v)) == v and unilayout.parse(str(v)) == v


def test_parse_reads_thousands_of_leading_zeros_as_the_number():
    assert parse("0" * 4301 + "4:1") == Layout(4, 1)
    assert parse("(" + "0" * 5000 + "2,3):(1," + "0" * 5000 + "2)") == Layout((2, 3), (1, 2))


# --- C++ print forms (issue 23): the texts are CuTe C++'s own prints (tests/cute/cute_cpp.py PRINTS) --------

_CPP = cute_cpp.load()
PRINTS, SMEM, raw = cute_cpp.PRINTS, cute_cpp.SMEM, cute_cpp.raw


def _same_function(a, b):
    ia, ib = index_map(a), index_map(b)
    return ia.shape == ib.shape and (ia == ib).all()


@pytest.mark.parametrize("kind,bits", SMEM)
def test_cpp_printed_smem_atom_reads_as_its_position_independent_form(kind, bits):
    """``Sw<3,4,3> o smem_ptr[16b](unset) o L`` (byte swizzle) is C++'s as_position_independent_swizzle_tensor."""
    printed = raw(f"smem:{kind}:{bits}")
    assert f"smem_ptr[{bits}b](unset)" in printed
    independent = parse(_CPP[f"smem:{kind}:{bits}"].split("|")[1].replace("o0o", " o 0 o "))
    assert _same_function(parse(printed), independent)


@pytest.mark.parametrize("kind,bits", SMEM)
def test_cpp_printed_swizzle_pointer_tensor_reads_as_element_function(kind, bits):
    """``Sw<..>_smem_ptr[16b]((nil)) o L``: the swizzle pointer's byte swizzle, as a function of element offsets."""
    atom = parse(_CPP[f"smem:{kind}:{bits}"].split("|")[1].replace("o0o", " o 0 o "))
    inner = atom.inner if isinstance(atom, ComposedLayout) else atom
    tiled = tile_to_shape(inner, (256, 256))
    expected = ComposedLayout(atom.outer, 0, tiled) if isinstance(atom, ComposedLayout) else tiled
    assert _same_function(parse(raw(f"smem_tensor:{kind}:{bits}")), expected)


@pytest.mark.parametrize("key", ["gmem_tensor", "ptr_tensor", "rmem_tensor"])
def test_cpp_printed_pointer_tensor_reads_as_its_layout(key):
    printed = raw(key)
    pointer, layout = printed.split(" o ")
    assert "ptr[" in pointer
    assert parse(printed) == parse(layout)


def test_cpp_printed_identity_tensor_reads_as_identity_layout():
    assert parse(raw("identity_tensor")) == make_identity_layout((4, 5))
    with pytest.raises(ParseError, match="non-zero base"):
        parse("ArithTuple(_1,_0) o (_4,_5):(_1@0,_1@1)")


def test_composed_layout_without_offset_reads_as_offset_zero():
    for key in ("sw_layout", "layout_o_layout"):
        printed = raw(key)                                  # C++ prints the offset: 'A o _2 o B'
        outer, offset, inner = printed.split(" o ")
        assert parse(printed) == ComposedLayout(parse(outer), int(offset.strip("_")), parse(inner))
        assert parse(f"{outer} o {inner}") == ComposedLayout(parse(outer), 0, parse(inner))
    assert parse("(4,8):(8,1) o 8") == ComposedLayout(Layout((4, 8), (8, 1)), 0, Layout(8, 1))


@pytest.mark.parametrize("text,match", [
    ("Sw<3,4,3>_smem_ptr[16b](0x7f0000000010) o (8,64):(64,1)", "not aligned"),
    ("Sw<3,0,3>_smem_ptr[64b](0x0) o (8,64):(64,1)", "inside a 64-bit element"),
    ("(8,8):(8,1) o smem_ptr[16b](unset) o (8,64):(64,1)", "after a swizzle"),
    ("ptr[12b](0x10) o 8:1", "power of two"),
    ("ptr[32b](0x10) (8,1)", "'o'"),
    ("Sw<3,4,3>_smem_ptr[16b]((nil)) o Sw<1,1,1> o 0 o 8:1", "plain layout"),
])
def test_bad_cpp_prints_are_parse_errors(text, match):
    with pytest.raises(ParseError, match=match):
        parse(text)


def test_every_cpp_print_case_is_stored():
    assert all(f"raw:{key}" in _CPP for key, _ in PRINTS)


def test_a_pointer_width_of_thousands_of_digits_is_a_parse_error():
    from unilayout import ParseError, cute

    with pytest.raises(ParseError, match="power of two up to 1024 bits"):
        cute.parse("gmem_ptr[" + "1" * 5000 + "b](0x7f00) o 8:1")


def test_a_swizzle_pointer_with_a_huge_number_is_a_parse_error_not_a_value_error():
    # found by tests/fuzz: Python's int() refuses 5,000 digits with a ValueError
    with pytest.raises(ParseError, match="out of range"):
        parse("Sw<3," + "1" * 5000 + ",3>_smem_ptr[16b]((nil)) o (8,64):(64,1)")
