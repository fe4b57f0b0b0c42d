"""Which JAX device holds which block of the block array: the analysis behind every public name here.

The distributed form of a metal layout is the **block array**: the layout's
padded shards laid side by side in grid order, shape
``grid[i] * padded_shard_shape[i]`` per dim (for an untilized layout, the
physical array padded at the end of each dim to whole shards; for a dense
collapse without padding, just the logical array reshaped). Element
``G[i] * s'[i] + q[i]`` of it is slot ``q`` of the shard of grid cell ``G``,
i.e. ``ml.shard(a)[G + q]``.

A chip holds the shards of the grid cells that ``device.place`` puts on it.
JAX gives each device one rectangular slice of an array, so the cells of
each chip must form one box, and the boxes a regular tiling: along grid dim
``i`` blocks of ``B[i]`` cells (the last one may be shorter: the block is
then padded with whole empty shards). Mesh axes along which the layout sits
on a single chip are replicated (TTNN's ``ReplicateTensorToMesh``).

That block plan (``plan``, ``Plan``, ``Holder``) only asks a metal layout
and a device, so it lives with the tt family, ``unilayout.tt.blocks``, where
the tt -> sharding bridge reads it too; it is re-exported here. What is
left is the data: ``block_array`` and ``from_block_array`` (numpy only).

>>> import numpy as np
>>> from unilayout import tt
>>> ml = tt.MetalLayout.from_collapse((5, 6), (2, 1))
>>> b = block_array(ml, np.arange(30).reshape(5, 6))   # 2 shards of 3x6: one padding row
>>> b.shape, bool((from_block_array(ml, b) == np.arange(30).reshape(5, 6)).all())
((6, 6), True)
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import LayoutError, NotRepresentableError
from ..tt import MetalLayout
from ..tt.blocks import Holder, Plan, _check, _plan, plan  # noqa: F401  (_check, _plan: their old home, re-exported)
from ..tt.metal import xs
from ..tt.metal.shard import fill_value

__all__ = ["Holder", "Plan", "plan", "block_array", "from_block_array"]


def block_array(ml: MetalLayout, array) -> np.ndarray:
    """The block array of ``array`` (see the module docstring): a view when the layout is a dense reshape."""
    a = np.asarray(array)
    if a.shape != ml.logical_shape:
        raise LayoutError(f"array of shape {xs(a.shape)} does not match the layout's logical shape {xs(ml.logical_shape)}")
    g = len(ml.grid)
    H = tuple(n * s for n, s in zip(ml.grid, ml.padded_shard_shape))
    if ml.tile is None and _dense(ml):
        phys = a.reshape(ml.physical_shape)
        if H == ml.physical_shape:
            return phys
        out = np.full(H, fill_value(ml, a.dtype), dtype=a.dtype)
        out[tuple(slice(0, p) for p in ml.physical_shape)] = phys
        return out
    s = ml.shard(a)
    order = [j for i in range(g) for j in (i, g + i)]
    return s.transpose(order).reshape(H)


def from_block_array(ml: MetalLayout, full: np.ndarray) -> np.ndarray:
    """Inverse of ``block_array``: the logical array (``full`` may be larger, e.g. padded for ragged blocks)."""
    g = len(ml.grid)
    S = ml.padded_shard_shape
    H = tuple(n * s for n, s in zip(ml.grid, S))
    full = full[tuple(slice(0, h) for h in H)]
    if ml.tile is None and _dense(ml):
        return full[tuple(slice(0, p) for p in ml.physical_shape)].reshape(ml.logical_shape)
    inter = full.reshape(tuple(v for n, s in zip(ml.grid, S) for v in (n, s)))
    s = inter.transpose(list(range(0, 2 * g, 2)) + list(range(1, 2 * g, 2)))
    return ml.unshard(np.ascontiguousarray(s))


def _dense(ml) -> bool:
    """True when the physical array is the logical array reshaped (row-major)."""
    if math.prod(ml.physical_shape) != ml.volume:
        return False
    try:
        strides = ml.get_stride()
    except NotRepresentableError:
        return False
    if any(v != 0 for v in ml.linear(*([0] * ml.rank))):
        return False
    c, acc = [], 1
    for n in reversed(ml.logical_shape):
        c.append(acc)
        acc *= n
    return all(st == cs for st, cs, n in zip(strides, reversed(c), ml.logical_shape) if n > 1)
