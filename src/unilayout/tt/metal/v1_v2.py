"""Between the v1 and the v2 metal layout: ``from_v1`` (a v1 ``MetalLayout`` as v2) and ``from_v2`` (v2 with defaults).

``v2`` builds on ``metal``, never the reverse: ``MetalLayout.to_v2`` and
``MetalLayout.from_v2`` are kept as delegates to these two functions, and
import this module only inside those two methods (a deprecated path).

``from_v1`` reads the v1 map back as collapse intervals and alignments: each
result must join consecutive dims, innermost coefficient 1, each outer
coefficient covering the dims inside it; an outer coefficient larger than the
extent it covers is an alignment. The seed's walkthrough layout:

>>> from unilayout.tt.metal.metal import MetalLayout
>>> v1 = MetalLayout.from_collapse((2, 3, 64, 128), (2, 4))
>>> v2 = from_v1(v1)
>>> v2.collapsed_intervals, v2.dim_alignments, v2.linear == v1.linear, v2.shard_shape
(((0, 3), (3, 4)), (1, 1, 1, 1), True, (192, 32))

``from_v2`` derives what is not given as tt-mlir does (grid-aware
alignments, then the largest grid dividing the physical shape):

>>> from_v2((4, 43, 7), (8, 8), tile=(32, 32)).device_shape
(8, 1, 1, 1)
"""

from __future__ import annotations

from ...errors import LayoutError, NotRepresentableError
from .._mlir import _linear_terms, xs
from .alignment import (
    _dims,
    default_intervals,
    grid_aware_alignments,
    normalize_and_flatten,
    optimal_grid,
    ttcore_alignments,
    v2_physical_shape,
)
from .v2 import MetalLayoutV2

__all__ = ["from_v1", "from_v2"]


def from_v2(logical_shape, grid=(8, 8), collapsed_intervals=None, dim_alignments=None, tile=None, *,
            element_type="f32", tile_dtype=None, oob_val="undef", memory_space="l1", memory_layout="sharded",
            index_map=None, alignments="grid_aware") -> MetalLayoutV2:
    """Build a v2 layout deriving what is not given as tt-mlir does (``MetalLayout.from_v2``).

    - ``collapsed_intervals`` default: ``default_intervals(rank, max(2, ...))``
      — the leading dims collapsed into rows, the last dim the columns
      (tt-mlir's default on a 2-D worker grid);
    - ``dim_alignments`` default: ``grid_aware_alignments`` on the last two
      dims of ``grid`` (``alignments="ttcore"`` for TTCore's
      ``computeAlignments``);
    - the layout's grid: ``grid`` itself when it has the physical rank and
      divides the physical shape (in tiles when tiled); otherwise tt-mlir's
      ``computeOptimalGrid`` — per dim, the largest size <= the target that
      divides it, leading dims 1.

    The source's worked examples, on an 8x8 grid with 32x32 tiles:

    >>> a = from_v2((4, 43, 7), (8, 8), tile=(32, 32))
    >>> a.dim_alignments, a.physical_shape, a.grid, a.device_shape
    ((1, 32, 32), (256, 32), (8, 1), (8, 1, 1, 1))
    >>> b = from_v2((9, 43, 7), (8, 8), tile=(32, 32))
    >>> b.dim_alignments, b.physical_shape, b.device_shape
    ((256, 32, 32), (768, 32), (8, 1, 3, 1))
    """
    shape = _dims(logical_shape, "logical_shape")
    grid = _dims(grid, "grid")
    rank = len(shape)
    if rank < 2:
        raise LayoutError(f"logical_shape must have at least 2 dimensions, got {rank}")
    if collapsed_intervals is None:
        g = len(grid) if 2 <= len(grid) <= rank else 2
        collapsed_intervals = default_intervals(rank, g)
    norm = normalize_and_flatten(collapsed_intervals, rank)
    target = grid[-2:] if len(grid) >= 2 else (1,) + grid
    if dim_alignments is None:
        if alignments == "grid_aware":
            dim_alignments = grid_aware_alignments(shape, target, norm)
        elif alignments == "ttcore":
            full = grid if len(grid) == len(norm) else (1,) * (len(norm) - 2) + target
            dim_alignments = ttcore_alignments(shape, full, norm)
        else:
            raise LayoutError(f"alignments must be 'grid_aware' or 'ttcore', got {alignments!r}")
    physical = v2_physical_shape(shape, dim_alignments, norm)
    units = list(physical)
    if tile is not None:
        th, tw = _dims(tuple(tile)[:2], "tile")
        if len(units) >= 2 and units[-2] % th == 0 and units[-1] % tw == 0:
            units[-2] //= th
            units[-1] //= tw
    if len(grid) == len(units) and all(u % g == 0 for u, g in zip(units, grid)):
        layout_grid = grid
    elif len(units) >= 2:
        layout_grid = optimal_grid(units, target)
    else:
        layout_grid = tuple(next(g for g in range(grid[-1], 0, -1) if u % g == 0) for u in units)
    return MetalLayoutV2(shape, layout_grid, dim_alignments, collapsed_intervals, element_type, memory_space, oob_val,
                         tile, tile_dtype, memory_layout, index_map)


def from_v1(ml, memory_layout="sharded") -> MetalLayoutV2:
    """The v2 layout placing every element of the v1 ``ml`` in the same slot, or ``NotRepresentableError`` why none.

    Exact when ``linear`` joins consecutive dims per result with strides a
    v2 alignment can produce, and grid x shard covers each result
    (``MetalLayout.to_v2`` delegates here).

    **Post-condition**: ``from_v1(ml).linear == ml.linear`` and the shards agree.

    >>> from unilayout.tt.metal.metal import MetalLayout
    >>> print(from_v1(MetalLayout.from_collapse((2, 3, 64, 128), (2, 4))).attribute())
    #ttcore.metal_layout<logical_shape = 2x3x64x128, dim_alignments = 1x1x1x1, collapsed_intervals = dense<[[0, 3], [3, 4]]> : tensor<2x2xi64>, undef, l1, sharded>
    >>> from_v1(MetalLayout((4, 8), "(d0, d1) -> (d1, d0)", (1, 1)))
    Traceback (most recent call last):
    ...
    unilayout.errors.NotRepresentableError: result 0 (d1) of (d0, d1) -> (d1, d0) does not take the next dims in order
    """
    rank = ml.rank
    intervals, align = [], [1] * rank
    nxt = 0
    for i, e in enumerate(ml.linear.results):
        t = _linear_terms(e)
        if t is not None and not t[1]:
            raise NotRepresentableError(f"{ml.linear} has constant results: v2 has one physical dim per interval")
        if t is None or t[0] != 0:
            raise NotRepresentableError(f"result {i} ({e}) of {ml.linear} is not a join of consecutive dims: "
                                        "v2 only collapses intervals of dims")
        dims = sorted(t[1])
        if dims != list(range(nxt, nxt + len(dims))):
            raise NotRepresentableError(f"result {i} ({e}) of {ml.linear} does not take the next dims in order")
        coefs = [t[1][d] for d in dims]
        if coefs[-1] != 1:
            raise NotRepresentableError(f"result {i} ({e}): the innermost dim must have coefficient 1")
        inner = 1
        for j in range(len(dims) - 1, 0, -1):
            d = dims[j]
            need = coefs[j - 1]
            if need < ml.logical_shape[d] * inner:
                raise NotRepresentableError(f"result {i} ({e}): stride {need} is below the extent "
                                            f"{ml.logical_shape[d] * inner} it must cover")
            align[d] = need if need != ml.logical_shape[d] * inner else 1
            inner = need
        target = ml.shard_shape[i] * ml.grid[i]
        first = ml.logical_shape[dims[0]] * inner
        if first > target:
            raise NotRepresentableError(f"result {i} ({e}) reaches {first} but grid x shard is {target}")
        align[dims[0]] = 1 if first == target else target
        intervals.append((dims[0], dims[-1] + 1))
        nxt = dims[-1] + 1
    if nxt != rank:
        raise NotRepresentableError(f"{ml.linear} does not use dims {list(range(nxt, rank))}")
    if len(intervals) != len(ml.grid):
        raise NotRepresentableError(f"{ml.linear} has constant results: v2 has one physical dim per interval")
    try:
        v2 = MetalLayoutV2(ml.logical_shape, ml.grid, align, intervals, ml.element_type, ml.memory_space,
                           ml.oob_val, ml.tile, ml.tile_dtype, memory_layout)
    except LayoutError as err:
        raise NotRepresentableError(f"no v2 layout places {ml.linear} on grid {xs(ml.grid)} the same way: {err}") from None
    if v2.linear != ml.linear or v2.shard_shape != ml.shard_shape:
        raise NotRepresentableError(
            f"no v2 layout places {ml.linear} on grid {xs(ml.grid)} the same way (v2 gives shard "
            f"{xs(v2.shard_shape)}, v1 {xs(ml.shard_shape)})")
    return v2
