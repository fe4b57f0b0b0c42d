"""unilayout._ints: the neutral integer checks, one wording per error kind."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from unilayout import LayoutError, _ints
from unilayout._ints import (
    as_instance,
    as_int,
    as_int_array,
    as_items,
    as_nonneg,
    as_positive,
    as_pow2,
    as_shape,
    ceil_div,
    check_int64,
    check_table,
    is_pow2,
    next_pow2,
    product,
)


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
    cap = _ints.max_table()
    assert check_table(cap, "t") == cap
    with pytest.raises(LayoutError, match=rf"^index_map: {cap + 1} values are more than the {cap} one table"):
        check_table(cap + 1, "index_map")
    with pytest.raises(LayoutError, match=r"more than the 8 one table may hold"):
        check_table(9, "fit", cap=8)


def test_the_cap_fits_this_machine_and_is_one_setting():
    cap = _ints.max_table()
    assert 1 << 20 <= cap <= 1 << 30 and cap & (cap - 1) == 0
    assert cap * 8 * 16 <= max(_ints._memory_bytes(), (1 << 20) * 128)  # a table is at most 1/16 of memory
    old = _ints.set_max_table(100)
    try:
        with pytest.raises(LayoutError, match="more than the 100 one table"):
            check_table(101, "t")
        with pytest.raises(LayoutError, match="more than the 100 one table"):  # a larger cap given is lowered
            check_table(101, "t", cap=1 << 40)
    finally:
        assert _ints.set_max_table(old) == 100
    with pytest.raises(LayoutError, match="max_table must be >= 1"):
        _ints.set_max_table(0)


def test_the_cap_reads_the_environment(monkeypatch):
    monkeypatch.setenv("UNILAYOUT_MAX_TABLE", "4096")
    assert _ints._default_max_table() == 4096
    monkeypatch.setenv("UNILAYOUT_MAX_TABLE", "lots")
    assert _ints._default_max_table() <= 1 << 30


def test_as_instance_names_the_argument_and_the_type():
    assert as_instance((1,), tuple, "x") == (1,)
    with pytest.raises(LayoutError, match=r"^apply: coordinates must be a tuple, got float 1.5$"):
        as_instance(1.5, tuple, "apply: coordinates")
    with pytest.raises(LayoutError, match=r"^f: x must be a Layout or a Swizzle, got str '"):
        as_instance("a" * 100, (int, float), "f: x", "a Layout or a Swizzle")


@pytest.mark.parametrize("value", [[1, 2], (3,), np.arange(4, dtype=np.uint8), np.array([5], dtype=object), 7,
                                   np.array([(1 << 63) - 1], dtype=np.uint64)])
def test_as_int_array_is_exact(value):
    got = as_int_array(value, "c")
    assert got.dtype == np.int64 and got.tolist() == np.asarray(value).astype(object).tolist()


@pytest.mark.parametrize("value, message", [
    (np.array([1.5]), "must be integers, got dtype float64"),
    ([1.0], "must be integers, got dtype float64"),
    (np.array([1 << 63], dtype=np.uint64), "does not fit in int64"),
    ([1 << 63], "does not fit in int64"),
    ([-(1 << 63) - 1], "does not fit in int64"),
    (np.zeros(2, dtype="V4"), "must be integers, got dtype"),
    (np.array(["1"]), "must be integers, got dtype"),
    (np.array([True]), "must be integers, got dtype bool"),
    (np.array([1, "a"], dtype=object), "must be integers, got str"),
    (np.ma.masked_array([1, 2], mask=[0, 1]), "masked array would lose its mask"),
    ("12", "must be integers, got str"),
    (True, "must be integers, got bool"),
    ([[1], [1, 2]], "must be integers"),
])
def test_as_int_array_refuses_what_it_cannot_keep_exactly(value, message):
    with pytest.raises(LayoutError, match=message):
        as_int_array(value, "c")


def test_check_int64_bounds_both_ends():
    check_int64(-(1 << 63), (1 << 63) - 1, "x")
    with pytest.raises(LayoutError, match="up to 9223372036854775808 do not fit"):
        check_int64(0, 1 << 63, "offsets")
    with pytest.raises(LayoutError, match="down to -9223372036854775809 do not fit"):
        check_int64(-(1 << 63) - 1, 0, "offsets")


def test_as_items_takes_a_0d_array_as_one_item():
    zero_d = np.array(8)
    assert as_items(zero_d) == (zero_d,) and as_items(np.array([1, 2])) == (1, 2)
    assert as_items(4) == (4,) and as_items([2, 3]) == (2, 3) and as_items(b"xy") == (b"xy",)
    assert as_int(as_items(np.int64(5))[0], "x") == 5
