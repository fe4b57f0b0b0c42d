"""ScaledBasis strides, identity layouts and counting tensors (C++ ``E<k>``, ``make_identity_tensor``)."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unilayout import cute
from unilayout.cute import E, ScaledBasis, make_identity_layout, make_identity_tensor
from unilayout.cute.inttuple import idx2crd
from unilayout.errors import LayoutError, ParseError


def test_scaled_basis_arithmetic_is_positionwise():
    assert 3 * E(1) == ScaledBasis(3, 1)
    assert E(0) * 2 + E(2) * 5 == (2, 0, 5)
    assert ScaledBasis(2, (1, 0)) + E(0) == (1, (2,))
    assert ScaledBasis(0, 3) == 0 and hash(ScaledBasis(0, 3)) == hash(0)
    assert ScaledBasis(1, 2) != ScaledBasis(1, 1)


def test_scaled_basis_rejects_bad_modes():
    with pytest.raises(LayoutError, match="mode must be >= 0"):
        ScaledBasis(1, -1)
    with pytest.raises(LayoutError, match="must not be empty"):
        ScaledBasis(1, ())
    with pytest.raises(LayoutError, match="cannot add the integer 3"):
        E(0) + 3


@pytest.mark.parametrize("shape", [(4, 8), (2, (2, 3)), ((2, 2), 3, 2), (5,), ((3,), (2, 2))])
def test_identity_layout_maps_every_coordinate_to_itself(shape):
    ident = make_identity_layout(shape)
    for i in range(ident.size):
        c = idx2crd(i, shape)
        assert ident(c) == c
        assert ident(i) == c


def test_identity_of_an_int_shape_is_the_int_identity():
    assert make_identity_layout(6) == cute.Layout(6, 1)


def test_basis_layout_worked_table():
    L = cute.Layout((2, 3), (ScaledBasis(1, 1), ScaledBasis(2, 0)))
    assert [L(i) for i in range(6)] == [(0, 0), (0, 1), (2, 0), (2, 1), (4, 0), (4, 1)]


@settings(max_examples=60, deadline=None)
@given(st.tuples(st.integers(1, 6), st.integers(1, 6)), st.integers(1, 3), st.integers(1, 3))
def test_tiling_an_identity_layout_tiles_coordinates(mn, tm, tn):
    """zipped_divide of the identity gives, for each tile and element, the element's coordinate."""
    m, n = mn[0] * tm, mn[1] * tn
    ident = make_identity_layout((m, n))
    z = cute.zipped_divide(ident, (tm, tn))
    for (a, b), (r, s) in itertools.product(itertools.product(range(tm), range(tn)),
                                            itertools.product(range(mn[0]), range(mn[1]))):
        assert z((a, b), (r, s)) == (a + tm * r, b + tn * s)


@pytest.mark.parametrize("text", [
    "(128,32):(1@2,1@3)", "(2,(2,3)):(1@0,(1@(1,0),1@(1,1)))", "8:2@0", "(2,2):(1@0,0)", "((4,2),3):((1@1,4@1),1@0)",
])
def test_parse_reads_basis_strides_and_prints_back(text):
    L = cute.parse(text)
    assert str(L) == text
    assert cute.parse(str(L)) == L


def test_parse_reads_cpp_nested_basis_form():
    assert cute.parse("4:1@1@0") == cute.Layout(4, ScaledBasis(1, (0, 1)))


def test_parse_a_dynamic_basis_value_says_dynamic():
    with pytest.raises(ParseError, match="dynamic") as e:
        cute.parse("4:1@?")
    assert e.value.position == 4


def test_parse_reads_dynamic_leaves_as_dyn():  # CuTe IR's '?' (docs/cute_ir.md); once an error, see issue 24
    assert cute.parse("(4,?):(1,4)") == cute.Layout((4, cute.Dyn()), (1, 4))
    assert cute.parse("(4,8):(1,?{div=8})") == cute.Layout((4, 8), (1, cute.Dyn(div=8)))


def test_counting_tensor_slices_keep_coordinates():
    T = make_identity_tensor((4, (2, 3)))
    assert T[3, (1, 2)] == (3, (1, 2))
    col = T[None, (1, 2)]
    assert [col[i] for i in range(4)] == [(i, (1, 2)) for i in range(4)]
    assert T.coords()[5] == (1, (1, 0))


def test_index_map_of_a_basis_layout_is_refused():
    with pytest.raises(LayoutError, match="basis strides"):
        make_identity_layout((2, 2)).index_map()


def test_a_huge_basis_mode_is_refused_before_building_its_coordinate():
    import time

    t0 = time.perf_counter()
    with pytest.raises(LayoutError, match="coordinate of 1@100000000") as e:
        ScaledBasis(1, 100000000).to_coord()
    assert time.perf_counter() - t0 < 0.1 and len(str(e.value)) < 200


def test_adding_an_integer_to_a_long_coordinate_names_it_briefly():
    with pytest.raises(LayoutError, match=r"cannot add the integer 1 to the coordinate \(0, .*60 positions\)") as e:
        1 + ScaledBasis(1, 59)
    assert len(str(e.value)) < 200
