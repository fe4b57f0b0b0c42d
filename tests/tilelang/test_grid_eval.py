"""grid_eval: the narrow, in-place, regrouped evaluation equals expr.evaluate in int64 on every point."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unilayout.errors import LayoutError
from unilayout.tilelang.expr import evaluate, parse, to_text
from unilayout.tilelang.grid_eval import evaluate_grid, narrow_dtype, period, regroup

EXTENTS = {"_i": 24, "_j": 40}


def _grid(extents):
    d = len(extents)
    return {k: np.arange(n).reshape((1,) * a + (n,) + (1,) * (d - a - 1)) for a, (k, n) in enumerate(extents.items())}


def _reference(e, extents):
    return np.broadcast_to(evaluate(e, _grid(extents)), tuple(extents.values()))


def _same(text, extents=EXTENTS):
    e = parse(text)
    got = np.broadcast_to(evaluate_grid(e, _grid(extents), extents), tuple(extents.values()))
    assert got.dtype == np.int64
    assert (got == _reference(e, extents)).all(), text


@pytest.mark.parametrize("text", [
    "_i % 8 * 64 + (_j % 64 // 32 + _i % 8 // 4) % 2 * 32 + _j % 8",
    "(_j * 4 + _i) * 8 + T.bitwise_xor(_i, _j) - _j * 3",
    "(_i - 13) // 4 + (_j - 21) % 8",                      # negative operands of a power-of-two // and %
    "(_i - 13) // 3 + (_j - 21) % 7 + T.Div(_i - 5, 4) + T.truncmod(_j - 30, 8)",
    "_i * 1099511627776 // 1099511627776 + _j",           # an intermediate past int32: computed in int64
    "T.min(_i, _j) * 70000 + T.max(_i - 3, 0)",
    "-(_i * 5) + T.shift_left(_j, 3) + T.shift_right(_i, 1) + T.bitwise_and(_i, _j) + T.bitwise_or(_i, 3)",
    "7", "_j",
])
def test_grid_evaluation_equals_int64_evaluation(text):
    _same(text)


def test_each_operation_runs_in_the_narrowest_type_its_bounds_allow():
    assert narrow_dtype(parse("_i * 64 + _j"), {"_i": 64, "_j": 64}) == np.int16
    assert narrow_dtype(parse("_i * 4096"), {"_i": 64}) == np.int32
    assert narrow_dtype(parse("_i * 4294967296"), {"_i": 64}) == np.int64
    assert narrow_dtype(parse("T.bitwise_not(_i)"), {"_i": 64}) == np.int64  # TVM does not bound it


def test_regrouping_sums_each_axis_before_the_whole_grid_terms():
    e = parse("(_j // 64 * 128 + _i // 8) * 512 + T.bitwise_xor(_i, _j)")
    assert to_text(regroup(e)) == "_i // 8 * 512 + _j // 64 * 65536 + T.bitwise_xor(_i, _j)"


def test_division_by_zero_is_a_layout_error():
    with pytest.raises(LayoutError):
        evaluate_grid(parse("_i // (_j - _j)"), _grid(EXTENTS), EXTENTS)


_leaf = st.one_of(st.sampled_from([("var", "_i"), ("var", "_j")]), st.integers(-9, 70).map(lambda v: ("int", v)))
_ops = st.sampled_from(["+", "-", "*", "//", "%", "bitwise_xor", "min", "max"])


def _tree(children):
    return st.tuples(_ops, children, children).map(
        lambda t: (t[0], t[1], ("int", (abs(t[2][1]) % 31) + 1)) if t[0] in ("//", "%") and t[2][0] == "int"
        else (t[0], t[1], ("+", ("int", 1), ("*", t[2], ("int", 0)))) if t[0] in ("//", "%") else t)


@settings(max_examples=150, deadline=None)
@given(st.recursive(_leaf, _tree, max_leaves=10))
def test_random_expressions_agree_with_int64_evaluation(e):
    got = np.broadcast_to(evaluate_grid(e, _grid(EXTENTS), EXTENTS), (24, 40))
    assert (got == _reference(e, EXTENTS)).all(), to_text(e)


@pytest.mark.parametrize("text, want", [
    ("_i % 8", 8), ("_i // 8", None), ("_i", None), ("_j + 3", 1),
    ("(_i * 3) % 16", 16), ("(_i * 4) % 16", 4), ("(_i // 4) % 2", 8), ("_i % 64 // 32", 64),
    ("T.bitwise_and(_i, 7)", 8), ("T.bitwise_and(_i, 6)", None), ("(_i % 8 + _i % 12) % 4", 4),
    ("T.bitwise_xor(_i % 4, _j) * 3 - _i % 6", 12), ("(_i - 5) % -8", 8), ("(_i // -2) % 4", 8),
    ("T.truncmod(_i, 8)", None),
])
def test_period_is_what_the_expression_reads_of_the_placeholder(text, want):
    assert period(parse(text), "_i") == want
    if want is not None:  # and it is a period: shifting _i by it changes nothing
        e, i = parse(text), np.arange(64)
        env = {"_i": i, "_j": np.full(64, 5)}
        assert (evaluate(e, env) == evaluate(e, {**env, "_i": i + want})).all()


@pytest.mark.parametrize("text, extents", [
    ("_i % 8 * 64 + (_j % 64 // 32 + _i % 8 // 4) % 2 * 32 + _j // 64 * 4096 + _i // 8 * 512 + 3", {"_i": 64, "_j": 256}),
    ("T.bitwise_xor(_i % 8, _j // 8 % 8) * 8", {"_i": 64, "_j": 128}),               # whole-grid terms only
    ("T.bitwise_xor(_i % 4, _k % 2) + _j * 7 - 5", {"_i": 16, "_j": 6, "_k": 8}),    # a 3-D grid, _j not periodic
    ("(_i * 3 - _j) % 16 * 2 + _i // 16 - _j", {"_i": 64, "_j": 32}),
    ("T.bitwise_xor(_i % 8, _rep % 2) * 16 + _rep * 64 + _i", {"_i": 32, "_rep": 2}),     # _rep given 1-D below
    ("_i + T.bitwise_xor(_i % 8, _j % 8) * 9223372036854775807 * 4", {"_i": 64, "_j": 64}),  # coefficients past int64
])
def test_periodic_whole_grid_terms_evaluated_on_one_period_equal_int64_evaluation(text, extents):
    e, env = parse(text), _grid(extents)
    if "_rep" in env:  # a Fragment's replica index: 1-D, broadcast along the last axis
        env["_rep"] = env["_rep"].reshape(-1)
    got = evaluate_grid(e, env, extents)
    assert got.dtype == np.int64 and got.flags.writeable
    assert (np.broadcast_to(got, tuple(extents.values())) == _reference(e, extents)).all(), text


_periodic = st.recursive(_leaf, lambda c: st.one_of(_tree(c), st.tuples(c, st.sampled_from([2, 4, 8, 16])).map(
    lambda t: ("%", t[0], ("int", t[1])))), max_leaves=8)


@settings(max_examples=100, deadline=None)
@given(_periodic, _periodic)
def test_random_periodic_sums_agree_with_int64_evaluation(a, b):
    ext = {"_i": 32, "_j": 64}
    e = ("+", ("%", ("bitwise_xor", a, b), ("int", 16)), ("+", ("*", ("var", "_i"), ("int", 64)), b))
    got = np.broadcast_to(evaluate_grid(e, _grid(ext), ext), (32, 64))
    assert (got == _reference(e, ext)).all(), to_text(e)
