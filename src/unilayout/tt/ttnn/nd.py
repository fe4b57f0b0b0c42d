"""TTNN's ND-sharded tensor encoding: ``tensor<..., #ttnn.ttnn_nd_layout<...>>``.

tt-mlir prints a tensor sharded by a TTNN ``NdShardSpec`` as

.. code-block:: text

    tensor<32x32xbf16, #ttnn.ttnn_nd_layout<<1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #l1>,
        <block_sharded>, <row_major>, <grid_2d>>>

— the core grid ``<H x W>`` (rows of cores, then columns), one shard as a
memref (its shape in tiles when tiled, any rank), the ``TensorMemoryLayout``,
the shard orientation and the distribution strategy. There is no affine map:
the placement is the ND shard spec tt-mlir derives from it
(``NDShardSpecAttr::get``): cores ``(0,0)-(W-1,H-1)``, the memref's *scalar*
shape as the shard shape (tiles times the tile), the orientation and the
strategy. ``TTNNNDTensorLayout`` keeps the text and answers through that
``NdShardSpec``: which core holds each shard, ``shard``/``unshard`` of real
arrays; ``to_metal()`` gives the metal layout where a grid split is the same
(``MemoryConfig.to_metal``), ``NotRepresentableError`` with the reason
otherwise.

>>> from unilayout import tt
>>> L = tt.parse("tensor<3x64x64xbf16, #ttnn.ttnn_nd_layout<<2x2>, memref<2x1x1x!ttcore.tile<32x32, bf16>, #l1>, "
...              "<block_sharded>, <row_major>, <round_robin_1d>>>")
>>> L.scalar_shard_shape, L.nd_shard_spec().shard_grid(L.logical_shape), L.shards_per_core()
((2, 32, 32), (2, 2, 2), (2, 2, 2, 2))
>>> tt.parse(str(L)) == L
True
"""

from __future__ import annotations

import numpy as np

from ..._ints import as_items
from ...errors import LayoutError
from .._mlir import xs
from ..metal.metal import TILE_DTYPES, is_scalar_type
from .memory_config import MemoryConfig
from .ndshard import NdShardSpec
from .placement import BUFFER_TYPES, TTNN_MEMORY_LAYOUTS

__all__ = ["TTNNNDTensorLayout"]

_ORIENTATIONS = ("row_major", "col_major")
_DISTRIBUTIONS = ("round_robin_1d", "grid_2d")


def _sizes(value, what, rank=None):
    try:
        out = tuple(int(v) for v in as_items(value))
    except (TypeError, ValueError):
        raise LayoutError(f"{what} must be sizes, got {value!r}") from None
    if not out or min(out) < 1 or (rank is not None and len(out) != rank):
        need = f"{rank} sizes" if rank is not None else "sizes"
        raise LayoutError(f"{what} must be {need} >= 1, got {value!r}")
    return out


class TTNNNDTensorLayout:
    """A tensor with a ``#ttnn.ttnn_nd_layout``: immutable, hashable, ``==`` by value.

    ``TTNNNDTensorLayout(logical_shape, grid, shard_shape, element_type="bf16",
    buffer_type="l1", memory_layout="block_sharded", orientation="row_major",
    distribution="grid_2d", tile=None, tile_dtype=None)``. ``grid`` is the
    core grid (rows, columns); ``shard_shape`` is the memref's shape, in
    tiles when ``tile`` is given (``tile_dtype`` defaults to the element
    type).

    >>> L = TTNNNDTensorLayout((64, 96), (2, 3), (1, 1), tile=(32, 32))
    >>> print(L)
    tensor<64x96xbf16, #ttnn.ttnn_nd_layout<<2x3>, memref<1x1x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, <block_sharded>, <row_major>, <grid_2d>>>
    >>> L.to_metal().grid, L.core_of_shards()[1, 2].tolist()   # shard (1, 2) on core x=2, y=1
    ((2, 3), [2, 1])
    """

    __slots__ = ("logical_shape", "grid", "shard_shape", "element_type", "buffer_type", "memory_layout",
                 "orientation", "distribution", "tile", "tile_dtype", "_hash")

    def __init__(self, logical_shape, grid, shard_shape, element_type="bf16", buffer_type="l1",
                 memory_layout="block_sharded", orientation="row_major", distribution="grid_2d", tile=None,
                 tile_dtype=None):
        shape = _sizes(logical_shape, "logical_shape")
        grid = _sizes(grid, "grid", 2)
        shard = _sizes(shard_shape, "shard_shape")
        if not is_scalar_type(element_type):
            raise LayoutError(f"element type {element_type!r} is not one of f16, bf16, f32, f64, iN, siN, uiN")
        if buffer_type not in BUFFER_TYPES or buffer_type == "system_memory":
            raise LayoutError(f"an ND-sharded tensor lives in a device buffer, not {buffer_type!r}: one of "
                              f"{', '.join(b for b in BUFFER_TYPES if b != 'system_memory')}")
        if memory_layout not in TTNN_MEMORY_LAYOUTS:
            raise LayoutError(f"memory layout {memory_layout!r} is not one of {', '.join(TTNN_MEMORY_LAYOUTS)}")
        o, d = str(orientation).lower(), str(distribution).lower()
        if o not in _ORIENTATIONS:
            raise LayoutError(f"orientation must be row_major or col_major, got {orientation!r}")
        if d not in _DISTRIBUTIONS:
            raise LayoutError(f"distribution must be round_robin_1d or grid_2d, got {distribution!r}")
        if tile is not None:
            tile = _sizes(tile, "tile", 2)
            if len(shard) < 2:
                raise LayoutError(f"a tiled shard needs at least 2 dims (its last two count tiles), got {xs(shard)}")
            tile_dtype = element_type if tile_dtype is None else tile_dtype
            if tile_dtype not in TILE_DTYPES:
                raise LayoutError(f"tile dtype {tile_dtype!r} is not one of {', '.join(TILE_DTYPES)}")
        elif tile_dtype is not None:
            raise LayoutError("tile_dtype goes with a tile")
        for k, v in (("logical_shape", shape), ("grid", grid), ("shard_shape", shard), ("element_type", element_type),
                     ("buffer_type", buffer_type), ("memory_layout", memory_layout), ("orientation", o),
                     ("distribution", d), ("tile", tile), ("tile_dtype", tile_dtype)):
            object.__setattr__(self, k, v)
        object.__setattr__(self, "_hash", hash(self._key()))

    def __setattr__(self, name, value):
        raise AttributeError("TTNNNDTensorLayout is immutable")

    def _key(self):
        return (self.logical_shape, self.grid, self.shard_shape, self.element_type, self.buffer_type,
                self.memory_layout, self.orientation, self.distribution, self.tile, self.tile_dtype)

    def __eq__(self, other):
        return type(other) is TTNNNDTensorLayout and other._key() == self._key()

    def __hash__(self):
        return self._hash

    def __reduce__(self):
        return (TTNNNDTensorLayout, self._key())

    def __repr__(self):
        parts = [repr(self.logical_shape), repr(self.grid), repr(self.shard_shape)]
        names = ("element_type", "buffer_type", "memory_layout", "orientation", "distribution", "tile", "tile_dtype")
        defaults = ("bf16", "l1", "block_sharded", "row_major", "grid_2d", None, None)
        for k, dflt in zip(names, defaults):
            v = getattr(self, k)
            if v != dflt and not (k == "tile_dtype" and v == self.element_type):
                parts.append(f"{k}={v!r}")
        return f"TTNNNDTensorLayout({', '.join(parts)})"

    # --- shapes ----------------------------------------------------------------------------
    @property
    def scalar_shard_shape(self) -> tuple:
        """The shard in elements: the memref's shape, its last two dims times the tile (``getScalarShardShape``).

        >>> TTNNNDTensorLayout((64, 64), (1, 1), (2, 2), tile=(32, 32)).scalar_shard_shape
        (64, 64)
        """
        if self.tile is None:
            return self.shard_shape
        return self.shard_shape[:-2] + (self.shard_shape[-2] * self.tile[0], self.shard_shape[-1] * self.tile[1])

    def nd_shard_spec(self) -> NdShardSpec:
        """The ``NdShardSpec`` tt-mlir derives (``NDShardSpecAttr::get``): cores ``(0,0)-(W-1,H-1)``, scalar shard.

        >>> print(TTNNNDTensorLayout((32, 32), (1, 1), (1, 1), tile=(32, 32)).nd_shard_spec())
        #ttnn.nd_shard_spec<<[#ttnn.core_range<(0,0), (0,0)>]>, <32x32>, <row_major>, <grid_2d>>
        """
        h, w = self.grid
        return NdShardSpec(self.scalar_shard_shape, [((0, 0), (w - 1, h - 1))], self.orientation,
                           self.distribution.upper())

    def memory_config(self) -> MemoryConfig:
        """The ``#ttnn.memory_config`` with that ND shard spec (``MemoryConfigAttr::get`` of the layout).

        >>> TTNNNDTensorLayout((32, 32), (1, 1), (32, 32)).memory_config().memory_layout
        'block_sharded'
        """
        return MemoryConfig(self.buffer_type, self.memory_layout, self.nd_shard_spec())

    def to_metal(self, logical_shape=None):
        """The metal layout placing every element as this one does, or ``NotRepresentableError`` with the reason.

        ``logical_shape``, if given, must be the tensor's own (so a config
        and a tensor layout answer the same call).

        >>> L = TTNNNDTensorLayout((64, 256), (1, 4), (64, 64), memory_layout="width_sharded",
        ...                        distribution="round_robin_1d")
        >>> L.to_metal().grid
        (1, 4)
        >>> TTNNNDTensorLayout((64, 256), (1, 2), (64, 64), distribution="round_robin_1d").to_metal()
        Traceback (most recent call last):
        ...
        unilayout.errors.NotRepresentableError: 4 round-robin shards on 2 cores: some cores hold several, which no grid split does
        """
        if logical_shape is not None and tuple(logical_shape) != self.logical_shape:
            raise LayoutError(f"this layout's tensor is {xs(self.logical_shape)}, not {xs(tuple(logical_shape))}")
        metal_et = self.element_type
        return self.memory_config().to_metal(self.logical_shape, metal_et, self.tile, self.tile_dtype)

    # --- placement and data ----------------------------------------------------------------
    def core_of_shards(self) -> np.ndarray:
        """int64 ``shard_grid + (2,)``: the core ``(x, y)`` holding each shard (``NdShardSpec.core_of_shards``).

        >>> TTNNNDTensorLayout((64, 64), (1, 2), (32, 64), distribution="round_robin_1d").core_of_shards().tolist()
        [[[0, 0]], [[1, 0]]]
        """
        return self.nd_shard_spec().core_of_shards(self.logical_shape)

    def shards_per_core(self) -> tuple:
        """How many shards each core holds, cores in placement order.

        >>> TTNNNDTensorLayout((96, 32), (1, 2), (32, 32), distribution="round_robin_1d").shards_per_core()
        (2, 1)
        """
        return self.nd_shard_spec().shards_per_core(self.logical_shape)

    def shard(self, array, fill=0) -> np.ndarray:
        """``array`` laid out per core: ``(cores, max shards per core) + scalar shard`` (``NdShardSpec.shard``).

        **Post-condition**: ``unshard(shard(a)) == a``.

        >>> L = TTNNNDTensorLayout((3, 4), (1, 2), (2, 2), distribution="round_robin_1d")
        >>> L.shard(np.arange(12).reshape(3, 4))[1].tolist()
        [[[2, 3], [6, 7]], [[10, 11], [0, 0]]]
        """
        a = np.asarray(array)
        if a.shape != self.logical_shape:
            raise LayoutError(f"shard: array of shape {a.shape} is not the tensor's {self.logical_shape}")
        return self.nd_shard_spec().shard(a, fill)

    def unshard(self, shards) -> np.ndarray:
        """The tensor back from ``shard``'s output (padding ignored).

        >>> L = TTNNNDTensorLayout((3, 4), (1, 2), (2, 2), distribution="round_robin_1d")
        >>> a = np.arange(12).reshape(3, 4)
        >>> bool((L.unshard(L.shard(a)) == a).all())
        True
        """
        return self.nd_shard_spec().unshard(shards, self.logical_shape)

    # --- text ------------------------------------------------------------------------------
    def memref_type(self) -> str:
        """The shard's memref in its TTNN buffer.

        >>> TTNNNDTensorLayout((32, 32), (1, 1), (1, 1), tile=(32, 32)).memref_type()
        'memref<1x1x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>'
        """
        elem = f"!ttcore.tile<{xs(self.tile)}, {self.tile_dtype}>" if self.tile else self.element_type
        return f"memref<{xs(self.shard_shape)}x{elem}, #ttnn.buffer_type<{self.buffer_type}>>"

    def attribute(self) -> str:
        """The ``#ttnn.ttnn_nd_layout<...>`` attribute.

        >>> TTNNNDTensorLayout((32, 32), (1, 1), (32, 32)).attribute()
        '#ttnn.ttnn_nd_layout<<1x1>, memref<32x32xbf16, #ttnn.buffer_type<l1>>, <block_sharded>, <row_major>, <grid_2d>>'
        """
        return (f"#ttnn.ttnn_nd_layout<<{xs(self.grid)}>, {self.memref_type()}, <{self.memory_layout}>, "
                f"<{self.orientation}>, <{self.distribution}>>")

    def tensor_type(self) -> str:
        """``tensor<shape x elem, #ttnn.ttnn_nd_layout<...>>``; ``tt.parse`` reads it back.

        >>> TTNNNDTensorLayout((32, 32), (1, 1), (32, 32)).tensor_type()[:18]
        'tensor<32x32xbf16,'
        """
        return f"tensor<{xs(self.logical_shape)}x{self.element_type}, {self.attribute()}>"

    def __str__(self):
        return self.tensor_type()
