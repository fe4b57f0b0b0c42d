"""``MetalLayoutV2``: the metal layout tt-mlir prints today, ``#ttcore.metal_layout<logical_shape = ...>``.

Since mid-2025 tt-mlir no longer prints an affine map and a memref: the
attribute keeps the **logical shape**, how dims collapse
(``collapsed_intervals``) and how each dim is padded while collapsing
(``dim_alignments``); the tensor carrying it is **device-shaped**,
``tensor<GRID x SHARD x elem>``, the shard in tiles for ``!ttcore.tile<..>``:

.. code-block:: text

    tensor<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.metal_layout<logical_shape = 32x32,
        dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>,
        undef, l1, sharded>>

The pipeline, function by function as in tt-mlir's ``TTCoreOpsTypes.cpp``:

==============================  ===========================================================
tt-mlir                         here
==============================  ===========================================================
``normalizeAndFlattenIntervals``  ``normalized_intervals``: negative bounds + rank, sorted,
                                  dims after the last interval become singletons
``applyCollapsedIntervals...``  ``physical_shape``: in a group, align the innermost dim,
                                then going outward **multiply, then align up** (the group's
                                end is padded too)
``getPhysicalShape(tile)``      ``get_physical_shape(tile)``: last two dims / tile
``getDeviceShape(grid, tile)``  ``device_shape`` = grid ++ physical / grid (exact division)
==============================  ===========================================================

The 3x43x7 tensor collapsed as ``[[0, 2], [2, 3]]`` with alignments 1x32x32:
the group (3, 43) is ``alignUp(alignUp(43, 32) * 3, 1) = 192`` rows, the last
dim ``alignUp(7, 32) = 32`` columns. The seed-era rule of
``MetalLayout.from_collapse(dim_alignments=)`` uses the same strides but
keeps ``physical = linear(S - 1) + 1`` (171x7); both are available:

>>> v2 = MetalLayoutV2((3, 43, 7), (2, 1), (1, 32, 32), [(0, 2), (2, 3)])
>>> v2.physical_shape, v2.shard_shape, v2.device_shape
((192, 32), (96, 32), (2, 1, 96, 32))
>>> print(v2.linear)
(d0, d1, d2) -> (d0 * 64 + d1, d2)
>>> MetalLayout.from_collapse((3, 43, 7), (2, 1), [(0, 2)], dim_alignments=(1, 32, 32)).physical_shape
(171, 7)

Data moves as for every metal layout: ``p = linear(x)``, core ``p floordiv
shard``, slot ``p mod shard``; alignment padding and tile padding are slots
holding no element (``padding_mask``), filled from ``oob_val`` by ``shard``.

Where this departs from tt-mlir (on purpose, and only for hand-written
intervals that tt-mlir's own builders never produce): dims *before* the first
interval or between intervals are refused (tt-mlir's normaliser silently
drops them), and trailing uncovered dims are taken in dim order (the C++
``applyCollapsedIntervalsAndAlignments`` appends them innermost first, which
disagrees with its own normaliser when two or more trailing dims differ).
An ``index_map`` is carried and printed (``map(N)`` for the identity) but not
applied to data: tt-mlir uses it for views and virtual grids.
"""

from __future__ import annotations

import math

from ..affine import AffineMap
from ..affine.expr import Dim
from ..errors import LayoutError, NotRepresentableError
from .._ints import as_int, as_items
from ._mlir import replaced, xs
from .collapse import collapse_map
from .metal import _TILE_FROM_SCALAR, OOB_VALS, TILE_DTYPES, MetalLayout, is_scalar_type

__all__ = ["MetalLayoutV2", "MEMORY_LAYOUTS", "default_intervals", "normalize_and_flatten", "v2_physical_shape",
           "grid_aware_alignments", "ttcore_alignments", "optimal_grid", "from_v2"]

MEMORY_LAYOUTS = ("sharded", "interleaved")
#: tt-mlir's ``TileType::getDefaultShape()``.
DEFAULT_TILE = (32, 32)
# The scalar element type a tiled v2 tensor stands for (it prints only its tile).
_SCALAR_OF_TILE = {"f32": "f32", "f16": "f16", "bf16": "bf16", "u32": "ui32", "u16": "ui16", "u8": "ui8",
                   "si32": "si32", "bfp_f8": "f32", "bfp_f4": "f32", "bfp_f2": "f32", "bfp_bf8": "bf16",
                   "bfp_bf4": "bf16", "bfp_bf2": "bf16"}


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
    ``[[0, n], [n, n + 1], ...]`` — ``grid_rank`` intervals in all.

    **Pre-conditions**: ``1 <= grid_rank <= rank``.

    >>> default_intervals(4, 2), default_intervals(3, 3)
    (((0, 3), (3, 4)), ((0, 1), (1, 2), (2, 3)))
    """
    rank, grid_rank = as_int(rank, "rank"), as_int(grid_rank, "grid rank")
    if not 1 <= grid_rank <= rank:
        raise LayoutError(f"default intervals need 1 <= grid rank <= rank, got grid rank {grid_rank} for rank {rank}")
    n = rank - grid_rank + 1
    return ((0, n),) + tuple((n + i - 1, n + i) for i in range(1, grid_rank))


def normalize_and_flatten(intervals, rank: int) -> tuple:
    """tt-mlir's ``normalizeAndFlattenIntervals``: bounds made non-negative, sorted, trailing dims as singletons.

    Negative bounds count from the rank (``-1`` is ``rank - 1``); each bound
    is checked as tt-mlir's verifier does. Dims after the last interval each
    become an interval of their own. An empty interval ``(b, b)`` is dropped.
    **Differs**: a dim before the first interval or between two intervals
    (tt-mlir drops it silently) and overlapping intervals are refused.

    **Post-conditions**: sorted, disjoint, half-open, covering ``[0, rank)``.

    >>> normalize_and_flatten([(0, -1)], 4)
    ((0, 3), (3, 4))
    >>> normalize_and_flatten([(-2, -1), (0, 2)], 4)
    ((0, 2), (2, 3), (3, 4))
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
        if s < e:
            out.append((s, e))
    out.sort()
    covered = 0
    for s, e in out:
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
    for s, e in normalize_and_flatten(intervals, len(shape)):
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


def _identity(n):
    return AffineMap(n, 0, [Dim(i) for i in range(n)])


class MetalLayoutV2(MetalLayout):
    """The v2 metal layout on its device-shaped tensor: immutable, hashable, ``==`` by value.

    ``MetalLayoutV2(logical_shape, grid, dim_alignments, collapsed_intervals,
    element_type="f32", memory_space="l1", oob_val="undef", tile=None,
    tile_dtype=None, memory_layout="sharded", index_map=None, show_oob=True)``.
    ``collapsed_intervals`` are kept as written (negative bounds included) and
    printed back so; ``memory_layout=None`` is the older form that prints no
    ``sharded``/``interleaved``; ``show_oob=False`` the newer form without an
    oob value (data then fills as ``undef``). ``index_map`` is an
    ``AffineMap`` (or its text, or ``map(N)``), carried and printed only.
    A tiled tensor prints only its tile, so its ``element_type`` is the
    tile's scalar type.

    Every ``MetalLayout`` method applies (``locate``, ``shard``, ``unshard``,
    ``padding_mask``, ``index_map()``, ``to_ttnn``); ``linear`` is the
    collapse map with the aligned strides.

    >>> ml = MetalLayoutV2((2, 3, 64, 128), (2, 4), (1, 1, 32, 32), [(0, 3), (3, 4)], tile=(32, 32))
    >>> ml.physical_shape, ml.device_shape, ml.locate(1, 1, 6, 100)
    ((384, 128), (2, 4, 6, 1), ((1, 3), (70, 4)))
    >>> MetalLayoutV2((53, 63), (3, 2), (1, 1), [(0, 1), (1, 2)])
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: physical shape 53x63 does not divide evenly over the grid 3x2 (dim 0: 53 % 3 = 2): align the dims so that grid divides them
    """

    __slots__ = ("dim_alignments", "collapsed_intervals", "normalized_intervals", "memory_layout", "index_affine_map",
                 "show_oob")

    def __init__(self, logical_shape, grid, dim_alignments, collapsed_intervals, element_type="f32",
                 memory_space="l1", oob_val="undef", tile=None, tile_dtype=None, memory_layout="sharded",
                 index_map=None, show_oob=True):
        shape = _dims(logical_shape, "logical_shape")
        if len(shape) < 2:
            raise LayoutError(f"logical_shape must have at least 2 dimensions, got {len(shape)}")
        align = _dims(dim_alignments, "dim_alignments")
        if len(align) != len(shape):
            raise LayoutError(f"dim_alignments size ({len(align)}) must match logical_shape rank ({len(shape)})")
        raw = _pairs(collapsed_intervals)
        norm = normalize_and_flatten(raw, len(shape))
        grid = _dims(grid, "grid")
        if len(grid) != len(norm):
            raise LayoutError(f"grid {xs(grid)} has rank {len(grid)} but the collapsed intervals {[list(p) for p in norm]} "
                              f"give {len(norm)} physical dims: they must agree")
        if memory_layout is not None and memory_layout not in MEMORY_LAYOUTS:
            raise LayoutError(f"memory layout {memory_layout!r} is not one of {', '.join(MEMORY_LAYOUTS)}")
        if not isinstance(oob_val, str) or oob_val not in OOB_VALS:
            raise LayoutError(f"oob_val {oob_val!r} is not one of {', '.join(OOB_VALS)}")
        if isinstance(index_map, str):
            index_map = _read_index_map(index_map)
        if index_map is not None and not isinstance(index_map, AffineMap):
            raise LayoutError(f"index_map must be an AffineMap or its text, got {type(index_map).__name__}")
        if tile is not None:
            if isinstance(tile, (str, bytes)) or not hasattr(tile, "__len__") or len(tile) not in (2, 3):
                raise LayoutError(f"tile must be (height, width) or (height, width, dtype), got {tile!r}")
            if len(tile) == 3:
                tile_dtype = tile[2] if tile_dtype is None else tile_dtype
                tile = tuple(tile[:2])
            if tile_dtype is None:
                tile_dtype = _TILE_FROM_SCALAR.get(element_type)
                if tile_dtype is None:
                    raise LayoutError(f"element type {element_type} has no tile dtype: pass tile_dtype "
                                      f"(one of {', '.join(TILE_DTYPES)})")
            if tile_dtype not in TILE_DTYPES:
                raise LayoutError(f"tile dtype {tile_dtype!r} is not one of {', '.join(TILE_DTYPES)}")
            element_type = _SCALAR_OF_TILE[tile_dtype]
        elif not is_scalar_type(element_type):
            raise LayoutError(f"element type {element_type!r} is not one of f16, bf16, f32, f64, iN, siN, uiN")
        physical = v2_physical_shape(shape, align, norm)
        tile_ = _dims(tile, "tile") if tile is not None else None
        if tile_ is not None:
            if len(physical) < 2:
                raise LayoutError(f"a tilized layout needs at least 2 physical dims, got {xs(physical)}")
            for k in (-2, -1):
                if physical[k] % tile_[k]:
                    raise LayoutError(
                        f"physical shape {xs(physical)} is not a whole number of {xs(tile_)} tiles (dim "
                        f"{len(physical) + k}: {physical[k]} % {tile_[k]} = {physical[k] % tile_[k]}): align the "
                        "last two dims to the tile")
        units = list(physical)
        if tile_ is not None:
            units[-2] //= tile_[0]
            units[-1] //= tile_[1]
        for i, (p, g) in enumerate(zip(units, grid)):
            if p % g:
                what = "physical shape in tiles" if tile_ is not None else "physical shape"
                raise LayoutError(f"{what} {xs(units)} does not divide evenly over the grid {xs(grid)} (dim {i}: "
                                  f"{p} % {g} = {p % g}): align the dims so that grid divides them")
        linear = collapse_map(shape, len(grid), norm, align)
        super().__init__(shape, linear, grid, element_type, memory_space, oob_val, tile_, tile_dtype)
        s = object.__setattr__
        s(self, "physical_shape", physical)
        s(self, "shard_shape", tuple(p // g for p, g in zip(physical, grid)))
        s(self, "dim_alignments", align)
        s(self, "collapsed_intervals", raw)
        s(self, "normalized_intervals", norm)
        s(self, "memory_layout", memory_layout)
        s(self, "index_affine_map", index_map)
        s(self, "show_oob", bool(show_oob))
        s(self, "_hash", hash((self._key())))

    def _key(self):
        return (self.logical_shape, self.grid, self.dim_alignments, self.collapsed_intervals, self.element_type,
                self.memory_space, self.oob_val, self.tile, self.tile_dtype, self.memory_layout,
                self.index_affine_map, self.show_oob)

    def _fields(self):
        return dict(logical_shape=self.logical_shape, grid=self.grid, dim_alignments=self.dim_alignments,
                    collapsed_intervals=self.collapsed_intervals, element_type=self.element_type,
                    memory_space=self.memory_space, oob_val=self.oob_val, tile=self.tile, tile_dtype=self.tile_dtype,
                    memory_layout=self.memory_layout, index_map=self.index_affine_map, show_oob=self.show_oob)

    # --- value semantics ---------------------------------------------------------------
    def __eq__(self, other):
        return type(other) is MetalLayoutV2 and other._hash == self._hash and other._key() == self._key()

    def __hash__(self):
        return self._hash

    def __reduce__(self):
        f = self._fields()
        return (_rebuild, (tuple(f.items()),))

    def __repr__(self):
        parts = [repr(self.logical_shape), repr(self.grid), repr(self.dim_alignments),
                 repr([list(p) for p in self.collapsed_intervals])]
        if self.tile is not None:
            parts.append(f"tile={self.tile!r}, tile_dtype={self.tile_dtype!r}")
        elif self.element_type != "f32":
            parts.append(f"element_type={self.element_type!r}")
        if self.memory_space != "l1":
            parts.append(f"memory_space={self.memory_space!r}")
        if self.oob_val != "undef":
            parts.append(f"oob_val={self.oob_val!r}")
        if self.memory_layout != "sharded":
            parts.append(f"memory_layout={self.memory_layout!r}")
        if self.index_affine_map is not None:
            parts.append(f"index_map={_print_index_map(self.index_affine_map)!r}")
        if not self.show_oob:
            parts.append("show_oob=False")
        return f"MetalLayoutV2({', '.join(parts)})"

    def replace(self, **changes) -> "MetalLayoutV2":
        """A copy with some v2 fields changed (validated again).

        >>> MetalLayoutV2((64, 64), (1, 1), (32, 32), [(0, 1), (1, 2)]).replace(grid=(2, 2)).shard_shape
        (32, 32)
        """
        fields = self._fields()
        fields = replaced(fields, changes)
        return MetalLayoutV2(**fields)

    def with_grid(self, grid) -> "MetalLayoutV2":
        """The same collapse and alignments on another grid of the same rank (it must divide the physical shape).

        >>> MetalLayoutV2((256, 64), (1, 1), (32, 32), [(0, 1), (1, 2)]).with_grid((8, 2)).device_shape
        (8, 2, 32, 32)
        """
        return self.replace(grid=grid)

    # --- text ------------------------------------------------------------------------------
    def attribute(self) -> str:
        """The bare ``#ttcore.metal_layout<...>`` attribute, as tt-mlir prints it (one line).

        >>> MetalLayoutV2((32, 32), (1, 1), (32, 32), [(0, 1), (1, 2)]).attribute()
        '#ttcore.metal_layout<logical_shape = 32x32, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, undef, l1, sharded>'
        """
        iv = ", ".join(f"[{a}, {b}]" for a, b in self.collapsed_intervals)
        iv = f"[{iv}]" if iv else ""  # MLIR prints an empty dense array as dense<>
        parts = [f"logical_shape = {xs(self.logical_shape)}", f"dim_alignments = {xs(self.dim_alignments)}",
                 f"collapsed_intervals = dense<{iv}> : tensor<{len(self.collapsed_intervals)}x2xi64>"]
        if self.show_oob:
            parts.append(self.oob_val)
        parts.append(self.memory_space)
        if self.memory_layout is not None:
            parts.append(self.memory_layout)
        if self.index_affine_map is not None:
            parts.append(f"index_map = {_print_index_map(self.index_affine_map)}")
        return f"#ttcore.metal_layout<{', '.join(parts)}>"

    def element_text(self) -> str:
        """The device tensor's element: the scalar type, or ``!ttcore.tile<HxW, dtype>``.

        >>> MetalLayoutV2((32, 32), (1, 1), (32, 32), [(0, 1), (1, 2)], tile=(32, 32)).element_text()
        '!ttcore.tile<32x32, f32>'
        """
        return f"!ttcore.tile<{xs(self.tile)}, {self.tile_dtype}>" if self.tile else self.element_type

    def tensor_type(self) -> str:
        """The device-shaped ``tensor<GRID x SHARD x elem, #ttcore.metal_layout<...>>`` (one line).

        >>> print(MetalLayoutV2((8, 300), (1, 2), (1, 1), [(0, 1), (1, 2)]).tensor_type())
        tensor<1x2x8x150xf32, #ttcore.metal_layout<logical_shape = 8x300, dim_alignments = 1x1, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, undef, l1, sharded>>
        """
        return f"tensor<{xs(self.device_shape)}x{self.element_text()}, {self.attribute()}>"

    def __str__(self):
        """The whole device-shaped tensor type (``tensor_type()``): ``tt.parse(str(ml)) == ml``.

        >>> ml = MetalLayoutV2((8, 300), (1, 2), (1, 1), [(0, 1), (1, 2)])
        >>> str(ml) == ml.tensor_type()
        True
        """
        return self.tensor_type()

    def memref_type(self) -> str:
        """The shard's ``memref<...>`` (``getMemRefType``: the device shape without its grid dims).

        >>> MetalLayoutV2((8, 300), (1, 2), (1, 1), [(0, 1), (1, 2)]).memref_type()
        'memref<8x150xf32, #ttcore.memory_space<l1>>'
        """
        return f"memref<{xs(self.memref_shape)}x{self.element_text()}, #ttcore.memory_space<{self.memory_space}>>"

    # --- shapes ----------------------------------------------------------------------------
    def get_physical_shape(self, tile=None) -> tuple:
        """tt-mlir's ``getPhysicalShape(tileShape)``: the physical shape, its last two dims in tiles when given.

        >>> MetalLayoutV2((2, 3, 64, 128), (2, 4), (1, 1, 32, 32), [(0, 3), (3, 4)]).get_physical_shape((32, 32))
        (12, 4)
        """
        if tile is None:
            return self.physical_shape
        th, tw = _dims(tile, "tile")
        p = self.physical_shape
        if p[-2] % th or p[-1] % tw:
            raise LayoutError(f"physical shape {xs(p)} is not a whole number of {th}x{tw} tiles")
        return p[:-2] + (p[-2] // th, p[-1] // tw)

    @property
    def device_shape(self) -> tuple:
        """``getDeviceShape``: grid ++ shard (the shard in tiles when tiled) — the tensor's shape in the IR.

        >>> MetalLayoutV2((1024, 1024), (2, 2), (32, 32), [(0, 1), (1, 2)], tile=(32, 32)).device_shape
        (2, 2, 16, 16)
        """
        return self.grid + self.memref_shape

    def check_tensor_shape(self, shape) -> "MetalLayoutV2":
        """Raise ``LayoutError`` unless ``shape`` (the tensor type's dims) equals ``device_shape``; return self.

        >>> MetalLayoutV2((64, 64), (2, 2), (32, 32), [(0, 1), (1, 2)]).check_tensor_shape((2, 2, 32, 30))
        Traceback (most recent call last):
        ...
        unilayout.errors.LayoutError: tensor shape 2x2x32x30 does not match the device shape 2x2x32x32 (grid 2x2 ++ shard 32x32)
        """
        shape = tuple(shape)
        if shape != self.device_shape:
            unit = " tiles" if self.tile else ""
            raise LayoutError(f"tensor shape {xs(shape)} does not match the device shape {xs(self.device_shape)} "
                              f"(grid {xs(self.grid)} ++ shard {xs(self.memref_shape)}{unit})")
        return self

    # --- conversions -----------------------------------------------------------------------
    def to_v1(self) -> MetalLayout:
        """The seed-form (v1) ``MetalLayout`` placing every element in the same slot, where one exists.

        v1 derives its shard as ``ceilDiv(linear(S - 1) + 1, grid)``; it is the
        same layout when that equals this shard (no alignment padding at a
        group's end beyond what the grid split pads anyway), else
        ``NotRepresentableError``.

        >>> print(MetalLayoutV2((64, 96), (2, 3), (1, 1), [(0, 1), (1, 2)]).to_v1().attribute())
        #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <2x3>, memref<32x32xf32, #tt.memory_space<l1>>>
        >>> MetalLayoutV2((3, 43, 7), (1, 1), (1, 32, 32), [(0, 2), (2, 3)]).to_v1()
        Traceback (most recent call last):
        ...
        unilayout.errors.NotRepresentableError: the v1 form derives shard 171x7 from (d0, d1, d2) -> (d0 * 64 + d1, d2) on grid 1x1, this layout's shard is 192x32: v1 cannot pad a group's end
        """
        v1 = MetalLayout(self.logical_shape, self.linear, self.grid, self.element_type, self.memory_space,
                         self.oob_val, self.tile, self.tile_dtype)
        if v1.shard_shape != self.shard_shape:
            raise NotRepresentableError(
                f"the v1 form derives shard {xs(v1.shard_shape)} from {self.linear} on grid {xs(self.grid)}, "
                f"this layout's shard is {xs(self.shard_shape)}: v1 cannot pad a group's end")
        return v1


def _rebuild(items):
    return MetalLayoutV2(**dict(items))


def _read_index_map(text):
    t = text.strip()
    if t.startswith("map(") and t.endswith(")"):
        return _identity(as_int(int(t[4:-1]) if t[4:-1].strip().isdigit() else t[4:-1], "map rank"))
    return AffineMap.parse(t)


def _print_index_map(m):
    if m.num_symbols == 0 and m.num_results == m.num_dims and m.results == tuple(Dim(i) for i in range(m.num_dims)):
        return f"map({m.num_dims})"
    return str(m)


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


def _v1_to_v2(ml, memory_layout="sharded") -> MetalLayoutV2:
    """The v2 layout equal in placement to the v1 ``ml`` (see ``MetalLayout.to_v2``)."""
    from ._mlir import _linear_terms

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


