"""Moved to ``unilayout.draw.scene``; kept as an alias (one release)."""

from ..draw.scene import (  # noqa: F401
    _HEADER,
    _MARGIN,
    _NOTE_ADVANCE,
    _TITLE_H,
    CHAR_W,
    DEFAULT_MAX_CELLS,
    HEADER_PX,
    LABEL_PX,
    LINE_H,
    NOTE_CHARS,
    NOTE_PX,
    TITLE_PX,
    WRAP_COLUMNS,
    Scene,
    band_width,
    grid_scene,
    positions,
    wrap_bands,
)
