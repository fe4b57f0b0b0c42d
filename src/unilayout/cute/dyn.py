"""Dynamic leaves: the ``?`` of CuTe IR, an integer known only at run time, with what is known about it.

CuTe IR (the MLIR dialect of the CuTe DSL) writes a leaf whose value is not
known at compile time as ``?``; it may carry the divisibility the compiler can
prove and the integer width: ``?{div=16}`` is a 32-bit value that is a
multiple of 16, ``?{i64}`` a 64-bit value, ``?{i64 div=8}`` both. ``Dyn`` is
that leaf as a value: it prints back exactly as CuTe IR prints it.

>>> Dyn(), Dyn(div=16), Dyn(bits=64), Dyn(div=8, bits=64)
(Dyn(), Dyn(div=16), Dyn(bits=64), Dyn(div=8, bits=64))
>>> str(Dyn()), str(Dyn(div=16)), str(Dyn(bits=64)), str(Dyn(div=8, bits=64))
('?', '?{div=16}', '?{i64}', '?{i64 div=8}')

A ``Layout`` may hold Dyn leaves in its shape and stride; ``bind`` replaces
them, in reading order (the order they print in: shape leaves, then stride
leaves, left to right), by the values known at launch:

>>> from unilayout.cute import Layout
>>> L = Layout((Dyn(), 4), (1, Dyn(div=4)))
>>> str(L), str(bind(L, [8, 8]))
('(?,4):(1,?{div=4})', '(8,4):(1,8)')
>>> bind(L, [8, 6])
Traceback (most recent call last):
...
unilayout.errors.LayoutError: bind: value 6 for dynamic leaf 1 (?{div=4}, stride of mode 1) is not a multiple of 4

Values are immutable and hashable; two Dyn leaves with the same divisibility
and width are equal (they are types, as in CuTe IR, not named unknowns).
"""

from __future__ import annotations

import operator
from math import gcd

from .._ints import as_int
from ..errors import LayoutError
from .basis import ScaledBasis

__all__ = [
    "Dyn", "bind", "is_dyn", "has_dyn", "is_static", "dyn_leaves", "normalize_dyn", "divisor_of",
    "dmul", "dadd", "dsub", "dneg", "dceil_div", "dmin", "check_bound", "dyn_crd2idx", "dyn_idx2crd",
    "dyn_cosize",
]

#: Integer widths CuTe IR gives a dynamic leaf (``i32`` is the default and is not printed).
BITS = (32, 64)


class Dyn:
    """A dynamic leaf: a run-time integer that is a multiple of ``div``, ``bits`` wide (CuTe IR's ``?``).

    ``str`` is CuTe IR's spelling: ``?`` (``div=1``, 32 bits), ``?{div=N}``,
    ``?{i64}``, ``?{i64 div=N}``; ``repr`` pastes back as Python.

    >>> d = Dyn(div=64, bits=64)
    >>> d, str(d), d.div, d.bits, d == Dyn(64, 64), len({Dyn(), Dyn(div=1)})
    (Dyn(div=64, bits=64), '?{i64 div=64}', 64, 64, True, 1)
    >>> Dyn(div=0)
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: Dyn: div must be a positive integer, got 0
    >>> Dyn(bits=16)
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: Dyn: bits must be 32 or 64 (CuTe IR's i32 and i64), got 16
    """

    __slots__ = ("div", "bits", "_hash")

    def __init__(self, div: int = 1, bits: int = 32):
        div = _int(div, "div")
        if div < 1:
            raise LayoutError(f"Dyn: div must be a positive integer, got {div}")
        bits = _int(bits, "bits")
        if bits not in BITS:
            raise LayoutError(f"Dyn: bits must be 32 or 64 (CuTe IR's i32 and i64), got {bits}")
        object.__setattr__(self, "div", div)
        object.__setattr__(self, "bits", bits)
        object.__setattr__(self, "_hash", hash(("Dyn", div, bits)))

    def __setattr__(self, name, value):
        raise AttributeError("Dyn is immutable")

    def __eq__(self, other):
        return type(other) is Dyn and self.div == other.div and self.bits == other.bits

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return self._hash

    def __repr__(self):
        parts = []
        if self.div != 1:
            parts.append(f"div={self.div}")
        if self.bits != 32:
            parts.append(f"bits={self.bits}")
        return f"Dyn({', '.join(parts)})"

    def __str__(self):
        if self.bits == 32:
            return "?" if self.div == 1 else f"?{{div={self.div}}}"
        return "?{i64}" if self.div == 1 else f"?{{i64 div={self.div}}}"

    def __reduce__(self):
        return (Dyn, (self.div, self.bits))

    def __bool__(self):
        raise LayoutError(f"dynamic leaf {self} has no value until it is bound (cute.bind)")

    def __index__(self):
        raise LayoutError(f"dynamic leaf {self} has no value until it is bound (cute.bind)")

    # -- arithmetic: what CuTe IR's type inference knows of the result ------------
    def __mul__(self, other):
        return dmul(self, other)

    __rmul__ = __mul__

    def __add__(self, other):
        return dadd(self, other)

    __radd__ = __add__

    def admits(self, value: int) -> bool:
        """True when ``value`` may stand for this leaf: a multiple of ``div`` that fits in ``bits`` signed bits.

        >>> Dyn(div=4).admits(12), Dyn(div=4).admits(6), Dyn().admits(2**31)
        (True, False, False)
        """
        lim = 1 << (self.bits - 1)
        return value % self.div == 0 and -lim <= value < lim


_MADE: dict = {}
_new_dyn = object.__new__
_set = object.__setattr__


def _mk(div: int, bits: int) -> Dyn:
    """The Dyn ``?{div, bits}`` for the arithmetic below: fields already valid, one shared value per pair."""
    d = _MADE.get(div if bits == 32 else -div)  # an int key hashes faster than a pair
    if d is None:
        d = _new_dyn(Dyn)
        _set(d, "div", div)
        _set(d, "bits", bits)
        _set(d, "_hash", hash(("Dyn", div, bits)))
        if len(_MADE) < 4096:
            _MADE[div if bits == 32 else -div] = d
    return d


def divisor_of(x) -> int:
    """What ``x`` is known to be a multiple of: ``div`` of a Dyn, ``|x|`` of an int (0: a multiple of everything).

    >>> divisor_of(Dyn(div=8)), divisor_of(-6), divisor_of(0)
    (8, 6, 0)
    """
    return x.div if type(x) is Dyn else abs(x)


def _bits(a, b) -> int:
    return max(a.bits if type(a) is Dyn else 32, b.bits if type(b) is Dyn else 32)


def dmul(a, b):
    """``a * b`` where either may be dynamic: divisibilities multiply, the wider width wins.

    A static 1 leaves the other operand as it is; a static 0 gives 0.

    >>> dmul(Dyn(div=4), 8), dmul(Dyn(div=2), _mk(div=8, bits=64)), dmul(Dyn(), 1), dmul(Dyn(), 0), dmul(3, 4)
    (Dyn(div=32), Dyn(div=16, bits=64), Dyn(), 0, 12)
    """
    if type(a) is not Dyn:
        if type(b) is not Dyn:
            return a * b
        a, b = b, a
    if type(b) is not Dyn:
        if b == 1:
            return a
        if b == 0:
            return 0
        return _mk(a.div * _static_div(b), a.bits)
    return _mk(a.div * b.div, a.bits if a.bits >= b.bits else b.bits)


def _static_div(b) -> int:
    if type(b) is not int:
        raise LayoutError(f"a dynamic leaf times {b}: dynamic coefficients of basis strides are not supported")
    return b if b > 0 else -b


def dadd(a, b):
    """``a + b`` where either may be dynamic: the divisibility is the gcd, the wider width wins; ``+ 0`` is the identity.

    >>> dadd(Dyn(div=8), 12), dadd(Dyn(div=8), _mk(div=16, bits=64)), dadd(Dyn(div=4), 0), dadd(2, 3)
    (Dyn(div=4), Dyn(div=8, bits=64), Dyn(div=4), 5)
    """
    if type(a) is not Dyn:
        if type(b) is not Dyn:
            return a + b
        a, b = b, a
    if type(b) is not Dyn:
        if b == 0:
            return a
        return _mk(gcd(a.div, _static_div(b)), a.bits)
    return _mk(gcd(a.div, b.div), a.bits if a.bits >= b.bits else b.bits)


def dceil_div(a, b):
    """``ceil(a / b)`` for positive sizes where either may be dynamic (also C++ ``shape_div`` on sizes).

    Exact where it can be: ``b == 1`` gives ``a``; a static 0 gives 0; ``?{div=k} / n`` with
    ``n | k`` is ``?{div=k/n}``; anything else with a dynamic operand is a plain ``?``.

    >>> dceil_div(Dyn(div=12), 4), dceil_div(Dyn(div=6), 4), dceil_div(12, Dyn()), dceil_div(Dyn(), 1), dceil_div(7, 2)
    (Dyn(div=3), Dyn(), Dyn(), Dyn(), 4)
    >>> dceil_div(1, Dyn()), dceil_div(0, Dyn())
    (1, 0)
    """
    if type(b) is not Dyn:
        if type(a) is not Dyn:
            return -(-a // b)
        if b == 1:
            return a
        return _mk(a.div // b, a.bits) if a.div % b == 0 else _mk(1, a.bits)
    if type(a) is not Dyn:
        if a == 0 or a == 1:
            return a  # ceil(0 / b) == 0 and ceil(1 / b) == 1 for every size b >= 1
        return _mk(1, b.bits)
    return _mk(1, a.bits if a.bits >= b.bits else b.bits)


def dmin(a, b):
    """``min(a, b)`` where either may be dynamic: one of the two, so a multiple of their gcd.

    >>> dmin(Dyn(div=8), 12), dmin(3, 5)
    (Dyn(div=4), 3)
    """
    if type(a) is not Dyn:
        if type(b) is not Dyn:
            return a if a < b else b
        return _mk(gcd(a, b.div) or 1, b.bits)
    if type(b) is not Dyn:
        return _mk(gcd(a.div, b) or 1, a.bits)
    return _mk(gcd(a.div, b.div), a.bits if a.bits >= b.bits else b.bits)


def dneg(a):
    """``-a``: a dynamic value keeps its divisibility and width.

    >>> dneg(Dyn(div=4)), dneg(3)
    (Dyn(div=4), -3)
    """
    return a if type(a) is Dyn else -a


def dsub(a, b):
    """``a - b`` where either may be dynamic (as ``dadd(a, -b)``).

    >>> dsub(Dyn(div=8), 4), dsub(Dyn(div=8), 0), dsub(5, 3)
    (Dyn(div=4), Dyn(div=8), 2)
    """
    return dadd(a, dneg(b))


def _coalesce_lists(shapes, strides, drop_zero_strides=False):
    """Flat coalesce that merges only fully static neighbours and drops only static size-1 modes."""
    D = Dyn
    rs, rd = [], []
    for s, d in zip(shapes, strides):
        ts, td = type(s) is not D, type(d) is not D
        if (ts and s == 1) or (drop_zero_strides and td and d == 0):
            continue
        if rs and ts and td and type(rs[-1]) is not D and type(rd[-1]) is not D and rs[-1] * rd[-1] == d:
            rs[-1] *= s
        else:
            rs.append(s)
            rd.append(d)
    return rs, rd


def _append(rs, rd, s, d):
    """Append mode ``s:d``, merged into the last one when both are static and it continues it."""
    D = Dyn
    if rs and type(s) is not D and type(d) is not D and type(rs[-1]) is not D and type(rd[-1]) is not D \
            and rs[-1] * rd[-1] == d:
        rs[-1] *= s
    else:
        rs.append(s)
        rd.append(d)


def is_static(x) -> bool:
    """True when the int tuple (or leaf) ``x`` has no dynamic leaf.

    >>> is_static((2, (3, 4))), is_static((2, Dyn()))
    (True, False)
    """
    return not has_dyn(x)


def _int(x, what):
    if isinstance(x, bool):
        raise LayoutError(f"Dyn: {what} must be a positive integer, got {x!r}")
    try:
        return operator.index(x)
    except TypeError:
        raise LayoutError(f"Dyn: {what} must be a positive integer, got {x!r:.40}") from None


def is_dyn(x) -> bool:
    """True for a ``Dyn`` leaf.

    >>> is_dyn(Dyn()), is_dyn(4)
    (True, False)
    """
    return type(x) is Dyn


def has_dyn(t) -> bool:
    """True when the int tuple ``t`` holds a ``Dyn`` leaf at any depth.

    >>> has_dyn((2, (Dyn(), 4))), has_dyn((2, (3, 4)))
    (True, False)
    """
    if type(t) is not tuple:
        return type(t) is Dyn
    for v in t:
        if type(v) is Dyn or (type(v) is tuple and has_dyn(v)):
            return True
    return False


def dyn_leaves(x) -> list:
    """The dynamic leaves of a layout (shape, then stride) or of an int tuple, in reading order.

    Each entry is ``(Dyn, where)``, ``where`` naming the leaf for messages.

    >>> from unilayout.cute import Layout
    >>> [(str(d), w) for d, w in dyn_leaves(Layout((Dyn(), 4), (1, Dyn(div=4))))]
    [('?', 'shape of mode 0'), ('?{div=4}', 'stride of mode 1')]
    """
    out = []
    for part, t in _parts(x):
        _collect(t, (), part, out)
    return out


def _parts(x):
    if hasattr(x, "inner") and hasattr(x, "outer"):  # a ComposedLayout: outer, offset, inner, as CuTe IR prints it
        outer = _parts(x.outer) if hasattr(x.outer, "stride") else ()
        return (tuple((f"outer {p}", t) for p, t in outer) + (("offset", x.offset),)
                + tuple((f"inner {p}", t) for p, t in _parts(x.inner)))
    if hasattr(x, "shape") and hasattr(x, "stride") and not isinstance(x, tuple):
        return (("shape", x.shape), ("stride", x.stride))
    return (("int tuple", x),)


def _collect(t, path, part, out):
    if type(t) is tuple:
        for i, v in enumerate(t):
            _collect(v, path + (i,), part, out)
    elif type(t) is Dyn:
        where = f"{part} of mode {'.'.join(map(str, path))}" if path else part
        out.append((t, where))


def check_bound(layout):
    """Raise a LayoutError naming the dynamic leaves of ``layout``, if it has any: they have no value to evaluate.

    >>> check_bound((2, 3)) is None
    True
    >>> check_bound((2, Dyn(div=4)))
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: int tuple (2,?{div=4}): dynamic leaf ?{div=4} (int tuple of mode 1) has no value; give the values with cute.bind(layout, values)
    """
    found = dyn_leaves(layout)
    if found:
        named = ", ".join(f"{d} ({where})" for d, where in found)
        raise LayoutError(
            f"{_name(layout)}: dynamic lea{'f' if len(found) == 1 else 'ves'} {named} "
            f"ha{'s' if len(found) == 1 else 've'} no value; give the values with cute.bind(layout, values)"
        )


def _txt(t) -> str:
    """CuTe's text of an int tuple (as ``inttuple.int_tuple_str``, which this module sits below)."""
    return "(" + ",".join(map(_txt, t)) + ")" if isinstance(t, tuple) else str(t)


def _name(x) -> str:
    if isinstance(x, tuple):
        return f"int tuple {_txt(x)}"
    return f"{type(x).__name__.replace('DynLayout', 'Layout')} {x}"


def dyn_crd2idx(crd, shape, stride):
    """``crd2idx`` where the coordinate, shape or stride holds dynamic leaves: static where it can be.

    An integer coordinate into a tuple shape is split colexicographically as C++ does; a split by a dynamic
    size gives a dynamic index.

    >>> dyn_crd2idx((1, Dyn()), (4, Dyn()), (1, Dyn(div=4, bits=64))), dyn_crd2idx(9, (4, Dyn()), (1, 4))
    (Dyn(bits=64), 9)
    >>> dyn_crd2idx(9, (Dyn(), 8), (1, Dyn()))
    Dyn()
    """
    if isinstance(crd, tuple):
        if not isinstance(shape, tuple) or len(crd) != len(shape):
            raise LayoutError(f"coordinate {_txt(crd)} does not match shape {_txt(shape)}")
        r = 0
        for c, s, d in zip(crd, shape, stride):
            r = dadd(r, dyn_crd2idx(c, s, d))
        return r
    if isinstance(shape, tuple):
        if not shape:
            return 0
        r, last = 0, len(shape) - 1
        for i in range(last):
            s = _product(shape[i])
            if type(crd) is int and type(s) is int:
                c, crd = crd % s, crd // s
            else:
                c, crd = (0, 0) if crd == 0 and type(crd) is int else (_mk(1, _bits(crd, s)), _mk(1, _bits(crd, s)))
            r = dadd(r, dyn_crd2idx(c, shape[i], stride[i]))
        return dadd(r, dyn_crd2idx(crd, shape[last], stride[last]))
    return dmul(crd, stride)


def dyn_idx2crd(idx, shape):
    """``idx2crd(idx, shape)`` where the index or shape holds dynamic leaves: CuTe IR's coordinate type.

    A static index into sizes that are static up to the last mode is split exactly (the last mode is not
    reduced); a dynamic index gives a dynamic coordinate of the shape's profile.

    >>> dyn_idx2crd(9, (4, Dyn())), dyn_idx2crd(Dyn(), (4, (2, 3)))
    ((1, 2), (Dyn(), (Dyn(), Dyn())))
    """
    if isinstance(idx, tuple):
        if not isinstance(shape, tuple) or len(idx) != len(shape):
            raise LayoutError(f"coordinate {_txt(idx)} does not match shape {_txt(shape)}")
        return tuple(map(dyn_idx2crd, idx, shape))
    if isinstance(shape, tuple):
        if not shape:
            return ()
        out, last = [], len(shape) - 1
        for i in range(last):
            s = _product(shape[i])
            if type(idx) is int and type(s) is int:
                c, idx = idx % s, idx // s
            else:
                c = _mk(1, _bits(idx, s))
                idx = dceil_div(idx, s) if type(idx) is Dyn and type(s) is int else c
            out.append(dyn_idx2crd(c, shape[i]))
        out.append(dyn_idx2crd(idx, shape[last]))
        return tuple(out)
    return idx


class DynFlat(tuple):
    """A DynLayout's ``flat()`` triple with its ``cosize`` kept (Dyn arithmetic is dearer than int sums).

    >>> DynFlat.of(((Dyn(), 4), (1, 8), Dyn(div=4))).cosize
    Dyn()
    """

    @classmethod
    def of(cls, flat):
        """``flat`` (shapes, strides, size) with its cosize computed once."""
        f = cls(flat)
        f.cosize = dyn_cosize(flat[0], flat[1])
        return f


def dyn_cosize(shapes, strides):
    """``1 + sum((s - 1) * |d|)`` over flat leaves that may be dynamic (CuTe IR's cosize type).

    >>> dyn_cosize((Dyn(), 4), (1, Dyn(div=8))), dyn_cosize((4, 2), (1, 4))
    (Dyn(), 8)
    """
    r = 1
    for s, d in zip(shapes, strides):
        if type(s) is int and type(d) is int:
            r = r + (s - 1) * d if type(r) is int else dadd(r, (s - 1) * d)
        else:
            r = dadd(r, dmul(dsub(s, 1), d))
    return r


def _product(t):
    if not isinstance(t, tuple):
        return t
    r = 1
    for v in t:
        r = dmul(r, _product(v))
    return r


def normalize_dyn(x, what: str = "int tuple"):
    """``inttuple.normalize`` that keeps ``Dyn`` leaves (for layouts read from CuTe IR).

    >>> normalize_dyn([2, (Dyn(), 4)])
    (2, (Dyn(), 4))
    """
    if isinstance(x, (tuple, list)):
        return tuple(normalize_dyn(v, what) for v in x)
    if type(x) is Dyn:
        return x
    if type(x) is ScaledBasis:
        return x
    return as_int(x, what)


def bind(x, values):
    """Replace the dynamic leaves of ``x`` (a Layout, ComposedLayout or int tuple) by ``values``, in reading order.

    Reading order is the order the leaves print in CuTe IR's text: the shape's
    leaves left to right, then the stride's. Each value must be an integer that
    the leaf admits (a multiple of its ``div``, within its width); a shape value
    must be positive. The result has no dynamic leaf left.

    >>> from unilayout.cute import Layout
    >>> bind(Layout((Dyn(), Dyn(div=8)), (1, Dyn(bits=64))), [3, 16, 3])
    Layout((3, 16), (1, 3))
    >>> bind((Dyn(), 2), [5])
    (5, 2)
    >>> bind(Layout((Dyn(), 2), (1, 2)), [])
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: bind: 1 dynamic leaf (?) but 0 values
    """
    try:
        values = [operator.index(v) if not isinstance(v, bool) else _bad(v) for v in values]
    except TypeError:
        raise LayoutError(f"bind: values must be integers, got {values!r:.60}") from None
    found = dyn_leaves(x)
    if len(found) != len(values):
        n = len(found)
        leaves_txt = ", ".join(str(d) for d, _ in found)
        raise LayoutError(
            f"bind: {n} dynamic lea{'f' if n == 1 else 'ves'}{f' ({leaves_txt})' if n else ''} "
            f"but {len(values)} value{'' if len(values) == 1 else 's'}"
        )
    for i, ((d, where), v) in enumerate(zip(found, values)):
        if v % d.div:
            raise LayoutError(f"bind: value {v} for dynamic leaf {i} ({d}, {where}) is not a multiple of {d.div}")
        lim = 1 << (d.bits - 1)
        if not -lim <= v < lim:
            raise LayoutError(f"bind: value {v} for dynamic leaf {i} ({d}, {where}) does not fit in i{d.bits}")
        if "shape" in where and v <= 0:
            raise LayoutError(f"bind: value {v} for dynamic leaf {i} ({d}, {where}) must be positive (a size)")
    return _bind(x, iter(values))


def _bind(x, it):
    if hasattr(x, "inner") and hasattr(x, "outer"):
        outer = _bind(x.outer, it) if hasattr(x.outer, "stride") else x.outer
        offset = _fill(x.offset, it)
        return type(x)(outer, offset, _bind(x.inner, it))
    if hasattr(x, "shape") and hasattr(x, "stride") and not isinstance(x, tuple):
        shape = _fill(x.shape, it)
        stride = _fill(x.stride, it)
        return type(x).__mro__[-2](shape, stride)  # Layout, whatever the class of x (DynLayout)
    return _fill(x, it)


def _bad(v):
    raise TypeError(v)


def _fill(t, it):
    if type(t) is tuple:
        return tuple(_fill(v, it) for v in t)
    if type(t) is Dyn:
        return next(it)
    return t
