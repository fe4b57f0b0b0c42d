"""``TTNNLayoutAttr``: a bare ``#ttnn.ttnn_layout<...>``, the attribute a dump's alias line defines, without its tensor.

A dump prints each TTNN layout once, as an alias, and the tensors name it:

.. code-block:: text

    #ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x6>, memref<1x2x!ttcore.tile<32x32, bf16>, #l1>,
        <block_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (5,0)>]>>
    ... tensor<32x384xbf16, #ttnn_layout>

The attribute alone fixes the grid, one core's shard (the memref, in tiles
or elements), the buffer and the memory layout — tt-mlir's
``getShardShape``, ``getScalarShardShape``, ``getBufferType`` and
``getMemLayout`` read nothing else — and its verifier's rules apply to it
alone. What it lacks is the tensor's shape: ``to_metal(shape)`` is the
``TTNNTensorLayout`` of a tensor of that shape (the memref checked against
it), ``to_metal()`` the grid of full shards (``grid x shard`` elements, each
core's shard full), which is what its picture shows.

>>> from unilayout import tt
>>> a = tt.parse("#ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x6>, memref<1x2x!ttcore.tile<32x32, bf16>, "
...              "#ttnn.buffer_type<l1>>, <block_sharded>>")
>>> a.grid, a.memref_shape, a.shard_shape, a.buffer_type, a.memory_layout
((1, 6), (1, 2), (32, 64), 'l1', 'block_sharded')
>>> a.to_metal((32, 384)).locate(5, 300)
((0, 4), (5, 44))
"""

from __future__ import annotations

from ...affine import AffineMap
from ...errors import LayoutError
from .._mlir import xs
from ..metal.metal import MetalLayout
from ..metal.v2 import _SCALAR_OF_TILE
from .layout import TTNNTensorLayout, _verify
from .placement import _SPACE, BUFFER_TYPES, TTNN_MEMORY_LAYOUTS, check_core_ranges, core_range_text

__all__ = ["TTNNLayoutAttr"]


class TTNNLayoutAttr:
    """A ``#ttnn.ttnn_layout<...>`` without its tensor: immutable, hashable, ``==`` by value.

    ``TTNNLayoutAttr(linear, grid, memref_shape, element_type=None,
    buffer_type="dram", memory_layout="interleaved", tile=None,
    tile_dtype=None, core_ranges=None, grid_map=None, exact_grid=None,
    tensor_mesh=None)``: ``element_type`` is the memref's scalar type (None
    for a tiled memref, whose ``tile_dtype`` names it).

    >>> a = TTNNLayoutAttr("(d0, d1) -> (d0, d1)", (8, 1), (1, 1), buffer_type="l1",
    ...                    memory_layout="height_sharded", tile=(32, 32), tile_dtype="f32")
    >>> print(a)
    #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x1>, memref<1x1x!ttcore.tile<32x32, f32>, #ttnn.buffer_type<l1>>, <height_sharded>>
    >>> a.to_metal((256, 32)).shard_shape
    (32, 32)
    """

    __slots__ = ("linear", "grid", "memref_shape", "element_type", "buffer_type", "memory_layout", "tile",
                 "tile_dtype", "core_ranges", "grid_map", "exact_grid", "tensor_mesh", "_hash")

    def __init__(self, linear, grid, memref_shape, element_type=None, buffer_type="dram",
                 memory_layout="interleaved", tile=None, tile_dtype=None, core_ranges=None, grid_map=None,
                 exact_grid=None, tensor_mesh=None):
        if isinstance(linear, str):
            linear = AffineMap.parse(linear)
        if not isinstance(linear, AffineMap):
            raise LayoutError(f"linear must be an AffineMap or its text, got {type(linear).__name__}")
        if isinstance(grid_map, str):
            grid_map = AffineMap.parse(grid_map)
        grid, memref_shape = _ints(grid, "grid"), _ints(memref_shape, "memref shape")
        if buffer_type not in BUFFER_TYPES:
            raise LayoutError(f"buffer type {buffer_type!r} is not one of {', '.join(BUFFER_TYPES)}")
        if memory_layout is not None and memory_layout not in TTNN_MEMORY_LAYOUTS:
            raise LayoutError(f"memory layout {memory_layout!r} is not one of {', '.join(TTNN_MEMORY_LAYOUTS)}")
        if buffer_type == "system_memory" and memory_layout is not None:
            raise LayoutError("Memory layout is not allowed for SystemMemory buffer type.")
        if buffer_type != "system_memory" and memory_layout is None:
            raise LayoutError("Memory layout is required for non-SystemMemory buffer type.")
        if linear.num_results != len(grid):
            raise LayoutError(f"the affine map has {linear.num_results} results but the grid {xs(grid)} has rank "
                              f"{len(grid)}")
        if len(memref_shape) != len(grid):
            raise LayoutError(f"memref {xs(memref_shape)} has rank {len(memref_shape)}, the grid {len(grid)}")
        if (tile is None) == (element_type is None):
            raise LayoutError("give the memref's element type (a scalar memref) or its tile (a tiled one)")
        if tile is not None:
            tile = _ints(tile, "tile")
            if len(tile) != 2 or tile_dtype is None:
                raise LayoutError("a tiled memref needs a 2-D tile and its dtype")
        ranges = check_core_ranges(core_ranges)
        _verify(grid, buffer_type, memory_layout, ranges)
        s = object.__setattr__
        for k, v in dict(linear=linear, grid=grid, memref_shape=memref_shape, element_type=element_type,
                         buffer_type=buffer_type, memory_layout=memory_layout, tile=tile, tile_dtype=tile_dtype,
                         core_ranges=ranges, grid_map=grid_map, exact_grid=exact_grid,
                         tensor_mesh=tensor_mesh).items():
            s(self, k, v)
        s(self, "_hash", hash(self._key()))

    def __setattr__(self, name, value):
        raise AttributeError("TTNNLayoutAttr is immutable")

    def _key(self):
        return (self.linear, self.grid, self.memref_shape, self.element_type, self.buffer_type, self.memory_layout,
                self.tile, self.tile_dtype, self.core_ranges, self.grid_map, self.exact_grid, self.tensor_mesh)

    def __eq__(self, other):
        return type(other) is TTNNLayoutAttr and other._key() == self._key()

    def __hash__(self):
        return self._hash

    @property
    def shard_shape(self) -> tuple:
        """One core's shard in elements (tt-mlir's ``getScalarShardShape``: the memref times the tile).

        >>> TTNNLayoutAttr("(d0, d1) -> (d0, d1)", (1, 1), (2, 3), tile=(32, 32), tile_dtype="bf16").shard_shape
        (64, 96)
        """
        if self.tile is None:
            return self.memref_shape
        return self.memref_shape[:-2] + tuple(m * t for m, t in zip(self.memref_shape[-2:], self.tile))

    @property
    def scalar_type(self) -> str:
        """The element type a tensor with this layout holds (a tile's scalar type for a tiled memref).

        >>> TTNNLayoutAttr("(d0, d1) -> (d0, d1)", (1, 1), (1, 1), tile=(32, 32), tile_dtype="si32").scalar_type
        'si32'
        """
        return self.element_type if self.tile is None else _SCALAR_OF_TILE.get(self.tile_dtype, "f32")

    def memref_type(self) -> str:
        """The memref text: ``memref<1x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>``."""
        elem = f"!ttcore.tile<{xs(self.tile)}, {self.tile_dtype}>" if self.tile else self.element_type
        return f"memref<{xs(self.memref_shape)}x{elem}, #ttnn.buffer_type<{self.buffer_type}>>"

    def __str__(self):
        grid = xs(self.grid) + (f", {self.grid_map}" if self.grid_map is not None else "")
        parts = [str(self.linear), f"<{grid}>"]
        if self.tensor_mesh is not None:
            parts.append(f'mesh = <"{self.tensor_mesh}">')
        parts.append(self.memref_type())
        if self.memory_layout is not None:
            parts.append(f"<{self.memory_layout}>")
        if self.core_ranges is not None:
            parts.append("core_ranges = <[" + ", ".join(core_range_text(r) for r in self.core_ranges) + "]>")
        if self.exact_grid is not None:
            parts.append(f"exactGrid = {'true' if self.exact_grid else 'false'}")
        return f"#ttnn.ttnn_layout<{', '.join(parts)}>"

    def __repr__(self):
        return f"TTNNLayoutAttr({str(self)!r})"

    @property
    def cores(self) -> int:
        """How many cores hold a shard: the grid's volume.

        >>> TTNNLayoutAttr("(d0, d1) -> (d0, d1)", (6, 2), (1, 1), buffer_type="l1", memory_layout="height_sharded",
        ...                tile=(32, 32), tile_dtype="bf16").cores
        12
        """
        n = 1
        for g in self.grid:
            n *= g
        return n

    def to_metal(self, shape=None) -> MetalLayout:
        """The layout this attribute gives a tensor of ``shape`` (memref checked), or, without one, its grid of full shards.

        >>> a = TTNNLayoutAttr("(d0, d1) -> (d0, d1)", (2, 2), (16, 16), "f32", buffer_type="l1",
        ...                    memory_layout="block_sharded")
        >>> a.to_metal().logical_shape, a.to_metal((32, 32)).memref_shape
        ((32, 32), (16, 16))
        >>> a.to_metal((40, 32))
        Traceback (most recent call last):
        ...
        unilayout.errors.LayoutError: memref 16x16 does not match 20x16 for a tensor of shape 40x32
        """
        if shape is None:
            full = tuple(g * s for g, s in zip(self.grid, self.shard_shape))
            linear = AffineMap.parse("(" + ", ".join(f"d{i}" for i in range(len(full))) + ") -> (" +
                                     ", ".join(f"d{i}" for i in range(len(full))) + ")")
            return MetalLayout(full, linear, self.grid, self.scalar_type, _SPACE[self.buffer_type], "undef",
                               self.tile, self.tile_dtype)
        shape = _ints(shape, "shape")
        L = TTNNTensorLayout(shape, self.linear, self.grid, self.scalar_type, self.buffer_type, self.memory_layout,
                             self.tile, self.tile_dtype, self.grid_map, self.core_ranges, self.exact_grid,
                             self.tensor_mesh)
        if L.memref_shape != self.memref_shape:
            raise LayoutError(f"memref {xs(self.memref_shape)} does not match {xs(L.memref_shape)} for a tensor of "
                              f"shape {xs(shape)}")
        return L


def _ints(v, what):
    try:
        t = tuple(int(x) for x in v)
    except (TypeError, ValueError):
        raise LayoutError(f"{what} must be a sequence of integers, got {v!r}") from None
    if not t or any(x < 1 for x in t):
        raise LayoutError(f"{what} {t} needs at least one dim, every dim >= 1")
    return t


