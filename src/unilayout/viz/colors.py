"""Moved to ``unilayout.draw.colors``; kept as an alias (one release)."""

from ..draw.colors import (  # noqa: F401
    PALETTE,
    PADDING,
    EMPTY,
    _RAMP,
    _ramp_table,
    _LUT,
    categorical,
    distinct,
    _hsl_to_rgb,
    gradient,
    text_color,
    hex_color,
)
