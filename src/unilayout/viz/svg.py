"""Moved to ``unilayout.draw.svg``; kept as an alias (one release)."""

from ..draw.svg import (  # noqa: F401
    _FONT,
    _num,
    _text,
    _nums,
    _hexes,
    _cells,
    _multiline,
    to_svg,
)
