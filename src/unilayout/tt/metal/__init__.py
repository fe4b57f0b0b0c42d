"""Metal layouts: how tt-mlir's ``#tt.metal_layout`` (v1) and ``#ttcore.metal_layout`` (v2) shard a tensor over cores.

One module per job, lower ones first:

================  =====================================================================
module            holds
================  =====================================================================
``collapse``      collapse intervals -> the ``linear`` affine map (group semantics)
``shard``         moving real data: shard / unshard, padding masks and summaries
``metal``         ``MetalLayout``, the v1 value: fields, checks, derived shapes, points
``alignment``     the v2 rules: intervals, alignments, physical shape, optimal grid
``v2``            ``MetalLayoutV2``, the v2 value on its device-shaped tensor
``v1_v2``         ``from_v1`` (a v1 layout as v2) and ``from_v2`` (v2 with tt-mlir's defaults)
``text``          the v1 and v2 readers (``unilayout.tt.parse`` is the front door)
================  =====================================================================

``unilayout.tt.metal`` was the v1 value's module; it keeps answering for the
names imported from it (``MetalLayout``, ``MEMORY_SPACES``, ``OOB_VALS``,
``TILE_DTYPES``, ``is_scalar_type``, ``xs``), which now live in ``metal.metal``.

>>> from unilayout.tt.metal import MetalLayout
>>> ml = MetalLayout.from_collapse((53, 63), (3, 2))
>>> ml.shard_shape, ml.locate(52, 62)
((18, 32), ((2, 1), (16, 30)))
"""

from __future__ import annotations

from .._mlir import xs
from .metal import MEMORY_SPACES, OOB_VALS, TILE_DTYPES, MetalLayout, is_scalar_type

__all__ = ["MetalLayout", "MEMORY_SPACES", "OOB_VALS", "TILE_DTYPES", "is_scalar_type", "xs"]
