import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cute_strategies import shapes
from unilayout import LayoutError
from unilayout.cute.inttuple import (
    ceil_div,
    congruent,
    crd2idx,
    depth,
    flatten,
    idx2crd,
    int_tuple_str,
    normalize,
    prefix_product,
    product,
    product_each,
    rank,
    shape_div,
    shape_mod,
    suffix_product,
)


def test_product_rank_depth_of_ints_and_tuples():
    assert (product(()), product(6), product((2, (3, 4)))) == (1, 6, 24)
    assert (rank(6), rank((6,)), rank((2, (3, 4)))) == (1, 1, 2)
    assert (depth(6), depth((6,)), depth((2, (3, 4)))) == (0, 1, 2)


def test_int_and_one_tuple_are_different_values():
    assert normalize(6) != normalize((6,))
    assert int_tuple_str((6,)) == "(6)" and int_tuple_str(6) == "6"


def test_normalize_accepts_numpy_ints_and_rejects_others():
    assert normalize((np.int64(2), [np.int32(3)])) == (2, (3,))
    for bad in ("4", 2.0, None, True, (1, "x")):
        with pytest.raises(LayoutError):
            normalize(bad)


def test_prefix_product_reference_example():
    assert prefix_product((4, 8, 1, 2)) == (1, 4, 32, 32)
    assert prefix_product(((2, 3), 4)) == ((1, 2), 6)


def test_suffix_product_is_row_major_over_leaves():
    assert suffix_product((2, (3, 4))) == (12, (4, 1))
    assert suffix_product(5) == 1


def test_shape_div_and_shape_mod_reference_examples():
    assert shape_div((3, 6, 2, 8), 9) == (1, 2, 2, 8)
    assert shape_mod((3, 6, 2, 8), 6) == (3, 2, 1, 1)
    assert shape_div(2, 6) == 1
    assert shape_div(12, (2, 3)) == 2


def test_shape_div_rejects_non_dividing_sizes():
    with pytest.raises(LayoutError, match="divide"):
        shape_div(4, 6)
    with pytest.raises(LayoutError, match="ranks differ"):
        shape_div((2, 3), (1, 2, 3))


def test_ceil_div_folds_left_with_ceilings():
    assert ceil_div((4, 6), 8) == (1, 3)
    assert ceil_div(7, 2) == 4
    with pytest.raises(LayoutError):
        ceil_div(4, 0)


def test_idx2crd_does_not_wrap_the_last_mode():
    assert idx2crd(16, (4, 4)) == (0, 4)
    assert idx2crd((1, 5), (3, (2, 3))) == (1, (1, 2))


def test_idx2crd_with_stride_and_zero_stride_error():
    assert idx2crd(5, (2, 4), (1, 2)) == (1, 2)
    assert idx2crd(5, (1, 4), (0, 1)) == (0, 1)
    with pytest.raises(LayoutError, match="stride 0"):
        idx2crd(5, (2, 4), (0, 1))


def test_crd2idx_mixes_1d_and_natural_coordinates():
    shape, stride = (3, (2, 3)), (3, (12, 1))
    assert crd2idx(16, shape, stride) == crd2idx((1, 5), shape, stride) == crd2idx((1, (1, 2)), shape, stride) == 17


def test_crd2idx_rejects_mismatched_coordinate():
    with pytest.raises(LayoutError, match="does not match"):
        crd2idx((1, 2, 3), (2, 2))


@given(shapes(), st.integers(0, 10_000))
def test_idx2crd_then_crd2idx_is_identity(shape, i):
    i %= product(shape)
    assert crd2idx(idx2crd(i, shape), shape) == i


def test_flatten_and_congruence():
    assert flatten(((2, 3), (4,), 5)) == (2, 3, 4, 5)
    assert congruent((2, (3, 4)), (1, (2, 6))) and not congruent((2, 3), (2, (3,)))
    assert product_each(((2, 3), 4)) == (6, 4)
