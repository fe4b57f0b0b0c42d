"""Moved to ``unilayout.tt.metal.shard``; kept as an alias.

>>> from unilayout.tt.shard import fill_value
>>> from unilayout.tt import MetalLayout
>>> fill_value(MetalLayout.from_collapse((4, 4), (1, 1), oob_val="one"), "float32")
1
"""

from __future__ import annotations

from .metal.shard import PaddingSummary, fill_value, index_map, padding_mask, padding_summary, shard, to_tiles, unshard

__all__ = ["shard", "unshard", "padding_mask", "padding_summary", "PaddingSummary", "index_map", "fill_value",
           "to_tiles"]
