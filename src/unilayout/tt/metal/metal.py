"""``MetalLayout``: the v1 ``#tt.metal_layout<linear, oob_val, grid, memref>`` value and its derived shapes.

A metal layout keeps the tensor's logical shape and says, with four fields,
where each element lives:

1. ``linear`` — an affine map from the logical index ``x`` (rank r) to a
   physical index ``p`` (rank g = the grid's rank);
2. ``grid`` — ``p`` is split into a grid coordinate ``G = p floordiv s`` and a
   shard coordinate ``q = p mod s``, with the scalar shard
   ``s = ceilDiv(physical_shape, grid)``;
3. the memref — one shard: ``s`` scalars, or, when tilized, ``s`` rounded up to
   whole tiles on the last two dims (``t = q floordiv T``, ``u = q mod T``);
4. ``oob_val`` — what padding slots hold; ``memory_space`` — where shards live.

>>> ml = MetalLayout.from_collapse((2, 3, 64, 128), (2, 4))
>>> print(ml.linear)
(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)
>>> ml.physical_shape, ml.shard_shape, ml.memref_shape
((384, 128), (192, 32), (192, 32))
>>> ml.linear(1, 1, 6, 100), ml.locate(1, 1, 6, 100)
((262, 100), ((1, 3), (70, 4)))
>>> t = ml.tilize((32, 32), "bfp_bf8")
>>> t.memref_shape, t.padded_shard_shape
((6, 1), (192, 32))

Invariants (checked once, on construction): the map has no symbols, one dim
per logical dim and one result per grid dim; every result is >= 0 on the
logical box and reaches its maximum at the last index ``S - 1`` (so
``physical_shape = linear(S - 1) + 1`` is exact). Injectivity is checked by
the methods that move data (they name two colliding indices).
"""

from __future__ import annotations

import math
import re

import numpy as np

from ..._ints import as_int, as_items, ceil_div
from ...affine import AffineMap
from ...affine.expr import Constant
from ...errors import LayoutError, NotRepresentableError
from .._mlir import TILE_DTYPES, linear_flat, replaced, xs
from ..ttnn_view import to_ttnn
from . import shard as _shard
from .collapse import collapse_map

__all__ = ["MetalLayout", "MEMORY_SPACES", "OOB_VALS", "TILE_DTYPES", "is_scalar_type"]

MEMORY_SPACES = ("system", "mmio", "dram", "l1")
OOB_VALS = ("undef", "zero", "one", "inf", "neginf")
_SCALAR_RE = re.compile(r"(f16|bf16|f32|f64|(?:si|ui|i)[1-9][0-9]*)")
_TILE_FROM_SCALAR = {"f32": "f32", "f16": "f16", "bf16": "bf16", "i32": "si32", "si32": "si32", "ui32": "u32", "ui16": "u16", "ui8": "u8"}
# A bound on numpy work done by checks that enumerate a box.
_ENUM_LIMIT = 1 << 27


def is_scalar_type(name) -> bool:
    """True for the MLIR builtin element types a metal layout accepts (``f16 bf16 f32 f64 iN siN uiN``).

    >>> is_scalar_type("bf16"), is_scalar_type("ui8"), is_scalar_type("bfp_bf8")
    (True, True, False)
    """
    return isinstance(name, str) and _SCALAR_RE.fullmatch(name) is not None


def _int(value, what):
    return as_int(value, what)


def _shape(value, what, allow_empty=False):
    shp = tuple(_int(v, f"{what} dim") for v in as_items(value))
    if not shp and not allow_empty:
        raise LayoutError(f"{what} must have rank >= 1, got ()")
    bad = [i for i, v in enumerate(shp) if v < 1]
    if bad:
        raise LayoutError(f"{what} {shp}: dim {bad[0]} is {shp[bad[0]]}, every dim must be >= 1")
    return shp


class MetalLayout:
    """A Tenstorrent v1 metal layout: immutable, hashable, ``==`` by value.

    ``MetalLayout(logical_shape, linear, grid, element_type="f32",
    memory_space="l1", oob_val="undef", tile=None, tile_dtype=None)``; ``linear``
    is an ``AffineMap`` or its text, taken exactly as given (use
    ``from_collapse`` to build it). ``tile=(th, tw)`` (or ``(th, tw, dtype)``)
    makes the layout tilized; ``tile_dtype`` defaults to the element type
    when that is a tile type (``f32``, ``bf16`` ...).

    >>> ml = MetalLayout((53, 63), "(d0, d1) -> (d0, d1)", (3, 2))
    >>> ml.shard_shape
    (18, 32)
    >>> ml == MetalLayout((53, 63), ml.linear, [3, 2])
    True
    >>> MetalLayout((2, 3, 4), "(d0, d1) -> (d0, d1)", (1, 1))
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: affine map has 2 dims but the tensor has rank 3: give one dim per logical dim
    """

    __slots__ = (
        "logical_shape", "linear", "grid", "element_type", "memory_space", "oob_val", "tile", "tile_dtype",
        "physical_shape", "shard_shape", "_hash", "_cache",
    )

    def __init__(self, logical_shape, linear, grid, element_type="f32", memory_space="l1", oob_val="undef",
                 tile=None, tile_dtype=None):
        shape = _shape(logical_shape, "logical shape")
        grid = _shape(grid, "grid")
        if isinstance(linear, str):
            linear = AffineMap.parse(linear)
        if not isinstance(linear, AffineMap):
            raise LayoutError(f"linear must be an AffineMap or its text, got {type(linear).__name__}")
        if not is_scalar_type(element_type):
            raise LayoutError(f"element type {element_type!r} is not one of f16, bf16, f32, f64, iN, siN, uiN")
        if not isinstance(memory_space, str) or memory_space not in MEMORY_SPACES:
            raise LayoutError(f"memory space {memory_space!r} is not one of {', '.join(MEMORY_SPACES)}")
        if not isinstance(oob_val, str) or oob_val not in OOB_VALS:
            raise LayoutError(f"oob_val {oob_val!r} is not one of {', '.join(OOB_VALS)}")
        if tile is not None:
            if isinstance(tile, (str, bytes)) or np.ndim(tile) != 1 or len(tile) not in (2, 3):
                raise LayoutError(f"tile must be (height, width) or (height, width, dtype), got {tile!r}")
            if len(tile) == 3:
                if tile_dtype is not None and str(tile_dtype) != str(tile[2]):
                    raise LayoutError(f"tile dtype given twice: {tile[2]!r} and {tile_dtype!r}")
                tile_dtype = tile[2]
            tile = _shape(tuple(tile[:2]), "tile")
            if tile_dtype is None:
                tile_dtype = _TILE_FROM_SCALAR.get(element_type)
                if tile_dtype is None:
                    raise LayoutError(f"element type {element_type} has no tile dtype: pass tile_dtype (one of {', '.join(TILE_DTYPES)})")
            if not isinstance(tile_dtype, str) or tile_dtype not in TILE_DTYPES:
                raise LayoutError(f"tile dtype {tile_dtype!r} is not one of {', '.join(TILE_DTYPES)}")
            if len(grid) < 2:
                raise LayoutError(f"a tilized layout needs a grid of rank >= 2, got {xs(grid)}: tiles cover the last two dims")
        elif tile_dtype is not None:
            raise LayoutError("tile_dtype given without a tile")
        if linear.num_symbols:
            raise LayoutError(f"affine map {linear} has {linear.num_symbols} symbol(s): a metal layout's map takes none")
        if linear.num_dims != len(shape):
            raise LayoutError(
                f"affine map has {linear.num_dims} dims but the tensor has rank {len(shape)}: give one dim per logical dim"
            )
        if linear.num_results != len(grid):
            raise LayoutError(
                f"affine map has {linear.num_results} results but the grid {xs(grid)} has rank {len(grid)}: "
                "they must agree"
            )
        last = linear(*(s - 1 for s in shape))
        bounds = linear.bounds(shape)
        for i, ((lo, hi), at_end) in enumerate(zip(bounds, last)):
            if lo < 0:
                raise LayoutError(f"result {i} ({linear.results[i]}) reaches {lo} on the tensor: results must be >= 0")
            if hi != at_end:
                raise LayoutError(
                    f"result {i} ({linear.results[i]}) reaches {hi} but the extent rule gives {at_end}: "
                    "the maximum must be at the last index"
                )
        physical = tuple(v + 1 for v in last)
        if math.prod(physical) >= 1 << 62 or math.prod(shape) >= 1 << 62:
            raise LayoutError(
                f"tensor {xs(shape)} with physical extent {xs(physical)} is too large: sizes must stay below 2**62"
            )
        s = object.__setattr__
        s(self, "logical_shape", shape)
        s(self, "linear", linear)
        s(self, "grid", grid)
        s(self, "element_type", element_type)
        s(self, "memory_space", memory_space)
        s(self, "oob_val", oob_val)
        s(self, "tile", tile)
        s(self, "tile_dtype", tile_dtype)
        s(self, "physical_shape", physical)
        s(self, "shard_shape", tuple(ceil_div(p, g) for p, g in zip(physical, grid)))
        s(self, "_hash", hash((shape, linear, grid, element_type, memory_space, oob_val, tile, tile_dtype)))
        s(self, "_cache", {})

    # --- construction --------------------------------------------------------
    @staticmethod
    def from_collapse(logical_shape, grid, collapse_intervals=((0, -1),), *, element_type="f32", memory_space="l1",
                      oob_val="undef", tile=None, dim_alignments=None, tile_dtype=None) -> "MetalLayout":
        """Build ``linear`` from collapse intervals (group semantics, see ``collapse``) and return the layout.

        ``tile=(th, tw)`` is the same as calling ``tilize`` afterwards;
        ``dim_alignments`` (one per dim) bump the strides inside a group.

        >>> print(MetalLayout.from_collapse((2, 3, 64, 128), (2, 2, 4), [(1, -1)], tile=(32, 32)).tensor_type())
        tensor<2x3x64x128xf32, #tt.metal_layout<(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3), undef, <2x2x4>, memref<1x3x1x!tt.tile<32x32, f32>, #tt.memory_space<l1>>>>
        >>> MetalLayout.from_collapse((2, 8, 32), (1, 2), dim_alignments=(1, 32, 1)).memref_shape
        (40, 16)
        """
        grid = _shape(grid, "grid")
        linear = collapse_map(logical_shape, len(grid), collapse_intervals, dim_alignments)
        return MetalLayout(logical_shape, linear, grid, element_type, memory_space, oob_val, tile, tile_dtype)

    @staticmethod
    def from_v2(logical_shape, grid=(8, 8), collapsed_intervals=None, dim_alignments=None, tile=None,
                **options) -> "MetalLayout":
        """A v2 layout (``#ttcore.metal_layout<logical_shape = ...>``) with tt-mlir's defaults.

        Kept as a delegate of ``unilayout.tt.metal.v1_v2.from_v2`` (the v2
        form builds on this class, so the function lives beside it).

        >>> MetalLayout.from_v2((4, 43, 7), (8, 8), tile=(32, 32)).device_shape
        (8, 1, 1, 1)
        """
        from .v1_v2 import from_v2  # lazy: deprecated delegate, see v1_v2.from_v2

        return from_v2(logical_shape, grid, collapsed_intervals, dim_alignments, tile, **options)

    def to_v2(self, memory_layout="sharded") -> "MetalLayout":
        """The v2 layout placing every element in the same slot, or ``NotRepresentableError`` with the reason.

        Exact when ``linear`` joins consecutive dims per result with strides a
        v2 alignment can produce, and grid x shard covers each result. Kept as
        a delegate of ``unilayout.tt.metal.v1_v2.from_v1``.

        >>> print(MetalLayout.from_collapse((2, 3, 64, 128), (2, 4)).to_v2().attribute())
        #ttcore.metal_layout<logical_shape = 2x3x64x128, dim_alignments = 1x1x1x1, collapsed_intervals = dense<[[0, 3], [3, 4]]> : tensor<2x2xi64>, undef, l1, sharded>
        """
        from .v1_v2 import from_v1  # lazy: deprecated delegate, see v1_v2.from_v1

        return from_v1(self, memory_layout)

    def replace(self, **changes) -> "MetalLayout":
        """A copy with some fields changed (validated again).

        >>> MetalLayout.from_collapse((64, 64), (2, 2)).replace(memory_space="dram").memory_space
        'dram'
        """
        fields = dict(logical_shape=self.logical_shape, linear=self.linear, grid=self.grid,
                      element_type=self.element_type, memory_space=self.memory_space, oob_val=self.oob_val,
                      tile=self.tile, tile_dtype=self.tile_dtype)
        fields = replaced(fields, changes)
        return MetalLayout(**fields)

    def tilize(self, tile=(32, 32), dtype=None) -> "MetalLayout":
        """The same layout with a tiled memref: the last two shard dims ceilDiv'd by the tile.

        ``dtype`` is the tile's data format (default: the element type's).

        >>> ml = MetalLayout.from_collapse((53, 63), (3, 2)).tilize((32, 32), "bfp_bf8")
        >>> ml.shard_shape, ml.memref_shape, str(ml.memref_type())
        ((18, 32), (1, 1), 'memref<1x1x!tt.tile<32x32, bfp_bf8>, #tt.memory_space<l1>>')
        """
        return self.replace(tile=tile, tile_dtype=dtype)

    def untilize(self) -> "MetalLayout":
        """The same layout with a scalar memref.

        >>> MetalLayout.from_collapse((64, 64), (2, 2), tile=(32, 32)).untilize().memref_shape
        (32, 32)
        """
        return self.replace(tile=None)

    def with_grid(self, grid) -> "MetalLayout":
        """The same ``linear`` on another grid; shards are recomputed.

        A change of grid rank may only add or remove leading constant-0
        results; anything else needs ``from_collapse``.

        >>> ml = MetalLayout.from_collapse((128,), (4,))
        >>> print(ml.with_grid((1, 2)).linear)
        (d0) -> (0, d0)
        >>> ml.with_grid((1, 2)).shard_shape
        (1, 64)
        >>> print(ml.with_grid((1, 2)).with_grid((4,)).linear)
        (d0) -> (d0)
        """
        grid = _shape(grid, "grid")
        res = list(self.linear.results)
        if len(grid) > len(res):
            res = [Constant(0)] * (len(grid) - len(res)) + res
        while len(grid) < len(res):
            if res[0] != Constant(0):
                raise LayoutError(
                    f"with_grid: grid {xs(grid)} has rank {len(grid)} but {self.linear} has {len(self.linear.results)} "
                    "results and the leading one is not constant 0: use from_collapse for a new collapse"
                )
            res = res[1:]
        return self.replace(grid=grid, linear=AffineMap(self.linear.num_dims, 0, res))

    # --- value semantics -------------------------------------------------------
    def __setattr__(self, name, value):
        raise AttributeError("MetalLayout is immutable")

    def __eq__(self, other):
        return (
            type(other) is MetalLayout
            and other._hash == self._hash
            and (other.logical_shape, other.linear, other.grid, other.element_type, other.memory_space,
                 other.oob_val, other.tile, other.tile_dtype)
            == (self.logical_shape, self.linear, self.grid, self.element_type, self.memory_space,
                self.oob_val, self.tile, self.tile_dtype)
        )

    def __hash__(self):
        return self._hash

    def __reduce__(self):
        return (MetalLayout, (self.logical_shape, self.linear, self.grid, self.element_type, self.memory_space,
                              self.oob_val, self.tile, self.tile_dtype))

    def __repr__(self):
        parts = [repr(self.logical_shape), repr(str(self.linear)), repr(self.grid)]
        if self.element_type != "f32":
            parts.append(f"element_type={self.element_type!r}")
        if self.memory_space != "l1":
            parts.append(f"memory_space={self.memory_space!r}")
        if self.oob_val != "undef":
            parts.append(f"oob_val={self.oob_val!r}")
        if self.tile is not None:
            parts.append(f"tile={self.tile!r}, tile_dtype={self.tile_dtype!r}")
        return f"MetalLayout({', '.join(parts)})"

    def __str__(self):
        """The whole ``tensor<...>`` type (``tensor_type()``), so that ``tt.parse(str(ml)) == ml``.

        The bare v1 attribute (``attribute()``) cannot carry the logical shape.

        >>> str(MetalLayout.from_collapse((4, 8), (1, 1))) == MetalLayout.from_collapse((4, 8), (1, 1)).tensor_type()
        True
        """
        return self.tensor_type()

    def attribute(self) -> str:
        """The bare ``#tt.metal_layout<map, oob, grid, memref>`` attribute (one line; no logical shape).

        >>> MetalLayout.from_collapse((4, 8), (1, 2)).attribute()
        '#tt.metal_layout<(d0, d1) -> (d0, d1), undef, <1x2>, memref<4x4xf32, #tt.memory_space<l1>>>'
        """
        return f"#tt.metal_layout<{self.linear}, {self.oob_val}, <{xs(self.grid)}>, {self.memref_type()}>"

    def memref_type(self) -> str:
        """The shard's ``memref<...>`` text.

        >>> MetalLayout.from_collapse((8, 300), (1, 2)).memref_type()
        'memref<8x150xf32, #tt.memory_space<l1>>'
        """
        elem = f"!tt.tile<{xs(self.tile)}, {self.tile_dtype}>" if self.tile else self.element_type
        return f"memref<{xs(self.memref_shape)}x{elem}, #tt.memory_space<{self.memory_space}>>"

    def tensor_type(self) -> str:
        """The whole ``tensor<...>`` type carrying this layout (one line); ``tt.parse`` reads it back.

        >>> print(MetalLayout.from_collapse((2, 3, 64, 128), (2, 4)).tensor_type())
        tensor<2x3x64x128xf32, #tt.metal_layout<(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3), undef, <2x4>, memref<192x32xf32, #tt.memory_space<l1>>>>
        """
        return f"tensor<{xs(self.logical_shape)}x{self.element_type}, {self.attribute()}>"

    def equivalent(self, other) -> bool:
        """True iff ``other`` puts every element of the same logical shape in the same slot of the same shards.

        Compares the function, not the text: element type, memory space and
        ``oob_val`` must agree too, maps only on the tensor's box.

        >>> a = MetalLayout((4, 8), "(d0, d1) -> (d0, d1)", (2, 2))
        >>> b = MetalLayout((4, 8), "(d0, d1) -> (d0 + (d1 floordiv 8) * 4, d1 mod 8)", (2, 2))
        >>> a == b, a.equivalent(b)
        (False, True)
        """
        if not isinstance(other, MetalLayout):
            return False
        same = (self.logical_shape, self.shards_shape, self.grid, self.element_type, self.memory_space, self.oob_val,
                self.tile, self.tile_dtype)
        if same != (other.logical_shape, other.shards_shape, other.grid, other.element_type, other.memory_space,
                    other.oob_val, other.tile, other.tile_dtype):
            return False
        if self == other:
            return True
        return bool(np.array_equal(self.index_map(), other.index_map()))

    # --- derived shapes ----------------------------------------------------------
    @property
    def rank(self) -> int:
        """Rank of the logical tensor.

        >>> MetalLayout.from_collapse((2, 3, 64, 128), (1, 1)).rank
        4
        """
        return len(self.logical_shape)

    @property
    def is_tilized(self) -> bool:
        """True when the memref's element type is a tile.

        >>> MetalLayout.from_collapse((64, 64), (1, 1), tile=(32, 32)).is_tilized
        True
        """
        return self.tile is not None

    @property
    def memref_shape(self) -> tuple:
        """The memref's shape: the scalar shard, or (tilized) the shard in whole tiles on its last two dims.

        >>> MetalLayout.from_collapse((3, 64, 128), (3, 2), tile=(32, 32)).memref_shape
        (2, 2)
        """
        if self.tile is None:
            return self.shard_shape
        s, t = self.shard_shape, self.tile
        return s[:-2] + (ceil_div(s[-2], t[0]), ceil_div(s[-1], t[1]))

    @property
    def padded_shard_shape(self) -> tuple:
        """The scalar shard rounded up to whole tiles (the shard itself when not tilized).

        >>> MetalLayout.from_collapse((53, 63), (3, 2), tile=(32, 32)).padded_shard_shape
        (32, 32)
        """
        if self.tile is None:
            return self.shard_shape
        m = self.memref_shape
        return m[:-2] + (m[-2] * self.tile[0], m[-1] * self.tile[1])

    @property
    def shards_shape(self) -> tuple:
        """Shape of ``shard()``'s output: ``grid + padded_shard_shape`` (tilized: the shard padded to whole tiles).

        >>> MetalLayout.from_collapse((53, 63), (3, 2)).shards_shape
        (3, 2, 18, 32)
        >>> MetalLayout.from_collapse((53, 63), (3, 2), tile=(32, 32)).shards_shape
        (3, 2, 32, 32)
        """
        return self.grid + self.padded_shard_shape

    @property
    def volume(self) -> int:
        """Number of logical elements.

        >>> MetalLayout.from_collapse((53, 63), (3, 2)).volume
        3339
        """
        return math.prod(self.logical_shape)

    def get_stride(self) -> tuple:
        """tt-mlir's ``getStride``: how far one step in each logical dim moves the flat physical index.

        The flat physical index is ``F = sum_i p_i * prod(physical[i+1:])``;
        ``stride[d] = dF/dx_d``. Raises ``NotRepresentableError`` when a result
        uses floordiv/ceildiv/mod. A dim used by two results has its
        contributions summed.

        >>> MetalLayout.from_collapse((2, 3, 64, 128), (1, 1)).get_stride()
        (24576, 8192, 128, 1)
        >>> MetalLayout((8, 96, 32), "(d0, d1, d2) -> (d0 * 96 + d1, d1, d2)", (2, 1, 2)).get_stride()
        (294912, 3104, 1)
        """
        info = self._linear_info()
        if info is None:
            raise NotRepresentableError(f"{self.linear} uses floordiv, ceildiv or mod: it has no strides")
        return info[1]

    @property
    def strides(self) -> tuple:
        """``get_stride()`` as a property (``NotRepresentableError`` for maps with div/mod).

        >>> MetalLayout.from_collapse((2, 8, 32), (1, 2), dim_alignments=(1, 32, 1)).strides
        (1024, 32, 1)
        """
        return self.get_stride()

    # --- analysis of linear (cached) -----------------------------------------------
    def _linear_info(self):
        """``(offset, strides)`` of the flat physical index when every result is linear, else None."""
        key = "linear_info"
        if key not in self._cache:
            self._cache[key] = linear_flat(self.linear.results, self.rank, lambda: self.physical_shape)
        return self._cache[key]

    def _nested(self) -> bool:
        """True when the strides are well nested (each exceeds the reach of all smaller ones): injective, greedy-invertible."""
        info = self._linear_info()
        if info is None:
            return False
        pairs = sorted((st, n) for st, n in zip(info[1], self.logical_shape) if n > 1)
        reach = 0
        for st, n in pairs:
            if st <= reach:
                return False
            reach += st * (n - 1)
        return True

    def _flat_physical(self):
        """int64 array (logical shape) of each element's flat physical index."""
        n = self.volume
        if n > _ENUM_LIMIT:
            raise LayoutError(f"{self.linear} on {xs(self.logical_shape)}: {n} points is too many to enumerate")
        r = self.rank
        idx = [np.arange(s, dtype=np.int64).reshape((-1,) + (1,) * (r - 1 - i)) for i, s in enumerate(self.logical_shape)]
        vals = self.linear.evaluate(*idx)
        flat = np.zeros(self.logical_shape, dtype=np.int64)
        for v, p in zip(vals, self.physical_shape):
            flat *= p
            flat += v
        return flat

    def check_injective(self) -> "MetalLayout":
        """Raise ``LayoutError`` naming two logical indices that share a physical slot; return self otherwise.

        >>> MetalLayout((4, 4), "(d0, d1) -> (d0 + d1, 0)", (1, 1)).check_injective()
        Traceback (most recent call last):
        ...
        unilayout.errors.LayoutError: (d0, d1) -> (d0 + d1, 0) is not injective on 4x4: (0, 1) and (1, 0) both map to (1, 0)
        """
        if self._cache.get("injective"):
            return self
        if not self._nested():
            flat = self._flat_physical().reshape(-1)
            order = np.argsort(flat, kind="stable")
            sf = flat[order]
            dup = np.flatnonzero(sf[1:] == sf[:-1])
            if dup.size:
                a, b = sorted((int(order[dup[0]]), int(order[dup[0] + 1])))
                ia = tuple(int(v) for v in np.unravel_index(a, self.logical_shape))
                ib = tuple(int(v) for v in np.unravel_index(b, self.logical_shape))
                raise LayoutError(
                    f"{self.linear} is not injective on {xs(self.logical_shape)}: {ia} and {ib} both map to {self.linear(*ia)}"
                )
        self._cache["injective"] = True
        return self

    # --- points --------------------------------------------------------------------------
    def _index(self, index, shape, what):
        if len(index) == 1 and hasattr(index[0], "__len__") and not isinstance(index[0], str):
            try:
                index = tuple(index[0])
            except TypeError:  # a 0-d array: no sequence of coordinates
                raise LayoutError(f"{what} must be a sequence of integers, got {index[0]!r}") from None
        vals = tuple(_int(v, what) for v in index)
        if len(vals) != len(shape):
            raise LayoutError(f"{what} {vals} has {len(vals)} values but needs {len(shape)} (shape {xs(shape)})")
        for i, (v, n) in enumerate(zip(vals, shape)):
            if not 0 <= v < n:
                raise LayoutError(f"{what} {vals} is outside {xs(shape)}: dim {i} must be in [0, {n})")
        return vals

    def locate(self, *index) -> tuple:
        """Logical index -> ``(grid_coord, shard_coord)``: ``G = p floordiv s``, ``q = p mod s`` with ``p = linear(x)``.

        ``q`` is the scalar coordinate inside the (tile-padded) shard.

        **Post-condition**: ``logical_index(*locate(*x)) == x``.

        >>> MetalLayout.from_collapse((2, 3, 64, 128), (2, 4)).locate(1, 1, 6, 100)
        ((1, 3), (70, 4))
        """
        x = self._index(index, self.logical_shape, "logical index")
        p = self.linear(*x)
        return tuple(v // s for v, s in zip(p, self.shard_shape)), tuple(v % s for v, s in zip(p, self.shard_shape))

    def logical_index(self, grid_coord, shard_coord):
        """``(G, q)`` -> the logical index stored there, or None for a padding slot.

        ``G`` must lie in the grid and ``q`` in the padded shard
        (``padded_shard_shape``), else ``LayoutError``.

        >>> ml = MetalLayout.from_collapse((53, 63), (3, 2), tile=(32, 32))
        >>> ml.logical_index((2, 1), (16, 30)), ml.logical_index((2, 1), (17, 0)), ml.logical_index((0, 0), (20, 0))
        ((52, 62), None, None)
        """
        G = self._index((grid_coord,), self.grid, "grid coordinate")
        q = self._index((shard_coord,), self.padded_shard_shape, "shard coordinate")
        if any(v >= s for v, s in zip(q, self.shard_shape)):
            return None
        p = tuple(g * s + v for g, s, v in zip(G, self.shard_shape, q))
        if any(v >= n for v, n in zip(p, self.physical_shape)):
            return None
        self.check_injective()
        if self._nested():
            offset, strides = self._linear_info()
            rem = sum(v * math.prod(self.physical_shape[i + 1:]) for i, v in enumerate(p)) - offset
            x = [0] * self.rank
            for d in sorted(range(self.rank), key=lambda d: -strides[d]):
                if self.logical_shape[d] > 1 and rem >= 0:
                    x[d] = min(rem // strides[d], self.logical_shape[d] - 1)
                    rem -= x[d] * strides[d]
            x = tuple(x)
            return x if self.linear(*x) == p else None
        table = self._cache.get("inverse")
        if table is None:
            flat = self._flat_physical().reshape(-1)
            n = math.prod(self.physical_shape)
            if n > _ENUM_LIMIT:
                raise LayoutError(f"logical_index: physical space {xs(self.physical_shape)} is too large to tabulate")
            table = np.full(n, -1, dtype=np.int64)
            table[flat] = np.arange(flat.size, dtype=np.int64)
            self._cache["inverse"] = table
        k = int(table[np.ravel_multi_index(p, self.physical_shape)])
        return None if k < 0 else tuple(int(v) for v in np.unravel_index(k, self.logical_shape))

    # --- data (shard.py) ----------------------------------------------------------------
    def shard(self, array, out=None) -> np.ndarray:
        """The logical array laid out as shards: shape ``shards_shape``, padding filled from ``oob_val``.

        See ``unilayout.tt.metal.shard.shard``.

        >>> import numpy as np
        >>> MetalLayout.from_collapse((3, 4), (2, 2), oob_val="zero").shard(np.arange(1, 13).reshape(3, 4))[1, 1].tolist()
        [[11, 12], [0, 0]]
        """
        return _shard.shard(self, array, out=out)

    def unshard(self, shards, out=None) -> np.ndarray:
        """Inverse of ``shard``: the logical array back from ``shards`` (padding ignored).

        >>> import numpy as np
        >>> ml = MetalLayout.from_collapse((3, 4), (2, 2))
        >>> a = np.arange(12).reshape(3, 4)
        >>> bool((ml.unshard(ml.shard(a)) == a).all())
        True
        """
        return _shard.unshard(self, shards, out=out)

    def to_tiles(self, shards) -> np.ndarray:
        """``shards`` tile-major, as each core holds them: ``grid + memref + tile`` (tilized; else unchanged).

        >>> import numpy as np
        >>> ml = MetalLayout.from_collapse((4, 8), (1, 2), tile=(2, 2))
        >>> ml.to_tiles(ml.shard(np.arange(32).reshape(4, 8))).shape
        (1, 2, 2, 2, 2, 2)
        """
        return _shard.to_tiles(self, shards)

    def padding_mask(self) -> np.ndarray:
        """Boolean array of shape ``shards_shape``: True where no logical element lives.

        >>> MetalLayout.from_collapse((3, 4), (2, 2)).padding_mask()[1, 0].tolist()
        [[False, False], [True, True]]
        """
        return _shard.padding_mask(self)

    def padding_summary(self):
        """Per-core data extents, padding per dim and padding slots (``shard.padding_summary``; huge dense: by formula).

        >>> MetalLayout.from_collapse((53, 63), (3, 2), tile=(32, 32)).padding_summary().slots.tolist()
        [[448, 466], [448, 466], [480, 497]]
        """
        return _shard.padding_summary(self)

    def index_map(self) -> np.ndarray:
        """int64 (N,): for every logical index in row-major order, its flat position in ``shard()``'s output.

        >>> MetalLayout.from_collapse((3, 4), (2, 2)).index_map().tolist()
        [0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13]
        """
        return _shard.index_map(self)

    def to_ttnn(self, orientation="row_major", worker_grid=None, device=None):
        """The TTNN view of this layout (see ``unilayout.tt.ttnn_view``); a worker grid is checked only when given.

        >>> MetalLayout.from_collapse((2, 3, 64, 128), (2, 4)).to_ttnn().shard_shape
        (192, 32)
        >>> MetalLayout.from_collapse((128, 1024), (4, 16)).to_ttnn().memory_layout
        'BLOCK_SHARDED'
        """
        return to_ttnn(self, orientation=orientation, worker_grid=worker_grid, device=device)
