"""The CuTe algebra on layouts with dynamic leaves, as CuTe IR's type inference does it.

CuTe IR (``cute-opt``, the dialect of the CuTe DSL) runs CuTe's algorithms on
layouts whose leaves may be ``?``: it keeps every value it can compute
statically and makes the rest dynamic. A decision the algorithm cannot take
without the value is taken the conservative way:

* coalesce merges two modes only when both are fully static (``(2,4,?):(1,2,8)``
  coalesces to ``(8,?):(1,8)``, not ``?:1``) and drops a mode only when its size
  is a static 1;
* composition runs C++'s algorithm: a dynamic stride or size makes the
  modes it splits dynamic (``(4,8):(1,4) o 4:?`` is ``4:?``, as the outer
  layout coalesces to ``32:1``; ``(?,?):(?,?) o 3:1`` is ``(?,?):(?,?)``);
* complement orders modes by their strides, so it needs them static when there
  is more than one mode; a dynamic cotarget gives a dynamic last mode;
* the products need a static first operand (their complement of it).

Where the value cannot be known the result is a ``Dyn`` with the divisibility
that can be proved (products multiply, sums take the gcd, ``?{div=12}/4`` is
``?{div=3}``) and the wider width of its operands. ``cute-opt`` itself keeps
only the width (its dynamic integer has no divisibility); the CuTe DSL prints
the divisibility this module proves (``(?,?,?):(?{i64},1,?{i64})`` divided by
``(128,128)`` has the rest stride ``?{i64 div=128}``).

>>> from unilayout.cute import Layout
>>> from unilayout.cute.dyn import Dyn
>>> str(coalesce(Layout((2, 4, Dyn()), (1, 2, 8))))
'(8,?):(1,8)'
>>> str(composition(Layout((4, 8), (1, 4)), Layout((2, 4), (1, Dyn()))))
'(2,4):(1,?)'
>>> str(logical_divide(Layout((Dyn(), Dyn()), (Dyn(bits=64), 1)), (128, 128)))
'((128,?),(128,?)):((?{i64},?{i64 div=128}),(1,128))'

Each function here takes what its namesake in ``cute.compose`` / ``cute.divide``
takes; those dispatch here when a layout or tiler holds a dynamic leaf.
"""

from __future__ import annotations

from operator import itemgetter

from ..errors import LayoutError
from .basis import ScaledBasis
from .dyn import Dyn, _append, _coalesce_lists, _mk, _product, dadd, dceil_div, dmin, dmul, has_dyn, normalize_dyn
from .inttuple import int_tuple_str, leaves, unzip_modes
from .inttuple import permutation_order as _order
from .layout import DynLayout, Layout, _make, _make_any, _retag, make_layout, make_ordered_layout

__all__ = [
    "coalesce", "filter", "composition", "complement", "logical_divide", "zipped_divide", "tiled_divide",
    "flat_divide", "logical_product", "zipped_product", "tiled_product", "flat_product", "blocked_product",
    "raked_product", "tile_to_shape", "upcast", "downcast", "right_inverse", "left_inverse",
]

_ONE = _make(1, 0, ((1,), (0,), 1))
_first = itemgetter(0)


def _st(x) -> bool:
    """A static leaf (an int or a basis stride)."""
    return type(x) is not Dyn


def _flat(layout):
    """``(leaf shapes, leaf strides, size)``, cached on the layout."""
    if not isinstance(layout, Layout):
        raise LayoutError(f"expected a CuTe Layout, got {type(layout).__name__} {layout!r:.60}")
    return layout._flat or layout.flat()


def _as_layout(b):
    if isinstance(b, Layout):
        return b
    return Layout(b)  # an int or ? n -> n:1; a shape -> column-major


def _from_lists(shapes, strides, size=None):
    """Layout from flat mode lists (``size``: their product if known): none -> ``1:0``, one -> int, more -> tuple."""
    n = len(shapes)
    if n == 0:
        return _ONE
    if size is None:
        size = 1
        for v in shapes:
            size = size * v if type(v) is not Dyn and type(size) is not Dyn else dmul(size, v)
    dyn = type(size) is Dyn or Dyn in map(type, strides)
    sh, st = (shapes[0], strides[0]) if n == 1 else (tuple(shapes), tuple(strides))
    r = _make(sh, st, (tuple(shapes), tuple(strides), size))
    if dyn:
        object.__setattr__(r, "__class__", DynLayout)
    return r


# -- coalesce ------------------------------------------------------------------


def coalesce(layout, profile=None):
    """CuTe IR's coalesce of a layout with dynamic leaves: static neighbours merge, dynamic ones stay.

    >>> str(coalesce(Layout((4, 5, Dyn(), 3, 2), (1, 4, Dyn(), 1, 3)))), str(coalesce(Layout((Dyn(),), (Dyn(),))))
    ('(20,?,6):(1,?,1)', '?:?')
    >>> str(coalesce(Layout((2, 1, 6), (4, Dyn(), 8))))
    '12:4'
    """
    if isinstance(profile, tuple):
        if len(profile) > layout.rank:
            raise LayoutError(f"coalesce: profile of rank {len(profile)} for a rank-{layout.rank} layout {layout}")
        modes = [coalesce(layout[i], profile[i]) if i < len(profile) else layout[i] for i in range(layout.rank)]
        return make_layout(*modes)
    f = _flat(layout)
    return _from_lists(*_coalesce_lists(f[0], f[1]), f[2])


def filter(layout, profile=None):  # noqa: A001 - CuTe's name
    """Drop the modes of static stride 0, then coalesce (dynamic strides are kept: they may be non-zero).

    >>> str(filter(Layout((2, 4, Dyn()), (1, 0, Dyn()))))
    '(2,?):(1,?)'
    """
    if isinstance(profile, tuple):
        return coalesce(_retag(_make(_filter_zeros(layout.shape, layout.stride), layout.stride)), profile)
    return _from_lists(*_coalesce_lists(*_flat(layout)[:2], drop_zero_strides=True))


def _filter_zeros(shape, stride):
    if isinstance(shape, tuple):
        return tuple(map(_filter_zeros, shape, stride))
    return 1 if type(stride) is not Dyn and stride == 0 else shape


def _coalesce_x(layout, plain=None):
    """Coalesce keeping values outside the domain: a trailing static size-1 mode counts as 2 (``plain``: coalesced)."""
    shapes, strides, _ = _flat(layout)
    if not (type(shapes[-1]) is not Dyn and shapes[-1] == 1):
        return plain or _coalesce_lists(shapes, strides)
    rs, rd = _coalesce_lists(shapes[:-1], strides[:-1])
    _append(rs, rd, 2, strides[-1])
    return rs, rd


# -- composition -----------------------------------------------------------------


def composition(a, b):
    """``A o B`` where A or B holds dynamic leaves (C++'s algorithm over static and dynamic values).

    >>> str(composition(Layout(20, 2), Layout((Dyn(), 4), (4, 1)))), str(composition(Layout(Dyn(), Dyn()), Layout(4, 1)))
    ('(?,4):(8,2)', '4:?')
    """
    if b is None:
        return a
    if type(b) is tuple:
        if len(b) > a.rank:
            raise LayoutError(f"composition: tiler of rank {len(b)} is longer than layout {a} of rank {a.rank}")
        if type(a.shape) is not tuple:
            return make_layout(composition(a, b[0]))
        parts = [composition(a[i], bi) for i, bi in enumerate(b)]
        return _make_any(tuple(p.shape for p in parts), tuple(p.stride for p in parts))
    b = _as_layout(b)
    cx = _coalesce_x(a)
    return _make_any(*_compose_tree(a, cx, b.shape, b.stride))


def _compose_tree(a, cx, s, d):
    if type(s) is not tuple:
        return _compose_leaf(a, cx, s, d)
    rs, rd = [], []
    for si, di in zip(s, d):
        ps, pd = _compose_tree(a, cx, si, di) if type(si) is tuple else _compose_leaf(a, cx, si, di)
        rs.append(ps)
        rd.append(pd)
    return tuple(rs), tuple(rd)


def _compose_leaf(a, cx, s, d):
    """A o (s:d) for A coalesced into the flat modes ``cx``; any value may be dynamic."""
    D = Dyn
    if type(d) is not D and d == 0:
        return s, 0
    shapes, strides = cx
    last = len(shapes) - 1
    if last <= 0:
        return s, dmul(d, strides[0]) if strides else 0
    rs, rd = [], []
    rest_shape, rest_stride = s, d
    for i in range(last):
        c = shapes[i]
        if type(c) is not D and type(rest_stride) is not D:
            r = rest_stride if rest_stride > 0 else -rest_stride
            next_shape = -(-c // r)
            next_stride = (r + c - 1) // c if rest_stride > 0 else -((r + c - 1) // c)
            if r % c != 0 and (r >= c or (c % r != 0 and type(rest_shape) is not D and rest_shape > next_shape)):
                raise LayoutError(
                    f"composition: stride divisibility fails: stride {d} of {s}:{d} does not divide evenly into "
                    f"mode {c} of {a}"
                )
        elif type(rest_stride) is int and rest_stride == 1:  # the common dynamic step: A's mode c whole
            next_shape, next_stride = c, 1
        else:  # the stride goes dynamic for good: no static step (and no error) follows
            next_stride = dceil_div(rest_stride, c)
            if type(rest_shape) is not D and rest_shape == 1:  # only the stride is needed, and once placed, nothing
                if rs:
                    break
                rest_stride = next_stride
                continue
            if type(rest_stride) is D and (type(c) is D or c > 1) and (type(rest_shape) is D or rest_shape > 1):
                rest_shape = n = _mk(1, max(rest_stride.bits, c.bits if type(c) is D else 32,  # ceil(c / stride),
                                            rest_shape.bits if type(rest_shape) is D else 32))  # the min, the rest
                rs.append(n)
                rd.append(dmul(rest_stride, strides[i]))
                rest_stride = next_stride
                continue
            next_shape = dceil_div(c, rest_stride)
        if (type(next_shape) is not D and next_shape == 1) or (type(rest_shape) is not D and rest_shape == 1):
            rest_stride = next_stride
            continue
        if type(next_shape) is not D and type(rest_shape) is not D:
            n = next_shape if next_shape < rest_shape else rest_shape
            if rest_shape % n != 0:
                raise LayoutError(
                    f"composition: shape divisibility fails: size {s} of {s}:{d} is not divisible by {n} "
                    f"(what fits in mode {c} of {a})"
                )
            rs.append(n)
            rd.append(rest_stride * strides[i] if type(rest_stride) is not D and type(strides[i]) is int
                      else dmul(rest_stride, strides[i]))
            rest_shape //= n
        else:
            n = dmin(next_shape, rest_shape)
            rs.append(n)
            rd.append(dmul(rest_stride, strides[i]))
            rest_shape = dceil_div(rest_shape, n)
        rest_stride = next_stride
    if not rs:
        return rest_shape, dmul(rest_stride, strides[last])
    if type(rest_shape) is D or rest_shape != 1:
        rs.append(rest_shape)
        rd.append(dmul(rest_stride, strides[last]))
    return (rs[0], rd[0]) if len(rs) == 1 else (tuple(rs), tuple(rd))


# -- complement ------------------------------------------------------------------


def _cotarget(cotarget):
    if cotarget is None or type(cotarget) in (int, Dyn):
        return cotarget
    if isinstance(cotarget, Layout):
        return cotarget.shape
    return normalize_dyn(cotarget, "complement cotarget")


def complement(layout, cotarget=None):
    """The complement of a layout where a leaf or the cotarget is dynamic.

    >>> str(complement(Layout(3, 2), Dyn())), str(complement(Layout((3,), (Dyn(),)), 12))
    ('(2,?):(1,6)', '(?,?):(1,?{div=3})')
    >>> str(complement(Layout(1, 0), (2, Dyn())))
    '(2,?):(1,2)'
    """
    inner = layout.inner if hasattr(layout, "inner") else layout
    return _complement(inner, _cotarget(cotarget))


def _complement(inner, cotarget, parts=False):
    """``complement`` for a Layout and a validated cotarget (None, an int, a Dyn, a tuple or a list of its leaves).

    ``parts``: return the ``(shape, stride)`` of the result instead (the divides compose with them directly).
    """
    D = Dyn
    shapes, strides, _ = _flat(inner)
    modes = [(d, s) for s, d in zip(shapes, strides)
             if not (type(s) is not D and s == 1) and not (type(d) is not D and d == 0)]
    if ScaledBasis in map(type, strides) and any(type(d) is ScaledBasis for d, _ in modes):
        raise LayoutError(f"complement: layout {inner} has basis strides (its values are coordinates); CuTe IR "
                          "complements those only with static leaves and without a cotarget")
    if cotarget is None:
        cotarget = 1
        for d, s in modes:
            cotarget = dadd(cotarget, dmul(dadd(s, -1), d))
    if not modes:
        cotarget = tuple(cotarget) if type(cotarget) is list else cotarget
        r = _make_any(cotarget, 1) if type(cotarget) is not tuple else Layout(cotarget)
        return (r.shape, r.stride) if parts else r
    if len(modes) > 1:
        if D in map(type, strides):
            for d, _ in modes:
                if type(d) is D:
                    raise LayoutError(f"complement: layout {inner} has the dynamic stride {d}; the complement orders "
                                      "the modes by stride, which needs them static")
        if len(modes) > 2:
            modes.sort(key=_first)
        elif modes[1][0] < modes[0][0]:  # two modes (the common case) without sort's call
            modes.reverse()
    rs, rd, cur = [], [], 1
    for d, s in modes:
        if type(d) is not D:
            if d < 0:
                raise LayoutError(f"complement: layout {inner} has a negative stride {d}")
            q = d // cur if type(cur) is not D else dceil_div(d, cur)
        else:
            q = d if type(cur) is not D and cur == 1 else dceil_div(d, cur)
        if type(q) is not D and q == 0:
            raise LayoutError(f"complement: layout {inner} is not injective (stride {d} falls inside earlier modes)")
        if type(q) is D or q != 1:
            _append(rs, rd, q, cur)
        cur = d * s if type(d) is not D and type(s) is not D and type(cur) is not D else dmul(d, s)
    rest = cur
    tc = type(cotarget)
    for v in (cotarget if tc is list else leaves(cotarget) if tc is tuple else (cotarget,)):
        if type(v) is not D and type(rest) is not D:
            n = -(-v // rest)
            rest = -(-rest // v) if v != 0 else 1
        else:
            n = dceil_div(v, rest)
            rest = dceil_div(rest, v) if type(v) is D or v != 0 else 1
        if type(n) is D or n != 1:
            _append(rs, rd, n, cur)
        cur = cur * n if type(cur) is not D and type(n) is not D else dmul(cur, n)
    if not parts:
        return _from_lists(rs, rd)
    return (rs[0], rd[0]) if len(rs) == 1 else (tuple(rs), tuple(rd)) if rs else (1, 0)


# -- divides -------------------------------------------------------------------


def logical_divide(layout, tiler):
    """``A o (B, complement(B, shape(coalesce(A))))``, mode by mode for a tuple tiler.

    >>> str(logical_divide(Layout((Dyn(), Dyn()), (Dyn(), Dyn())), (3, 4)))
    '((3,?),(4,?)):((?,?{div=3}),(?,?{div=4}))'
    """
    if tiler is None:
        return layout
    if type(tiler) is tuple:
        return _by_mode(layout, tiler, logical_divide, "logical_divide")
    b = _as_layout(tiler)
    plain = _coalesce_lists(*_flat(layout)[:2])
    cs, cd = _complement(b, plain[0] if len(plain[0]) > 1 else (plain[0][0] if plain[0] else 1), True)
    return _make_any(*_compose_tree(layout, _coalesce_x(layout, plain), (b.shape, cs), (b.stride, cd)))


def _by_mode(a, tiler, op, name):
    k = len(tiler)
    if type(a.shape) is not tuple:
        if k > 1:
            raise LayoutError(f"{name}: tiler of rank {k} is longer than layout {a} of rank 1")
        return make_layout(op(a, tiler[0])) if k else a
    if k > len(a.shape):
        raise LayoutError(f"{name}: tiler of rank {k} is longer than layout {a} of rank {len(a.shape)}")
    parts = [op(_retag(_make(a.shape[i], a.stride[i])), tiler[i]) for i in range(k)]
    return _make_any(tuple(p.shape for p in parts) + a.shape[k:], tuple(p.stride for p in parts) + a.stride[k:])


def _unzip(r, tiler, tiled, flat):
    return _make_any(*unzip_modes(r.shape, r.stride, tiler, tiled, flat))


def zipped_divide(layout, tiler):
    """``((T0,T1,...),(R0,R1,...))`` of a layout with dynamic leaves.

    >>> str(zipped_divide(Layout((Dyn(), Dyn(), Dyn()), (Dyn(bits=64), 1, Dyn(bits=64))), (128, 128)))
    '((128,128),(?,?,?)):((?{i64},1),(?{i64 div=128},128,?{i64}))'
    """
    r = logical_divide(layout, tiler)
    if type(tiler) is not tuple and type(r.shape) is tuple and len(r.shape) == 2:  # already (tile, rest)
        return r
    return _unzip(r, tiler, False, False)


def tiled_divide(layout, tiler):
    """``((T0,T1,...),R0,R1,...)`` of a layout with dynamic leaves."""
    return _unzip(logical_divide(layout, tiler), tiler, True, False)


def flat_divide(layout, tiler):
    """``(T0,T1,...,R0,R1,...)`` of a layout with dynamic leaves."""
    return _unzip(logical_divide(layout, tiler), tiler, True, True)


# -- products ------------------------------------------------------------------


def _static_first(layout, name):
    if has_dyn(layout.shape) or has_dyn(layout.stride):
        found = [str(v) for v in leaves(layout.shape) + leaves(layout.stride) if type(v) is Dyn]
        raise LayoutError(f"{name}: the layout {layout} has the dynamic leaf {found[0]}; CuTe IR's products take "
                          "a static layout (the complement of it) and a static or dynamic tiler")


def logical_product(layout, tiler):
    """``(A, complement(A, size(A)*cosize(B)) o B)`` for a static A and a tiler with dynamic leaves.

    >>> str(logical_product(Layout((3, 4), (4, 1)), Layout((Dyn(), Dyn()), (1, 2))))
    '((3,4),(?,?)):((4,1),(12,24))'
    """
    if tiler is None:
        return layout
    if type(tiler) is tuple:
        return _by_mode(layout, tiler, logical_product, "logical_product")
    _static_first(layout, "logical_product")
    b = _as_layout(tiler)
    p = composition(complement(layout, dmul(layout.size, b.cosize)), b)
    return _make_any((layout.shape, p.shape), (layout.stride, p.stride))


def zipped_product(layout, tiler):
    """``logical_product`` regrouped as ``((A0,A1,...),(B0,B1,...))``."""
    return _unzip(logical_product(layout, tiler), tiler, False, False)


def tiled_product(layout, tiler):
    """``logical_product`` regrouped as ``((A0,A1,...),B0,B1,...)``."""
    return _unzip(logical_product(layout, tiler), tiler, True, False)


def flat_product(layout, tiler):
    """``logical_product`` regrouped as ``(A0,A1,...,B0,B1,...)``."""
    return _unzip(logical_product(layout, tiler), tiler, True, True)


def _pad(layout, r):
    if layout.rank >= r:
        return layout
    modes = list(layout) if isinstance(layout.shape, tuple) else [layout]
    return make_layout(*modes, *([_ONE] * (r - len(modes))))


def _block_rake(a, b, raked, name):
    if name != "tile_to_shape" or not all(map(_st, _flat(a)[1])):  # cute-opt: tile_to_shape's block needs static strides
        _static_first(a, name)
    b = _as_layout(b)
    r = max(a.rank, b.rank)
    a2, b2 = _pad(a, r), _pad(b, r)
    p1 = composition(complement(a2, dmul(a2.size, b2.cosize)), b2)
    first, second = (p1, a2) if raked else (a2, p1)
    if type(first.shape) is not tuple:
        return make_layout(make_layout(first, second))
    return make_layout(*(make_layout(first[i], second[i]) for i in range(r)))


def blocked_product(layout, tiler):
    """The block ``layout`` (static) repeated over a grid with dynamic leaves, mode by mode.

    >>> str(blocked_product(Layout((2, 2), (1, 2)), Layout((Dyn(), 3), (3, 1))))
    '((2,?),(2,3)):((1,12),(2,4))'
    """
    return _block_rake(layout, tiler, False, "blocked_product")


def raked_product(layout, tiler):
    """The block ``layout`` (static) interleaved across a grid with dynamic leaves."""
    return _block_rake(layout, tiler, True, "raked_product")


def tile_to_shape(block, target_shape, order=None):
    """Repeat a static block until it covers a target shape with dynamic leaves (counts rounded up).

    >>> str(tile_to_shape(Layout((2, 2), (1, 2)), (Dyn(div=8), 8)))
    '((2,?{div=4}),(2,4)):((1,4),(2,?{div=16}))'
    """
    trg = target_shape if type(target_shape) in (int, Dyn) else normalize_dyn(target_shape, "tile_to_shape target")
    sizes = tuple(_product(t) for t in trg) if type(trg) is tuple else (trg,)
    for i, t in enumerate(sizes):
        if _st(t) and t < 1:
            raise LayoutError(
                f"tile_to_shape: target {int_tuple_str(trg)} has a mode {i} of size {t}; sizes must be positive"
            )
    if block.rank > len(sizes):
        raise LayoutError(f"tile_to_shape: block {block} has rank {block.rank} > target rank {len(sizes)}")
    padded = _pad(block, len(sizes))
    have = tuple(_product(s) for s in padded.shape) if type(padded.shape) is tuple else (padded.size,)
    counts = tuple(dceil_div(t, b) for t, b in zip(sizes, have))
    grid = Layout(counts) if order is None else make_ordered_layout(counts, _order(order, len(counts)))
    return _block_rake(padded, grid, False, "tile_to_shape")


# -- casts and inverses --------------------------------------------------------


def _map_leaves(layout, fn):
    def go(s, d):
        if isinstance(s, tuple):
            pairs = [go(si, di) for si, di in zip(s, d)]
            return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)
        return fn(s, d)

    return _make_any(*go(layout.shape, layout.stride))


def upcast(n, layout):
    """``upcast<n>`` of a layout with dynamic leaves, as cute-opt: a dynamic stride is divided, its size kept.

    >>> str(upcast(2, Layout((8, Dyn()), (1, Dyn(div=8))))), str(upcast(4, Layout((Dyn(), 4), (1, Dyn()))))
    ('(4,?):(1,?{div=4})', '(?,4):(1,?)')
    """

    def leaf(s, d):
        if type(d) is not Dyn and d == 0:
            return s, 0
        if type(d) is ScaledBasis:
            raise LayoutError(f"upcast: layout {layout} has the basis stride {d}: its values are coordinates, "
                              "not element offsets to widen")
        if type(d) is Dyn:  # cute-opt: the size stays, the stride is d / n (a multiple of div / n when n | div)
            return s, dceil_div(d, n) if d.div % n == 0 else dmul(Dyn(bits=d.bits), 1)
        ad = abs(d)
        if ad % n != 0 and n % ad != 0:
            raise LayoutError(f"upcast: stride {d} and factor {n} must divide one another")
        return dceil_div(s, -(-n // ad)), (1 if d > 0 else -1) * -(-ad // n)

    return _map_leaves(layout, leaf)


def downcast(n, layout):
    """``downcast<n>`` of a layout with dynamic leaves: a stride-1 leaf grows, other strides (dynamic ones too) scale.

    As cute-opt, a layout whose strides are all dynamic is accepted (one of them may be 1 at run time); one
    whose strides are all static needs a stride-1 leaf.

    >>> str(downcast(2, Layout((Dyn(), 4), (1, Dyn())))), str(downcast(4, Layout(Dyn(), Dyn())))
    ('(?{div=2},4):(1,?{div=2})', '?:?{div=4}')
    """
    strides = _flat(layout)[1]
    if all(_st(d) for d in strides) and not any(type(d) is int and abs(d) == 1 for d in strides):
        raise LayoutError(f"downcast: layout {layout} has no stride-1 mode to widen")
    return _map_leaves(layout, lambda s, d: (dmul(s, n), d) if _st(d) and type(d) is int and abs(d) == 1
                       else (s, dmul(d, n)))


def _need_static(layout, name):
    found = next(((w, v) for w, t in (("shape", layout.shape), ("stride", layout.stride)) for v in leaves(t)
                  if type(v) is Dyn), None)
    if found:
        raise LayoutError(f"{name}: the layout {layout} has the dynamic {found[0]} leaf {found[1]}; "
                          f"{name} sorts the modes by stride and needs the layout static")


def right_inverse(layout):
    """The right inverse of a layout with dynamic leaves, as cute-opt: a dynamic stride never continues the chain.

    >>> str(right_inverse(Layout((2, 4, 6), (4, 1, Dyn())))), str(right_inverse(Layout((4, 3), (Dyn(), 1))))
    ('(4,2):(2,1)', '3:4')
    """
    if not all(map(_st, _flat(layout)[0])):  # CuTe IR: "expects a static-shape input layout"
        raise LayoutError(f"right_inverse: the layout {layout} has a dynamic shape; its inverse needs the sizes")
    shapes, strides = _coalesce_lists(*_flat(layout)[:2])
    prefix, p = [], 1
    for v in shapes:
        prefix.append(p)
        p = dmul(p, v)
    rs, rd, cur = [], [], 1
    for i in sorted((i for i in range(len(shapes)) if type(strides[i]) is int), key=strides.__getitem__):
        if _st(cur) and strides[i] == cur:
            rs.append(shapes[i])
            rd.append(prefix[i])
            cur = dmul(shapes[i], strides[i])
    return _from_lists(*_coalesce_lists(rs, rd))


def left_inverse(layout):
    """Needs a static layout (it divides every stride by the ones below it): LayoutError naming the dynamic leaf."""
    _need_static(layout, "left_inverse")


def is_dynamic(x) -> bool:
    """True for a DynLayout, a Dyn, or a tuple (tiler, shape) holding one.

    >>> is_dynamic(Layout((Dyn(), 2))), is_dynamic((4, Dyn())), is_dynamic(Layout(4, 1))
    (True, True, False)
    """
    if type(x) is DynLayout or type(x) is Dyn:
        return True
    return type(x) is tuple and any(is_dynamic(v) for v in x)
