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
[(2, 4), (2, 2, 2)]
"""

from __future__ import annotations

from ..errors import LayoutError, NotRepresentableError
from ._iota import iota_axes
from .hlo import tile_assignment
from .value import Sharding

__all__ = ["iota_axes", "candidate_meshes", "plain"]


def plain(s):
    """``s`` without its partial-sum marks: whose tile assignment places the pieces (the sums only label copies)."""
    s._global("a tile assignment")
    return Sharding._trusted(s.shape, s.devices, s._boxes) if s.has_partial else s


def _primes(k):
    out, p = [], 2
    while p * p <= k:
        while k % p == 0:
            out.append(p)
            k //= p
        p += 1
    return out + ([k] if k > 1 else [])


def candidate_meshes(s, default=None):
    """Mesh shapes to look for placements of ``s`` on: its iota mesh, the same cut into prime axes, ``default``.

    The prime cut lets one mesh dim of copies be partial sums along some
    factors and plain copies along others (``Partial(), Replicate()``).

    >>> from unilayout.sharding import parse_hlo
    >>> candidate_meshes(parse_hlo("{devices=[2,2]<=[2,2]T(1,0)}", (4, 4)), (2, 2))
    [(2, 2)]
    >>> candidate_meshes(parse_hlo("{devices=[1,4]<=[4] last_tile_dim_replicate}", (4,)))
    [(4,), (2, 2)]
    """
    out = []
    try:
        _, _, assign = tile_assignment(plain(s), "DTensor")
    except (NotRepresentableError, LayoutError):
        assign = None
    if assign is not None:
        subs = iota_axes(assign)
        if subs:
            out.append(tuple(k for k, _, _ in subs))
            fine = tuple(p for k, _, _ in subs for p in _primes(k))
            if fine not in out:
                out.append(fine)
    if default is not None and tuple(default) not in out:
        out.append(tuple(default))
    return out
