"""Composition and its building blocks: coalesce, filter, composition, complement, inverses.

These are CuTe's primitive operations on layouts; the divides and products
(``cute.divide``) are written with them. Every function is pure, follows
CuTe C++ (``shared/reference/cute.md`` says where pycute differs) and states
its post-conditions as checkable predicates:

>>> from unilayout.cute import Layout
>>> A, B = Layout((6, 2), (8, 2)), Layout((4, 3), (3, 1))
>>> R = composition(A, B)
>>> str(R), all(R(i) == A(B(i)) for i in range(B.size))
('((2,2),3):((24,2),8)', True)
>>> str(coalesce(Layout((2, 4), (1, 2)))), str(complement(Layout(4, 2), 24))
('8:1', '(2,3):(1,8)')
>>> L = Layout((4, 2), (2, 1))
>>> I = right_inverse(L)
>>> str(I), all(L(I(i)) == i for i in range(I.size))
('(2,4):(4,1)', True)

A ``ComposedLayout`` (swizzle o offset o layout) is accepted wherever a layout
is: the operation acts on its inner layout (``_acts_on_inner``). The helpers
here that take flat mode lists (``_flat``, ``_from_lists``, ``_coalesce_x``,
``_compose``, ``_complement``) are the hot paths of every algebra call: they
build results with ``layout._make`` and never re-validate.
"""

from __future__ import annotations

import functools

import numpy as np

from .._ints import as_instance, check_table
from ..errors import LayoutError
from . import dyn_algebra as _dyn
from ._flat import coalesce_lists as _coalesce_lists
from .basis import (
    ScaledBasis,
    coordinate_complement,
    coordinate_space,
    has_basis,
    left_inverse_modes,
    map_positions,
    mode_value,
    right_inverse_modes,
)
from .evaluate import evaluate
from .inttuple import at_mode, normalize, prefix_product
from .layout import DynLayout, Layout, _make, _retag, make_layout
from .swizzle import ComposedLayout, Swizzle

__all__ = ["coalesce", "filter", "composition", "complement", "right_inverse", "left_inverse"]


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
    if type(x) is Layout or type(x) is DynLayout:
        return x, None
    if isinstance(x, ComposedLayout):
        return x.inner, lambda r: ComposedLayout(x.outer, x.offset, r)
    raise LayoutError(f"expected a Layout or ComposedLayout, got {type(x).__name__}")


def _acts_on_inner(op):
    """Let ``op(layout, ...)`` take a ComposedLayout too: it acts on the inner layout, then re-wraps."""

    dyn_op = getattr(_dyn, op.__name__.lstrip("_"))

    @functools.wraps(op)
    def wrapper(layout, *args, **kwargs):
        if type(layout) is Layout:
            return op(layout, *args, **kwargs)
        if type(layout) is DynLayout:  # dynamic leaves: CuTe IR's inference (cute.dyn_algebra)
            return dyn_op(layout, *args, **kwargs)
        inner, wrap = _inner(layout)
        return wrap(wrapper(inner, *args, **kwargs))

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
    if profile is None and type(layout) is DynLayout:
        return _dyn.coalesce(layout)
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
        r = _make(tuple(p.shape for p in parts), tuple(p.stride for p in parts))
        return r if DynLayout not in map(type, parts) else _retag(r)  # a dynamic tiler mode
    if tb is not Layout:
        b = _as_layout(b)
        if type(b) is DynLayout:
            return _dyn.composition(a, b)
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
    if type(d) is ScaledBasis:  # B's value is a coordinate of A (CuTe IR): A's mode there composed with s:(its scale)
        r = _compose(at_mode(a, d.path, "composition"), Layout(s, d.value))
        return r.shape, r.stride
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

    ``cotarget`` is an int, a shape, or ``None`` (``cosize(filter(L))``). A
    layout with basis strides is complemented position by position of its
    coordinate space, without a cotarget only (CuTe IR; ``basis.coordinate_complement``).

    **Pre-conditions:** L is injective on its non-zero-stride modes and has no
    negative strides, else ``LayoutError``.
    **Post-conditions:** R's strides increase; R(i) != L(j) unless both are 0
    (i, j > 0); ``cosize(make_layout(L, R)) >= size(cotarget)``.

    >>> str(complement(Layout((2, 2), (1, 6)), 24)), str(complement(Layout(4, 0), 24))
    ('(3,2):(2,12)', '24:1')
    """
    inner = layout if type(layout) is Layout else _inner(layout)[0]
    if type(inner) is DynLayout:
        return _dyn.complement(inner, cotarget)
    if cotarget is not None and type(cotarget) is not int:
        if _dyn.is_dynamic(cotarget) or isinstance(cotarget, Layout):  # a layout cotarget is its shape (CuTe IR)
            return _dyn.complement(inner, cotarget)
        cotarget = normalize(cotarget, "complement cotarget")
    return _complement(inner, cotarget, "complement")


def _complement(inner: Layout, cotarget, public=None) -> Layout:
    """complement for a validated cotarget: None, an int, a shape, or a list of a shape's leaves.

    A basis-strided layout is complemented position by position; CuTe IR's complement op takes one only without a
    cotarget (``public`` set), its divides and products with one.
    """
    shapes, strides, _ = inner._flat or inner.flat()  # inner: a Layout (complement and the divides check)
    modes = [(d, s) for s, d in zip(shapes, strides) if s != 1 and d != 0]  # filter
    if ScaledBasis in map(type, strides) and any(type(d) is not int for d, _ in modes):  # values are coordinates
        if public and cotarget is not None:
            raise LayoutError(f"complement: layout {inner} has basis strides (its values are coordinates); CuTe IR "
                              "complements it without a cotarget only (its divides and products take one inside)")
        return _basis_complement(shapes, strides, cotarget)
    if cotarget is None:
        cotarget = 1 + sum((s - 1) * abs(d) for d, s in modes)
    if not modes:
        if type(cotarget) is list:
            cotarget = cotarget[0] if len(cotarget) == 1 else tuple(cotarget)
        return _make(cotarget, 1) if type(cotarget) is int else Layout(cotarget)
    # Each gap below a mode's stride becomes a mode (q : cur), coalesced as it is appended.
    rs, rd, cur = [], [], 1
    if len(modes) > 2:
        modes.sort()
    elif len(modes) == 2 and modes[0] > modes[1]:  # the common case, without sort's call
        modes.reverse()
    for d, s in modes:
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
    A layout with basis strides is inverted on its coordinate space, as CuTe IR
    does: mode p of R indexes position p (``right_inverse((4,5):(1@1,1@0))`` is
    ``(5,4):(4,1)``; ``_basis_inverse``).
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
    _no_basis(layout, "right_inverse")
    if type(layout) is DynLayout:
        return _dyn.right_inverse(layout)
    if isinstance(layout, Swizzle):
        return layout
    if isinstance(layout, ComposedLayout):
        return _composed_inverse(layout, _right_inverse(layout.inner), "right_inverse")
    _flat(layout)  # a LayoutError naming the argument for anything but a Layout
    return _right_inverse(layout)


def _right_inverse(layout: Layout) -> Layout:
    f = layout._flat or _flat(layout)
    if ScaledBasis in map(type, f[1]):
        return _basis_inverse(f, right_inverse_modes, "right_inverse")
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
    as ``right_inverse`` does; basis strides are inverted on the coordinate space, as there.

    >>> str(left_inverse(Layout((4, 2), (1, 16)))), str(left_inverse(Layout((4, 2), (0, 1))))
    ('(16,2):(1,4)', '2:4')
    >>> C = ComposedLayout(Swizzle(2, 1, 2), 0, Layout((4, 8), (8, 1)))
    >>> R = left_inverse(C)
    >>> str(R), all(R(C(i)) == i for i in range(C.size))
    ('Sw<2,0,-3> o 0 o (8,4):(4,1)', True)
    """
    if type(layout) is Layout:
        return _left_inverse(layout)
    _no_basis(layout, "left_inverse")
    if type(layout) is DynLayout:
        return _dyn.left_inverse(layout)
    if isinstance(layout, Swizzle):
        return layout
    if isinstance(layout, ComposedLayout):
        return _composed_inverse(layout, _left_inverse(layout.inner), "left_inverse")
    return _left_inverse(layout)


def _no_basis(layout, name: str) -> None:
    """``LayoutError`` for a swizzled layout with basis strides: a swizzle acts on offsets, its values are coordinates."""
    inner = layout.inner if isinstance(layout, ComposedLayout) else layout
    if isinstance(inner, Layout) and has_basis(inner.stride):
        raise LayoutError(f"{name}: layout {layout} has basis strides: its values are coordinates, "
                          f"not offsets, so it has no {name}")


def _left_inverse(layout: Layout) -> Layout:
    f = _flat(layout)
    if ScaledBasis in map(type, f[1]):
        return _basis_inverse(f, left_inverse_modes, "left_inverse")
    shapes, strides = _coalesce_lists(*f[:2])
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


# -- basis strides: the values are coordinates (CuTe IR) ------------------------------------------------


def _basis_inverse(f, invert, name: str) -> Layout:
    """The inverse of a basis-strided layout as CuTe IR infers it: a layout over the coordinate space.

    Mode p of the result inverts the modes whose strides point at position p
    (``v@p`` read as the integer ``v``), each keeping its index in L's domain;
    an unused position is ``1:0``. So ``(4,5):(1@1,1@0)`` inverts to
    ``(5,4):(4,1)``: coordinate ``(x, y)`` comes from index ``4x + y``.
    """
    skeleton, groups = coordinate_space(f[0], f[1], name)

    def one(path):
        r = _from_lists(*_coalesce_lists(*invert(sorted(groups.get(path, ()), key=mode_value), name)))
        return r.shape, r.stride

    return _make(*map_positions(skeleton, one))


def _basis_complement(shapes, strides, cotarget) -> Layout:
    """complement of a basis-strided layout, position by position (``basis.coordinate_complement``); a cotarget
    makes C++'s closing coalesce apply."""
    r = _make(*coordinate_complement(shapes, strides, cotarget))
    return r if cotarget is None else _from_lists(*_coalesce_lists(*_flat(r)[:2]))


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
