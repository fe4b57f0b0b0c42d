"""What every pair file of ``unilayout.convert`` shares: the tabulation cap and how values are named in messages."""

from __future__ import annotations

#: Largest number of points a conversion tabulates (affine fits, metal shards).
MAX_POINTS = 1 << 24


def _name(v) -> str:
    """A value's type name, for messages only (never to decide anything)."""
    return type(v).__name__
