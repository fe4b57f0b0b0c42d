"""affine.quasi_affine: exact periods and linear parts of quasi-affine maps, checked point by point."""

import importlib.util
import pathlib
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unilayout import LayoutError, affine

_spec = importlib.util.spec_from_file_location("affine_strategies", pathlib.Path(__file__).with_name("strategies.py"))
strategies = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(strategies)


def quasi_exprs(num_dims=2):
    """Random expressions with constant factors and divisors only (no symbols)."""
    return strategies.exprs(num_dims=num_dims, num_symbols=0, max_leaves=7)


@settings(max_examples=300, deadline=None)
@given(quasi_exprs(), st.integers(-40, 40), st.integers(-40, 40))
def test_period_and_increment_hold_at_every_point(e, x0, x1):
    per = affine.expr_periods(e, 2)
    for i, (p, d) in enumerate(per):
        assert p >= 1
        for k in range(-2, 3):
            x = [x0, x1]
            y = list(x)
            y[i] += k * p
            assert e.value_at(y) - e.value_at(x) == k * d


@settings(max_examples=200, deadline=None)
@given(st.lists(quasi_exprs(1), min_size=1, max_size=3))
def test_linear_part_is_the_slope_over_a_period(results):
    m = affine.AffineMap(1, 0, results)
    lp = affine.linear_part(m)
    (p,) = lp.periods
    xs = np.arange(0, 3 * p)
    vals = np.stack(np.broadcast_arrays(*m.evaluate(xs)), -1)
    for r in range(m.num_results):
        np.testing.assert_array_equal(vals[p:, r] - vals[:-p, r], lp.coefficients[r][0] * p)


@pytest.mark.parametrize("text, periods, coefficients", [
    ("(d0) -> (d0 mod 4)", (4,), [[0]]),
    ("(d0) -> ((d0 floordiv 2) floordiv 2)", (4,), [[Fraction(1, 4)]]),
    ("(d0) -> ((d0 * 6) floordiv 4)", (2,), [[Fraction(3, 2)]]),
    ("(d0) -> (d0 ceildiv 3)", (3,), [[Fraction(1, 3)]]),
    ("(d0, d1)[s0] -> (d0 * 3 - s0, d1 floordiv 5)", (1, 5, 1), [[3, 0, -1], [0, Fraction(1, 5), 0]]),
    ("(d0) -> (7)", (1,), [[0]]),
])
def test_named_linear_parts(text, periods, coefficients):
    lp = affine.linear_part(affine.parse(text))
    assert lp.periods == periods
    assert [list(row) for row in lp.coefficients] == coefficients


def test_symbolic_factors_and_divisors_are_refused():
    for text in ("(d0)[s0] -> (d0 floordiv s0)", "(d0)[s0] -> (d0 * s0)", "(d0)[s0, s1] -> (s0 * s1 + d0)"):
        with pytest.raises(LayoutError, match="not quasi-affine"):
            affine.linear_part(affine.parse(text))
    with pytest.raises(LayoutError, match="expected an AffineMap"):
        affine.linear_part("(d0) -> (d0)")


@pytest.mark.parametrize("max_points", [None, 1.5, "8"])
def test_affine_maps_equal_refuses_a_non_integer_max_points(max_points):
    m = affine.parse("(d0) -> (d0 mod 4)")
    with pytest.raises(LayoutError, match="max_points must be an integer"):
        affine.affine_maps_equal(m, m, max_points)  # None was a bare TypeError comparing int > None
