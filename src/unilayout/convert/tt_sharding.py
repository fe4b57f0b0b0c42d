"""A tt-mlir metal layout on a ``#tt.device`` -> ``Sharding`` of the logical tensor (tt -> sharding).

A metal layout sends logical index ``x`` to physical index ``p = linear(x)``,
then to grid cell ``G = p floordiv shard_shape``; the device's grid map sends
``G`` to a chip (``device.place(ml).cores[G][0]``). The chip of every element
is therefore known, and ``from_metal`` cuts the tensor into the boxes each
chip holds (for an identity map straight from the block plan of
``unilayout.distributed``, with no element table: a 65536x65536 tensor
costs nothing). Device ids are tt chip ids.

Mesh axes along which the layout sits on one chip (``place().distribution``
says ``"single"``) are replicated, as TTNN's ``ReplicateTensorToMesh`` and
``unilayout.distributed`` treat them: every chip along such an axis holds
what the used chip holds. Chips of a mesh axis the layout uses only in part
hold nothing.

The seed's "data parallel over batch": each chip holds half the batch.

>>> from unilayout import tt
>>> dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (2, 1, 1))
>>> ml = tt.MetalLayout.from_collapse((16, 3, 64, 128), (2, 2, 4), [(1, -1)])
>>> from_metal(ml, dev).device_boxes
{0: [((0, 8), (0, 3), (0, 64), (0, 128))], 1: [((8, 16), (0, 3), (0, 64), (0, 128))]}

A 5-row batch over two chips is split 3+2 (the grid's shards are 3 rows):

>>> ml5 = tt.MetalLayout.from_collapse((5, 3, 20, 40), (2, 1, 1), [(1, -1)])
>>> [s.local_shape(c) for c in (0, 1) for s in [from_metal(ml5, dev)]]
[(3, 3, 20, 40), (2, 3, 20, 40)]

This file names two families, tt and sharding, so it is a bridge; the old
paths ``unilayout.sharding.metal`` and ``sharding.from_metal`` are aliases.
"""

from __future__ import annotations

import numpy as np

from .._ints import check_table, product
from ..affine import identity
from ..errors import NotRepresentableError
from ..sharding.value import Sharding, _canonical
from ..tt.blocks import _check, plan

__all__ = ["from_metal", "owners_to_sharding", "physical_sharding"]


def owners_to_sharding(owner: np.ndarray, devices, replicas=None) -> Sharding:
    """The ``Sharding`` whose device ``d`` holds the elements where ``owner == d`` (plus replicas).

    ``replicas`` maps an owner to the other devices holding copies of its data.

    >>> owners_to_sharding(np.array([[0, 0, 1], [0, 0, 1]]), [0, 1, 2], {1: [2]}).device_boxes
    {0: [((0, 2), (0, 2))], 1: [((0, 2), (2, 3))], 2: [((0, 2), (2, 3))]}
    """
    owner = np.asarray(owner)
    r = owner.ndim
    cuts = []
    for i in range(r):
        a = np.moveaxis(owner, i, 0)
        diff = (a[1:] != a[:-1]).reshape(a.shape[0] - 1, -1).any(axis=1) if a.shape[0] > 1 else np.zeros(0, bool)
        cuts.append([0] + (np.flatnonzero(diff) + 1).tolist() + [owner.shape[i]])
    cells = owner[np.ix_(*[np.asarray(c[:-1], dtype=np.int64) for c in cuts])] if owner.size else owner
    boxes = {int(d): [] for d in devices}
    for cell in zip(*np.nonzero(np.ones(cells.shape, dtype=bool))) if cells.size else ():
        d = int(cells[cell])
        if d < 0:
            continue
        boxes.setdefault(d, []).append(tuple((cuts[i][c], cuts[i][c + 1]) for i, c in enumerate(cell)))
    for d, others in (replicas or {}).items():
        for o in others:
            boxes[int(o)] = list(boxes.get(int(d), []))
    items = sorted(boxes.items())
    return Sharding._trusted(tuple(owner.shape), tuple(d for d, _ in items),
                             tuple(_canonical(b, r) for _, b in items))


def from_metal(metal_layout, device) -> Sharding:
    """The ``Sharding`` of ``metal_layout``'s logical tensor over the chips of ``device`` (keys: chip ids).

    **Post-condition**: chip ``c`` holds logical index ``x`` iff ``device.place(ml).cores[G][0] == c``
    for ``G = linear(x) floordiv shard_shape``, or ``c`` is a replica of that chip along a mesh axis
    the layout sits on one chip of.

    >>> from unilayout import tt
    >>> dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (1, 2))
    >>> print(from_metal(tt.MetalLayout.from_collapse((256, 1024), (4, 16)), dev))
    sharding of 256x1024 over 2 devices
      [0:256, 0:512]  device 0
      [0:256, 512:1024]  device 1
    """
    _check(metal_layout, device)  # a tt.MetalLayout and a tt.Device, as unilayout.distributed asks
    ml = metal_layout
    fast = _from_plan(ml, device)  # (the plan places the layout itself)
    if fast is not None:
        return fast
    placement = device.place(ml)
    check_table(product(ml.logical_shape), "from_metal")
    r = ml.rank
    idx = [np.arange(s, dtype=np.int64).reshape((-1,) + (1,) * (r - 1 - i)) for i, s in enumerate(ml.logical_shape)]
    vals = ml.linear.evaluate(*idx)
    cell = tuple(np.broadcast_to(np.asarray(v, dtype=np.int64) // s, ml.logical_shape)
                 for v, s in zip(vals, ml.shard_shape))
    owner = placement.cores[..., 0][cell]
    mesh = device.mesh_shape
    replica_axes = [a for a, d in enumerate(placement.distribution) if d == "single"]
    replicas = {}
    if replica_axes:
        pos = {c: k for k, c in enumerate(device.chip_ids)}
        for c in placement.chips:
            m = list(np.unravel_index(pos[c], mesh))
            others = []
            for rep in np.ndindex(*[mesh[a] for a in replica_axes]):
                mm = list(m)
                for a, v in zip(replica_axes, rep):
                    mm[a] = v
                o = device.chip_ids[int(np.ravel_multi_index(mm, mesh))]
                if o != c:
                    others.append(o)
            replicas[c] = others
    return owners_to_sharding(owner, device.chip_ids, replicas)


def _from_plan(ml, device):
    """The chips' boxes from the block plan, without touching elements, for an identity map; else None.

    With ``linear`` the identity the logical array is the physical one, so a
    chip's cells ``[a, b)`` along a dim are elements ``[a*s, min(b*s, n))``.
    Layouts the plan cannot tile (a staircase over chips) return None and are
    enumerated element by element instead.
    """
    if ml.linear != identity(ml.rank) or len(ml.grid) != ml.rank:
        return None
    try:
        p = plan(ml, device)
    except NotRepresentableError:
        return None
    return physical_sharding(p)


def physical_sharding(p, relabel=None) -> Sharding:
    """The ``Sharding`` of the physical array (unpadded) that a distributed ``Plan`` gives each holder.

    ``relabel`` maps chip ids to other device ids (e.g. JAX device ids).

    >>> from unilayout import tt
    >>> from unilayout.tt.blocks import plan
    >>> dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (1, 2))
    >>> p = plan(tt.MetalLayout.from_collapse((256, 1024), (4, 16)), dev)
    >>> physical_sharding(p, {0: 7, 1: 3}).device_boxes
    {3: [((0, 256), (512, 1024))], 7: [((0, 256), (0, 512))]}
    """
    ml = p.ml
    S, P = ml.shard_shape, ml.physical_shape
    boxes = {}
    for h in p.holders:
        box = tuple((min(a * s, n), min(b * s, n)) for (a, b), s, n in zip(h.cells, S, P))
        key = h.chip_id if relabel is None else relabel[h.chip_id]
        boxes.setdefault(key, []).append(box)
    for c in p.device.chip_ids:
        boxes.setdefault(c if relabel is None else relabel[c], [])
    return Sharding(P, boxes)
