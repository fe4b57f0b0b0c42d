"""Moved to ``unilayout.tt.metal.collapse``; kept as an alias.

>>> from unilayout.tt.collapse import collapse_map
>>> print(collapse_map((2, 3, 64, 128), 2))
(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)
"""

from __future__ import annotations

from .metal.collapse import collapse_groups, collapse_map, normalize_intervals

__all__ = ["normalize_intervals", "collapse_groups", "collapse_map"]
