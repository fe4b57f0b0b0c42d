"""collapse intervals -> linear: group semantics, alignments, errors."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unilayout import LayoutError
from unilayout.tt import collapse_groups, collapse_map, normalize_intervals


@pytest.mark.parametrize(
    "shape, grid_rank, intervals, text",
    [
        ((2, 3, 64, 128), 2, ((0, -1),), "(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)"),
        ((2, 3, 64, 128), 3, [(1, -1)], "(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3)"),
        ((5, 3, 2, 2, 7, 32, 32), 4, [(0, 3), (-3, -1)], "(d0, d1, d2, d3, d4, d5, d6) -> (d0 * 6 + d1 * 2 + d2, d3, d4 * 32 + d5, d6)"),
        ((128,), 1, ((0, -1),), "(d0) -> (d0)"),
        ((128,), 2, ((0, -1),), "(d0) -> (0, d0)"),
        ((128,), 3, ((0, -1),), "(d0) -> (0, 0, d0)"),
        ((8, 96, 32), 3, ((0, -1),), "(d0, d1, d2) -> (0, d0 * 96 + d1, d2)"),
        ((8, 96, 32), 3, (), "(d0, d1, d2) -> (d0, d1, d2)"),
        ((8, 96, 32), 3, None, "(d0, d1, d2) -> (d0, d1, d2)"),
        ((4, 5), 2, [(0, 2)], "(d0, d1) -> (0, d0 * 5 + d1)"),
    ],
)
def test_collapse_map_examples(shape, grid_rank, intervals, text):
    assert str(collapse_map(shape, grid_rank, intervals)) == text


def test_interval_order_does_not_matter_and_empty_intervals_are_ignored():
    a = collapse_map((2, 3, 4, 5, 6), 3, [(3, 5), (0, 2)])
    b = collapse_map((2, 3, 4, 5, 6), 3, [(0, 2), (2, 2), (-2, 5)])
    assert a == b
    assert str(a) == "(d0, d1, d2, d3, d4) -> (d0 * 3 + d1, d2, d3 * 6 + d4)"


@pytest.mark.parametrize(
    "intervals, message",
    [
        ([(2, 1)], "reversed"),
        ([(0, 5)], "out of range"),
        ([(-5, 2)], "out of range"),
        ([(0, 2), (1, 3)], "overlap"),
        ([(0,)], r"\(begin, end\) pair"),
        (5, "sequence of"),
        ([(0.5, 2)], "must be an integer"),
    ],
)
def test_bad_intervals_are_layout_errors(intervals, message):
    with pytest.raises(LayoutError, match=message):
        normalize_intervals(4, intervals)


def test_more_groups_than_grid_rank_names_both_counts():
    with pytest.raises(LayoutError, match="collapse gives 3 groups but the grid has rank 2"):
        collapse_map((2, 3, 4, 5), 2, [(0, 2)])


def test_dim_alignments_multiply_then_align_from_the_innermost_dim():
    assert str(collapse_map((2, 8, 32), 2, dim_alignments=(1, 32, 1))) == "(d0, d1, d2) -> (d0 * 32 + d1, d2)"
    assert str(collapse_map((3, 43, 7), 2, [(0, 2)], dim_alignments=(1, 32, 32))) == "(d0, d1, d2) -> (d0 * 64 + d1, d2)"
    # a three-dim group: d2 coefficient 1, d1 alignUp(5, 8) = 8, d0 alignUp(3 * 8, 16) = 32
    assert str(collapse_map((2, 3, 5, 7), 2, dim_alignments=(1, 16, 8, 1))) == "(d0, d1, d2, d3) -> (d0 * 32 + d1 * 8 + d2, d3)"


@pytest.mark.parametrize("align", [(1, 1), (1, 0, 1), (1, -2, 1), (1, "a", 1)])
def test_bad_alignments_are_rejected(align):
    with pytest.raises(LayoutError):
        collapse_map((2, 3, 4), 2, dim_alignments=align)


@pytest.mark.parametrize("shape", [(), (0, 3), (2, -1)])
def test_bad_logical_shapes_are_rejected(shape):
    with pytest.raises(LayoutError):
        collapse_map(shape, 2)


@settings(max_examples=60, deadline=None)
@given(
    shape=st.lists(st.integers(1, 6), min_size=1, max_size=6),
    data=st.data(),
)
def test_every_dim_appears_in_exactly_one_result_and_the_join_is_row_major(shape, data):
    r = len(shape)
    b = data.draw(st.integers(0, r))
    e = data.draw(st.integers(b, r))
    groups = collapse_groups(r, [(b, e)])
    extra = data.draw(st.integers(0, 2))
    m = collapse_map(shape, len(groups) + extra, [(b, e)])
    assert m.num_results == len(groups) + extra
    seen = [d for res in m.results for d in res.dims()]
    assert sorted(seen) == list(range(r))
    # row-major join: the last index of each group maps to the product of its sizes minus 1
    last = m(*(s - 1 for s in shape))
    for g, v in zip(groups, last[extra:]):
        prod = 1
        for d in g:
            prod *= shape[d]
        assert v == prod - 1


def test_collapse_map_onto_a_huge_grid_rank_is_a_layout_error():
    """A grid rank of 2**62 would prepend 2**62 constant results: a LayoutError, not a MemoryError."""
    with pytest.raises(LayoutError, match="grid of rank 4611686018427387904"):
        collapse_map((4, 8, 16), 2**62)
