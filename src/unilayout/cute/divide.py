"""Divides, products and casts: CuTe's tiling algebra, written with composition and complement.

``logical_divide(A, B)`` is ``A o (B, complement(B, size(A)))``: mode 0 walks
one tile, mode 1 the tiles. ``logical_product(A, B)`` is ``(A,
complement(A, size(A)*cosize(B)) o B)``: A repeated along B. The zipped,
tiled and flat forms regroup the same layout; blocked and raked products
repeat a block over a grid mode by mode; ``tile_to_shape`` repeats a block
until it covers a shape; ``upcast``/``downcast``/``recast_layout`` view a
layout in wider or narrower elements.

>>> from unilayout.cute import Layout
>>> D = logical_divide(Layout((6, 8), (8, 1)), (3, 4))
>>> str(D), str(zipped_divide(Layout((6, 8), (8, 1)), (3, 4)))
('((3,2),(4,2)):((8,24),(1,4))', '((3,4),(2,2)):((8,1),(24,4))')
>>> str(blocked_product(Layout((3, 4), (4, 1)), Layout((2, 5), (1, 2))))
'((3,2),(4,5)):((4,12),(1,24))'
>>> str(upcast(2, Layout((8, 4), (1, 8))))
'(4,4):(1,4)'

Worked divide of the 1-D layout ``8:1`` by the tile ``2:1``: the complement
of ``2:1`` in 8 is ``4:2``, so the result is ``(2,4):(1,2)`` and element
``(t, r)`` is ``t + 2r``::

             r=0  r=1  r=2  r=3
    t=0       0    2    4    6
    t=1       1    3    5    7

>>> str(logical_divide(Layout(8, 1), Layout(2, 1)))
'(2,4):(1,2)'

Like the functions of ``cute.compose``, each accepts a ``ComposedLayout`` and
acts on its inner layout; all are importable from ``cute.algebra`` too.
"""

from __future__ import annotations

from math import gcd

from .._ints import as_positive, ceil_div
from ..errors import LayoutError
from . import dyn_algebra as _dyn
from ._flat import coalesce_lists as _coalesce_lists
from .compose import (
    _ONE,
    _acts_on_inner,
    _as_layout,
    _coalesce_x,
    _complement,
    _compose,
    _compose_tree,
    _flat,
    complement,
)
from .inttuple import int_tuple_str, normalize, product_each, unzip_modes
from .inttuple import permutation_order as _order
from .layout import DynLayout, Layout, _make, _retag, make_layout, make_ordered_layout
from .swizzle import ComposedLayout, Swizzle

__all__ = [
    "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
    "logical_product", "zipped_product", "tiled_product", "flat_product",
    "blocked_product", "raked_product", "tile_to_shape", "upcast", "downcast", "recast_layout",
]


# -- divides -------------------------------------------------------------------


@_acts_on_inner
def logical_divide(layout, tiler):
    """Split ``layout`` into (tile, rest) by ``tiler`` (C++ ``logical_divide``).

    A layout tiler gives ``A o (B, complement(B, shape(coalesce(A))))``; a tuple
    tiler divides mode by mode, keeping A's extra modes.

    **Post-conditions:** ``size(R) == size(A)``; ``R[0]`` is ``A o B``.

    >>> str(logical_divide(Layout((6, 8), (8, 1)), Layout((3, 4), (1, 3))))
    '((3,(2,2)),4):((8,(24,1)),2)'
    """
    return _logical_divide(layout, tiler)


def _logical_divide(a: Layout, tiler) -> Layout:
    if tiler is None:
        return a
    if type(tiler) is tuple:
        shape, stride = a.shape, a.stride
        k = len(tiler)
        if type(shape) is not tuple or k > len(shape):
            return _by_mode(a, tiler, _logical_divide, "logical_divide")
        rs, rd = [], []  # mode by mode, building one Layout at the end
        for i in range(k):
            t = tiler[i]
            if t is None:
                rs.append(shape[i])
                rd.append(stride[i])
                continue
            if type(t) is tuple:
                p = _logical_divide(_make(shape[i], stride[i]), t)
                ps, pd = p.shape, p.stride
            else:
                ps, pd = _divide(_make(shape[i], stride[i]), t)
            rs.append(ps)
            rd.append(pd)
        r = _make(tuple(rs) + shape[k:], tuple(rd) + stride[k:])
        types = set(map(type, tiler))
        return r if types <= _STATIC_TILERS else _retag(r)  # a dynamic tiler mode gives dynamic leaves
    return _make(*_divide(a, tiler))


_STATIC_TILERS = {int, Layout, type(None)}


def _divide(a: Layout, tiler):
    """``(shape, stride)`` of ``A o (B, complement(B, shape(coalesce(A))))`` for a layout (or int) tiler B."""
    b = tiler if type(tiler) is Layout else _as_layout(tiler)
    if type(b) is DynLayout:
        r = _dyn.logical_divide(a, b)
        return r.shape, r.stride
    plain = _coalesce_lists(*_flat(a)[:2])
    c = _complement(b, plain[0] or 1)  # cotarget: the leaves of shape(coalesce(A))
    return _compose_tree(a, _coalesce_x(a, plain), (b.shape, c.shape), (b.stride, c.stride))


def _by_mode(a: Layout, tiler: tuple, op, name: str) -> Layout:
    """Apply ``op(a[i], tiler[i])`` to the first len(tiler) modes, keeping a's extra modes."""
    k = len(tiler)
    if type(a.shape) is not tuple:
        if k > 1:
            raise LayoutError(f"{name}: tiler of rank {k} is longer than layout {a} of rank 1")
        return make_layout(op(a, tiler[0])) if k else a
    if k > len(a.shape):
        raise LayoutError(f"{name}: tiler of rank {k} is longer than layout {a} of rank {len(a.shape)}")
    parts = [op(_make(a.shape[i], a.stride[i]), tiler[i]) for i in range(k)]
    r = _make(tuple(p.shape for p in parts) + a.shape[k:], tuple(p.stride for p in parts) + a.stride[k:])
    return r if DynLayout not in map(type, parts) else _retag(r)


def _unzip(r: Layout, tiler, tiled: bool, flat: bool) -> Layout:
    """Regroup a logical divide/product as zipped (``(T, R)``), tiled (``(T, R0, R1, ...)``) or flat."""
    out = _make(*unzip_modes(r.shape, r.stride, tiler, tiled, flat))
    return out if type(r) is not DynLayout else _retag(out)


@_acts_on_inner
def zipped_divide(layout, tiler):
    """``((T0,T1,...),(R0,R1,...,extra...))``: tiles in mode 0, rests in mode 1.

    >>> str(zipped_divide(Layout((6, 8), (8, 1)), (3, 4)))
    '((3,4),(2,2)):((8,1),(24,4))'
    """
    return _unzip(_logical_divide(layout, tiler), tiler, False, False)


@_acts_on_inner
def tiled_divide(layout, tiler):
    """``((T0,T1,...),R0,R1,...,extra...)``.

    >>> str(tiled_divide(Layout((6, 8), (8, 1)), (3, 4)))
    '((3,4),2,2):((8,1),24,4)'
    """
    return _unzip(_logical_divide(layout, tiler), tiler, True, False)


@_acts_on_inner
def flat_divide(layout, tiler):
    """``(T0,T1,...,R0,R1,...,extra...)``.

    >>> str(flat_divide(Layout((6, 8), (8, 1)), (3, 4)))
    '(3,4,2,2):(8,1,24,4)'
    """
    return _unzip(_logical_divide(layout, tiler), tiler, True, True)


# -- products ------------------------------------------------------------------


@_acts_on_inner
def logical_product(layout, tiler):
    """Repeat ``layout`` by ``tiler`` (C++ ``logical_product``): ``(A, complement(A, size(A)*cosize(B)) o B)``.

    A tuple tiler multiplies mode by mode (A's extra modes kept); an int ``n``
    is the layout ``n:1`` (a product, unlike pycute).

    **Post-conditions:** ``R[0] == A``; ``size(R) == size(A) * size(B)``.

    >>> str(logical_product(Layout((2, 2), (4, 1)), Layout(6, 1)))
    '((2,2),(2,3)):((4,1),(2,8))'
    """
    return _logical_product(layout, tiler)


def _logical_product(a: Layout, tiler) -> Layout:
    if tiler is None:
        return a
    if type(tiler) is tuple:
        return _by_mode(a, tiler, _logical_product, "logical_product")
    b = tiler if type(tiler) is Layout else _as_layout(tiler)
    if type(b) is DynLayout:
        return _dyn.logical_product(a, b)
    _integral_tiler(b, "logical_product")
    p = _compose(_complement(a, a.size * b.cosize), b)
    return _make((a.shape, p.shape), (a.stride, p.stride))


@_acts_on_inner
def zipped_product(layout, tiler):
    """``logical_product`` regrouped as ``((A0,A1,...),(B0,B1,...,extra...))``.

    >>> str(zipped_product(Layout((2, 2)), (3, 4)))
    '((2,2),(3,(2,2))):((1,2),(2,(1,4)))'
    """
    return _unzip(_logical_product(layout, tiler), tiler, False, False)


@_acts_on_inner
def tiled_product(layout, tiler):
    """``logical_product`` regrouped as ``((A0,A1,...),B0,B1,...,extra...)``.

    >>> str(tiled_product(Layout((2, 2)), (3, 4)))
    '((2,2),3,(2,2)):((1,2),2,(1,4))'
    """
    return _unzip(_logical_product(layout, tiler), tiler, True, False)


@_acts_on_inner
def flat_product(layout, tiler):
    """``logical_product`` regrouped as ``(A0,A1,...,B0,B1,...,extra...)``.

    >>> str(flat_product(Layout((2, 2)), (3, 4)))
    '(2,2,3,(2,2)):(1,2,2,(1,4))'
    """
    return _unzip(_logical_product(layout, tiler), tiler, True, True)


def _integral_tiler(b: Layout, name: str) -> None:
    """A product repeats along the tiler's offsets: basis strides (coordinates) have none (CuTe IR rejects them)."""
    for d in _flat(b)[1]:
        if type(d) is not int:
            raise LayoutError(f"{name}: the tiler {b} has basis strides; a product takes an integral-strided tiler")


def _pad(layout: Layout, r: int) -> Layout:
    if layout.rank >= r:
        return layout
    modes = list(layout) if isinstance(layout.shape, tuple) else [layout]
    return make_layout(*modes, *([_ONE] * (r - len(modes))))


def _block_rake(a: Layout, b: Layout, raked: bool) -> Layout:
    _flat(a)  # a LayoutError for anything but a Layout
    b = _as_layout(b)
    if type(b) is DynLayout:
        return _dyn.raked_product(a, b) if raked else _dyn.blocked_product(a, b)
    _integral_tiler(b, "raked_product" if raked else "blocked_product")
    r = max(a.rank, b.rank)
    a2, b2 = _pad(a, r), _pad(b, r)
    cot = a2.size * b2.cosize
    p1 = _compose(_complement(a2, cot) if type(a2) is Layout else complement(a2, cot), b2)  # a basis A: CuTe IR's
    first, second = (p1, a2) if raked else (a2, p1)
    if type(first.shape) is int:  # C++ zip of an integral mode wraps the pair whole: ((A, P1))
        return make_layout(make_layout(first, second))
    return make_layout(*(make_layout(first[i], second[i]) for i in range(r)))


@_acts_on_inner
def blocked_product(layout, tiler):
    """Repeat the block ``layout`` over the grid ``tiler``, mode by mode: mode i is ``(A_i, tiler_i)``.

    Both are padded with ``1:0`` modes to the same rank; nothing is coalesced.

    **Post-conditions:** ``rank(R) == max(rank(A), rank(B))``; ``R[i][0] == A[i]``.

    >>> str(blocked_product(Layout((2, 2), (1, 2)), Layout((2, 3), (3, 1))))
    '((2,2),(2,3)):((1,12),(2,4))'
    """
    return _block_rake(layout, tiler, False)


@_acts_on_inner
def raked_product(layout, tiler):
    """Interleave ``layout`` across ``tiler``: mode i is ``(tiler_i, A_i)``.

    >>> str(raked_product(Layout((3, 4), (4, 1)), Layout((2, 5), (1, 2))))
    '((2,3),(5,4)):((12,4),(24,1))'
    """
    return _block_rake(layout, tiler, True)


@_acts_on_inner
def tile_to_shape(block, target_shape, order=None):
    """Repeat ``block`` (blocked_product) until it covers ``target_shape`` (C++ ``tile_to_shape``).

    ``target_shape`` is an int or a (nested) tuple; an int ``n`` is the rank-1
    target ``(n)``. The block is padded with ``1:0`` modes to the target's rank,
    the repeat counts are ``ceil_div(product_each(target), product_each(block))``
    (one per mode, rounding up as dynamic C++ does), laid out by ``order``
    (column-major by default) and ``blocked_product`` gives the result.

    **Pre-conditions:** ``rank(block) <= rank(target)``; positive target sizes.
    **Post-conditions:** mode ``i`` of R is ``(block_i, count_i)``, so
    ``product_each(shape(R))`` is the target's rounded up to whole blocks and
    ``R(((c0, 0), (c1, 0), ...)) == block(c0, c1, ...)``.

    >>> str(tile_to_shape(Layout((2, 2), (1, 2)), (8, 8)))
    '((2,4),(2,4)):((1,4),(2,16))'
    >>> str(tile_to_shape(Layout(4, 1), 16))
    '((4,(4))):((1,(4)))'
    """
    if _dyn.is_dynamic(target_shape):
        return _dyn.tile_to_shape(block, target_shape, order)
    trg = target_shape if type(target_shape) is int else normalize(target_shape, "tile_to_shape target")
    sizes = product_each(trg) if type(trg) is tuple else (trg,)  # C++ product_each wraps an int
    for i, t in enumerate(sizes):
        if t < 1:
            raise LayoutError(
                f"tile_to_shape: target {int_tuple_str(trg)} has a mode {i} of size {t}; sizes must be positive"
            )
    if block.rank > len(sizes):
        raise LayoutError(f"tile_to_shape: block {block} has rank {block.rank} > target rank {len(sizes)}")
    padded = _pad(block, len(sizes))
    have = product_each(padded.shape) if type(padded.shape) is tuple else (padded.size,)
    counts = tuple(ceil_div(t, b) for t, b in zip(sizes, have))
    grid = Layout(counts) if order is None else make_ordered_layout(counts, _order(order, len(counts)))
    return _block_rake(padded, grid, False)


# -- casts ---------------------------------------------------------------------


def _map_leaves(layout: Layout, fn) -> Layout:
    def go(s, d):
        if isinstance(s, tuple):
            pairs = [go(si, di) for si, di in zip(s, d)]
            return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)
        return fn(s, d)

    return _make(*go(layout.shape, layout.stride))


def upcast(n: int, layout):
    """View ``layout`` in elements ``n`` times larger (C++ ``upcast<N>``; ``upcast(L, n)`` is accepted too).

    Per leaf ``s:d``: stride 0 unchanged; else ``s -> ceil(s / ceil(n/|d|))``,
    ``d -> sign(d) * ceil(|d| / n)`` (needs ``d % n == 0 or n % d == 0``).

    >>> str(upcast(2, Layout((8, 4), (1, 8))))
    '(4,4):(1,4)'
    """
    if isinstance(n, (Layout, Swizzle, ComposedLayout)):
        n, layout = layout, n
    if isinstance(layout, Swizzle):
        return layout.upcast(n)
    if isinstance(layout, ComposedLayout):
        return ComposedLayout(upcast(n, layout.outer), layout.offset // n, upcast(n, layout.inner))
    n = as_positive(n, "upcast factor")
    if type(layout) is DynLayout:
        return _dyn.upcast(n, layout)

    def leaf(s, d):
        if d == 0:
            return s, 0
        if type(d) is not int:  # C++'s upcast divides a static integral stride; a ScaledBasis has none
            raise LayoutError(f"upcast: layout {layout} has the basis stride {d}: its values are coordinates, "
                              "not element offsets to widen")
        ad = abs(d)
        if ad % n != 0 and n % ad != 0:
            raise LayoutError(f"upcast: stride {d} and factor {n} must divide one another")
        return -(-s // -(-n // ad)), (1 if d > 0 else -1) * -(-ad // n)

    return _map_leaves(layout, leaf)


def downcast(n: int, layout):
    """View ``layout`` in elements ``n`` times smaller (C++ ``downcast<N>``; ``downcast(L, n)`` is accepted too).

    Needs a stride-1 leaf; stride-±1 leaves grow ``s -> s*n``, other strides ``d -> d*n``.

    >>> str(downcast(3, Layout((4, 4), (1, 4))))
    '(12,4):(1,12)'
    """
    if isinstance(n, (Layout, Swizzle, ComposedLayout)):
        n, layout = layout, n
    if isinstance(layout, Swizzle):
        return layout.downcast(n)
    if isinstance(layout, ComposedLayout):
        return ComposedLayout(downcast(n, layout.outer), layout.offset * n, downcast(n, layout.inner))
    n = as_positive(n, "downcast factor")
    if type(layout) is DynLayout:
        return _dyn.downcast(n, layout)
    if not any(abs(d) == 1 for d in _flat(layout)[1]):
        raise LayoutError(f"downcast: layout {layout} has no stride-1 mode to widen")
    return _map_leaves(layout, lambda s, d: (s * n, d) if abs(d) == 1 else (s, d * n))


def recast_layout(new_bits: int, old_bits: int, layout):
    """Reinterpret ``layout`` of ``old_bits``-wide elements as ``new_bits``-wide ones.

    Argument order of the CuTe DSL; ratio new/old reduced to num/den gives
    ``downcast(den, upcast(num, L))``.

    >>> str(recast_layout(4, 6, Layout((8, 4), (1, 8))))
    '(12,4):(1,12)'
    """
    new_bits, old_bits = as_positive(new_bits, "recast_layout new_bits"), as_positive(old_bits, "recast_layout old_bits")
    _flat(layout.inner if isinstance(layout, ComposedLayout) else layout)  # a LayoutError for a non-layout
    g = gcd(new_bits, old_bits)
    num, den = new_bits // g, old_bits // g
    if num != 1:
        layout = upcast(num, layout)
    if den != 1:
        layout = downcast(den, layout)
    return layout
