"""Moved to ``unilayout.draw.png``; kept as an alias (one release)."""

from ..draw.png import (  # noqa: F401
    MAX_PIXELS,
    MAX_SCALE,
    PNG_SIGNATURE,
    _axis_lookup,
    _check_scale,
    _labels,
    encode_png,
    font,
    png_size,
    rasterise,
    to_png,
)
