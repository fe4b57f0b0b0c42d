"""TTNN: how tt-mlir's TTNN dialect writes a tensor's placement, and the TTNN view of a metal layout.

Modules: ``view`` (``CoreRange``, ``ShardSpec``, ``TTNNLayout``: the TTNN view of a metal layout).

``unilayout.tt.ttnn`` was the view's module; it keeps answering for the names
imported from it (``CoreRange``, ``ShardSpec``, ``TTNNLayout``, ``to_ttnn``,
``core_ranges``), which now live in ``ttnn.view``.

>>> from unilayout.tt import MetalLayout
>>> MetalLayout.from_collapse((128, 1024), (4, 16)).to_ttnn().memory_layout
'BLOCK_SHARDED'
>>> core_ranges(12)
(CoreRange(start=(0, 0), end=(7, 0)), CoreRange(start=(0, 1), end=(3, 1)))
"""

from __future__ import annotations

from .view import CoreRange, ShardSpec, TTNNLayout, core_ranges, to_ttnn

__all__ = ["CoreRange", "ShardSpec", "TTNNLayout", "to_ttnn", "core_ranges"]
