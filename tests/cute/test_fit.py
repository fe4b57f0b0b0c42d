"""cute.fit: find_swizzle (bit-disjoint under the smallest swizzle) and fit_mode / fit_layout (a CuTe layout from a table)."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cute_strategies import layouts
from unilayout import LayoutError, NotRepresentableError, cute

FAST = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def disjoint(values):
    acc = 0
    for v in values:
        if v & acc:
            return False
        acc |= v
    return True


@FAST
@given(st.integers(1, 3), st.integers(0, 3), st.integers(0, 3), st.booleans(), st.integers(2, 6))
def test_find_swizzle_separates_swizzled_disjoint_values(b, m, extra, negative, nbits):
    s = b + extra  # a swizzle's |shift| is at least its bits
    sw = cute.Swizzle(b, m, -s if negative else s)
    width = max(nbits, m + b + abs(sw.shift))
    values = [sw(1 << k) for k in range(width)]  # a swizzle is an involution: sw(values) are the unit bits
    found = cute.find_swizzle(values)
    assert found is not None
    assert disjoint([found(v) for v in values])
    assert found.bits <= sw.bits


def test_find_swizzle_identity_none_and_bad_values():
    assert cute.find_swizzle([1, 2, 4, 0]) == cute.Swizzle(0, 0, 0)
    assert cute.find_swizzle([64, 144, 288, 1, 2, 4, 8, 16, 32]) == cute.Swizzle(2, 4, 3)
    assert cute.find_swizzle([1, 2, 7]) is None
    assert cute.find_swizzle([1, 1 << (cute.MAX_SWIZZLE_BITS + 1), 1 | 1 << (cute.MAX_SWIZZLE_BITS + 1)]) is None
    with pytest.raises(LayoutError, match="must be >= 0"):
        cute.find_swizzle([1, -2])
    with pytest.raises(LayoutError, match="must be an integer"):
        cute.find_swizzle([1.5])


def natural_table(L):
    """L at every natural coordinate, as an array shaped like product_each(shape) (independent of fit)."""
    ext = cute.product_each(L.shape)
    ext = ext if isinstance(ext, tuple) else (ext,)
    out = np.empty(ext, dtype=np.int64)
    for idx in np.ndindex(*ext):
        out[idx] = L(*idx) if len(ext) > 1 else L(idx[0])
    return out


@FAST
@given(layouts(stride=st.integers(0, 20), max_rank=3), st.integers(-5, 5))
def test_fit_layout_reproduces_every_table_value(L, offset):
    table = natural_table(L) + offset
    fitted, base = cute.fit_layout(table)
    assert base == offset
    np.testing.assert_array_equal(natural_table(fitted) + base, table)


def test_fit_mode_and_fit_layout_reasons():
    assert cute.fit_mode([0, 4, 8, 12, 1, 5, 9, 13]) == [(4, 4), (2, 1)]
    assert cute.fit_mode([7]) == [(1, 0)]
    with pytest.raises(NotRepresentableError, match="2 steps of 1, then a break, over 3 points"):
        cute.fit_mode([0, 1, 3])
    with pytest.raises(NotRepresentableError, match="blocks of 2 do not repeat by a stride"):
        cute.fit_mode([0, 1, 5, 7])
    with pytest.raises(NotRepresentableError, match="do not contribute independently"):
        cute.fit_layout([[0, 1], [2, 4]])
    with pytest.raises(NotRepresentableError, match="^mine, dim 0: not a CuTe mode"):
        cute.fit_layout([0, 1, 3], what="mine")
    with pytest.raises(LayoutError, match="at least one axis"):
        cute.fit_layout(np.zeros((0, 3), dtype=np.int64))
    with pytest.raises(LayoutError, match="array of integers"):
        cute.fit_layout([0.5, 1.0])
    with pytest.raises(LayoutError, match="one axis"):
        cute.fit_mode([[0, 1]])
