"""Compiled evaluation: scalar and numpy agree, MLIR semantics, broadcasting, overflow and divisor checks."""

import importlib.util
import pathlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unilayout import LayoutError
from unilayout.affine import parse
from unilayout.affine.evaluate import compile_numpy, compile_scalar, value_range
from unilayout.affine.text import parse_expr

_spec = importlib.util.spec_from_file_location("affine_strategies", pathlib.Path(__file__).with_name("strategies.py"))
strategies = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(strategies)


def test_vectorised_semantics_match_mlir_on_negative_values():
    m = parse("(d0) -> (d0 floordiv 8, d0 mod 8, d0 ceildiv 8, d0 floordiv 6, d0 mod 6, d0 ceildiv 6)")
    xs = np.arange(-20, 21)
    got = np.stack(m.evaluate(xs), axis=1).tolist()
    want = [[x // 8, x % 8, -(-x // 8), x // 6, x % 6, -(-x // 6)] for x in range(-20, 21)]
    assert got == want
    assert m(-3)[:3] == (-1, 5, 0)


def test_broadcasting_gives_every_result_the_common_shape():
    m = parse("(d0, d1)[s0] -> (d0 * 4 + d1, 7, s0)")
    a, b, c = m.evaluate(np.arange(3)[:, None], np.arange(4), 9)
    assert a.shape == b.shape == c.shape == (3, 4)
    assert a.dtype == np.int64 and (b == 7).all() and (c == 9).all()
    assert a[2, 3] == 11


def test_common_subexpressions_are_computed_once_and_correct():
    m = parse("(d0) -> (d0 floordiv 6 + (d0 floordiv 6) mod 5, (d0 floordiv 6) * 3)")
    xs = np.arange(-50, 50)
    r0, r1 = m.evaluate(xs)
    assert r0.tolist() == [x // 6 + (x // 6) % 5 for x in range(-50, 50)]
    assert r1.tolist() == [(x // 6) * 3 for x in range(-50, 50)]


def test_symbolic_divisor_below_one_raises():
    m = parse("(d0)[s0] -> (d0 floordiv s0)")
    with pytest.raises(LayoutError, match="divisors must be >= 1"):
        m.evaluate(np.arange(4), 0)
    with pytest.raises(LayoutError, match="divisors must be >= 1"):
        m.evaluate(np.arange(4), np.array([1, 2, -1, 3]))
    with pytest.raises(LayoutError, match="divisors must be >= 1"):
        m(3, 0)
    assert m.evaluate(np.arange(4), np.array([1, 2, 3, 4]))[0].tolist() == [0, 0, 0, 0]


def test_possible_int64_overflow_raises_instead_of_wrapping():
    m = parse("(d0) -> (d0 * 4611686018427387904)")
    with pytest.raises(LayoutError, match="overflow int64"):
        m.evaluate(np.array([0, 4]))
    assert m.evaluate(np.array([0, 1]))[0].tolist() == [0, 4611686018427387904]
    assert m(4) == (18446744073709551616,)  # the scalar call is exact


def test_bad_operands_raise_layout_error():
    m = parse("(d0, d1) -> (d0 + d1)")
    with pytest.raises(LayoutError, match="got 1"):
        m.evaluate(np.arange(3))
    with pytest.raises(LayoutError, match="must hold integers"):
        m.evaluate(np.arange(3) * 0.5, 1)
    with pytest.raises(LayoutError, match="must hold integers"):
        m.evaluate(np.array([True, False]), 1)
    with pytest.raises(LayoutError, match="do not broadcast"):
        m.evaluate(np.arange(3), np.arange(4))
    with pytest.raises(LayoutError, match="outside int64"):
        m.evaluate(np.array([2**64 - 1], dtype=np.uint64), 0)
    with pytest.raises(LayoutError, match="must be an integer"):
        m(1.5, 2)
    assert m.evaluate([1, 2], [[10], [20]])[0].tolist() == [[11, 12], [21, 22]]
    assert m.evaluate(np.array([], dtype=np.int64), 1)[0].shape == (0,)


def test_value_range_encloses_values():
    e = parse_expr("(d0 * 3 - 5) floordiv 2 + d0 mod 4")
    from unilayout.affine import Dim

    lo, hi = value_range(e, {Dim(0): (0, 10)})
    vals = [e.value_at((x,)) for x in range(11)]
    assert lo <= min(vals) and max(vals) <= hi


def test_compiled_functions_on_their_own():
    e = [parse_expr("d0 floordiv 4 + s0"), parse_expr("d0 mod 4")]
    assert compile_scalar(e, 1, 1)(-1, 10) == (9, 3)
    assert [r.tolist() for r in compile_numpy(e, 1, 1)(np.array([-1, 5]), 10)] == [[9, 11], [3, 1]]


@settings(max_examples=200, deadline=None)
@given(
    strategies.maps(num_dims=2, num_symbols=2),
    st.lists(st.integers(-40, 40), min_size=2, max_size=2),
    st.lists(st.integers(1, 6), min_size=2, max_size=2),
)
def test_scalar_and_vectorised_evaluation_agree(m, point, syms):
    xs = np.arange(-12, 13)
    vec = m.evaluate(xs[:, None], xs[None, :] + point[1], *syms)
    for i in (0, 5, 24):
        for j in (0, 11, 24):
            assert tuple(int(v[i, j]) for v in vec) == m(int(xs[i]), int(xs[j]) + point[1], *syms)
    assert m(*point, *syms) == tuple(r.value_at(point, syms) for r in m.results)
