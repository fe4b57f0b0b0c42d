"""CuTe and linear layouts as MLIR affine maps: always exact.

A CuTe mode with leaves ``(s_j):(d_j)`` is ``sum_j ((x floordiv P_j) mod s_j) * d_j``
(``P_j`` the product of the leaves before ``j``; the last leaf needs no ``mod`` on
the box). A swizzle is exact in affine arithmetic: each XORed bit is
``(bit_t + bit_src) mod 2`` with ``bit_k = (y floordiv 2**k) mod 2``. A linear
layout is written the same way, one result per out-dim, as a CuTe mode sum, a
swizzled one, or bit by bit (output bit ``k`` the parity of the input bits that
reach it).

>>> from unilayout import cute
>>> print(cute_to_affine(cute.parse("(4,2):(2,1)")))
(d0, d1) -> (d0 * 2 + d1)
"""

from __future__ import annotations

from .. import cute
from ..affine import AffineMap, Constant, Dim
from ..cute.fit import find_swizzle
from ..errors import LayoutError
from ..linear import LinearLayout
from ._common import _name

__all__ = ["cute_to_affine", "linear_to_affine"]


def _mode_expr(x, shapes, strides, extend=False):
    """``sum_j ((x floordiv P_j) mod s_j) * d_j`` over colexicographic leaves; the last one keeps no mod.

    With ``extend`` the last leaf takes every coordinate past the size (CuTe's
    1-D evaluation beyond ``size``), so it is kept even when its size is 1.
    """
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

    shape, stride = layout.shape, layout.stride
    modes = list(zip(shape, stride)) if isinstance(shape, tuple) else [(shape, stride)]

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
    if not isinstance(layout, LinearLayout):
        raise LayoutError(f"linear_to_affine: expected a LinearLayout, got {_name(layout)}")
    ins = layout.bases
    dims = [Dim(i) for i in range(len(ins))]
    results = []
    for j in range(len(layout.out_dims)):
        per = [(name, [vec[j] for vec in vecs]) for name, vecs in ins]
        values = [v for _, vals in per for v in vals]
        sw = find_swizzle(values)  # Sw<0,0,0> when already disjoint
        if sw is not None:
            expr = Constant(0)
            for x, (_, vals) in zip(dims, per):
                vv = [sw(v) for v in vals]
                if vv:
                    shapes, strides, _ = cute.coalesce(cute.Layout((2,) * len(vv), tuple(vv))).flat()
                    expr = expr + _mode_expr(x, shapes, strides)
            results.append(_swizzle_expr(sw, expr))
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


#: This file's pairs for ``convert_to``'s table.
PAIRS = {("cute", "affine"): cute_to_affine, ("linear", "affine"): linear_to_affine}
