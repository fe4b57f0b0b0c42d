"""``Device``: a logical worker grid over the chips of a system (tt-mlir's ``#tt.device``).

A device is a view over a ``SystemDesc``: a logical grid of any rank whose
affine ``grid_map`` sends each grid coordinate to ``(chip index, y, x)`` —
an index into ``chip_ids`` and a physical core of that chip. ``mesh_shape``
says how the chips are arranged; ``Device.from_mesh`` derives grid and map
from it (chip grid P0xP1, mesh M):

- grid = ``(M[0], .., M[r-3], P0 * M[r-2], P1 * M[r-1])`` (M padded with
  trailing 1s to rank 2: mesh 1x2 gives 8x16, 2x1x2 gives 2x8x16);
- mesh coordinate: leading dims directly, ``y floordiv P0``, ``x floordiv P1``;
  chip index = row-major over M (printed as tt-mlir builds it: leading dims,
  then the x term, then the y term); the core inside the chip is ``y mod P0``,
  ``x mod P1`` (only along mesh dims > 1).

>>> from unilayout.tt import SystemDesc
>>> dev = Device.from_mesh(SystemDesc((8, 8), 2), (1, 2))
>>> print(dev)
#tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>
>>> dev.physical_core(0, 8)
(1, 0, 0)

The first map result is an *index into* ``chip_ids``, not a chip id: a device
over chips ``[4, 5, 6, 7]`` sends grid ``(8, 0)`` of a 2x2 mesh to index 2,
chip 6. ``reinterpret`` keeps the chips and changes the grid (transposed,
extra-wide, staircase ...); ``validate`` checks that every logical core lands
on a distinct physical core of an existing chip; ``place`` puts a metal
layout's grid on the physical cores.

Differs from tt-mlir's C++ builder (which took the in-chip coordinate modulo
the *mesh* extent, tt-mlir#3069): the core inside a chip is taken modulo the
chip grid, as the spec and tt-mlir's Python tests do.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .._ints import INT64_MAX, as_int, as_items, check_table
from ..affine import AffineMap, constant, dim
from ..errors import LayoutError, NotRepresentableError
from ._mlir import xs
from .metal.metal import MetalLayout
from .system import SystemDesc

__all__ = ["Device", "Placement", "TOPOLOGIES", "pipeline"]

TOPOLOGIES = ("ring", "linear", "disabled")


#: Most chips a device's mesh may have (the sharding family's MAX_DEVICES): larger meshes are refused at once,
#: before a chip id is built for each position.
MAX_CHIPS = 1 << 20

def _int(value, what):
    return as_int(value, what)


def _dims(value, what):
    shp = tuple(_int(v, f"{what} dim") for v in as_items(value))
    if not shp or any(v < 1 for v in shp):
        raise LayoutError(f"{what} {shp} must have rank >= 1 and every dim >= 1")
    return shp


def _padded_mesh(mesh):
    return tuple(mesh) + (1,) * max(0, 2 - len(mesh))


class Device:
    """A ``#tt.device``: worker grid, its map to ``(chip index, y, x)``, mesh shape, chip ids.

    Immutable, hashable, ``==`` by value (the map compared by structure; use
    ``equivalent`` for maps that agree on the grid). Construction checks the
    structure (map takes one dim per grid dim, no symbols, 3 results; one
    distinct chip id per mesh position); ``validate`` checks the values.

    >>> d = Device((8, 8), "(d0, d1) -> (0, d1, d0)")
    >>> d.physical_core(3, 5), d.mesh_shape, d.chip_ids
    ((0, 5, 3), (1,), (0,))
    """

    __slots__ = ("grid_shape", "grid_map", "mesh_shape", "chip_ids", "mesh_topology", "_hash", "_cache")

    def __init__(self, grid_shape, grid_map, mesh_shape=(1,), chip_ids=(0,), mesh_topology=None):
        grid = _dims(grid_shape, "worker grid")
        if isinstance(grid_map, str):
            grid_map = AffineMap.parse(grid_map)
        if not isinstance(grid_map, AffineMap):
            raise LayoutError(f"grid_map must be an AffineMap or its text, got {type(grid_map).__name__}")
        if grid_map.num_symbols:
            raise LayoutError(f"worker grid map {grid_map} has symbols: it must take the grid coordinate only")
        if grid_map.num_dims != len(grid):
            raise LayoutError(
                f"worker grid map has {grid_map.num_dims} dims but the grid {xs(grid)} has rank {len(grid)}"
            )
        if grid_map.num_results != 3:
            raise LayoutError(
                f"worker grid map has {grid_map.num_results} results: it must give exactly 3 (chip index, y, x)"
            )
        mesh = _dims(mesh_shape, "mesh shape")
        if math.prod(mesh) > MAX_CHIPS:
            raise LayoutError(f"mesh {xs(mesh)} has {math.prod(mesh):,} chips, more than MAX_CHIPS = {MAX_CHIPS:,}")
        ids = tuple(_int(c, "chip id") for c in as_items(chip_ids))
        if any(c < 0 or c > INT64_MAX for c in ids):
            raise LayoutError(f"chip ids {list(ids)} must be >= 0 and fit in int64")
        if len(set(ids)) != len(ids):
            dup = next(c for c in ids if ids.count(c) > 1)
            raise LayoutError(f"chip id {dup} appears twice in {list(ids)}: chip ids must be distinct")
        if len(ids) != math.prod(mesh):
            raise LayoutError(
                f"mesh {xs(mesh)} has {math.prod(mesh)} chips but {len(ids)} chip ids are given: give one per mesh position"
            )
        if mesh_topology is not None:
            if isinstance(mesh_topology, str):
                mesh_topology = (mesh_topology,)
            if not hasattr(mesh_topology, "__iter__"):
                raise LayoutError(f"mesh_topology must be a sequence of {', '.join(TOPOLOGIES)}, got {mesh_topology!r}")
            topo = tuple(mesh_topology)
            bad = [t for t in topo if not isinstance(t, str) or t not in TOPOLOGIES]
            if bad:
                raise LayoutError(f"mesh topology {bad[0]!r} is not one of {', '.join(TOPOLOGIES)}")
            if len(topo) != len(mesh):
                raise LayoutError(f"meshTopology has {len(topo)} entries but meshShape {xs(mesh)} has rank {len(mesh)}")
            mesh_topology = topo
        s = object.__setattr__
        s(self, "grid_shape", grid)
        s(self, "grid_map", grid_map)
        s(self, "mesh_shape", mesh)
        s(self, "chip_ids", ids)
        s(self, "mesh_topology", mesh_topology)
        s(self, "_hash", hash((grid, grid_map, mesh, ids, mesh_topology)))
        s(self, "_cache", {})

    # --- construction ------------------------------------------------------------
    @staticmethod
    def from_mesh(system: SystemDesc, mesh_shape, chip_ids=None, mesh_topology=None) -> "Device":
        """The device whose worker grid concatenates the chips of ``mesh_shape`` (see the module docstring).

        ``chip_ids`` default to ``0 .. vol(mesh) - 1``; each must exist in ``system``.

        >>> from unilayout.tt import SystemDesc
        >>> print(Device.from_mesh(SystemDesc(num_chips=8), (2, 4)).grid_map)
        (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)
        >>> print(Device.from_mesh(SystemDesc(num_chips=4), (2, 1, 2)).grid_map)
        (d0, d1, d2) -> (d0 * 2 + d2 floordiv 8, d1, d2 mod 8)
        """
        if not isinstance(system, SystemDesc):
            raise LayoutError(f"from_mesh: expected a SystemDesc, got {type(system).__name__}")
        mesh = _dims(mesh_shape, "mesh shape")
        if math.prod(mesh) > MAX_CHIPS:  # before building a chip id per position
            raise LayoutError(f"mesh {xs(mesh)} has {math.prod(mesh):,} chips, more than MAX_CHIPS = {MAX_CHIPS:,}")
        if math.prod(mesh) > system.num_chips:
            raise LayoutError(
                f"mesh {xs(mesh)} needs {math.prod(mesh)} chips but the system has {system.num_chips}"
            )
        if chip_ids is None:
            chip_ids = tuple(range(check_table(math.prod(mesh), f"from_mesh: the chip ids of mesh {xs(mesh)}")))
        M = _padded_mesh(mesh)
        r = len(M)
        P0, P1 = system.chip_grid
        grid = M[:-2] + (P0 * M[-2], P1 * M[-1])
        mstride = [math.prod(M[i + 1:]) for i in range(r)]
        y, x = dim(r - 2), dim(r - 1)
        # As tt-mlir's inferWorkerGridMap: with more than one chip every leading
        # dim contributes (even of extent 1), then the x term, then the y term.
        terms = [dim(i) * mstride[i] for i in range(r - 2)] if math.prod(M) > 1 else []
        if M[-1] > 1:
            terms.append(x.floordiv(P1) * mstride[-1])
        if M[-2] > 1:
            terms.append(y.floordiv(P0) * mstride[-2])
        index = constant(0)
        for k, t in enumerate(terms):
            index = t if k == 0 else index + t
        results = (index, y % P0 if M[-2] > 1 else y, x % P1 if M[-1] > 1 else x)
        dev = Device(grid, AffineMap(r, 0, results), mesh, chip_ids, mesh_topology)
        return dev.validate(system)

    def reinterpret(self, grid_map, grid_shape=None) -> "Device":
        """The same chips and mesh seen through another worker grid (``grid_shape`` defaults to the current one).

        Call ``validate(system)`` on the result to check it against the chips.

        >>> d = Device((8, 8), "(d0, d1) -> (0, d0, d1)").reinterpret("(d0, d1) -> (0, d0 * 8 + d1 floordiv 8, d1 mod 8)", (1, 64))
        >>> d.physical_core(0, 9)
        (0, 1, 1)
        """
        return Device(self.grid_shape if grid_shape is None else grid_shape, grid_map, self.mesh_shape,
                      self.chip_ids, self.mesh_topology)

    # --- value semantics -------------------------------------------------------------
    def __setattr__(self, name, value):
        raise AttributeError("Device is immutable")

    def _key(self):
        return (self.grid_shape, self.grid_map, self.mesh_shape, self.chip_ids, self.mesh_topology)

    def __eq__(self, other):
        return type(other) is Device and other._hash == self._hash and other._key() == self._key()

    def __hash__(self):
        return self._hash

    def __reduce__(self):
        return (Device, self._key())

    def __repr__(self):
        topo = f", mesh_topology={self.mesh_topology!r}" if self.mesh_topology else ""
        return f"Device({self.grid_shape!r}, {str(self.grid_map)!r}, {self.mesh_shape!r}, {self.chip_ids!r}{topo})"

    def __str__(self):
        """The ``#tt.device<...>`` attribute (one line)."""
        text = (
            f"#tt.device<workerGrid = #tt.grid<{xs(self.grid_shape)}, {self.grid_map}>, "
            f"meshShape = {xs(self.mesh_shape)}, chipIds = [{', '.join(str(c) for c in self.chip_ids)}]"
        )
        if self.mesh_topology:
            text += f", meshTopology = [{', '.join(self.mesh_topology)}]"
        return text + ">"

    def equivalent(self, other) -> bool:
        """True iff ``other`` has the same grid, mesh and chips and sends every grid coordinate to the same place.

        >>> hand = Device((8, 16), "(d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0, d1 mod 8)", (1, 2), (0, 1))
        >>> gen = Device((8, 16), "(d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)", (1, 2), (0, 1))
        >>> hand == gen, hand.equivalent(gen)
        (False, True)
        """
        if not isinstance(other, Device):
            return False
        if (self.grid_shape, self.mesh_shape, self.chip_ids, self.mesh_topology) != (
                other.grid_shape, other.mesh_shape, other.chip_ids, other.mesh_topology):
            return False
        return self == other or bool(np.array_equal(self._raw(), other._raw()))

    # --- evaluation ----------------------------------------------------------------------
    def _raw(self):
        """int64 array grid + (3,) of (chip index, y, x) for every grid coordinate."""
        if "raw" not in self._cache:
            if math.prod(self.grid_shape) > (1 << 24):
                raise LayoutError(f"worker grid {xs(self.grid_shape)} is too large to enumerate")
            r = len(self.grid_shape)
            idx = [np.arange(n, dtype=np.int64).reshape((-1,) + (1,) * (r - 1 - i)) for i, n in enumerate(self.grid_shape)]
            vals = self.grid_map.evaluate(*idx)
            self._cache["raw"] = np.stack([np.broadcast_to(v, self.grid_shape) for v in vals], axis=-1)
        return self._cache["raw"]

    def physical_core(self, *grid_coord) -> tuple:
        """Grid coordinate -> ``(chip_id, y, x)``: the map's chip index looked up in ``chip_ids``.

        >>> from unilayout.tt import SystemDesc
        >>> Device.from_mesh(SystemDesc(num_chips=8), (2, 2), [4, 5, 6, 7]).physical_core(8, 0)
        (6, 0, 0)
        """
        if len(grid_coord) == 1 and hasattr(grid_coord[0], "__len__"):
            grid_coord = tuple(grid_coord[0])
        G = tuple(_int(v, "grid coordinate") for v in grid_coord)
        if len(G) != len(self.grid_shape) or any(not 0 <= g < n for g, n in zip(G, self.grid_shape)):
            raise LayoutError(f"grid coordinate {G} is outside the worker grid {xs(self.grid_shape)}")
        i, y, x = self.grid_map(*G)
        if not 0 <= i < len(self.chip_ids):
            raise LayoutError(f"grid coordinate {G} maps to chip index {i} but the device has {len(self.chip_ids)} chips")
        return (self.chip_ids[i], y, x)

    def physical_cores(self) -> np.ndarray:
        """int64 array ``grid_shape + (3,)``: ``(chip_id, y, x)`` of every logical core (vectorised).

        >>> Device((2, 2), "(d0, d1) -> (0, d1, d0)").physical_cores()[1, 0].tolist()
        [0, 0, 1]
        """
        raw = self._raw()
        idx = raw[..., 0]
        bad = (idx < 0) | (idx >= len(self.chip_ids))
        if bad.any():
            G = tuple(int(v) for v in np.argwhere(bad)[0])
            raise LayoutError(
                f"grid coordinate {G} maps to chip index {int(idx[G])} but the device has {len(self.chip_ids)} chips"
            )
        out = raw.copy()
        out[..., 0] = np.asarray(self.chip_ids, dtype=np.int64)[idx]
        return out

    def virtual_core(self, chip_id, y, x):
        """The grid coordinate placed on physical core ``(chip_id, y, x)``, or None if none is.

        >>> from unilayout.tt import SystemDesc
        >>> Device.from_mesh(SystemDesc(num_chips=8), (2, 4)).virtual_core(7, 7, 7)
        (15, 31)
        """
        want = np.array([_int(chip_id, "chip id"), _int(y, "y"), _int(x, "x")], dtype=np.int64)
        hits = np.argwhere((self.physical_cores() == want).all(axis=-1))
        return tuple(int(v) for v in hits[0]) if len(hits) else None

    def validate(self, system: SystemDesc = None) -> "Device":
        """Check the device against ``system``; return self or raise ``LayoutError``.

        Checks: chip ids exist (``< system.num_chips``); on the whole worker
        grid the chip index is in ``[0, len(chip_ids))`` and the core in the
        chip grid; no two logical cores share a physical core. Without a
        system, one of 8x8 chips numbered up to ``max(chip_ids)`` is assumed.

        >>> Device((8, 8), "(d0, d1) -> (0, d0, (d0 + d1) mod 8)").validate().grid_shape
        (8, 8)
        >>> Device((8, 8), "(d0, d1) -> (0, d0, d1 floordiv 2)").validate()
        Traceback (most recent call last):
        ...
        unilayout.errors.LayoutError: grid coordinates (0, 0) and (0, 1) both land on chip 0 core (0, 0): a device must be injective
        """
        if system is None:
            system = SystemDesc((8, 8), max(self.chip_ids) + 1)
        if not isinstance(system, SystemDesc):
            raise LayoutError(f"validate: expected a SystemDesc, got {type(system).__name__}")
        missing = [c for c in self.chip_ids if c >= system.num_chips]
        if missing:
            raise LayoutError(f"chip id {missing[0]} does not exist: the system has {system.num_chips} chip(s)")
        raw = self._raw()
        P = system.chip_grid
        for k, (name, hi) in enumerate((("chip index", len(self.chip_ids)), ("y", P[0]), ("x", P[1]))):
            v = raw[..., k]
            bad = (v < 0) | (v >= hi)
            if bad.any():
                G = tuple(int(t) for t in np.argwhere(bad)[0])
                raise LayoutError(
                    f"grid coordinate {G} maps to {name} {int(v[G])}, outside [0, {hi})"
                    + (f" (chip grid {xs(P)})" if k else "")
                )
        flat = (raw[..., 0] * P[0] + raw[..., 1]) * P[1] + raw[..., 2]
        flat = flat.reshape(-1)
        order = np.argsort(flat, kind="stable")
        dup = np.flatnonzero(flat[order][1:] == flat[order][:-1])
        if dup.size:
            a, b = sorted((int(order[dup[0]]), int(order[dup[0] + 1])))
            ga = tuple(int(t) for t in np.unravel_index(a, self.grid_shape))
            gb = tuple(int(t) for t in np.unravel_index(b, self.grid_shape))
            c, y, x = self.physical_core(*ga)
            raise LayoutError(
                f"grid coordinates {ga} and {gb} both land on chip {c} core ({y}, {x}): a device must be injective"
            )
        return self

    def inverse_map(self, system: SystemDesc = None) -> AffineMap:
        """For a device built by ``from_mesh``: the map ``(chip index, y, x) -> grid coordinate``.

        Raises ``NotRepresentableError`` for other grid maps (use ``virtual_core``).

        >>> from unilayout.tt import SystemDesc
        >>> print(Device.from_mesh(SystemDesc(num_chips=8), (2, 4)).inverse_map())
        (d0, d1, d2) -> (((d0 floordiv 4) mod 2) * 8 + d1, (d0 mod 4) * 8 + d2)
        """
        if system is None:
            system = SystemDesc((8, 8), max(self.chip_ids) + 1)
        mesh_dev = Device.from_mesh(system, self.mesh_shape, self.chip_ids, self.mesh_topology)
        if mesh_dev.grid_shape != self.grid_shape or not np.array_equal(mesh_dev._raw(), self._raw()):
            raise NotRepresentableError(
                f"{self.grid_map} is not the mesh map of {xs(self.mesh_shape)} on {xs(system.chip_grid)} chips: "
                "only from_mesh devices have an affine inverse here; use virtual_core"
            )
        M = _padded_mesh(self.mesh_shape)
        r = len(M)
        P0, P1 = system.chip_grid
        mstride = [math.prod(M[i + 1:]) for i in range(r)]
        m = [dim(0).floordiv(mstride[i]) % M[i] for i in range(r)]
        results = m[:-2] + [m[-2] * P0 + dim(1), m[-1] * P1 + dim(2)]
        return AffineMap(3, 0, results)

    # --- placement -------------------------------------------------------------------------
    def place(self, layout: MetalLayout) -> "Placement":
        """Where each shard of ``layout`` lives: ``(chip_id, y, x)`` per grid cell and the mesh distribution.

        Needs the layout's grid to have the device grid's rank and to fit in it.

        >>> from unilayout.tt import SystemDesc, MetalLayout
        >>> dev = Device.from_mesh(SystemDesc(num_chips=2), (2, 1, 1))
        >>> p = dev.place(MetalLayout.from_collapse((16, 3, 64, 128), (2, 2, 4), [(1, -1)]))
        >>> p.cores[1, 0, 3].tolist(), p.distribution, p.per_chip_grid, p.mesh_sharded
        ([1, 0, 3], ('sharded', None, None), (1, 2, 4), True)
        """
        if not isinstance(layout, MetalLayout):
            raise LayoutError(f"place: expected a MetalLayout, got {type(layout).__name__}")
        g = layout.grid
        if len(g) != len(self.grid_shape):
            raise LayoutError(
                f"layout grid {xs(g)} has rank {len(g)} but the device grid {xs(self.grid_shape)} has rank "
                f"{len(self.grid_shape)}: they must agree"
            )
        if any(a > b for a, b in zip(g, self.grid_shape)):
            raise LayoutError(f"layout grid {xs(g)} does not fit in the device grid {xs(self.grid_shape)}")
        cores = self.physical_cores()[tuple(slice(0, n) for n in g)]
        index = self._raw()[tuple(slice(0, n) for n in g)][..., 0]
        mesh = self.mesh_shape
        coords = np.unravel_index(index.reshape(-1), mesh)
        dist = []
        for axis, n in enumerate(mesh):
            if n == 1:
                dist.append(None)
                continue
            used = np.unique(coords[axis]).size
            dist.append("sharded" if used == n else "single" if used == 1 else "partial")
        per_chip = None
        M = _padded_mesh(mesh)
        if len(M) == len(g) and all(a % b == 0 for a, b in zip(g, M)):
            per_chip = tuple(a // b for a, b in zip(g, M))
        chips = tuple(sorted(set(int(c) for c in np.unique(cores[..., 0]))))
        return Placement(cores, chips, tuple(dist), per_chip)


class Placement(NamedTuple):
    """Result of ``Device.place``.

    - ``cores``: int64 ``layout.grid + (3,)``, the ``(chip_id, y, x)`` of each shard;
    - ``chips``: the chip ids holding shards, ascending;
    - ``distribution``: per mesh axis, ``"sharded"`` (the shards span all chips
      of the axis: TTNN ``ShardTensorToMesh``), ``"single"`` (one chip: an op
      that needs the tensor on every chip replicates it, ``ReplicateTensorToMesh``),
      ``"partial"`` (some chips), or None for an axis of extent 1;
    - ``per_chip_grid``: ``layout.grid / mesh`` (padded mesh) when it divides, else None.

    >>> from unilayout.tt import SystemDesc, MetalLayout
    >>> dev = Device.from_mesh(SystemDesc(num_chips=2), (1, 2))
    >>> p = dev.place(MetalLayout.from_collapse((256, 1024), (4, 16)))
    >>> p.chips, p.distribution, p.replicated
    ((0, 1), (None, 'sharded'), False)
    """

    cores: np.ndarray
    chips: tuple
    distribution: tuple
    per_chip_grid: tuple

    @property
    def mesh_sharded(self) -> bool:
        """True when the tensor is split across the chips along some mesh axis.

        >>> Placement(None, (0, 1), (None, "sharded"), (4, 8)).mesh_sharded
        True
        """
        return any(d == "sharded" or d == "partial" for d in self.distribution)

    @property
    def replicated(self) -> bool:
        """True when the tensor sits on one chip of a multi-chip mesh (it is replicated to the others when needed).

        >>> Placement(None, (0,), (None, "single"), None).replicated
        True
        """
        return len(self.chips) == 1 and any(d is not None for d in self.distribution)


def pipeline(system: SystemDesc, *devices: Device) -> tuple:
    """Pipeline-parallel devices: each valid on ``system``, over pairwise disjoint chips.

    >>> from unilayout.tt import SystemDesc
    >>> s = SystemDesc(num_chips=8)
    >>> a = Device.from_mesh(s, (2, 1, 2), [0, 1, 2, 3])
    >>> b = Device.from_mesh(s, (2, 2), [4, 5, 6, 7])
    >>> len(pipeline(s, a, b))
    2
    >>> pipeline(s, a, Device.from_mesh(s, (1, 2), [3, 4]))
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: pipeline devices 0 and 1 share chip(s) [3]: pipeline stages need disjoint chips
    """
    if len(devices) == 1 and isinstance(devices[0], (list, tuple)):
        devices = tuple(devices[0])
    for d in devices:
        if not isinstance(d, Device):
            raise LayoutError(f"pipeline: expected Device values, got {type(d).__name__}")
        d.validate(system)
    for i, a in enumerate(devices):
        for j in range(i + 1, len(devices)):
            shared = sorted(set(a.chip_ids) & set(devices[j].chip_ids))
            if shared:
                raise LayoutError(
                    f"pipeline devices {i} and {j} share chip(s) {shared}: pipeline stages need disjoint chips"
                )
    return tuple(devices)
