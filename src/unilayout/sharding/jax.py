"""JAX ``NamedSharding`` / ``PartitionSpec`` <-> ``Sharding``.

A ``PartitionSpec`` names, for each array dim, the mesh axes that split it
(major first); axes it leaves out replicate. Dim ``i`` named by axes of sizes
``k0, k1, ...`` is cut into ``T = k0 * k1 * ...`` equal tiles and the device
at mesh coordinate ``m`` holds tile ``(m[a0] * k1 + m[a1]) * ...`` — exactly
``NamedSharding.devices_indices_map``. JAX needs ``n % T == 0``; a dim that
does not divide is refused here as JAX refuses it. Device ids are JAX's
``device.id``.

>>> import os; _ = os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
>>> import jax
>>> from jax.sharding import NamedSharding, PartitionSpec as P
>>> mesh = jax.make_mesh((2, 4), ("x", "y"), devices=jax.devices()[:8])
>>> s = from_jax(NamedSharding(mesh, P("x")), (8, 6))
>>> s.device_boxes[5], s.replicated[5]
([((4, 8), (0, 6))], True)
>>> tuple(to_jax(s, mesh).spec)
('x',)
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np

from .._ints import as_shape
from ..errors import LayoutError, NotRepresentableError
from ._grid import split_text, tiles
from .value import Sharding

__all__ = ["from_jax", "to_jax"]


def _jax():
    try:
        import jax  # lazy: JAX is an optional dependency (unilayout[jax]), imported by the functions that need it
    except ImportError as e:  # pragma: no cover - only without the extra
        raise ImportError("unilayout.sharding's JAX bridge needs JAX: pip install 'unilayout[jax]'") from e
    return jax


def _mesh_parts(mesh):
    """(axis names, sizes, device ids row-major) of a concrete JAX mesh (cached per mesh, as JAX caches its own)."""
    jax = _jax()
    if not isinstance(mesh, jax.sharding.Mesh):
        raise LayoutError(f"expected a jax.sharding.Mesh (with devices), got {type(mesh).__name__}")
    return _mesh_cached(mesh)[:3]


@functools.lru_cache(maxsize=64)
def _mesh_cached(mesh):
    names = tuple(mesh.axis_names)
    sizes = tuple(int(v) for v in mesh.devices.shape)
    ids = np.fromiter((d.id for d in mesh.devices.flat), dtype=np.int64, count=mesh.devices.size)
    ids.setflags(write=False)
    coords = np.indices(sizes, dtype=np.int64).reshape(len(sizes), -1)
    coords.setflags(write=False)
    return names, sizes, ids, coords


@functools.lru_cache(maxsize=256)
def _coords(sizes):
    c = np.indices(sizes, dtype=np.int64).reshape(len(sizes), -1)
    c.setflags(write=False)
    return c


def spec_axes(spec, rank, names):
    """Per dim, the tuple of mesh axis names (major first) of a PartitionSpec; LayoutError on bad entries."""
    parts = getattr(spec, "partitions", None)  # a spec with unreduced axes refuses iteration (JAX >= 0.7)
    entries = tuple(spec) if parts is None or not getattr(spec, "unreduced", None) else tuple(parts)
    if len(entries) > rank:
        raise LayoutError(f"PartitionSpec {spec} has {len(entries)} entries but the array has rank {rank}")
    entries += (None,) * (rank - len(entries))
    out, seen = [], set()
    for i, e in enumerate(entries):
        axes = () if e is None else (e,) if isinstance(e, str) else tuple(e) if isinstance(e, (tuple, list)) else None
        if axes is None or any(not isinstance(a, str) or a not in names for a in axes):
            raise LayoutError(f"PartitionSpec entry {i} is {e!r}: expected None, a mesh axis name or a tuple of them "
                              f"(axes: {', '.join(names)})")
        for a in axes:
            if a in seen:
                raise LayoutError(f"mesh axis {a!r} appears twice in PartitionSpec {spec}")
            seen.add(a)
        out.append(axes)
    return out


def from_jax(named_sharding, shape) -> Sharding:
    """The ``Sharding`` of an array of ``shape`` placed by ``named_sharding`` (device keys: ``device.id``).

    Raises ``NotRepresentableError`` where JAX itself refuses the shape (a dim
    not divisible by its shard count), ``LayoutError`` for a malformed spec.

    **Post-condition**: for every device ``d`` of the mesh,
    ``named_sharding.devices_indices_map(shape)[d]`` is the one box of
    ``from_jax(named_sharding, shape).device_boxes[d.id]`` as slices.

    >>> import os; _ = os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
    >>> import jax
    >>> from jax.sharding import NamedSharding, PartitionSpec as P
    >>> mesh = jax.make_mesh((2, 2), ("x", "y"), devices=jax.devices()[:4])
    >>> from_jax(NamedSharding(mesh, P(("y", "x"))), (8,)).device_boxes
    {0: [((0, 2),)], 1: [((4, 6),)], 2: [((2, 4),)], 3: [((6, 8),)]}
    >>> from_jax(NamedSharding(mesh, P("x")), (5,))
    Traceback (most recent call last):
    ...
    unilayout.errors.NotRepresentableError: dim 0 of size 5 does not divide into 2 shards (mesh axes ('x',)): JAX needs equal shards
    """
    jax = _jax()
    if not isinstance(named_sharding, jax.sharding.NamedSharding):
        raise LayoutError(f"expected a jax.sharding.NamedSharding, got {type(named_sharding).__name__}")
    shape = as_shape(shape, "shape")
    names, sizes, ids = _mesh_parts(named_sharding.mesh)
    axes_of = spec_axes(named_sharding.spec, len(shape), names)
    unreduced = _unreduced(named_sharding.spec, names, axes_of)
    s = _build(shape, names, sizes, ids, axes_of)
    return _with_sums(s, names, sizes, ids, unreduced) if unreduced else s


def _unreduced(spec, names, axes_of):
    """The spec's ``unreduced`` mesh axes (JAX >= 0.7: the array is their sum); LayoutError on a bad one."""
    un = tuple(sorted(getattr(spec, "unreduced", ()) or ()))
    used = {a for axes in axes_of for a in axes}
    for a in un:
        if a not in names or a in used:
            raise LayoutError(f"unreduced axis {a!r} of {spec} is {'not a mesh axis' if a not in names else 'also a split'}")
    return un


def _with_sums(s, names, sizes, ids, unreduced):
    """``s`` with every device partial, summed over the devices that differ only along the ``unreduced`` axes."""
    keep = [k for k, a in enumerate(names) if a not in unreduced]
    coords = _coords(tuple(sizes))
    key = np.ravel_multi_index(coords[keep], [sizes[k] for k in keep]) if keep else np.zeros(ids.size, np.int64)
    order = np.argsort(key, kind="stable")
    groups = [ids[g].tolist() for g in np.split(order, np.flatnonzero(np.diff(key[order])) + 1)]
    _, lo, hi = s.arrays()
    return Sharding._from_arrays(s.shape, s.arrays()[0], lo, hi, s.devices, groups)


def _build(shape, names, sizes, ids, axes_of) -> Sharding:
    coords = _coords(sizes)
    index = {a: k for k, a in enumerate(names)}
    n_dev = ids.size
    lo = np.zeros((n_dev, len(shape)), dtype=np.int64)
    hi = np.zeros((n_dev, len(shape)), dtype=np.int64)
    for i, (n, axes) in enumerate(zip(shape, axes_of)):
        ks = [sizes[index[a]] for a in axes]
        T = math.prod(ks)
        if n % T:
            raise NotRepresentableError(
                f"dim {i} of size {n} does not divide into {T} shards (mesh axes {axes}): JAX needs equal shards")
        if T == 1:
            hi[:, i] = n
            continue
        lo[:, i], hi[:, i] = tiles(n, ks, [coords[index[a]] for a in axes], exact=True)
    return Sharding._from_arrays(shape, ids, lo, hi)


def to_jax(sharding, mesh):
    """A ``NamedSharding`` over ``mesh`` that places every device's data as ``sharding`` says.

    The mesh's ``device.id`` values must be the sharding's devices. Raises
    ``NotRepresentableError`` naming the difference when no ``PartitionSpec``
    over ``mesh`` says it: a device holding several boxes or nothing, unequal
    shards (``torch.chunk``'s uneven last shard: JAX needs divisibility), a
    mesh axis moving the data along two dims, or shards in an order that would
    need an explicit mesh transpose. Partial sums become the spec's
    ``unreduced`` axes (JAX >= 0.7; the fewest mesh axes whose devices sum
    as ``Sharding.sum_groups`` says), refused when only some devices are
    partial, when no set of axes sums those groups, or when an unreduced axis
    is not ``AxisType.Explicit`` (JAX allows unreduced on Explicit axes only).
    ``from_jax`` reads ``unreduced`` back (JAX's ``devices_indices_map``
    refuses such specs; their meaning is checked against JAX's Shardy lowering).

    **Post-condition**: ``from_jax(to_jax(s, mesh), s.shape) == s``.

    >>> import os; _ = os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
    >>> import jax
    >>> mesh = jax.make_mesh((2,), ("x",), devices=jax.devices()[:2])
    >>> uneven = Sharding((5, 4), {0: [((0, 3), (0, 4))], 1: [((3, 5), (0, 4))]})
    >>> to_jax(uneven, mesh)
    Traceback (most recent call last):
    ...
    unilayout.errors.NotRepresentableError: dim 0 of size 5 is split 3+2: JAX needs 2 equal shards (5 is not divisible by 2)
    """
    jax = _jax()
    if not isinstance(sharding, Sharding):
        raise LayoutError(f"expected a unilayout.sharding.Sharding, got {type(sharding).__name__}")
    sharding._global("a NamedSharding (JAX's PartitionSpec has no manual axes: shard_map makes them)")
    names, sizes, ids = _mesh_parts(mesh)
    unreduced = ()
    if sharding.has_partial:
        sharding, unreduced = _split_sums(sharding, names, sizes, ids)
    spec = _spec_for(sharding, names, sizes, ids)
    if unreduced:
        types = dict(zip(names, getattr(mesh, "axis_types", ()) or ()))
        auto = [a for a in unreduced if "Explicit" not in str(types.get(a, ""))]
        if auto:
            raise NotRepresentableError(
                f"the partial sums add up along mesh axes {list(unreduced)}: JAX's unreduced axes must be Explicit "
                f"(jax.sharding.AxisType.Explicit), and {auto[0]!r} is {str(types.get(auto[0], 'Auto')).split('.')[-1]}")
        return jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec(*spec, unreduced=set(unreduced)))
    return jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec(*spec))


def _split_sums(s, names, sizes, ids):
    """``(s without partial sums, unreduced axes)``: the mesh axes along which ``s``'s partial sums add up."""
    flags = s.partial
    if not all(flags.values()):
        d = next(d for d, p in flags.items() if not p)
        raise NotRepresentableError(f"only some devices hold partial sums (device {d} does not): a PartitionSpec's "
                                    "unreduced axes make every device partial")
    plain = Sharding._trusted(s.shape, s.devices, s._boxes)
    spec = _spec_for(plain, names, sizes, ids)
    used = {a for e in spec if e is not None for a in ((e,) if isinstance(e, str) else e)}
    free = [a for a in names if a not in used]
    for n in range(1, len(free) + 1):  # the axes the sums add up along (the fewest that give the groups)
        for un in itertools.combinations(free, n):
            try:
                t = _with_sums(Sharding._from_arrays(s.shape, *_one_box_arrays(plain)), names, sizes, ids, un)
            except NotRepresentableError:
                continue
            if t.sum_groups == s.sum_groups:
                return plain, tuple(sorted(un))
    raise NotRepresentableError(f"the partial sums add up in groups {[list(g) for g in s.sum_groups][:4]} that no "
                                "set of mesh axes gives (a PartitionSpec's unreduced axes sum whole mesh axes)")


def _one_box_arrays(s):
    arr = s.arrays()
    if arr is None:
        d = next(d for d, b in s.device_boxes.items() if len(b) > 1)
        raise NotRepresentableError(f"device {d} holds {len(s.device_boxes[d])} separate boxes: a NamedSharding "
                                    "gives every device one box of the array")
    return arr


def _single_boxes(s: Sharding, ids, vocabulary: str):
    """(lo, hi) int arrays (devices in the order of ``ids``) when every device holds exactly one box."""
    s._global(vocabulary)
    if s.has_partial:
        d = min(d for d, p in s.partial.items() if p)
        raise NotRepresentableError(f"device {d} holds partial sums: {vocabulary} has no partial sums")
    arr = s.arrays()
    if arr is not None:
        sid, slo, shi = arr
        where = np.searchsorted(sid, ids)
        if sid.size != ids.size or not np.array_equal(sid[np.minimum(where, sid.size - 1)], ids):
            raise NotRepresentableError(
                f"the sharding's devices {list(s.devices)} are not the mesh's devices {sorted(ids.tolist())}")
        lo, hi = slo[where], shi[where]
        empty = ~(hi > lo).all(axis=1) if s.rank else np.zeros(ids.size, bool)
        if not empty.any():
            return lo, hi
    pos = {d: k for k, d in enumerate(s.devices)}
    if sorted(pos) != sorted(ids.tolist()):
        raise NotRepresentableError(
            f"the sharding's devices {list(s.devices)} are not the mesh's devices {sorted(ids.tolist())}")
    r = s.rank
    lo = np.zeros((ids.size, r), dtype=np.int64)
    hi = np.zeros((ids.size, r), dtype=np.int64)
    boxes = s._boxes
    for k, d in enumerate(ids.tolist()):
        b = boxes[pos[d]]
        if len(b) != 1:
            what = "nothing" if not b else f"{len(b)} separate boxes"
            raise NotRepresentableError(
                f"device {d} holds {what}: {vocabulary} gives every device one box of the array")
        for i, (a, z) in enumerate(b[0]):
            lo[k, i], hi[k, i] = a, z
    return lo, hi


def _tile_index(s, lo, hi, vocabulary, exact):
    """Per dim: tile count T and each device's tile index, checking the tiles are the vocabulary's cut."""
    T_of, t_of = [], []
    for i, n in enumerate(s.shape):
        starts = np.unique(lo[:, i])
        T = starts.size
        ext = {int(a): int(b) for a, b in zip(lo[:, i], hi[:, i])}
        pieces = [ext[int(a)] - int(a) for a in starts]
        if any(ext[int(a)] != int(z) for a, z in zip(lo[:, i], hi[:, i])) or \
                any(int(starts[j + 1]) != ext[int(starts[j])] for j in range(T - 1)):
            raise NotRepresentableError(f"dim {i}: the devices' ranges overlap without being equal")
        if exact:
            if n % T or len(set(pieces)) > 1:
                why = f"{n} is not divisible by {T}" if n % T else "the shards differ in size"
                raise NotRepresentableError(
                    f"dim {i} of size {n} is split {split_text(pieces)}: {vocabulary} needs {T} equal shards ({why})")
        else:
            c = -(-n // T)
            want = [min((t + 1) * c, n) - min(t * c, n) for t in range(T)]
            if pieces != want:
                raise NotRepresentableError(
                    f"dim {i} of size {n} is split {split_text(pieces)}: {vocabulary} cuts it into {T} tiles of "
                    f"ceil({n}/{T}) = {c}, i.e. {split_text(want)}")
        T_of.append(T)
        t_of.append(np.searchsorted(starts, lo[:, i]))
    return T_of, t_of


def _spec_for(s, names, sizes, ids):
    lo, hi = _single_boxes(s, ids, "a NamedSharding")
    T_of, t_of = _tile_index(s, lo, hi, "JAX", exact=True)
    grid_t = [t.reshape(sizes) for t in t_of]
    axes_of = [[] for _ in s.shape]
    for a, k in enumerate(sizes):
        if k == 1:
            continue
        moved = [i for i, t in enumerate(grid_t) if T_of[i] > 1 and np.ptp(t, axis=a).any()]
        if len(moved) > 1:
            raise NotRepresentableError(
                f"mesh axis {names[a]!r} moves the data along dims {moved}: a mesh axis splits one array dim only")
        if moved:
            axes_of[moved[0]].append(a)
    spec = []
    for i, axes in enumerate(axes_of):
        if not axes:
            if T_of[i] > 1:
                raise NotRepresentableError(f"dim {i} is split {T_of[i]} ways but no mesh axis moves it")
            spec.append(None)
            continue
        origin = grid_t[i][(0,) * len(sizes)]

        def stride(a):
            idx = [0] * len(sizes)
            idx[a] = 1
            return int(grid_t[i][tuple(idx)] - origin)

        axes.sort(key=stride, reverse=True)
        prod = int(np.prod([sizes[a] for a in axes]))
        if prod != T_of[i]:
            raise NotRepresentableError(
                f"dim {i} is split {T_of[i]} ways over mesh axes {[names[a] for a in axes]} of {prod} devices: "
                "a PartitionSpec splits a dim by whole mesh axes")
        nm = tuple(names[a] for a in axes)
        spec.append(nm[0] if len(nm) == 1 else nm)
    axes_named = [() if e is None else (e,) if isinstance(e, str) else e for e in spec]
    if _build(s.shape, names, sizes, ids, axes_named) != s:
        raise NotRepresentableError(
            "the shards sit on the mesh in an order no PartitionSpec over this mesh gives "
            "(the device order needs an explicit mesh transpose)")
    while spec and spec[-1] is None:
        spec.pop()
    return spec
