"""Pictures of Tenstorrent metal layouts (the grid of cores and their shards) and devices.

``metal_scene(ml)`` draws every core's padded shard (row-major inside the
shard) side by side in the layout's grid: real data coloured
by core, padding dark grey with class ``"cell padding"``, shards and tiles
outlined. A data cell's ``data-index`` is the logical element's row-major
position (the domain order of ``index_map``), ``data-slot`` its flat position
in ``shard()``'s output; padding cells have ``data-index="-1"``. Grids and
shards of rank > 2 fold their leading dims into rows.

>>> from unilayout import tt
>>> s = metal_scene(tt.MetalLayout.from_collapse((3, 4), (2, 2)))
>>> s.shape, int(s.padding.sum()), s.index[2:, :2].tolist()
((4, 4), 4, [[8, 9], [-1, -1]])
>>> d = device_scene(tt.Device.from_mesh(tt.SystemDesc.wormhole_b0(2), (1, 2)))
>>> d.shape, int(d.attrs["chip"][0, 8])
((8, 16), 1)

What a cell is in the explorer (``metal_cells``, ``device_cells``: the
records' ``cells`` hooks): for a metal layout, every slot of every core's
(padded) shard, cores apart, ``data-index`` the logical index or -1 for
padding (rows are found by ``data-slot``), its details the logical index,
the grid and shard coordinates, the tile coordinates, the chip and core a
one-chip Wormhole places it on, and whether it is padding;
``extras["cores"]`` lists each core's data extent and padding. For a device,
a core of the worker grid, ``data-index`` its row-major position, its
details the chip and physical core.

>>> c = metal_cells(tt.MetalLayout.from_collapse((3, 4), (2, 2)))
>>> c.rows, c.match, c.columns["logical index"][:3], c.extras["cores"]["rows"][1]
(16, 'slot', ['(0, 0)', '(0, 1)', '(1, 0)'], ['(0, 1)', 'chip 0, core (0, 1)', '2x2', '0x0', '0'])
>>> c = device_cells(tt.Device.from_mesh(tt.SystemDesc.wormhole_b0(2), (1, 2)))
>>> c.columns["chip"][7:9].tolist(), c.columns["core (y, x)"][7:9], c.summary
([0, 1], ['(0, 7)', '(0, 0)'], 'device: worker grid 8x16 over 2 chip(s)')
"""

from __future__ import annotations

import math

import numpy as np

from .._family import Cells
from ..draw.cells import check_count, fmt, fmts, strs, take
from ..draw.colors import PADDING, categorical
from ..draw.scene import DEFAULT_MAX_CELLS, SvgOnly, grid_scene
from ..errors import LayoutError
from .device import Device
from .metal.metal import MetalLayout
from .system import SystemDesc

__all__ = ["metal_scene", "device_scene", "shard_table", "shard_grid", "metal_cells", "device_cells"]

_GAP = 14.0


def _fold(shape):
    shape = tuple(int(s) for s in shape)
    if len(shape) == 1:
        return 1, shape[0]
    return int(np.prod(shape[:-1], dtype=np.int64)), shape[-1]


def _grid_2d(a, grid, shard):
    """(grid + shard) array -> 2-D picture array: core rows x shard rows, core cols x shard cols."""
    gr, gc = _fold(grid)
    sr, sc = _fold(shard)
    return a.reshape(gr, gc, sr, sc).transpose(0, 2, 1, 3).reshape(gr * sr, gc * sc)


def _to_padded(ml, a):
    """A ``shards_shape`` array (``grid + padded_shard_shape``, row-major inside each shard)."""
    want = tuple(ml.grid) + tuple(ml.padded_shard_shape)
    if tuple(ml.shards_shape) != want:
        raise LayoutError(f"metal picture: shard() output {ml.shards_shape} is not grid + padded shard {want}")
    return a.reshape(want)


def _check_metal(ml):

    if not isinstance(ml, MetalLayout):
        raise LayoutError(f"expected a tt.MetalLayout, got {type(ml).__name__}")


def _core_names(grid):
    idx = np.indices(grid).reshape(len(grid), -1).T
    return ["(" + ",".join(str(v) for v in row) + ")" for row in idx.tolist()]


def metal_scene(ml, *, max_cells=DEFAULT_MAX_CELLS, labels=None):
    """The grid of cores, each with its padded shard: data coloured by core, padding grey, tiles outlined.

    Labels (the logical row-major index) are drawn when there are at most
    1024 cells (``labels=True/False`` forces). Above ``max_cells`` slots the
    picture becomes a summary: one ``"core"`` per core with its data extent
    and padding.

    >>> from unilayout import tt
    >>> s = metal_scene(tt.MetalLayout.from_collapse((53, 63), (3, 2), tile=(32, 32)))
    >>> s.shape, s.count_cells(), int(s.padding.sum()), len([o for o in s.outlines if o[6] == "tile"])
    ((96, 64), 6144, 2805, 6)
    """
    _check_metal(ml)
    grid = tuple(ml.grid)
    pshard = tuple(ml.padded_shard_shape)
    total = int(np.prod(grid + pshard, dtype=np.int64))
    if total > int(max_cells):
        return _metal_summary(ml, total, int(max_cells))
    shards_shape = tuple(ml.shards_shape)
    slot_logical = np.full(int(np.prod(shards_shape, dtype=np.int64)), -1, dtype=np.int64)
    slot_logical[ml.index_map()] = np.arange(ml.volume, dtype=np.int64)
    logical = _grid_2d(_to_padded(ml, slot_logical.reshape(shards_shape)), grid, pshard)
    slots = _grid_2d(_to_padded(ml, np.arange(slot_logical.size, dtype=np.int64).reshape(shards_shape)), grid, pshard)
    core = _grid_2d(np.broadcast_to(np.arange(int(np.prod(grid))).reshape(grid + (1,) * len(pshard)), grid + pshard),
                    grid, pshard)
    rows, cols = logical.shape
    sr, sc = _fold(pshard)
    pad = logical < 0
    show = rows * cols <= 1024 if labels is None else bool(labels)
    text = np.where(pad, "", logical.astype(str)).astype(object) if show else None
    shape_txt = "x".join(str(s) for s in ml.logical_shape)
    title = f"metal layout {shape_txt} {ml.element_type} on grid " + "x".join(str(g) for g in grid)
    kw = {} if show else {"min_cell_w": 10.0, "cell_h": 10.0}
    last = int(ml.logical_shape[-1])
    lead_shape = tuple(ml.logical_shape[:-1]) or (1,)
    lrow = np.where(pad, -1, logical // last)  # logical row (leading dims, row-major) of each data cell
    lcol = np.where(pad, -1, logical % last)
    digits = len(str(max(int(np.prod(lead_shape)) - 1, 0))) + (2 if len(lead_shape) > 1 else 0)
    scene = grid_scene(title, rows, cols, labels=text, row_group=sr, col_group=sc, gap=_GAP, headers=False,
                       origin=(7.0 * digits + 6.0, 24.0), **kw)
    scene.row_y = scene.row_y + (np.arange(rows) // max(sr, 1)) * 18.0  # room for each core row's name
    scene.kind = "metal"
    scene.index = np.where(pad, -1, logical)
    scene.padding = pad
    scene.attrs["slot"] = slots
    scene.attrs["core"] = core
    fill = categorical(core)
    fill[pad] = PADDING
    scene.fill = fill
    gr, gc = _fold(grid)
    names = _core_names(grid)
    if ml.is_tilized:
        th, tw = ml.tile
        for i in range(gr):
            for j in range(gc):
                for r0 in range(0, sr, th):
                    for c0 in range(0, sc, tw):
                        scene.add_outline(*scene.cell_box(i * sr + r0, j * sc + c0, i * sr + r0 + th, j * sc + c0 + tw),
                                          rgb=(40, 40, 40), width=1, cls="tile")
    for i in range(gr):
        for j in range(gc):
            x, y, w, h = scene.cell_box(i * sr, j * sc, (i + 1) * sr, (j + 1) * sc)
            scene.add_outline(x - 1, y - 1, w + 2, h + 2, rgb=(0, 0, 0), width=2, cls="shard")
            block = (slice(i * sr, (i + 1) * sr), slice(j * sc, (j + 1) * sc))
            data = ~pad[block]
            forms = [f"core {names[i * gc + j]}: padding only", f"{names[i * gc + j]} padding"]
            if data.any():
                rows_here = lrow[block][data]
                r0, r1 = _row_name(int(rows_here.min()), lead_shape), _row_name(int(rows_here.max()), lead_shape)
                c0, c1 = int(lcol[block][data].min()), int(lcol[block][data].max())
                forms = [f"core {names[i * gc + j]}: rows {r0}..{r1}, cols {c0}..{c1}",
                         f"{names[i * gc + j]} r{r0}..{r1} c{c0}..{c1}"]
            fits = [f for f in forms if len(f) * 6.2 <= w + _GAP - 4] or [names[i * gc + j]]
            scene.add_text(x, y - 18, fits[0], rgb=(40, 40, 40), cls="core-name")
    _logical_ticks(scene, lrow, lcol, lead_shape, step=1 if show else 8)
    summary = ml.padding_summary()
    tile = f", tiles {ml.tile[0]}x{ml.tile[1]} (outlined)" if ml.is_tilized else ""
    scene.notes = [
        f"shard {'x'.join(map(str, ml.shard_shape))}, padded {'x'.join(map(str, pshard))}{tile}; "
        f"colour: core; grey: padding ({summary.total:,} of {total:,} slots); numbers left and above: "
        f"logical row and column" + ("" if show else " (every 8th)"),
    ]
    if not show:
        scene.notes.append("labels omitted (more than 1,024 cells)")
        scene.notes.append(SvgOnly("data-index holds each element's logical index"))
    return scene


def _row_name(r, lead_shape):
    if len(lead_shape) == 1:
        return str(r)
    return "(" + ",".join(str(int(v)) for v in np.unravel_index(r, lead_shape)) + ")"


def _logical_ticks(scene, lrow, lcol, lead_shape, step):
    """Logical row numbers left of the picture rows and column numbers above the picture columns (class "axis").

    A picture row gets a number when all its data cells hold the same logical row (and that row is a
    multiple of ``step``, or starts a shard); likewise for columns.
    """
    rows, cols = lrow.shape
    for y in range(rows):
        vals = lrow[y][lrow[y] >= 0]
        if vals.size and (vals == vals[0]).all() and (int(vals[0]) % step == 0):
            scene.add_text(scene.col_x[0] - 5, scene.row_y[y] + scene.cell_h / 2, _row_name(int(vals[0]), lead_shape),
                           anchor="end", rgb=(90, 90, 90), cls="axis")
    for x in range(cols):
        vals = lcol[:, x][lcol[:, x] >= 0]
        if vals.size and (vals == vals[0]).all() and (int(vals[0]) % step == 0):
            scene.add_text(scene.col_x[x] + scene.cell_w / 2, scene.row_y[0] - 6, str(int(vals[0])),
                           anchor="middle" if step == 1 else "start", rgb=(90, 90, 90), cls="axis")


def _metal_summary(ml, total, max_cells):
    grid = tuple(ml.grid)
    s = ml.padding_summary()
    gr, gc = _fold(grid)
    ext = s.extent.reshape(gr * gc, -1)
    padd = s.padding.reshape(gr * gc, -1)
    labels = np.array(["data " + "x".join(map(str, e)) + "\npad +" + ",+".join(map(str, p))
                       for e, p in zip(ext.tolist(), padd.tolist())], dtype=object).reshape(gr, gc)
    title = f"metal layout {'x'.join(map(str, ml.logical_shape))} on grid {'x'.join(map(str, grid))} (summary)"
    scene = grid_scene(title, gr, gc, labels=labels, headers=True)
    scene.kind = "metal-summary"
    scene.cell_class = "core"
    empty = (ext == 0).any(axis=1).reshape(gr, gc)
    fill = categorical(np.arange(gr * gc).reshape(gr, gc))
    fill[empty] = PADDING
    scene.fill = fill
    scene.index = np.arange(gr * gc, dtype=np.int64).reshape(gr, gc)
    scene.notes = [
        f"summary: {total:,} slots exceed max_cells={max_cells:,}; one box per core with its data extent "
        f"and padding per dim",
        f"padding: {s.total:,} slots in all",
    ]
    return scene


def device_scene(device, layout=None, *, max_cells=DEFAULT_MAX_CELLS):
    """A device's logical worker grid: each core labelled with its chip and physical core, coloured by chip.

    Grids of rank 3 and more fold their leading dims into rows, with a gap
    between the folded blocks (a ``2x8x8`` batch-over-chips grid is two 8x8
    blocks, one above the other). With a metal ``layout``, each core holding a
    shard (``Device.place``: shard grid coordinate -> physical core, mapped
    back to the logical core showing it) is labelled with the shard's grid
    coordinate, the other cores are pale, and the shards are outlined in red
    on every chip they touch (one outline per chip and folded block).
    ``data-index`` is the core's row-major position in the logical grid;
    ``data-chip``, ``data-y``, ``data-x`` its physical core.

    >>> from unilayout import tt
    >>> dev = tt.Device.from_mesh(tt.SystemDesc.wormhole_b0(2), (1, 2))
    >>> s = device_scene(dev, tt.MetalLayout.from_collapse((256, 1024), (4, 16)))
    >>> s.labels[3, 15], len([o for o in s.outlines if o[6] == "chip"]), len([o for o in s.outlines if o[6] == "layout"])
    ('c1 3,7\\n(3,15)', 2, 2)
    """

    if not isinstance(device, Device):
        raise LayoutError(f"device_scene: expected a tt.Device, got {type(device).__name__}")
    grid = tuple(device.grid_shape)
    total = int(np.prod(grid, dtype=np.int64))
    if total > int(max_cells):
        raise LayoutError(f"device grid {'x'.join(map(str, grid))} has {total:,} cores, more than max_cells={max_cells:,}")
    phys = device.physical_cores().reshape(-1, 3)
    gr, gc = _fold(grid)
    block = grid[-2] if len(grid) >= 3 else 0  # rows of one folded block
    chip, y, x = (phys[:, k].reshape(gr, gc) for k in range(3))
    labels = np.char.add(np.char.add(np.char.add(np.char.add("c", chip.astype(str)), " "), y.astype(str)),
                         np.char.add(",", x.astype(str)))
    held = None
    if layout is not None:
        _check_metal(layout)
        placement = device.place(layout)
        lg = tuple(layout.grid)
        where = {tuple(p): k for k, p in enumerate(phys.tolist())}
        held_flat = np.zeros(total, dtype=bool)
        shard_name = np.full(total, "", dtype=object)
        names = _core_names(lg)
        for name, core in zip(names, placement.cores.reshape(-1, 3).tolist()):
            k = where.get(tuple(core))
            if k is not None:
                held_flat[k] = True
                shard_name[k] = name
        held = held_flat.reshape(gr, gc)
        shard_name = shard_name.reshape(gr, gc)
        labels = np.where(held, np.char.add(np.char.add(labels.astype(str), "\n"), shard_name.astype(str)), labels)
    title = f"device {'x'.join(map(str, grid))}, mesh {'x'.join(map(str, device.mesh_shape))}, chips {list(device.chip_ids)}"
    row_names = None
    if len(grid) >= 3:  # rows of a folded grid are named by their leading coordinates
        row_names = [",".join(map(str, r)) for r in np.indices(grid[:-1]).reshape(len(grid) - 1, -1).T.tolist()]
    scene = grid_scene(title, gr, gc, labels=labels.astype(object), row_group=block, gap=_GAP if block else 6.0,
                       row_names=row_names)
    scene.kind = "device"
    scene.attrs["chip"] = chip
    scene.attrs["y"] = y
    scene.attrs["x"] = x
    fill = categorical(chip)
    if held is not None:
        pale = (fill.astype(np.int64) + 2 * 255) // 3
        fill = np.where(held[..., None], fill, pale).astype(np.uint8)
        scene.attrs["shard"] = np.where(held, 1, 0)
    scene.fill = fill
    band = np.arange(gr) // block if block else np.zeros(gr, dtype=np.int64)
    for (rr0, rr1, cc0, cc1) in _boxes(chip, band):
        scene.add_outline(*scene.cell_box(rr0, cc0, rr1, cc1), rgb=(0, 0, 0), width=3, cls="chip")
    scene.notes = ["colour: chip; label: chip id and physical core (y,x)" + ("" if len(grid) <= 2 else
                   f"; leading grid dims folded into rows (blocks of {block} rows)")]
    if held is not None:
        for (rr0, rr1, cc0, cc1) in _boxes(np.where(held, chip, -1), band, skip=-1):
            x0, y0, w, h = scene.cell_box(rr0, cc0, rr1, cc1)
            scene.add_outline(x0 + 2, y0 + 2, w - 4, h - 4, rgb=(200, 0, 0), width=2, cls="layout")
        scene.notes.append(f"red: the cores holding the shards of {layout.tensor_type()}, outlined on each chip")
        scene.notes.append(f"mesh distribution: {placement.distribution}, chips {list(placement.chips)}; "
                           f"label line 2: the shard's grid coordinate")
    return scene


def _boxes(key, band, skip=None):
    """``(r0, r1, c0, c1)``: the bounding box of each distinct ``key`` within each band of rows (skip ``skip``)."""
    out = []
    for b in np.unique(band).tolist():
        rows = np.nonzero(band == b)[0]
        sub = key[rows]
        for v in np.unique(sub).tolist():
            if skip is not None and v == skip:
                continue
            rr, cc = np.nonzero(sub == v)
            out.append((int(rows[rr.min()]), int(rows[rr.max()]) + 1, int(cc.min()), int(cc.max()) + 1))
    return out


def shard_table(ml) -> str:
    """The grid of shards as text: per core, the logical rows/cols it holds and its padding.

    >>> from unilayout import tt
    >>> print(shard_table(tt.MetalLayout.from_collapse((53, 63), (3, 2))))
    core     data   padding  slots
    (0,0)   18x32     +0,+0      0
    (0,1)   18x31     +0,+1     18
    (1,0)   18x32     +0,+0      0
    (1,1)   18x31     +0,+1     18
    (2,0)   17x32     +1,+0     32
    (2,1)   17x31     +1,+1     49
    """
    _check_metal(ml)
    s = ml.padding_summary()
    grid = tuple(ml.grid)
    names = _core_names(grid)
    ext = s.extent.reshape(len(names), -1).tolist()
    pad = s.padding.reshape(len(names), -1).tolist()
    slots = s.slots.reshape(-1).tolist()
    rows = [("core", "data", "padding", "slots")]
    for n, e, p, k in zip(names, ext, pad, slots):
        rows.append((n, "x".join(map(str, e)), "+" + ",+".join(map(str, p)), str(k)))
    w = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = [f"{r[0]:<{w[0]}}  {r[1]:>{max(w[1], 6)}}  {r[2]:>{max(w[2], 8)}}  {r[3]:>{w[3]}}" for r in rows]
    return "\n".join(line.rstrip() for line in lines)


def shard_grid(ml) -> str:
    """The grid of shards as a text grid: one cell per core, ``data extent +padding`` (leading grid dims folded into rows).

    >>> from unilayout import tt
    >>> print(shard_grid(tt.MetalLayout.from_collapse((53, 63), (3, 2), tile=(32, 32))))
                  0             1
    0  18x32 +14,+0  18x31 +14,+1
    1  18x32 +14,+0  18x31 +14,+1
    2  17x32 +15,+0  17x31 +15,+1
    """
    _check_metal(ml)
    s = ml.padding_summary()
    grid = tuple(ml.grid)
    gr, gc = _fold(grid)
    ext = s.extent.reshape(gr * gc, -1).tolist()
    pad = s.padding.reshape(gr * gc, -1).tolist()
    cells = ["x".join(map(str, e)) + " +" + ",+".join(map(str, p)) for e, p in zip(ext, pad)]
    w = max(len(c) for c in cells)
    if len(grid) > 1:
        lead = np.indices(grid[:-1]).reshape(len(grid) - 1, -1).T.tolist()
        names = [",".join(map(str, r)) for r in lead]
    else:
        names = ["0"]
    hw = max(len(n) for n in names)
    lines = [" " * (hw + 2) + "  ".join(f"{j:>{w}}" for j in range(gc))]
    for i in range(gr):
        lines.append(f"{names[i]:<{hw}}  " + "  ".join(f"{c:>{w}}" for c in cells[i * gc : (i + 1) * gc]))
    return "\n".join(lines)


def _default_device():
    return Device.from_mesh(SystemDesc.wormhole_b0(1), (1, 1))


def _placed_cores(ml, device=None):
    """``(chip, core y, core x)`` of each core of ``ml``'s grid on ``device`` (a one-chip Wormhole), or None."""
    try:
        return (device or _default_device()).place(ml).cores.reshape(-1, 3)
    except LayoutError:  # a grid that this device cannot hold: leave chip/core out
        return None


def _cores_table(ml, cores):
    """Per core, as TTNN's visualiser lists them: data extent, padding per dim, padding slots."""
    ps = ml.padding_summary()
    grid = tuple(ml.grid)
    rows = []
    for gk in range(math.prod(grid)):
        g = tuple(int(v) for v in np.unravel_index(gk, grid))
        where = "" if cores is None else f"chip {int(cores[gk][0])}, core ({int(cores[gk][1])}, {int(cores[gk][2])})"
        rows.append([fmt(g), where, "x".join(str(int(v)) for v in ps.extent[g]),
                     "x".join(str(int(v)) for v in ps.padding[g]), str(int(ps.slots[g]))])
    return {"columns": ["core", "chip and core", "data extent", "padding per dim", "padding slots"], "rows": rows}


def metal_cells(ml, *, device=None, details=True) -> Cells:
    """The explorer's cells of a metal layout: every slot of every core's padded shard (rows in slot order)."""
    grid = ml.grid
    pss = ml.padded_shard_shape
    full = tuple(grid) + tuple(pss)
    n = math.prod(full)
    shape_text = "x".join(map(str, ml.logical_shape))
    c = Cells(ml, title=f"metal layout {shape_text} on {'x'.join(map(str, grid))}", text=ml.tensor_type(),
              match="slot", summary=f"metal layout {shape_text} on grid {'x'.join(map(str, grid))}: shard "
              f"{'x'.join(map(str, ml.shard_shape))}, padded shard {'x'.join(map(str, pss))} (oob_val {ml.oob_val})")
    if not details:
        c.extras = {"cores": _cores_table(ml, _placed_cores(ml, device))}
        return c
    check_count(n, f"metal layout with {'x'.join(map(str, grid))} shards of {'x'.join(map(str, pss))}")
    pos = ml.index_map()  # logical row-major k -> flat slot
    owner = np.full(n, -1, dtype=np.int64)
    owner[pos] = np.arange(pos.size, dtype=np.int64)
    pad = owner < 0
    slots = np.unravel_index(np.arange(n, dtype=np.int64), full)
    r = len(grid)
    Q = slots[r:]
    core_key = np.ravel_multi_index(slots[:r], grid)
    logical = np.unravel_index(np.where(pad, 0, owner), ml.logical_shape)
    cores = _placed_cores(ml, device)
    tiled = ml.tile is not None
    shard_shape = ml.shard_shape
    # Strings that repeat from core to core (grid and shard coordinates) are formatted once per core / per slot.
    ncores, per_shard = math.prod(grid), math.prod(pss)
    in_shard = np.arange(n, dtype=np.int64) % per_shard  # the slot's position in its core's shard (row-major)
    S = np.unravel_index(np.arange(per_shard, dtype=np.int64), pss)
    columns = {"logical index": fmts(logical, n), "offset (position in shard())": strs(np.arange(n)),
               "grid coordinate (core)": take(fmts(np.unravel_index(np.arange(ncores, dtype=np.int64), grid), ncores),
                                              core_key),
               "shard coordinate": take(fmts(S, per_shard), in_shard)}
    for k in np.nonzero(pad)[0].tolist():
        columns["logical index"][k] = "padding"
    if tiled:
        th, tw = ml.tile
        columns["tile coordinate"] = take(fmts(S[:-2] + (S[-2] // th, S[-1] // tw), per_shard), in_shard)
        columns["in-tile coordinate"] = take(fmts((S[-2] % th, S[-1] % tw), per_shard), in_shard)
    if cores is not None:
        names = [f"chip {int(x[0])}, core ({int(x[1])}, {int(x[2])})" for x in cores.tolist()]
        columns["chip and core (y, x)"] = take(names, core_key)
    else:
        columns["chip and core (y, x)"] = ["(grid larger than one 8x8 chip: not placed)"] * n
    beyond_shard = np.zeros(n, dtype=bool)  # a slot past the shard in some dim: tile padding
    for i in range(r):
        beyond_shard |= Q[i] >= shard_shape[i]
    words = np.array(["no", "yes (beyond the tensor)", "yes (tile padding)"], dtype=object)
    columns["padding"] = words[np.where(pad, 1 + beyond_shard, 0)].tolist()
    groups = {"shard": core_key}
    if tiled:
        th, tw = ml.tile
        tk = core_key.copy()
        for i in range(r):
            ext = pss[i] // th if i == r - 2 else pss[i] // tw if i == r - 1 else pss[i]
            qi = Q[i] // th if i == r - 2 else Q[i] // tw if i == r - 1 else Q[i]
            tk = tk * ext + qi
        groups["tile"] = tk
    groups["padding"] = pad.astype(np.int64)
    if len(ml.logical_shape) >= 1:
        groups["logical row"] = np.where(pad, -1, logical[0] if len(ml.logical_shape) > 1 else 0)
    c.index, c.padding, c.columns, c.groups = owner, pad, columns, groups
    c.extras = {"cores": _cores_table(ml, cores)}
    return c


def device_cells(dev, *, details=True) -> Cells:
    """The explorer's cells of a device: the cores of its worker grid, row-major."""
    grid = tuple(dev.grid_shape)
    shown = "x".join(map(str, grid))
    c = Cells(dev, title=f"device worker grid {shown}", text=str(dev))
    if not details:
        return c
    n = math.prod(grid)
    check_count(n, f"device worker grid {shown}")
    cores = np.asarray(dev.physical_cores()).reshape(n, 3)
    idx = np.arange(n, dtype=np.int64)
    c.summary = f"device: worker grid {shown} over {len(set(cores[:, 0].tolist()))} chip(s)"
    c.index = idx
    c.columns = {"grid coordinate": fmts(np.unravel_index(idx, grid), n), "chip": cores[:, 0],
                 "core (y, x)": fmts((cores[:, 1], cores[:, 2]), n)}
    c.groups = {"chip": cores[:, 0], "core row": cores[:, 0] * 1024 + cores[:, 1]}
    return c
