"""Moved to ``unilayout.draw.svg``; kept as an alias (one release)."""

from ..draw.svg import (  # noqa: F401
    _FONT,
    _cells,
    _hexes,
    _multiline,
    _num,
    _nums,
    _text,
    to_svg,
)
