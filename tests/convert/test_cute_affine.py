"""CuTe and linear layouts -> affine maps (unilayout.convert.cute_affine): equal at every natural coordinate."""

import itertools

import numpy as np
from convert_helpers import FAST, linear_rowmajor, natural_rowmajor, random_linear
from hypothesis import assume, given
from hypothesis import strategies as st

from cute_strategies import layouts
from unilayout import cute, linear
from unilayout.convert import cute_to_affine, linear_to_affine

# --------------------------------------------------------------------------------- -> affine


@FAST
@given(layouts(stride=st.integers(-6, 24)))
def test_cute_to_affine_on_natural_coordinates(L):
    m = cute_to_affine(L)
    vals, ext = natural_rowmajor(L)
    assert m.num_dims == len(ext) and m.num_results == 1
    np.testing.assert_array_equal(m.index_map(ext)[:, 0], vals)


@FAST
@given(layouts(max_rank=2), st.integers(0, 3), st.integers(0, 3), st.integers(1, 4), st.booleans(), st.integers(0, 9))
def test_swizzled_cute_to_affine(inner, b, m, s, negative, offset):
    assume(s >= b)
    C = cute.ComposedLayout(cute.Swizzle(b, m, -s if negative else s), offset, inner)
    amap = cute_to_affine(C)
    ext = cute.product_each(inner.shape)
    ext = ext if isinstance(ext, tuple) else (ext,)
    got = amap.index_map(ext)[:, 0].reshape(ext)
    for crd in itertools.product(*map(range, ext)):
        assert got[crd] == C(*crd) if len(crd) > 1 else got[crd] == C(crd[0])


@FAST
@given(layouts(max_rank=2), layouts(max_rank=2), st.integers(0, 5))
def test_layout_outer_composed_to_affine(outer, inner, offset):
    C = cute.ComposedLayout(outer, offset, inner)
    amap = cute_to_affine(C)
    vals, ext = natural_rowmajor(inner)
    got = amap.index_map(ext)[:, 0]
    want = np.array([C(*np.unravel_index(i, ext)) if len(ext) > 1 else C(i) for i in range(len(vals))])
    np.testing.assert_array_equal(got, want)


def test_bare_swizzle_to_affine():
    sw = cute.Swizzle(3, 4, 3)
    m = cute_to_affine(sw)
    np.testing.assert_array_equal(m.index_map((1024,))[:, 0], sw(np.arange(1024)))
    sw = cute.Swizzle(2, 0, -3)
    np.testing.assert_array_equal(cute_to_affine(sw).index_map((256,))[:, 0], sw(np.arange(256)))


@FAST
@given(random_linear())
def test_linear_to_affine_always_exact(L):
    m = linear_to_affine(L)
    sizes = tuple(s for _, s in L.in_dims)
    assert m.num_dims == len(sizes) and m.num_results == len(L.out_dims)
    np.testing.assert_array_equal(m.index_map(sizes), linear_rowmajor(L))


def test_linear_to_affine_parity_form():
    L = linear.LinearLayout({"i": [[1], [2], [7]]}, {"o": 8})
    m = linear_to_affine(L)
    assert "mod 2" in str(m)
    np.testing.assert_array_equal(m.index_map((8,)), L.index_map())
