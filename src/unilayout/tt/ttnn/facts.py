"""What ``show`` says about a TTNN placement without a tensor shape: ``config_facts``.

A ``#ttnn.memory_config`` or ``#ttnn.nd_shard_spec`` has no tensor shape, so
it is no layout and has no table: its facts are its fields, plus the cores it
names. An ND-sharded tensor (``#ttnn.ttnn_nd_layout``) adds its shard grid,
the shards each core holds, and the metal layout it is, where one exists.

>>> from unilayout import tt
>>> f = config_facts(tt.parse("#ttnn.memory_config<#dram, <interleaved>>"))
>>> f["kind"], f["buffer_type"], f["memory_layout"]
('memory_config', 'dram', 'interleaved')
"""

from __future__ import annotations

from ...errors import LayoutError
from .attr import TTNNLayoutAttr
from .memory_config import MemoryConfig
from .nd import TTNNNDTensorLayout
from .ndshard import NdShardSpec

__all__ = ["config_facts"]


def _spec_facts(sp, d):
    """Add a 2-D or ND shard spec's facts to ``d``."""
    if isinstance(sp, NdShardSpec):
        d["shard_shape"], d["distribution"] = list(sp.shard_shape), sp.distribution.lower()
        ranges = sp.core_grid
    else:
        d["shard_shape"] = list(sp.shape)
        ranges = sp.grid
    d["orientation"] = sp.orientation.lower()
    d["core_ranges"] = [f"({r.start[0]},{r.start[1]})-({r.end[0]},{r.end[1]})" for r in ranges]
    d["cores"] = sp.num_cores


def config_facts(value) -> dict:
    """The fields of a ``MemoryConfig``, ``NdShardSpec``, ``TTNNNDTensorLayout`` or bare ``TTNNLayoutAttr`` (``show``).

    A config has no tensor shape, so it is no layout: the facts are its
    fields, plus the cores it names; ``to_metal(shape)`` gives the layout it
    means for a tensor (``unilayout show TEXT --shape 64x256``). An ND
    tensor layout adds its shard grid, shards per core and its metal layout
    (``metal``: the text, or ``none:`` and why).

    >>> from unilayout import tt
    >>> f = config_facts(tt.parse("#ttnn.memory_config<#l1, <block_sharded>, #ttnn.shard_spec<<[#ttnn.core_range<"
    ...                           "(0,0), (3,1)>]>, <32x64>, <row_major>>>"))
    >>> f["kind"], f["memory_layout"], f["cores"], f["shard_shape"], f["core_ranges"]
    ('memory_config', 'block_sharded', 8, [32, 64], ['(0,0)-(3,1)'])
    >>> config_facts(tt.NdShardSpec((2, 32, 32), (8, 8)))["distribution"]
    'round_robin_1d'
    >>> f = config_facts(tt.parse("#ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x6>, memref<1x2x!ttcore.tile<32x32, "
    ...                           "bf16>, #ttnn.buffer_type<l1>>, <block_sharded>>"))
    >>> f["kind"], f["grid"], f["memref_shape"], f["shard_shape"], f["buffer_type"], f["memory_layout"]
    ('ttnn_layout', [1, 6], [1, 2], [32, 64], 'l1', 'block_sharded')
    """
    d = {}
    if isinstance(value, TTNNLayoutAttr):  # a bare #ttnn.ttnn_layout: what the attribute alone fixes
        d["kind"] = "ttnn_layout"
        d["linear"], d["grid"] = str(value.linear), list(value.grid)
        d["memref_shape"], d["shard_shape"] = list(value.memref_shape), list(value.shard_shape)
        d["tile"] = list(value.tile) if value.tile else None
        d["element_type"] = value.tile_dtype if value.tile else value.element_type
        d["buffer_type"], d["memory_layout"], d["cores"] = value.buffer_type, value.memory_layout, value.cores
        if value.core_ranges is not None:
            d["core_ranges"] = [f"({r.start[0]},{r.start[1]})-({r.end[0]},{r.end[1]})" for r in value.core_ranges]
        d["note"] = ("no tensor shape: the picture shows the grid of full shards; give a shape (--shape 64x256) to see "
                     "the layout it gives that tensor")
        return d
    if isinstance(value, TTNNNDTensorLayout):  # a tensor with an ND layout: its fields, the spec, the metal form
        d["kind"] = "ttnn_nd_layout"
        d["logical_shape"], d["element_type"] = list(value.logical_shape), value.element_type
        d["grid"], d["memref_shape"] = list(value.grid), list(value.shard_shape)
        d["tile"] = list(value.tile) if value.tile else None
        d["buffer_type"], d["memory_layout"] = value.buffer_type, value.memory_layout
        _spec_facts(value.nd_shard_spec(), d)
        try:
            d["shard_grid"] = list(value.nd_shard_spec().shard_grid(value.logical_shape))
            d["shards_per_core"] = list(value.shards_per_core())
            d["metal"] = value.to_metal().tensor_type()
        except LayoutError as e:
            d["metal"] = f"none: {e}"
        return d
    if isinstance(value, NdShardSpec):
        d["kind"] = "nd_shard_spec"
        _spec_facts(value, d)
    elif isinstance(value, MemoryConfig):
        d["kind"] = "memory_config"
        d["buffer_type"], d["memory_layout"] = value.buffer_type, value.memory_layout
        if value.shard_spec is not None:
            d["shard_spec"] = "nd_shard_spec" if isinstance(value.shard_spec, NdShardSpec) else "shard_spec"
            _spec_facts(value.shard_spec, d)
            if value.shard_mode is not None:
                d["shard_mode"] = value.shard_mode
    else:
        raise LayoutError(f"config_facts: expected a MemoryConfig or NdShardSpec, got {type(value).__name__}")
    d["note"] = "no tensor shape: give one (--shape 64x256) to see the layout it gives that tensor"
    return d
