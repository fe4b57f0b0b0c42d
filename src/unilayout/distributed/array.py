"""Put a numpy array on JAX devices exactly as a metal layout and a tt device say, and get it back.

``distribute(a, ml, device)`` returns a ``jax.Array`` of the layout's **block
array**: the padded shards side by side in grid order (shape
``grid[i] * padded_shard_shape[i]``; for an identity map without padding,
``a`` itself). The shard JAX keeps on device ``jax_devices[c]`` is exactly
what ``device.place(ml)`` puts on chip ``c``: the shards of its grid cells,
in grid order, padding slots filled from ``oob_val``. Mesh axes along which
the layout sits on one chip are replicated. ``gather`` returns the logical
array, exactly.

The seed's "data parallel over batch": 16x3x64x128 on grid 2x2x4 of a 2x1x1
mesh; each chip holds half of the batch as its 2x4 cores' 8x96x32 shards:

>>> import os; _ = os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
>>> import numpy as np
>>> from unilayout import tt
>>> dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (2, 1, 1))
>>> ml = tt.MetalLayout.from_collapse((16, 3, 64, 128), (2, 2, 4), [(1, -1)])
>>> a = np.arange(16 * 3 * 64 * 128, dtype=np.float32).reshape(16, 3, 64, 128)
>>> x = distribute(a, ml, dev)
>>> x.shape, [(s.device.id, s.data.shape) for s in x.addressable_shards]
((16, 192, 128), [(0, (8, 192, 128)), (1, (8, 192, 128))])
>>> bool((gather(x, ml) == a).all())
True

When the chips' blocks cannot be one ``NamedSharding`` over the device's
mesh (the last chip gets fewer grid cells, the layout uses part of a mesh
axis), each device's block is built and placed one by one
(``jax.make_array_from_single_device_arrays``) on a mesh of the devices that
hold data; a short last block is padded with whole empty shards, so the
array can be larger than the block array (``gather`` drops the excess).
"""

from __future__ import annotations

import numpy as np

from ..errors import LayoutError, NotRepresentableError
from ..tt import MetalLayout
from ..tt.blocks import plan
from ..tt.metal import xs
from ..tt.metal.shard import fill_value
from ._plan import block_array, from_block_array
from .sharding import _jax, jax_device, natural_mesh, spec_entries

__all__ = ["distribute", "gather"]


def distribute(array, metal_layout, device, jax_devices=None):
    """A ``jax.Array`` holding on ``jax_devices[c]`` exactly what ``device.place(metal_layout)`` gives chip ``c``.

    ``array`` has the layout's logical shape. Without ``jax_enable_x64`` JAX
    keeps 64-bit types as 32-bit ones: such an array is accepted only when
    every value survives (then the result has the 32-bit dtype), otherwise
    ``LayoutError``; nothing is narrowed silently. The result is the layout's
    block array (see the module docstring) with a ``NamedSharding``: over
    ``natural_mesh(device, jax_devices)`` when ``to_named_sharding`` can
    express the placement, otherwise over a mesh of the devices holding data
    (one axis ``grid<i>`` per grid dim split over chips, one axis ``mesh<a>``
    per replicated tt mesh axis), assembled device by device.
    Chip ids index ``jax_devices`` (default ``jax.devices()``).

    **Post-conditions**: for each addressable shard ``s`` of the result on
    ``jax_devices[c]``, the cells of grid it covers are on chip ``c`` (or on
    the chip it replicates), and
    ``s.data == block_array[s.index]`` (padding from ``oob_val``);
    ``gather(distribute(a, ml, dev), ml) == a``.

    The seed's "data parallel over 2d": 256x1024 on grid 4x16 of a 1x2 mesh.

    >>> import os; _ = os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
    >>> import numpy as np, jax
    >>> from unilayout import tt
    >>> dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (1, 2))
    >>> ml = tt.MetalLayout.from_collapse((256, 1024), (4, 16))
    >>> a = np.random.default_rng(0).random((256, 1024), dtype=np.float32)
    >>> x = distribute(a, ml, dev)
    >>> tuple(x.sharding.spec), [s.index for s in x.addressable_shards]
    ((None, 'mesh1'), [(slice(None, None, None), slice(0, 512, None)), (slice(None, None, None), slice(512, 1024, None))])

    Grid 4x12 on the same mesh: chip 0 holds columns 0-7 of the grid, chip 1
    columns 8-11, so chip 1's block is padded with 4 empty shard columns:

    >>> ml2 = tt.MetalLayout.from_collapse((256, 960), (4, 12), oob_val="neginf")
    >>> b = np.ones((256, 960), np.float32)
    >>> y = distribute(b, ml2, dev)
    >>> y.shape, [s.data.shape for s in y.addressable_shards], float(y[0, -1])
    ((256, 1280), [(256, 640), (256, 640)], -inf)
    >>> bool((gather(y, ml2) == b).all())
    True
    """
    jax = _jax()
    p = plan(metal_layout, device)
    ml = metal_layout
    a = np.asarray(array)
    if a.shape != ml.logical_shape:
        raise LayoutError(f"array of shape {xs(a.shape)} does not match the layout's logical shape {xs(ml.logical_shape)}")
    if a.dtype.kind not in "biufc":
        raise LayoutError(f"array of dtype {a.dtype} cannot go to JAX: give a bool, integer, float or complex array")
    kept = jax.dtypes.canonicalize_dtype(a.dtype)
    if kept != a.dtype:  # 64-bit types without jax_enable_x64: JAX keeps 32 bits
        narrow = a.astype(kept)
        if not np.array_equal(narrow.astype(a.dtype), a, equal_nan=a.dtype.kind in "fc"):
            raise LayoutError(
                f"JAX stores this {a.dtype} array as {kept} (64-bit types are off) and some values do not survive: "
                f"enable them with jax.config.update('jax_enable_x64', True) or pass a {kept} array"
            )
        a = narrow
    fill_value(ml, a.dtype)  # oob_val inf/neginf need a floating-point array
    devs = list(jax.devices() if jax_devices is None else jax_devices)
    for h in p.holders:
        jax_device(devs, h.chip_id)
    if len({id(devs[h.chip_id]) for h in p.holders}) != len(p.holders):
        raise LayoutError("jax_devices gives the same JAX device to two chips that hold data: give distinct devices")
    full = block_array(ml, a)
    # One NamedSharding over the device's own mesh when it expresses the placement.
    chips_ok = all(c < len(devs) for c in device.chip_ids) and \
        len({id(devs[c]) for c in device.chip_ids}) == len(device.chip_ids)
    if not p.ragged and chips_ok:
        try:
            entries = spec_entries(p, {a_: f"mesh{a_}" for a_ in range(len(device.mesh_shape))})
        except NotRepresentableError:
            pass
        else:
            sharding = jax.sharding.NamedSharding(natural_mesh(device, devs), jax.sharding.PartitionSpec(*entries))
            return jax.device_put(full, sharding)
    # Device by device on a mesh of the holders: grid axes, then replica axes.
    g = len(ml.grid)
    split = [i for i in range(g) if p.blocks[i] > 1]
    rep_sizes = [device.mesh_shape[a_] for a_ in p.replica_axes]
    shape = [p.blocks[i] for i in split] + rep_sizes
    names = [f"grid{i}" for i in split] + [f"mesh{a_}" for a_ in p.replica_axes]
    if not names:
        shape, names = [1], ["grid"]
    grid_mesh = np.array([devs[h.chip_id] for h in p.holders], dtype=object).reshape(shape)
    mesh = jax.sharding.Mesh(grid_mesh, tuple(names))
    spec = jax.sharding.PartitionSpec(*[f"grid{i}" if p.blocks[i] > 1 else None for i in range(g)])
    sharding = jax.sharding.NamedSharding(mesh, spec)
    D = p.device_shape
    fill = fill_value(ml, a.dtype)
    pieces = []
    cache = {}
    for h in p.holders:
        if h.block not in cache:
            sl = tuple(slice(k * d, min((k + 1) * d, n)) for k, d, n in zip(h.block, D, p.global_shape))
            piece = full[sl]
            if piece.shape != D:
                padded = np.full(D, fill, dtype=a.dtype)
                padded[tuple(slice(0, n) for n in piece.shape)] = piece
                piece = padded
            cache[h.block] = np.ascontiguousarray(piece)
        pieces.append(jax.device_put(cache[h.block], devs[h.chip_id]))
    return jax.make_array_from_single_device_arrays(p.padded_global_shape, sharding, pieces)


def gather(jax_array, metal_layout):
    """The logical numpy array of a ``jax.Array`` made by ``distribute`` (or any array holding the block array).

    ``jax_array`` must have the grid's rank and, per dim, at least
    ``grid[i] * padded_shard_shape[i]`` elements in whole shards (a padded
    last block is allowed); padding slots are dropped. Lossless:
    ``gather(distribute(a, ml, dev), ml) == a``.

    >>> import os; _ = os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
    >>> import numpy as np
    >>> from unilayout import tt
    >>> ml = tt.MetalLayout.from_collapse((53, 63), (3, 2), tile=(32, 32))
    >>> dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=1), (1,))
    >>> a = np.arange(53 * 63, dtype=np.int32).reshape(53, 63)
    >>> x = distribute(a, ml, dev)
    >>> x.shape, bool((gather(x, ml) == a).all())
    ((96, 64), True)
    """
    if not isinstance(metal_layout, MetalLayout):
        raise LayoutError(f"expected a tt.MetalLayout, got {type(metal_layout).__name__}")
    shape = getattr(jax_array, "shape", None)
    if shape is None or not hasattr(jax_array, "addressable_shards"):
        raise LayoutError(f"expected a jax.Array, got {type(jax_array).__name__}")
    ml = metal_layout
    S = ml.padded_shard_shape
    H = tuple(n * s for n, s in zip(ml.grid, S))
    if len(shape) != len(H) or any(v < h or v % s for v, h, s in zip(shape, H, S)):
        raise LayoutError(
            f"array of shape {xs(shape)} is not the block array of this layout: expected {xs(H)} "
            f"(grid {xs(ml.grid)} x padded shard {xs(S)}), or larger by whole shards"
        )
    return from_block_array(ml, np.asarray(jax_array))
