"""Iota tile assignments: ``arange(n)`` reshaped, transposed and reshaped again (XLA's ``<=[..]T(..)``).

An array of device ids is an iota when each of its axes splits into
sub-axes, each a (size, stride) in the device id, and the sub-axes sorted by
stride tile ``0..n-1`` row-major. ``iota_axes`` finds them; ``iota_form``
writes the array as XLA prints it (``IotaTileAssignment``'s canonical dims:
no size-1 dims, neighbours that stay neighbours merged).

>>> a = np.arange(8).reshape(2, 2, 2).transpose(1, 2, 0).reshape(2, 2, 2)
>>> iota_form(a)
([2, 4], [1, 0])
"""

from __future__ import annotations

import numpy as np

__all__ = ["iota_axes", "iota_form"]


def _split_axis(v: np.ndarray):
    """Sub-axes ``[(size, stride), ...]`` (minor first) with ``v[j] == sum digit_k(j) * stride_k``, or None."""
    a, out, block = v.size, [], 1
    while block < a:
        stride = int(v[block])
        m = a // block
        steps = np.arange(m, dtype=np.int64)
        off = np.flatnonzero(v[steps * block] != steps * stride)  # the run of equal steps from 0
        run = int(off[0]) if off.size else m
        while (a // block) % run:  # the largest divisor of what is left, at most the run
            run -= 1
        if run < 2:
            return None
        out.append((run, stride))
        block *= run
    radices = [k for k, _ in out]
    digits = np.unravel_index(np.arange(a), radices[::-1]) if out else ()
    rebuilt = sum((d * s for d, (_, s) in zip(digits, out[::-1])), np.zeros(a, np.int64))
    return out if np.array_equal(rebuilt, v) else None


def iota_axes(assign: np.ndarray, in_position_order=False):
    """``[(size, stride, axis), ...]`` largest stride first when ``assign`` is ``arange(n)`` regrouped, else None.

    ``in_position_order``: as they appear in ``assign`` instead (axis by
    axis, each axis's major sub-axis first).

    >>> iota_axes(np.arange(8).reshape(2, 4).T.reshape(4, 1, 2))
    [(2, 4, 2), (4, 1, 0)]
    """
    a = np.asarray(assign, dtype=np.int64)
    n = a.size
    if n == 0 or int(a.reshape(-1)[0]) != 0:
        return None
    subs, total = [], np.zeros(a.shape, np.int64)
    for i, size in enumerate(a.shape):
        if size == 1:
            continue
        v = np.moveaxis(a, i, 0)[(slice(None),) + (0,) * (a.ndim - 1)]
        parts = _split_axis(v)
        if parts is None:
            return None
        subs += [(k, s, i) for k, s in parts[::-1]]  # position order: major first
        shape = [1] * a.ndim
        shape[i] = size
        total = total + v.reshape(shape)
    if not np.array_equal(total, a):
        return None
    by_stride = sorted(subs, key=lambda t: t[1])
    step = 1
    for k, s, _ in by_stride:
        if s != step:
            return None
        step *= k
    return by_stride[::-1] if not in_position_order else subs




def iota_form(assign: np.ndarray):
    """``(reshape dims, transpose perm)`` of XLA's canonical iota for ``assign``, or None when it is none.

    The perm is ``[]`` when no transpose is needed (``<=[n]``).

    >>> iota_form(np.arange(8).reshape(2, 4).T.reshape(4, 1, 2))
    ([2, 4], [1, 0])
    >>> iota_form(np.arange(6).reshape(3, 2)), iota_form(np.array([[1, 0]]))
    (([6], []), None)
    """
    subs = iota_axes(assign, in_position_order=True)
    if subs is None:
        return None
    if not subs:
        return [int(np.asarray(assign).size)], []
    by_stride = sorted(subs, key=lambda t: -t[1])  # the row-major reshape dims
    perm = [by_stride.index(sa) for sa in subs]
    groups = [[perm[0]]]  # merge perm runs i, i+1, ..: dims that stay neighbours
    for p in perm[1:]:
        if p == groups[-1][-1] + 1:
            groups[-1].append(p)
        else:
            groups.append([p])
    starts = sorted(g[0] for g in groups)
    reshape = [int(np.prod([by_stride[j][0] for j in next(g for g in groups if g[0] == s)])) for s in starts]
    perm = [starts.index(g[0]) for g in groups]
    return reshape, ([] if perm == sorted(perm) else perm)
