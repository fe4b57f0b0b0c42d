"""Grid reinterpretations: the same chips and cores, seen through another worker grid.

tt-mlir's device seed lists ways to *reinterpret* a device's worker grid
without touching data: the tensor layout keeps its grid coordinates, the
device maps them to different physical cores. With the device's grid map
``M`` (grid -> ``(chip index, y, x)``) and a grid change ``R`` (new grid
coordinate -> old grid coordinate) the reinterpreted device is ``M o R``.
On the last two grid dims ``(a, b)`` of extent ``(G0, G1)`` (leading dims
unchanged):

======================  ===============  ==============================================
name                    new grid         ``R(a, b)`` (old coordinate)
======================  ===============  ==============================================
``transposed``          ``G1 x G0``      ``(b, a)``
``extra_wide``          ``1 x G0*G1``    ``(a * G0 + b floordiv G1, b mod G1)``
``extra_tall``          ``G0*G1 x 1``    ``(b * G0 + a floordiv G1, a mod G1)``
``staircase``           ``G0 x G1``      ``(a, (a + b) mod G1)``
======================  ===============  ==============================================

(``a`` is always 0 on the extra-wide grid and ``b`` on the extra-tall one;
the maps are written as the seed writes them. The seed calls the 64x1 grid
"Extra Tall + Transposed": its cores follow the extra-wide order.)

On the seed's single 8x8 chip these are exactly the seed's maps:

>>> from unilayout import tt
>>> dev = tt.Device((8, 8), "(d0, d1) -> (0, d0, d1)")
>>> for r in reinterpretations(dev):
...     print(f"{r.name:11} {r.device.grid_shape} {r.device.grid_map}")
transposed  (8, 8) (d0, d1) -> (0, d1, d0)
extra_wide  (1, 64) (d0, d1) -> (0, d0 * 8 + d1 floordiv 8, d1 mod 8)
extra_tall  (64, 1) (d0, d1) -> (0, d1 * 8 + d0 floordiv 8, d0 mod 8)
staircase   (8, 8) (d0, d1) -> (0, d0, (d0 + d1) mod 8)

``row_major(device, grid)`` is the general virtual grid: any grid of at most
as many cells as the device has cores, its cells placed on the device's
cores in row-major order (``extra_wide`` is ``row_major(dev, (1, 64))``).
"""

from __future__ import annotations

import math
from typing import NamedTuple

from .._ints import as_shape
from ..affine import AffineMap, constant, dim
from ..errors import LayoutError
from ..tt import Device

__all__ = ["Reinterpretation", "REINTERPRETATIONS", "reinterpretations", "reinterpret", "row_major"]

#: The device seed's reinterpretations, in the order they are tried.
REINTERPRETATIONS = ("transposed", "extra_wide", "extra_tall", "staircase")


class Reinterpretation(NamedTuple):
    """A named reinterpretation of a device: ``name`` and the reinterpreted ``Device``.

    ``str()`` is the name.

    >>> from unilayout import tt
    >>> r = reinterpret(tt.Device((8, 8), "(d0, d1) -> (0, d0, d1)"), "transposed")
    >>> str(r), r.device.physical_core(1, 2)
    ('transposed', (0, 2, 1))
    """

    name: str
    device: object

    def __str__(self):
        return self.name


def _check_device(device, what):
    if not isinstance(device, Device):
        raise LayoutError(f"{what}: expected a tt.Device, got {type(device).__name__}")
    return device


def _grid_change(name, grid):
    """``(new grid, R)`` for a named reinterpretation of ``grid`` (rank >= 2), or LayoutError."""
    r = len(grid)
    lead = tuple(dim(i) for i in range(r - 2))
    G0, G1 = grid[-2], grid[-1]
    a, b = dim(r - 2), dim(r - 1)
    if name == "transposed":
        return grid[:-2] + (G1, G0), lead + (b, a)
    if name == "extra_wide":
        return grid[:-2] + (1, G0 * G1), lead + (a * G0 + b.floordiv(G1), b % G1)
    if name == "extra_tall":
        return grid[:-2] + (G0 * G1, 1), lead + (b * G0 + a.floordiv(G1), a % G1)
    if name == "staircase":
        return grid, lead + (a, (a + b) % G1)
    raise LayoutError(f"unknown reinterpretation {name!r}: expected one of {', '.join(REINTERPRETATIONS)}")


def reinterpret(device, name) -> Reinterpretation:
    """The reinterpretation ``name`` (one of ``REINTERPRETATIONS``) of ``device``.

    **Pre-condition**: the device grid has rank >= 2.
    **Post-condition**: the result's device has the same chips and mesh, and
    ``result.device.physical_core(*c) == device.physical_core(*R(c))``.

    >>> from unilayout import tt
    >>> two = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (1, 2))
    >>> r = reinterpret(two, "extra_wide")
    >>> r.device.grid_shape, r.device.physical_core(0, 127)
    ((1, 128), (1, 7, 7))
    """
    device = _check_device(device, "reinterpret")
    grid = device.grid_shape
    if len(grid) < 2:
        raise LayoutError(f"reinterpret: the worker grid {grid} has rank {len(grid)}; a reinterpretation needs rank >= 2")
    new_grid, R = _grid_change(name, grid)
    change = AffineMap(len(grid), 0, R)
    return Reinterpretation(name, device.reinterpret(device.grid_map.compose(change), new_grid))


def reinterpretations(device) -> tuple:
    """Every named reinterpretation of ``device`` (``REINTERPRETATIONS`` order; none for a rank-1 grid).

    >>> from unilayout import tt
    >>> [r.name for r in reinterpretations(tt.Device((4, 4), "(d0, d1) -> (0, d0, d1)"))]
    ['transposed', 'extra_wide', 'extra_tall', 'staircase']
    """
    device = _check_device(device, "reinterpretations")
    if len(device.grid_shape) < 2:
        return ()
    key = "plan.reinterpretations"
    cache = device._cache
    if key not in cache:
        cache[key] = tuple(reinterpret(device, n) for n in REINTERPRETATIONS)
    return cache[key]


def row_major(device, grid) -> Reinterpretation:
    """A virtual grid of any rank: cell ``c`` of ``grid`` on the device's core number ``flat(c)``, row-major.

    **Pre-condition**: ``prod(grid) <= prod(device.grid_shape)``.

    >>> from unilayout import tt
    >>> r = row_major(tt.Device((8, 8), "(d0, d1) -> (0, d0, d1)"), (3, 2, 2, 2))
    >>> r.name, r.device.physical_core(2, 1, 1, 1), r.device.physical_core(0, 0, 1, 1)
    ('row_major', (0, 2, 7), (0, 0, 3))
    """
    device = _check_device(device, "row_major")
    grid = as_shape(grid, "virtual grid")
    if not grid or min(grid) < 1:
        raise LayoutError(f"virtual grid {grid} must have rank >= 1 and every dim >= 1")
    total = math.prod(device.grid_shape)
    if math.prod(grid) > total:
        raise LayoutError(f"virtual grid {grid} has {math.prod(grid)} cells but the device has {total} cores")
    flat = constant(0)
    for i, n in enumerate(grid):
        stride = math.prod(grid[i + 1:])
        if n > 1:
            flat = flat + dim(i) * stride
    D = device.grid_shape
    old = []
    for j, n in enumerate(D):
        inner = math.prod(D[j + 1:])
        e = flat.floordiv(inner) if inner > 1 else flat
        old.append(e % n if j > 0 else e)
    change = AffineMap(len(grid), 0, old)
    return Reinterpretation("row_major", device.reinterpret(device.grid_map.compose(change), grid))
