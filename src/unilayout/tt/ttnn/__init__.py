"""TTNN: how tt-mlir's TTNN dialect writes a tensor's placement, and the TTNN view of a metal layout.

One module per job, lower ones first:

==================  ==========================================================================
module              holds
==================  ==========================================================================
``view``            ``CoreRange``, ``ShardSpec``, ``TTNNLayout``: the TTNN view of a metal layout
``placement``       TTNN's vocabulary (buffer types, memory layouts, core ranges) and what a
                    placement means for a tensor: the metal layout a 2-D or ND spec gives it
``ndshard``         ``NdShardSpec``: N-dimensional sharding, and the spec builders
``memory_config``   ``MemoryConfig`` (``#ttnn.memory_config``), ``create_sharded_memory_config``
``pages``           the L1-interleaved page placement (pages round robin over the cores)
``layout``          ``TTNNTensorLayout`` (``#ttnn.ttnn_layout``): a metal layout in TTNN's text
``nd``              ``TTNNNDTensorLayout`` (``#ttnn.ttnn_nd_layout``)
``facts``           ``config_facts``: what ``show`` says about a placement without a tensor shape
``text``            the readers of ``#ttnn.*`` text
==================  ==========================================================================

``unilayout.tt.ttnn`` was the view's module; it keeps answering for the names
imported from it (``CoreRange``, ``ShardSpec``, ``TTNNLayout``, ``to_ttnn``,
``core_ranges``), which now live in ``tt.ttnn_view``.

>>> from unilayout.tt import MetalLayout
>>> MetalLayout.from_collapse((128, 1024), (4, 16)).to_ttnn().memory_layout
'BLOCK_SHARDED'
>>> core_ranges(12)
(CoreRange(start=(0, 0), end=(7, 0)), CoreRange(start=(0, 1), end=(3, 1)))
"""

from __future__ import annotations

from ..ttnn_view import CoreRange, ShardSpec, TTNNLayout, core_ranges, to_ttnn

__all__ = ["CoreRange", "ShardSpec", "TTNNLayout", "to_ttnn", "core_ranges"]
