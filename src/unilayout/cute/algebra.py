"""The CuTe layout algebra: coalesce, composition, complement, inverses, divides, products, casts.

Every function is pure, follows CuTe C++ (see ``shared/reference/cute.md`` for
where pycute differs) and states its post-conditions as checkable predicates:

>>> from unilayout.cute import Layout
>>> A, B = Layout((6, 2), (8, 2)), Layout((4, 3), (3, 1))
>>> R = composition(A, B)
>>> str(R), all(R(i) == A(B(i)) for i in range(B.size))
('((2,2),3):((24,2),8)', True)
>>> str(complement(Layout(4, 2), 24))
'(2,3):(1,8)'
>>> str(logical_divide(Layout((6, 8), (8, 1)), (3, 4)))
'((3,2),(4,2)):((8,24),(1,4))'
>>> str(blocked_product(Layout((3, 4), (4, 1)), Layout((2, 5), (1, 2))))
'((3,2),(4,5)):((4,12),(1,24))'

A ``ComposedLayout`` (swizzle o offset o layout) is accepted wherever a layout
is: the operation acts on its inner layout.

The algebra lives in two files, and every name is importable from here:

=================  ===============================================================
``cute.compose``   coalesce, filter, composition, complement, right/left inverse
``cute.divide``    logical/zipped/tiled/flat divide and product, blocked/raked
                   product, tile_to_shape, upcast, downcast, recast_layout
here               append, prepend (C++ ``append<N>``, CuTe IR's ``append_to_rank``), dice, slice_
=================  ===============================================================
"""

from __future__ import annotations

from ..errors import LayoutError
from .compose import coalesce, complement, composition, filter, left_inverse, right_inverse
from .divide import (
    blocked_product,
    downcast,
    flat_divide,
    flat_product,
    logical_divide,
    logical_product,
    raked_product,
    recast_layout,
    tile_to_shape,
    tiled_divide,
    tiled_product,
    upcast,
    zipped_divide,
    zipped_product,
)
from .dyn import Dyn
from .inttuple import leaves
from .layout import Layout, _make_any, slice_and_offset
from .swizzle import ComposedLayout

__all__ = [
    "coalesce", "filter", "composition", "complement", "right_inverse", "left_inverse",
    "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
    "logical_product", "zipped_product", "tiled_product", "flat_product",
    "blocked_product", "raked_product", "tile_to_shape", "upcast", "downcast", "recast_layout",
]  # append and prepend are importable from here; they are not in the package's contract (shared design.md)


#: The largest rank ``append``/``prepend`` pad to (a tuple of that many modes is built).
MAX_PAD_RANK = 1 << 16


def append(x, elem, n: int):
    """``x`` padded at the end with copies of ``elem`` to rank ``n`` (C++ ``append<N>``, CuTe IR ``append_to_rank``).

    ``x`` is an int tuple (an int is rank 1), a Layout (``elem`` a Layout, usually ``1:0``) or a ComposedLayout
    (its inner layout is padded); a rank already ``>= n`` leaves ``x`` as it is. Dynamic leaves are carried.

    >>> append((4, 8), 1, 4), append(5, 1, 3), str(append(Layout(4, 1), Layout(1, 0), 3))
    ((4, 8, 1, 1), (5, 1, 1), '(4,1,1):(1,0,0)')
    """
    return _pad(x, elem, n, False)


def prepend(x, elem, n: int):
    """``x`` padded at the front with copies of ``elem`` to rank ``n`` (C++ ``prepend<N>``, ``prepend_to_rank``).

    >>> prepend((4, 8), 1, 4), str(prepend(Layout((4, 8), (1, 4)), Layout(1, 0), 3))
    ((1, 1, 4, 8), '(1,4,8):(0,1,4)')
    """
    return _pad(x, elem, n, True)


def dice(crd, x):
    """The modes of ``x`` where ``crd`` holds an integer (C++ ``dice``, CuTe IR's ``cute.dice``): slice's opposite.

    An integer in ``crd`` keeps the mode, ``None`` (CuTe's ``_``) drops it; a nested coordinate dices the
    nested modes, and what is kept is gathered into one tuple in order (C++ ``filter_tuple``). A scalar
    integer keeps all of ``x``, a scalar ``None`` none of it. ``x`` is an int tuple (a shape, a stride or a
    coordinate with ``None`` leaves), a Layout (shape and stride diced alike) or a ComposedLayout (its inner
    layout is diced). ``crd`` must be static and weakly congruent with ``x`` (a tuple of ``x``'s rank).

    >>> L = Layout(((2, 4), 3), ((1, 2), 8))
    >>> str(dice((1, None), L)), str(dice(((1, None), None), L)), dice((None, 1, 1), (0, None, 1))
    ('((2,4)):((1,2))', '(2):(1)', (None, 1))
    """
    crd = _coordinate(crd, "dice", (int,))
    if isinstance(x, ComposedLayout):
        return ComposedLayout(x.outer, x.offset, dice(crd, x.inner))
    if isinstance(x, Layout):
        _check_weakly_congruent(crd, x.shape, x, "dice")
        if type(crd) is int:
            return x
        return _make_any(_gather(crd, x.shape, True), _gather(crd, x.stride, True))
    return _tuple_op(crd, x, True, "dice")


def slice_(crd, x):
    """The modes of ``x`` where ``crd`` holds ``None`` (CuTe's ``_``): C++ ``slice`` (pycute's ``slice_``).

    The int tuple counterpart of ``slice_and_offset`` (whose sub-layout a Layout ``x`` gives): ``None`` keeps
    the mode, an integer (or a dynamic ``?``: its value does not matter) drops it, nested coordinates slice
    nested modes, and what is kept is gathered into one tuple in order; a scalar ``None`` keeps all of ``x``,
    a scalar integer none of it. ``crd`` must be weakly congruent with ``x``.

    >>> slice_((None, 1, None), (2, 3, 4)), slice_(((None, 1), None), (((2, 3), 4), (5, (6, 7))))
    ((2, 4), ((2, 3), (5, (6, 7))))
    >>> str(slice_((0, None), Layout((8, 4), (1, 8))))
    '(4):(8)'
    """
    crd = _coordinate(crd, "slice_", (int, Dyn))
    if isinstance(x, Layout):
        return slice_and_offset(crd, x)[0]
    return _tuple_op(crd, x, False, "slice_")


def _coordinate(crd, name, ints):
    """``crd`` as a tuple coordinate whose leaves are ``ints`` or None, else a LayoutError."""
    if isinstance(crd, list):
        crd = tuple(crd)
    if any(type(c) not in ints and c is not None for c in (leaves(crd) if type(crd) is tuple else (crd,))):
        kind = "static ints" if Dyn not in ints else "ints"
        raise LayoutError(f"{name}: the coordinate must be {kind} and None (_), got {crd!r:.60}")
    return crd


def _tuple_op(crd, x, keep_ints, name):
    """``dice``/``slice_`` of an int tuple ``x``."""
    if not isinstance(x, (tuple, int, Dyn)):  # a Swizzle, a string...
        raise LayoutError(f"{name}: takes an int tuple or a Layout{' or a ComposedLayout' if keep_ints else ''}, "
                          f"got {type(x).__name__}")
    _check_weakly_congruent(crd, x, x, name)
    if type(crd) is not tuple:
        return x if (crd is None) != keep_ints else ()
    return _gather(crd, x, keep_ints)


def _gather(c, t, keep_ints) -> tuple:
    """The modes of ``t`` that ``c`` keeps (ints if ``keep_ints``, else None), gathered as C++ filter_tuple."""
    if type(c) is tuple:
        return tuple(v for ci, ti in zip(c, t) for v in _gather(ci, ti, keep_ints))
    return (t,) if (c is None) != keep_ints else ()


def _check_weakly_congruent(c, t, whole, name):
    if type(c) is not tuple:
        return
    if type(t) is not tuple or len(c) != len(t):
        raise LayoutError(f"{name}: coordinate {c!r:.60} is not weakly congruent with {whole!s:.60}")
    for ci, ti in zip(c, t):
        _check_weakly_congruent(ci, ti, whole, name)


def _pad(x, elem, n, front):
    name = "prepend" if front else "append"
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_PAD_RANK:  # CuTe IR: a positive rank
        raise LayoutError(f"{name}: the rank must be an int in [1, {MAX_PAD_RANK}], got {n!r:.40}")
    if isinstance(x, ComposedLayout):
        return ComposedLayout(x.outer, x.offset, _pad(x.inner, elem, n, front))
    if isinstance(x, Layout):
        if not isinstance(elem, Layout):
            raise LayoutError(f"{name}: a layout pads with a layout (1:0 is C++'s default), got {elem!r:.40}")
        s, d = _pad(x.shape, elem.shape, n, front), _pad(x.stride, elem.stride, n, front)
        return x if s is x.shape else _make_any(s, d)
    if not isinstance(x, (tuple, int, Dyn)) or not isinstance(elem, (tuple, int, Dyn)):  # a Swizzle, a string...
        raise LayoutError(f"{name}: pads an int tuple with an int tuple (or a layout with a layout), "
                          f"got {type(x).__name__} and {type(elem).__name__}")
    t = x if isinstance(x, tuple) else (x,)
    if len(t) >= n:
        return x
    pad = (elem,) * (n - len(t))
    return pad + t if front else t + pad
