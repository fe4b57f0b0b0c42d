"""AffineMap: value semantics, constructors, compose, index_map, inverse entry points."""

import importlib.util
import pathlib
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unilayout import LayoutError, ParseError
from unilayout import index_map as top_index_map
from unilayout.affine import (
    AffineMap,
    Binary,
    Constant,
    Dim,
    Symbol,
    constant_map,
    dim,
    identity,
    parse,
    permutation,
    symbol,
)

_spec = importlib.util.spec_from_file_location("affine_strategies", pathlib.Path(__file__).with_name("strategies.py"))
strategies = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(strategies)


def test_seed_map_evaluates_to_the_seed_values():
    m = parse("(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)")
    assert m(1, 1, 6, 100) == (262, 100)
    assert m(1, 2, 63, 127) == (383, 127)
    assert (m.num_dims, m.num_symbols, m.num_results, m.num_inputs) == (4, 0, 2, 4)


def test_value_semantics_and_repr_paste_back():
    a = parse("(d0, d1)[s0] -> (d0 floordiv 8, d1 mod 8 + s0)")
    b = AffineMap(2, 1, [dim(0).floordiv(8), dim(1) % 8 + symbol(0)])
    assert a == b and hash(a) == hash(b)
    assert a != parse("(d0, d1)[s0, s1] -> (d0 floordiv 8, d1 mod 8 + s0)")
    assert eval(repr(a), {"AffineMap": AffineMap}) == a
    nested = AffineMap(3, 0, [Binary("+", Dim(0), Binary("+", Dim(1), Dim(2)))])
    ns = {"AffineMap": AffineMap, "Binary": Binary, "Dim": Dim, "Symbol": Symbol, "Constant": Constant}
    assert eval(repr(nested), ns) == nested
    assert pickle.loads(pickle.dumps(a)) == a
    with pytest.raises(AttributeError):
        a.num_dims = 3


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: AffineMap(1, 0, [dim(1)]), "uses d1 but the map has 1 dim"),
        (lambda: AffineMap(1, 0, [symbol(0)]), "uses s0"),
        (lambda: AffineMap(-1, 0, []), "must be >= 0"),
        (lambda: AffineMap(1, 0, dim(0)), "sequence of affine expressions"),
        (lambda: AffineMap(1, 0, 5), "sequence of affine expressions"),
        (lambda: permutation((0, 0)), "not a permutation"),
        (lambda: identity(-2), "must be >= 0"),
        (lambda: constant_map(3), "expected a sequence"),
    ],
)
def test_invalid_maps_raise_layout_error(make, message):
    with pytest.raises(LayoutError, match=message):
        make()


def test_constructors():
    assert str(identity(2)) == "(d0, d1) -> (d0, d1)" and identity(2).is_identity()
    p = permutation((2, 0, 1))
    assert str(p) == "(d0, d1, d2) -> (d2, d0, d1)" and p.is_permutation() and not p.is_identity()
    assert p(10, 20, 30) == (30, 10, 20)
    assert str(constant_map((4, -2))) == "() -> (4, -2)" and constant_map((4, -2))() == (4, -2)
    assert not parse("(d0, d1) -> (d0, d0)").is_permutation()


def test_call_checks_operand_count():
    m = parse("(d0)[s0] -> (d0 + s0)")
    with pytest.raises(LayoutError, match="takes 1 dim"):
        m(1)
    assert m(1, 2) == (3,)


def test_compose_examples_from_the_reference():
    split = parse("(d0) -> (d0 floordiv 8, d0 mod 8)")
    assert str(parse("(d0, d1) -> (d1, d0)").compose(split)) == "(d0) -> (d0 mod 8, d0 floordiv 8)"
    merged = parse("(d0, d1) -> (d0 * 8 + d1)").compose(split)
    assert str(merged) == "(d0) -> ((d0 floordiv 8) * 8 + d0 mod 8)"
    assert str(merged.simplify()) == "(d0) -> (d0)"


def test_compose_orders_symbols_like_mlir():
    m = parse("(d0)[s0] -> (d0 + s0)")
    n = parse("(d0)[s0] -> (d0 * s0)")
    c = m.compose(n)
    assert str(c) == "(d0)[s0, s1] -> (d0 * s1 + s0)"
    assert c(3, 10, 5) == m(*n(3, 5), 10)
    with pytest.raises(LayoutError, match="has 1 dim"):
        m.compose(parse("(d0) -> (d0, d0)"))
    with pytest.raises(LayoutError, match="expected an AffineMap"):
        m.compose("x")


@settings(max_examples=100, deadline=None)
@given(
    strategies.maps(num_dims=2, num_symbols=1, max_results=2).filter(lambda m: m.num_results == 2),
    strategies.maps(num_dims=2, num_symbols=1, max_results=2).filter(lambda m: m.num_results == 2),
    st.integers(-20, 20),
    st.integers(-20, 20),
    st.integers(1, 5),
    st.integers(1, 5),
)
def test_compose_agrees_with_nested_evaluation(m, n, x, y, sm, sn):
    c = m.compose(n)
    assert c(x, y, sm, sn) == m(*n(x, y, sn), sm)


def test_index_map_enumerates_the_box_row_major():
    m = parse("(d0, d1) -> (d0 * 10 + d1, d1)")
    t = m.index_map((2, 3))
    assert t.dtype == np.int64 and t.shape == (6, 2)
    assert t[:, 0].tolist() == [0, 1, 2, 10, 11, 12]
    assert m.index_map((0, 3)).shape == (0, 2)
    assert parse("(d0)[s0] -> (d0 * s0)").index_map((3,), symbols=(5,))[:, 0].tolist() == [0, 5, 10]
    with pytest.raises(LayoutError, match="has 2 dim"):
        m.index_map((2,))
    with pytest.raises(LayoutError, match="symbol"):
        parse("(d0)[s0] -> (d0 * s0)").index_map((3,))
    with pytest.raises(LayoutError, match="no box of its own"):
        top_index_map(m)


def test_replace_dims_and_symbols():
    m = parse("(d0, d1)[s0] -> (d0 * s0 + d1)")
    r = m.replace(symbols=[Constant(4)], num_symbols=0)
    assert str(r) == "(d0, d1) -> (d0 * 4 + d1)"


def test_index_map_refuses_boxes_too_big_to_tabulate():
    with pytest.raises(LayoutError, match="one table may hold"):
        parse("(d0, d1) -> (d0 floordiv 4, d1 mod 3)").index_map((10**10, 10**10))


def test_the_table_cap_is_the_shared_one_and_is_checked_before_allocating():
    from unilayout import _ints

    m = parse("(d0, d1) -> (d0, d1)")
    old = _ints.set_max_table(64)
    try:
        assert m.index_map((4, 8)).shape == (32, 2)  # 64 values
        with pytest.raises(LayoutError, match=r"has 36 points: 72 values are more than the 64"):
            m.index_map((4, 9))
    finally:
        _ints.set_max_table(old)


def test_maps_are_bounded_and_typed_on_construction():
    with pytest.raises(LayoutError, match="num_dims and num_symbols must be <= 65536"):
        identity(2**62)
    with pytest.raises(LayoutError, match="num_dims and num_symbols must be <= 65536"):
        AffineMap(0, 1 << 17, [])
    for bad in (b"4", bytearray(b"4"), "d0", {1: 2}, {1}):
        with pytest.raises(LayoutError, match="results must be a sequence of affine expressions"):
            AffineMap(2, 0, bad)
    with pytest.raises(LayoutError, match="must be an integer"):
        AffineMap(1, 0, [1.5])


def test_folding_past_int64_is_refused_not_printed():
    # the issue's example: the product 9570909090909090816 is past int64, so str() would print a
    # constant the parser refuses; the fold refuses it, at the operator, as the parser reads it
    with pytest.raises(ParseError, match="does not fit in int64"):
        parse("(d0) -> (d0 * 99696969696969696 * 96)")
    with pytest.raises(LayoutError, match="does not fit in int64"):
        Constant((1 << 63) - 1) + 1
    assert str(parse("(d0) -> (d0 * 4611686018427387903 * 2)")) == "(d0) -> (d0 * 9223372036854775806)"


def test_the_issue_map_prints_back_to_an_equal_map():
    m = AffineMap.parse("(d0, d1) -> (d0, d1 + (d1 + 1))")
    assert str(m) == "(d0, d1) -> (d0, d1 * 2 + 1)" and AffineMap.parse(str(m)) == m


@pytest.mark.parametrize("call", [
    lambda m: m.replace(1.5), lambda m: m.replace(None, 1.5), lambda m: m.replace("d0"),
    lambda m: m.results[0].replace(1.5), lambda m: m.results[0].replace(None, {0: 1}),
])
def test_replace_with_a_non_sequence_is_a_layout_error(call):
    m = AffineMap.parse("(d0, d1)[s0] -> (d1 + s0, d0 floordiv 2)")
    with pytest.raises(LayoutError, match=r"replace: (dims|symbols) must be a sequence of expressions"):
        call(m)  # was TypeError: object of type 'float' has no len()
    assert m.replace((Dim(1), Dim(0))) == AffineMap.parse("(d0, d1)[s0] -> (d0 + s0, d1 floordiv 2)")
