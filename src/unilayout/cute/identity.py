"""The identity layout and CuTe's counting tensor: coordinates as values.

The identity layout of a shape takes the unit basis of each mode as its
stride (``make_basis_like``, see ``cute.basis``), so it maps every coordinate
to itself, hierarchically:

>>> I = make_identity_layout((4, 8))
>>> str(I), I(5), I(1, 3)
('(4,8):(1@0,1@1)', (1, 1), (1, 3))

Any layout with basis strides maps coordinates to coordinates, e.g. what the
CuTe DSL prints for a tile of a larger tensor:

>>> from unilayout.cute import E
>>> L = Layout((128, 32), (E(2), E(3)))
>>> str(L), L(3, 2)
('(128,32):(1@2,1@3)', (0, 0, 3, 2))

``make_identity_tensor`` builds CuTe's counting tensor over the identity
layout: element ``c`` is ``c``. Its partitions
(``TiledMMA.get_slice(t).partition_C``) say which coordinates a thread owns,
the usual predication idiom:

>>> T = make_identity_tensor((4, 8))
>>> T[2, 5], T[None, 5].coords()[:2]
((2, 5), [(0, 5), (1, 5)])

Invariants: a ``CoordTensor`` is an immutable value ``(layout, base)``; its
elements are ``base + layout(c)`` (``ArithTuple`` coordinates). This module
sits above ``cute.layout`` and ``cute.basis``; ``basis`` itself never needs
``Layout``.
"""

from __future__ import annotations

from ..errors import LayoutError
from .basis import ArithTuple, _add, as_coord, make_basis_like
from .dyn import Dyn, has_dyn, normalize_dyn  # noqa: F401 - Dyn: the doctests build dynamic leaves
from .inttuple import normalize
from .layout import Layout, _has_none, _normalize_coord, slice_and_offset

__all__ = ["make_identity_layout", "CoordTensor", "make_identity_tensor"]


def make_identity_layout(shape):
    """``shape : make_basis_like(shape)``: maps every coordinate of ``shape`` to itself.

    **Post-condition:** ``I(c) == c`` for every natural coordinate ``c`` of a tuple shape.

    >>> I = make_identity_layout((2, (2, 3)))
    >>> str(I), I((1, (0, 2))), I(11)
    ('(2,(2,3)):(1@0,(1@(1,0),1@(1,1)))', (1, (0, 2)), (1, (1, 2)))
    >>> str(make_identity_layout((Dyn(), 4)))
    '(?,4):(1@0,1@1)'
    """
    shape = normalize(shape, "make_identity_layout shape") if not has_dyn(shape) else normalize_dyn(shape)  # `?` sizes
    return Layout(shape, make_basis_like(shape))


class CoordTensor:
    """CuTe's counting tensor: element ``c`` is the coordinate ``base + layout(c)``.

    ``make_identity_tensor(shape)`` is the one with the identity layout. Slicing
    with ``None`` (CuTe's ``_``) keeps modes; partitions of a TiledMMA/TiledCopy
    return CoordTensors too, so they tell which coordinates a thread touches.

    >>> T = make_identity_tensor((4, 8))
    >>> T[2, 5], T[None, 5][3], T.shape
    ((2, 5), (3, 5), (4, 8))
    >>> T[None, 5]
    CoordTensor(Layout((4,), (ScaledBasis(1, 0),)), (0, 5))
    """

    __slots__ = ("layout", "base")

    def __init__(self, layout, base=0):
        if not isinstance(layout, Layout):
            raise LayoutError(f"CoordTensor: expected a Layout, got {type(layout).__name__}")
        object.__setattr__(self, "layout", layout)
        object.__setattr__(self, "base", base if base == 0 or type(base) is ArithTuple else ArithTuple(base))

    def __setattr__(self, name, value):
        raise AttributeError("CoordTensor is immutable")

    shape = property(lambda self: self.layout.shape, doc="Shape of the layout.")
    size = property(lambda self: self.layout.size, doc="Number of elements.")

    def __repr__(self):
        return f"CoordTensor({self.layout!r}, {tuple(self.base) if self.base != 0 else 0!r})"

    def __eq__(self, other):
        return type(other) is CoordTensor and self.layout == other.layout and self.base == other.base

    def __hash__(self):
        return hash((self.layout, self.base))

    def __call__(self, *crd):
        return self[crd[0] if len(crd) == 1 else crd]

    def __getitem__(self, crd):
        c = _normalize_coord(crd)
        if _has_none(c):
            sub, off = slice_and_offset(c, self.layout)
            return CoordTensor(sub, _add(self.base, as_coord(off)))
        return _add(self.base, as_coord(self.layout(c)))

    def coords(self) -> list:
        """Every element in 1-D (colexicographic) order.

        >>> make_identity_tensor((2, 2)).coords()
        [(0, 0), (1, 0), (0, 1), (1, 1)]
        """
        return [self[i] for i in range(self.layout.size)]


def make_identity_tensor(shape) -> CoordTensor:
    """The counting tensor of ``shape``: element ``c`` is ``c`` (C++ ``make_identity_tensor``).

    >>> make_identity_tensor((3, 4))[2, 1]
    (2, 1)
    """
    return CoordTensor(make_identity_layout(shape))
