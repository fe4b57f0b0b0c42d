"""Dimension collapsing: the ``linear`` map a metal layout builds from collapse intervals.

tt-mlir's ``collapseIntervals`` are half-open dim ranges ``(begin, end)``
(negative bounds count from the rank, as in Python). Each interval is joined
into one physical result; every dim outside the intervals stays a result of
its own; results follow dim order. With the join operator ``<>``:

=========================  ===============  ==========================================
tensor rank, intervals     grid rank        linear
=========================  ===============  ==========================================
3, ``[(0, -1)]`` (default) 2                ``(d0 <> d1, d2)``
4, ``[(1, -1)]``           3                ``(d0, d1 <> d2, d3)``
4, ``[(0, 2)]``            3                ``(d0 <> d1, d2, d3)``
7, ``[(0, 3), (-3, -1)]``  4                ``(d0 <> d1 <> d2, d3, d4 <> d5, d6)``
1, default                 2                ``(0, d0)`` (leading constant-0 results)
=========================  ===============  ==========================================

A join is row-major: the innermost dim has coefficient 1, each outer one the
product of the (aligned) sizes inside it:

>>> print(collapse_map((2, 3, 64, 128), 2))
(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)
>>> print(collapse_map((2, 3, 64, 128), 3, [(1, -1)]))
(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3)
>>> print(collapse_map((128,), 3))
(d0) -> (0, 0, d0)

``dim_alignments`` bump the strides so that each group starts on an aligned
boundary (multiply, then align up, from the innermost dim outward):

>>> print(collapse_map((2, 8, 32), 2, dim_alignments=(1, 32, 1)))
(d0, d1, d2) -> (d0 * 32 + d1, d2)

This is the *intended group semantics* of the spec; tt-mlir's positional C++
builder could duplicate a dim (``(d0 * 96 + d1, d1, d2)``). Such maps are
accepted when given explicitly, never produced here.
"""

from __future__ import annotations

from ..._ints import as_int, as_items, check_table
from ...affine import AffineMap, constant, dim
from ...errors import LayoutError

__all__ = ["normalize_intervals", "collapse_groups", "collapse_map"]


def _int(value, what):
    return as_int(value, what)


def normalize_intervals(rank: int, intervals=((0, -1),)) -> tuple:
    """Half-open ``(begin, end)`` intervals made non-negative, sorted, empty ones dropped.

    **Pre-conditions**: ``rank >= 1``; each bound in ``[-rank, rank]``; after
    normalisation ``begin <= end`` and no two intervals overlap.
    **Post-conditions**: ``0 <= b < e <= rank`` for every result, sorted, disjoint.

    >>> normalize_intervals(7, [(-3, -1), (0, 3)])
    ((0, 3), (4, 6))
    >>> normalize_intervals(1)
    ()
    >>> normalize_intervals(4, [(2, 1)])
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: collapse interval (2, 1) is reversed on rank 4: begin must be <= end
    """
    rank = _int(rank, "rank")
    if rank > 1 << 16:
        raise LayoutError(f"rank {rank} is more than the {1 << 16} dims a layout may have")
    if intervals is None:
        return ()
    try:
        items = list(intervals)
    except TypeError:
        raise LayoutError(f"collapse_intervals must be a sequence of (begin, end) pairs, got {intervals!r}") from None
    out = []
    for iv in items:
        try:
            b, e = iv
        except (TypeError, ValueError):
            raise LayoutError(f"collapse interval must be a (begin, end) pair, got {iv!r}") from None
        b0, e0 = _int(b, "collapse interval bound"), _int(e, "collapse interval bound")
        for v in (b0, e0):
            if not -rank <= v <= rank:
                raise LayoutError(f"collapse interval {(b0, e0)} is out of range for rank {rank}: bounds must lie in [-{rank}, {rank}]")
        b1 = b0 + rank if b0 < 0 else b0
        e1 = e0 + rank if e0 < 0 else e0
        if b1 > e1:
            raise LayoutError(f"collapse interval {(b0, e0)} is reversed on rank {rank}: begin must be <= end")
        if b1 < e1:
            out.append((b1, e1))
    out.sort()
    for (b, e), (b2, e2) in zip(out, out[1:]):
        if b2 < e:
            raise LayoutError(f"collapse intervals [{b}, {e}) and [{b2}, {e2}) overlap: each dim may be collapsed once")
    return tuple(out)


def collapse_groups(rank: int, intervals=((0, -1),)) -> tuple:
    """The dim groups, in dim order: each interval one group, each other dim a singleton.

    >>> collapse_groups(4)
    ((0, 1, 2), (3,))
    >>> collapse_groups(7, [(0, 3), (-3, -1)])
    ((0, 1, 2), (3,), (4, 5), (6,))
    >>> collapse_groups(3, ())
    ((0,), (1,), (2,))
    """
    groups, d = [], 0
    for b, e in normalize_intervals(rank, intervals):
        groups.extend((i,) for i in range(d, b))
        groups.append(tuple(range(b, e)))
        d = e
    groups.extend((i,) for i in range(d, rank))
    return tuple(groups)


def _align_up(value: int, alignment: int) -> int:
    return -(-value // alignment) * alignment


def collapse_map(logical_shape, grid_rank: int, collapse_intervals=((0, -1),), dim_alignments=None) -> AffineMap:
    """The ``linear`` map collapsing ``logical_shape`` onto a grid of rank ``grid_rank``.

    Groups as in ``collapse_groups``; a group's result is its row-major join
    with coefficients ``c_last = 1``, ``c_{j-1} = alignUp(S_j * c_j, A_j)``
    (``A`` = ``dim_alignments``, all 1 by default). With ``k`` groups and
    ``grid_rank > k``, ``grid_rank - k`` constant-0 results are prepended.

    **Pre-conditions**: every size >= 1; ``grid_rank >= k``; one alignment >= 1 per dim.
    **Post-conditions**: ``m.num_dims == len(logical_shape)``, ``m.num_results == grid_rank``,
    every dim appears in exactly one result.

    >>> print(collapse_map((3, 43, 7), 2, [(0, 2)], dim_alignments=(1, 32, 32)))
    (d0, d1, d2) -> (d0 * 64 + d1, d2)
    >>> collapse_map((2, 3, 4, 5), 2, [(0, 2)])
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: collapse gives 3 groups but the grid has rank 2: use a grid of rank >= 3 or wider collapse_intervals
    """
    shape = tuple(_int(s, "logical dim") for s in as_items(logical_shape))
    rank = len(shape)
    if rank == 0 or any(s < 1 for s in shape):
        raise LayoutError(f"logical shape {shape} must have rank >= 1 and every dim >= 1")
    grid_rank = _int(grid_rank, "grid rank")
    check_table(grid_rank, f"collapse_map: a grid of rank {grid_rank}")
    if dim_alignments is None:
        align = (1,) * rank
    else:
        items = as_items(dim_alignments)
        if isinstance(dim_alignments, (str, bytes)) or len(items) == 1 and items[0] is dim_alignments:
            raise LayoutError(f"dim_alignments must be a sequence with one alignment per dim, got {dim_alignments!r}")
        align = tuple(_int(a, "dim alignment") for a in items)
        if len(align) != rank or any(a < 1 for a in align):
            raise LayoutError(f"dim_alignments {align} must give one alignment >= 1 for each of the {rank} dims")
    groups = collapse_groups(rank, collapse_intervals)
    if grid_rank < len(groups):
        raise LayoutError(
            f"collapse gives {len(groups)} groups but the grid has rank {grid_rank}: "
            f"use a grid of rank >= {len(groups)} or wider collapse_intervals"
        )
    results = [constant(0)] * (grid_rank - len(groups))
    for group in groups:
        coefs, coef = {}, 1
        for d in reversed(group):
            coefs[d] = coef
            coef = _align_up(shape[d] * coef, align[d])
        expr = None
        for d in group:  # left-associated sum, outermost first, as MLIR parses it
            term = dim(d) * coefs[d]
            expr = term if expr is None else expr + term
        results.append(expr)
    return AffineMap(rank, 0, results)
