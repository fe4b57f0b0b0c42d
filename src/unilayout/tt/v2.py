"""Moved to ``unilayout.tt.metal.v2`` (the value), ``tt.metal.alignment`` (the rules) and ``tt.metal.v1_v2``; kept as an alias.

>>> from unilayout.tt.v2 import MetalLayoutV2, from_v2
>>> from_v2((4, 43, 7), (8, 8), tile=(32, 32)).grid
(8, 1)
"""

from __future__ import annotations

from .metal.alignment import (
    DEFAULT_TILE,
    default_intervals,
    grid_aware_alignments,
    normalize_and_flatten,
    optimal_grid,
    ttcore_alignments,
    v2_physical_shape,
)
from .metal.v1_v2 import from_v2
from .metal.v2 import MEMORY_LAYOUTS, MetalLayoutV2

__all__ = ["MetalLayoutV2", "MEMORY_LAYOUTS", "default_intervals", "normalize_and_flatten", "v2_physical_shape",
           "grid_aware_alignments", "ttcore_alignments", "optimal_grid", "from_v2", "DEFAULT_TILE"]
