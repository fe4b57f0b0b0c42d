"""What the explorer shows: a layout as cells on a grid, each with its details and groups.

``layout_view(value)`` turns any layout value into a JSON-ready dict:

- ``svg``: one ``<svg>`` in which every drawn cell is ``<g class="cell"
  data-index=".." data-cell="k">`` (``padding`` added for padding slots of a
  metal layout); ``data-index`` is the cell's position in the domain order of
  ``unilayout.index_map`` (-1 for padding), ``data-cell`` its row in ``details``;
- ``columns`` / ``details``: one row of strings per drawn cell (logical index,
  offset, coordinates, thread/value or register/lane/warp, core, padding ...);
- ``groups``: for each way of grouping (same offset, same thread, same shard,
  same bank ...) one integer per cell; cells with equal numbers belong together;
- ``family``, ``title``, ``text`` (the canonical text of the value), ``summary``.

What a cell is, per family:

==========  =============================================================  ======================
family      cells (rows x columns)                                         data-index
==========  =============================================================  ======================
cute        ``print_layout``'s grid: mode 0 down, the other modes across   1-D coordinate
linear      the tensor (out-dims; last dim across), one cell per element   first holder's input
affine      the index box (``shape``), last dim across                     row-major position
tsl         the index box, last dim across                                 row-major position
tt metal    every slot of every core's (padded) shard, cores apart         logical index or -1
tt device   the worker grid                                                row-major position
==========  =============================================================  ======================

>>> from unilayout import cute
>>> v = layout_view(cute.Layout((2, 3), (3, 1)))
>>> v["family"], v["count"], v["svg"].count('class="cell"')
('cute', 6, 6)
>>> dict(zip(v["columns"], v["details"][1]))["offset"]
'3'
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

import numpy as np

from ..errors import LayoutError
from .adapter import family_of, parse_any

__all__ = ["layout_view", "text_view", "MAX_CELLS", "DEFAULT_AFFINE_EXTENT"]

#: Most cells one picture draws; larger layouts get a LayoutError saying so.
MAX_CELLS = 20000
#: Extent of each dim of an affine map's box when no ``shape`` is given.
DEFAULT_AFFINE_EXTENT = 4

_PALETTE = [
    (141, 211, 199), (255, 255, 179), (190, 186, 218), (251, 128, 114), (128, 177, 211), (253, 180, 98),
    (179, 222, 105), (252, 205, 229), (217, 217, 217), (188, 128, 189), (204, 235, 197), (255, 237, 111),
    (166, 206, 227), (178, 223, 138), (251, 154, 153), (253, 191, 111), (202, 178, 214), (255, 255, 153),
]


def _fmt(t) -> str:
    t = tuple(int(v) for v in t)
    return "(" + ", ".join(str(v) for v in t) + ")"


def _check_count(n: int, what: str) -> None:
    if n > MAX_CELLS:
        raise LayoutError(
            f"{what} has {n} cells; the explorer draws at most {MAX_CELLS}: choose a smaller shape or grid"
        )


def _colors(keys: np.ndarray) -> np.ndarray:
    keys = np.asarray(keys, dtype=np.int64)
    pal = np.array(_PALETTE, dtype=np.int64)
    return pal[np.mod(keys, len(pal))]


def _ramp(values: np.ndarray) -> np.ndarray:
    v = np.asarray(values, dtype=np.float64)
    lo, hi = (float(v.min()), float(v.max())) if v.size else (0.0, 1.0)
    t = (v - lo) / (hi - lo) if hi > lo else np.zeros_like(v)
    a, b = np.array([222.0, 235.0, 247.0]), np.array([49.0, 130.0, 189.0])
    return (a[None, :] + t[:, None] * (b - a)[None, :]).astype(np.int64)


def _svg(title, rows, cols, index, labels, fills, padding, *, row_group=0, col_group=0, outlines=(), notes=()):
    """One ``<svg>``: cell k at (rows[k], cols[k]) with ``data-index=index[k]`` and ``data-cell=k``."""
    n = len(index)
    chars = max([len(s) for s in labels] + [1])
    cw = max(26.0, 7.0 * chars + 8.0)
    ch = 22.0
    gap = 8.0
    left, top = 40.0, 44.0
    rows = np.asarray(rows, dtype=np.int64)
    cols = np.asarray(cols, dtype=np.int64)
    xs = left + cols * cw + ((cols // col_group) * gap if col_group else 0)
    ys = top + rows * ch + ((rows // row_group) * gap if row_group else 0)
    width = float(xs.max() + cw + 10) if n else 200.0
    height = float(ys.max() + ch + 10) if n else 80.0
    width = max(width, 8.0 * len(title) + 20)
    height += 16.0 * len(notes)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="ui-monospace, Menlo, Consolas, monospace">',
        f"<title>{escape(title)}</title>",
        f'<text class="title" x="10" y="22" font-size="14">{escape(title)}</text>',
    ]
    nr = int(rows.max()) + 1 if n else 0
    nc = int(cols.max()) + 1 if n else 0
    if nr * nc <= 4096 or max(nr, nc) <= 128:
        seen_r, seen_c = {}, {}
        for k in range(n):
            seen_r.setdefault(int(rows[k]), ys[k])
            seen_c.setdefault(int(cols[k]), xs[k])
        for r, y in seen_r.items():
            out.append(f'<text class="header" x="{left - 4:.1f}" y="{y + ch * 0.65:.1f}" font-size="9" '
                       f'text-anchor="end" fill="#666">{r}</text>')
        for c, x in seen_c.items():
            out.append(f'<text class="header" x="{x + cw / 2:.1f}" y="{top - 5:.1f}" font-size="9" '
                       f'text-anchor="middle" fill="#666">{c}</text>')
    font = 10.0
    for k in range(n):
        x, y = float(xs[k]), float(ys[k])
        r, g, b = (int(c) for c in fills[k])
        ink = "#000" if (0.299 * r + 0.587 * g + 0.114 * b) > 140 else "#fff"
        cls = "cell padding" if padding[k] else "cell"
        fill = "#e6e6e6" if padding[k] else f"#{r:02x}{g:02x}{b:02x}"
        lab = labels[k]
        out.append(
            f'<g class="{cls}" data-index="{int(index[k])}" data-cell="{k}">'
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{cw:.1f}" height="{ch:.1f}" fill="{fill}" stroke="#fff"/>'
            + (f'<text class="label" x="{x + cw / 2:.1f}" y="{y + ch * 0.66:.1f}" font-size="{font:.0f}" '
               f'text-anchor="middle" fill="{"#888" if padding[k] else ink}">{escape(lab)}</text>' if lab else "")
            + "</g>"
        )
    for (r0, c0, r1, c1, label) in outlines:
        x0 = left + c0 * cw + ((c0 // col_group) * gap if col_group else 0)
        y0 = top + r0 * ch + ((r0 // row_group) * gap if row_group else 0)
        x1 = left + (c1 - 1) * cw + (((c1 - 1) // col_group) * gap if col_group else 0) + cw
        y1 = top + (r1 - 1) * ch + (((r1 - 1) // row_group) * gap if row_group else 0) + ch
        out.append(f'<rect class="outline" x="{x0 - 1.5:.1f}" y="{y0 - 1.5:.1f}" width="{x1 - x0 + 3:.1f}" '
                   f'height="{y1 - y0 + 3:.1f}" fill="none" stroke="#333" stroke-width="1.5"/>')
        if label:
            out.append(f'<text class="outline-label" x="{x0:.1f}" y="{y0 - 4:.1f}" font-size="9" fill="#333">'
                       f"{escape(label)}</text>")
    base = height - 16.0 * len(notes)
    for i, note in enumerate(notes):
        out.append(f'<text class="note" x="10" y="{base + 16.0 * i + 4:.1f}" font-size="11" fill="#333">'
                   f"{escape(note)}</text>")
    out.append("</svg>")
    return "\n".join(out)


def _finish(family, title, text, value_rows, rows, cols, index, labels, fills, padding, columns, details, groups,
            summary, **svg_kw):
    n = len(index)
    return {
        "family": family,
        "title": title,
        "text": text,
        "count": n,
        "summary": summary,
        "columns": columns,
        "details": details,
        "groups": {name: [int(v) for v in vals] for name, vals in groups.items()},
        "padding": int(np.count_nonzero(padding)),
        "svg": _svg(title, rows, cols, index, labels, fills, padding, **svg_kw),
    }


# ---------------------------------------------------------------- CuTe
def _cute_view(L):
    from .. import cute

    composed = isinstance(L, cute.ComposedLayout)
    shape_layout = L.inner if composed else L
    n = cute.size(shape_layout)
    _check_count(n, f"CuTe layout {L}")
    idx = np.arange(n, dtype=np.int64)
    if composed:
        inner = cute.evaluate(L.inner, idx) + L.offset
        outer = L.outer
        offs = np.asarray([outer(int(v)) for v in inner], dtype=np.int64) if isinstance(outer, cute.Swizzle) \
            else cute.evaluate(outer, inner)
    else:
        offs = cute.evaluate(L, idx)
    if shape_layout.rank <= 1:
        nrows = 1
    else:
        nrows = cute.size(shape_layout[0])
    rows, cols = idx % nrows, idx // nrows
    shape = shape_layout.shape
    crds = [cute.idx2crd(int(i), shape) for i in idx]
    bank = offs % 32
    columns = ["index", "coordinate", "(row, col)", "offset", "bank (4-byte words, 32 banks)"]
    if composed:
        columns.append("offset before the swizzle")
    details = []
    for k in range(n):
        row = [str(k), str(crds[k]).replace(" ", ""), _fmt((rows[k], cols[k])), str(int(offs[k])), str(int(bank[k]))]
        if composed:
            row.append(str(int(inner[k])))
        details.append(row)
    _, off_group = np.unique(offs, return_inverse=True)
    groups = {"offset": off_group, "row": rows, "column": cols, "bank": bank}
    cosize = int(offs.max()) + 1 if n else 0
    summary = f"CuTe layout {L}: size {n}, cosize {cosize}"
    return _finish("cute", f"CuTe {L}", str(L), None, rows, cols, idx, [str(int(v)) for v in offs], _ramp(offs),
                   np.zeros(n, bool), columns, details, groups, summary)


# ---------------------------------------------------------------- linear
def _linear_view(L):
    from .. import linear

    in_names = list(L.in_dim_names)
    in_sizes = [L.in_dim_size(d) for d in in_names]
    out_names = list(L.out_dim_names)
    out_sizes = [L.out_dim_size(d) for d in out_names]
    n_out = math.prod(out_sizes)
    n_in = math.prod(in_sizes)
    _check_count(n_out, "linear layout")
    if n_in > 1 << 22:
        raise LayoutError(f"linear layout has {n_in} inputs; the explorer enumerates at most {1 << 22}")
    im = L.index_map().reshape(n_in, len(out_names))
    flat_out = np.ravel_multi_index(tuple(im[:, j] for j in range(len(out_names))), out_sizes) if out_names \
        else np.zeros(n_in, np.int64)
    # Holders of each tensor element, first (smallest input) first.
    order = np.argsort(flat_out, kind="stable")
    first = np.full(n_out, -1, dtype=np.int64)
    seen = np.zeros(n_out, dtype=bool)
    for i in order.tolist():
        f = int(flat_out[i])
        if not seen[f]:
            seen[f] = True
            first[f] = i
    holders = [[] for _ in range(n_out)]
    for i in order.tolist():
        holders[int(flat_out[i])].append(i)
    # In-dim digits (first in-dim least significant).
    digits = {}
    rem = np.arange(n_in, dtype=np.int64)
    for name, size in zip(in_names, in_sizes):
        digits[name] = rem % size
        rem //= size
    lanes = L.in_dim_size("lane") if "lane" in in_names else 1
    distributed = "lane" in in_names
    cells = np.nonzero(first >= 0)[0]
    if out_names:
        ocrd = np.unravel_index(cells, out_sizes)
    else:
        ocrd = ()
    cols = ocrd[-1] if out_names else np.zeros(cells.size, np.int64)
    rows = (np.ravel_multi_index(ocrd[:-1], out_sizes[:-1]) if len(out_names) > 1
            else np.zeros(cells.size, np.int64))
    idx = first[cells]

    def hw(i):
        return {name: int(digits[name][i]) for name in in_names}

    def thread(i):
        t = int(digits["lane"][i])
        if "warp" in digits:
            t += int(digits["warp"][i]) * lanes
        return t

    labels, details = [], []
    columns = ["tensor coordinate", "input index", *in_names]
    if distributed:
        columns += ["thread", "holders"]
    blocks = L.in_dim_size("block") if "block" in in_names else 1
    for k, f in enumerate(cells.tolist()):
        i = int(first[f])
        h = hw(i)
        crd = _fmt(int(c[k]) for c in ocrd) if out_names else "()"
        row = [crd, str(i), *[str(h[d]) for d in in_names]]
        if distributed:
            t = thread(i)
            lab = f"T{t}:{h.get('register', 0)}"
            if blocks > 1:
                lab = f"B{h['block']}:" + lab
            hs = ["T%d:%d" % (thread(j), int(digits["register"][j]) if "register" in digits else 0)
                  for j in holders[f]]
            row += [str(t), " ".join(hs[:16]) + (" ..." if len(hs) > 16 else "")]
        else:
            lab = str(i)
        labels.append(lab)
        details.append(row)
    groups = {}
    if distributed:
        tids = np.array([thread(int(i)) for i in idx], dtype=np.int64) if idx.size else np.zeros(0, np.int64)
        groups["thread"] = tids
    for name in in_names:
        groups[name] = digits[name][idx]
    fills = _colors(groups["thread"]) if distributed else _ramp(idx)
    title = "linear layout " + " x ".join(f"{d}:{s}" for d, s in zip(out_names, out_sizes))
    summary = (f"linear layout: {', '.join(f'{d} {s}' for d, s in zip(in_names, in_sizes))} -> "
               f"{' x '.join(str(s) for s in out_sizes)}; {'injective' if L.is_injective() else 'not injective'}")
    try:
        text = linear.to_attr(L)
    except LayoutError:  # shared layouts (offset, block) have no #ttg.linear text
        text = None
    return _finish("linear", title, text, None, rows, cols, idx, labels, fills,
                   np.zeros(len(idx), bool), columns, details, groups, summary)


# ---------------------------------------------------------------- affine
def _affine_view(m, shape):
    if shape is None:
        shape = (DEFAULT_AFFINE_EXTENT,) * m.num_dims
    shape = tuple(int(s) for s in shape)
    if len(shape) != m.num_dims:
        raise LayoutError(f"affine map {m} has {m.num_dims} dims but the shape {list(shape)} has {len(shape)}: "
                          "give one extent per dim")
    if any(s < 1 for s in shape):
        raise LayoutError(f"shape {list(shape)} must have extents >= 1")
    if m.num_symbols:
        raise LayoutError(f"affine map {m} has {m.num_symbols} symbol(s): the explorer draws maps without symbols")
    n = math.prod(shape)
    _check_count(n, f"the box {'x'.join(map(str, shape))}")
    vals = m.index_map(shape).reshape(n, m.num_results)
    idx = np.arange(n, dtype=np.int64)
    crds = np.unravel_index(idx, shape) if shape else ()
    cols = crds[-1] if shape else np.zeros(n, np.int64)
    rows = np.ravel_multi_index(crds[:-1], shape[:-1]) if len(shape) > 1 else np.zeros(n, np.int64)
    labels = [",".join(str(int(v)) for v in vals[k]) for k in range(n)]
    columns = ["index", "(" + ", ".join(f"d{i}" for i in range(len(shape))) + ")", "results"]
    details = [[str(k), _fmt(c[k] for c in crds) if shape else "()", "(" + ", ".join(str(int(v)) for v in vals[k]) + ")"]
               for k in range(n)]
    _, same = np.unique(vals, axis=0, return_inverse=True) if n else (None, np.zeros(0, np.int64))
    groups = {"value": np.asarray(same).reshape(-1)}
    for j in range(m.num_results):
        groups[f"result {j}"] = vals[:, j]
    first = vals[:, 0] if m.num_results else idx
    return _finish("affine", f"affine map {m} on {'x'.join(map(str, shape)) or 'a point'}", str(m), None, rows, cols,
                   idx, labels, _ramp(first), np.zeros(n, bool), columns, details, groups,
                   f"affine map with {m.num_dims} dims and {m.num_results} results, drawn on the box "
                   f"{'x'.join(map(str, shape)) or '()'}")


# ---------------------------------------------------------------- TSL
def _tsl_view(t):
    if t.is_dynamic:
        raise LayoutError(f"{t} has '?' bounds or steps: the explorer draws static layouts only")
    shape = tuple(math.prod(ts.bounds) for ts in t.tstrides)
    n = math.prod(shape)
    _check_count(n, f"TSL {t}")
    addr = t.index_map()
    idx = np.arange(n, dtype=np.int64)
    crds = np.unravel_index(idx, shape)
    cols = crds[-1]
    rows = np.ravel_multi_index(crds[:-1], shape[:-1]) if len(shape) > 1 else np.zeros(n, np.int64)
    # Tile coordinate: each dim's digits except the innermost level.
    tile_keys = np.zeros(n, dtype=np.int64)
    tiles = []
    for d, ts in enumerate(t.tstrides):
        inner = ts.bounds[-1]
        tiles.append(crds[d] // inner)
        tile_keys = tile_keys * (shape[d] // inner) + crds[d] // inner
    columns = ["index", "coordinate", "tile coordinate", "address"]
    details = [[str(k), _fmt(c[k] for c in crds), _fmt(tc[k] for tc in tiles), str(int(addr[k]))] for k in range(n)]
    _, same = np.unique(addr, return_inverse=True)
    groups = {"tile": tile_keys, "address": same}
    return _finish("tsl", f"TSL {t}", str(t), None, rows, cols, idx, [str(int(a)) for a in addr],
                   _colors(tile_keys), np.zeros(n, bool), columns, details, groups,
                   f"tiled-strided layout over {'x'.join(map(str, shape))}, offset {t.offset}")


# ---------------------------------------------------------------- tt
def _default_device():
    from .. import tt

    return tt.Device.from_mesh(tt.SystemDesc.wormhole_b0(1), (1, 1))


def _metal_view(ml, device=None):
    grid = ml.grid
    pss = ml.padded_shard_shape
    full = tuple(grid) + tuple(pss)
    n = math.prod(full)
    _check_count(n, f"metal layout with {'x'.join(map(str, grid))} shards of {'x'.join(map(str, pss))}")
    pos = ml.index_map()  # logical row-major k -> flat slot
    owner = np.full(n, -1, dtype=np.int64)
    owner[pos] = np.arange(pos.size, dtype=np.int64)
    pad = owner < 0
    slots = np.unravel_index(np.arange(n, dtype=np.int64), full)
    r = len(grid)
    G = slots[:r]
    Q = slots[r:]
    if r == 1:
        rows = np.zeros(n, np.int64)
        cols = G[0] * pss[0] + Q[0]
        row_group, col_group = 0, pss[0]
    else:
        lead_g = np.ravel_multi_index(G[:-1], grid[:-1])
        lead_q = np.ravel_multi_index(Q[:-1], pss[:-1])
        per = math.prod(pss[:-1])
        rows = lead_g * per + lead_q
        cols = G[-1] * pss[-1] + Q[-1]
        row_group, col_group = per, pss[-1]
    core_key = np.ravel_multi_index(G, grid)
    logical = np.unravel_index(np.where(pad, 0, owner), ml.logical_shape)
    try:
        placement = (device or _default_device()).place(ml)
        cores = placement.cores.reshape(-1, 3)
    except Exception:  # a grid that this device cannot hold: leave chip/core out
        cores = None
    tiled = ml.tile is not None
    columns = ["logical index", "offset (position in shard())", "grid coordinate (core)", "shard coordinate"]
    if tiled:
        columns += ["tile coordinate", "in-tile coordinate"]
    columns += ["chip and core (y, x)", "padding"]
    details, labels = [], []
    shard_shape = ml.shard_shape
    for k in range(n):
        g = tuple(int(c[k]) for c in G)
        q = tuple(int(c[k]) for c in Q)
        if pad[k]:
            li = "padding"
            labels.append("")
        else:
            li = _fmt(c[k] for c in logical)
            labels.append(str(int(owner[k])))
        row = [li, str(k), _fmt(g), _fmt(q)]
        if tiled:
            th, tw = ml.tile
            tq = q[:-2] + (q[-2] // th, q[-1] // tw)
            uq = (q[-2] % th, q[-1] % tw)
            row += [_fmt(tq), _fmt(uq)]
        if cores is not None:
            c = cores[int(core_key[k])]
            row.append(f"chip {int(c[0])}, core ({int(c[1])}, {int(c[2])})")
        else:
            row.append("(grid larger than one 8x8 chip: not placed)")
        if pad[k]:
            why = [f"dim {i}" for i in range(r) if q[i] >= shard_shape[i]]
            row.append("yes (" + ("tile padding" if why else "beyond the tensor") + ")")
        else:
            row.append("no")
        details.append(row)
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
    outlines = []
    for gk in range(math.prod(grid)):
        g = np.unravel_index(gk, grid)
        sel = core_key == gk
        outlines.append((int(rows[sel].min()), int(cols[sel].min()), int(rows[sel].max()) + 1,
                         int(cols[sel].max()) + 1, "core " + _fmt(g)))
    npad = int(pad.sum())
    notes = [f"{npad} padding slot(s) of {n}; oob_val {ml.oob_val}"]
    fills = _colors(core_key)
    summary = (f"metal layout {'x'.join(map(str, ml.logical_shape))} on grid {'x'.join(map(str, grid))}: shard "
               f"{'x'.join(map(str, ml.shard_shape))}, padded shard {'x'.join(map(str, pss))}, {npad} padding slots")
    return _finish("tt", f"metal layout {'x'.join(map(str, ml.logical_shape))} on {'x'.join(map(str, grid))}",
                   ml.tensor_type(), None, rows, cols, owner, labels, fills, pad, columns, details, groups, summary,
                   row_group=row_group, col_group=col_group, outlines=outlines, notes=notes)


def _device_view(dev):
    grid = tuple(dev.grid_shape)
    n = math.prod(grid)
    _check_count(n, f"device worker grid {'x'.join(map(str, grid))}")
    cores = np.asarray(dev.physical_cores()).reshape(n, 3)
    idx = np.arange(n, dtype=np.int64)
    crds = np.unravel_index(idx, grid)
    cols = crds[-1]
    rows = np.ravel_multi_index(crds[:-1], grid[:-1]) if len(grid) > 1 else np.zeros(n, np.int64)
    labels = [f"{int(c[0])}:{int(c[1])},{int(c[2])}" for c in cores]
    columns = ["grid coordinate", "chip", "core (y, x)"]
    details = [[_fmt(c[k] for c in crds), str(int(cores[k, 0])), _fmt(cores[k, 1:])] for k in range(n)]
    groups = {"chip": cores[:, 0], "core row": cores[:, 0] * 1024 + cores[:, 1]}
    return _finish("tt", f"device worker grid {'x'.join(map(str, grid))}", str(dev), None, rows, cols, idx, labels,
                   _colors(cores[:, 0]), np.zeros(n, bool), columns, details, groups,
                   f"device: worker grid {'x'.join(map(str, grid))} over {len(set(cores[:, 0].tolist()))} chip(s)")


def layout_view(value, shape=None):
    """The explorer's view of a layout value (see the module docstring for the keys).

    ``shape`` is the box an affine map is drawn on (default
    ``DEFAULT_AFFINE_EXTENT`` per dim); other families ignore it.

    >>> from unilayout import tt
    >>> v = layout_view(tt.MetalLayout.from_collapse((53, 63), (3, 2)))
    >>> v["count"], v["padding"], v["svg"].count('class="cell padding"')
    (3456, 117, 117)
    >>> layout_view("not a layout")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: the explorer cannot draw a str
    """
    from .. import affine, cute, linear, tsl, tt

    if isinstance(value, (cute.Layout, cute.ComposedLayout)):
        return _cute_view(value)
    if isinstance(value, linear.LinearLayout):
        return _linear_view(value)
    if isinstance(value, affine.AffineMap):
        return _affine_view(value, shape)
    if isinstance(value, tsl.TiledStridedLayout):
        return _tsl_view(value)
    if isinstance(value, tt.MetalLayout):
        return _metal_view(value)
    if isinstance(value, tt.Device):
        return _device_view(value)
    raise LayoutError(f"the explorer cannot draw a {type(value).__name__}")


def text_view(text, shape=None):
    """Parse ``text`` (any family) and return its view; errors are unilayout errors.

    >>> v = text_view("#ttg.linear<{register = [[1, 0]], lane = [[0, 1], [0, 0]], warp = [], block = []}>")
    >>> v["family"], v["count"], v["columns"][:2]
    ('linear', 4, ['tensor coordinate', 'input index'])
    """
    value = parse_any(text)
    family_of(value)
    return layout_view(value, shape)
