"""CuTe <-> linear: where integer ``+`` and GF(2) XOR agree.

A CuTe layout is GF(2)-linear exactly when every in-dim has a power-of-two
size and the integer images of the input bits (``stride << j`` for bit ``j``
of a leaf) have pairwise disjoint bits: then every sum is an OR, which is
an XOR. A swizzle is an XOR, so ``Sw<B,M,S> o 0 o Layout`` is linear when
its layout is. Modes become in-dims (first in-dim least significant, as
CuTe's colexicographic 1-D order) and the offset out-dim ``offset``:

>>> from unilayout import cute
>>> L = cute_to_linear(cute.parse("(4,2):(2,1)"))
>>> L.bases, L.out_dims
([('dim0', [[2], [4]]), ('dim1', [[1]])], [('offset', 8)])
>>> linear_to_cute(L)
Layout((4, 2), (2, 1))

Going back, a linear layout is a CuTe ``Layout`` when its flattened bases
(``LinearLayout.flat_bases``) have disjoint bits, and ``Sw<B,M,S> o 0 o
Layout`` when one swizzle makes them so.
"""

from __future__ import annotations

import math

from .. import cute
from .._ints import is_pow2, next_pow2
from ..cute.fit import MAX_SWIZZLE_BITS, find_swizzle
from ..errors import LayoutError, NotRepresentableError
from ..linear import LinearLayout
from ._common import _name

__all__ = ["cute_to_linear", "linear_to_cute", "MAX_SWIZZLE_BITS"]

def _in_dim_leaves(layout, in_dims):
    """``[(name, [(shape, stride, label), ...]), ...]``: the leaves of each in-dim, colexicographic."""

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
    if not is_pow2(size):
        where = ", ".join(lab for _, _, lab in leaves)
        raise NotRepresentableError(
            f"{what}: in-dim {name!r} ({where}) has size {size}, not a power of two: pad to {next_pow2(size)}"
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
        if not last and not is_pow2(s):
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
        return [(out_dims or "offset", next_pow2(max(reach, 1)))]
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
        if isinstance(o[1], bool) or not isinstance(o[1], int) or not is_pow2(o[1]):
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


def _cute_from_flat(flat):
    """A CuTe Layout with one (coalesced) mode per in-dim from bit-disjoint flat bases."""

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
    if not isinstance(layout, LinearLayout):
        raise LayoutError(f"linear_to_cute: expected a LinearLayout, got {_name(layout)}")
    flat = layout.flat_bases()
    values = [v for _, vals in flat for v in vals]
    sw = find_swizzle(values)
    if sw is not None and sw.bits == 0:
        return _cute_from_flat(flat)
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


def _is_memory_layout(layout) -> bool:
    """True for a Triton shared-memory layout: in-dims ``offset`` and optionally ``block``."""
    names = [n for n, _ in layout.in_dims]
    return names[:1] == ["offset"] and set(names) <= {"offset", "block"}


def linear_to_cute_layout(layout):
    """What ``convert --to cute`` answers for a linear layout: CuTe's direction for memory layouts.

    A Triton shared encoding maps a memory ``offset`` (and CTA ``block``) to
    the element it holds; CuTe describes shared memory the other way round,
    element coordinate -> offset (``Sw<3,3,3> o 0 o (8,64):(64,1)`` tiled to
    the tensor). So a layout whose in-dims are ``offset`` [``block``] is
    inverted first (it must be a bijection: a Triton shared layout is) and a
    size-1 ``block`` out-dim dropped; any other layout converts as
    ``linear_to_cute`` (in-dims -> out-dims, e.g. (register, lane, warp) ->
    coordinate for a distributed layout).

    >>> import unilayout
    >>> shared = unilayout.parse("tensor<128x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, "
    ...                          "order = [1, 0]}>>")
    >>> str(linear_to_cute_layout(shared))
    'Sw<3,3,3> o 0 o (128,64):(64,1)'
    """
    if isinstance(layout, LinearLayout) and _is_memory_layout(layout):
        if not layout.is_invertible():
            raise NotRepresentableError(
                "linear_to_cute: this memory layout is not a bijection from offsets to elements "
                f"(in-dims {layout.in_dims}, out-dims {layout.out_dims}), so no CuTe element -> offset layout exists"
            )
        inv = layout.invert()
        if dict(inv.out_dims).get("block") == 1:
            inv = LinearLayout({n: [b[:1] for b in v] for n, v in inv.bases},
                               {"offset": dict(inv.out_dims)["offset"]}, require_surjective=False)
        layout = inv
    return linear_to_cute(layout)


#: This file's pairs for ``convert_to``'s table.
PAIRS = {("cute", "linear"): cute_to_linear, ("linear", "cute"): linear_to_cute_layout}
