"""Tenstorrent metal layouts and devices: how tt-mlir shards a tensor onto grids of cores and chips.

A **metal layout** (v1 ``#tt.metal_layout<linear, oob_val, grid, memref>``)
keeps the tensor's logical shape and element type and describes the shards:

======  =====================================  ================================================
step    from -> to                             rule
======  =====================================  ================================================
1       logical index x -> physical p          ``p = linear(x)`` (an MLIR affine map)
2       p -> grid coord G, shard coord q       ``G = p floordiv s``, ``q = p mod s``,
                                               ``s = ceilDiv(physical_shape, grid)``
3       q -> tile t, in-tile u (tilized)       last two dims: ``t = q floordiv T``, ``u = q mod T``
4       G -> (chip, y, x)                      the device's worker-grid map, then ``chip_ids``
======  =====================================  ================================================

The spec's walkthrough, a 2x3x64x128 tensor collapsed to 384x128 rows and
columns and divided over a 2x4 grid of cores:

>>> import numpy as np
>>> from unilayout import tt
>>> ml = tt.parse(
...     "tensor<2x3x64x128xf32, #tt.metal_layout<(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3), "
...     "undef, <2x4>, memref<192x32xf32, #tt.memory_space<l1>>>>")
>>> ml == tt.MetalLayout.from_collapse((2, 3, 64, 128), (2, 4))
True
>>> ml.linear(1, 1, 6, 100), ml.physical_shape, ml.shard_shape
((262, 100), (384, 128), (192, 32))
>>> ml.locate(1, 1, 6, 100)                   # core (1, 3), row 70, column 4 of its shard
((1, 3), (70, 4))
>>> a = np.random.default_rng(0).random((2, 3, 64, 128), dtype=np.float32)
>>> shards = ml.shard(a)                      # (2, 4, 192, 32): one 192x32 shard per core
>>> shards.shape, bool(shards[1, 3, 70, 4] == a[1, 1, 6, 100]), bool((ml.unshard(shards) == a).all())
((2, 4, 192, 32), True, True)
>>> t = ml.tilize((32, 32), "bfp_bf8")
>>> print(t.memref_type())
memref<6x1x!tt.tile<32x32, bfp_bf8>, #tt.memory_space<l1>>

A **device** views the chips of a ``SystemDesc`` as one logical worker grid:

>>> dev = tt.Device.from_mesh(tt.SystemDesc.wormhole_b0(2), (1, 2))
>>> dev.grid_shape
(8, 16)
>>> print(dev.grid_map)
(d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)
>>> p = dev.place(tt.MetalLayout.from_collapse((256, 1024), (4, 16)))
>>> p.cores[0, 15].tolist(), p.distribution
([1, 0, 7], (None, 'sharded'))

Invariants: ``MetalLayout``, ``Device`` and ``SystemDesc`` are immutable,
hashable, ``==`` by value, validated on construction (a layout's map takes
one dim per logical dim and gives one result per grid dim; each result is
>= 0 and largest at the last index; the parsed memref equals the derived
one). ``shard``/``unshard`` are exact inverses and vectorised.

Relation to the other families: ``linear`` and the worker-grid map are
``unilayout.affine.AffineMap`` values; conversions to CuTe and affine
index maps live in ``unilayout.convert``. ``index_map(ml)`` gives, for every
logical element (row-major), its flat position in ``shard()``'s output.

Today's tt-mlir prints the v2 ``#ttcore.metal_layout<logical_shape = ...>`` on a
device-shaped tensor (``MetalLayoutV2``, ``MetalLayout.from_v2``), and TTNN its
``#ttnn.ttnn_layout`` / ``#ttnn.memory_config`` (``TTNNTensorLayout``,
``MemoryConfig``); ``tt.parse`` reads them all:

>>> v2 = tt.MetalLayout.from_v2((4, 43, 7), (8, 8), tile=(32, 32))
>>> v2.device_shape, tt.parse(str(v2)) == v2
((8, 1, 1, 1), True)

The folder, one job per file (old module paths such as ``tt.v2``, ``tt.shard``,
``tt.ttnn_attrs`` stay as aliases):

=========================  ============================================================================
``metal/``                 the metal layout: ``metal`` (v1 value), ``v2``, ``alignment`` (v2 rules),
                           ``v1_v2``, ``collapse``, ``shard`` (data, padding), ``text`` (readers)
``ttnn/``                  TTNN: ``view``, ``placement``, ``ndshard``, ``memory_config``, ``pages``,
                           ``layout``, ``nd``, ``facts``, ``text``
``system``, ``device``     the chips and the logical worker grid; ``device_text`` reads ``#tt.device``
``memory``                 L1 / DRAM byte addresses of an element on a device
``text``                   the front door: ``parse``, ``parse_tensor``, ``parse_module``
``family``, ``picture``    the family record and its pictures
=========================  ============================================================================
"""

from __future__ import annotations

from .device import Device, Placement, pipeline
from .device_text import parse_device
from .memory import Address, address, page_bytes, tile_bytes
from .metal.alignment import default_intervals, grid_aware_alignments, normalize_and_flatten, optimal_grid
from .metal.collapse import collapse_groups, collapse_map, normalize_intervals
from .metal.metal import MEMORY_SPACES, OOB_VALS, TILE_DTYPES, MetalLayout
from .metal.shard import PaddingSummary
from .metal.v2 import MetalLayoutV2
from .system import SUPPORTED_TILE_SHAPES, SystemDesc
from .text import parse, parse_module, parse_tensor
from .ttnn.layout import TTNNTensorLayout
from .ttnn.memory_config import MemoryConfig, create_sharded_memory_config
from .ttnn.nd import TTNNNDTensorLayout
from .ttnn.ndshard import NdShardSpec, block_sharded, height_sharded, sharded_across_dims, width_sharded
from .ttnn_view import CoreRange, ShardSpec, TTNNLayout

__all__ = [
    "Address",
    "CoreRange",
    "Device",
    "MEMORY_SPACES",
    "MetalLayout",
    "MetalLayoutV2",
    "NdShardSpec",
    "MemoryConfig",
    "OOB_VALS",
    "PaddingSummary",
    "Placement",
    "SUPPORTED_TILE_SHAPES",
    "ShardSpec",
    "SystemDesc",
    "TILE_DTYPES",
    "TTNNLayout",
    "TTNNTensorLayout",
    "TTNNNDTensorLayout",
    "address",
    "block_sharded",
    "create_sharded_memory_config",
    "collapse_groups",
    "collapse_map",
    "default_intervals",
    "grid_aware_alignments",
    "height_sharded",
    "normalize_and_flatten",
    "normalize_intervals",
    "optimal_grid",
    "page_bytes",
    "parse",
    "parse_device",
    "parse_module",
    "parse_tensor",
    "pipeline",
    "sharded_across_dims",
    "tile_bytes",
    "width_sharded",
]
