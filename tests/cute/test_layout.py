import numpy as np
import pytest
from hypothesis import given

from cute_strategies import layouts
from unilayout import LayoutError
from unilayout.cute import (
    E,
    Layout,
    column_major,
    cosize,
    group,
    make_layout,
    make_layout_like,
    make_ordered_layout,
    row_major,
    select,
    size,
    slice_and_offset,
)


def test_seed_row_major_4x2():
    A = Layout((4, 2), (2, 1))
    assert all(A(m, n) == m * 2 + n for m in range(4) for n in range(2))
    assert all(A(m + n * 4) == A(m, n) for m in range(4) for n in range(2))


def test_seed_hierarchical_4x2():
    A = Layout(((2, 2), 2), ((4, 1), 2))
    for m in range(2):
        for n in range(2):
            for k in range(2):
                assert A((m, n), k) == m * 4 + n * 1 + k * 2


def test_default_stride_is_column_major_and_row_major_is_layout_right():
    assert Layout((2, 3, 4)).stride == (1, 2, 6)
    assert column_major((2, 3, 4)) == Layout((2, 3, 4), (1, 2, 6))
    assert row_major((2, 3, 4)) == Layout((2, 3, 4), (12, 4, 1))


def test_reference_evaluation_example():
    L = Layout((3, (2, 3)), (3, (12, 1)))
    assert L(16) == L((1, 5)) == L(1, 5) == L((1, (1, 2))) == 17


def test_size_cosize_rank_depth():
    L = Layout(((2, 2), 2), ((4, 1), 2))
    assert (L.size, L.cosize, L.rank, L.depth, len(L)) == (8, 8, 2, 2, 2)
    assert Layout(4, -1).cosize == 4
    assert size(L, 0) == 4 and cosize(L, 1) == 3


def test_equality_is_structural_and_hashable():
    assert Layout(6, 1) != Layout((6,), (1,))
    assert Layout((2, 3)) == Layout((2, 3), (1, 2))
    assert len({Layout((2, 3)), Layout((2, 3), (1, 2)), Layout(6)}) == 2


def test_repr_pastes_back():
    L = Layout(((2, 2), 2), ((4, 1), 2))
    assert eval(repr(L)) == L


def test_numpy_ints_accepted():
    assert Layout((np.int64(2), np.int32(3)), (np.int64(1), 2)) == Layout((2, 3), (1, 2))


def test_immutable():
    L = Layout(4)
    with pytest.raises(AttributeError):
        L.shape = 5


@pytest.mark.parametrize("shape,stride,match", [
    ((2, 3), (1,), "not congruent"),
    ((2, (3, 4)), (1, 2, 3), "not congruent"),
    ((2, 0), None, "positive"),
    (-4, 1, "positive"),
    ("4", 1, "must be an integer"),
    ((2.5, 3), None, "must be an integer"),
])
def test_bad_layouts_are_rejected(shape, stride, match):
    with pytest.raises(LayoutError, match=match):
        Layout(shape, stride)


def test_bad_coordinates_are_rejected():
    L = Layout((2, 3))
    for bad in [(-1,), ((1, 2, 3),), ((1, (1, 2)),)]:
        with pytest.raises(LayoutError):
            L(*bad)
    with pytest.raises(LayoutError):
        L()
    with pytest.raises(LayoutError):
        L[5]


def test_modes_and_iteration():
    L = Layout(((2, 2), 2), ((4, 1), 2))
    assert L[0] == Layout((2, 2), (4, 1)) and L[1] == Layout(2, 2)
    assert list(L) == [L[0], L[1]]
    assert Layout(4, 2)[0] == Layout(4, 2)


def test_slicing_keeps_none_modes_and_offset():
    L = Layout((4, 8), (1, 4))
    assert slice_and_offset((None, 2), L) == (Layout((4,), (1,)), 8)
    assert L(None, 2) == Layout((4,), (1,))
    L2 = Layout(((2, 2), 8), ((1, 2), 4))
    assert slice_and_offset(((None, 1), 3), L2) == (Layout((2,), (1,)), 14)
    assert slice_and_offset(((None, 1), None), L2) == (Layout((2, 8), (1, 4)), 2)


def test_make_layout_concatenates_modes():
    assert make_layout(Layout(3, 1), Layout(4, 3)) == Layout((3, 4), (1, 3))
    assert make_layout(Layout(3, 1)) == Layout((3,), (1,))
    assert make_layout((2, 3), (3, 1)) == Layout((2, 3), (3, 1))
    with pytest.raises(LayoutError):
        make_layout(Layout(3), 4, 5)


def test_make_ordered_layout_reference_example():
    assert make_ordered_layout((4, 3, 8, 2), (2, 1, 3, 0)) == Layout((4, 3, 8, 2), (6, 2, 24, 1))
    assert make_ordered_layout((2, 2), (0, 0)) == Layout((2, 2), (1, 1))
    with pytest.raises(LayoutError):
        make_ordered_layout((2, 2), (0, 1, 2))


def test_make_layout_like_keeps_zero_strides_and_order():
    assert make_layout_like(Layout((2, 2, 2, 2), (0, 2, 4, 1))) == Layout((2, 2, 2, 2), (0, 2, 4, 1))
    assert make_layout_like(Layout((2, 3, 4, 5), (0, 42, 1, 0))) == Layout((2, 3, 4, 5), (0, 4, 1, 0))
    assert make_layout_like(Layout((3, 4), (10, 1))) == Layout((3, 4), (4, 1))


def test_select_group():
    L = Layout((2, 3, 4, 5))
    assert select(L, 2, 0) == Layout((4, 2), (6, 1))
    assert select(L, (1,)) == Layout((3,), (2,))
    assert group(L, 1, 3) == Layout((2, (3, 4), 5), (1, (2, 6), 24))
    with pytest.raises(LayoutError):
        group(L, 3, 1)


@given(layouts())
def test_natural_and_1d_coordinates_agree(L):
    from unilayout.cute import idx2crd

    for i in range(min(L.size, 64)):
        assert L(idx2crd(i, L.shape)) == L(i)


def test_cosize_of_basis_strides_is_the_size_of_the_coshape():
    # C++ cosize = size(coshape), coshape = inner_product(shape - 1, stride) + 1 per coordinate; CuTe IR's
    # cute.cosize of (2,3):(1@0,1@1) is 6 (cutlass_compiler/cute_ir/test/Dialect/Cute/SizeIndex/cosize.mlir).
    assert Layout((2, 3), (E(0), E(1))).cosize == 6
    assert Layout((4, 2), (E(1), 4 * E(0))).cosize == 5 * 4
