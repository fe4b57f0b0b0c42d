"""Affine maps on a box -> CuTe, TSL and linear layouts (unilayout.convert.affine_fit): round trips and reasons."""

import numpy as np
import pytest
from convert_helpers import FAST, natural_rowmajor, random_linear
from hypothesis import given
from hypothesis import strategies as st

from cute_strategies import layouts
from unilayout import LayoutError, NotRepresentableError, affine
from unilayout.convert import affine_to_cute, affine_to_linear, affine_to_tsl, cute_to_affine, linear_to_affine

# --------------------------------------------------------------------------------- affine -> CuTe / TSL / linear


@FAST
@given(layouts(stride=st.integers(0, 20)))
def test_cute_affine_cute_round_trip(L):
    m = cute_to_affine(L)
    vals, ext = natural_rowmajor(L)
    back = affine_to_cute(m, ext)
    got, ext2 = natural_rowmajor(back)
    assert tuple(ext2) == tuple(ext)
    np.testing.assert_array_equal(got, vals)
    t = affine_to_tsl(m, ext)
    assert t.shape == tuple(ext)
    np.testing.assert_array_equal(t.index_map().reshape(-1), vals)


@FAST
@given(random_linear())
def test_linear_affine_linear_round_trip(L):
    m = linear_to_affine(L)
    sizes = tuple(s for _, s in L.in_dims)
    back = affine_to_linear(m, sizes, in_dims=L.in_dim_names, out_dims=L.out_dim_names)
    np.testing.assert_array_equal(back.index_map(), L.index_map())


def test_affine_fit_reasons():
    with pytest.raises(NotRepresentableError, match="maps 0 to 0"):
        affine_to_cute(affine.parse("(d0) -> (d0 + 3)"), (4,))
    assert str(affine_to_tsl(affine.parse("(d0) -> (d0 + 3)"), (4,))) == "#tsl.tsl<[4] -> (1), offset: 3>"
    with pytest.raises(NotRepresentableError, match="independently"):
        affine_to_cute(affine.parse("(d0, d1) -> ((d0 + d1) mod 4)"), (4, 4))
    with pytest.raises(NotRepresentableError, match="2 results"):
        affine_to_cute(affine.parse("(d0) -> (d0, d0)"), (4,))
    with pytest.raises(LayoutError, match="pass shape"):
        affine_to_cute(affine.parse("(d0) -> (d0)"), None)
    with pytest.raises(NotRepresentableError, match="symbols"):
        affine_to_cute(affine.parse("(d0)[s0] -> (d0 * s0)"), (4,))
    with pytest.raises(NotRepresentableError, match="size 6 of dim 0 is not a power of two: pad to 8"):
        affine_to_linear(affine.parse("(d0) -> (d0)"), (6,))
    with pytest.raises(NotRepresentableError, match="not GF\\(2\\)-linear"):
        affine_to_linear(affine.parse("(d0) -> (d0 * 3)"), (4,))
    with pytest.raises(NotRepresentableError, match="negative"):
        affine_to_linear(affine.parse("(d0) -> (-d0)"), (4,))
    m = affine.parse("(d0, d1) -> (d0 * 2 + d1)")
    for bad in ("ab", (4,), (4, -2), 5, ("a", 2), (4.0, 2)):
        for fn in (affine_to_cute, affine_to_tsl, affine_to_linear):
            with pytest.raises(LayoutError):
                fn(m, bad)
