import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from unilayout import LayoutError, cute
from unilayout.cute import ComposedLayout, Layout, Swizzle, composition, index_map, logical_divide
from unilayout.cute.swizzle import swizzle_layout


def test_reference_value():
    assert Swizzle(3, 4, 3)(640) == 720


@given(st.integers(0, 4), st.integers(0, 4), st.integers(-8, 8), st.integers(0, 1 << 16))
def test_swizzle_is_an_involution_keeping_low_bits(b, m, s, x):
    if abs(s) < b:
        with pytest.raises(LayoutError):
            Swizzle(b, m, s)
        return
    sw = Swizzle(b, m, s)
    assert sw(sw(x)) == x
    assert sw(x) & ((1 << m) - 1) == x & ((1 << m) - 1)


def test_vectorised_swizzle_matches_scalar():
    sw = Swizzle(3, 4, 3)
    xs = np.arange(4096)
    assert sw(xs).tolist() == [sw(int(x)) for x in xs]


def test_negative_shift_swizzles_upward():
    sw = Swizzle(2, 0, -2)
    assert sw(0b01) == 0b101 and sw(sw(0b01)) == 0b01


def test_swizzle_value_semantics():
    assert Swizzle(3, 4, 3) == Swizzle(3, 4, 3) and hash(Swizzle(1, 2, 3)) == hash(Swizzle(1, 2, 3))
    assert str(Swizzle(3, 4, 3)) == "Sw<3,4,3>" and eval(repr(Swizzle(3, 4, 3))) == Swizzle(3, 4, 3)


def test_swizzle_casts():
    assert Swizzle(3, 4, 3).upcast(4) == Swizzle(3, 2, 3)
    assert Swizzle(3, 1, 3).upcast(8) == Swizzle(1, 0, 3)
    assert Swizzle(3, 4, 3).downcast(2) == Swizzle(3, 5, 3)
    with pytest.raises(LayoutError, match="power of two"):
        Swizzle(3, 4, 3).upcast(3)


def test_composed_layout_value_and_queries():
    inner = Layout((8, 64), (64, 1))
    C = ComposedLayout(Swizzle(3, 4, 3), 0, inner)
    assert str(C) == "Sw<3,4,3> o 0 o (8,64):(64,1)"
    assert (C.shape, C.size, C.cosize, C.rank, C.depth) == (inner.shape, 512, 512, 2, 1)
    sw = Swizzle(3, 4, 3)
    assert all(C(m, n) == sw(inner(m, n)) for m in range(8) for n in range(64))
    assert index_map(C).tolist() == [sw(v) for v in index_map(inner).tolist()]
    assert eval(repr(C)) == C and hash(C) == hash(eval(repr(C)))


def test_composed_layout_with_layout_outer_and_offset():
    C = ComposedLayout(Layout((4, 4), (4, 1)), 3, Layout(8, 1))
    outer = Layout((4, 4), (4, 1))
    assert [C(i) for i in range(8)] == [outer(3 + i) for i in range(8)]
    assert C.index_map().tolist() == [outer(3 + i) for i in range(8)]


def test_composed_layout_slicing_adds_offset():
    C = ComposedLayout(Swizzle(1, 0, 1), 0, Layout((4, 4)))
    S = C(None, 2)
    assert S.offset == 8 and S.inner == Layout((4,), (1,))
    assert [S(i) for i in range(4)] == [C(i, 2) for i in range(4)]


def test_algebra_on_composed_layout_acts_on_inner():
    C = ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, 64), (64, 1)))
    D = logical_divide(C, (2, 8))
    assert isinstance(D, ComposedLayout) and D.inner == logical_divide(C.inner, (2, 8))
    T = composition(C, Layout(4, 64))
    assert [T(i) for i in range(4)] == [C(i * 64) for i in range(4)]


def test_composed_layout_rejects_bad_parts():
    with pytest.raises(LayoutError):
        ComposedLayout("x", 0, Layout(4))
    with pytest.raises(LayoutError):
        ComposedLayout(Swizzle(1, 0, 1), 0, Swizzle(1, 0, 1))
    with pytest.raises(LayoutError):
        ComposedLayout(Swizzle(1, 0, 1), (1, 2), Layout(4))


def test_negative_offsets_are_rejected():
    with pytest.raises(LayoutError):
        Swizzle(2, 0, 2)(-1)
    with pytest.raises(LayoutError):
        Swizzle(2, 0, 2)(np.array([3, -1]))


@pytest.mark.parametrize("b,m,s", [(0, 0, 0), (1, 0, 1), (2, 0, 2), (3, 4, 3), (2, 1, 3), (2, 1, -3), (3, 3, -3)])
def test_swizzle_layout_rows_are_the_swizzled_block(b, m, s):
    sw = Swizzle(b, m, s)
    L = swizzle_layout(sw)
    width = 1 << (m + abs(s))
    assert isinstance(L, ComposedLayout) and L.outer == sw and L.offset == 0
    assert L.inner == Layout((1 << b, width), (width, 1))
    assert L.size == sw.size
    values = []
    for r in range(1 << b):
        row = [L(r, j) for j in range(width)]
        assert row == [sw(r * width + j) for j in range(width)]
        if s >= 0:  # the high bits pick the row: each row permutes its own units
            assert sorted(row) == list(range(r * width, (r + 1) * width))
        values += row
    assert sorted(values) == list(range(sw.size))  # the whole block, each offset once


def test_swizzle_layout_is_public_and_refuses_a_layout():
    assert cute.swizzle_layout is swizzle_layout
    assert str(cute.swizzle_layout(Swizzle(3, 3, 3))) == "Sw<3,3,3> o 0 o (8,64):(64,1)"
    with pytest.raises(LayoutError, match="expected a cute.Swizzle, got Layout"):
        swizzle_layout(Layout(4, 1))
