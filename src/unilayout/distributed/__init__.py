"""Distribute tensors over real devices with JAX, exactly as a Tenstorrent metal layout and device say.

A metal layout cuts a tensor into shards, one per grid cell; a ``tt.Device``
sends each grid cell to a core of a chip (``device.place(ml)``). Here chips
become JAX devices (chip id ``c`` is ``jax_devices[c]``) and the tensor
becomes a ``jax.Array`` whose shard on each device is exactly what the chip
holds.

**The block array.** JAX gives each device one rectangular slice of a global
array. The global array is the layout's *block array*: its padded shards
side by side in grid order, ``grid[i] * padded_shard_shape[i]`` elements per
dim, i.e. element ``G * s' + q`` is slot ``q`` of cell ``G``'s shard
(``ml.shard(a)[G + q]``). For the identity map without padding the block
array is the tensor itself; for a dense collapse it is the tensor reshaped
to the physical shape. A chip's slice is then the shards of its cells, in
grid order, padding slots included (filled from ``oob_val``).

**When it is a NamedSharding.** The cells of each chip must form one box,
the boxes a regular tiling of the grid. Each grid dim whose boxes go to
different chips is split over the mesh axes it spans; mesh axes along which
the layout sits on one chip are replicated (TTNN's ``ReplicateTensorToMesh``).
If the last chip along a dim gets fewer cells, or the layout uses only part
of a mesh axis, no ``NamedSharding`` over the device's mesh says it:
``to_named_sharding`` raises ``NotRepresentableError`` with the reason and
``distribute`` places each device's block itself (a short block padded with
empty shards). A staircase of chips (cells of one chip not one box) cannot
be a JAX array at all: ``NotRepresentableError``.

Worked example, the seed's "data parallel over batch": a 2-chip system seen
as mesh 2x1x1 (worker grid 2x8x8), a 16x3x64x128 tensor collapsed from d1 on
(``(d0, d1 * 64 + d2, d3)``, physical 16x192x128) on grid 2x2x4, so each
core holds an 8x96x32 shard and each chip half the batch:

>>> import os; _ = os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
>>> import jax, numpy as np
>>> from unilayout import tt, distributed
>>> dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (2, 1, 1))
>>> ml = tt.MetalLayout.from_collapse((16, 3, 64, 128), (2, 2, 4), [(1, -1)])
>>> print(ml.linear, ml.shard_shape, dev.place(ml).distribution)
(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3) (8, 96, 32) ('sharded', None, None)
>>> print(distributed.shard_summary(ml, dev))
tensor 16x3x64x128 f32 on grid 2x2x4 over 2 device(s), device mesh 2x1x1
block array 16x192x128, NamedSharding over the device mesh: (mesh0, None, None)
chip  cells            shard      bytes    padding  replica
   0  [0:1, 0:2, 0:4]  8x192x128  786,432  0.0%     no
   1  [1:2, 0:2, 0:4]  8x192x128  786,432  0.0%     no
>>> a = np.random.default_rng(0).random((16, 3, 64, 128), dtype=np.float32)
>>> x = distributed.distribute(a, ml, dev)
>>> s1 = next(s for s in x.addressable_shards if s.device == jax.devices()[1])
>>> s1.index[0], bool((np.asarray(s1.data) == a[8:].reshape(8, 192, 128)).all())
(slice(8, 16, None), True)
>>> bool((distributed.gather(x, ml) == a).all())
True

The same placement as a JAX user writes it, and back:

>>> mesh = jax.make_mesh((2,), ("batch",), devices=jax.devices()[:2])
>>> s = distributed.to_named_sharding(ml, dev, mesh)
>>> tuple(s.spec)
('batch', None, None)
>>> ml2, dev2 = distributed.from_named_sharding((16, 192, 128), s)
>>> ml2.grid, dev2.mesh_shape, distributed.to_named_sharding(ml2, dev2, mesh).is_equivalent_to(s, 3)
((2, 1, 1), (2,), True)

Names: ``distribute``, ``gather`` (``array``); ``to_named_sharding``,
``from_named_sharding``, ``natural_mesh`` (``sharding``); ``shard_summary``,
``ShardSummary``, ``DeviceShard``, ``shard_svg`` (``summary``, no JAX needed).
JAX is imported only when a function that needs it is called.
"""

from .array import distribute, gather
from .sharding import from_named_sharding, natural_mesh, to_named_sharding
from .summary import DeviceShard, ShardSummary, shard_summary, shard_svg

__all__ = ["distribute", "gather", "to_named_sharding", "from_named_sharding", "natural_mesh",
           "shard_summary", "ShardSummary", "DeviceShard", "shard_svg"]
