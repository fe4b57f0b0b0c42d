"""Finding CuTe forms for given values: a swizzle that separates bits, a layout that reproduces a table.

Two searches that other families lean on when they meet CuTe:

- ``find_swizzle(values)``: CuTe adds offsets where a GF(2)-linear layout
  XORs them; the two agree when the offsets have pairwise disjoint bits. A
  swizzle ``Sw<B,M,S>`` is its own inverse, so when ``sw(v)`` are disjoint
  for the images ``v`` of the input bits, ``sw o 0 o Layout(sw(v))`` is the
  linear layout. The search tries the smallest swizzles first.
- ``fit_layout(table)``: the CuTe ``Layout`` (one mode per axis of the
  table) with ``L(*c) == table[c] - table[origin]``, or
  ``NotRepresentableError`` saying where the table stops being strided.
  Each axis is fitted by ``fit_mode`` (leaf by leaf: a run of equal steps,
  then blocks of that run repeating by the next stride), and the whole
  table is then checked, so the answer is exact.

>>> find_swizzle([1, 3])
Swizzle(1, 0, 1)
>>> import numpy as np
>>> layout, offset = fit_layout(np.arange(12).reshape(3, 4) * 2 + 5)
>>> str(layout), offset
('(3,4):(8,2)', 5)
"""

from __future__ import annotations

import numpy as np

from .._ints import as_items, as_nonneg
from ..errors import LayoutError, NotRepresentableError
from .layout import Layout
from .swizzle import Swizzle

__all__ = ["MAX_SWIZZLE_BITS", "find_swizzle", "fit_mode", "fit_layout"]

#: Widest value (in bits) for which ``find_swizzle`` searches: the search is cubic in the width.
MAX_SWIZZLE_BITS = 128


def _disjoint(values) -> bool:
    acc = 0
    for v in values:
        if v & acc:
            return False
        acc |= v
    return True


def _separates(vals, yyy, shift, sign) -> bool:
    seen = 0
    for v in vals:
        w = v ^ ((v & yyy) >> shift) if sign > 0 else v ^ ((v & yyy) << shift)
        if w & seen:
            return False
        seen |= w
    return True


def find_swizzle(values):
    """The smallest ``Swizzle`` under which the ints ``values`` have pairwise disjoint bits, or None.

    "Smallest": fewest bits ``B``, then smallest ``|S|``, then positive
    before negative ``S``, then smallest base ``M``. Values already
    disjoint give the identity ``Sw<0,0,0>``. Only swizzles inside the
    values' width are tried, and values wider than ``MAX_SWIZZLE_BITS``
    bits give None (the search would be too long). A larger swizzle that
    agrees on these values may be the one they came from; the function on
    them is the same.

    >>> find_swizzle([64, 144, 288, 1, 2, 4, 8, 16, 32])
    Swizzle(2, 4, 3)
    >>> find_swizzle([1, 2, 4]), find_swizzle([1, 2, 7])
    (Swizzle(0, 0, 0), None)
    """
    vals = [as_nonneg(v, f"find_swizzle: value {i}") for i, v in enumerate(as_items(values))]
    if _disjoint(vals):
        return Swizzle(0, 0, 0)
    acc = 0
    for v in vals:
        acc |= v
    nb = acc.bit_length()
    if nb > MAX_SWIZZLE_BITS:
        return None
    # multi-bit values first: a conflict then shows after a few values
    vals = sorted((v for v in vals if v), key=lambda v: -bin(v).count("1"))
    for b in range(1, nb // 2 + 1):
        mask = (1 << b) - 1
        for shift in range(b, nb - b + 1):
            for sign in (1, -1):
                for m in range(0, nb - b - shift + 1):
                    yyy = mask << (m + shift) if sign > 0 else mask << m
                    if _separates(vals, yyy, shift, sign):
                        return Swizzle(b, m, sign * shift)
    return None


def fit_mode(values, *, what="fit_mode"):
    """The leaves ``[(s_j, d_j), ..]`` of the CuTe mode whose value at ``c`` is ``values[c] - values[0]``.

    The mode is hierarchical and colexicographic: ``f(c) = sum_j ((c // P_j) % s_j) * d_j``
    with ``P_j = s_0 * .. * s_{j-1}``. Each leaf is the longest run of equal
    steps from the start; the blocks of that run must then repeat, shifted
    by the next leaf. ``NotRepresentableError`` (prefixed by ``what``) when
    no such mode exists; one value (or none) is the mode ``[(1, 0)]``.

    >>> fit_mode([0, 4, 8, 12, 1, 5, 9, 13])
    [(4, 4), (2, 1)]
    >>> fit_mode([0, 1, 3])
    Traceback (most recent call last):
    ...
    unilayout.errors.NotRepresentableError: fit_mode: not a CuTe mode: 2 steps of 1, then a break, over 3 points
    """
    g = _as_table(values, what)
    if g.ndim != 1:
        raise LayoutError(f"{what}: expected one axis of values, got shape {g.shape}")
    g = g - (g[0] if g.size else 0)
    leaves = []
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


def fit_layout(table, *, what="fit_layout"):
    """``(layout, offset)``: the CuTe ``Layout`` with ``offset + layout(*c) == table[c]`` at every index ``c``.

    Axis ``i`` of the table becomes mode ``i`` (fitted by ``fit_mode``; a
    one-leaf mode is an integer mode), ``offset`` is the value at the
    origin. The dims must contribute independently (the table is the sum of
    its axes through the origin); this and every value are checked.

    **Pre-conditions** (else ``NotRepresentableError``, prefixed by
    ``what``): each axis a CuTe mode, the axes independent. A table with
    no axes or no values is a ``LayoutError``.

    >>> fit_layout([[0, 1, 2, 3], [32, 33, 34, 35]])
    (Layout((2, 4), (32, 1)), 0)
    >>> fit_layout([[0, 1], [2, 4]])
    Traceback (most recent call last):
    ...
    unilayout.errors.NotRepresentableError: fit_layout: the dims do not contribute independently (not a sum of per-dim strides)
    """
    table = _as_table(table, what)
    if table.ndim == 0 or table.size == 0:
        raise LayoutError(f"{what}: expected a table with at least one axis and one value, got shape {table.shape}")
    base = int(table.reshape(-1)[0])
    D = table - base
    modes_s, modes_d, total = [], [], np.zeros((1,) * table.ndim, dtype=np.int64)
    for ax in range(table.ndim):
        idx = [0] * table.ndim
        idx[ax] = slice(None)
        f = D[tuple(idx)]
        leaves = fit_mode(f, what=f"{what}, dim {ax}")
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
        return Layout(modes_s[0], modes_d[0]), base
    return Layout(tuple(modes_s), tuple(modes_d)), base


def _as_table(values, what):
    """``values`` as an int64 array, else ``LayoutError``."""
    try:
        arr = np.asarray(values)
    except (TypeError, ValueError) as e:
        raise LayoutError(f"{what}: expected an array of integers, got {values!r} ({e})") from None
    if arr.size and arr.dtype.kind not in "iu":
        raise LayoutError(f"{what}: expected an array of integers, got dtype {arr.dtype}")
    return arr.astype(np.int64, copy=False)
