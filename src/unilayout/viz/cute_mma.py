"""Moved to ``unilayout.cute.picture_tiled``; kept as an alias (one release)."""

from ..cute.picture_tiled import (  # noqa: F401
    MAX_MMA_CELLS,
    _GAP,
    _owners,
    _labels,
    _panels_scene,
    tiled_mma_scene,
    tiled_copy_scene,
)
