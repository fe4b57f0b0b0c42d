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
"""

from __future__ import annotations

import functools
from math import gcd

import numpy as np

from ..errors import LayoutError
from .._ints import as_instance, as_positive, ceil_div, check_table
from ._flat import coalesce_lists as _coalesce_lists
from .evaluate import evaluate
from .inttuple import int_tuple_str, normalize, prefix_product, product_each
from .layout import Layout, _make, make_layout, make_ordered_layout
from .swizzle import ComposedLayout, Swizzle

__all__ = [
    "coalesce", "filter", "composition", "complement", "right_inverse", "left_inverse",
    "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
    "logical_product", "zipped_product", "tiled_product", "flat_product",
    "blocked_product", "raked_product", "tile_to_shape", "upcast", "downcast", "recast_layout",
]

_ONE = _make(1, 0, ((1,), (0,), 1))


def _flat(layout: Layout):
    """``(leaf shapes, leaf strides, size)``, cached on the layout (``LayoutError`` for anything but a Layout)."""
    if not isinstance(layout, Layout):
        as_instance(layout, Layout, "layout", "a CuTe Layout")
    f = layout._flat
    return f if f is not None else layout.flat()


def _from_lists(shapes, strides) -> Layout:
    """Layout from flat mode lists: none -> ``1:0``, one -> integral, more -> tuple."""
    n = len(shapes)
    if n == 0:
        return _ONE
    if n == 1:
        s, d = shapes[0], strides[0]
        return _make(s, d, ((s,), (d,), s))
    size = 1
    for v in shapes:
        size *= v
    sh, st = tuple(shapes), tuple(strides)
    return _make(sh, st, (sh, st, size))


def _inner(x):
    """The layout an algebra operation acts on, and a function re-wrapping the result."""
    if type(x) is Layout:
        return x, None
    if isinstance(x, ComposedLayout):
        return x.inner, lambda r: ComposedLayout(x.outer, x.offset, r)
    raise LayoutError(f"expected a Layout or ComposedLayout, got {type(x).__name__}")


def _acts_on_inner(op):
    """Let ``op(layout, ...)`` take a ComposedLayout too: it acts on the inner layout, then re-wraps."""

    @functools.wraps(op)
    def wrapper(layout, *args, **kwargs):
        if type(layout) is Layout:
            return op(layout, *args, **kwargs)
        inner, wrap = _inner(layout)
        return wrap(op(inner, *args, **kwargs))

    return wrapper


def coalesce(layout, profile=None):
    """Merge modes into the fewest equivalent modes (C++ ``coalesce``).

    Flattens, drops size-1 modes, merges ``s0:d0, s1:d1`` when ``s0 * d0 == d1``.
    A tuple ``profile`` coalesces mode ``i`` with ``profile[i]`` and keeps later
    modes as they are.

    **Post-conditions:** ``R.size == L.size``, ``R(i) == L(i)`` for ``i < size``,
    ``depth(R) <= 1`` without a profile.

    >>> coalesce(Layout((2, (1, 6)), (1, (6, 2))))
    Layout(12, 1)
    >>> coalesce(Layout(((2, 3), 4, 5), ((1, 2), 6, 24)), (1, 1, 1))
    Layout((6, 4, 5), (1, 6, 24))
    """
    if profile is None and type(layout) is Layout:  # the common case, without the ComposedLayout wrapper
        f = layout._flat or layout.flat()
        return _from_lists(*_coalesce_lists(f[0], f[1]))
    return _coalesce(layout, profile)


@_acts_on_inner
def _coalesce(layout, profile=None):
    if isinstance(profile, tuple):
        if len(profile) > layout.rank:
            raise LayoutError(f"coalesce: profile of rank {len(profile)} for a rank-{layout.rank} layout {layout}")
        modes = [coalesce(layout[i], profile[i]) if i < len(profile) else layout[i] for i in range(layout.rank)]
        return make_layout(*modes)
    shapes, strides, _ = _flat(layout)
    return _from_lists(*_coalesce_lists(shapes, strides))


def _coalesce_x(layout: Layout, plain=None):
    """Coalesce keeping the layout's values outside its domain: a trailing size-1 mode counts as 2.

    ``plain``, when given, is the layout's plain ``_coalesce_lists``, which this extends.
    """
    shapes, strides, _ = _flat(layout)
    if shapes[-1] != 1:
        return plain if plain is not None else _coalesce_lists(shapes, strides)
    rs, rd = _coalesce_lists(shapes[:-1], strides[:-1]) if plain is None else (list(plain[0]), list(plain[1]))
    d = strides[-1]
    if rs and rs[-1] * rd[-1] == d:
        rs[-1] *= 2
    else:
        rs.append(2)
        rd.append(d)
    return rs, rd


@_acts_on_inner
def filter(layout, profile=None):  # noqa: A001 - CuTe's name
    """Drop stride-0 modes (their size becomes 1), then coalesce (C++ ``filter``).

    **Post-condition:** the image of R is the image of L.

    >>> filter(Layout((2, 4, 3), (1, 0, 4)))
    Layout((2, 3), (1, 4))
    """
    if isinstance(profile, tuple):
        return coalesce(_make(_filter_zeros(layout.shape, layout.stride), layout.stride), profile)
    shapes, strides, _ = _flat(layout)
    return _from_lists(*_coalesce_lists(shapes, strides, drop_zero_strides=True))


def _filter_zeros(shape, stride):
    if isinstance(shape, tuple):
        return tuple(map(_filter_zeros, shape, stride))
    return 1 if stride == 0 else shape


# -- composition ---------------------------------------------------------------


def _as_layout(b) -> Layout:
    if isinstance(b, Layout):
        return b
    return Layout(b)  # int n -> n:1, shape -> column-major


@_acts_on_inner
def composition(a, b):
    """Functional composition ``R = A o B``: ``R(c) == A(B(c))``, R compatible with B.

    ``b`` may be a layout, an int ``n`` (``n:1``), ``None`` (A unchanged) or a
    tuple tiler ``<B0, B1, ...>`` of those (and of shapes), applied mode by mode;
    a tiler shorter than A drops A's extra modes (C++).

    **Pre-conditions:** the divisibility of ``B``'s strides and shapes by A's
    modes (C++'s static_asserts), else ``LayoutError``.
    **Post-conditions:** ``shape(R)`` is compatible with ``shape(B)``;
    ``R(i) == A(B(i))`` for ``i < size(B)`` when B is injective and
    ``composition(A, coalesce(B))`` is defined too. (As in C++, a multi-mode B is
    composed mode by mode, which assumes A adds up across B's modes.)

    >>> str(composition(Layout((12, (4, 8)), (59, (13, 1))), (3, 8)))
    '(3,(4,2)):(59,(13,1))'
    >>> composition(Layout((6, 2), (1, 10)), Layout(4, 4))
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: composition: stride divisibility fails: stride 4 of 4:4 does not divide evenly into mode 6 of (6,2):(1,10)
    """
    return _compose(a, b)


def _compose(a: Layout, b, cx=None) -> Layout:
    if b is None:
        return a
    tb = type(b)
    if tb is tuple:
        if len(b) > a.rank:
            raise LayoutError(f"composition: tiler of rank {len(b)} is longer than layout {a} of rank {a.rank}")
        if type(a.shape) is not tuple:
            return make_layout(_compose(a, b[0]))
        parts = [_compose(_make(a.shape[i], a.stride[i]), bi) for i, bi in enumerate(b)]
        return _make(tuple(p.shape for p in parts), tuple(p.stride for p in parts))
    if tb is not Layout:
        b = _as_layout(b)
    if cx is None:
        cx = _coalesce_x(a)
    if type(b.shape) is int:
        return _make(*_compose_leaf(a, cx, b.shape, b.stride))
    return _make(*_compose_tree(a, cx, b.shape, b.stride))


def _compose_tree(a, cx, s, d):
    """Compose A with each leaf of B, keeping B's hierarchy: ``(shape, stride)``."""
    rs, rd = [], []
    for si, di in zip(s, d):
        ps, pd = _compose_tree(a, cx, si, di) if type(si) is tuple else _compose_leaf(a, cx, si, di)
        rs.append(ps)
        rd.append(pd)
    return tuple(rs), tuple(rd)


def _compose_leaf(a: Layout, cx, s: int, d: int):
    """A o (s:d) for A coalesced (with coalesce_x) into the flat modes ``cx``: ``(shape, stride)``."""
    if d == 0:
        return s, 0
    shapes, strides = cx
    last = len(shapes) - 1
    if last <= 0:
        return s, d * (strides[0] if strides else 0)
    rs, rd = [], []
    rest_shape, rest_stride = s, d
    for i in range(last):
        c = shapes[i]
        r = rest_stride if rest_stride > 0 else -rest_stride
        next_shape = -(-c // r)
        next_stride = (r + c - 1) // c if rest_stride > 0 else -((r + c - 1) // c)
        if r % c != 0 and (r >= c or (c % r != 0 and rest_shape > next_shape)):
            raise LayoutError(
                f"composition: stride divisibility fails: stride {d} of {s}:{d} does not divide evenly into "
                f"mode {c} of {a}"
            )
        if next_shape == 1 or rest_shape == 1:
            rest_stride = next_stride
            continue
        n = next_shape if next_shape < rest_shape else rest_shape
        if rest_shape % n != 0:
            raise LayoutError(
                f"composition: shape divisibility fails: size {s} of {s}:{d} is not divisible by {n} "
                f"(what fits in mode {c} of {a})"
            )
        rs.append(n)
        rd.append(rest_stride * strides[i])
        rest_shape //= n
        rest_stride = next_stride
    if not rs:
        return rest_shape, rest_stride * strides[last]
    if rest_shape != 1:
        rs.append(rest_shape)
        rd.append(rest_stride * strides[last])
    return (rs[0], rd[0]) if len(rs) == 1 else (tuple(rs), tuple(rd))


# -- complement and inverses ---------------------------------------------------


def complement(layout, cotarget=None):
    """The layout of the offsets that ``layout`` does not reach, up to ``cotarget``.

    ``cotarget`` is an int, a shape, or ``None`` (``cosize(filter(L))``).

    **Pre-conditions:** L is injective on its non-zero-stride modes and has no
    negative strides, else ``LayoutError``.
    **Post-conditions:** R's strides increase; R(i) != L(j) unless both are 0
    (i, j > 0); ``cosize(make_layout(L, R)) >= size(cotarget)``.

    >>> str(complement(Layout((2, 2), (1, 6)), 24)), str(complement(Layout(4, 0), 24))
    ('(3,2):(2,12)', '24:1')
    """
    inner = layout if type(layout) is Layout else _inner(layout)[0]
    if cotarget is not None and type(cotarget) is not int:
        cotarget = normalize(cotarget, "complement cotarget")
    return _complement(inner, cotarget)


def _complement(inner: Layout, cotarget) -> Layout:
    """complement for a validated cotarget: None, an int, a shape, or a list of a shape's leaves."""
    shapes, strides, _ = _flat(inner)
    modes = [(d, s) for s, d in zip(shapes, strides) if s != 1 and d != 0]  # filter
    if cotarget is None:
        cotarget = 1 + sum((s - 1) * abs(d) for d, s in modes)
    if not modes:
        if type(cotarget) is list:
            cotarget = cotarget[0] if len(cotarget) == 1 else tuple(cotarget)
        return _make(cotarget, 1) if type(cotarget) is int else Layout(cotarget)
    # Each gap below a mode's stride becomes a mode (q : cur), coalesced as it is appended.
    rs, rd, cur = [], [], 1
    for d, s in (sorted(modes) if len(modes) > 1 else modes):
        if d < 0:
            raise LayoutError(f"complement: layout {inner} has a negative stride {d}")
        q = d // cur
        if q == 0:
            raise LayoutError(f"complement: layout {inner} is not injective (stride {d} falls inside earlier modes)")
        if q != 1:
            if rs and rs[-1] * rd[-1] == cur:
                rs[-1] *= q
            else:
                rs.append(q)
                rd.append(cur)
        cur = d * s
    # The rest: ceil_div(cotarget, cur) folded over the cotarget's leaves, strides compact from cur.
    rest = cur
    tc = type(cotarget)
    for v in ((cotarget,) if tc is int else cotarget if tc is list else _make(cotarget, cotarget).flat()[0]):
        n = -(-v // rest)
        rest = -(-rest // v) if v else 1  # a cotarget leaf of 0 adds a mode of size 0, as pycute and C++ do
        if n != 1:
            if rs and rs[-1] * rd[-1] == cur:
                rs[-1] *= n
            else:
                rs.append(n)
                rd.append(cur)
        cur *= n
    return _from_lists(rs, rd)


def right_inverse(layout):
    """A layout R with ``L(R(i)) == i`` for ``i < size(R)`` (C++ ``right_inverse``).

    Modes with stride 0 or negative strides are skipped (C++), so R may be smaller than L.
    A Swizzle is its own inverse. For a swizzled ``Sw o 0 o B`` the result is, as
    in C++ ``swizzle_layout.hpp``, ``right_inverse(B) o Sw`` with the swizzle
    passed through to the left: ``Sw' o 0 o right_inverse(B)``, ``Sw'`` built from
    the images of Sw's bit masks (see ``_pass_swizzle``).

    >>> str(right_inverse(Layout((2, 4, 6), (4, 1, 8)))), str(right_inverse(Layout((4, 2), (0, 1))))
    ('(4,2,6):(2,1,8)', '2:4')
    >>> C = ComposedLayout(Swizzle(1, 0, 2), 0, Layout((4, 4), (4, 1)))
    >>> R = right_inverse(C)
    >>> str(R), all(C(R(i)) == i for i in range(R.size))
    ('Sw<1,0,-2> o 0 o (4,4):(4,1)', True)
    """
    if type(layout) is Layout:
        return _right_inverse(layout)
    if isinstance(layout, Swizzle):
        return layout
    if isinstance(layout, ComposedLayout):
        return _composed_inverse(layout, _right_inverse(layout.inner), "right_inverse")
    _flat(layout)  # a LayoutError naming the argument for anything but a Layout
    return _right_inverse(layout)


def _right_inverse(layout: Layout) -> Layout:
    f = layout._flat or _flat(layout)
    shapes, strides = _coalesce_lists(f[0], f[1])
    prefix, p = [], 1
    for v in shapes:
        prefix.append(p)
        p *= v
    rs, rd, cur = [], [], 1
    for i in sorted(range(len(shapes)), key=strides.__getitem__):
        if strides[i] == cur:
            rs.append(shapes[i])
            rd.append(prefix[i])
            cur = shapes[i] * strides[i]
    return _from_lists(*_coalesce_lists(rs, rd))


def left_inverse(layout):
    """A layout R with ``L(R(L(i))) == L(i)``; ``R(L(i)) == i`` for injective L (C++ ``left_inverse``).

    **Pre-conditions:** every non-zero stride, in increasing order, is a multiple
    of the size covered by the smaller ones; no negative strides. A Swizzle is
    its own inverse; a swizzled ``Sw o 0 o B`` gives ``Sw' o 0 o left_inverse(B)``
    as ``right_inverse`` does.

    >>> str(left_inverse(Layout((4, 2), (1, 16)))), str(left_inverse(Layout((4, 2), (0, 1))))
    ('(16,2):(1,4)', '2:4')
    >>> C = ComposedLayout(Swizzle(2, 1, 2), 0, Layout((4, 8), (8, 1)))
    >>> R = left_inverse(C)
    >>> str(R), all(R(C(i)) == i for i in range(C.size))
    ('Sw<2,0,-3> o 0 o (8,4):(4,1)', True)
    """
    if isinstance(layout, Swizzle):
        return layout
    if isinstance(layout, ComposedLayout):
        return _composed_inverse(layout, _left_inverse(layout.inner), "left_inverse")
    return _left_inverse(layout)


def _left_inverse(layout: Layout) -> Layout:
    shapes, strides = _coalesce_lists(*_flat(layout)[:2])
    prefix = prefix_product(tuple(shapes))
    order = sorted(range(len(shapes)), key=strides.__getitem__)
    rs, rd, covered = [], [0], 1
    for i in order:
        d = strides[i]
        if d == 0:
            continue
        if d < 0:
            raise LayoutError(f"left_inverse: layout {layout} has a negative stride {d}")
        if d % covered != 0:
            raise LayoutError(f"left_inverse: stride {d} of {layout} is not a multiple of {covered}: not invertible")
        rs.append(d // covered)
        rd.append(prefix[i])
        covered *= d // covered
    rs.append(shapes[order[-1]] if order else 1)
    return _from_lists(*_coalesce_lists(rs, rd))


def _composed_inverse(c: ComposedLayout, inv: Layout, name: str):
    """C++ ``X_inverse(Sw o 0 o B) = composition(X_inverse(B), Sw)``, checked to be the inverse it claims.

    The checks refuse what C++ leaves to a static_assert or to chance: an outer
    Layout or a non-zero offset (C++ builds ``inv o -offset o Sw``, which has a
    swizzle inside and is no unilayout ComposedLayout), a swizzle that does not
    pass through ``inv``, and a result that is not the inverse on the domain.
    """
    sw = c.outer
    if not isinstance(sw, Swizzle):
        raise LayoutError(f"{name}: {c} has a Layout outer function; CuTe inverts only swizzled layouts")
    if c.offset != 0:
        raise LayoutError(
            f"{name}: {c} has offset {c.offset}; its inverse {inv} o {-c.offset} o {sw} keeps a swizzle inside, "
            "which a ComposedLayout cannot hold"
        )
    if sw.bits == 0:
        return inv  # the identity swizzle (C++ composition(Swizzle<0,M,S>, 0, L) is L)
    result = ComposedLayout(_pass_swizzle(sw, inv, name), 0, inv)
    if name == "right_inverse":
        domain = np.arange(check_table(result.size, name), dtype=np.int64)
        ok = np.array_equal(evaluate(c, evaluate(result, domain)), domain)
    else:
        domain = np.arange(check_table(c.size, name), dtype=np.int64)
        ok = np.array_equal(evaluate(result, evaluate(c, domain)), domain)
    if not ok:
        raise LayoutError(f"{name}: {sw} does not pass through {inv} as a swizzle: {c} has no {name} CuTe can express")
    return result


def _pass_swizzle(sw: Swizzle, layout: Layout, name: str) -> Swizzle:
    """C++ ``composition(layout, sw)`` = ``make_swizzle<layout(yyy), layout(zzz)>() o layout``: the new swizzle.

    ``make_swizzle<Y, Z>`` needs as many Y bits as Z bits, each a contiguous
    run: B = popcount, M = min(ctz(Y), ctz(Z)), S = ctz(Y) - ctz(Z).
    """
    b = sw.bits
    yyy = ((1 << b) - 1) << (sw.base + max(0, sw.shift))
    zzz = ((1 << b) - 1) << (sw.base - min(0, sw.shift))
    y, z = layout(yyy), layout(zzz)
    bits = bin(y).count("1") if y > 0 else -1
    if y > 0 and z > 0 and bits == bin(z).count("1"):
        ty, tz = (y & -y).bit_length() - 1, (z & -z).bit_length() - 1
        m, s = min(ty, tz), ty - tz
        if abs(s) >= bits and y | z == ((1 << bits) - 1) << (m + max(0, s)) | ((1 << bits) - 1) << (m - min(0, s)):
            return Swizzle(bits, m, s)
    raise LayoutError(
        f"{name}: {sw} does not pass through {layout}: its bit masks {yyy:#b}, {zzz:#b} map to {y:#b}, {z:#b}, "
        "not two runs of equally many bits"
    )


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
        return _make(tuple(rs) + shape[k:], tuple(rd) + stride[k:])
    return _make(*_divide(a, tiler))


def _divide(a: Layout, tiler):
    """``(shape, stride)`` of ``A o (B, complement(B, shape(coalesce(A))))`` for a layout (or int) tiler B."""
    b = tiler if type(tiler) is Layout else _as_layout(tiler)
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
    return _make(tuple(p.shape for p in parts) + a.shape[k:], tuple(p.stride for p in parts) + a.stride[k:])


def _zip2(shape, stride, guide):
    """C++ ``zip2_by``: regroup ``((T0,R0),(T1,R1),...,extra...)`` into ``((T0,T1,...),(R0,R1,...,extra...))``."""
    if type(guide) is not tuple:
        if type(shape) is not tuple or len(shape) != 2:
            raise LayoutError(f"cannot split mode {shape} into (tile, rest)")
        return shape, stride
    k = len(guide)
    if type(shape) is not tuple or len(shape) < k:
        raise LayoutError(f"cannot split mode {shape} by a tiler of rank {k}")
    split = [_zip2(shape[i], stride[i], guide[i]) for i in range(k)]
    t_s = tuple(p[0][0] for p in split)
    r_s = tuple(p[0][1] for p in split) + shape[k:]
    t_d = tuple(p[1][0] for p in split)
    r_d = tuple(p[1][1] for p in split) + stride[k:]
    return (t_s, r_s), (t_d, r_d)


def _unzip(r: Layout, tiler, tiled: bool, flat: bool) -> Layout:
    """Regroup a logical divide/product as zipped (``(T, R)``), tiled (``(T, R0, R1, ...)``) or flat."""
    (t_s, r_s), (t_d, r_d) = _zip2(r.shape, r.stride, tiler)
    if not tiled:
        return _make((t_s, r_s), (t_d, r_d))
    if type(r_s) is not tuple:
        r_s, r_d = (r_s,), (r_d,)
    if not flat:
        return _make((t_s,) + r_s, (t_d,) + r_d)
    if type(t_s) is not tuple:
        t_s, t_d = (t_s,), (t_d,)
    return _make(t_s + r_s, t_d + r_d)


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


def _pad(layout: Layout, r: int) -> Layout:
    if layout.rank >= r:
        return layout
    modes = list(layout) if isinstance(layout.shape, tuple) else [layout]
    return make_layout(*modes, *([_ONE] * (r - len(modes))))


def _block_rake(a: Layout, b: Layout, raked: bool) -> Layout:
    _flat(a)  # a LayoutError for anything but a Layout
    b = _as_layout(b)
    r = max(a.rank, b.rank)
    a2, b2 = _pad(a, r), _pad(b, r)
    p1 = _compose(complement(a2, a2.size * b2.cosize), b2)
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
    grid = Layout(counts) if order is None else make_ordered_layout(counts, order)
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

    def leaf(s, d):
        if d == 0:
            return s, 0
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
    g = gcd(new_bits, old_bits)
    num, den = new_bits // g, old_bits // g
    if num != 1:
        layout = upcast(num, layout)
    if den != 1:
        layout = downcast(den, layout)
    return layout
