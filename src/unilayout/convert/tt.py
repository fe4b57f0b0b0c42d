"""Tenstorrent values as affine maps and CuTe layouts: metal layouts and devices.

A metal layout maps the logical index through its collapse map ``p`` and the
grid/shard split ``G = p floordiv s``, ``q = p mod s`` to the coordinates of
``shard()``'s output; that is an affine map. Each shard alone is a CuTe
layout when the elements it holds are a box of the tensor with CuTe-strided
positions. A device's worker grid maps to ``(chip_id, y, x)``, affine when
the chip ids are an arithmetic progression.

>>> from unilayout import tt
>>> print(metal_to_affine(tt.MetalLayout.from_collapse((64, 64), (2, 2))))
(d0, d1) -> (d0 floordiv 32, d1 floordiv 32, d0 mod 32, d1 mod 32)
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .._ints import as_shape, check_table
from ..affine import AffineMap
from ..cute.fit import fit_layout
from ..errors import LayoutError, NotRepresentableError
from ..tt import Device, MetalLayout
from ..tt.forms import metal_form  # noqa: F401 (moved to tt.forms; kept as convert.metal_form)
from ..tt.shard import to_tiles
from ._common import MAX_POINTS, _name

__all__ = ["metal_to_affine", "ShardLayout", "metal_to_cute", "device_to_affine", "metal_form"]


def metal_to_affine(ml, flat=False):
    """A metal layout as an ``AffineMap`` from the logical index to its place in ``shard()``'s output.

    The collapse map ``p = linear(x)`` composed with the grid/shard split
    ``G = p floordiv s``, ``q = p mod s`` (``s = shard_shape``): the results
    are ``G + q``, the coordinates of ``shards_shape`` (grid, then the
    row-major padded shard; tiles only pad the shard). With ``flat=True``:
    one result, their row-major position, which is ``index_map(ml)``. The
    map is simplified on the tensor's box (it is meant there).

    **Post-condition**: on the logical box, ``metal_to_affine(ml, flat=True)``
    gives ``ml.index_map()``, and ``metal_to_affine(ml)(*x) == sum(ml.locate(*x), ())``.

    >>> from unilayout import tt
    >>> ml = tt.MetalLayout.from_collapse((2, 3, 64, 128), (2, 4))
    >>> print(metal_to_affine(ml))
    (d0, d1, d2, d3) -> (d0, d3 floordiv 32, d1 * 64 + d2, d3 mod 32)
    >>> metal_to_affine(ml)(1, 1, 6, 100), ml.locate(1, 1, 6, 100)
    ((1, 3, 70, 4), ((1, 3), (70, 4)))
    """
    if not isinstance(ml, MetalLayout):
        raise LayoutError(f"metal_to_affine: expected a MetalLayout, got {_name(ml)}")
    g = len(ml.grid)
    s = ml.shard_shape
    grid = [r.floordiv(n) for r, n in zip(ml.linear.results, s)]
    q = [r % n for r, n in zip(ml.linear.results, s)]
    shp = ml.shards_shape
    if len(shp) == 2 * g:
        coords = grid + q
    else:  # a tile-major shard(): grid + memref + tile
        th, tw = ml.tile
        coords = grid + q[:-2] + [q[-2].floordiv(th), q[-1].floordiv(tw), q[-2] % th, q[-1] % tw]
    m = AffineMap(ml.rank, 0, coords)
    if flat:
        expr = None
        for c, n in zip(m.results, shp):
            expr = c if expr is None else expr * n + c
        m = AffineMap(ml.rank, 0, [expr])
    return m.simplify(ml.logical_shape)


class ShardLayout(NamedTuple):
    """One shard of a metal layout as CuTe: the box of the tensor it holds and where each element sits.

    Element ``origin + c`` (``c`` a natural coordinate of ``layout``) is at
    ``shard_buffer[offset + layout(c)]``, where ``shard_buffer`` is that
    core's part of ``shard()``'s output, flattened row-major. Cores holding
    no element have ``origin``, ``offset`` and ``layout`` None.

    >>> ShardLayout((0, 1), (0, 2), 0, None).grid_coord
    (0, 1)
    """
    grid_coord: tuple
    origin: tuple
    offset: int
    layout: object


def metal_to_cute(ml, grid_coord=None, tiles=False):
    """The CuTe layout of each shard of a metal layout (``ShardLayout`` values).

    With ``grid_coord``: that core's ``ShardLayout``; without: a tuple of all
    of them, grid in row-major order. A shard is CuTe when the elements it
    holds form a box of the logical tensor and their positions in the
    shard's buffer are CuTe-strided in the box's natural coordinates (one
    mode per logical dim; tiles give hierarchical modes). The fit is checked
    on every element, so the answer is exact or ``NotRepresentableError``.

    **Pre-conditions** (else ``NotRepresentableError``): each non-empty
    shard holds a box of the tensor (a collapsed group split across cores in
    the middle of a dim does not) and the positions are CuTe-strided in it;
    at most ``MAX_POINTS`` elements.

    With ``tiles=True`` positions are in the tile-major buffer a core holds
    (``ml.to_tiles(ml.shard(a))[G]``: tile row, tile column, then the
    tile's rows and columns), so tiles show as hierarchical modes.

    **Post-condition**: ``shard()[G].reshape(-1)[offset + layout(c)] == a[origin + c]``
    (``to_tiles(shard())[G]`` with ``tiles=True``).

    >>> from unilayout import tt
    >>> ml = tt.MetalLayout.from_collapse((53, 63), (3, 2))
    >>> metal_to_cute(ml, (2, 1))
    ShardLayout(grid_coord=(2, 1), origin=(36, 32), offset=0, layout=Layout((17, 31), (32, 1)))
    >>> str(metal_to_cute(tt.MetalLayout.from_collapse((2, 3, 64, 128), (2, 4)), (1, 3)).layout)
    '(1,3,64,32):(0,2048,32,1)'
    >>> t = tt.MetalLayout.from_collapse((64, 64), (1, 1), tile=(32, 32))
    >>> str(metal_to_cute(t, (0, 0)).layout), str(metal_to_cute(t, (0, 0), tiles=True).layout)
    ('(64,64):(64,1)', '((32,2),(32,2)):((32,2048),(1,1024))')
    """
    if not isinstance(ml, MetalLayout):
        raise LayoutError(f"metal_to_cute: expected a MetalLayout, got {_name(ml)}")
    g = len(ml.grid)
    if grid_coord is not None:
        G = as_shape(grid_coord, "metal_to_cute: grid_coord")
        if len(G) != g or any(not 0 <= v < n for v, n in zip(G, ml.grid)):
            raise LayoutError(f"metal_to_cute: grid coordinate {G} is outside the grid {ml.grid}")
        wanted = [int(np.ravel_multi_index(G, ml.grid))]
    else:
        wanted = range(math.prod(ml.grid))
    check_table(ml.volume, "metal_to_cute: the logical elements", MAX_POINTS)
    flat = ml.index_map()
    if tiles and ml.tile is not None:
        held = to_tiles(ml, np.arange(math.prod(ml.shards_shape), dtype=np.int64).reshape(ml.shards_shape))
        where = np.empty(held.size, dtype=np.int64)
        where[held.reshape(-1)] = np.arange(held.size, dtype=np.int64)
        flat = where[flat]
    per_core = math.prod(ml.shards_shape[g:])
    core = flat // per_core
    pos = flat - core * per_core
    order = np.argsort(core, kind="stable")
    sorted_core = core[order]
    out = []
    for c in wanted:
        Gc = tuple(int(v) for v in np.unravel_index(c, ml.grid))
        lo, hi = np.searchsorted(sorted_core, [c, c + 1])
        if lo == hi:
            out.append(ShardLayout(Gc, None, None, None))
            continue
        members = order[lo:hi]  # logical flat indices, increasing
        idx = np.unravel_index(members, ml.logical_shape)
        origin = tuple(int(a.min()) for a in idx)
        ext = tuple(int(a.max()) - o + 1 for a, o in zip(idx, origin))
        what = f"metal_to_cute: shard {Gc}"
        if math.prod(ext) != members.size:
            raise NotRepresentableError(
                f"{what} holds {members.size} elements that are not a box of the tensor (their bounding box is "
                f"{'x'.join(map(str, ext))} at {origin}): no one CuTe layout describes it"
            )
        L, base = fit_layout(pos[members].reshape(ext), what=what)
        out.append(ShardLayout(Gc, origin, base, L))
    return out[0] if grid_coord is not None else tuple(out)


def device_to_affine(device):
    """A device as an ``AffineMap`` from its worker-grid coordinate to ``(chip_id, y, x)``.

    The worker-grid map gives a chip *index* (into ``chip_ids``); the chip id
    is affine in it when the ids are an arithmetic progression
    (``chip_ids[i] == c0 + k * i``), and then the first result becomes
    ``c0 + k * index``. Other id lists are a lookup table, not affine.

    **Pre-conditions** (else ``NotRepresentableError``): ``chip_ids`` is an
    arithmetic progression (one chip always is).

    **Post-condition**: ``device_to_affine(dev)(*G) == dev.physical_core(*G)`` on the grid.

    >>> from unilayout import tt
    >>> dev = tt.Device.from_mesh(tt.SystemDesc((8, 8), 8), (1, 2), [4, 5])
    >>> print(device_to_affine(dev))
    (d0, d1) -> (d1 floordiv 8 + 4, d0, d1 mod 8)
    >>> device_to_affine(dev)(3, 9), dev.physical_core(3, 9)
    ((5, 3, 1), (5, 3, 1))
    """
    if not isinstance(device, Device):
        raise LayoutError(f"device_to_affine: expected a Device, got {_name(device)}")
    ids = list(device.chip_ids)
    c0 = ids[0]
    k = ids[1] - ids[0] if len(ids) > 1 else 1
    if any(v != c0 + k * i for i, v in enumerate(ids)):
        raise NotRepresentableError(
            f"device_to_affine: chip ids {ids} are not an arithmetic progression of the chip index: the id is a "
            "table lookup, not affine (device.grid_map gives the index)"
        )
    m = device.grid_map
    first = m.results[0] * k + c0
    return AffineMap(m.num_dims, m.num_symbols, [first, *m.results[1:]])


#: This file's pairs for ``convert_to``'s table.
PAIRS = {("metal", "affine"): metal_to_affine, ("metal", "cute"): metal_to_cute, ("device", "affine"): device_to_affine}
