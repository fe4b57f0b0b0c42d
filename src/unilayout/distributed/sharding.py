"""Metal layout + device <-> JAX ``NamedSharding``.

``to_named_sharding(ml, device, mesh)`` says how a JAX array shaped like the
layout's **block array** (its padded shards side by side in grid order,
``grid[i] * padded_shard_shape[i]`` per dim; the logical array itself for an
identity map without padding) is split over ``mesh``. The tt device's mesh
axes and the JAX mesh's axes are matched in order, axes of size 1 left out:
JAX mesh position ``m`` stands for the chip at tt mesh position ``m``. Each
grid dim whose blocks go to different chips becomes a ``PartitionSpec``
entry naming the mesh axes it spans (outermost first); mesh axes along which
the layout sits on one chip are left out of the spec, i.e. replicated (as
TTNN's ``ReplicateTensorToMesh``).

The seed's "data parallel over 2d": a 256x1024 tensor on a 4x16 grid of a
1x2 mesh of 8x8 chips. Columns 0-7 of the grid are on chip 0, 8-15 on chip 1:

>>> import os; _ = os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
>>> import jax, numpy as np
>>> from unilayout import tt
>>> dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (1, 2))
>>> ml = tt.MetalLayout.from_collapse((256, 1024), (4, 16))
>>> mesh = jax.sharding.Mesh(np.array(jax.devices()[:2]).reshape(1, 2), ("rows", "cols"))
>>> tuple(to_named_sharding(ml, dev, mesh).spec)
(None, 'cols')

``from_named_sharding(shape, sharding)`` goes the other way: a layout with
the identity map and one grid cell per block of the sharding, on a device
whose chips are the mesh's devices (chip id = position in ``jax.devices()``,
one core ``(0, 0)`` per chip, mesh axes as the JAX mesh's):

>>> ml2, dev2 = from_named_sharding((256, 1024), jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec(None, "cols")))
>>> print(ml2)
tensor<256x1024xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <1x2>, memref<256x512xf32, #tt.memory_space<l1>>>>
>>> print(dev2.grid_map)
(d0, d1) -> (d1, 0, 0)
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ..affine import AffineMap, constant, dim
from ..errors import LayoutError, NotRepresentableError
from ..sharding import from_jax, to_jax
from ..tt import Device, MetalLayout
from ..tt.blocks import plan
from ..tt.metal import xs

__all__ = ["to_named_sharding", "from_named_sharding", "natural_mesh"]


def _jax():
    try:
        import jax  # lazy: JAX is an optional dependency (unilayout[jax]), imported by the functions that need it
    except ImportError as e:  # pragma: no cover - exercised only without the extra
        raise ImportError("unilayout.distributed needs JAX: pip install 'unilayout[jax]'") from e
    return jax


def _mesh_sizes(mesh):
    jax = _jax()
    if not isinstance(mesh, jax.sharding.Mesh):
        raise LayoutError(f"expected a jax.sharding.Mesh (with devices), got {type(mesh).__name__}")
    return tuple(mesh.axis_names), tuple(int(mesh.shape[a]) for a in mesh.axis_names)


def spec_entries(p, tt_axis_names) -> list:
    """PartitionSpec entries for plan ``p`` when tt mesh axis ``a`` is called ``tt_axis_names[a]``."""
    ml, device = p.ml, p.device
    M = device.mesh_shape
    if p.ragged:
        i = next(i for i, (h, e) in enumerate(zip(p.global_shape, p.padded_global_shape)) if h != e)
        raise NotRepresentableError(
            f"grid dim {i} has {ml.grid[i]} cells in blocks of {p.block[i]} per chip: the last chip gets "
            f"{ml.grid[i] % p.block[i]}, and a NamedSharding needs equal shards (distribute pads the block instead)"
        )
    entries = [[] for _ in ml.grid]
    for a, n in enumerate(M):
        if n == 1 or a in p.replica_axes:
            continue
        if p.distribution[a] == "partial":
            used = np.unique(p.block_mesh[..., a]).size
            raise NotRepresentableError(
                f"the layout uses {used} of the {n} chips along mesh axis {a}: a NamedSharding shards or "
                "replicates a whole mesh axis"
            )
        coord = p.block_mesh[..., a]
        dims = [i for i in range(coord.ndim) if coord.shape[i] > 1 and
                (np.diff(coord, axis=i) != 0).any()]
        if len(dims) != 1:
            raise NotRepresentableError(
                f"the chip's position along mesh axis {a} depends on grid dims {dims}: "
                "a mesh axis can split one array dim only"
            )
        entries[dims[0]].append(a)
    out = []
    for i, axes in enumerate(entries):
        if not axes:
            out.append(None)
            continue
        line = p.block_mesh[tuple(slice(None) if j == i else 0 for j in range(len(ml.grid)))]  # (n_i, mesh rank)

        def period(a):
            ch = np.flatnonzero(np.diff(line[:, a]) != 0)
            return int(ch[0]) + 1 if ch.size else p.blocks[i]

        axes.sort(key=period, reverse=True)
        combo = np.zeros(p.blocks[i], dtype=np.int64)
        for a in axes:
            combo = combo * M[a] + line[:, a]
        if math.prod(M[a] for a in axes) != p.blocks[i] or not np.array_equal(combo, np.arange(p.blocks[i])):
            raise NotRepresentableError(
                f"grid dim {i}: its {p.blocks[i]} blocks go to mesh positions {line[:, axes].tolist()} along mesh "
                f"axes {axes}, not in the row-major order a NamedSharding gives"
            )
        names = tuple(tt_axis_names[a] for a in axes)
        out.append(names[0] if len(names) == 1 else names)
    return out


def to_named_sharding(metal_layout, device, mesh):
    """The ``jax.sharding.NamedSharding`` of ``metal_layout``'s block array over ``mesh``, as ``device`` places it.

    The tt mesh axes of ``device`` and the axes of ``mesh`` are matched in
    order after leaving out axes of size 1; their sizes must agree. Raises
    ``NotRepresentableError`` with the reason when the chips' cells are not
    one box each in a regular tiling (a staircase over chips), when the
    last chip along a dim gets fewer cells (JAX needs equal shards), when a
    layout uses part of a mesh axis, or when blocks go to mesh positions in
    an order a ``PartitionSpec`` cannot say. The answer goes through
    ``unilayout.sharding``: the spec must also place the tensor's unpadded
    physical array as the chips hold it (``sharding.from_jax(s, physical_shape)``
    equals the layout's own ``Sharding``), else the exact ``NamedSharding`` of
    that array (``sharding.to_jax``) or ``NotRepresentableError``: a 5-row
    batch in shards of 3 rows is split 3+2, which JAX refuses.

    **Post-condition**: ``jax.device_put(block_array, s)`` puts on mesh
    position ``m`` the shards ``device.place`` gives the chip at tt mesh
    position ``m`` (replicated along mesh axes where the layout sits on one chip).

    The seed's "data parallel over batch" (mesh 2x1x1, grid 2x2x4): the batch
    dim goes to the mesh's first axis.

    >>> import os; _ = os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
    >>> import jax, numpy as np
    >>> from unilayout import tt
    >>> dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (2, 1, 1))
    >>> ml = tt.MetalLayout.from_collapse((16, 3, 64, 128), (2, 2, 4), [(1, -1)])
    >>> mesh = jax.make_mesh((2,), ("batch",), devices=jax.devices()[:2])
    >>> s = to_named_sharding(ml, dev, mesh)
    >>> tuple(s.spec), s.shard_shape((16, 192, 128))
    (('batch', None, None), (8, 192, 128))

    A layout that fits on chip 0 of the 1x2 mesh is replicated on both:

    >>> dev2 = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (1, 2))
    >>> tuple(to_named_sharding(tt.MetalLayout.from_collapse((64, 64), (2, 2)), dev2, mesh).spec)
    (None, None)

    A 5x3x20x40 tensor split 3+2 over the two chips has no NamedSharding:

    >>> ml5 = tt.MetalLayout.from_collapse((5, 3, 20, 40), (2, 1, 1), [(1, -1)])
    >>> to_named_sharding(ml5, dev, mesh)
    Traceback (most recent call last):
    ...
    unilayout.errors.NotRepresentableError: the tensor's physical array 5x60x40 as the chips hold it: dim 0 of size 5 is split 3+2: JAX needs 2 equal shards (5 is not divisible by 2)
    """
    names, sizes = _mesh_sizes(mesh)
    p = plan(metal_layout, device)
    M = device.mesh_shape
    tt_axes = [a for a, n in enumerate(M) if n > 1]
    jax_axes = [k for k, n in enumerate(sizes) if n > 1]
    if [M[a] for a in tt_axes] != [sizes[k] for k in jax_axes]:
        raise NotRepresentableError(
            f"the device's mesh {xs(M)} does not line up with the JAX mesh "
            f"{', '.join(f'{n}={s}' for n, s in zip(names, sizes))}: their axes of size > 1 must have the same sizes in order"
        )
    tt_names = {a: names[k] for a, k in zip(tt_axes, jax_axes)}
    jax = _jax()
    ns = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec(*spec_entries(p, tt_names)))
    return _checked(ns, p, mesh)


def _checked(ns, p, mesh):
    """``ns`` if it places the tensor's physical array as the layout does (through ``sharding.Sharding``).

    The spec found on the block array must also be exact for the unpadded
    physical array a user holds: a 5-row batch on a grid of 2 shards of 3
    rows is split 3+2, which no NamedSharding says (JAX refuses a dim of 5
    over 2 devices).
    """
    from ..convert.tt_sharding import physical_sharding  # lazy: convert/ loads every bridge and family (~130 ms)

    ids = [d.id for d in mesh.devices.flat]
    want = physical_sharding(p, dict(zip(p.device.chip_ids, ids)))
    try:
        if from_jax(ns, p.ml.physical_shape) == want:
            return ns
    except NotRepresentableError:
        pass
    try:
        return to_jax(want, mesh)
    except NotRepresentableError as e:
        raise NotRepresentableError(
            f"the tensor's physical array {xs(p.ml.physical_shape)} as the chips hold it: {e}") from None


def natural_mesh(device, jax_devices=None):
    """The JAX mesh of ``device``'s chips: shape ``device.mesh_shape``, axes ``mesh0, mesh1, ...``, chip id c -> ``jax_devices[c]``.

    >>> import os; _ = os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
    >>> from unilayout import tt
    >>> m = natural_mesh(tt.Device.from_mesh(tt.SystemDesc(num_chips=4), (2, 1, 2)))
    >>> dict(m.shape), [d.id for d in m.devices.flat]
    ({'mesh0': 2, 'mesh1': 1, 'mesh2': 2}, [0, 1, 2, 3])
    """
    jax = _jax()
    if not isinstance(device, Device):
        raise LayoutError(f"expected a tt.Device, got {type(device).__name__}")
    devs = list(jax.devices() if jax_devices is None else jax_devices)
    return _natural_mesh(device.chip_ids, device.mesh_shape, tuple(jax_device(devs, c) for c in device.chip_ids))


@functools.lru_cache(maxsize=64)
def _natural_mesh(chip_ids, mesh_shape, devices):
    jax = _jax()
    return jax.sharding.Mesh(np.array(devices, dtype=object).reshape(mesh_shape),
                             tuple(f"mesh{a}" for a in range(len(mesh_shape))))


def jax_device(devs, chip_id):
    if chip_id >= len(devs):
        raise LayoutError(
            f"chip id {chip_id} has no JAX device: jax_devices has {len(devs)} (chip ids index jax_devices)"
        )
    return devs[chip_id]


def from_named_sharding(shape, sharding):
    """``(MetalLayout, Device)`` describing a JAX array of ``shape`` sharded by ``sharding``.

    The layout has the identity map (logical = physical), f32 elements and
    one grid cell per shard: ``grid[i]`` = product of the mesh axes named by
    ``spec[i]``. The device has one chip per mesh device (chip id = its
    position in ``jax.devices()``, core ``(0, 0)``), mesh shape = the JAX
    mesh's, and a grid map sending cell ``G`` to the chip whose mesh
    position JAX gives that shard (position 0 along axes the spec leaves
    out, which are replicated). Raises ``NotRepresentableError`` when a dim
    does not divide by its shard count (JAX cannot place such an array either).

    **Post-condition**: ``to_named_sharding(*from_named_sharding(shape, s), s.mesh)``
    is equivalent to ``s`` on arrays of ``shape``.

    >>> import os; _ = os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
    >>> import jax
    >>> mesh = jax.make_mesh((2, 4), ("x", "y"), devices=jax.devices()[:8])
    >>> s = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec(("y", "x")))
    >>> ml, dev = from_named_sharding((64, 6), s)
    >>> ml.grid, ml.shard_shape, str(dev.grid_map)
    ((8, 1), (8, 6), '(d0, d1) -> (d0 floordiv 2 + (d0 mod 2) * 4, 0, 0)')
    >>> to_named_sharding(ml, dev, mesh).is_equivalent_to(s, 2)
    True
    """
    jax = _jax()
    if not isinstance(sharding, jax.sharding.NamedSharding):
        raise LayoutError(f"expected a jax.sharding.NamedSharding, got {type(sharding).__name__}")
    names, sizes = _mesh_sizes(sharding.mesh)
    if isinstance(shape, (str, bytes)) or not hasattr(shape, "__iter__"):
        shape = (shape,)
    try:
        shape = tuple(int(v) for v in shape)
    except (TypeError, ValueError):
        raise LayoutError(f"shape {shape!r} must be a sequence of ints") from None
    if not shape or any(v < 1 for v in shape):
        raise LayoutError(f"shape {shape} must have rank >= 1 and every dim >= 1")
    spec = tuple(sharding.spec)
    if len(spec) > len(shape):
        raise LayoutError(f"PartitionSpec {sharding.spec} has {len(spec)} entries but the shape {xs(shape)} has rank {len(shape)}")
    spec = spec + (None,) * (len(shape) - len(spec))
    size_of = dict(zip(names, sizes))
    axes_of = []
    for i, e in enumerate(spec):
        axes = () if e is None else (e,) if isinstance(e, str) else tuple(e) if isinstance(e, (tuple, list)) else None
        if axes is None or any(not isinstance(a, str) or a not in size_of for a in axes):
            raise LayoutError(f"PartitionSpec entry {i} is {e!r}: expected None, a mesh axis name or a tuple of them "
                              f"(axes: {', '.join(names)})")
        axes_of.append(axes)
    grid = tuple(math.prod(size_of[a] for a in axes) for axes in axes_of)
    from_jax(sharding, shape)  # the canonical Sharding: refuses a dim that does not divide, as JAX does
    r = len(shape)
    ml = MetalLayout(shape, AffineMap(r, 0, tuple(dim(i) for i in range(r))), grid)
    mstride = {a: math.prod(sizes[k + 1:]) for k, a in enumerate(names)}
    terms = []
    for i, axes in enumerate(axes_of):
        for j, a in enumerate(axes):
            inner = math.prod(size_of[b] for b in axes[j + 1:])
            if size_of[a] == 1:
                continue
            e = dim(i)
            if inner > 1:
                e = e.floordiv(inner)
            if j > 0:
                e = e % size_of[a]
            terms.append(e * mstride[a] if mstride[a] > 1 else e)
    index = constant(0)
    for k, t in enumerate(terms):
        index = t if k == 0 else index + t
    all_devs = list(jax.devices())
    pos = {id(d): k for k, d in enumerate(all_devs)}
    chip_ids = []
    for d in sharding.mesh.devices.flat:
        if id(d) not in pos:
            raise LayoutError(f"mesh device {d} is not in jax.devices(): chip ids are positions in jax.devices()")
        chip_ids.append(pos[id(d)])
    device = Device(grid, AffineMap(r, 0, (index, constant(0), constant(0))), sizes, chip_ids)
    return ml, device.validate()
