"""Vectorised evaluation of CuTe layouts: every point at numpy speed.

``index_map(L)[i] == L(i)`` for every 1-D coordinate ``i < size(L)``. The
layout is coalesced first (same function on its domain, fewest modes), then the
offsets are built by one broadcast add per mode, so the cost is O(size) with
the constant of a single array write:

>>> from unilayout.cute import Layout
>>> index_map(Layout(((2, 2), 2), ((4, 1), 2))).tolist()
[0, 4, 1, 5, 2, 6, 3, 7]
>>> evaluate(Layout((4, 2), (2, 1)), np.array([0, 5, 9])).tolist()
[0, 3, 4]
"""

from __future__ import annotations

import numpy as np

from ..errors import LayoutError
from .layout import Layout
from .swizzle import ComposedLayout, Swizzle

__all__ = ["index_map", "evaluate"]


def index_map(layout) -> np.ndarray:
    """``layout(i)`` for ``i`` in ``range(size(layout))`` as an int64 array.

    >>> index_map(Layout((2, 3), (3, 1))).tolist()
    [0, 3, 1, 4, 2, 5]
    """
    if not isinstance(layout, Layout):
        if hasattr(layout, "index_map"):
            return layout.index_map()
        raise LayoutError(f"index_map: expected a CuTe layout, got {type(layout).__name__}")
    from .algebra import _coalesce_lists

    _check_int64(layout, layout.size - 1)
    shapes, strides = _coalesce_lists(*layout.flat()[:2])
    if not shapes:
        return np.zeros(layout.size, dtype=np.int64)
    # Split the modes into a fast group (at least ~sqrt(size) points) and a slow
    # group, tabulate each (small), then write the output once with one outer add
    # whose inner loop is long.
    n, inner, k = layout.size, 1, 0
    while k < len(shapes) - 1 and inner * inner < n:
        inner *= shapes[k]
        k += 1
    fast = _table(shapes[:k], strides[:k])
    slow = _table(shapes[k:], strides[k:])
    return np.add.outer(slow, fast).reshape(-1)


def _table(shapes, strides) -> np.ndarray:
    """Offsets of a flat group of modes in colexicographic order."""
    out = np.zeros(1, dtype=np.int64)
    for s, d in zip(shapes, strides):
        out = np.add.outer(np.arange(s, dtype=np.int64) * d, out).reshape(-1)
    return out


def evaluate(layout, idx) -> np.ndarray:
    """``layout(i)`` for every non-negative 1-D coordinate in the int array ``idx``.

    ``layout`` is a Layout, a Swizzle or a ComposedLayout. Coordinates past
    ``size`` extend linearly through the last mode, as ``L(i)`` does.

    >>> evaluate(Layout((4, 1), (1, 0)), np.arange(6)).tolist()
    [0, 1, 2, 3, 0, 1]
    >>> evaluate(ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, 64), (64, 1))), np.array([1, 2])).tolist()
    [64, 144]
    """
    if isinstance(layout, ComposedLayout):
        inner = evaluate(layout.inner, idx) + layout.offset
        return evaluate(layout.outer, inner)
    if isinstance(layout, Swizzle):
        return layout(_check_coords(idx))
    if not isinstance(layout, Layout):
        raise LayoutError(f"evaluate: expected a CuTe layout, got {type(layout).__name__}")
    idx = _check_coords(idx)
    shapes, strides, _ = layout.flat()
    if not shapes:  # the empty shape: every coordinate is at offset 0
        return np.zeros(idx.shape, dtype=np.int64)
    _check_int64(layout, int(idx.max()) if idx.size else 0)
    out = np.zeros(idx.shape, dtype=np.int64)
    rest = idx
    for s, d in zip(shapes[:-1], strides[:-1]):
        q, r = np.divmod(rest, s)
        out += r * d
        rest = q
    out += rest * strides[-1]
    return out


MAX_POINTS = 1 << 36


def _check_int64(layout: Layout, last: int) -> None:
    """Refuse work whose offsets (coordinates up to ``last``) could leave int64, or tables past MAX_POINTS."""
    _, strides, size = layout.flat()
    if size > MAX_POINTS and last == size - 1:
        raise LayoutError(f"index_map: layout {layout} has {size} points, more than the {MAX_POINTS} tabulated")
    # |L(i)| <= sum((s-1)|d|) + (i // size) |d_last| <= (size + i + 1) * max|d|
    bound = (size + last + 1) * max((abs(d) for d in strides), default=0)
    if bound >= 1 << 62:
        raise LayoutError(f"layout {layout}: offsets up to {bound} do not fit in int64")


def _check_coords(idx) -> np.ndarray:
    idx = np.asarray(idx)
    if idx.dtype.kind not in "iu":
        raise LayoutError(f"evaluate: expected integer coordinates, got dtype {idx.dtype}")
    idx = idx.astype(np.int64, copy=False)
    if idx.size and idx.min() < 0:
        raise LayoutError("evaluate: coordinates must be non-negative")
    return idx
