"""Expression nodes: MLIR construction folds, divisors, validation, value semantics."""

import importlib
import pickle

import pytest

from unilayout import LayoutError
from unilayout.affine import AffineExpr, Binary, Constant, Dim, Symbol, constant, dim, fold, symbol
from unilayout.affine import expr as affine_expr
from unilayout.affine.expr import MAX_DEPTH, ceildiv, floordiv, mod

d0, d1, d2 = dim(0), dim(1), dim(2)
s0 = symbol(0)


@pytest.mark.parametrize(
    "built, printed",
    [
        (1 + d0, "d0 + 1"),
        (s0 + d0, "d0 + s0"),
        (d0 + 0, "d0"),
        ((d0 + 2) + 3, "d0 + 5"),
        ((d0 + 2) + d1, "d0 + d1 + 2"),
        (d0 + d0, "d0 * 2"),
        (d0 * 3 + d0 * -3, "0"),
        (d0 * 2 + d0 * 3, "d0 * 5"),
        (d0 + (d0 // 8) * -8, "d0 mod 8"),
        (d0 - (d0.floordiv(s0)) * s0, "d0 mod s0"),
        (2 * d0, "d0 * 2"),
        (d0 * 1, "d0"),
        (d0 * 0, "0"),
        ((d0 * 2) * 3, "d0 * 6"),
        ((d0 * 2) * s0, "(d0 * s0) * 2"),
        (-d0, "-d0"),
        (d0 - d1, "d0 - d1"),
        ((d0 * 128).floordiv(64), "d0 * 2"),
        ((d0 * 8 + d1).floordiv(8), "d0 + d1 floordiv 8"),
        ((d0 * 6).ceildiv(3), "d0 * 2"),
        (d0.ceildiv(1), "d0"),
        ((d0 * 8 + d1) % 8, "d1 mod 8"),
        ((d0 * 128) % 64, "0"),
        ((d0 % 16) % 8, "d0 mod 8"),
        ((d0 % 8) % 16, "(d0 mod 8) mod 16"),
        (Constant(-7).floordiv(2), "-4"),
        (Constant(-7).ceildiv(2), "-3"),
        (Constant(-7) % 2, "1"),
    ],
)
def test_construction_folds_match_mlir(built, printed):
    assert str(built) == printed


def test_mlir_division_semantics_on_negative_values():
    assert (floordiv(-3, 8), ceildiv(-3, 8), mod(-3, 8)) == (-1, 0, 5)
    assert (floordiv(-8, 8), ceildiv(-9, 8), mod(-16, 8)) == (-1, -1, 0)
    e = [d0.floordiv(8), d0.ceildiv(8), d0 % 8]
    assert [x.value_at((-3,)) for x in e] == [-1, 0, 5]


def test_largest_known_divisor_follows_mlir():
    assert (d0 * 6 + d1 * 4).largest_known_divisor() == 2
    assert (d0 * 12).floordiv(4).largest_known_divisor() == 3
    assert (d0 * 6).floordiv(4).largest_known_divisor() == 1
    assert Constant(-5).largest_known_divisor() == 5
    assert ((d0 * 4) * s0).largest_known_divisor() == 4


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: d0 * d1, "one factor of \\* must be free of dims"),
        (lambda: d0.floordiv(d1), "must not contain dims"),
        (lambda: d0 % 0, "constant divisor must be >= 1"),
        (lambda: d0.ceildiv(-2), "constant divisor must be >= 1"),
        (lambda: Binary("^", d0, d1), "affine op must be one of"),
        (lambda: Binary("mod", d0, Constant(0)), "constant divisor"),
        (lambda: Dim(-1), "dim position must be >= 0"),
        (lambda: Symbol("a"), "must be an integer"),
        (lambda: Constant(1.5), "must be an integer"),
        (lambda: Constant(True), "must be an integer"),
        (lambda: d0 + "x", "must be an integer"),
    ],
)
def test_invalid_expressions_raise_layout_error(make, message):
    with pytest.raises(LayoutError, match=message):
        make()


def test_nodes_are_immutable_hashable_and_compare_by_value():
    a, b = d0 * 4 + s0, dim(0) * 4 + symbol(0)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != d0 * 4 + symbol(1)
    with pytest.raises(AttributeError):
        a.lhs = d1
    with pytest.raises(AttributeError):
        Dim(0).position = 3
    assert pickle.loads(pickle.dumps(a)) == a


@pytest.mark.parametrize("e", [d0 * 4 + s0, (d0 % 8).floordiv(s0), -d0, Constant(-3), d0 + (d1 + d2)])
def test_repr_pastes_back(e):
    ns = {"AffineExpr": AffineExpr, "Binary": Binary, "Dim": Dim, "Symbol": Symbol, "Constant": Constant}
    assert eval(repr(e), ns) == e


def test_operators_lean_sums_left_as_the_parser_does():
    e = d0 + (d1 + d2)
    assert e == (d0 + d1) + d2 and e.canonical
    assert repr(e) == "AffineExpr.parse('d0 + d1 + d2')"


def test_raw_right_nested_sum_keeps_structure_in_repr_until_folded():
    e = Binary("+", d0, Binary("+", d1, d2))
    assert str(e) == "d0 + d1 + d2" and not e.canonical
    assert repr(e).startswith("Binary(")
    assert fold(e) == (d0 + d1) + d2 and fold(e).canonical


def test_deep_trees_raise_layout_error_not_recursion_error():
    e = d0
    with pytest.raises(LayoutError, match="nested deeper"):
        for _ in range(MAX_DEPTH + 5):
            e = e.floordiv(s0)
    assert e.depth == MAX_DEPTH


def test_value_at_needs_all_operands_and_positive_symbolic_divisors():
    with pytest.raises(LayoutError, match="only 1 dim value"):
        (d0 + d1).value_at((1,))
    with pytest.raises(LayoutError, match="divisors must be >= 1"):
        d0.floordiv(s0).value_at((4,), (0,))
    assert d0.floordiv(s0).value_at((-7,), (2,)) == -4


def test_replace_substitutes_and_refolds():
    e = (d0 * 8 + d1).replace(dims=[d0.floordiv(8), d0 % 8])
    assert str(e) == "(d0 floordiv 8) * 8 + d0 mod 8"
    assert str((d0 + s0).replace(symbols=[3])) == "d0 + 3"
    with pytest.raises(LayoutError, match="no replacement given for d1"):
        (d0 + d1).replace(dims=[d0])


def test_dims_and_symbols_list_positions():
    e = d2 + d0 * symbol(3)
    assert e.dims() == {0, 2} and e.symbols() == {3}
    assert constant(4).dims() == frozenset()


def test_folds_live_in_affine_fold_and_stay_importable_from_expr():
    folds = importlib.import_module("unilayout.affine.fold")  # the attribute affine.fold is the function
    for name in ("get_add", "get_mul", "get_floordiv", "get_ceildiv", "get_mod", "build", "fold"):
        assert getattr(affine_expr, name) is getattr(folds, name)
    assert fold is folds.fold
    assert str(folds.build("floordiv", d0 * 8 + d1, Constant(8))) == "d0 + d1 floordiv 8"


_MIN64 = -(1 << 63)


@pytest.mark.parametrize("built, printed", [
    (d0 + _MIN64, "d0 - 9223372036854775807 - 1"),
    (constant(_MIN64), "(-9223372036854775807 - 1)"),
    (d0 * _MIN64 + 3, "d0 * (-9223372036854775807 - 1) + 3"),
    (d1 + d0 * _MIN64, "d1 + d0 * (-9223372036854775807 - 1)"),
    ((d2.floordiv(123456789) + _MIN64) * 7, "(d2 floordiv 123456789 - 9223372036854775807 - 1) * 7"),
    (d0 + -((1 << 63) - 1), "d0 - 9223372036854775807"),
])
def test_the_int64_minimum_prints_as_text_that_reads_back(built, printed):
    from unilayout import affine

    m = affine.AffineMap(3, 0, [built])
    assert str(built) == printed
    again = affine.parse(str(m))
    assert again == m and str(again) == str(m)


_EDGE = [0, 1, -1, 2, -7, 64, 1 << 31, 1 << 62, -(1 << 62), (1 << 63) - 1, _MIN64, 123456789]


def _wide_trees():
    from hypothesis import strategies as st

    leaves = st.one_of(st.integers(0, 2).map(Dim), st.integers(0, 1).map(Symbol), st.sampled_from(_EDGE).map(Constant))
    factor = st.one_of(st.sampled_from(_EDGE).map(Constant), st.integers(0, 1).map(Symbol))
    divisor = st.one_of(st.sampled_from([c for c in _EDGE if c > 0]).map(Constant), st.integers(0, 1).map(Symbol))

    def extend(kids):
        return st.one_of(
            st.tuples(kids, kids).map(lambda t: Binary("+", *t)),
            st.tuples(kids, factor).map(lambda t: Binary("*", *t)),
            st.tuples(st.sampled_from(["floordiv", "ceildiv", "mod"]), kids, divisor).map(lambda t: Binary(*t)),
        )

    return st.recursive(leaves, extend, max_leaves=10)


def test_maps_with_int64_edge_constants_print_text_that_reads_back_to_an_equal_map():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from unilayout import affine

    @settings(max_examples=400, deadline=None)
    @given(st.lists(_wide_trees(), max_size=3))
    def check(results):
        try:
            m = affine.AffineMap(3, 2, results)
        except LayoutError:  # a fold past int64 is refused at construction
            return
        again = affine.parse(str(m))
        assert again == m and str(again) == str(m), str(m)

    check()
