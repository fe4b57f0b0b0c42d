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

The rules themselves (intervals, alignments, physical shape, optimal grid)
live in ``alignment.py``; ``v1_v2.py`` turns a v1 layout into this form
(``from_v1``) and builds one with tt-mlir's defaults (``from_v2``).
"""

from __future__ import annotations

from ..._ints import as_int
from ...affine import AffineMap
from ...affine.expr import Dim
from ...errors import LayoutError, NotRepresentableError
from .._mlir import replaced, xs
from .alignment import _dims, _pairs, normalize_and_flatten, v2_physical_shape
from .collapse import collapse_map
from .metal import _TILE_FROM_SCALAR, OOB_VALS, TILE_DTYPES, MetalLayout, is_scalar_type

__all__ = ["MetalLayoutV2", "MEMORY_LAYOUTS"]

MEMORY_LAYOUTS = ("sharded", "interleaved")
# The scalar element type a tiled v2 tensor stands for (it prints only its tile).
_SCALAR_OF_TILE = {"f32": "f32", "f16": "f16", "bf16": "bf16", "u32": "ui32", "u16": "ui16", "u8": "ui8",
                   "si32": "si32", "bfp_f8": "f32", "bfp_f4": "f32", "bfp_f2": "f32", "bfp_bf8": "bf16",
                   "bfp_bf4": "bf16", "bfp_bf2": "bf16"}


# tt-mlir's verifier (metal_layout_attr_verify.mlir) refuses one physical dim; a rank-1 tensor is read since
# tt-mlir gives it an empty leading interval ([[0, 0], [0, 1]]: two physical dims, the first of size 1).
_RANK1 = ("logical_shape must have at least 2 dimensions, got 1: a rank-1 tensor needs an empty leading interval, "
          "collapsed_intervals = dense<[[0, 0], [0, 1]]> (tt-mlir's default for rank 1)")


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

        align = _dims(dim_alignments, "dim_alignments")
        if len(align) != len(shape):
            raise LayoutError(f"dim_alignments size ({len(align)}) must match logical_shape rank ({len(shape)})")
        raw = _pairs(collapsed_intervals)
        norm = normalize_and_flatten(raw, len(shape), keep_empty=True)
        if len(shape) < 2 and len(norm) < 2:
            raise LayoutError(_RANK1)
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
        unit = tuple(s_ == e_ for s_, e_ in norm)  # size-1 dims of empty intervals: one (padded) tile
        if tile_ is not None:
            if len(physical) < 2:
                raise LayoutError(f"a tilized layout needs at least 2 physical dims, got {xs(physical)}")
            for k in (-2, -1):
                if physical[k] % tile_[k] and not unit[k]:
                    raise LayoutError(
                        f"physical shape {xs(physical)} is not a whole number of {xs(tile_)} tiles (dim "
                        f"{len(physical) + k}: {physical[k]} % {tile_[k]} = {physical[k] % tile_[k]}): align the "
                        "last two dims to the tile")
        units = list(physical)
        if tile_ is not None:
            units[-2] = -(-units[-2] // tile_[0])
            units[-1] = -(-units[-1] // tile_[1])
        for i, (p, g) in enumerate(zip(units, grid)):
            if p % g:
                what = "physical shape in tiles" if tile_ is not None else "physical shape"
                raise LayoutError(f"{what} {xs(units)} does not divide evenly over the grid {xs(grid)} (dim {i}: "
                                  f"{p} % {g} = {p % g}): align the dims so that grid divides them")
        linear = collapse_map(shape, len(grid), [p for p in norm if p[0] < p[1]], align)
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


#: the largest rank ``map(N)`` may name (a device tensor has grid ++ shard dims: a handful),
#: checked before its N dims are built
MAX_INDEX_MAP_RANK = 64


def _read_index_map(text):
    t = text.strip()
    if t.startswith("map(") and t.endswith(")"):
        n = as_int(int(t[4:-1]) if t[4:-1].strip().isdigit() else t[4:-1], "map rank")
        if n > MAX_INDEX_MAP_RANK:
            raise LayoutError(f"index_map map({n}): rank {n} is more than MAX_INDEX_MAP_RANK = {MAX_INDEX_MAP_RANK}")
        return _identity(n)
    return AffineMap.parse(t)


def _print_index_map(m):
    if m.num_symbols == 0 and m.num_results == m.num_dims and m.results == tuple(Dim(i) for i in range(m.num_dims)):
        return f"map({m.num_dims})"
    return str(m)
