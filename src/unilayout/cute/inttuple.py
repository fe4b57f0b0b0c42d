"""Int tuples: the nested tuples of ints that CuTe shapes, strides and coordinates are made of.

An IntTuple is an ``int`` or a ``tuple`` of IntTuples. ``6`` and ``(6,)`` are
different values (rank 1 both, depth 0 and 1). Everything here is a pure
function over such values, in CuTe C++'s semantics:

>>> product((2, (3, 4)))
24
>>> prefix_product((4, 8, 1, 2))
(1, 4, 32, 32)
>>> shape_div((3, 6, 2, 8), 9), shape_mod((3, 6, 2, 8), 6)
((1, 2, 2, 8), (3, 2, 1, 1))
>>> idx2crd(16, (4, 4)), crd2idx((1, 5), (3, (2, 3)))
((0, 4), 16)

Coordinates are colexicographic: the leftmost leaf varies fastest, and an
integer coordinate larger than the shape extends linearly through the last
mode (C++ CuTe; pycute wraps instead).
"""

from __future__ import annotations

import operator
from functools import reduce
from numbers import Integral

from .._ints import as_int, as_positive
from .._ints import ceil_div as _ceil_div
from ..errors import LayoutError
from .dyn import Dyn, dyn_crd2idx, dyn_idx2crd, has_dyn  # noqa: F401 - Dyn: the doctests build dynamic leaves

__all__ = [
    "is_int", "is_tuple", "normalize", "flatten", "product", "product_each", "rank", "depth",
    "congruent", "prefix_product", "suffix_product", "shape_div", "shape_mod", "ceil_div",
    "idx2crd", "crd2idx", "int_tuple_str",
]


def is_tuple(x) -> bool:
    """True for a tuple (a non-leaf IntTuple).

    >>> is_tuple((1,)), is_tuple(1)
    (True, False)
    """
    return isinstance(x, tuple)


def is_int(x) -> bool:
    """True for an integer leaf (Python or numpy integer; bool excluded).

    >>> import numpy as np
    >>> is_int(3), is_int(np.int64(3)), is_int(3.0), is_int(True)
    (True, True, False, False)
    """
    if isinstance(x, bool):
        return False
    try:
        operator.index(x)
    except TypeError:
        return False
    return not isinstance(x, tuple)


def normalize(x, what: str = "int tuple"):
    """Return ``x`` as nested Python tuples of Python ints (numpy ints and lists accepted).

    Each leaf goes through ``unilayout._ints.as_int``, so bad leaves read as
    every family's do.

    >>> import numpy as np
    >>> normalize([np.int32(2), (3, 4)])
    (2, (3, 4))
    >>> normalize("a")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: int tuple must be an integer, got 'a'
    """
    if isinstance(x, (tuple, list)):
        return tuple(normalize(v, what) for v in x)
    return as_int(x, what)


def flatten(t):
    """The leaves of ``t`` as a flat tuple; an int stays an int (C++ ``flatten``).

    >>> flatten(((2, 3), (4,), 5)), flatten(7)
    ((2, 3, 4, 5), 7)
    """
    if not isinstance(t, tuple):
        return t
    out = []
    _flatten_into(t, out)
    return tuple(out)


def _flatten_into(t, out):
    for v in t:
        if isinstance(v, tuple):
            _flatten_into(v, out)
        else:
            out.append(v)


def leaves(t) -> tuple:
    """The leaves of ``t`` as a flat tuple, an int giving a 1-tuple.

    >>> leaves(5), leaves((1, (2, 3)))
    ((5,), (1, 2, 3))
    """
    return flatten(t) if isinstance(t, tuple) else (t,)


def product(t) -> int:
    """Product of all leaves (``()`` gives 1).

    >>> product(()), product(5), product(((2, 3), 4))
    (1, 5, 24)
    """
    if not isinstance(t, tuple):
        return t
    r = 1
    for v in t:
        r *= v if not isinstance(v, tuple) else product(v)
    return r


def product_each(t):
    """Product of each top-level mode (an int stays as it is).

    >>> product_each(((2, 3), 4, (5,)))
    (6, 4, 5)
    """
    return tuple(product(v) for v in t) if isinstance(t, tuple) else t


def rank(t) -> int:
    """Number of top-level modes; an int has rank 1.

    >>> rank(3), rank((3, (4, 5)))
    (1, 2)
    """
    return len(t) if isinstance(t, tuple) else 1


def depth(t) -> int:
    """Nesting depth: an int is 0, a tuple is 1 + the deepest mode.

    >>> depth(3), depth((3, 4)), depth((3, (4, 5)))
    (0, 1, 2)
    """
    if not isinstance(t, tuple):
        return 0
    return 1 + max((depth(v) for v in t), default=0)


def congruent(a, b) -> bool:
    """True when ``a`` and ``b`` have the same tree profile.

    >>> congruent((2, (3, 4)), (1, (2, 6))), congruent((2, 3), (1, (2, 6)))
    (True, False)
    """
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(map(congruent, a, b))
    return not isinstance(b, tuple)


def prefix_product(a, init: int = 1):
    """Exclusive prefix product, left to right over the leaves, congruent to ``a``.

    This is the column-major (LayoutLeft) stride of shape ``a``.

    >>> prefix_product(((2, 3), 4)), prefix_product(5, 7)
    (((1, 2), 6), 7)
    """
    if not isinstance(a, tuple):
        return init
    r = []
    for v in a:
        r.append(prefix_product(v, init))
        init *= product(v)
    return tuple(r)


def suffix_product(a):
    """Exclusive product right to left over the flattened leaves, congruent to ``a``.

    This is the row-major (LayoutRight) stride of shape ``a``, ignoring hierarchy.

    >>> suffix_product((2, (3, 4)))
    (12, (4, 1))
    """
    flat = leaves(a)
    out, acc = [0] * len(flat), 1
    for i in range(len(flat) - 1, -1, -1):
        out[i] = acc
        acc *= flat[i]
    return unflatten(tuple(out), a) if isinstance(a, tuple) else out[0]


def unflatten(flat, profile):
    """Rebuild a flat tuple into the tree profile of ``profile``.

    >>> unflatten((1, 2, 3), ((0, 0), 0))
    ((1, 2), 3)
    """
    it = iter(flat)

    def build(p):
        return tuple(build(v) for v in p) if isinstance(p, tuple) else next(it)

    return build(profile)


def _operand(x, op: str):
    """``x`` if it is an int tuple or an int, else ``LayoutError`` (a numpy integer becomes an int)."""
    if type(x) is int or isinstance(x, tuple):
        return x
    return as_int(x, f"{op}: operand")


def _div_check(a: int, b: int, op: str):
    if b == 0 or (a % b != 0 and b % a != 0):
        raise LayoutError(f"{op}: {a} and {b} must divide one another")


def shape_div(a, b):
    """Divide out the first ``b`` elements of shape ``a`` (C++ ``shape_div``).

    int/int needs ``a % b == 0 or b % a == 0`` and gives ``ceil(a / b)``; a tuple
    folds left; a tuple divisor divides by its product; tuple/tuple is by mode.

    >>> shape_div(2, 6), shape_div((3, 6, 2, 8), 9), shape_div((4, 6), (2, 3))
    (1, (1, 2, 2, 8), (2, 2))
    >>> shape_div(4, 6)
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: shape_div: 4 and 6 must divide one another
    """
    a, b = _operand(a, "shape_div"), _operand(b, "shape_div")
    if isinstance(a, tuple):
        if isinstance(b, tuple):
            if len(a) != len(b):
                raise LayoutError(f"shape_div: ranks differ: {int_tuple_str(a)} and {int_tuple_str(b)}")
            return tuple(map(shape_div, a, b))
        r = []
        for v in a:
            r.append(shape_div(v, b))
            b = shape_div(b, product(v))
        return tuple(r)
    if isinstance(b, tuple):
        return shape_div(a, product(b))
    _div_check(a, b, "shape_div")
    return -(-a // b)


def shape_mod(a, b):
    """Keep the first ``b`` elements of shape ``a`` (CuTe docs' ``%``), folding left.

    >>> shape_mod((3, 6, 2, 8), 6), shape_mod(8, 2)
    ((3, 2, 1, 1), 2)
    """
    a, b = _operand(a, "shape_mod"), _operand(b, "shape_mod")
    if isinstance(a, tuple):
        if isinstance(b, tuple):
            if len(a) != len(b):
                raise LayoutError(f"shape_mod: ranks differ: {int_tuple_str(a)} and {int_tuple_str(b)}")
            return tuple(map(shape_mod, a, b))
        r = []
        for v in a:
            r.append(shape_mod(v, b))
            b = shape_div(b, product(v))
        return tuple(r)
    if isinstance(b, tuple):
        return shape_mod(a, product(b))
    _div_check(a, b, "shape_mod")
    return min(a, b)


def ceil_div(a, b):
    """Ceiling division; a tuple folds left like ``shape_div`` with ceilings.

    >>> ceil_div(7, 2), ceil_div((4, 6), 8), ceil_div((7, 5), (2, 2))
    (4, (1, 3), (4, 3))
    """
    a, b = _operand(a, "ceil_div"), _operand(b, "ceil_div")
    if isinstance(a, tuple):
        if isinstance(b, tuple):
            if len(a) != len(b):
                raise LayoutError(f"ceil_div: ranks differ: {int_tuple_str(a)} and {int_tuple_str(b)}")
            return tuple(map(ceil_div, a, b))
        r = []
        for v in a:
            s = product(v)
            r.append(ceil_div(v, b))
            b = -(-b // s)
        return tuple(r)
    if isinstance(b, tuple):
        b = product(b)
    return _ceil_div(a, as_positive(b, "ceil_div divisor"))


def crd2idx(crd, shape, stride=None) -> int:
    """Index of coordinate ``crd`` in ``shape`` with ``stride`` (default LayoutLeft); see ``_crd2idx``.

    A dynamic leaf (``cute.Dyn``) anywhere gives CuTe IR's result: static where it can be, else dynamic.

    >>> crd2idx((1, 2), (4, Dyn())), crd2idx((1, Dyn()), (4, 8))
    (9, Dyn())
    """
    try:
        return _crd2idx(crd, shape, stride)
    except (LayoutError, TypeError):
        if not (has_dyn(crd) or has_dyn(shape) or has_dyn(stride)):
            raise
    return dyn_crd2idx(crd, shape, prefix_product(shape) if stride is None else stride)


def _crd2idx(crd, shape, stride=None) -> int:
    """Index of coordinate ``crd`` in ``shape`` with ``stride`` (default LayoutLeft).

    A tuple coordinate goes by mode; an int coordinate into a tuple shape is split
    colexicographically, the last mode taking the rest unreduced.

    >>> crd2idx(16, (3, (2, 3)), (3, (12, 1))), crd2idx((1, (1, 2)), (3, (2, 3)), (3, (12, 1)))
    (17, 17)
    """
    if not isinstance(shape, (tuple, Integral)):
        raise LayoutError(f"crd2idx: the shape must be an int or a tuple of them, got {type(shape).__name__}")
    if stride is None:
        stride = prefix_product(shape)
    if not isinstance(crd, tuple) and type(crd) is not int:
        crd = as_int(crd, "crd2idx: coordinate")  # 1.5, None, strings: a LayoutError, not a wrong answer
    if isinstance(crd, tuple):
        if not isinstance(shape, tuple) or len(crd) != len(shape):
            raise LayoutError(f"coordinate {int_tuple_str(crd)} does not match shape {int_tuple_str(shape)}")
        return sum(map(_crd2idx, crd, shape, stride))
    if isinstance(shape, tuple):
        if not shape:  # the empty shape has one point, at offset 0
            return 0
        r, last = 0, len(shape) - 1
        for i in range(last):
            s = product(shape[i])
            r += _crd2idx(crd % s, shape[i], stride[i])
            crd //= s
        return r + _crd2idx(crd, shape[last], stride[last])
    return crd * stride


def idx2crd(idx, shape, stride=None):
    """Coordinate of 1-D index ``idx`` in ``shape``; see ``_idx2crd``.

    A dynamic index or size (``cute.Dyn``) gives CuTe IR's coordinate type: static where it can be.

    >>> idx2crd(9, (4, Dyn())), idx2crd(Dyn(), (4, 8))
    ((1, 2), (Dyn(), Dyn()))
    """
    try:
        return _idx2crd(idx, shape, stride)
    except (LayoutError, TypeError):
        if stride is not None or not (has_dyn(idx) or has_dyn(shape)):
            raise
    return dyn_idx2crd(idx, shape)


def _idx2crd(idx, shape, stride=None):
    """Coordinate of 1-D index ``idx`` in ``shape`` (C++ ``idx2crd``; ``shape`` an int or a tuple of them).

    Two arguments: a colexicographic split congruent to ``shape`` whose last mode
    is not wrapped. With ``stride``: every leaf is ``(idx // d) % s``.

    >>> idx2crd(16, (4, 4)), idx2crd((1, 5), (3, (2, 3))), idx2crd(5, (2, 4), (1, 2))
    ((0, 4), (1, (1, 2)), (1, 2))
    """
    if not isinstance(shape, (tuple, Integral)):
        raise LayoutError(f"idx2crd: the shape must be an int or a tuple of them, got {type(shape).__name__}")
    if not isinstance(idx, tuple) and type(idx) is not int:
        idx = as_int(idx, "idx2crd: index")  # idx2crd(1.5, (2, 4)) was (1.5, 0.0)
    if stride is not None:
        return _idx2crd_strided(idx, shape, stride)
    if isinstance(idx, tuple):
        if not isinstance(shape, tuple) or len(idx) != len(shape):
            raise LayoutError(f"coordinate {int_tuple_str(idx)} does not match shape {int_tuple_str(shape)}")
        return tuple(map(_idx2crd, idx, shape))
    if isinstance(shape, tuple):
        if not shape:
            return ()
        r, last = [], len(shape) - 1
        for i in range(last):
            s = product(shape[i])
            r.append(_idx2crd(idx % s, shape[i]))
            idx //= s
        r.append(_idx2crd(idx, shape[last]))
        return tuple(r)
    return idx


def _idx2crd_strided(idx, shape, stride):
    if isinstance(shape, tuple):
        if isinstance(idx, tuple):
            return tuple(map(_idx2crd_strided, idx, shape, stride))
        return tuple(_idx2crd_strided(idx, s, d) for s, d in zip(shape, stride))
    if shape == 1:
        return 0
    if stride == 0:
        raise LayoutError(f"idx2crd: a mode of size {shape} has stride 0, so its coordinate is not determined")
    return (idx // stride) % shape


def int_tuple_str(t) -> str:
    """CuTe's text for an IntTuple: no spaces, 1-tuples as ``(3)``.

    >>> int_tuple_str(((2, 2), 2)), int_tuple_str((3,)), int_tuple_str(8)
    ('((2,2),2)', '(3)', '8')
    """
    if isinstance(t, tuple):
        return "(" + ",".join(map(int_tuple_str, t)) + ")"
    return str(t)


def prod(values) -> int:
    """Product of an iterable of ints (1 when empty).

    >>> prod([2, 3, 4])
    24
    """
    return reduce(operator.mul, values, 1)


def permutation_order(order, r: int, what: str = "tile_to_shape order"):
    """``order`` as a flat tuple, checked to be a permutation of ``0..r-1`` (one entry per mode; CuTe IR's rule).

    >>> permutation_order((1, 0), 2, "order")
    (1, 0)
    """
    o = normalize(order, what)
    o = o if type(o) is tuple else (o,)
    if len(o) != r:
        raise LayoutError(f"{what} {int_tuple_str(order)} has rank {len(o)}, not the target rank {r}")
    if any(type(v) is not int for v in o) or sorted(o) != list(range(r)):
        raise LayoutError(f"{what} {int_tuple_str(order)} is not a permutation of 0..{r - 1}")
    return o


def at_mode(x, path, what: str = "mode"):
    """``x`` (a layout or an int tuple) at ``path``, a mode or a path of modes (C++ ``get<I, J...>``).

    Each index is in ``[0, rank)`` at its depth, and a path stops at a scalar leaf (CuTe IR's ``size<[...]>``
    rules); ``LayoutError`` says which index is out.

    >>> at_mode((4, (3, 2)), (1, 0)), at_mode((4, (3, 2)), 1)
    (3, (3, 2))
    """
    path = tuple(path) if isinstance(path, (tuple, list)) else (path,)
    for d, m in enumerate(path):
        shape = x.shape if hasattr(x, "shape") else x
        if d and not isinstance(shape, tuple):
            raise LayoutError(f"{what}: the mode path {list(path)} goes {len(path) - d} index(es) past a scalar leaf")
        r = len(shape) if isinstance(shape, tuple) else 1
        if isinstance(m, bool) or not isinstance(m, int) or not 0 <= m < r:
            raise LayoutError(f"{what}: mode index {m!r} at depth {d} is not in [0, {r})")
        x = x[m] if isinstance(shape, tuple) else x
    return x


def zip2_by(shape, stride, guide):
    """C++ ``zip2_by``: regroup ``((T0,R0),(T1,R1),...,extra...)`` into ``((T0,T1,...),(R0,R1,...,extra...))``.

    Returns ``((tile shape, rest shape), (tile stride, rest stride))``; ``guide`` (the tiler) says how deep each
    mode splits. A mode that does not split as the guide says is a LayoutError.

    >>> zip2_by(((2, 3), (4, 5), 6), ((1, 2), (6, 24), 120), (2, 4))
    (((2, 4), (3, 5, 6)), ((1, 6), (2, 24, 120)))
    """
    if type(guide) is not tuple:
        if type(shape) is not tuple or len(shape) != 2:
            raise LayoutError(f"cannot split mode {int_tuple_str(shape)} into (tile, rest)")
        return shape, stride
    k = len(guide)
    if type(shape) is not tuple or len(shape) < k:
        raise LayoutError(f"cannot split mode {int_tuple_str(shape)} by a tiler of rank {k}")
    split = [zip2_by(shape[i], stride[i], guide[i]) for i in range(k)]
    return ((tuple(p[0][0] for p in split), tuple(p[0][1] for p in split) + shape[k:]),
            (tuple(p[1][0] for p in split), tuple(p[1][1] for p in split) + stride[k:]))


def unzip_modes(shape, stride, tiler, tiled: bool, flat: bool):
    """``(shape, stride)`` of a logical divide/product regrouped as zipped ``(T, R)``, tiled ``(T, R0, R1, ...)``
    or flat ``(T0, T1, ..., R0, R1, ...)`` (``zip2_by`` by the tiler, then spread).

    >>> unzip_modes(((2, 3), (4, 5)), ((1, 2), (6, 24)), (2, 4), True, True)
    ((2, 4, 3, 5), (1, 6, 2, 24))
    """
    (t_s, r_s), (t_d, r_d) = zip2_by(shape, stride, tiler)
    if not tiled:
        return (t_s, r_s), (t_d, r_d)
    if type(r_s) is not tuple:
        r_s, r_d = (r_s,), (r_d,)
    if not flat:
        return (t_s,) + r_s, (t_d,) + r_d
    if type(t_s) is not tuple:
        t_s, t_d = (t_s,), (t_d,)
    return t_s + r_s, t_d + r_d

