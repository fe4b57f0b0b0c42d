"""Choosing a grid: every legal grid of a tensor on a device, ranked "max the grid" first.

The tt-mlir tensor-layout seed's heuristic is "max the grid at all costs"
and to keep exploring only when reblocking gets nasty. ``grids`` lists the
whole space the metal layout allows for one tensor on one device:

- **collapse choices**: the logical dims cut into contiguous groups, one
  group per grid dim (tt-mlir's ``collapseIntervals``; by default every way
  to cut the tensor into as many groups as the device grid has dims, the
  default collapse ``[(0, -1)]`` first);
- **physical grids**: every grid that fits the device grid (same rank,
  each dim at most the device's);
- **virtual grids**: any other grid with at most as many cells as the
  device has cores, placed on the cores in row-major order (``1 x 64``
  width sharding is the device seed's *extra wide* grid, ``64 x 1`` its
  *extra tall* one; others are ``row_major``), of any rank.

A grid is kept when every core holds data (a grid with an empty core is
the same shards as a smaller grid; ``idle=True`` keeps those too). For
each candidate:

==================  ============================================================
field               meaning
==================  ============================================================
``grid``            the layout's grid
``collapse``        its collapse intervals (normalised), ``physical_shape``
``placement``       ``physical``, ``extra_wide``, ``extra_tall`` or ``row_major``
``cores_used``      cores holding data (= cells of the grid unless ``idle=True``)
``padding_slots``   shard slots holding no element, grid and tile padding:
                    ``cells * prod(padded shard) - volume``; ``padding_fraction``
``bytes_per_core``  one (tile-padded) shard in bytes (tiles: ``tt.tile_bytes``)
``fits_l1``         ``bytes_per_core <= l1_size - l1_unreserved_base`` of the system
==================  ============================================================

Ranking: L1 layouts that fit first; then most cores ("max the grid"); then
least padding; then physical before named virtual before row-major; then
collapse choice and grid in order. ``layout`` and ``device`` of a candidate
are built on demand.

The seed's 53x63 tensor on an 8x8 chip: every grid of 64 cores comes
first; a virtual 2x32 grid pads least (27x2 shards, 117 slots), the
physical 8x8 grid pads 245 (7x8 shards); a 1x63 grid pads nothing but
leaves a core idle:

>>> from unilayout import tt
>>> dev = tt.Device((8, 8), "(d0, d1) -> (0, d0, d1)")
>>> [(c.grid, c.placement, c.cores_used, c.padding_slots) for c in grids((53, 63), dev)[:4]]
[((2, 32), 'row_major', 64, 117), ((8, 8), 'physical', 64, 245), ((4, 16), 'row_major', 64, 245), ((1, 63), 'row_major', 63, 0)]
>>> best = grids((53, 63), dev, virtual=False)[0]
>>> best.grid, best.layout.shard_shape, best.padding_fraction
((8, 8), (7, 8), 0.068359375)
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from .. import tt
from .._ints import as_int
from ..errors import LayoutError
from .regrid import reinterpret, row_major

__all__ = ["GridChoice", "grids", "collapse_choices"]

_PLACEMENT_ORDER = {"physical": 0, "extra_wide": 1, "extra_tall": 1, "row_major": 2}


def collapse_choices(rank: int, groups: int) -> tuple:
    """Every way to cut ``rank`` dims into ``groups`` contiguous groups, as collapse intervals.

    The tt-mlir default (leading dims joined, the last ``groups - 1`` dims
    alone) comes first. With ``rank <= groups`` the only choice is no collapse.

    >>> collapse_choices(4, 2)
    (((0, 3),), ((1, 4),), ((0, 2), (2, 4)))
    >>> collapse_choices(3, 3), collapse_choices(2, 3)
    (((),), ((),))
    """
    rank, groups = as_int(rank, "rank"), as_int(groups, "groups")
    if rank < 1 or groups < 1:
        raise LayoutError(f"collapse_choices: rank and groups must be >= 1, got {rank} and {groups}")
    if rank <= groups:
        return ((),)
    out = []
    for cuts in itertools.combinations(range(1, rank), groups - 1):
        bounds = (0,) + cuts + (rank,)
        out.append(tuple((b, e) for b, e in zip(bounds, bounds[1:]) if e - b > 1))
    first = ((0, rank - groups + 1),)
    out.sort(key=lambda iv: iv != first)
    return tuple(out)


def _groups_shape(shape, intervals):
    groups = tt.collapse_groups(len(shape), intervals)
    return tuple(math.prod(shape[d] for d in g) for g in groups)


def _virtual_grids(P, total):
    """All grids ``n`` with ``n_i <= P_i`` and ``prod(n) <= total`` (as a list of tuples)."""
    out = []

    def rec(i, prefix, budget):
        if i == len(P):
            out.append(tuple(prefix))
            return
        for v in range(1, min(P[i], budget) + 1):
            prefix.append(v)
            rec(i + 1, prefix, budget // v)
            prefix.pop()

    rec(0, [], total)
    return out


class GridChoice:
    """One candidate of ``grids`` (fields in the module docstring); ``layout`` and ``device`` built on demand.

    >>> from unilayout import tt
    >>> c = grids((64, 2048), tt.Device((8, 8), "(d0, d1) -> (0, d0, d1)"))[0]
    >>> c.grid, c.placement, c.bytes_per_core, c.fits_l1
    ((8, 8), 'physical', 8192, True)
    >>> print(c.layout.attribute())
    #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <8x8>, memref<8x256xf32, #tt.memory_space<l1>>>
    """

    __slots__ = ("grid", "collapse", "physical_shape", "placement", "cores_used", "padding_slots",
                 "padding_fraction", "bytes_per_core", "fits_l1", "_spec", "_layout", "_device")

    def __init__(self, grid, collapse, physical_shape, placement, cores_used, padding_slots, padding_fraction,
                 bytes_per_core, fits_l1, spec):
        s = object.__setattr__
        for k, v in zip(self.__slots__, (grid, collapse, physical_shape, placement, cores_used, padding_slots,
                                         padding_fraction, bytes_per_core, fits_l1, spec, None, None)):
            s(self, k, v)

    def __setattr__(self, name, value):
        raise AttributeError("GridChoice is immutable")

    @property
    def layout(self):
        """The ``tt.MetalLayout`` of this choice.

        >>> from unilayout import tt
        >>> grids((32, 32), tt.Device((2, 2), "(d0, d1) -> (0, d0, d1)"), tile=(32, 32))[0].layout.memref_shape
        (1, 1)
        """
        if self._layout is None:
            shape, element_type, memory_space, tile, _ = self._spec
            ml = tt.MetalLayout.from_collapse(shape, self.grid, self.collapse, element_type=element_type,
                                                 memory_space=memory_space, tile=tile)
            object.__setattr__(self, "_layout", ml)
        return self._layout

    @property
    def device(self):
        """The ``tt.Device`` the grid lives on: the device itself, or its virtual (row-major) reinterpretation.

        >>> from unilayout import tt
        >>> c = [c for c in grids((64, 64), tt.Device((2, 2), "(d0, d1) -> (0, d0, d1)")) if c.grid == (1, 4)][0]
        >>> c.placement, c.device.grid_shape, c.device.physical_core(0, 3)
        ('extra_wide', (1, 4), (0, 1, 1))
        """
        if self._device is None:
            base = self._spec[4]
            if self.placement == "physical":
                dev = base
            elif self.placement in ("extra_wide", "extra_tall"):
                dev = reinterpret(base, self.placement).device
            else:
                dev = row_major(base, self.grid).device
            object.__setattr__(self, "_device", dev)
        return self._device

    def _key(self):
        return (self.grid, self.collapse, self.placement, self._spec[:4], self._spec[4])

    def __eq__(self, other):
        return type(other) is GridChoice and self._key() == other._key()

    def __hash__(self):
        return hash(self._key()[:4])

    def __repr__(self):
        return (f"GridChoice(grid={self.grid!r}, collapse={self.collapse!r}, placement={self.placement!r}, "
                f"cores_used={self.cores_used}, padding_slots={self.padding_slots}, "
                f"bytes_per_core={self.bytes_per_core}, fits_l1={self.fits_l1})")


def _tensor(tensor, element_type, tile):
    if isinstance(tensor, tt.MetalLayout):
        et = tensor.element_type if element_type is None else element_type
        return tensor.logical_shape, et, tensor.tile if tile is None else tile
    if isinstance(tensor, (str, bytes)) or not hasattr(tensor, "__iter__"):
        tensor = (tensor,)
    shape = tuple(as_int(v, "tensor dim") for v in tensor)
    if not shape or min(shape) < 1:
        raise LayoutError(f"grids: tensor shape {shape} must have rank >= 1 and every dim >= 1")
    return shape, "f32" if element_type is None else element_type, tile


def _collapses(shape, device_rank, collapse):
    r = len(shape)
    if collapse is None:
        return collapse_choices(r, device_rank)
    items = list(collapse) if not isinstance(collapse, (str, bytes)) and hasattr(collapse, "__iter__") else None
    if items is None:
        raise LayoutError(f"grids: collapse must be collapse intervals or a list of them, got {collapse!r}")
    single = not items or (hasattr(items[0], "__len__") and len(items[0]) == 2
                           and all(isinstance(v, (int, np.integer)) for v in items[0]))
    choices = [items] if single else items
    return tuple(tt.normalize_intervals(r, c) for c in choices)


def grids(tensor, device, *, tile=None, memory_space="l1", collapse=None, element_type=None, system=None,
          virtual=True, idle=False) -> tuple:
    """Every legal grid of ``tensor`` on ``device``, ranked (see the module docstring).

    ``tensor``: a logical shape or a ``tt.MetalLayout`` (its shape, element
    type and tile). ``tile=(h, w)`` tilizes; ``collapse``: collapse intervals,
    or a list of choices (default: every cut into the device grid's rank);
    ``system``: the ``tt.SystemDesc`` giving L1 (default Wormhole B0 with
    the device's chips); ``virtual=False`` keeps physical grids only;
    ``idle=True`` also keeps grids with idle cores (``cores_used`` then
    counts the cores holding data, fewer than the grid's cells).

    **Post-conditions**: for every candidate ``c``:
    ``c.padding_slots == c.layout.padding_summary().total``, every core of
    ``c.grid`` holds data, and the tuple is sorted by the ranking key.

    The seed's batch over chips: 16 batches of 3x64x128 on two 8x8 chips
    (mesh 2x1x1), batch left alone by ``collapse=[(1, -1)]``:

    >>> from unilayout import tt
    >>> dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (2, 1, 1))
    >>> best = grids((16, 3, 64, 128), dev, collapse=[(1, -1)])[0]
    >>> best.grid, best.cores_used, best.padding_slots, dev.place(best.layout).distribution
    ((2, 8, 8), 128, 0, ('sharded', None, None))
    """
    if not isinstance(device, tt.Device):
        raise LayoutError(f"grids: device must be a tt.Device, got {type(device).__name__}")
    shape, element_type, tile = _tensor(tensor, element_type, tile)
    if not tt.metal.is_scalar_type(element_type):
        raise LayoutError(f"grids: element type {element_type!r} is not one of f16, bf16, f32, f64, iN, siN, uiN")
    if memory_space not in tt.MEMORY_SPACES:
        raise LayoutError(f"grids: memory space {memory_space!r} is not one of {', '.join(tt.MEMORY_SPACES)}")
    if tile is not None:
        probe = tt.MetalLayout.from_collapse((1, 1), (1, 1), element_type=element_type, tile=tile)
        tile, tile_dtype = probe.tile, probe.tile_dtype
        tbytes = tt.tile_bytes(tile_dtype, tile)
    if system is None:
        system = tt.SystemDesc((8, 8), max(device.chip_ids) + 1)
    if not isinstance(system, tt.SystemDesc):
        raise LayoutError(f"grids: system must be a tt.SystemDesc, got {type(system).__name__}")
    device.physical_cores()
    eb = tt.memory.element_bytes(element_type)
    capacity = system.l1_size - system.l1_unreserved_base
    D = device.grid_shape
    total = math.prod(D)
    volume = math.prod(shape)
    spec = (shape, element_type, memory_space, tile, device)
    rows = []
    for ci, intervals in enumerate(_collapses(shape, len(D), collapse)):
        P = _groups_shape(shape, intervals)
        g = max(len(P), len(D))
        P = (1,) * (g - len(P)) + P
        if tile is not None and g < 2:
            raise LayoutError("grids: a tilized layout needs a grid of rank >= 2")
        cands = []
        if g == len(D):
            cands = list(itertools.product(*(range(1, min(d, p) + 1) for d, p in zip(D, P))))
        if virtual:
            phys = set(cands)
            cands += [n for n in _virtual_grids(P, total) if n not in phys]
        if not cands:
            continue
        N = np.array(cands, dtype=np.int64).reshape(len(cands), g)
        Pa = np.array(P, dtype=np.int64)
        S = -(-Pa // N)
        used = -(-Pa // S)
        keep = np.ones(len(N), dtype=bool) if idle else np.all(used == N, axis=1)
        N, S, used = N[keep], S[keep], used[keep]
        is_phys = np.zeros(len(N), dtype=bool)
        if g == len(D):
            is_phys = np.all(N <= np.array(D, dtype=np.int64), axis=1)
        padded = S.copy()
        if tile is not None:
            padded[:, -2] = -(-S[:, -2] // tile[0]) * tile[0]
            padded[:, -1] = -(-S[:, -1] // tile[1]) * tile[1]
            nbytes = np.prod(padded[:, :-2], axis=1) * (padded[:, -2] // tile[0]) * (padded[:, -1] // tile[1]) * tbytes
        else:
            nbytes = np.prod(padded, axis=1) * eb
        cores = np.prod(used, axis=1)
        slots = np.prod(N, axis=1) * np.prod(padded, axis=1)
        pad = slots - volume
        fits = nbytes <= capacity
        for k in range(len(N)):
            grid = tuple(int(v) for v in N[k])
            if is_phys[k]:
                placement = "physical"
            elif g == 2 == len(D) and grid == (1, total):
                placement = "extra_wide"
            elif g == 2 == len(D) and grid == (total, 1):
                placement = "extra_tall"
            else:
                placement = "row_major"
            c = GridChoice(grid, intervals, P, placement, int(cores[k]), int(pad[k]), float(pad[k] / slots[k]),
                           int(nbytes[k]), bool(fits[k]), spec)
            rows.append(((not fits[k]) if memory_space == "l1" else False, -int(cores[k]), int(pad[k]),
                         _PLACEMENT_ORDER[placement], ci, grid, c))
    rows.sort(key=lambda r: r[:6])
    return tuple(r[-1] for r in rows)
