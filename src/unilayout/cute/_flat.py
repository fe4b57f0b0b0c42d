"""The flat-mode kernels under ``Layout``: coalescing mode lists and evaluating them with numpy.

A layout flattened to its leaves is two lists, shapes and strides. Everything
here works on those lists only, so the value modules (``layout``,
``swizzle``) and the algebra can all build on it without importing one
another. ``coalesce_lists`` merges neighbouring modes that continue one
another (``s0 * d0 == d1``) and drops size-1 modes; ``table`` lists the offsets
of every coordinate, the leftmost mode fastest; ``at`` evaluates chosen 1-D
coordinates, the last mode taking any rest:

>>> coalesce_lists([2, 1, 6], [1, 6, 2])
([12], [1])
>>> table([2, 3], [3, 1]).tolist(), at([4, 2], [2, 1], np.array([0, 5, 9])).tolist()
([0, 3, 1, 4, 2, 5], [0, 3, 4])
"""

from __future__ import annotations

import numpy as np

from .._ints import as_int_array, check_table
from ..errors import LayoutError
from .basis import as_coord


def coalesce_lists(shapes, strides, drop_zero_strides=False):
    """Flat coalesce: skip size-1 (and optionally stride-0) modes, merge ``s0*d0 == d1`` neighbours.

    >>> coalesce_lists([2, 4, 3], [0, 1, 4], drop_zero_strides=True)
    ([12], [1])
    """
    rs, rd = [], []
    for s, d in zip(shapes, strides):
        if s == 1 or (d == 0 and drop_zero_strides):
            continue
        if rs and rs[-1] * rd[-1] == d:
            rs[-1] *= s
        else:
            rs.append(s)
            rd.append(d)
    return rs, rd


def basis_cosize(shapes, strides) -> int:
    """C++ ``cosize`` of flat modes with basis strides: ``size(coshape)``, coshape = ``sum((s-1)*d) + 1`` per coordinate.

    >>> from .basis import E
    >>> basis_cosize((2, 3), (E(0), E(1)))
    6
    """
    co = 0
    for s, d in zip(shapes, strides):
        co = co + as_coord((s - 1) * d)
    n = 1
    for c in co if isinstance(co, tuple) else (co,):
        n *= c + 1
    return n


def table(shapes, strides) -> np.ndarray:
    """Offsets of every coordinate of the flat modes, colexicographic, int64.

    Coalesces first, then writes the output once: the modes are split into a
    fast group (about sqrt(size) points) and a slow group, each tabulated
    small, and joined by one outer add whose inner loop is long.

    >>> table([2, 2, 2], [4, 1, 2]).tolist()
    [0, 4, 1, 5, 2, 6, 3, 7]
    """
    n = 1
    for s in shapes:
        n *= s
    check_table(n, "index_map")
    check_int64(shapes, strides, n - 1)
    shapes, strides = coalesce_lists(shapes, strides)
    if not shapes:
        return np.zeros(n, dtype=np.int64)
    inner, k = 1, 0
    while k < len(shapes) - 1 and inner * inner < n:
        inner *= shapes[k]
        k += 1
    return np.add.outer(_group(shapes[k:], strides[k:]), _group(shapes[:k], strides[:k])).reshape(-1)


def _group(shapes, strides) -> np.ndarray:
    out = np.zeros(1, dtype=np.int64)
    for s, d in zip(shapes, strides):
        out = np.add.outer(np.arange(s, dtype=np.int64) * d, out).reshape(-1)
    return out


def at(shapes, strides, idx) -> np.ndarray:
    """Offsets of the non-negative 1-D coordinates ``idx`` (any shape of int array).

    >>> at([4, 1], [1, 0], np.arange(6)).tolist()
    [0, 1, 2, 3, 0, 1]
    """
    idx = coords(idx)
    if not shapes:  # the empty shape: every coordinate is at offset 0
        return np.zeros(idx.shape, dtype=np.int64)
    try:
        check_int64(shapes, strides, int(idx.max()) if idx.size else 0)
    except LayoutError:  # the bound is past int64, the offsets asked for may not be: compute them exactly
        return _at_exact(shapes, strides, idx)
    out = np.zeros(idx.shape, dtype=np.int64)
    rest = idx
    for s, d in zip(shapes[:-1], strides[:-1]):
        q, r = np.divmod(rest, s)
        if s > 1 and d:  # a size-1 mode adds nothing, whatever its stride (which may be past int64)
            out += r * d
        rest = q
    if strides[-1] and rest.size and rest.max() > 0:
        out += rest * strides[-1]
    return out


def _at_exact(shapes, strides, idx) -> np.ndarray:
    """``at`` in Python ints (object dtype), then int64 if every offset fits, else ``LayoutError``."""
    rest = idx.astype(object)
    out = np.zeros(idx.shape, dtype=object)
    for s, d in zip(shapes[:-1], strides[:-1]):
        q, r = rest // s, rest % s
        out = out + r * d
        rest = q
    out = out + rest * strides[-1]
    if out.size:
        _refuse_past_int64(shapes, strides, min(out.flat), max(out.flat))
    return out.astype(np.int64)


def check_int64(shapes, strides, last: int) -> None:
    """Refuse coordinates up to ``last`` whose offsets (or the partial sums on the way) would leave int64.

    Exact: every mode but the last contributes ``r * d`` with ``0 <= r < s``,
    the last ``q * d`` with ``q <= last // (product of the others)``; the
    positive parts and the negative parts are summed apart, so a layout whose
    offsets all fit in int64 is never refused.

    >>> check_int64([1 << 40], [1 << 30], (1 << 40) - 1)
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: layout 1099511627776:1073741824: offsets up to 1180591620716337561600 do not fit in int64
    >>> check_int64([4, 2], [(1 << 61) - 1, 1 << 61], 7)  # offsets up to 3 * (2**61 - 1) + 2**61 < 2**63
    """
    if not shapes:
        return
    hi = lo = 0
    inner = 1
    for s, d in zip(shapes[:-1], strides[:-1]):
        hi += max(d, 0) * (s - 1)
        lo += min(d, 0) * (s - 1)
        inner *= s
    q = last // inner if inner else 0
    hi += max(strides[-1], 0) * q
    lo += min(strides[-1], 0) * q
    _refuse_past_int64(shapes, strides, lo, hi)


def _refuse_past_int64(shapes, strides, lo: int, hi: int) -> None:
    """``LayoutError`` naming the layout unless offsets from ``lo`` to ``hi`` all fit in int64."""
    if hi > (1 << 63) - 1 or lo < -(1 << 63):
        bound = hi if hi > (1 << 63) - 1 else lo
        raise LayoutError(f"layout {_text(shapes)}:{_text(strides)}: offsets up to {bound} do not fit in int64")


def _text(values) -> str:
    return str(values[0]) if len(values) == 1 else "(" + ",".join(map(str, values)) + ")"


def coords(idx) -> np.ndarray:
    """``idx`` as an int64 array of non-negative 1-D coordinates, else ``LayoutError``.

    >>> coords([0, -1])
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: evaluate: coordinates must be non-negative
    """
    idx = as_int_array(idx, "evaluate: coordinates")  # exact: uint64 past int64, floats, masked arrays refused
    if idx.size and idx.min() < 0:
        raise LayoutError("evaluate: coordinates must be non-negative")
    return idx
