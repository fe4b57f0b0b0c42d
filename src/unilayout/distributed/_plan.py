"""Which JAX device holds which block: the analysis behind every public name here (numpy only).

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
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple

import numpy as np

from ..errors import LayoutError, NotRepresentableError
from ..tt import Device, MetalLayout
from ..tt.metal import xs
from ..tt.shard import fill_value


class Holder(NamedTuple):
    """One device of the distribution: its chip, the block it holds and whether that block is a copy."""

    chip_id: int
    block: tuple        # block coordinate k (one per grid dim)
    cells: tuple        # per grid dim (start, stop) of the layout's grid cells in the block
    primary: int        # chip id that device.place names for this block
    replicated: bool    # True when more than one device holds this block


class Plan(NamedTuple):
    ml: MetalLayout
    device: Device
    chips: np.ndarray          # grid-shaped chip ids (place().cores[..., 0])
    block: tuple               # B: cells per block along each grid dim
    blocks: tuple              # n: blocks along each grid dim
    block_chips: np.ndarray    # n-shaped chip id of each block
    block_mesh: np.ndarray     # n + (mesh rank,): mesh coordinate of each block's chip
    distribution: tuple        # place().distribution
    replica_axes: tuple        # tt mesh axes along which the tensor is replicated
    holders: tuple             # Holder per JAX device, blocks row-major, replicas innermost
    global_shape: tuple        # grid * padded shard (the block array)
    padded_global_shape: tuple  # blocks * block * padded shard (>= global_shape when ragged)

    @property
    def ragged(self) -> bool:
        return self.padded_global_shape != self.global_shape

    @property
    def device_shape(self) -> tuple:
        return tuple(b * s for b, s in zip(self.block, self.ml.padded_shard_shape))


def _check(ml, device):
    if not isinstance(ml, MetalLayout):
        raise LayoutError(f"expected a tt.MetalLayout, got {type(ml).__name__}")
    if not isinstance(device, Device):
        raise LayoutError(f"expected a tt.Device, got {type(device).__name__}")


def plan(ml: MetalLayout, device: Device) -> Plan:
    """The block tiling of ``ml`` over the chips of ``device``; NotRepresentableError when there is none."""
    _check(ml, device)
    return _plan(ml, device)


@functools.lru_cache(maxsize=64)
def _plan(ml: MetalLayout, device: Device) -> Plan:
    placement = device.place(ml)
    chips = placement.cores[..., 0]
    grid = ml.grid
    for c in np.unique(chips):
        where = np.argwhere(chips == c)
        lo, hi = where.min(axis=0), where.max(axis=0) + 1
        box = tuple(slice(int(a), int(b)) for a, b in zip(lo, hi))
        if where.shape[0] != int(np.prod(hi - lo)):
            other = np.argwhere(chips[box] != c)[0] + lo
            G = tuple(int(v) for v in other)
            raise NotRepresentableError(
                f"the cells of chip {int(c)} are not one box: its bounding box "
                f"[{', '.join(f'{int(a)}:{int(b)}' for a, b in zip(lo, hi))}] also holds cell {G} of chip "
                f"{int(chips[G])} (a JAX device holds one rectangular slice of an array)"
            )
    block = []
    for i, n in enumerate(grid):
        a = np.moveaxis(chips, i, 0)
        diff = a[1:] != a[:-1]
        change = np.flatnonzero(diff.any(axis=tuple(range(1, diff.ndim)))) + 1
        block.append(int(change[0]) if change.size else n)
    block = tuple(block)
    nblocks = tuple(-(-n // b) for n, b in zip(grid, block))
    block_chips = chips[tuple(slice(None, None, b) for b in block)]
    expanded = block_chips
    for i, b in enumerate(block):
        expanded = np.repeat(expanded, b, axis=i)
    expanded = expanded[tuple(slice(0, n) for n in grid)]
    bad = np.argwhere(expanded != chips)
    if bad.size:
        G = tuple(int(v) for v in bad[0])
        start = tuple((v // b) * b for v, b in zip(G, block))
        raise NotRepresentableError(
            f"the chips' boxes do not tile the grid {xs(grid)} regularly: grid cell {G} is on chip {int(chips[G])} "
            f"but cell {start} of the same {xs(block)} block is on chip {int(chips[start])} (the blocks of a "
            "JAX array are equal, only the last along a dim may be short)"
        )
    flat = block_chips.reshape(-1)
    uniq, first, counts = np.unique(flat, return_index=True, return_counts=True)
    if (counts > 1).any():
        c = int(uniq[np.argmax(counts > 1)])
        ks = [tuple(int(v) * b for v, b in zip(np.unravel_index(int(j), nblocks), block))
              for j in np.flatnonzero(flat == c)[:2]]
        raise NotRepresentableError(
            f"chip {c} holds two separate blocks of the grid {xs(grid)} (starting at cells {ks[0]} and {ks[1]}): "
            "a JAX device holds one rectangular slice of an array"
        )
    index_of = {c: k for k, c in enumerate(device.chip_ids)}
    mesh = device.mesh_shape
    idx = np.vectorize(index_of.__getitem__, otypes=[np.int64])(block_chips)
    block_mesh = np.stack(np.unravel_index(idx, mesh), axis=-1) if idx.size else idx[..., None]
    dist = placement.distribution
    replica_axes = tuple(a for a, d in enumerate(dist) if d == "single")
    rep_sizes = tuple(mesh[a] for a in replica_axes)
    holders = []
    for k in np.ndindex(*nblocks):
        m = block_mesh[k]
        primary = int(block_chips[k])
        cells = tuple((kk * b, min((kk + 1) * b, n)) for kk, b, n in zip(k, block, grid))
        for r in np.ndindex(*rep_sizes):
            mm = list(int(v) for v in m)
            for a, v in zip(replica_axes, r):
                mm[a] = v
            chip = device.chip_ids[int(np.ravel_multi_index(mm, mesh))]
            holders.append(Holder(int(chip), tuple(int(v) for v in k), cells, primary, math.prod(rep_sizes) > 1))
    S = ml.padded_shard_shape
    return Plan(ml, device, chips, block, nblocks, block_chips, block_mesh, dist, replica_axes, tuple(holders),
                tuple(n * s for n, s in zip(grid, S)),
                tuple(n * b * s for n, b, s in zip(nblocks, block, S)))


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
