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
prints it ``1@1@0``, which ``cute.parse`` reads too). Composition works on basis
layouts as on integer ones, because it only multiplies strides by integers and
compares them. Complement and the inverses (hence products and divides by a
basis tiler) work, as CuTe IR's do, on the *coordinate space*: one position per
basis mode the strides name, each complemented or inverted by the integer rule
(``coordinate_space``, ``coordinate_complement``, ``right_inverse_modes``). The
identity layout and CuTe's counting
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

__all__ = ["ScaledBasis", "ArithTuple", "E", "make_basis_like", "has_basis", "as_coord", "normalize_stride",
           "coordinate_space", "map_positions", "mode_value", "right_inverse_modes", "left_inverse_modes",
           "coordinate_complement"]


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


# -- the coordinate space of a basis-strided layout (CuTe IR's complement and inverses) -----------------


def coordinate_space(shapes, strides, name: str, top: int = 0):
    """The positions a basis-strided layout's values use, and its flat modes grouped by position.

    Returns ``(skeleton, groups)``. ``skeleton`` is the coordinate space as a
    nested tuple of unit basis elements, one per position: at every level the
    positions ``0..max`` used there (an unused one included, as CuTe IR's
    results show it), at least ``top`` of them at the top. ``groups[path]``
    lists ``(value, shape, index)`` for each mode whose stride is
    ``value@path``; ``index`` is the mode's stride in the layout's domain (the
    product of the shapes before it). Size-1 modes and zero strides are left
    out. A non-zero integral stride beside basis strides has no position, and a
    position used both whole and as a nested tuple has no shape: ``LayoutError``.

    >>> sk, g = coordinate_space((4, 1, 5), (E(1), 0, 2 * E(2, 1)), "f")
    >>> [str(e) for e in sk[:2]], [str(e) for e in sk[2]], g
    (['1@0', '1@1'], ['1@(2,0)', '1@(2,1)'], {(1,): [(1, 4, 1)], (2, 1): [(2, 5, 4)]})
    """
    root, groups, index = {}, {}, 1
    for s, d in zip(shapes, strides):
        if s != 1 and d != 0:
            if type(d) is not ScaledBasis:
                raise LayoutError(f"{name}: stride {d} is an integer beside basis strides; a layout's values must "
                                  "all be coordinates (or all offsets)")
            _add_position(root, d.path, name)
            groups.setdefault(d.path, []).append((d.value, s, index))
        index *= s
    return _skeleton(root, (), top, name), groups


def _add_position(root: dict, path: tuple, name: str) -> None:
    node = root
    for k in path[:-1]:
        node = node.setdefault(k, {})
        if node is None:
            raise LayoutError(f"{name}: position {path[:-1]} is used both whole and as a nested coordinate")
    if node.get(path[-1], None):
        raise LayoutError(f"{name}: position {path} is used both whole and as a nested coordinate")
    node[path[-1]] = None


def _skeleton(node: dict, prefix: tuple, top: int, name: str) -> tuple:
    n = check_table(max(top, max(node, default=-1) + 1), f"{name}: the positions of the coordinate space",
                    cap=_MAX_POSITIONS)  # 1@10**8 names 10**8 positions: refused before they are built
    return tuple(ScaledBasis(1, prefix + (k,)) if node.get(k) is None else _skeleton(node[k], prefix + (k,), 0, name)
                 for k in range(n))


def map_positions(skeleton, fn):
    """``(shape, stride)`` of the nested tuple built by ``fn(path) -> (shape, stride)`` at each position.

    >>> map_positions((E(0), (E(1, 0), E(1, 1))), lambda p: (len(p), sum(p)))
    ((1, (2, 2)), (0, (1, 2)))
    """
    if type(skeleton) is ScaledBasis:
        return fn(skeleton.path)
    parts = [map_positions(x, fn) for x in skeleton]
    return tuple(p[0] for p in parts), tuple(p[1] for p in parts)


def mode_value(mode):
    """The sort key of a ``(value, shape, index)`` mode of ``coordinate_space``: its stride's value.

    >>> mode_value((4, 2, 1))
    4
    """
    return mode[0]


def right_inverse_modes(modes, name: str = "right_inverse"):
    """C++ ``right_inverse`` of one position's ``(value, shape, index)`` modes, sorted by value: ``(shapes, strides)``.

    The run of compact strides from 1: each mode whose value is the extent
    covered so far maps back to its domain index; the rest is skipped.

    >>> right_inverse_modes([(1, 2, 32), (2, 4, 1), (16, 2, 4)])
    ([2, 4], [32, 1])
    """
    rs, rd, cur = [], [], 1
    for v, s, i in modes:
        if v == cur:
            rs.append(s)
            rd.append(i)
            cur = s * v
    return rs, rd


def left_inverse_modes(modes, name: str = "left_inverse"):
    """C++ ``left_inverse`` of one position's ``(value, shape, index)`` modes, sorted by value: ``(shapes, strides)``.

    Each value must be a multiple of the one before (``LayoutError`` otherwise);
    the gap ``v_k / v_(k-1)`` becomes a mode of stride ``index_(k-1)``, the
    first one of stride 0, and the largest mode's shape closes the list.

    >>> left_inverse_modes([(2, 4, 1)])
    ([2, 4], [0, 1])
    """
    rs, rd, covered = [], [0], 1
    for v, _, i in modes:
        if v < 0 or v % covered != 0:
            raise LayoutError(f"{name}: stride {v} is negative or not a multiple of {covered}: not invertible")
        rs.append(v // covered)
        rd.append(i)
        covered = v
    rs.append(modes[-1][1] if modes else 1)
    return rs, rd


def coordinate_complement(shapes, strides, cotarget=None):
    """``(shape, stride)`` of the complement of a basis-strided layout's flat modes, as CuTe IR infers it.

    The complement is taken position by position of the coordinate space
    (``coordinate_space``). At each position p the gap below each of its
    strides, in increasing order, becomes a mode ``q : cur@p``, and a last mode
    ``n : cur@p`` always follows: ``n`` is what p's extent needs beyond what
    is covered (1 when nothing). The extents: without a cotarget, p's own
    cosize; a shape cotarget (tuple or list of ints) gives top-level position k
    its k-th leaf; an int cotarget is the coordinate space flattened with its
    last position unbounded, so each position but the last ends covered and the
    last takes the rest. The result is grouped by position (one mode is a
    scalar), unused positions giving ``1:1@p``; callers coalesce it when a
    cotarget was given, as C++ does.

    >>> sh, st = coordinate_complement((2, 5, 3), (E(1) * 4, E(0) * 5, E(1) * 16))
    >>> sh, [[str(d) for d in m] for m in st]
    (((5, 1), (4, 2, 1)), [['1@0', '25@0'], ['1@1', '8@1', '48@1']])
    >>> sh, st = coordinate_complement((4, 3), (E(0), E(1)), 120)
    >>> sh, [str(d) for d in st]
    ((1, 10), ['4@0', '3@1'])
    """
    listed = type(cotarget) in (list, tuple)
    skeleton, groups = coordinate_space(shapes, strides, "complement", len(cotarget) if listed else 0)
    paths = []
    map_positions(skeleton, lambda p: paths.append(p) or (0, 0))
    gaps, covered = {}, {}
    for path in paths:
        rs, rd, cur = [], [], 1
        for v, s, _ in sorted(groups.get(path, ()), key=mode_value):
            q = v // cur
            if v < 0 or q == 0:
                raise LayoutError(f"complement: stride {v}@{path} is negative or falls inside earlier modes: "
                                  "the layout is not injective")
            if q != 1:
                rs.append(q)
                rd.append(ScaledBasis(cur, path))
            cur = v * s
        gaps[path], covered[path] = (rs, rd), cur
    rest = dict.fromkeys(paths, 1)
    if cotarget is None:
        for p in paths:
            rest[p] = -(-(1 + sum((s - 1) * v for v, s, _ in groups.get(p, ()))) // covered[p])
    elif listed:
        for k, c in enumerate(cotarget):
            if len(paths[k]) != 1 or type(c) is not int:
                raise LayoutError(f"complement: cotarget {cotarget} does not match the coordinate space of the layout")
            rest[paths[k]] = -(-c // covered[paths[k]])
    else:
        total = 1
        for p in paths:
            total *= covered[p]
        rest[paths[-1]] = -(-as_int(cotarget, "complement cotarget") // total)

    def one(path):
        rs, rd = gaps[path]
        rs, rd = rs + [rest[path]], rd + [ScaledBasis(covered[path], path)]
        return (rs[0], rd[0]) if len(rs) == 1 else (tuple(rs), tuple(rd))

    return map_positions(skeleton, one)
