"""cute.ir_read: the leaves, tuples, layouts and swizzles inside CuTe IR's types; the fast path agrees with the
Scanner's path on every spelling."""

import pytest

from unilayout import cute
from unilayout._text import Scanner
from unilayout.cute.dyn import Dyn
from unilayout.cute.ir_read import congruent_profile, read_dyn, read_layout, read_swizzle, read_tuple
from unilayout.errors import NotRepresentableError, ParseError

COMPACT = ["(?,?{div=64},((?,?),?)):(?{i64 div=64},1,((?{div=64},?{div=64}),?{div=64}))", "8:1", "(8):(1)",
           "((2,3),4):((1@0@0,1@1@0),1@1)", "(-1,3):(1,2)", "(2,3):(1,1@0)", "(1,2):(1,2,3)", "(2,(3,4),5):(12,(4,1),60)"]


@pytest.mark.parametrize("text", COMPACT)
def test_the_fast_path_and_the_scanner_path_agree(text):
    spaced = text.replace(",", ", ").replace(":", " : ")  # spaces send the text the Scanner's way
    try:
        fast = read_layout(Scanner(text))
    except ParseError as e:
        with pytest.raises(ParseError) as slow:
            read_layout(Scanner(spaced))
        assert slow.value.message == e.message
        return
    assert read_layout(Scanner(spaced)) == fast


def test_fly_basis_modes_read_outer_first():
    assert read_layout(Scanner("(2,3):(1E0E1,1E1E1)"), "fly").stride == (
        cute.ScaledBasis(1, (0, 1)), cute.ScaledBasis(1, (1, 1)))


def test_dynamic_leaves_read_to_dyn_and_bad_braces_are_parse_errors():
    assert read_dyn(Scanner("?{i64}")) == Dyn(bits=64)
    assert read_dyn(Scanner("?{i32 div=4}")) == Dyn(div=4)
    with pytest.raises(ParseError, match="divisibility is a positive integer"):
        read_dyn(Scanner("?{div=0}"))


def test_a_dynamic_basis_value_is_not_representable():
    with pytest.raises(NotRepresentableError, match="dynamic basis stride"):
        read_tuple(Scanner("(?@0,1@1)"), "stride")


def test_a_basis_leaf_is_no_shape_or_coord_leaf():
    with pytest.raises(ParseError, match="not a leaf of a shape"):
        read_tuple(Scanner("(1@0,2)"), "shape")


def test_nesting_past_the_limit_is_a_parse_error():
    with pytest.raises(ParseError, match="nesting deeper"):
        read_tuple(Scanner("(" * 70 + "1" + ")" * 70), "shape")


def test_swizzle_limits_are_cute_irs():
    assert read_swizzle(Scanner("S<3,5,4>")) == cute.Swizzle(3, 5, 4)
    with pytest.raises(ParseError, match="<= 32"):
        read_swizzle(Scanner("S<3,4,30>"))
    assert read_swizzle(Scanner("S<3,4,30>"), cute_ir=False) == cute.Swizzle(3, 4, 30)


def test_congruent_profile():
    assert congruent_profile((1, (2, 3)), (Dyn(), (4, 5)))
    assert not congruent_profile(1, (1,))
