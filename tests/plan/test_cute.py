"""plan.cute: copy vector width against pycute's common layout, and the definition on small layouts."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unilayout import LayoutError, cute
from unilayout.plan import cute_copy

pycute = pytest.importorskip("pycute")


@st.composite
def permutation_layout(draw, logn):
    """A compact layout of 2**logn elements: power-of-two modes with a permuted order (a bijection onto [0, n))."""
    parts = []
    left = logn
    while left:
        k = draw(st.integers(1, left))
        parts.append(1 << k)
        left -= k
    order = draw(st.permutations(range(len(parts))))
    stride = [0] * len(parts)
    acc = 1
    for i in order:
        stride[i] = acc
        acc *= parts[i]
    return tuple(parts), tuple(stride)


def common_vector(src, dst):
    """CuTe's max_common_vector: the leading mode of coalesce(composition(src, right_inverse(dst))) if its stride is 1."""
    a = pycute.Layout(*src)
    b = pycute.Layout(*dst)
    common = pycute.coalesce(pycute.composition(a, pycute.right_inverse(b)))
    shape = common.shape if isinstance(common.shape, tuple) else (common.shape,)
    stride = common.stride if isinstance(common.stride, tuple) else (common.stride,)
    return shape[0] if stride[0] == 1 else 1


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 8).flatmap(lambda n: st.tuples(permutation_layout(n), permutation_layout(n))),
       st.sampled_from([8, 16, 32]))
def test_vector_matches_cutes_common_vector(pair, bits):
    src, dst = pair
    c = cute_copy(cute.Layout(*src), cute.Layout(*dst), element_bits=bits)
    want = min(common_vector(src, dst), 128 // bits)
    assert c.vector == want
    n = int(np.prod(src[0]))
    assert c.transactions * c.vector == n and c.bytes == n * bits // 8


def test_swizzled_destination():
    sw = cute.parse("Sw<3,3,3> o 0 o (8,64):(64,1)")
    row = cute.Layout((8, 64), (64, 1))
    c = cute_copy(row, sw, element_bits=16)
    assert c.vector == 8 and c.transactions == 64          # 128-bit vectors survive a 3-bit swizzle at base 3
    assert cute_copy(row, sw, element_bits=16, max_vector_bits=64).vector == 4


def test_gather_source_is_fine_but_broadcast_destination_is_not():
    assert cute_copy(cute.Layout(8, 0), cute.Layout(8, 1)).vector == 1
    with pytest.raises(LayoutError, match="not injective"):
        cute_copy(cute.Layout(8, 1), cute.Layout(8, 0))
    with pytest.raises(LayoutError, match="equal sizes"):
        cute_copy(cute.Layout(8, 1), cute.Layout(4, 1))
    with pytest.raises(LayoutError, match="cute.Layout"):
        cute_copy("8:1", cute.Layout(8, 1))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 8).flatmap(lambda n: st.tuples(permutation_layout(n), permutation_layout(n))))
def test_vector_matches_unilayouts_own_max_common_vector(pair):
    mcv = getattr(cute, "max_common_vector", None)
    if mcv is None:
        pytest.skip("cute.max_common_vector is not there yet")
    src, dst = (cute.Layout(*p) for p in pair)
    assert cute_copy(src, dst, element_bits=8).vector == min(mcv(src, dst), 16)
