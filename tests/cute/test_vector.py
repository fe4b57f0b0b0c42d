"""max_common_vector / max_common_layout / nullspace: CuTe C++'s outputs and their post-conditions."""

import itertools

import pytest

from unilayout import cute
from unilayout.cute import Layout, max_common_layout, max_common_vector, nullspace
from unilayout.errors import LayoutError

from . import cute_cpp

CPP = cute_cpp.load()


@pytest.mark.parametrize("key, a, b", cute_cpp.VECTOR, ids=[c[0] for c in cute_cpp.VECTOR])
def test_equal_cute_cpp(key, a, b):
    A, B = cute.parse(a), cute.parse(b)
    got = f"{max_common_vector(A, B)}|{max_common_layout(A, B)}|{nullspace(A)}"
    assert got == CPP[f"vec:{key}"]


def _layouts():
    for shape in [(4,), (2, 4), (4, 2), (2, 2, 2), (2, 4, 2)]:
        n = len(shape)
        for perm in itertools.permutations(range(n)):
            stride, p = [0] * n, 1
            for i in perm:
                stride[i] = p
                p *= shape[i]
            yield Layout(shape, tuple(stride))


@pytest.mark.parametrize("a", list(_layouts()), ids=str)
def test_common_vector_post_condition(a):
    """For every compact b of the same size: a(b^-1(n)) == n for n < N, and N is maximal for a stride-1 start."""
    for b in _layouts():
        if b.size != a.size:
            continue
        n = max_common_vector(a, b)
        inv = cute.right_inverse(b)
        assert [a(inv(i)) for i in range(n)] == list(range(n))
        if n < a.size and n > 1:
            assert a(inv(n)) != n or n == a.size
        common = max_common_layout(a, b)
        # the vector as b's coordinates: a reads 0..n-1 at them
        assert common.size == n and [a(common(i)) for i in range(n)] == list(range(n))


def test_nullspace_maps_to_zero():
    L = Layout(((2, 3), 4, 2), ((0, 2), 0, 6))
    ns = nullspace(L)
    assert ns.size == 8
    assert all(L(ns(i)) == 0 for i in range(ns.size))


def test_refusals():
    with pytest.raises(LayoutError, match="expected a cute.Layout"):
        max_common_vector(cute.Swizzle(1, 2, 3), Layout(8))
    with pytest.raises(LayoutError, match="expected a cute.Layout"):
        nullspace((2, 3))
