"""Which chip holds which block of a metal layout on a device: the block plan, when it is a regular tiling.

``device.place(ml)`` puts each grid cell of a metal layout on a chip. Laid
side by side in grid order, the layout's padded shards form its **block
array** (``grid[i] * padded_shard_shape[i]`` per dim). A chip's share of it
is one rectangular slice exactly when the cells of each chip form one box
and the boxes tile the grid regularly: along grid dim ``i`` blocks of
``B[i]`` cells (the last one may be shorter; it is then padded with whole
empty shards). ``plan(ml, device)`` finds that tiling, or says with
``NotRepresentableError`` why there is none (a staircase of chips, a chip
holding two separate blocks). Mesh axes along which the layout sits on a
single chip are replicated (TTNN's ``ReplicateTensorToMesh``): every chip
along such an axis holds a copy, one ``Holder`` each.

This is what a JAX array over the chips needs (each JAX device holds one
rectangular slice), so ``unilayout.distributed`` builds on it, and
``unilayout.convert.tt_sharding`` reads a ``Sharding`` from it without
touching elements. It lives with the tt family because it only asks a
metal layout and a device.

The seed's "data parallel over 2d": a 256x1024 tensor on a 4x16 grid of a
1x2 mesh of 8x8 chips; columns 0-7 of the grid are on chip 0, 8-15 on chip 1:

>>> from unilayout import tt
>>> dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (1, 2))
>>> p = plan(tt.MetalLayout.from_collapse((256, 1024), (4, 16)), dev)
>>> p.block, p.blocks, [(h.chip_id, h.cells) for h in p.holders]
((4, 8), (1, 2), [(0, ((0, 4), (0, 8))), (1, ((0, 4), (8, 16)))])
>>> p.global_shape, p.device_shape, p.ragged
((256, 1024), (256, 512), False)
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple

import numpy as np

from ..errors import LayoutError, NotRepresentableError
from ._mlir import xs
from .device import Device
from .metal import MetalLayout

__all__ = ["Holder", "Plan", "plan"]


class Holder(NamedTuple):
    """One device of the distribution: its chip, the block it holds and whether that block is a copy."""

    chip_id: int
    block: tuple        # block coordinate k (one per grid dim)
    cells: tuple        # per grid dim (start, stop) of the layout's grid cells in the block
    primary: int        # chip id that device.place names for this block
    replicated: bool    # True when more than one device holds this block


class Plan(NamedTuple):
    """The block tiling of a metal layout over a device's chips (``plan``'s answer; fields as commented).

    ``ragged``: the last block along some dim is short (padded with empty
    shards); ``device_shape``: the shape of one block of the block array.
    """

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
    """LayoutError unless ``ml`` is a ``tt.MetalLayout`` and ``device`` a ``tt.Device`` (the checks ``plan`` makes)."""
    if not isinstance(ml, MetalLayout):
        raise LayoutError(f"expected a tt.MetalLayout, got {type(ml).__name__}")
    if not isinstance(device, Device):
        raise LayoutError(f"expected a tt.Device, got {type(device).__name__}")


def plan(ml: MetalLayout, device: Device) -> Plan:
    """The block tiling of ``ml`` over the chips of ``device``; NotRepresentableError when there is none.

    Cached per (layout, device). Twelve grid columns in blocks of eight per
    chip: the second chip's block is short, padded to eight cells' worth:

    >>> from unilayout import tt
    >>> dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (1, 2))
    >>> p = plan(tt.MetalLayout.from_collapse((250, 900), (4, 12)), dev)
    >>> p.block, p.ragged, p.global_shape, p.padded_global_shape
    ((4, 8), True, (252, 900), (252, 1200))
    """
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
