"""bounds() is exact; inverse() and inverse_table() invert bijections on boxes."""

import importlib.util
import pathlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unilayout import LayoutError, NotRepresentableError
from unilayout.affine import parse

_spec = importlib.util.spec_from_file_location("affine_strategies", pathlib.Path(__file__).with_name("strategies.py"))
strategies = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(strategies)


def test_bounds_examples_from_the_reference_and_seed():
    m = parse("(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)")
    assert m.bounds((2, 3, 64, 128)) == ((0, 383), (0, 127))
    assert parse("(d0) -> ((d0 * 2) mod 4)").bounds((8,)) == ((0, 2),)
    seven = parse("(d0, d1, d2, d3, d4, d5, d6) -> (d0 * 2688 + d1 * 896 + d2 * 448 + d3 * 224 + d4 * 32 + d5, d4, d5, d6)")
    assert seven.bounds((5, 3, 2, 2, 7, 32, 32)) == ((0, 13439), (0, 6), (0, 31), (0, 31))


def test_bounds_are_exact_where_intervals_would_be_loose():
    assert parse("(d0) -> (d0 - d0 floordiv 2)").bounds((5,)) == ((0, 2),)
    assert parse("(d0) -> ((d0 + 6) mod 8)").bounds((4,)) == ((0, 7),)
    assert parse("(d0) -> ((d0 + 5) mod 8)").bounds((3,)) == ((5, 7),)
    assert parse("(d0, d1) -> (d0 * -3 + d1 mod 4 + 2)").bounds((3, 9)) == ((-4, 5),)
    assert parse("(d0)[s0] -> (d0 floordiv s0)").bounds((10,), symbols=(3,)) == ((0, 3),)


def test_bounds_errors():
    m = parse("(d0)[s0] -> (d0 floordiv s0)")
    with pytest.raises(LayoutError, match="symbol"):
        m.bounds((4,))
    with pytest.raises(LayoutError, match="constant divisor"):
        m.bounds((4,), symbols=(0,))
    with pytest.raises(LayoutError, match="empty"):
        parse("(d0) -> (d0)").bounds((0,))
    with pytest.raises(LayoutError, match="enumerating"):
        parse("(d0) -> (d0 - (d0 * 3) floordiv 5)").bounds((1 << 40,))


@settings(max_examples=150, deadline=None)
@given(strategies.maps(num_dims=2, num_symbols=1), st.integers(1, 9), st.integers(1, 9), st.integers(1, 4))
def test_bounds_equal_the_extremes_over_the_box(m, n0, n1, sym):
    table = m.index_map((n0, n1), symbols=(sym,))
    want = tuple((int(c.min()), int(c.max())) for c in table.T)
    assert m.bounds((n0, n1), symbols=(sym,)) == want


@pytest.mark.parametrize(
    "text, shape",
    [
        ("(d0, d1) -> (d1, d0)", (3, 5)),
        ("(d0, d1) -> (d1 * 4 + d0)", (4, 3)),
        ("(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)", (2, 3, 64, 128)),
        ("(d0, d1) -> ((d0 floordiv 4) * 32 + (d0 mod 4) * 4 + (d1 floordiv 4) * 16 + d1 mod 4)", (8, 8)),
        ("(d0) -> (d0 floordiv 8, d0 mod 8 + 3)", (32,)),
        ("(d0, d1) -> (d0 floordiv 4, d1, d0 mod 4)", (8, 3)),
        # found from the table (not a dense digit sum structurally):
        ("(d0) -> (3 - d0)", (4,)),
        ("(d0, d1) -> (d1 * 2 + d0 mod 2, d0 floordiv 2)", (4, 3)),
        ("(d0, d1) -> ((d0 + d1 * 4) mod 8 + (d1 floordiv 2) * 8 - 5)", (4, 4)),
    ],
)
def test_inverse_from_structure_inverts_on_the_box(text, shape):
    m = parse(text)
    inv = m.inverse(shape)
    table = m.index_map(shape)
    back = np.stack(inv.evaluate(*table.T), axis=1)
    coords = np.stack(np.unravel_index(np.arange(table.shape[0]), shape), axis=1)
    assert (back == coords).all()
    assert inv.num_dims == m.num_results and inv.num_results == m.num_dims


def test_inverse_rejects_non_bijections_and_reports_unrepresentable_ones():
    with pytest.raises(LayoutError, match="not a bijection"):
        parse("(d0, d1) -> (d0 + d1)").inverse((2, 2))
    with pytest.raises(LayoutError, match="not injective|not a bijection"):
        parse("(d0) -> (d0 mod 2, (d0 floordiv 2) mod 2)").inverse((8,))
    m = parse("(d0) -> ((d0 * 3) mod 4)")
    with pytest.raises(NotRepresentableError, match="inverse_table"):
        m.inverse((4,))
    assert m.inverse_table((4,))[:, 0].tolist() == [0, 3, 2, 1]
    with pytest.raises(LayoutError, match="symbols"):
        parse("(d0)[s0] -> (d0 + s0)").inverse((4,))


def test_inverse_table_matches_the_forward_table():
    m = parse("(d0, d1) -> (d1 * 2 + d0 mod 2, d0 floordiv 2)")
    inv = m.inverse_table((4, 3))
    table = m.index_map((4, 3))
    lo = table.min(axis=0)
    ext = table.max(axis=0) - lo + 1
    rows = np.ravel_multi_index(tuple((table - lo).T), ext)
    coords = np.stack(np.unravel_index(np.arange(12), (4, 3)), axis=1)
    assert (inv[rows] == coords).all()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([1, 2, 3, 4]), min_size=1, max_size=3), st.lists(st.sampled_from([1, 2, 3, 4]), min_size=1, max_size=3), st.randoms(use_true_random=False))
def test_inverse_of_random_tiled_layouts(b0, b1, rnd):
    # A tiled-strided bijection: every (dim, level) digit gets a dense stride in a random order.
    digits = [(0, k) for k in range(len(b0))] + [(1, k) for k in range(len(b1))]
    rnd.shuffle(digits)
    bounds = {0: b0, 1: b1}
    stride, step = 1, {}
    for d in digits:
        step[d] = stride
        stride *= bounds[d[0]][d[1]]
    from unilayout.affine import AffineMap, Constant, Dim

    e = Constant(0)
    for d, bs in bounds.items():
        inner = 1
        for k in reversed(range(len(bs))):
            digit = Dim(d).floordiv(inner) % bs[k] if k else Dim(d).floordiv(inner)
            e = e + digit * step[(d, k)]
            inner *= bs[k]
    shape = (int(np.prod(b0)), int(np.prod(b1)))
    m = AffineMap(2, 0, [e])
    inv = m.inverse(shape)
    (flat,) = m.index_map(shape).T
    back = np.stack(inv.evaluate(flat), axis=1)
    coords = np.stack(np.unravel_index(np.arange(flat.size), shape), axis=1)
    assert (back == coords).all()
