"""The meshes a tile assignment is laid out on: where to look for DTensor / TTNN placements of an HLO sharding.

A DTensor mesh numbers its ranks row-major, and its placements cut tensor
dims (or copy) one mesh dim each. So a sharding has placements on a mesh of
ranks exactly when its tile assignment (the array of device ids, one axis
per tensor dim plus one of copies) is an *iota*: ``arange(n)`` reshaped to
the mesh, its dims regrouped by the tensor dim they cut. ``iota_axes`` finds
that decomposition: every axis of the assignment splits into sub-axes, each
a (size, stride) in the device id; sorted by stride they must tile ``0..n-1``
row-major, and the mesh is their sizes, largest stride first.

| HLO | assignment | sub-axes (size, stride) | mesh | placements |
|---|---|---|---|---|
| ``{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}`` | ``[[0,4],[1,5],[2,6],[3,7]]`` | dim 0: (4, 1); copies: (2, 4) | 2x4 | ``Replicate(), Shard(0)`` |
| ``{devices=[2,4]<=[8]}`` | ``[[0..3],[4..7]]`` | dim 0: (2, 4); dim 1: (4, 1) | 2x4 | ``Shard(0), Shard(1)`` |

>>> from unilayout.sharding import parse_hlo
>>> candidate_meshes(parse_hlo("{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}", (8, 4)))
[(2, 4)]
"""

from __future__ import annotations

import numpy as np

from ..errors import LayoutError, NotRepresentableError
from .hlo import tile_assignment

__all__ = ["iota_axes", "candidate_meshes"]


def _split_axis(v: np.ndarray):
    """Sub-axes ``[(size, stride), ...]`` (minor first) with ``v[j] == sum digit_k(j) * stride_k``, or None."""
    a, out, block = v.size, [], 1
    while block < a:
        stride = int(v[block])
        m = a // block
        run = 1
        while run < m and int(v[run * block]) == run * stride:
            run += 1
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


def iota_axes(assign: np.ndarray):
    """``[(size, stride, axis), ...]`` largest stride first when ``assign`` is ``arange(n)`` regrouped, else None.

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
        subs += [(k, s, i) for k, s in parts]
        shape = [1] * a.ndim
        shape[i] = size
        total = total + v.reshape(shape)
    if not np.array_equal(total, a):
        return None
    subs.sort(key=lambda t: t[1])
    step = 1
    for k, s, _ in subs:
        if s != step:
            return None
        step *= k
    return subs[::-1]


def candidate_meshes(s, default=None):
    """Mesh shapes to look for placements of ``s`` on: its iota mesh (if any), then ``default``.

    >>> from unilayout.sharding import parse_hlo
    >>> candidate_meshes(parse_hlo("{devices=[2,2]<=[2,2]T(1,0)}", (4, 4)), (2, 2))
    [(2, 2)]
    """
    out = []
    try:
        _, R, assign = tile_assignment(s, "DTensor")
    except (NotRepresentableError, LayoutError):
        assign = None
    if assign is not None:
        subs = iota_axes(assign)
        if subs:
            out.append(tuple(k for k, _, _ in subs))
    if default is not None and tuple(default) not in out:
        out.append(tuple(default))
    return out
