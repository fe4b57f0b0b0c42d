"""Argument checks shared by the tt modules (private).

>>> as_int(3, "grid dim"), as_int(__import__("numpy").int64(4), "grid dim")
(3, 4)
"""

from __future__ import annotations

from ..errors import LayoutError


def as_int(value, what) -> int:
    """``value`` as a Python int, or ``LayoutError`` naming ``what`` (bools, floats, arrays are refused).

    >>> as_int(2.0, "tile height")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: tile height must be an integer, got 2.0
    """
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise LayoutError(f"{what} must be an integer, got {value!r}")
    try:
        return int(value.__index__())
    except TypeError:
        raise LayoutError(f"{what} must be an integer, got {value!r}") from None
