import numpy as np
import pytest
from hypothesis import given

from cute_strategies import layouts
from unilayout import LayoutError
from unilayout import index_map as top_index_map
from unilayout.cute import Layout, evaluate, index_map


@given(layouts(max_depth=3))
def test_index_map_matches_pointwise_evaluation(L):
    im = index_map(L)
    assert im.dtype == np.int64 and im.shape == (L.size,)
    assert im.tolist() == [L(i) for i in range(L.size)]


@given(layouts(max_depth=2))
def test_evaluate_matches_pointwise_beyond_the_domain(L):
    idx = np.arange(2 * L.size + 3)
    assert evaluate(L, idx).tolist() == [L(int(i)) for i in idx]


def test_top_level_index_map_dispatches():
    assert top_index_map(Layout((2, 2), (2, 1))).tolist() == [0, 2, 1, 3]
    with pytest.raises(LayoutError):
        top_index_map("8:1")


def test_evaluate_rejects_bad_coordinates():
    with pytest.raises(LayoutError):
        evaluate(Layout(4), np.array([-1]))
    with pytest.raises(LayoutError):
        evaluate(Layout(4), np.array([0.5]))


def test_large_layout_index_map():
    L = Layout((32, (32, 64)), (64 * 32, (1, 32)))
    im = index_map(L)
    assert im.shape == (65536,) and sorted(im.tolist()) == list(range(65536))
    assert im[12345] == L(12345)


def test_evaluate_applies_swizzles_of_composed_layouts():
    from unilayout.cute import ComposedLayout, Swizzle

    C = ComposedLayout(Swizzle(3, 4, 3), 5, Layout((8, 64), (64, 1)))
    idx = np.arange(C.size)
    assert evaluate(C, idx).tolist() == [C(int(i)) for i in idx] == index_map(C).tolist()
    assert evaluate(Swizzle(2, 0, 2), np.arange(16)).tolist() == [Swizzle(2, 0, 2)(i) for i in range(16)]
    with pytest.raises(LayoutError):
        evaluate("8:1", np.arange(3))


def test_offsets_that_leave_int64_are_refused():
    with pytest.raises(LayoutError, match="int64"):
        index_map(Layout(4, 10**20))
    with pytest.raises(LayoutError, match="int64"):
        evaluate(Layout(4, 2), np.array([2**62]))
    with pytest.raises(LayoutError, match="more than the .* one table may hold"):
        index_map(Layout(10**30, 1))
    with pytest.raises(LayoutError, match="one table may hold"):  # the cap, checked before allocating
        index_map(Layout((1 << 15, 1 << 16), (1, 1 << 15)))
    assert evaluate(Layout((), ()), np.arange(3)).tolist() == [0, 0, 0]


@pytest.mark.parametrize("text", ["8:2@0", "(4,8):(1@0,1@1)"])
def test_basis_stride_layouts_have_no_offsets_to_evaluate(text):
    from unilayout.cute import parse

    L = parse(text)
    with pytest.raises(LayoutError, match="basis strides"):
        index_map(L)
    with pytest.raises(LayoutError, match="basis strides"):
        evaluate(L, np.arange(4))
