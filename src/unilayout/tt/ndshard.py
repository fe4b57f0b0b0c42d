"""Moved to ``unilayout.tt.ttnn.ndshard`` (``create_sharded_memory_config``: ``tt.ttnn.memory_config``); kept as an alias.

>>> from unilayout.tt.ndshard import NdShardSpec
>>> NdShardSpec((32, 32), (8, 8)).num_cores
64
"""

from __future__ import annotations

from .ttnn.memory_config import create_sharded_memory_config
from .ttnn.ndshard import (
    GRID_2D,
    ROUND_ROBIN_1D,
    NdShardSpec,
    block_sharded,
    corerange_to_cores,
    height_sharded,
    sharded_across_dims,
    width_sharded,
)

__all__ = ["NdShardSpec", "ROUND_ROBIN_1D", "GRID_2D", "corerange_to_cores", "height_sharded", "width_sharded",
           "block_sharded", "sharded_across_dims", "create_sharded_memory_config"]
