"""unilayout._ints: the neutral integer checks, one wording per error kind."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from unilayout import LayoutError
from unilayout._ints import (MAX_TABLE, as_int, as_nonneg, as_pow2, as_positive, as_shape, ceil_div, check_table,
                             is_pow2, next_pow2, product)


@pytest.mark.parametrize("value", [3, np.int64(3), np.uint8(3), np.int32(-3)])
def test_as_int_accepts_python_and_numpy_integers(value):
    got = as_int(value, "x")
    assert type(got) is int and got == int(value)


@pytest.mark.parametrize("value", [True, 2.0, "2", b"2", None, [2], np.array([2]), np.float64(2)])
def test_as_int_refuses_everything_else_naming_the_argument(value):
    with pytest.raises(LayoutError, match=r"^grid dim 0 must be an integer, got "):
        as_int(value, "grid dim 0")


def test_bounds_messages_name_the_argument_and_the_value():
    with pytest.raises(LayoutError, match=r"^offset must be >= 0, got -2$"):
        as_nonneg(-2, "offset")
    with pytest.raises(LayoutError, match=r"^tile height must be >= 1, got 0$"):
        as_positive(0, "tile height")
    assert as_nonneg(0, "offset") == 0 and as_positive(1, "tile height") == 1


@given(st.integers(min_value=-5, max_value=1 << 70))
def test_is_pow2_and_next_pow2_agree_with_their_definition(n):
    assert is_pow2(n) == (n > 0 and bin(n).count("1") == 1)
    p = next_pow2(n)
    assert is_pow2(p) and p >= n and (p == 1 or p // 2 < n)


def test_as_pow2_names_the_power_to_pad_to():
    assert as_pow2(64, "size") == 64
    with pytest.raises(LayoutError, match=r"^size 12 is not a power of two: pad to 16$"):
        as_pow2(12, "size")


def test_as_shape_accepts_sequences_and_arrays():
    assert as_shape([2, np.int64(3)], "shape") == (2, 3)
    assert as_shape(np.array([4, 5]), "shape") == (4, 5)
    assert as_shape((), "shape") == ()


@pytest.mark.parametrize("value", ["23", 5, [2, 2.5], [True, 2], None])
def test_as_shape_refuses_what_is_not_a_sequence_of_integers(value):
    with pytest.raises(LayoutError, match=r"^box must be a sequence of integers, got "):
        as_shape(value, "box")


def test_as_shape_names_the_negative_dim():
    with pytest.raises(LayoutError, match=r"^box dim 2 must be >= 0, got -1$"):
        as_shape((1, 2, -1), "box")


@given(st.integers(-10**6, 10**6), st.integers(1, 10**4))
def test_ceil_div_is_exact(a, b):
    q = ceil_div(a, b)
    assert (q - 1) * b < a <= q * b


def test_product_is_exact_beyond_int64():
    assert product([1 << 40, 1 << 40]) == 1 << 80 and product([]) == 1


def test_check_table_refuses_before_allocating():
    assert check_table(MAX_TABLE, "t") == MAX_TABLE
    with pytest.raises(LayoutError, match=r"^index_map: 1073741825 values are more than the 1073741824"):
        check_table(MAX_TABLE + 1, "index_map")
    with pytest.raises(LayoutError, match=r"more than the 8 one table may hold"):
        check_table(9, "fit", cap=8)
