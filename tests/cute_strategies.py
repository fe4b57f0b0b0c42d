"""Hypothesis strategies for random CuTe layouts, shared by tests/cute."""

from hypothesis import strategies as st

from unilayout.cute import Layout
from unilayout.cute.inttuple import product

SIZES = st.sampled_from([1, 2, 2, 3, 4, 4, 6, 8])
POW2 = st.sampled_from([1, 2, 4, 8])


def shapes(max_depth=2, max_rank=3, sizes=SIZES):
    """Nested shapes of depth <= max_depth."""
    if max_depth == 0:
        return sizes
    return st.one_of(sizes, st.lists(shapes(max_depth - 1, max_rank, sizes), min_size=1, max_size=max_rank).map(tuple))


def _strides_like(shape, draw, stride):
    if isinstance(shape, tuple):
        return tuple(_strides_like(s, draw, stride) for s in shape)
    return draw(stride)


@st.composite
def layouts(draw, max_depth=2, max_rank=3, sizes=SIZES, stride=st.integers(0, 24)):  # noqa: B008 (a strategy, built once)
    """Random layouts with arbitrary non-negative strides."""
    shape = draw(shapes(max_depth, max_rank, sizes).filter(lambda s: product(s) <= 4096))
    return Layout(shape, _strides_like(shape, draw, stride))


@st.composite
def compact_layouts(draw, max_depth=2, max_rank=3, sizes=SIZES):
    """Random bijections onto [0, size): a permutation of the modes of a compact layout."""
    from unilayout.cute import make_ordered_layout
    from unilayout.cute.inttuple import leaves, unflatten

    shape = draw(shapes(max_depth, max_rank, sizes))
    n = len(leaves(shape))
    order = draw(st.permutations(list(range(n))))
    flat_order = tuple(order)
    order_tree = unflatten(flat_order, shape) if isinstance(shape, tuple) else flat_order[0]
    return make_ordered_layout(shape, order_tree)
