"""Vectorised evaluation of CuTe layouts: every point at numpy speed.

``index_map(L)[i] == L(i)`` for every 1-D coordinate ``i < size(L)``. The
layout is coalesced first (same function on its domain, fewest modes), then the
offsets are built by one broadcast add per mode, so the cost is O(size) with
the constant of a single array write (the kernels are in ``_flat``):

>>> from unilayout.cute import Layout
>>> index_map(Layout(((2, 2), 2), ((4, 1), 2))).tolist()
[0, 4, 1, 5, 2, 6, 3, 7]
>>> evaluate(Layout((4, 2), (2, 1)), np.array([0, 5, 9])).tolist()
[0, 3, 4]
"""

from __future__ import annotations

import numpy as np

from .._ints import check_int64
from ..errors import LayoutError
from . import _flat
from .basis import has_basis
from .dyn import check_bound as _check_bound
from .layout import Layout
from .swizzle import ComposedLayout, Swizzle

__all__ = ["index_map", "evaluate"]


def index_map(layout) -> np.ndarray:
    """``layout(i)`` for ``i`` in ``range(size(layout))`` as an int64 array.

    At most ``MAX_TABLE`` values (``unilayout._ints``); offsets must fit in int64.

    >>> index_map(Layout((2, 3), (3, 1))).tolist()
    [0, 3, 1, 4, 2, 5]
    """
    if hasattr(layout, "index_map"):
        return layout.index_map()
    raise LayoutError(f"index_map: expected a CuTe layout, got {type(layout).__name__}")


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
        values = evaluate(layout.inner, idx)
        if layout.offset and values.size:
            lo, hi = int(values.min()) + layout.offset, int(values.max()) + layout.offset
            check_int64(lo, hi, f"{layout}: offsets")
        return evaluate(layout.outer, values + layout.offset if layout.offset else values)
    if isinstance(layout, Swizzle):
        return layout(_flat.coords(idx))
    if not isinstance(layout, Layout):
        raise LayoutError(f"evaluate: expected a CuTe layout, got {type(layout).__name__}")
    if has_basis(layout.stride):
        raise LayoutError(f"layout {layout} has basis strides: its values are coordinates, not offsets")
    if type(layout.flat()[2]) is not int or not all(type(d) is int for d in layout.flat()[1]):
        _check_bound(layout)
    return _flat.at(*layout.flat()[:2], idx)
