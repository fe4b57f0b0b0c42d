"""A metal layout's padding per core, counted in constant time when its map is the identity (huge layouts).

``padding_summary(ml)`` answers what ``ml.padding_summary()`` answers; for a
layout of more than ``MAX_MASK_SLOTS`` slots whose map is the identity it
counts by formula instead of building the padding mask of every slot.
"""

from __future__ import annotations

import math

import numpy as np

from .._ints import check_table
from .shard import PaddingSummary

__all__ = ["padding_summary", "MAX_MASK_SLOTS"]


#: Slots above which a metal layout's padding is counted per core by formula, not by its padding mask.
MAX_MASK_SLOTS = 1 << 22


def padding_summary(ml):
    """``ml.padding_summary()``, in constant time and memory when ``ml``'s map is the identity on a huge layout.

    With the identity map every physical slot inside the data extent holds an
    element, so a core's padding slots are its padded shard's volume minus the
    product of its data extents (no mask of every slot is built; a
    65536x65536 layout answers at once). Any other map, or a layout of at
    most ``MAX_MASK_SLOTS`` slots, asks ``tt`` (exact for every map).

    >>> from unilayout import tt
    >>> ml = tt.MetalLayout.from_collapse((53, 63), (3, 2), tile=(32, 32))
    >>> import unilayout.tt.padding as F
    >>> old, F.MAX_MASK_SLOTS = F.MAX_MASK_SLOTS, 0
    >>> fast = padding_summary(ml)
    >>> F.MAX_MASK_SLOTS = old
    >>> fast.slots.tolist() == ml.padding_summary().slots.tolist(), fast.total
    (True, 2805)
    """
    slots = math.prod(ml.shards_shape)  # exact: np.prod in int64 wraps for huge grids
    dims = ", ".join(f"d{i}" for i in range(len(ml.logical_shape)))
    if slots <= MAX_MASK_SLOTS or str(ml.linear) != f"({dims}) -> ({dims})" or getattr(ml, "interleaved_pages", False):
        return ml.padding_summary()
    cores = math.prod(ml.grid)
    check_table(cores * (len(ml.grid) + 2), f"padding_summary: a grid of {cores} cores")  # before np.indices
    G = np.indices(ml.grid, dtype=np.int64)
    extent = np.stack(
        [np.clip(P - G[i] * s, 0, s) for i, (P, s) in enumerate(zip(ml.physical_shape, ml.shard_shape))], axis=-1
    )
    padded = np.asarray(ml.padded_shard_shape, dtype=np.int64)
    per_core = int(np.prod(padded, dtype=np.int64))
    counts = per_core - np.prod(extent, axis=-1, dtype=np.int64)
    return PaddingSummary(extent, padded - extent, counts, int(counts.sum()))
