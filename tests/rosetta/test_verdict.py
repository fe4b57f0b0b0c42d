"""rosetta.compare / assert_same_fragment: same, a register permutation, or the first difference — exactly."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from unilayout import LayoutError, cute, rosetta
from unilayout.rosetta import Fragment


def _random_fragment(rng, threads, values, shape=(16, 16)):
    idx = rng.permutation(shape[0] * shape[1])[: threads * values].reshape(threads, values)
    return Fragment(np.stack([idx // shape[1], idx % shape[1]], axis=-1), shape, "toy", "")


@given(st.integers(0, 2**31), st.integers(1, 8), st.integers(1, 8))
def test_a_permuted_copy_is_found_with_its_permutation(seed, threads, values):
    rng = np.random.default_rng(seed)
    a = _random_fragment(rng, threads, values)
    perm = rng.permutation(values)
    b = a._replace(coords=a.coords[:, perm])
    v = rosetta.compare(a, b)
    if (perm == np.arange(values)).all():
        assert v.same and v.register_permutation is None
    else:
        assert not v.same and v.register_permutation == tuple(int(p) for p in perm)
        assert np.array_equal(a.coords[:, list(v.register_permutation)], b.coords)


@given(st.integers(0, 2**31), st.integers(1, 8), st.integers(2, 8))
def test_the_first_difference_is_the_first_thread_major_cell_that_differs(seed, threads, values):
    rng = np.random.default_rng(seed)
    a = _random_fragment(rng, threads, values)
    t, val = int(rng.integers(threads)), int(rng.integers(values))
    coords = a.coords.copy()
    coords[t, val] = (15, 15) if tuple(coords[t, val]) != (15, 15) else (0, 0)
    b = a._replace(coords=coords)
    v = rosetta.compare(a, b)
    assert not v.same and v.register_permutation is None
    assert v.first_difference == ((t, val), tuple(int(x) for x in a.coords[t, val]), tuple(int(x) for x in coords[t, val]))


def test_thread_dependent_orders_are_not_a_permutation():
    a = Fragment(np.array([[[0, 0], [0, 1]], [[1, 0], [1, 1]]]), (2, 2))
    b = Fragment(np.array([[[0, 0], [0, 1]], [[1, 1], [1, 0]]]), (2, 2))  # thread 1 swapped, thread 0 not
    v = rosetta.compare(a, b)
    assert v.register_permutation is None and v.first_difference == ((1, 0), (1, 0), (1, 1))


def test_assert_same_fragment_reports_the_difference_or_the_permutation():
    a = cute.Layout((4, (2, 2)), (1, (4, 8)))
    rosetta.assert_same_fragment(a, cute.Layout((4, 4), (1, 4)), shape=(4, 4))  # one function, other spelling
    with pytest.raises(AssertionError, match=r"register permutation \[0, 2, 1, 3\]"):
        rosetta.assert_same_fragment(a, cute.Layout((4, (2, 2)), (1, (8, 4))), shape=(4, 4))
    with pytest.raises(AssertionError, match="thread 0 value 1 holds"):
        rosetta.assert_same_fragment(cute.Layout((4, 2), (1, 4)), cute.Layout((4, 2), (2, 1)), shape=(4, 2))


def test_bad_input_is_a_layout_error():
    with pytest.raises(LayoutError, match="different tiles"):
        rosetta.compare(Fragment(np.zeros((1, 1, 2), int), (2, 2)), Fragment(np.zeros((1, 1, 2), int), (4, 1)))
    with pytest.raises(LayoutError, match="tile shape"):
        rosetta.compare(cute.Layout((4, 2), (1, 4)), cute.Layout((4, 2), (1, 4)))
    with pytest.raises(LayoutError, match="cannot read a fragment"):
        rosetta.compare(3.5, cute.Layout(4, 1))
