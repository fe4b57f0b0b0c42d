"""Basis strides: strides that are unit vectors, so a layout's values are coordinates.

CuTe's strides need not be integers. ``E<k>`` is the k-th unit vector of a
coordinate space, and ``E<k>{} * v`` (printed ``v@k``) is ``v`` times it. A
layout whose strides are such ``ScaledBasis`` elements maps a coordinate to a
*coordinate tuple* instead of an offset: sums of basis elements add position
by position.

>>> e0, e1 = E(0), E(1)
>>> str(e1), str(3 * e1), 3 * e1 + 2 * e0
('1@1', '3@1', (2, 3))
>>> make_basis_like((4, 8))
(ScaledBasis(1, 0), ScaledBasis(1, 1))

Worked table for ``(2,3):(1@1,2@0)`` (the result's position 0 is ``2*n``,
position 1 is ``m``)::

    i      0      1      2      3      4      5
    (m,n)  (0,0)  (1,0)  (0,1)  (1,1)  (0,2)  (1,2)
    L(i)   (0,0)  (0,1)  (2,0)  (2,1)  (4,0)  (4,1)

A nested mode ``E<0,1>`` is position 1 inside position 0 (text ``1@(0,1)``; C++
prints it ``1@1@0``, which ``cute.parse`` reads too). Composition, division and
products work on basis layouts as on integer ones, because they only multiply
strides by integers and compare them. The identity layout and CuTe's counting
tensor, built from these strides, are in ``cute.identity`` (they need
``Layout``, which this module sits under).

Invariants: a ``ScaledBasis`` is an immutable value ``(value, mode)``; ``mode`` is
an int ``k >= 0`` or a path of such ints. ``0@k`` equals the integer 0 (a zero
stride). Coordinate results are ``ArithTuple`` (a tuple that adds by position,
C++'s ``ArithmeticTuple``); they compare equal to plain tuples.
"""

from __future__ import annotations

import operator

from .._ints import as_int, as_nonneg, check_table
from ..errors import LayoutError

__all__ = ["ScaledBasis", "ArithTuple", "E", "make_basis_like", "has_basis", "as_coord", "normalize_stride"]


_MAX_POSITIONS = 1 << 16  # positions one coordinate may spell out (CuTe's coordinates have a handful)


def _path(mode):
    if isinstance(mode, (tuple, list)):
        if not mode:
            raise LayoutError("ScaledBasis: mode path must not be empty")
        p = tuple(as_nonneg(m, "ScaledBasis mode") for m in mode)
        return p[0] if len(p) == 1 else p
    return as_nonneg(mode, "ScaledBasis mode")


class ScaledBasis:
    """``value`` times the unit basis element ``E<mode>`` (C++ ``ScaledBasis``; text ``value@mode``).

    ``mode`` is an int or a path tuple for nested coordinates. Multiplying by an
    int scales the value; adding basis elements gives an ``ArithTuple``.

    >>> e = ScaledBasis(1, 1)
    >>> str(e), str(3 * e), 3 * e + ScaledBasis(2, 0), ScaledBasis(1, (0, 1)) * 5 + 0
    ('1@1', '3@1', (2, 3), ((0, 5),))
    >>> ScaledBasis(0, 2) == 0, str(ScaledBasis(1, (0, 1)))
    (True, '1@(0,1)')
    """

    __slots__ = ("value", "mode")

    def __init__(self, value, mode):
        object.__setattr__(self, "value", as_int(value, "ScaledBasis value"))
        object.__setattr__(self, "mode", _path(mode))

    def __setattr__(self, name, value):
        raise AttributeError("ScaledBasis is immutable")

    @property
    def path(self) -> tuple:
        """The mode as a path tuple: ``E<2>`` is ``(2,)``."""
        return self.mode if isinstance(self.mode, tuple) else (self.mode,)

    def __repr__(self):
        return f"ScaledBasis({self.value!r}, {self.mode!r})"

    def __str__(self):
        m = self.mode
        return f"{self.value}@" + (f"({','.join(map(str, m))})" if isinstance(m, tuple) else str(m))

    def __reduce__(self):
        return (ScaledBasis, (self.value, self.mode))

    def __eq__(self, other):
        if type(other) is ScaledBasis:
            return self.value == other.value and (self.value == 0 or self.mode == other.mode)
        if type(other) is int:
            return self.value == 0 and other == 0
        return NotImplemented

    def __hash__(self):
        return hash(0) if self.value == 0 else hash((self.value, self.mode))

    def __mul__(self, k):
        if type(k) is bool or not isinstance(k, int):
            try:
                k = operator.index(k)
            except TypeError:
                return NotImplemented
        return ScaledBasis(self.value * k, self.mode)

    __rmul__ = __mul__

    def __neg__(self):
        return ScaledBasis(-self.value, self.mode)

    def __abs__(self):
        return ScaledBasis(abs(self.value), self.mode)

    def to_coord(self) -> "ArithTuple":
        """The coordinate this element stands for: ``(0, 0, v)`` for ``v@2``, nested for a path.

        >>> ScaledBasis(4, 2).to_coord(), ScaledBasis(4, (1, 0)).to_coord()
        ((0, 0, 4), (0, (4,)))
        """
        check_table(sum(self.path) + 1, f"the coordinate of {self}", cap=_MAX_POSITIONS)  # 1@10**8: 10**8 zeros
        v = self.value
        for k in reversed(self.path):
            v = ArithTuple((0,) * k + (v,))
        return v

    def __add__(self, other):
        return _add(self.to_coord(), other)

    def __radd__(self, other):
        return _add(other, self.to_coord())


def E(*mode) -> ScaledBasis:  # noqa: N802 - CuTe's name
    """The unit basis element ``E<mode...>`` (C++ ``E<0>{}``, ``E<0,1>{}``).

    >>> E(1), str(E(0, 1))
    (ScaledBasis(1, 1), '1@(0,1)')
    """
    if not mode:
        raise LayoutError("E: give at least one mode, e.g. E(0)")
    return ScaledBasis(1, mode)


class ArithTuple(tuple):
    """A coordinate tuple that adds position by position, missing positions being 0 (C++ ``ArithmeticTuple``).

    >>> ArithTuple((1, 2)) + ArithTuple((0, 0, 5)), 0 + ArithTuple((1,)) == (1,)
    ((1, 2, 5), True)
    """

    __slots__ = ()

    def __new__(cls, values=()):
        try:
            return super().__new__(cls, values)
        except TypeError:
            raise LayoutError(f"ArithTuple: expected a sequence of coordinates, got {values!r}"[:200]) from None

    def __add__(self, other):
        return _add(self, other)

    def __radd__(self, other):
        return _add(other, self)


def _add(a, b):
    """Position-wise sum of ints, ArithTuples and ScaledBases (0 is the neutral element)."""
    if type(a) is ScaledBasis:
        a = a.to_coord()
    if type(b) is ScaledBasis:
        b = b.to_coord()
    ta, tb = isinstance(a, tuple), isinstance(b, tuple)
    if not ta and not tb:
        return a + b
    if not ta:
        if a != 0:
            raise LayoutError(f"cannot add the integer {a} to the coordinate {_short(b)}")
        return b if type(b) is ArithTuple else ArithTuple(b)
    if not tb:
        if b != 0:
            raise LayoutError(f"cannot add the integer {b} to the coordinate {_short(a)}")
        return a if type(a) is ArithTuple else ArithTuple(a)
    n = max(len(a), len(b))
    return ArithTuple(_add(a[i] if i < len(a) else 0, b[i] if i < len(b) else 0) for i in range(n))


def _short(t) -> str:
    """A coordinate's text for a message, cut to 80 characters."""
    text = str(tuple(t)) if len(t) <= 40 else f"({', '.join(map(str, t[:8]))}, ... {len(t)} positions)"
    return text if len(text) <= 80 else text[:77] + "..."


def has_basis(t) -> bool:
    """True when an int tuple (a stride) holds a ``ScaledBasis`` leaf.

    >>> has_basis((1, (E(0), 2))), has_basis((1, 2))
    (True, False)
    """
    if isinstance(t, tuple):
        return any(map(has_basis, t))
    return type(t) is ScaledBasis


def as_coord(x):
    """An evaluation result as a coordinate: a ScaledBasis becomes its ArithTuple, others pass.

    >>> as_coord(E(1)), as_coord(3)
    ((0, 1), 3)
    """
    return x.to_coord() if type(x) is ScaledBasis else x


def normalize_stride(x, what: str = "Layout stride"):
    """Like ``inttuple.normalize`` but keeps ``ScaledBasis`` leaves.

    >>> normalize_stride([1, (E(0), 4)])
    (1, (ScaledBasis(1, 0), 4))
    """
    if isinstance(x, (tuple, list)):
        return tuple(normalize_stride(v, what) for v in x)
    if type(x) is ScaledBasis:
        return x
    return as_int(x, what)


def make_basis_like(shape):
    """The stride of the identity layout of ``shape`` (C++ ``make_basis_like``).

    An int shape gets ``1``; mode ``i`` of a tuple gets ``E<i>`` (nested modes get paths).

    >>> make_basis_like(8), make_basis_like((2, (3, 4)))
    (1, (ScaledBasis(1, 0), (ScaledBasis(1, (1, 0)), ScaledBasis(1, (1, 1)))))
    """
    if not isinstance(shape, tuple):
        return 1
    return tuple(_prefix(make_basis_like(s), i) for i, s in enumerate(shape))


def _prefix(t, i):
    if isinstance(t, tuple):
        return tuple(_prefix(x, i) for x in t)
    if type(t) is ScaledBasis:
        return ScaledBasis(t.value, (i,) + t.path)
    return ScaledBasis(t, i)
