"""simplify(): the reference rules, box rules, exactness (property), idempotence."""

import importlib.util
import pathlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unilayout import LayoutError
from unilayout.affine import Binary, Constant, Dim, parse
from unilayout.affine.simplify import simplify_expr

_spec = importlib.util.spec_from_file_location("affine_strategies", pathlib.Path(__file__).with_name("strategies.py"))
strategies = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(strategies)


@pytest.mark.parametrize(
    "text, simplified",
    [
        ("(d0 floordiv 8) * 8 + d0 mod 8", "d0"),
        ("(d0 floordiv 8) * 8 + d0 mod 8 + 1", "d0 + 1"),
        ("d0 - (d0 floordiv 8) * 8", "d0 mod 8"),
        ("d1 + d0 - (d0 floordiv 8) * 8", "d1 + d0 mod 8"),
        ("((d0 floordiv 8) * 8 + d0 mod 8) floordiv 4", "d0 floordiv 4"),
        ("d0 * 3 + d1 - d0 * 3 + 4 - 4", "d1"),
        ("(d0 floordiv 4) floordiv 2", "d0 floordiv 8"),
        ("(d0 ceildiv 4) ceildiv 2", "d0 ceildiv 8"),
        ("(d0 floordiv 4 + 1) floordiv 2", "(d0 + 4) floordiv 8"),
        ("(d0 mod 16) mod 8", "d0 mod 8"),
        ("(d0 mod 4) floordiv 8", "0"),
        ("(d0 * 8 + d1 * 16 + d2) floordiv 8", "d0 + d1 * 2 + d2 floordiv 8"),
        ("(d0 * 9 + d1) mod 8", "(d0 + d1) mod 8"),
        ("(d0 * 6 + d1 * 4) mod 8", "((d0 * 3 + d1 * 2) mod 4) * 2"),
        ("(d0 * 6 + 9) floordiv 3", "d0 * 2 + 3"),
        ("(d0 * s0) * 2 + d0 * s0", "(d0 * s0) * 3"),
        ("d0 floordiv s0 + d0 floordiv s0", "(d0 floordiv s0) * 2"),
        ("(d0 * 2) mod 4", "(d0 mod 2) * 2"),
    ],
)
def test_reference_rules(text, simplified):
    m = parse(f"(d0, d1, d2)[s0] -> ({text})")
    assert str(m.simplify()) == f"(d0, d1, d2)[s0] -> ({simplified})"


def test_box_rules_from_the_reference():
    m = parse("(d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0, d1 mod 8)")
    assert str(m.simplify((8, 16))) == "(d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)"
    assert str(parse("(d0) -> (d0 mod 8, d0 floordiv 8, d0 ceildiv 8)").simplify((8,))) == "(d0) -> (d0, 0, d0 ceildiv 8)"
    assert str(parse("(d0)[s0] -> ((d0 + s0) mod 8)").simplify((4,))) == "(d0)[s0] -> ((d0 + s0) mod 8)"


def test_simplify_is_idempotent_on_examples():
    for text in [
        "(d0, d1) -> ((d0 floordiv 8) * 8 + d0 mod 8 + d1 mod 3, (d0 * 6 + d1 * 4) mod 8)",
        "(d0)[s0] -> ((d0 * s0) floordiv 4 + (d0 mod 16) floordiv 4)",
        "(d0, d1) -> (((d0 * 4 + d1) floordiv 2) mod 3 - d1 ceildiv 5)",
    ]:
        once = parse(text).simplify()
        assert once.simplify() == once


def test_always_zero_symbolic_divisor_is_rejected():
    e = Binary("floordiv", Dim(0), Binary("*", Binary("+", Constant(2), Constant(-2)), Constant(1)))
    with pytest.raises(LayoutError, match="divisors must be >= 1"):
        simplify_expr(e)


@settings(max_examples=200, deadline=None)
@given(strategies.maps(num_dims=2, num_symbols=1), st.integers(1, 4))
def test_simplify_keeps_the_function(m, sym):
    s = m.simplify()
    xs = np.arange(-15, 16)
    a = m.evaluate(xs[:, None], xs[None, :], sym)
    b = s.evaluate(xs[:, None], xs[None, :], sym)
    for u, v in zip(a, b):
        assert (u == v).all()


@settings(max_examples=100, deadline=None)
@given(strategies.maps(num_dims=2, num_symbols=0), st.integers(1, 12), st.integers(1, 12))
def test_simplify_on_a_box_keeps_the_function_on_the_box(m, n0, n1):
    s = m.simplify((n0, n1))
    assert (m.index_map((n0, n1)) == s.index_map((n0, n1))).all()


@settings(max_examples=150, deadline=None)
@given(strategies.maps(num_dims=2, num_symbols=1))
def test_simplify_is_idempotent(m):
    once = m.simplify()
    assert once.simplify() == once
