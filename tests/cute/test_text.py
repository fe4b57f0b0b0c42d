import pytest
from hypothesis import given

from cute_strategies import layouts
from unilayout import LayoutError, ParseError
from unilayout.cute import ComposedLayout, Layout, Swizzle, parse


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
