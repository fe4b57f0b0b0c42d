"""Moved to ``unilayout.draw.scene``; kept as an alias (one release)."""

from ..draw.scene import (  # noqa: F401
    CHAR_W,
    LINE_H,
    LABEL_PX,
    HEADER_PX,
    TITLE_PX,
    NOTE_PX,
    NOTE_CHARS,
    _NOTE_ADVANCE,
    DEFAULT_MAX_CELLS,
    _MARGIN,
    _TITLE_H,
    _HEADER,
    Scene,
    WRAP_COLUMNS,
    band_width,
    wrap_bands,
    positions,
    grid_scene,
)
