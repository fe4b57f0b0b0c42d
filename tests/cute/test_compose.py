import itertools

import pytest

from unilayout import LayoutError, cute
from unilayout.cute import (
    ComposedLayout,
    Layout,
    Swizzle,
    blocked_product,
    complement,
    left_inverse,
    logical_product,
    parse,
    right_inverse,
    upcast,
)


def _pad(c, n):
    """A flat coordinate (int, ArithTuple) as a plain n-tuple, missing positions 0."""
    c = tuple(c) if isinstance(c, tuple) else (c,)
    return c + (0,) * (n - len(c))


# Layouts whose values are flat coordinates (no nested positions), from the CuTe IR dialect cases and beyond.
FLAT_BASIS = ["(4,5):(1@0,1@1)", "(4,5):(1@1,1@0)", "(4,5):(2@0,2@1)", "(4,1,5):(1@0,0,1@1)", "(2,3):(0,1@0)",
              "((4,2),4):((1@1,4@0),1@0)", "((4,8),(2,2)):((2@1,1@0),(1@1,8@0))", "8:1@0",
              "((2,2,2),(2,2,2)):((1@0,2@1,4@0),(1@1,2@0,4@1))", "((2,2,2),(2,2,2)):((1@0,2@1,6@0),(1@1,2@0,6@1))"]


@pytest.mark.parametrize("text", FLAT_BASIS)
def test_right_inverse_of_a_basis_layout_maps_each_coordinate_back_to_an_index_of_it(text):
    """CuTe IR: R's domain is L's coordinate space, mode p indexing position p; L(R(c)) == c on R's domain."""
    L = parse(text)
    R = right_inverse(L)
    assert isinstance(R.shape, tuple)
    sizes = [cute.size(m) for m in R.shape]
    for c in itertools.product(*map(range, sizes)):
        assert _pad(L(R(c)), len(c)) == c, (str(R), c)


@pytest.mark.parametrize("text", FLAT_BASIS)
def test_left_inverse_of_a_basis_layout_takes_each_value_back_to_its_index(text):
    """L(R(L(i))) == L(i) for every index, R reading L's value as a coordinate (one 1-D index per mode of R)."""
    L = parse(text)
    R = left_inverse(L)
    n = len(R.shape)
    for i in range(L.size):
        assert _pad(L(R(_pad(L(i), n))), n) == _pad(L(i), n)


def test_inverses_of_a_transposed_basis_layout_are_cute_ir_results():
    """The worked example of docs/cute.md: coordinate (x, y) of (4,5):(1@1,1@0) comes from index 4x + y."""
    L = parse("(4,5):(1@1,1@0)")
    assert str(right_inverse(L)) == str(left_inverse(L)) == "(5,4):(4,1)"
    assert str(left_inverse(parse("(4,5):(2@0,2@1)"))) == "((2,4),(2,5)):((0,1),(0,4))"
    assert str(right_inverse(parse("(4,5):(2@0,2@1)"))) == "(1,1):(0,0)"  # no position reaches 1@p: 1:0 each


def test_inverse_of_a_nested_basis_layout_has_the_nested_coordinate_space():
    assert str(left_inverse(parse("(4,5):(1@1,1@1@4)"))) == "(1,4,1,1,(1,5)):(0,1,0,0,(0,4))"


@pytest.mark.parametrize("inverse", [left_inverse, right_inverse])
@pytest.mark.parametrize("text", ["(2,2):(1@1,4)", "(2,2):(1@0,1@(0,1))"])
def test_inverse_of_a_layout_mixing_offsets_and_coordinates_is_a_layout_error(inverse, text):
    with pytest.raises(LayoutError, match="integer beside basis strides|both whole and as a nested"):
        inverse(cute.parse(text))


def test_left_inverse_of_a_non_invertible_basis_layout_is_a_layout_error():
    with pytest.raises(LayoutError, match="not a multiple of 2"):
        left_inverse(parse("(2,3):(2@0,3@0)"))


@pytest.mark.parametrize("inverse", [left_inverse, right_inverse])
def test_inverse_of_a_swizzled_basis_layout_is_a_layout_error(inverse):
    with pytest.raises(LayoutError, match="basis strides"):
        inverse(ComposedLayout(Swizzle(1, 0, 1), 0, cute.parse("(2,2):(1@0,1@1)")))


@pytest.mark.parametrize("text", ["3:1@0", "3:4@2", "(2,5,3):(4@1,5@0,16@1)", "(4,3):(2@0,1@1)", "(4,5):(2@0,2@1)",
                                  "((4,2),4):((1@1,4@0),1@0)"])
def test_complement_of_a_basis_layout_reaches_no_coordinate_of_it_and_fills_each_position(text):
    """Post-conditions per position: L(i) + C(j) all different, and together exactly the box of p's extents."""
    L = parse(text)
    C = complement(L)
    n = len(C.shape)
    seen = {_pad(L(i) + C(j), n) for i in range(L.size) for j in range(C.size)}
    assert len(seen) == L.size * C.size
    extents = [max(c[p] for c in seen) + 1 for p in range(n)]
    assert len(seen) == cute.size(tuple(extents))  # no hole: the complement fills each position's extent


def test_complement_of_a_basis_layout_keeps_cute_irs_grouping():
    """No cotarget: one mode per position (a size-1 rest kept, an unused position 1:1@p), not coalesced."""
    assert str(complement(parse("3:4@2"))) == "(1,1,(4,1)):(1@0,1@1,(1@2,12@2))"
    assert str(complement(parse("(2,3,5):(4@1,5@0,7@1@2)"))) == \
        "((5,1),(4,1),(1,(7,1))):((1@0,15@0),(1@1,8@1),(1@(2,0),(1@(2,1),35@(2,1))))"


def test_products_complement_a_basis_layout_spilling_the_cotarget_into_its_last_position():
    """Inside a product the cotarget size(A)*cosize(B) is an int: positions but the last end covered."""
    B = Layout((2, 5), (1, 2))
    assert str(logical_product(parse("(4,3):(1@0,1@1)"), B)[1]) == "(2,5):(3@1,6@1)"  # complement 10:3@1
    assert str(logical_product(parse("(4,3):(2@0,1@1)"), B)[1]) == "(2,5):(1@0,3@1)"  # complement (2,5):(1@0,3@1)
    assert str(logical_product(parse("4:1@0"), Layout(3, 1))) == "(4,3):(1@0,4@0)"


@pytest.mark.parametrize("cotarget", [24, (4, 6)])
def test_complement_of_a_basis_layout_with_a_cotarget_is_a_layout_error(cotarget):
    """CuTe IR's complement op refuses a cotarget beside basis strides (complement_errors.mlir)."""
    with pytest.raises(LayoutError, match="without a cotarget only"):
        complement(parse("(2,3):(1@0,1@1)"), cotarget)


@pytest.mark.parametrize("text", ["(4,3):(1@0,1@1)", "(4,3):(2@0,1@1)", "4:1@0", "(2,2):(1@1,1@0)"])
def test_logical_product_of_a_basis_layout_repeats_it_over_new_coordinates(text):
    A, B = parse(text), Layout((2, 5), (1, 2))
    R = logical_product(A, B)
    assert R[0] == A and R.size == A.size * B.size
    values = {_pad(R(i), 4) for i in range(R.size)}
    assert len(values) == R.size  # injective, as A is


def test_blocked_product_of_a_basis_layout_is_the_cute_ir_result():
    assert str(blocked_product(parse("(4,3):(1@0,1@1)"), Layout((2, 5), (1, 2)))) == \
        "((4,2),(3,5)):((1@0,3@1),(1@1,6@1))"


@pytest.mark.parametrize("text", ["(2,2):(1@1,4)", "(2,2):(4,1@0)"])
def test_complement_and_products_of_a_layout_mixing_offsets_and_coordinates_are_layout_errors(text):
    L = parse(text)
    for f in (lambda: complement(L), lambda: logical_product(L, Layout(2, 1)), lambda: blocked_product(L, Layout(2, 1))):
        with pytest.raises(LayoutError, match="integer beside basis strides"):
            f()


def test_upcast_of_a_basis_layout_is_a_layout_error():
    with pytest.raises(LayoutError, match="basis stride"):
        upcast(2, parse("(4,5):(1@0,1@1)"))


@pytest.mark.parametrize("op", [right_inverse, left_inverse, complement])
def test_a_far_basis_position_is_refused_before_the_coordinate_space_is_built(op):
    with pytest.raises(LayoutError, match="positions of the coordinate space"):
        op(parse("3:1@100000000"))
