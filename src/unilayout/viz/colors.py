"""Moved to ``unilayout.draw.colors``; kept as an alias (one release)."""

from ..draw.colors import (  # noqa: F401
    _LUT,
    _RAMP,
    EMPTY,
    PADDING,
    PALETTE,
    _hsl_to_rgb,
    _ramp_table,
    categorical,
    distinct,
    gradient,
    hex_color,
    text_color,
)
