"""TTNN's ``MemoryConfig`` (``#ttnn.memory_config<...>``): where a tensor's buffer lives, without the tensor's shape.

A memory config names a buffer type, a memory layout and, for a sharded
layout, a shard spec (the legacy 2-D ``ShardSpec`` or an ``NdShardSpec``);
newer prints add a shard mode (``physical``/``logical``). Having no shape, it
is no layout: ``to_metal(shape)`` gives the metal layout it means for a
tensor, where a grid split is the same (``placement.to_metal``).
``create_sharded_memory_config`` builds one as ``ttnn.create_sharded_memory_config`` does.

>>> from unilayout import tt
>>> c = tt.parse("#ttnn.memory_config<#l1, <height_sharded>, #ttnn.shard_spec<<[#ttnn.core_range<(0,0), (7,0)>]>, "
...              "<32x64>, <row_major>>>")
>>> c.shard_spec.num_cores, c.to_metal((256, 64)).grid
(8, (8, 1))
>>> create_sharded_memory_config((256, 64), (8, 1), "height") == c
True
"""

from __future__ import annotations

from ...errors import LayoutError
from .._mlir import xs
from ..metal.metal import MetalLayout
from ..ttnn_view import ShardSpec
from .ndshard import NdShardSpec, block_sharded, height_sharded, width_sharded
from .placement import _SHARDED, TTNN_MEMORY_LAYOUTS, check_buffer_type, check_core_ranges, core_range_text
from .placement import to_metal as placement_to_metal

__all__ = ["MemoryConfig", "create_sharded_memory_config"]


class MemoryConfig:
    """TTNN's ``MemoryConfig``: buffer, memory layout and shard spec, without a tensor shape. Immutable, ``==`` by value.

    ``MemoryConfig(buffer_type, memory_layout=None, shard_spec=None, shard_mode=None)``;
    ``shard_spec`` is a ``tt.ShardSpec`` (core ranges in TTNN's (x, y), shard
    (rows, columns) in elements, orientation); ``shard_mode`` is the
    optional ``physical``/``logical`` of newer prints.

    >>> from unilayout import tt
    >>> c = tt.parse("#ttnn.memory_config<#l1, <block_sharded>, #ttnn.shard_spec<<[#ttnn.core_range<(0,0), (3,1)>]>, "
    ...              "<32x64>, <row_major>>>")
    >>> c.shard_spec.num_cores, c.to_metal((64, 256)).grid
    (8, (2, 4))
    """

    __slots__ = ("buffer_type", "memory_layout", "shard_spec", "shard_mode", "_hash")

    def __init__(self, buffer_type, memory_layout=None, shard_spec=None, shard_mode=None):
        check_buffer_type(buffer_type)
        if memory_layout is not None and memory_layout not in TTNN_MEMORY_LAYOUTS:
            raise LayoutError(f"memory layout {memory_layout!r} is not one of {', '.join(TTNN_MEMORY_LAYOUTS)}")
        if isinstance(shard_spec, NdShardSpec):
            if shard_mode is not None:
                raise LayoutError("a shard mode goes with a 2-D shard spec, not an ND one")
        elif shard_spec is not None:
            if not isinstance(shard_spec, ShardSpec):
                raise LayoutError(f"shard_spec must be a tt.ShardSpec or tt.NdShardSpec, got {type(shard_spec).__name__}")
            o = str(shard_spec.orientation).upper()
            if o not in ("ROW_MAJOR", "COL_MAJOR"):
                raise LayoutError(f"orientation must be row_major or col_major, got {shard_spec.orientation!r}")
            shape = tuple(int(v) for v in shard_spec.shape)
            if len(shape) != 2 or min(shape) < 1:
                raise LayoutError(f"shard shape must be two sizes >= 1, got {shard_spec.shape!r}")
            shard_spec = ShardSpec(check_core_ranges(shard_spec.grid, "shard spec cores"), shape, o)
        if memory_layout in _SHARDED and shard_spec is None:
            raise LayoutError(f"a {memory_layout} memory config needs a shard spec")
        if shard_mode is not None and shard_mode not in ("physical", "logical"):
            raise LayoutError(f"shard mode {shard_mode!r} is not physical or logical")
        for k, v in (("buffer_type", buffer_type), ("memory_layout", memory_layout), ("shard_spec", shard_spec),
                     ("shard_mode", shard_mode)):
            object.__setattr__(self, k, v)
        object.__setattr__(self, "_hash", hash((buffer_type, memory_layout, shard_spec, shard_mode)))

    def __setattr__(self, name, value):
        raise AttributeError("MemoryConfig is immutable")

    def _key(self):
        return (self.buffer_type, self.memory_layout, self.shard_spec, self.shard_mode)

    def __eq__(self, other):
        return type(other) is MemoryConfig and other._key() == self._key()

    def __hash__(self):
        return self._hash

    def __reduce__(self):
        return (MemoryConfig, self._key())

    def __repr__(self):
        return f"MemoryConfig({', '.join(repr(v) for v in self._key())})"

    def __str__(self):
        """The ``#ttnn.memory_config<...>`` text; ``tt.parse(str(c)) == c``.

        >>> print(MemoryConfig("dram", "interleaved"))
        #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>
        """
        parts = [f"#ttnn.buffer_type<{self.buffer_type}>"]
        if self.memory_layout is not None:
            parts.append(f"<{self.memory_layout}>")
        if self.shard_spec is not None and not isinstance(self.shard_spec, ShardSpec):
            parts.append(str(self.shard_spec))  # an NdShardSpec
        elif self.shard_spec is not None:
            sp = self.shard_spec
            inner = [f"<[{', '.join(core_range_text(r) for r in sp.grid)}]>", f"<{xs(sp.shape)}>",
                     f"<{sp.orientation.lower()}>"]
            if self.shard_mode is not None:
                inner.append(f"<{self.shard_mode}>")
            parts.append(f"#ttnn.shard_spec<{', '.join(inner)}>")
        return f"#ttnn.memory_config<{', '.join(parts)}>"

    def to_metal(self, logical_shape, element_type="f32", tile=None, tile_dtype=None) -> MetalLayout:
        """The metal layout this config gives a tensor of ``logical_shape``, or ``NotRepresentableError`` with the reason.

        TTNN collapses all dims but the last into rows. Interleaved: grid 1x1
        (pages, not a grid split, in L1 over several banks: refused). Height /
        width / block sharding: the grid is the core count along rows /
        columns / the core rectangle (COL_MAJOR block transposes it); the
        shard spec must be the shard that grid gives (tile-padded when tiled).
        See ``placement.to_metal``.

        >>> MemoryConfig("dram", "interleaved").to_metal((64, 64)).attribute()
        '#tt.metal_layout<(d0, d1) -> (d0, d1), undef, <1x1>, memref<64x64xf32, #tt.memory_space<dram>>>'
        >>> from unilayout.tt.ttnn_view import CoreRange
        >>> c = MemoryConfig("l1", "height_sharded", ShardSpec((CoreRange((0, 0), (7, 0)),), (30, 64), "ROW_MAJOR"))
        >>> c.to_metal((256, 64))
        Traceback (most recent call last):
        ...
        unilayout.errors.NotRepresentableError: shard spec 30x64 is not the shard 32x64 of 256x64 on grid 8x1
        """
        return placement_to_metal(self.buffer_type, self.memory_layout, self.shard_spec, logical_shape, element_type,
                                  tile, tile_dtype)


def create_sharded_memory_config(tensor_shape, core_grid, strategy, orientation="row_major", tile=None,
                                 buffer_type="l1"):
    """``ttnn.create_sharded_memory_config``: the legacy 2-D ``MemoryConfig`` for HEIGHT / WIDTH / BLOCK sharding.

    ``core_grid`` is a grid size ``(x, y)`` or core ranges. BLOCK: shard
    ``(ceil(H / y), ceil(W / x))`` for ROW_MAJOR, ``(ceil(H / x), ceil(W / y))``
    for COL_MAJOR; HEIGHT / WIDTH divide by the number of cores. Tiled: the
    shard is rounded up to the tile.

    >>> c = create_sharded_memory_config((1, 1, 256, 512), (4, 2), "block")
    >>> str(c)
    '#ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<<[#ttnn.core_range<(0,0), (3,1)>]>, <128x128>, <row_major>>>'
    >>> c.to_metal((1, 1, 256, 512)).grid
    (2, 4)
    """
    strategy = str(strategy).lower()
    makers = {"height": height_sharded, "width": width_sharded, "block": block_sharded}
    if strategy not in makers:
        raise LayoutError(f"strategy must be height, width or block, got {strategy!r}")
    nd = makers[strategy](tensor_shape, core_grid, orientation, tile)
    spec = ShardSpec(nd.core_grid, nd.shard_shape, nd.orientation)
    return MemoryConfig(buffer_type, f"{strategy}_sharded", spec)
