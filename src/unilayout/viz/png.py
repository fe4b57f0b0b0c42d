"""Moved to ``unilayout.draw.png``; kept as an alias (one release)."""

from ..draw.png import (  # noqa: F401
    PNG_SIGNATURE,
    MAX_PIXELS,
    MAX_SCALE,
    font,
    _axis_lookup,
    _check_scale,
    rasterise,
    _labels,
    encode_png,
    to_png,
    png_size,
)
