"""Conversions between layout families: the only module where two families meet.

Every function here is **exact** (the result is the same function on the same
domain) or raises ``NotRepresentableError`` saying why the target cannot
express it. Methods such as ``TiledStridedLayout.to_cute()`` are thin
delegates to these functions; ``convert_to(value, family)`` dispatches.

=================  ==========  ==========  ==========  ==========================
from \\ to          cute        linear      affine      tsl
=================  ==========  ==========  ==========  ==========================
cute Layout        --          if no carry always      always
Swizzle/Composed   --          if no carry always      never (XOR)
linear             if 1 swz.   --          always      if no swizzle
tsl                offset 0    offset 0    always      --
affine (+ box)     if strided  if GF(2)    --          if strided
metal layout       per shard   --          always      --
device             --          --          if ids AP   --
=================  ==========  ==========  ==========  ==========================

(Functions: ``cute_to_linear``, ``linear_to_cute``, ``cute_to_affine``,
``cute_to_tsl``, ``linear_to_affine``, ``linear_to_tsl``, ``tsl_to_cute``,
``tsl_to_linear``, ``tsl_to_affine``, ``affine_to_cute``, ``affine_to_linear``,
``affine_to_tsl``, ``metal_to_affine``, ``metal_to_cute``, ``device_to_affine``;
"ids AP": chip ids in arithmetic progression.)

"no carry": a CuTe layout is GF(2)-linear exactly when every in-dim has a
power-of-two size and the integer images of the input bits have pairwise
disjoint bits (then ``+`` equals XOR); a swizzle is XOR, so it is linear too.
"1 swz.": a linear layout is a CuTe ``Layout`` when its flattened bases have
disjoint bits, a ``ComposedLayout`` ``Sw<B,M,S> o 0 o Layout`` when one
swizzle makes them so. See docs/convert.md for the reasons in each cell.

CuTe <-> linear: modes become in-dims (first in-dim least significant, as
CuTe's colexicographic 1-D order), the offset becomes out-dim ``offset``:

>>> from unilayout import cute, linear
>>> L = cute_to_linear(cute.parse("(4,2):(2,1)"))
>>> L.bases, L.out_dims
([('dim0', [[2], [4]]), ('dim1', [[1]])], [('offset', 8)])
>>> linear_to_cute(L)
Layout((4, 2), (2, 1))

TSL <-> CuTe: a TSL dim is one CuTe mode with its levels reversed (CuTe lists
the fastest sub-mode first), so natural coordinates agree,
``t(*crd) == offset + L(*crd)``:

>>> from unilayout import tsl, cute
>>> t = tsl.parse("#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1)>")
>>> L = tsl_to_cute(t)
>>> str(L), t(5, 6) == L(5, 6), cute_to_tsl(L) == t
('((4,2),(4,2)):((4,32),(1,16))', True, True)

TSL -> affine: one result, dim-major, levels outer -> inner:

>>> print(tsl_to_affine(tsl.parse("#tsl.tsl<[2, 2, 8] -> (64, 32, 1)>")))
(d0) -> ((d0 floordiv 16) * 64 + ((d0 mod 16) floordiv 8) * 32 + d0 mod 8)
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .errors import LayoutError, NotRepresentableError

__all__ = [
    "cute_to_linear", "linear_to_cute", "cute_to_affine", "linear_to_affine", "tsl_to_affine", "tsl_to_cute",
    "cute_to_tsl", "tsl_to_linear", "linear_to_tsl", "affine_to_cute", "affine_to_tsl", "affine_to_linear",
    "metal_to_affine", "metal_to_cute", "ShardLayout", "device_to_affine", "convert_to", "family_of", "FAMILIES",
]

#: Target family names accepted by ``convert_to``.
FAMILIES = ("cute", "linear", "affine", "tsl")

#: Widest offset (in bits) for which ``linear_to_cute`` searches a swizzle.
MAX_SWIZZLE_BITS = 128

#: Largest number of points a conversion tabulates (affine fits, metal shards).
MAX_POINTS = 1 << 24


def _pow2(n) -> bool:
    return n > 0 and n & (n - 1) == 0


def _next_pow2(n) -> int:
    return 1 << (n - 1).bit_length()


def _as_shape(shape, what) -> tuple:
    """``shape`` as a tuple of non-negative ints, else ``LayoutError``."""
    try:
        items = tuple(shape)
    except TypeError:
        raise LayoutError(f"{what}: shape must be a sequence of ints, got {shape!r}") from None
    out = []
    for v in items:
        if isinstance(v, bool) or not hasattr(v, "__index__"):
            raise LayoutError(f"{what}: shape must be a sequence of ints, got {shape!r}")
        v = int(v.__index__())
        if v < 0:
            raise LayoutError(f"{what}: shape sizes must be >= 0, got {shape!r}")
        out.append(v)
    return tuple(out)


def _name(v) -> str:
    """Family-neutral name of a value's type for messages."""
    return type(v).__name__


# =============================================================================================
# CuTe <-> linear
# =============================================================================================


def _in_dim_leaves(layout, in_dims):
    """``[(name, [(shape, stride, label), ...]), ...]``: the leaves of each in-dim, colexicographic."""
    from . import cute

    shape, stride = layout.shape, layout.stride
    modes = list(zip(shape, stride)) if isinstance(shape, tuple) else [(shape, stride)]
    if in_dims is None:
        in_dims = [f"dim{i}" for i in range(len(modes))]
    groups: dict = {}

    def walk(spec, s, d, path):
        if isinstance(spec, str):
            if not spec:
                raise LayoutError("cute_to_linear: in-dim names must be non-empty")
            fs = cute.flatten(s) if isinstance(s, tuple) else (s,)
            fd = cute.flatten(d) if isinstance(d, tuple) else (d,)
            for k, (a, b) in enumerate(zip(fs, fd)):
                groups.setdefault(spec, []).append((a, b, f"mode {path}" + (f" leaf {k}" if len(fs) > 1 else "")))
            return
        if not isinstance(spec, (tuple, list)):
            raise LayoutError(f"cute_to_linear: in_dims entries are names or tuples of names, got {spec!r}")
        if not isinstance(s, tuple) or len(spec) != len(s):
            raise LayoutError(
                f"cute_to_linear: in_dims entry {spec!r} does not match mode {path} of shape "
                f"{cute.Layout(s, d).shape!r}: give one name for the whole mode or one per sub-mode"
            )
        for k, (sp, a, b) in enumerate(zip(spec, s, d)):
            walk(sp, a, b, f"{path}.{k}")

    if isinstance(in_dims, str):
        walk(in_dims, shape, stride, "all")
    else:
        try:
            specs = list(in_dims)
        except TypeError:
            raise LayoutError(f"cute_to_linear: in_dims must be a name or a sequence, got {in_dims!r}") from None
        if len(specs) != len(modes):
            raise LayoutError(
                f"cute_to_linear: {layout} has {len(modes)} mode(s) but in_dims {in_dims!r} names {len(specs)}: "
                "give one entry per top-level mode"
            )
        for i, (sp, (s, d)) in enumerate(zip(specs, modes)):
            walk(sp, s, d, str(i))
    return list(groups.items())


def _check_disjoint(bases, labels, what):
    """Raise NotRepresentable unless the non-zero ``bases`` have pairwise disjoint bits (so + == XOR)."""
    acc = 0
    owner = {}
    for b, lab in zip(bases, labels):
        if b & acc:
            bit = (b & acc).bit_length() - 1
            other_b, other_lab = owner[bit]
            if other_lab[0] == lab[0] and other_lab[1] == lab[1]:
                raise NotRepresentableError(
                    f"{what}: {lab[1]} has stride {lab[2]}, not a power of two: over {lab[3]} points its "
                    f"images {other_b} and {b} share bit {bit}, so + carries where XOR does not"
                )
            raise NotRepresentableError(
                f"{what}: carry between modes: {other_lab[1]} (image {other_b}) and {lab[1]} (image {b}) "
                f"share bit {bit}, so + carries where XOR does not"
            )
        for bit in range(b.bit_length()):
            if b >> bit & 1:
                owner[bit] = (b, lab)
        acc |= b


def _leaf_bases(name, leaves, what):
    """The bases (one per input bit) of an in-dim made of CuTe leaves, with their labels."""
    size = math.prod(s for s, _, _ in leaves)
    if not _pow2(size):
        where = ", ".join(lab for _, _, lab in leaves)
        raise NotRepresentableError(
            f"{what}: in-dim {name!r} ({where}) has size {size}, not a power of two: pad to {_next_pow2(size)}"
        )
    bases, labels = [], []
    for s, d, lab in leaves:
        if s == 1:
            continue
        if d < 0:
            raise NotRepresentableError(f"{what}: {lab} has the negative stride {d}: linear layouts reach only offsets >= 0")
        for j in range(s.bit_length() - 1):
            bases.append(d << j)
            labels.append((name, lab, d, s))
    return bases, labels


def _outer_layout_bases(outer, nbits, what):
    """Bases of a CuTe layout evaluated at the 1-D coordinates ``[0, 2**nbits)`` (the last mode extends)."""
    shapes, strides, _ = outer.flat()
    bases, labels, left = [], [], nbits
    for k, (s, d) in enumerate(zip(shapes, strides)):
        if left == 0:
            break
        last = k == len(shapes) - 1
        if not last and s == 1:
            continue
        if not last and not _pow2(s):
            raise NotRepresentableError(
                f"{what}: the outer layout {outer} splits offsets by its size-{s} leaf {k}, not a power of two"
            )
        if d < 0:
            raise NotRepresentableError(f"{what}: the outer layout {outer} has the negative stride {d}")
        take = left if last else min(left, s.bit_length() - 1)
        for j in range(take):
            bases.append(d << j)
            labels.append(("outer", f"outer leaf {k}", d, s))
        left -= take
    _check_disjoint(bases, labels, what)
    return bases


def _xor_apply(bases, v):
    out, j = 0, 0
    while v:
        if v & 1:
            out ^= bases[j]
        v >>= 1
        j += 1
    return out


def _out_dims_spec(out_dims, reach, what):
    """``[(name, size), ...]`` for the out-dims, checking that offsets below ``reach`` fit."""
    if out_dims is None or isinstance(out_dims, str):
        return [(out_dims or "offset", _next_pow2(max(reach, 1)))]
    if isinstance(out_dims, dict):
        items = list(out_dims.items())
    else:
        try:
            items = list(out_dims)
        except TypeError:
            raise LayoutError(f"{what}: out_dims must be a name, a dict or a sequence, got {out_dims!r}") from None
        if all(isinstance(o, int) and not isinstance(o, bool) for o in items):
            items = [(f"dim{i}", o) for i, o in enumerate(items)]
    pairs = []
    for o in items:
        if not (isinstance(o, (tuple, list)) and len(o) == 2 and isinstance(o[0], str)):
            raise LayoutError(f"{what}: out_dims entries must be (name, size) pairs, got {o!r}")
        if isinstance(o[1], bool) or not isinstance(o[1], int) or not _pow2(o[1]):
            raise LayoutError(f"{what}: out-dim {o[0]!r} has size {o[1]!r}, not a power of two")
        pairs.append((o[0], o[1]))
    total = math.prod(s for _, s in pairs)
    if reach > total:
        raise NotRepresentableError(
            f"{what}: the layout reaches offset {reach - 1} but out-dims {pairs} hold only {total} points"
        )
    return pairs


def _split(v, pairs):
    out = []
    for _, s in pairs:
        out.append(v & (s - 1))
        v >>= s.bit_length() - 1
    return out


def cute_to_linear(layout, in_dims=None, out_dims=None):
    """The Triton ``LinearLayout`` of a CuTe layout, when its function is GF(2)-linear.

    In-dims: by default one per top-level mode, ``dim0, dim1, ..``; ``in_dims``
    renames them: a name per mode, or for a hierarchical mode a tuple of names
    per sub-mode (so a thread-value layout ``((32,4),4)`` becomes
    ``(("lane", "warp"), "register")``); one string puts the whole 1-D
    coordinate in one in-dim. A name used twice gets the later leaves as its
    higher bits. Out-dims: ``offset`` (size: the next power of two above the
    largest offset), or ``out_dims`` to split the offset, first out-dim least
    significant: ``{"dim0": M, "dim1": N}`` turns CuTe's TV index ``m + M*n``
    into Triton's ``(dim0, dim1)``; a tuple of sizes names them ``dim0, ..``.

    A ``ComposedLayout`` ``Sw<B,M,S> o 0 o inner`` (or with a layout as the
    outer function) is linear when its inner layout is: the swizzle, an XOR,
    is applied to the bases. A bare ``Swizzle`` is taken on ``[0, size)``.

    **Pre-conditions** (else ``NotRepresentableError`` with the reason): every
    in-dim has a power-of-two size; no negative stride; the images of the
    input bits (``stride << j``) have pairwise disjoint bits (else ``+``
    carries: ``stride 3`` over 4 points, or two modes reaching the same bit);
    a composed layout has offset 0.

    **Post-conditions**: ``cute.index_map(layout)[i] == offset`` of
    ``linear.index_map(result)[i]`` (out-dims flattened, first least
    significant) for every ``i < size(layout)`` when the in-dims are the
    modes in order (the default).

    >>> from unilayout import cute
    >>> L = cute_to_linear(cute.parse("Sw<1,0,1> o 0 o (2,2):(2,1)"))
    >>> L.bases
    [('dim0', [[3]]), ('dim1', [[1]])]
    >>> tv = cute.Layout(((4, 2), 2), ((2, 16), 1))
    >>> print(cute_to_linear(tv, in_dims=(("lane", "warp"), "register"), out_dims={"dim0": 8, "dim1": 4}))
    <BLANKLINE>
     - lane=1 -> (2, 0)
       lane=2 -> (4, 0)
     - warp=1 -> (0, 2)
     - register=1 -> (1, 0)
    where out dims are: [dim0 (size 8), dim1 (size 4)]
    >>> cute_to_linear(cute.parse("(4,3):(1,4)"))
    Traceback (most recent call last):
    ...
    unilayout.errors.NotRepresentableError: cute_to_linear((4,3):(1,4)): in-dim 'dim1' (mode 1) has size 3, not a power of two: pad to 4
    """
    from . import cute
    from .linear import LinearLayout

    what = f"cute_to_linear({layout})"
    sw = outer = None
    if isinstance(layout, cute.Swizzle):
        layout = cute.ComposedLayout(layout, 0, cute.Layout(layout.size, 1))
    if isinstance(layout, cute.ComposedLayout):
        if layout.offset != 0:
            raise NotRepresentableError(
                f"{what}: offset {layout.offset} is not 0: a linear layout maps 0 to 0"
            )
        sw, outer, layout = (layout.outer, None, layout.inner) if isinstance(layout.outer, cute.Swizzle) else (
            None, layout.outer, layout.inner)
    elif not isinstance(layout, cute.Layout):
        raise LayoutError(f"cute_to_linear: expected a CuTe Layout, Swizzle or ComposedLayout, got {_name(layout)}")
    groups = _in_dim_leaves(layout, in_dims)
    per_dim, all_bases, all_labels = [], [], []
    for name, leaves in groups:
        b, lab = _leaf_bases(name, leaves, what)
        per_dim.append((name, b))
        all_bases += b
        all_labels += lab
    _check_disjoint(all_bases, all_labels, what)
    if sw is not None:
        per_dim = [(n, [sw(v) for v in b]) for n, b in per_dim]
    elif outer is not None:
        reach = 0
        for v in all_bases:
            reach |= v
        ob = _outer_layout_bases(outer, reach.bit_length(), what)
        per_dim = [(n, [_xor_apply(ob, v) for v in b]) for n, b in per_dim]
    reach = 0
    for _, b in per_dim:
        for v in b:
            reach |= v
    pairs = _out_dims_spec(out_dims, reach + 1, what)
    bases = {n: [_split(v, pairs) for v in b] for n, b in per_dim}
    return LinearLayout(bases, dict(pairs), require_surjective=False)


def _flat_bases(L):
    """``[(in_dim, [flat int per basis])]`` with out-dims flattened, first least significant."""
    shifts, sh = [], 0
    for _, size in L.out_dims:
        shifts.append(sh)
        sh += size.bit_length() - 1
    return [(name, [sum(v << s for v, s in zip(vec, shifts)) for vec in vecs]) for name, vecs in L.bases]


def _disjoint(values) -> bool:
    acc = 0
    for v in values:
        if v & acc:
            return False
        acc |= v
    return True


def _find_swizzle(values):
    """The smallest ``Swizzle`` (bits, then |shift|, then base) making ``values`` bit-disjoint, or None."""
    from .cute import Swizzle

    acc = 0
    for v in values:
        acc |= v
    nb = acc.bit_length()
    if nb > MAX_SWIZZLE_BITS:
        return None
    # multi-bit values first: a conflict then shows after a few values
    vals = sorted((v for v in values if v), key=lambda v: -bin(v).count("1"))
    for b in range(1, nb // 2 + 1):
        mask = (1 << b) - 1
        for shift in range(b, nb - b + 1):
            for sign in (1, -1):
                for m in range(0, nb - b - shift + 1):
                    if sign > 0:
                        yyy, ok = mask << (m + shift), True
                        seen = 0
                        for v in vals:
                            w = v ^ ((v & yyy) >> shift)
                            if w & seen:
                                ok = False
                                break
                            seen |= w
                    else:
                        yyy, ok = mask << m, True
                        seen = 0
                        for v in vals:
                            w = v ^ ((v & yyy) << shift)
                            if w & seen:
                                ok = False
                                break
                            seen |= w
                    if ok:
                        return Swizzle(b, m, sign * shift)
    return None


def _cute_from_flat(flat):
    """A CuTe Layout with one (coalesced) mode per in-dim from bit-disjoint flat bases."""
    from . import cute

    modes_s, modes_d = [], []
    for _, vals in flat:
        if not vals:
            modes_s.append(1)
            modes_d.append(0)
            continue
        m = cute.coalesce(cute.Layout((2,) * len(vals), tuple(vals)))
        modes_s.append(m.shape)
        modes_d.append(m.stride)
    if not modes_s:
        return cute.Layout(1, 0)
    if len(modes_s) == 1 and not isinstance(modes_s[0], tuple):
        return cute.Layout(modes_s[0], modes_d[0])
    return cute.Layout(tuple(modes_s), tuple(modes_d))


def linear_to_cute(layout):
    """The CuTe layout of a linear layout: a ``Layout``, or ``Sw<B,M,S> o 0 o Layout``.

    One mode per in-dim (in order; a size-1 in-dim is ``1:0``), each mode the
    coalesced ``(2,2,..):(b0,b1,..)`` of its bases; out-dims are flattened
    into one offset, first out-dim least significant (for ``dim0, dim1`` of
    sizes ``M, N``: ``m + M*n``, CuTe's TV index). CuTe adds where GF(2)
    XORs, so the flattened bases must have pairwise disjoint bits, or become
    so under one swizzle (the smallest one is chosen; a larger one that
    agrees on the domain may have been the original).

    **Pre-conditions** (else ``NotRepresentableError``): the flattened bases
    have pairwise disjoint bits, or one ``Sw<B,M,S>`` makes them so.

    **Post-condition**: ``cute.index_map(result)`` equals the linear layout's
    ``index_map`` with out-dims flattened, point for point.

    >>> from unilayout import linear
    >>> str(linear_to_cute(linear.LinearLayout({"register": [[1, 0], [0, 1]], "lane": [[2, 0], [0, 2]]}, ["dim0", "dim1"])))
    '((2,2),(2,2)):((1,4),(2,8))'
    >>> str(linear_to_cute(linear.LinearLayout({"offset": [[1], [3]]}, {"x": 4})))
    'Sw<1,0,1> o 0 o 4:1'
    >>> linear_to_cute(linear.LinearLayout({"i": [[1], [2], [7]]}, {"o": 8}))
    Traceback (most recent call last):
    ...
    unilayout.errors.NotRepresentableError: linear_to_cute: bases i=1 -> 1 and i=4 -> 7 share bit 0 and no single swizzle Sw<B,M,S> separates the bases: CuTe adds offsets, so this XOR has no CuTe form
    """
    from . import cute
    from .linear import LinearLayout

    if not isinstance(layout, LinearLayout):
        raise LayoutError(f"linear_to_cute: expected a LinearLayout, got {_name(layout)}")
    flat = _flat_bases(layout)
    values = [v for _, vals in flat for v in vals]
    if _disjoint(values):
        return _cute_from_flat(flat)
    sw = _find_swizzle(values)
    if sw is None:
        seen = {}
        for name, vals in flat:
            for i, v in enumerate(vals):
                for bit in range(v.bit_length()):
                    if v >> bit & 1:
                        if bit in seen:
                            a = seen[bit]
                            raise NotRepresentableError(
                                f"linear_to_cute: bases {a} and {name}={1 << i} -> {v} share bit {bit} and no single "
                                "swizzle Sw<B,M,S> separates the bases: CuTe adds offsets, so this XOR has no CuTe form"
                                + (f" (swizzles are searched up to {MAX_SWIZZLE_BITS} offset bits)"
                                   if max(values).bit_length() > MAX_SWIZZLE_BITS else "")
                            )
                for bit in range(v.bit_length()):
                    if v >> bit & 1:
                        seen[bit] = f"{name}={1 << i} -> {v}"
        raise NotRepresentableError("linear_to_cute: the bases are not bit-disjoint")  # pragma: no cover
    inner = _cute_from_flat([(n, [sw(v) for v in vals]) for n, vals in flat])
    return cute.ComposedLayout(sw, 0, inner)


# =============================================================================================
# CuTe / linear -> affine
# =============================================================================================


def _mode_expr(x, shapes, strides, extend=False):
    """``sum_j ((x floordiv P_j) mod s_j) * d_j`` over colexicographic leaves; the last one keeps no mod.

    With ``extend`` the last leaf takes every coordinate past the size (CuTe's
    1-D evaluation beyond ``size``), so it is kept even when its size is 1.
    """
    from .affine import Constant

    n = len(shapes)
    live = [k for k, s in enumerate(shapes) if s != 1 or (extend and k == n - 1)]
    expr, p = Constant(0), 1
    for k, (s, d) in enumerate(zip(shapes, strides)):
        if k not in live:
            continue
        if d != 0:
            digit = x if p == 1 else x.floordiv(p)
            if k != live[-1]:
                digit = digit % s
            expr = expr + digit * d
        p *= s
    return expr


def _swizzle_expr(sw, x):
    """``Sw<B,M,S>(x)`` as an affine expression: bits [t, t+B) replaced by ``(bit_t + bit_src) mod 2``."""
    b, m, s = sw.bits, sw.base, sw.shift
    if b == 0:
        return x
    src, tgt = m + max(0, s), m + max(0, -s)
    top = 1 << (tgt + b)
    expr = x.floordiv(top) * top
    if tgt:
        expr = expr + x % (1 << tgt)
    for j in range(b):
        lo = x if tgt + j == 0 else x.floordiv(1 << (tgt + j))
        expr = expr + ((lo + x.floordiv(1 << (src + j))) % 2) * (1 << (tgt + j))
    return expr


def _cute_layout_expr(layout, dims):
    from . import cute

    shape, stride = layout.shape, layout.stride
    modes = list(zip(shape, stride)) if isinstance(shape, tuple) else [(shape, stride)]
    from .affine import Constant

    expr = Constant(0)
    for x, (s, d) in zip(dims, modes):
        fs = cute.flatten(s) if isinstance(s, tuple) else (s,)
        fd = cute.flatten(d) if isinstance(d, tuple) else (d,)
        expr = expr + _mode_expr(x, fs, fd)
    return expr


def cute_to_affine(layout):
    """The CuTe layout as a one-result ``AffineMap`` of its natural coordinates (one dim per top-level mode).

    Mode ``i`` with leaves ``(s_j):(d_j)`` contributes
    ``sum_j ((d_i floordiv P_j) mod s_j) * d_j`` (``P_j`` = product of the
    leaves before j; the last leaf needs no ``mod`` on the box). A swizzle
    ``Sw<B,M,S>`` is exact in affine arithmetic: its XORed bits are
    ``(bit_t + bit_src) mod 2`` with ``bit_k = (y floordiv 2**k) mod 2``; a
    composed ``outer o offset o inner`` evaluates ``outer`` at
    ``offset + inner(..)`` (a layout outer through its 1-D coordinate, the
    last mode extending as CuTe's does). A bare ``Swizzle`` is ``(d0) -> sw(d0)``.
    A swizzled map is simplified on the box (where it is meant).

    **Pre-conditions**: none; every CuTe layout, swizzle and composed layout converts.

    **Post-condition**: ``cute_to_affine(L)(*c) == (L(*c),)`` for every
    natural coordinate ``c`` of ``L`` (the box ``product_each(L.shape)``).

    >>> from unilayout import cute
    >>> print(cute_to_affine(cute.parse("((2,2),2):((4,1),2)")))
    (d0, d1) -> ((d0 mod 2) * 4 + d0 floordiv 2 + d1 * 2)
    >>> m = cute_to_affine(cute.parse("Sw<1,0,1> o 0 o 4:1"))
    >>> print(m), [m(i)[0] for i in range(4)]
    (d0) -> ((d0 floordiv 2) * 2 + (d0 + d0 floordiv 2) mod 2)
    (None, [0, 1, 3, 2])
    """
    from . import cute
    from .affine import AffineMap, Dim

    if isinstance(layout, cute.Swizzle):
        return AffineMap(1, 0, [_swizzle_expr(layout, Dim(0))])
    if isinstance(layout, cute.ComposedLayout):
        inner = layout.inner
        y = _cute_layout_expr(inner, [Dim(i) for i in range(inner.rank)]) + layout.offset
        if isinstance(layout.outer, cute.Swizzle):
            box = cute.product_each(inner.shape)
            box = box if isinstance(box, tuple) else (box,)
            return AffineMap(inner.rank, 0, [_swizzle_expr(layout.outer, y)]).simplify(box)
        shapes, strides, _ = layout.outer.flat()
        return AffineMap(inner.rank, 0, [_mode_expr(y, shapes, strides, extend=True)])
    if not isinstance(layout, cute.Layout):
        raise LayoutError(f"cute_to_affine: expected a CuTe Layout, Swizzle or ComposedLayout, got {_name(layout)}")
    return AffineMap(layout.rank, 0, [_cute_layout_expr(layout, [Dim(i) for i in range(layout.rank)])])


def linear_to_affine(layout):
    """A linear layout as an ``AffineMap``: one dim per in-dim, one result per out-dim (always exact).

    Each out-dim is written as a CuTe mode sum where its bases have disjoint
    bits, as a swizzled one where one swizzle separates them, and otherwise
    bit by bit: output bit ``k`` is ``(sum of the input bits that reach it)
    mod 2``, input bit ``j`` of dim ``d`` being ``d floordiv 2**j`` (its parity
    is the bit). The map is meant on the box of in-dim sizes.

    **Pre-conditions**: none; every linear layout converts.

    **Post-condition**: ``m(*x) == tuple(L.apply(dict(zip(in_dims, x))).values())`` on the box.

    >>> from unilayout import linear
    >>> L = linear.LinearLayout({"t": [[1, 1], [2, 2]], "w": [[0, 1], [0, 2]]}, ["x", "y"])
    >>> m = linear_to_affine(L)
    >>> m(3, 3), L.apply({"t": 3, "w": 3})
    ((3, 0), {'x': 3, 'y': 0})
    """
    from . import cute
    from .affine import AffineMap, Constant, Dim
    from .linear import LinearLayout

    if not isinstance(layout, LinearLayout):
        raise LayoutError(f"linear_to_affine: expected a LinearLayout, got {_name(layout)}")
    ins = layout.bases
    dims = [Dim(i) for i in range(len(ins))]
    results = []
    for j, (oname, _) in enumerate(layout.out_dims):
        per = [(name, [vec[j] for vec in vecs]) for name, vecs in ins]
        values = [v for _, vals in per for v in vals]
        sw = None if _disjoint(values) else _find_swizzle(values)
        if _disjoint(values) or sw is not None:
            expr = Constant(0)
            for x, (_, vals) in zip(dims, per):
                vv = [sw(v) for v in vals] if sw is not None else vals
                if vv:
                    shapes, strides, _ = cute.coalesce(cute.Layout((2,) * len(vv), tuple(vv))).flat()
                    expr = expr + _mode_expr(x, shapes, strides)
            results.append(_swizzle_expr(sw, expr) if sw is not None else expr)
            continue
        expr = Constant(0)
        for bit in range(max(values).bit_length()):
            parity = Constant(0)
            for x, (_, vals) in zip(dims, per):
                for i, v in enumerate(vals):
                    if v >> bit & 1:
                        parity = parity + (x if i == 0 else x.floordiv(1 << i))
            if parity != Constant(0):
                expr = expr + (parity % 2) * (1 << bit)
        results.append(expr)
    return AffineMap(len(dims), 0, results).simplify(tuple(n for _, n in layout.in_dims))



# =============================================================================================
# TSL <-> CuTe, TSL -> affine
# =============================================================================================


def tsl_to_affine(t):
    """The address function of a TSL as a one-result ``AffineMap`` (offset included).

    Level k of dim d contributes ``step * ((d mod M_k) floordiv F_k)`` with
    ``M_k`` the product of the bounds from level k inward and ``F_k`` of those
    inside it; the outermost level drops the ``mod``, factors 1 and bound-1
    levels vanish, and the offset comes last. ``?`` steps become symbols
    ``s0, s1, ..`` in (dim, level) order and a ``?`` offset the last symbol.

    **Pre-conditions**: none; ``?`` values become symbols.

    **Post-condition** (static t): ``tsl_to_affine(t)(*crd) == (t(*crd),)`` on the box.

    >>> from unilayout import tsl
    >>> m = tsl_to_affine(tsl.parse("#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5>"))
    >>> print(m), m(5, 6)
    (d0, d1) -> ((d0 floordiv 4) * 32 + (d0 mod 4) * 4 + (d1 floordiv 4) * 16 + d1 mod 4 + 5)
    (None, (59,))
    """
    from .affine import AffineMap, Constant, Dim, Symbol
    from .tsl import TiledStridedLayout

    if not isinstance(t, TiledStridedLayout):
        raise LayoutError(f"tsl_to_affine: expected a TiledStridedLayout, got {type(t).__name__}")
    num_symbols = 0
    expr = Constant(0)
    for d, ts in enumerate(t.tstrides):
        bounds = ts.bounds
        for k, s in enumerate(ts.strides):
            if s.step is None:
                step = Symbol(num_symbols)
                num_symbols += 1
            else:
                step = Constant(s.step)
            if s.bound == 1:
                continue
            inner = 1
            for b in bounds[k + 1 :]:
                inner *= b
            digit = Dim(d)
            if k > 0:
                digit = digit % (inner * s.bound)
            if inner != 1:
                digit = digit.floordiv(inner)
            expr = expr + digit * step
    if t.offset is None:
        expr = expr + Symbol(num_symbols)
        num_symbols += 1
    else:
        expr = expr + t.offset
    return AffineMap(t.rank, num_symbols, [expr])


def tsl_to_cute(t):
    """The CuTe ``Layout`` with the same natural-coordinate function: ``L(*crd) == t(*crd)``.

    Each dim becomes one mode, levels reversed (a one-level dim an integral
    mode). The 1-D orders differ: CuTe's has mode 0 fastest, TSL's
    ``index_map`` the last dim.

    **Pre-conditions** (else ``NotRepresentableError``): static, offset 0
    (CuTe keeps offsets in the pointer).

    **Post-condition**: ``L(*crd) == t(*crd)`` for every natural coordinate.

    >>> from unilayout import tsl
    >>> str(tsl_to_cute(tsl.parse("[2, 4] -> (32, 4)"))), str(tsl_to_cute(tsl.parse("[8] -> (1), [4] -> (8)")))
    ('((4,2)):((4,32))', '(8,4):(1,8)')
    """
    from . import cute
    from .tsl import TiledStridedLayout

    if not isinstance(t, TiledStridedLayout):
        raise LayoutError(f"tsl_to_cute: expected a TiledStridedLayout, got {type(t).__name__}")
    if t.offset != 0:
        raise NotRepresentableError(
            f"{t} has offset {'?' if t.offset is None else t.offset}: a CuTe layout has no offset "
            "(CuTe keeps it in the pointer); convert the layout with offset 0"
        )
    for d, k, s in t:
        if s.is_dynamic():
            raise NotRepresentableError(f"{t} has a '?' at dim {d}, level {k}: CuTe layouts here are static; resolve it first")
    shape, stride = [], []
    for ts in t.tstrides:
        if ts.depth == 1:
            shape.append(ts.bounds[0])
            stride.append(ts.steps[0])
        else:
            shape.append(tuple(reversed(ts.bounds)))
            stride.append(tuple(reversed(ts.steps)))
    return cute.Layout(tuple(shape), tuple(stride))


def cute_to_tsl(layout, offset=0):
    """The TSL of a CuTe ``Layout``: each top-level mode flattened (colexicographic) and reversed.

    **Pre-conditions**: a plain ``Layout`` of rank >= 1 (else ``NotRepresentableError``).

    **Post-condition**: ``cute_to_tsl(L, o)(*crd) == o + L(*crd)`` for natural coordinates.

    >>> from unilayout import cute
    >>> str(cute_to_tsl(cute.Layout(((2, 2), 3), ((1, 6), 2)), offset=1))
    '#tsl.tsl<[2, 2] -> (6, 1), [3] -> (2), offset: 1>'
    """
    from . import cute
    from .tsl import Stride, TiledStride, TiledStridedLayout

    if not isinstance(layout, cute.Layout):
        raise NotRepresentableError(
            f"cute_to_tsl: only plain cute.Layout values have a TSL form, got {type(layout).__name__}"
        )
    shape, stride = layout.shape, layout.stride
    modes = zip(shape, stride) if isinstance(shape, tuple) else [(shape, stride)]
    tstrides = []
    for s, d in modes:
        bs = cute.flatten(s) if isinstance(s, tuple) else (s,)
        ds = cute.flatten(d) if isinstance(d, tuple) else (d,)
        tstrides.append(TiledStride([Stride(b, st) for b, st in zip(reversed(bs), reversed(ds))]))
    if not tstrides:
        raise NotRepresentableError("cute_to_tsl: a rank-0 CuTe layout has no TSL form (TSL needs >= 1 dim)")
    return TiledStridedLayout(tstrides, offset)


# =============================================================================================
# TSL <-> linear (through CuTe)
# =============================================================================================


def tsl_to_linear(t, in_dims=None, out_dims=None):
    """The linear layout of a static TSL with offset 0: ``cute_to_linear(tsl_to_cute(t))``.

    TSL dim ``i`` becomes in-dim ``dim{i}`` (natural coordinates agree); the
    address becomes out-dim ``offset``.

    **Pre-conditions** (else ``NotRepresentableError``): offset 0 (linear
    layouts map 0 to 0), no ``?``, power-of-two dim sizes, steps whose bit
    images do not carry (see ``cute_to_linear``).

    **Post-condition**: ``L.apply({"dim0": i0, ..})["offset"] == t(i0, ..)`` on the box.

    >>> from unilayout import tsl
    >>> tsl_to_linear(tsl.parse("[2, 2] -> (1, 2), [4] -> (4)")).bases
    [('dim0', [[2], [1]]), ('dim1', [[4], [8]])]
    """
    from .tsl import TiledStridedLayout

    if not isinstance(t, TiledStridedLayout):
        raise LayoutError(f"tsl_to_linear: expected a TiledStridedLayout, got {_name(t)}")
    if t.offset != 0:
        raise NotRepresentableError(
            f"{t} has offset {'?' if t.offset is None else t.offset}: a linear layout maps 0 to 0"
        )
    return cute_to_linear(tsl_to_cute(t), in_dims=in_dims, out_dims=out_dims)


def linear_to_tsl(layout):
    """The TSL of a linear layout whose CuTe form is a plain ``Layout``: ``cute_to_tsl(linear_to_cute(L))``.

    In-dim ``i`` becomes TSL dim ``i``; out-dims are flattened as in
    ``linear_to_cute``.

    **Pre-conditions** (else ``NotRepresentableError``): the flattened bases
    have disjoint bits (a swizzled layout has no TSL form: a TSL adds).

    **Post-condition**: ``t(*x) == offset`` of ``L`` at in-dims ``x`` (out-dims flattened).

    >>> from unilayout import linear
    >>> str(linear_to_tsl(linear.identity_1d(8, "i", "o")))
    '#tsl.tsl<[8] -> (1)>'
    """
    from . import cute

    c = linear_to_cute(layout)
    if not isinstance(c, cute.Layout):
        raise NotRepresentableError(f"linear_to_tsl: the layout is swizzled ({c.outer}): a TSL only adds strides")
    return cute_to_tsl(c)


# =============================================================================================
# affine (on a box) -> CuTe / TSL / linear: fitted to the table, then verified
# =============================================================================================


def _fit_mode(f, what):
    """Leaves ``[(s, d), ..]`` with ``f(c) == sum((c // P_j) % s_j * d_j)``, or NotRepresentable."""
    leaves = []
    g = f
    while len(g) > 1:
        m = len(g)
        d = int(g[1])
        bad = np.flatnonzero(g != np.arange(m, dtype=np.int64) * d)
        s = m if bad.size == 0 else int(bad[0])
        if m % s:
            raise NotRepresentableError(f"{what}: not a CuTe mode: {s} steps of {d}, then a break, over {m} points")
        G = g.reshape(m // s, s)
        if not np.array_equal(G, G[:, :1] + G[:1, :]):
            raise NotRepresentableError(f"{what}: not a CuTe mode: blocks of {s} do not repeat by a stride")
        leaves.append((s, d))
        g = np.ascontiguousarray(G[:, 0])
    return leaves or [(1, 0)]


def _fit_cute(table, what):
    """A CuTe Layout (one mode per axis) with ``L(*c) == table[c] - table[0]``, and ``table[0]``."""
    from . import cute

    table = np.asarray(table, dtype=np.int64)
    base = int(table.reshape(-1)[0]) if table.size else 0
    D = table - base
    modes_s, modes_d, total = [], [], np.zeros((1,) * table.ndim, dtype=np.int64)
    for ax in range(table.ndim):
        idx = [0] * table.ndim
        idx[ax] = slice(None)
        f = D[tuple(idx)]
        leaves = _fit_mode(f, f"{what}, dim {ax}")
        if len(leaves) == 1:
            modes_s.append(leaves[0][0])
            modes_d.append(leaves[0][1])
        else:
            modes_s.append(tuple(s for s, _ in leaves))
            modes_d.append(tuple(d for _, d in leaves))
        shape = [1] * table.ndim
        shape[ax] = f.size
        total = total + f.reshape(shape)
    if not np.array_equal(total, D):
        raise NotRepresentableError(f"{what}: the dims do not contribute independently (not a sum of per-dim strides)")
    if table.ndim == 1 and not isinstance(modes_s[0], tuple):
        return cute.Layout(modes_s[0], modes_d[0]), base
    return cute.Layout(tuple(modes_s), tuple(modes_d)), base


def _affine_table(m, shape, what):
    from .affine import AffineMap

    if not isinstance(m, AffineMap):
        raise LayoutError(f"{what}: expected an AffineMap, got {_name(m)}")
    if shape is None:
        raise LayoutError(f"{what}: an affine map has no box of its own; pass shape (one size per dim)")
    if m.num_symbols:
        raise NotRepresentableError(f"{what}: {m} has symbols; substitute them first (replace(symbols=...))")
    if m.num_results != 1:
        raise NotRepresentableError(f"{what}: {m} has {m.num_results} results; this target has one offset")
    shape = _as_shape(shape, what)
    if len(shape) != m.num_dims:
        raise LayoutError(f"{what}: {m} has {m.num_dims} dim(s) but the box {shape} has {len(shape)}")
    n = math.prod(shape)
    if n > MAX_POINTS:
        raise LayoutError(f"{what}: the box {tuple(shape)} has {n} points, more than {MAX_POINTS} to tabulate")
    if n == 0 or not len(shape):
        raise NotRepresentableError(f"{what}: the box {tuple(shape)} is empty or has no dims")
    return m.index_map(shape)[:, 0].reshape(tuple(shape))


def affine_to_cute(m, shape):
    """The CuTe layout of a one-result affine map on the box ``shape``, where its values are CuTe-strided.

    Dim ``i`` becomes mode ``i``; each dim's values are fitted to a
    hierarchical mode (``(s0,s1,..):(d0,d1,..)``, colexicographic) and the
    whole table is then checked, so the result is exact or an error.

    **Pre-conditions** (else ``NotRepresentableError``): one result, no
    symbols, at most ``MAX_POINTS`` points, 0 at the origin (CuTe keeps
    offsets in the pointer; ``affine_to_tsl`` keeps it), each dim's values a
    hierarchical CuTe mode and the dims contributing independently.

    **Post-condition**: ``L(*c) == m(*c)[0]`` for every ``c`` in the box.

    >>> from unilayout import affine
    >>> str(affine_to_cute(affine.parse("(d0, d1) -> ((d0 floordiv 4) * 32 + (d0 mod 4) * 4 + d1)"), (8, 4)))
    '((4,2),4):((4,32),1)'
    >>> affine_to_cute(affine.parse("(d0) -> (d0 mod 3 + d0 floordiv 2)"), (6,))
    Traceback (most recent call last):
    ...
    unilayout.errors.NotRepresentableError: affine_to_cute, dim 0: not a CuTe mode: blocks of 2 do not repeat by a stride
    """
    table = _affine_table(m, shape, "affine_to_cute")
    L, base = _fit_cute(table, "affine_to_cute")
    if base != 0:
        raise NotRepresentableError(
            f"affine_to_cute: {m} is {base} at the origin: a CuTe layout maps 0 to 0 (use affine_to_tsl to keep the offset)"
        )
    return L


def affine_to_tsl(m, shape):
    """The TSL of a one-result affine map on the box ``shape`` (fitted as ``affine_to_cute``; the origin value is the offset).

    **Pre-conditions**: those of ``affine_to_cute`` except the origin value.

    **Post-condition**: ``t(*c) == m(*c)[0]`` for every ``c`` in the box.

    >>> from unilayout import affine
    >>> str(affine_to_tsl(affine.parse("(d0, d1) -> (d0 * 8 + d1 + 5)"), (4, 8)))
    '#tsl.tsl<[4] -> (8), [8] -> (1), offset: 5>'
    """
    table = _affine_table(m, shape, "affine_to_tsl")
    L, base = _fit_cute(table, "affine_to_tsl")
    return cute_to_tsl(L, offset=base)


def affine_to_linear(m, shape, in_dims=None, out_dims=None):
    """The linear layout of an affine map on a power-of-two box, when it is GF(2)-linear there.

    Dims become in-dims ``dim0, ..`` (or ``in_dims``), results out-dims
    ``out0, ..`` (or ``out_dims``, names), sized to the next power of two
    above each result's maximum. The bases are the values at the powers of
    two; the whole table is then compared with their XORs.

    **Pre-conditions** (else ``NotRepresentableError``): power-of-two box,
    no symbols, values >= 0, 0 at the origin, and GF(2)-linear on the box.

    **Post-condition**: ``L.apply(dict(zip(in_dims, x)))`` gives ``m(*x)`` on the box.

    >>> from unilayout import affine
    >>> affine_to_linear(affine.parse("(d0, d1) -> (d1, d0 * 2)"), (2, 4)).bases
    [('dim0', [[0, 2]]), ('dim1', [[1, 0], [2, 0]])]
    >>> affine_to_linear(affine.parse("(d0) -> (d0 + 1)"), (4,))
    Traceback (most recent call last):
    ...
    unilayout.errors.NotRepresentableError: affine_to_linear: (d0) -> (d0 + 1) is (1,) at the origin: a linear layout maps 0 to 0
    """
    from .affine import AffineMap
    from .linear import LinearLayout

    what = "affine_to_linear"
    if not isinstance(m, AffineMap):
        raise LayoutError(f"{what}: expected an AffineMap, got {_name(m)}")
    if shape is None:
        raise LayoutError(f"{what}: an affine map has no box of its own; pass shape (one size per dim)")
    if m.num_symbols:
        raise NotRepresentableError(f"{what}: {m} has symbols; substitute them first")
    shape = _as_shape(shape, what)
    if len(shape) != m.num_dims:
        raise LayoutError(f"{what}: {m} has {m.num_dims} dim(s) but the box {shape} has {len(shape)}")
    for i, s in enumerate(shape):
        if not _pow2(s):
            raise NotRepresentableError(f"{what}: size {s} of dim {i} is not a power of two: pad to {_next_pow2(max(s, 1))}")
    n = math.prod(shape)
    if n > MAX_POINTS:
        raise LayoutError(f"{what}: the box {shape} has {n} points, more than {MAX_POINTS} to tabulate")
    table = m.index_map(shape)
    if table.size and table.min() < 0:
        raise NotRepresentableError(f"{what}: {m} takes negative values on {shape}: linear layouts reach only >= 0")
    origin = m(*([0] * len(shape)))
    if any(origin):
        raise NotRepresentableError(f"{what}: {m} is {origin} at the origin: a linear layout maps 0 to 0")
    names = list(in_dims) if in_dims is not None else [f"dim{i}" for i in range(len(shape))]
    onames = list(out_dims) if out_dims is not None else [f"out{j}" for j in range(m.num_results)]
    if len(names) != len(shape) or len(onames) != m.num_results:
        raise LayoutError(f"{what}: give one in-dim name per dim and one out-dim name per result")
    bases = {}
    for i, s in enumerate(shape):
        vecs = []
        for k in range(s.bit_length() - 1):
            x = [0] * len(shape)
            x[i] = 1 << k
            vecs.append(list(m(*x)))
        bases[names[i]] = vecs
    maxes = table.max(axis=0) if table.size else np.zeros(m.num_results, dtype=np.int64)
    outs = {o: _next_pow2(int(v) + 1) for o, v in zip(onames, maxes)}
    L = LinearLayout(bases, outs, require_surjective=False)
    # compare in the same (row-major) order as the table
    lin = L.index_map().reshape(tuple(reversed(shape)) + (m.num_results,))
    lin = lin.transpose(tuple(reversed(range(len(shape)))) + (len(shape),)).reshape(-1, m.num_results)
    if not np.array_equal(lin, table):
        bad = int(np.flatnonzero((lin != table).any(axis=1))[0])
        x = tuple(int(v) for v in np.unravel_index(bad, shape))
        raise NotRepresentableError(
            f"{what}: {m} is not GF(2)-linear on {shape}: at {x} it is {tuple(table[bad].tolist())} but the XOR "
            f"of its values at the powers of two is {tuple(lin[bad].tolist())}"
        )
    return L


# =============================================================================================
# metal layout -> affine, -> CuTe per shard
# =============================================================================================


def metal_to_affine(ml, flat=False):
    """A metal layout as an ``AffineMap`` from the logical index to its place in ``shard()``'s output.

    The collapse map ``p = linear(x)`` composed with the grid/shard split
    ``G = p floordiv s``, ``q = p mod s`` (``s = shard_shape``): the results
    are ``G + q``, the coordinates of ``shards_shape`` (grid, then the
    row-major padded shard; tiles only pad the shard). With ``flat=True``:
    one result, their row-major position, which is ``index_map(ml)``. The
    map is simplified on the tensor's box (it is meant there).

    **Post-condition**: on the logical box, ``metal_to_affine(ml, flat=True)``
    gives ``ml.index_map()``, and ``metal_to_affine(ml)(*x) == sum(ml.locate(*x), ())``.

    >>> from unilayout import tt
    >>> ml = tt.MetalLayout.from_collapse((2, 3, 64, 128), (2, 4))
    >>> print(metal_to_affine(ml))
    (d0, d1, d2, d3) -> (d0, d3 floordiv 32, d1 * 64 + d2, d3 mod 32)
    >>> metal_to_affine(ml)(1, 1, 6, 100), ml.locate(1, 1, 6, 100)
    ((1, 3, 70, 4), ((1, 3), (70, 4)))
    """
    from .affine import AffineMap
    from .tt import MetalLayout

    if not isinstance(ml, MetalLayout):
        raise LayoutError(f"metal_to_affine: expected a MetalLayout, got {_name(ml)}")
    g = len(ml.grid)
    s = ml.shard_shape
    grid = [r.floordiv(n) for r, n in zip(ml.linear.results, s)]
    q = [r % n for r, n in zip(ml.linear.results, s)]
    shp = ml.shards_shape
    if len(shp) == 2 * g:
        coords = grid + q
    else:  # a tile-major shard(): grid + memref + tile
        th, tw = ml.tile
        coords = grid + q[:-2] + [q[-2].floordiv(th), q[-1].floordiv(tw), q[-2] % th, q[-1] % tw]
    m = AffineMap(ml.rank, 0, coords)
    if flat:
        expr = None
        for c, n in zip(m.results, shp):
            expr = c if expr is None else expr * n + c
        m = AffineMap(ml.rank, 0, [expr])
    return m.simplify(ml.logical_shape)


class ShardLayout(NamedTuple):
    """One shard of a metal layout as CuTe: the box of the tensor it holds and where each element sits.

    Element ``origin + c`` (``c`` a natural coordinate of ``layout``) is at
    ``shard_buffer[offset + layout(c)]``, where ``shard_buffer`` is that
    core's part of ``shard()``'s output, flattened row-major. Cores holding
    no element have ``origin``, ``offset`` and ``layout`` None.

    >>> ShardLayout((0, 1), (0, 2), 0, None).grid_coord
    (0, 1)
    """

    grid_coord: tuple
    origin: tuple
    offset: int
    layout: object


def metal_to_cute(ml, grid_coord=None, tiles=False):
    """The CuTe layout of each shard of a metal layout (``ShardLayout`` values).

    With ``grid_coord``: that core's ``ShardLayout``; without: a tuple of all
    of them, grid in row-major order. A shard is CuTe when the elements it
    holds form a box of the logical tensor and their positions in the
    shard's buffer are CuTe-strided in the box's natural coordinates (one
    mode per logical dim; tiles give hierarchical modes). The fit is checked
    on every element, so the answer is exact or ``NotRepresentableError``.

    **Pre-conditions** (else ``NotRepresentableError``): each non-empty
    shard holds a box of the tensor (a collapsed group split across cores in
    the middle of a dim does not) and the positions are CuTe-strided in it;
    at most ``MAX_POINTS`` elements.

    With ``tiles=True`` positions are in the tile-major buffer a core holds
    (``ml.to_tiles(ml.shard(a))[G]``: tile row, tile column, then the
    tile's rows and columns), so tiles show as hierarchical modes.

    **Post-condition**: ``shard()[G].reshape(-1)[offset + layout(c)] == a[origin + c]``
    (``to_tiles(shard())[G]`` with ``tiles=True``).

    >>> from unilayout import tt
    >>> ml = tt.MetalLayout.from_collapse((53, 63), (3, 2))
    >>> metal_to_cute(ml, (2, 1))
    ShardLayout(grid_coord=(2, 1), origin=(36, 32), offset=0, layout=Layout((17, 31), (32, 1)))
    >>> str(metal_to_cute(tt.MetalLayout.from_collapse((2, 3, 64, 128), (2, 4)), (1, 3)).layout)
    '(1,3,64,32):(0,2048,32,1)'
    >>> t = tt.MetalLayout.from_collapse((64, 64), (1, 1), tile=(32, 32))
    >>> str(metal_to_cute(t, (0, 0)).layout), str(metal_to_cute(t, (0, 0), tiles=True).layout)
    ('(64,64):(64,1)', '((32,2),(32,2)):((32,2048),(1,1024))')
    """
    from .tt import MetalLayout

    if not isinstance(ml, MetalLayout):
        raise LayoutError(f"metal_to_cute: expected a MetalLayout, got {_name(ml)}")
    g = len(ml.grid)
    if grid_coord is not None:
        G = _as_shape(grid_coord, "metal_to_cute: grid_coord")
        if len(G) != g or any(not 0 <= v < n for v, n in zip(G, ml.grid)):
            raise LayoutError(f"metal_to_cute: grid coordinate {G} is outside the grid {ml.grid}")
        wanted = [int(np.ravel_multi_index(G, ml.grid))]
    else:
        wanted = range(math.prod(ml.grid))
    if ml.volume > MAX_POINTS:
        raise LayoutError(f"metal_to_cute: {ml.volume} elements are more than {MAX_POINTS} to tabulate")
    flat = ml.index_map()
    if tiles and ml.tile is not None:
        from .tt.shard import to_tiles

        held = to_tiles(ml, np.arange(math.prod(ml.shards_shape), dtype=np.int64).reshape(ml.shards_shape))
        where = np.empty(held.size, dtype=np.int64)
        where[held.reshape(-1)] = np.arange(held.size, dtype=np.int64)
        flat = where[flat]
    per_core = math.prod(ml.shards_shape[g:])
    core = flat // per_core
    pos = flat - core * per_core
    order = np.argsort(core, kind="stable")
    sorted_core = core[order]
    out = []
    for c in wanted:
        Gc = tuple(int(v) for v in np.unravel_index(c, ml.grid))
        lo, hi = np.searchsorted(sorted_core, [c, c + 1])
        if lo == hi:
            out.append(ShardLayout(Gc, None, None, None))
            continue
        members = order[lo:hi]  # logical flat indices, increasing
        idx = np.unravel_index(members, ml.logical_shape)
        origin = tuple(int(a.min()) for a in idx)
        ext = tuple(int(a.max()) - o + 1 for a, o in zip(idx, origin))
        what = f"metal_to_cute: shard {Gc}"
        if math.prod(ext) != members.size:
            raise NotRepresentableError(
                f"{what} holds {members.size} elements that are not a box of the tensor (their bounding box is "
                f"{'x'.join(map(str, ext))} at {origin}): no one CuTe layout describes it"
            )
        L, base = _fit_cute(pos[members].reshape(ext), what)
        out.append(ShardLayout(Gc, origin, base, L))
    return out[0] if grid_coord is not None else tuple(out)


def device_to_affine(device):
    """A device as an ``AffineMap`` from its worker-grid coordinate to ``(chip_id, y, x)``.

    The worker-grid map gives a chip *index* (into ``chip_ids``); the chip id
    is affine in it when the ids are an arithmetic progression
    (``chip_ids[i] == c0 + k * i``), and then the first result becomes
    ``c0 + k * index``. Other id lists are a lookup table, not affine.

    **Pre-conditions** (else ``NotRepresentableError``): ``chip_ids`` is an
    arithmetic progression (one chip always is).

    **Post-condition**: ``device_to_affine(dev)(*G) == dev.physical_core(*G)`` on the grid.

    >>> from unilayout import tt
    >>> dev = tt.Device.from_mesh(tt.SystemDesc((8, 8), 8), (1, 2), [4, 5])
    >>> print(device_to_affine(dev))
    (d0, d1) -> (d1 floordiv 8 + 4, d0, d1 mod 8)
    >>> device_to_affine(dev)(3, 9), dev.physical_core(3, 9)
    ((5, 3, 1), (5, 3, 1))
    """
    from .affine import AffineMap
    from .tt import Device

    if not isinstance(device, Device):
        raise LayoutError(f"device_to_affine: expected a Device, got {_name(device)}")
    ids = list(device.chip_ids)
    c0 = ids[0]
    k = ids[1] - ids[0] if len(ids) > 1 else 1
    if any(v != c0 + k * i for i, v in enumerate(ids)):
        raise NotRepresentableError(
            f"device_to_affine: chip ids {ids} are not an arithmetic progression of the chip index: the id is a "
            "table lookup, not affine (device.grid_map gives the index)"
        )
    m = device.grid_map
    first = m.results[0] * k + c0
    return AffineMap(m.num_dims, m.num_symbols, [first, *m.results[1:]])


# =============================================================================================
# dispatch
# =============================================================================================


_FAMILY_TYPES = (
    ("cute", "unilayout.cute", ("Layout", "ComposedLayout", "Swizzle")),
    ("linear", "unilayout.linear", ("LinearLayout",)),
    ("affine", "unilayout.affine", ("AffineMap",)),
    ("tsl", "unilayout.tsl", ("TiledStridedLayout",)),
    ("metal", "unilayout.tt", ("MetalLayout",)),
    ("device", "unilayout.tt", ("Device",)),
)


def family_of(value) -> str:
    """The family name of a unilayout layout value: cute, linear, affine, tsl, metal or device.

    Layout values only: a CuTe ``Layout``, ``ComposedLayout`` or ``Swizzle``,
    a ``LinearLayout``, an ``AffineMap``, a ``TiledStridedLayout``, a
    ``MetalLayout`` or a ``Device``; anything else is a ``LayoutError``.

    >>> from unilayout import cute
    >>> family_of(cute.Layout(4, 1)), family_of(cute.Swizzle(1, 0, 1))
    ('cute', 'cute')
    >>> family_of(cute.Tensor([1, 2], cute.Layout(2, 1)))
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: expected a unilayout layout value (CuTe Layout/ComposedLayout/Swizzle, LinearLayout, AffineMap, TiledStridedLayout, MetalLayout or Device), got Tensor
    """
    import importlib

    mod = type(value).__module__ or ""
    for fam, package, names in _FAMILY_TYPES:
        if mod.startswith(package):
            module = importlib.import_module(package)
            if any(isinstance(value, getattr(module, n)) for n in names):
                return fam
    raise LayoutError(
        "expected a unilayout layout value (CuTe Layout/ComposedLayout/Swizzle, LinearLayout, AffineMap, "
        f"TiledStridedLayout, MetalLayout or Device), got {_name(value)}"
    )


def convert_to(value, family, **options):
    """Convert ``value`` to ``family`` (``cute``, ``linear``, ``affine`` or ``tsl``) with the function above for the pair.

    ``options`` go to that function (``in_dims``/``out_dims`` for linear
    targets, ``shape`` for an affine source or to resolve a TSL's ``?``,
    ``flat`` for a metal layout to affine, ``tiles`` for one to CuTe).
    Converting to the value's own family returns it unchanged (a TSL
    resolved by ``shape``). A metal layout converts to ``cute`` as its tuple
    of ``ShardLayout``; a device to ``affine`` with ``device_to_affine``.

    >>> from unilayout import cute
    >>> print(convert_to(cute.parse("(2,2):(2,1)"), "affine"))
    (d0, d1) -> (d0 * 2 + d1)
    >>> convert_to(cute.parse("(2,2):(2,1)"), "metal")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: convert_to: unknown target family 'metal'; choose one of cute, linear, affine, tsl
    """
    if family not in FAMILIES:
        raise LayoutError(f"convert_to: unknown target family {family!r}; choose one of {', '.join(FAMILIES)}")
    src = family_of(value)
    shape = options.pop("shape", None)
    if shape is not None and src == "tsl":
        value = value.resolve(_as_shape(shape, "convert_to"))
    elif shape is not None and src != "affine":
        raise LayoutError(
            f"convert_to: shape is the box of an affine map (or resolves a TSL's '?'); a {src} value has its own domain"
        )
    if src == family:
        return value
    table = {
        ("cute", "linear"): cute_to_linear,
        ("cute", "affine"): cute_to_affine,
        ("cute", "tsl"): cute_to_tsl,
        ("linear", "cute"): linear_to_cute,
        ("linear", "affine"): linear_to_affine,
        ("linear", "tsl"): linear_to_tsl,
        ("tsl", "cute"): tsl_to_cute,
        ("tsl", "affine"): tsl_to_affine,
        ("tsl", "linear"): tsl_to_linear,
        ("affine", "cute"): lambda m: affine_to_cute(m, shape),
        ("affine", "tsl"): lambda m: affine_to_tsl(m, shape),
        ("affine", "linear"): lambda m, **kw: affine_to_linear(m, shape, **kw),
        ("metal", "affine"): metal_to_affine,
        ("metal", "cute"): metal_to_cute,
        ("device", "affine"): device_to_affine,
    }
    fn = table.get((src, family))
    if fn is None:
        why = {
            "metal": "a metal layout maps onto a grid of shards; convert it to affine, or to cute shard by shard",
            "device": "a device maps grid coordinates to chips and cores; its map converts to affine",
        }.get(src, f"no {src} value converts to {family}")
        raise NotRepresentableError(f"convert_to: {src} -> {family}: {why}")
    if src == "cute" and family == "tsl" and type(value).__name__ != "Layout":
        raise NotRepresentableError(
            f"convert_to: {value} is a {type(value).__name__}: a TSL only adds strides (no swizzle, no composition)"
        )
    try:
        return fn(value, **options)
    except TypeError as e:
        raise LayoutError(f"convert_to: {src} -> {family} does not take the options {sorted(options)}: {e}") from None
