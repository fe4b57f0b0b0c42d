"""The v2 layout's rules, as tt-mlir computes them: collapse intervals, alignments, physical shape, grid.

A v2 ``#ttcore.metal_layout`` stores no map: the physical shape follows from
the logical shape, the ``collapsed_intervals`` and the ``dim_alignments`` by
these functions (each named after the tt-mlir function it mirrors):

=====================================  ==========================  ==============================================
tt-mlir                                here                        rule
=====================================  ==========================  ==============================================
``normalizeAndFlattenIntervals``       ``normalize_and_flatten``   negative bounds + rank, sorted, dims after the
                                                                   last interval become singletons
``applyCollapsedIntervalsAndAlign..``  ``v2_physical_shape``       per group: align the innermost dim, then
                                                                   going outward multiply, then align up
``computeGridAwareDimAlignments``      ``grid_aware_alignments``   tile-align the last two dims; a big interval
                                                                   aligns to grid x tile
``MetalLayoutAttr::computeAlignments`` ``ttcore_alignments``       the older TTCore rule
``computeOptimalGrid``                 ``optimal_grid``            largest grid <= target dividing each dim
(``MetalLayoutAttr::get``)             ``default_intervals``       leading dims in one interval
=====================================  ==========================  ==============================================

The 4x43x7 tensor of tt-mlir's source comment, on an 8x8 grid of 32x32 tiles:
the rows (4, 43) collapse to ``alignUp(alignUp(43, 32) * 4, 1) = 256``, the
columns to ``alignUp(7, 32) = 32``; in tiles that is 8x1, so the grid is 8x1:

>>> norm = normalize_and_flatten(default_intervals(3, 2), 3)
>>> align = grid_aware_alignments((4, 43, 7), (8, 8), norm)
>>> norm, align, v2_physical_shape((4, 43, 7), align, norm), optimal_grid((256 // 32, 32 // 32))
(((0, 2), (2, 3)), (1, 32, 32), (256, 32), (8, 1))

``MetalLayoutV2`` (``v2.py``) applies them on construction; ``v1_v2.from_v2``
chains them to build a layout with tt-mlir's defaults.
"""

from __future__ import annotations

import math

from ..._ints import as_int, as_items
from ...errors import LayoutError
from .._mlir import xs

__all__ = ["DEFAULT_TILE", "default_intervals", "normalize_and_flatten", "v2_physical_shape", "grid_aware_alignments",
           "ttcore_alignments", "optimal_grid"]

#: tt-mlir's ``TileType::getDefaultShape()``.
DEFAULT_TILE = (32, 32)


def _dims(value, what):
    out = tuple(as_int(v, what) for v in as_items(value))
    for i, v in enumerate(out):
        if v < 1:
            raise LayoutError(f"{what}[{i}] must be positive, got {v}")
    return out


def _pairs(intervals, what="collapsed_intervals"):
    try:
        items = [tuple(iv) for iv in intervals]
    except TypeError:
        raise LayoutError(f"{what} must be a sequence of (start, end) pairs, got {intervals!r}") from None
    for iv in items:
        if len(iv) != 2:
            raise LayoutError(f"{what} must have pairs (second dim size 2), got {len(iv)}")
    return tuple((as_int(a, f"{what} bound"), as_int(b, f"{what} bound")) for a, b in items)


def default_intervals(rank: int, grid_rank: int) -> tuple:
    """tt-mlir's default ``collapsed_intervals``: the leading dims in one interval, then one per remaining grid dim.

    ``MetalLayoutAttr::get`` without intervals: ``n = rank - grid_rank + 1``,
    ``[[0, n], [n, n + 1], ...]`` — ``grid_rank`` intervals in all. A rank
    below the grid rank starts with empty intervals (``computeDefaultCollapsedIntervals``
    of a rank-1 tensor is ``[[0, 0], [0, 1]]``): each is a physical dim of size 1.

    **Pre-conditions**: ``1 <= grid_rank`` and ``1 <= rank``.

    >>> default_intervals(4, 2), default_intervals(3, 3), default_intervals(1, 2)
    (((0, 3), (3, 4)), ((0, 1), (1, 2), (2, 3)), ((0, 0), (0, 1)))
    """
    rank, grid_rank = as_int(rank, "rank"), as_int(grid_rank, "grid rank")
    if grid_rank < 1 or rank < 1:
        raise LayoutError(f"default intervals need grid rank >= 1 and rank >= 1, got grid rank {grid_rank}, rank {rank}")
    if rank < grid_rank:
        return ((0, 0),) * (grid_rank - rank) + tuple((d, d + 1) for d in range(rank))
    n = rank - grid_rank + 1
    return ((0, n),) + tuple((n + i - 1, n + i) for i in range(1, grid_rank))


def normalize_and_flatten(intervals, rank: int, keep_empty=False) -> tuple:
    """tt-mlir's ``normalizeAndFlattenIntervals``: bounds made non-negative, sorted, trailing dims as singletons.

    Negative bounds count from the rank (``-1`` is ``rank - 1``); each bound
    is checked as tt-mlir's verifier does. Dims after the last interval each
    become an interval of their own. An empty interval ``(b, b)`` is dropped,
    or with ``keep_empty`` kept: a physical dim of size 1, as tt-mlir's
    default intervals of a tensor of lower rank than its grid use it (only
    leading empty intervals are read; one after a dim is a ``LayoutError``).
    **Differs**: a dim before the first interval or between two intervals
    (tt-mlir drops it silently) and overlapping intervals are refused.

    **Post-conditions**: sorted, disjoint, half-open, covering ``[0, rank)``.

    >>> normalize_and_flatten([(0, -1)], 4)
    ((0, 3), (3, 4))
    >>> normalize_and_flatten([(-2, -1), (0, 2)], 4)
    ((0, 2), (2, 3), (3, 4))
    >>> normalize_and_flatten([(0, 0), (0, 1)], 1, keep_empty=True)     # a rank-1 tensor on a 2-D grid
    ((0, 0), (0, 1))
    >>> normalize_and_flatten([(1, 3)], 4)
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: collapsed_intervals leave dim 0 out: every dim before the last interval must be in one
    """
    rank = as_int(rank, "rank")
    out = []
    for a, b in _pairs(intervals):
        s = a + rank if a < 0 else a
        e = b + rank if b < 0 else b
        if not 0 <= s < rank:
            raise LayoutError(f"collapsed_intervals start index {a} (normalized: {s}) is out of bounds for "
                              f"logical_shape rank {rank}")
        if not 0 <= e <= rank:
            raise LayoutError(f"collapsed_intervals end index {b} (normalized: {e}) is out of bounds for "
                              f"logical_shape rank {rank}")
        if s > e:
            raise LayoutError(f"collapsed_intervals start ({s}) must not exceed end ({e})")
        if s < e or keep_empty:
            out.append((s, e))
    out.sort()
    empties = [i for i, (s, e) in enumerate(out) if s == e]
    if empties and empties != list(range(len(empties))):
        raise LayoutError("an empty collapsed interval after a dim is not read: empty intervals (size-1 physical "
                          "dims) come first, as tt-mlir's default intervals of a low-rank tensor")
    covered = 0
    for s, e in out:
        if s == e:
            continue
        if s < covered:
            raise LayoutError(f"collapsed_intervals overlap at dim {s}: each dim may be collapsed once")
        if s > covered:
            raise LayoutError(f"collapsed_intervals leave dim {covered} out: every dim before the last interval "
                              "must be in one")
        covered = e
    out.extend((d, d + 1) for d in range(covered, rank))
    return tuple(out)


def _align_up(v, a):
    return -(-v // a) * a


def v2_physical_shape(logical_shape, dim_alignments, intervals) -> tuple:
    """tt-mlir's ``applyCollapsedIntervalsAndAlignments`` (v2 multiply-then-align), in scalar elements.

    Per group ``[s, e)``: ``c = alignUp(S[e-1], A[e-1])``, then for
    ``j = e-2 .. s``: ``c = alignUp(S[j] * c, A[j])``. The group's end is
    padded too (the seed-era ``from_collapse`` keeps ``linear(S - 1) + 1``).

    >>> v2_physical_shape((4, 43, 7), (1, 32, 32), [(0, 2), (2, 3)])
    (256, 32)
    >>> v2_physical_shape((9, 43, 7), (256, 32, 32), [(0, 2), (2, 3)])
    (768, 32)
    """
    shape = _dims(logical_shape, "logical_shape")
    align = _dims(dim_alignments, "dim_alignments")
    if len(align) != len(shape):
        raise LayoutError(f"dim_alignments size ({len(align)}) must match logical_shape rank ({len(shape)})")
    out = []
    for s, e in normalize_and_flatten(intervals, len(shape), keep_empty=True):
        if s == e:  # an empty interval: a physical dim of size 1
            out.append(1)
            continue
        c = _align_up(shape[e - 1], align[e - 1])
        for j in range(e - 2, s - 1, -1):
            c = _align_up(shape[j] * c, align[j])
        out.append(c)
    return tuple(out)


def grid_aware_alignments(logical_shape, grid=(8, 8), intervals=None) -> tuple:
    """The alignments tt-mlir's D2M grid selection gives (``computeGridAwareDimAlignments``).

    For the last two intervals (rows, columns): the collapsed size, with the
    last two logical dims first aligned to the 32x32 tile, is compared with
    ``grid_dim * tile_dim``; above it the interval is aligned to that product
    (on its leading dim), otherwise to the tile (on its last dim). The last
    two logical dims are always tile-aligned. ``grid`` is the 2-D target
    (worker) grid; ``intervals`` default to ``default_intervals(rank, 2)``.

    The source comment's worked examples (tile 32x32, grid 8x8):

    >>> grid_aware_alignments((4, 43, 7)), grid_aware_alignments((9, 43, 7))
    ((1, 32, 32), (256, 32, 32))

    (Its third example, 31x33x447 -> "1x32x256", does not match its own code,
    which also grid-aligns the leading interval: ``(256, 32, 256)``.)

    >>> grid_aware_alignments((31, 33, 447))
    (256, 32, 256)
    """
    shape = _dims(logical_shape, "logical_shape")
    grid = _dims(grid, "grid")
    rank = len(shape)
    if rank < 2:
        raise LayoutError(f"logical_shape must have at least 2 dimensions, got {rank}")
    if len(grid) != 2:
        raise LayoutError(f"grid-aware alignments need a 2-D target grid, got {xs(grid)}")
    norm = normalize_and_flatten(default_intervals(rank, 2) if intervals is None else intervals, rank)
    if len(norm) < 2:
        raise LayoutError(f"grid-aware alignments need at least two intervals, got {list(norm)}")
    align = [1] * rank
    for k in (-1, -2):
        tile_dim, grid_dim = DEFAULT_TILE[k], grid[k]
        start, last = norm[k][0], norm[k][1] - 1
        size = 1
        for i in range(last, start - 1, -1):
            size *= _align_up(shape[i], tile_dim) if i >= rank - 2 else shape[i]
        threshold = grid_dim * tile_dim
        to_grid = size > threshold
        alignment = threshold if to_grid else tile_dim
        if start == last:
            align[last] = alignment
        else:
            if k != -2 or last != rank - 2:
                raise LayoutError(f"grid-aware alignments assume intervals [[0, {rank - 1}], [{rank - 1}, {rank}]]: "
                                  f"got {list(norm)}")
            align[last] = tile_dim
            if to_grid:
                align[start] = alignment
    for k in (-1, -2):
        if align[k] % DEFAULT_TILE[k]:
            raise LayoutError(f"intervals {list(norm)} leave logical dim {rank + k} without tile alignment")
    return tuple(align)


def ttcore_alignments(logical_shape, grid, intervals=None) -> tuple:
    """``MetalLayoutAttr::computeAlignments`` (TTCore's builder without alignments; the older rule).

    For the last two intervals: the collapsed (unaligned) size ``>= grid_dim *
    tile_dim`` aligns to that product, otherwise to the tile; the alignment is
    set on the interval's **first** dim only.

    >>> ttcore_alignments((4, 43, 7), (8, 8))
    (32, 1, 32)
    """
    shape = _dims(logical_shape, "logical_shape")
    grid = _dims(grid, "grid")
    if len(grid) < 2:
        raise LayoutError(f"computeAlignments needs a grid of rank >= 2, got {xs(grid)}")
    norm = normalize_and_flatten(default_intervals(len(shape), len(grid)) if intervals is None else intervals,
                                 len(shape))
    if len(norm) != len(grid):
        raise LayoutError(f"{len(norm)} intervals for a grid of rank {len(grid)}: they must agree")
    align = [1] * len(shape)
    for idx in (len(grid) - 2, len(grid) - 1):
        s, e = norm[idx]
        size = math.prod(shape[s:e])
        tile_dim = DEFAULT_TILE[0 if idx == len(grid) - 2 else 1]
        threshold = grid[idx] * tile_dim
        align[s] = threshold if size >= threshold else tile_dim
    return tuple(align)


def optimal_grid(physical_shape, target=(8, 8)) -> tuple:
    """tt-mlir's ``computeOptimalGrid``: per dim of the last two, the largest grid size <= target dividing it.

    Leading physical dims get grid 1. ``physical_shape`` is in tiles for a tiled tensor.

    >>> optimal_grid((8, 1)), optimal_grid((24, 1)), optimal_grid((2, 12, 10))
    ((8, 1), (8, 1), (1, 6, 5))
    """
    phys = _dims(physical_shape, "physical shape")
    target = _dims(target, "target grid")
    if len(target) != 2 or len(phys) < 2:
        raise LayoutError(f"optimal_grid needs a 2-D target and a physical shape of rank >= 2, got "
                          f"{xs(target)} and {xs(phys)}")
    grid = [1] * len(phys)
    off = len(phys) - 2
    for i, t in enumerate(target):
        d = phys[off + i]
        grid[off + i] = next(g for g in range(t, 0, -1) if d % g == 0)
    return tuple(grid)
