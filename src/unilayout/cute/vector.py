"""Common vectors and null spaces: how wide a copy between two layouts can be, and what a layout ignores.

``max_common_vector(a, b)`` is the number of consecutive elements that both
layouts visit in the same order starting at 0: ``a o right_inverse(b)``,
coalesced, starts with a stride-1 mode of that size. It is the widest vector
a copy from a tensor of layout ``b`` to one of layout ``a`` can use (CuTe picks
copy instructions with it). ``max_common_layout`` returns that vector as a
layout of ``b``'s coordinates, ``nullspace`` the layout of coordinates a layout
maps to 0 (its stride-0 modes).

>>> a, b = Layout((4, 8), (8, 1)), Layout((4, 8), (1, 4))
>>> max_common_vector(Layout((8, 4), (1, 8)), Layout(32, 1)), max_common_vector(a, b)
(32, 1)
>>> nullspace(Layout((2, 4, 3), (1, 0, 0)))
Layout((4, 3), (2, 8))

As C++ ``layout.hpp`` (for static layouts: the vector is found only when the
common layout begins with a stride-1 mode).
"""

from __future__ import annotations

from ..errors import LayoutError
from .algebra import coalesce, composition, right_inverse
from .layout import Layout

__all__ = ["max_common_vector", "max_common_layout", "nullspace"]


def _check(x, name):
    if not isinstance(x, Layout):
        raise LayoutError(f"{name}: expected a cute.Layout, got {type(x).__name__}")


def _common(a, b, name):
    _check(a, name)
    _check(b, name)
    inv_b = right_inverse(b)
    common = coalesce(composition(a, inv_b))
    first = common[0] if isinstance(common.shape, tuple) else common
    return inv_b, first


def max_common_vector(a: Layout, b: Layout) -> int:
    """``N >= 1``: the most consecutive elements that ``a`` and ``b`` both hold in the same order.

    **Post-condition:** ``a(b_1d(n)) == n`` for ``n < N``, where ``b_1d(n)`` is the
    1-D coordinate at which ``b`` has the value ``n``.

    >>> max_common_vector(Layout((2, 8), (8, 1)), Layout((2, 8), (8, 1)))
    16
    >>> max_common_vector(Layout((4, 4), (1, 8)), Layout((4, 4), (1, 4)))
    4
    """
    _, first = _common(a, b, "max_common_vector")
    return first.size if first.stride == 1 else 1


def max_common_layout(a: Layout, b: Layout) -> Layout:
    """The common vector as a layout into ``b``'s coordinates (``right_inverse(b)`` o its first mode).

    >>> max_common_layout(Layout((4, 4), (1, 8)), Layout((4, 4), (1, 4)))
    Layout(4, 1)
    >>> max_common_layout(Layout(8, 2), Layout(8, 1))
    Layout(1, 0)
    """
    inv_b, first = _common(a, b, "max_common_layout")
    if first.stride != 1:
        return Layout(1, 0)
    return composition(inv_b, first)


def nullspace(layout: Layout) -> Layout:
    """The coordinates ``layout`` sends to 0: its stride-0 leaves, with compact strides in ``layout``'s domain.

    ``Layout(1, 0)`` when there is none. Each kept leaf's stride is its column-major
    stride among all leaves (a size-1 leaf gets 0, as C++'s static ``compact_major``).

    >>> nullspace(Layout((2, 3), (1, 2)))
    Layout(1, 0)
    >>> nullspace(Layout(((2, 2), 4), ((0, 1), 0)))
    Layout((2, 4), (1, 4))
    """
    _check(layout, "nullspace")
    shapes, strides, _ = layout.flat()
    compact, p = [], 1
    for s in shapes:
        compact.append(0 if s == 1 else p)
        p *= s
    keep = [i for i, d in enumerate(strides) if d == 0]
    if not keep:
        return Layout(1, 0)
    if len(keep) == 1:
        return Layout(shapes[keep[0]], compact[keep[0]])
    return Layout(tuple(shapes[i] for i in keep), tuple(compact[i] for i in keep))
