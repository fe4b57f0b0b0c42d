"""Moved to ``unilayout.cute.picture_tiled``; kept as an alias (one release)."""

from ..cute.picture_tiled import (  # noqa: F401
    _GAP,
    MAX_MMA_CELLS,
    _labels,
    _owners,
    _panels_scene,
    tiled_copy_scene,
    tiled_mma_scene,
)
