"""What the explorer shows: a layout as cells on a grid, each with its details and groups.

``layout_view(value)`` turns any layout value into a JSON-ready dict. Up to
``canvas.SVG_CELLS`` (4096) cells the picture is one ``<svg>`` with per-cell
markup and details (below); above, ``svg`` is empty, ``details``/``groups``
are empty and ``canvas`` carries the same ``viz`` picture as compact typed
arrays (``unilayout.explorer.canvas``; every cell's ``data-index`` and
attributes, so hovering shows the same data), drawn by the page on a
``<canvas id="layout-canvas">`` with zoom, pan and fit. Up to
``MAX_CANVAS_CELLS`` cells are drawn; bigger layouts are cropped to their
top-left block or, for metal layouts, summarised per core (a note says so),
never refused for their size. The keys:

- ``svg``: ``unilayout.viz``'s picture, one ``<svg>`` in which every drawn
  cell is ``<g class="cell" data-index=".." ... data-cell="k">`` (``padding``
  added for padding slots of a metal layout); ``data-index`` is the cell's
  position in the domain order of ``unilayout.index_map`` (-1 for padding),
  ``data-cell`` its row in ``details``;
- ``columns`` / ``details``: one row of strings per drawn cell (logical index,
  offset, coordinates, thread/value or register/lane/warp, core, padding ...);
- ``groups``: for each way of grouping (same offset, same thread, same shard,
  same bank ...) one integer per cell; cells with equal numbers belong together;
- ``keys``: values that tie a cell to cells of another view (CuTe: ``index``
  and ``offset``; linear: ``element``, the tensor element's row-major
  position), used by the side-by-side panels;
- ``cores`` (metal layouts only): one row per core — grid coordinate, chip
  and core, data extent, padding per dim, padding slots;
- ``family`` (as ``unilayout.family_of``: cute, linear, affine, tsl, metal, device), ``title``, ``text`` (the canonical text of the value), ``summary``;
- ``note``: what a big picture leaves out, else ``""`` (the page shows it
  next to the summary): more than ``LABELLED_CELLS`` cells draw metal shards
  without labels; a CuTe layout, TSL or affine box of more than ``MAX_CELLS``
  cells is drawn cropped to its top-left ``CROP_CELLS`` or so (as
  ``unilayout.viz`` crops), and ``count`` / ``details`` cover the drawn cells
  only (``total``: every cell of the layout).

What a cell is, per family:

==========  =============================================================  ======================
family      cells (rows x columns)                                         data-index
==========  =============================================================  ======================
cute        ``print_layout``'s grid: mode 0 down, the other modes across   1-D coordinate
            (a bare ``Sw<B,M,S>``: its block, ``viz.cute.swizzle_layout``)
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

import numpy as np

from .. import facts
from .._families import family_of
from ..errors import LayoutError
from ..tt.padding import padding_summary
from ..viz.svg import to_svg
from .adapter import parse_any, picture

__all__ = ["layout_view", "text_view", "tiled_view", "MAX_CELLS", "LABELLED_CELLS", "CROP_CELLS", "MAX_DOMAIN",
           "DEFAULT_AFFINE_EXTENT"]

#: Most cells one picture draws in full. Larger CuTe layouts, TSLs and affine boxes are drawn cropped
#: (``CROP_CELLS``); larger linear, metal and device layouts get a LayoutError (before anything is evaluated).
#: Measured in headless Chromium (tests/explorer): 65,536 cells show in about 4 s (answer about 26 MB),
#: 131,072 in about 9 s, so 2**16 keeps every picture within a few seconds.
MAX_CELLS = 1 << 16
#: Pictures with more cells than this draw metal shards without labels (the details still give every index).
LABELLED_CELLS = 1 << 14
#: About how many cells the cropped picture of a layout with more than ``MAX_CELLS`` cells draws (its top-left block).
CROP_CELLS = 1 << 14
#: Most cells a layout that is drawn cropped may have (domain positions stay exact int64); more is a LayoutError.
MAX_DOMAIN = 1 << 48
#: Most cells the canvas picture draws; bigger layouts are cropped (CuTe, linear, TSL, affine) or summarised per
#: core (metal), as ``unilayout.viz`` does with ``max_cells``.
MAX_CANVAS_CELLS = 1 << 21
#: Extent of each dim of an affine map's box when no ``shape`` is given.
DEFAULT_AFFINE_EXTENT = 4


def _fmt(t) -> str:
    t = tuple(int(v) for v in t)
    return "(" + ", ".join(str(v) for v in t) + ")"


def _strs(a) -> list:
    """``str`` of each integer of ``a`` (a 1-D array or sequence), as a list."""
    return list(map(str, np.asarray(a, dtype=np.int64).reshape(-1).tolist()))


def _fmts(columns, n: int) -> list:
    """``_fmt`` of every row of the integer ``columns`` (one array of ``n`` values per tuple entry), vectorised.

    >>> _fmts([np.array([0, 1]), np.array([5, 6])], 2), _fmts([np.array([3])], 1), _fmts([], 2)
    (['(0, 5)', '(1, 6)'], ['(3)'], ['()', '()'])
    """
    if not len(columns):
        return ["()"] * n
    ints = [np.asarray(c, dtype=np.int64).reshape(-1).tolist() for c in columns]
    if len(ints) == 1:
        return ["(%d)" % v for v in ints[0]]
    template = "(" + ", ".join(["%d"] * len(ints)) + ")"  # one C-level format per row
    return [template % t for t in zip(*ints)]


def _crd_template(shape):
    """``(template, leaf sizes)``: the %-template that prints a coordinate of ``shape`` as ``str(crd)`` without
    spaces (``(1,(0,2))``, ``(3,)``, ``5``), and the sizes of its leaves, first to last."""
    if not isinstance(shape, tuple):
        return "%d", [int(shape)]
    parts, leaves = [], []
    for mode in shape:
        t, sizes = _crd_template(mode)
        parts.append(t)
        leaves += sizes
    return "(" + ",".join(parts) + ("," if len(parts) == 1 else "") + ")", leaves


def _crd_strs(idx, shape) -> list:
    """``str(cute.idx2crd(i, shape)).replace(" ", "")`` for each index ``0 <= i < size(shape)`` of ``idx``, vectorised
    (colexicographic: each leaf is ``(i // product of the leaves before it) % its size``).

    >>> from unilayout import cute
    >>> shape = ((2, 3), 4, (5,))
    >>> idx = np.arange(120)
    >>> _crd_strs(idx, shape) == [str(cute.idx2crd(int(i), shape)).replace(" ", "") for i in idx]
    True
    >>> _crd_strs(np.arange(2), ()), _crd_strs(np.arange(2), 2)
    (['()', '()'], ['0', '1'])
    """
    template, sizes = _crd_template(shape)
    idx = np.asarray(idx, dtype=np.int64).reshape(-1)
    if not sizes:
        return [template] * idx.size
    leaves, prefix = [], 1
    for k, size in enumerate(sizes):
        leaf = idx // prefix
        leaves.append((leaf if k == len(sizes) - 1 else leaf % max(size, 1)).tolist())
        prefix *= max(size, 1)
    if len(leaves) == 1:
        return [template % v for v in leaves[0]]
    return [template % t for t in zip(*leaves)]


def _take(names, keys) -> list:
    """``names[k]`` for each integer ``k`` of ``keys``: per-cell strings from strings formatted once per distinct value."""
    return [names[k] for k in np.asarray(keys, dtype=np.int64).reshape(-1).tolist()]


def _ints(values) -> list:
    """The integers of ``values`` (an array or sequence) as a list of Python ints (``int`` of each), vectorised.

    >>> _ints(np.array([3, 1])), _ints([2.0, True])
    ([3, 1], [2, 1])
    """
    a = np.asarray(values)
    if a.dtype.kind in "iub":
        return a.astype(np.int64, copy=False).reshape(-1).tolist()
    return [int(v) for v in values]


def _rows(*columns) -> list:
    """Details rows (lists of str) from columns of str, one list per column."""
    return list(map(list, zip(*columns)))


def _check_count(n: int, what: str) -> None:
    if n > MAX_CELLS:
        raise LayoutError(
            f"{what} has {n} cells; the explorer draws at most {MAX_CELLS}: choose a smaller shape or grid"
        )


def _crop(rows: int, cols: int, what: str = "the layout"):
    """``(r, c, note)``: the top-left block of a ``rows x cols`` grid that the explorer draws.

    The whole grid up to ``MAX_CELLS`` cells (note ``""``), else the block
    ``unilayout.viz`` draws with ``max_cells=CROP_CELLS`` and its note.

    >>> _crop(4, 8)
    (4, 8, '')
    >>> _crop(1024, 1024)[:2]
    (128, 128)
    >>> _crop(1 << 30, 1 << 30, "CuTe layout X")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: CuTe layout X has 1152921504606846976 cells; the explorer draws at most 281474976710656 (cropped to its top-left corner above 65536): choose a smaller shape
    """
    if rows * cols <= MAX_CELLS:
        return rows, cols, ""
    if rows * cols > MAX_DOMAIN:
        raise LayoutError(f"{what} has {rows * cols} cells; the explorer draws at most {MAX_DOMAIN} (cropped to "
                          f"its top-left corner above {MAX_CELLS}): choose a smaller shape")
    from ..viz.cute import _crop as viz_crop

    r, c, note = viz_crop(rows, cols, CROP_CELLS)
    return r, c, "cropped: " + note


def _cell_numbers(scene, index, by_slot):
    """``data-cell`` of every cell of ``scene`` (its row in ``details``; -1 where nothing is drawn).

    A cell's row is found from the scene's own data: its ``index`` (the
    domain position the explorer listed in ``index``) or, for metal shards,
    its ``slot``. Every row must be drawn exactly once.
    """
    drawn = scene.drawn
    if by_slot:
        rows = scene.attrs["slot"][drawn]
    else:
        index = np.asarray(index, dtype=np.int64)
        order = np.argsort(index, kind="stable")
        known = index[order]
        at = scene.index[drawn]
        pos = np.minimum(np.searchsorted(known, at), max(known.size - 1, 0))
        if known.size == 0 or not (known[pos] == at).all():
            if at.size:
                bad = at[known[pos] != at][0] if known.size else at[0]
                raise LayoutError(f"the picture has a cell with data-index {int(bad)} that the explorer does not know")
        rows = order[pos] if known.size else pos
    if not np.array_equal(np.sort(rows), np.arange(len(index))):
        raise LayoutError(f"the picture draws {rows.size} cells but the explorer describes {len(index)}")
    cell = np.full(drawn.shape, -1, dtype=np.int64)
    cell[drawn] = rows
    return cell


def _finish(value, shape, family, title, text, index, padding, columns, details, groups, summary, by_slot=False,
            keys=None, crop_note="", total=None):
    n = len(index)
    labels = n <= LABELLED_CELLS
    scene = picture(value, shape, max_cells=CROP_CELLS if crop_note else MAX_CELLS, labels=labels)
    scene.attrs["cell"] = _cell_numbers(scene, index, by_slot)
    d = facts.describe(value, shape)
    note = crop_note
    if crop_note:
        note += "; hover or click a drawn cell for its details"
    elif n > LABELLED_CELLS:
        note = (f"large picture: all {n:,} cells are drawn" + ("" if family != "metal" else " without labels") +
                "; hover or click a cell for its details")
    return {
        "note": note,
        "total": n if total is None else int(total),
        "keys": {name: _ints(vals) for name, vals in (keys or {}).items()},
        "family": family,
        "title": title,
        "text": text,
        "count": n,
        "summary": f"{summary}; {facts.summary(d)}",
        "facts": [[k, v] for k, v in facts.fact_lines(d)],
        "columns": columns,
        "details": details,
        "groups": {name: _ints(vals) for name, vals in groups.items()},
        "padding": int(np.count_nonzero(padding)),
        "svg": to_svg(scene),
    }


# ---------------------------------------------------------------- CuTe
def _cute_view(value):
    from .. import cute
    from ..viz.cute import swizzle_layout

    L = swizzle_layout(value) if isinstance(value, cute.Swizzle) else value  # a bare swizzle: drawn as its block
    composed = isinstance(L, cute.ComposedLayout)
    shape_layout = L.inner if composed else L
    size = cute.size(shape_layout)
    if shape_layout.rank <= 1:
        nrows = 1
    else:
        nrows = cute.size(shape_layout[0])
    r, c, crop_note = _crop(nrows, size // nrows, f"CuTe layout {L}")
    idx = (np.arange(r, dtype=np.int64)[:, None] + nrows * np.arange(c, dtype=np.int64)[None, :]).reshape(-1)
    idx.sort()
    n = idx.size
    if composed:
        inner = cute.evaluate(L.inner, idx) + L.offset
        outer = L.outer
        offs = outer(inner) if isinstance(outer, cute.Swizzle) else cute.evaluate(outer, inner)  # both vectorised
    else:
        offs = cute.evaluate(L, idx)
    rows, cols = idx % nrows, idx // nrows
    shape = shape_layout.shape
    bank = offs % 32
    columns = ["index", "coordinate", "(row, col) = (thread, value) of a TV layout", "offset",
               "bank (4-byte words, 32 banks)"]
    if composed:
        columns.append("offset before the swizzle")
    cols_ = [_strs(idx), _crd_strs(idx, shape), _fmts((rows, cols), n), _strs(offs), _strs(bank)]
    if composed:
        cols_.append(_strs(inner))
    details = _rows(*cols_)
    _, off_group = np.unique(offs, return_inverse=True)
    groups = {"offset": off_group, "row": rows, "column": cols, "bank": bank}
    return _finish(value, None, "cute", f"CuTe {L}", str(L), idx, np.zeros(n, bool), columns, details, groups,
                   f"CuTe layout {L}", keys={"index": idx, "offset": offs}, crop_note=crop_note, total=size)


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
    idx = first[cells]

    def hw(i):
        return {name: int(digits[name][i]) for name in in_names}

    def thread(i):
        t = int(digits["lane"][i])
        if "warp" in digits:
            t += int(digits["warp"][i]) * lanes
        return t

    details = []
    columns = ["tensor coordinate", "input index", *in_names]
    if distributed:
        columns += ["thread", "holders"]
    for k, f in enumerate(cells.tolist()):
        i = int(first[f])
        h = hw(i)
        crd = _fmt(int(c[k]) for c in ocrd) if out_names else "()"
        row = [crd, str(i), *[str(h[d]) for d in in_names]]
        if distributed:
            t = thread(i)
            hs = ["T%d:%d" % (thread(j), int(digits["register"][j]) if "register" in digits else 0)
                  for j in holders[f]]
            row += [str(t), " ".join(hs[:16]) + (" ..." if len(hs) > 16 else "")]
        details.append(row)
    groups = {}
    if distributed:
        tids = np.array([thread(int(i)) for i in idx], dtype=np.int64) if idx.size else np.zeros(0, np.int64)
        groups["thread"] = tids
    for name in in_names:
        groups[name] = digits[name][idx]
    title = "linear layout " + " x ".join(f"{d}:{s}" for d, s in zip(out_names, out_sizes))
    summary = (f"linear layout: {', '.join(f'{d} {s}' for d, s in zip(in_names, in_sizes))} -> "
               f"{' x '.join(str(s) for s in out_sizes)}")
    try:
        text = linear.to_attr(L)
    except LayoutError:  # shared layouts (offset, block) have no #ttg.linear text
        text = None
    return _finish(L, None, "linear", title, text, idx, np.zeros(len(idx), bool), columns, details, groups, summary,
                   keys={"element": cells})


# ---------------------------------------------------------------- affine
def _box_cells(shape, what):
    """``(idx, note)``: row-major positions of the drawn cells of the box ``shape`` (rows x last dim)."""
    box = tuple(shape) or (1,)
    cols = box[-1]
    rows = math.prod(box[:-1]) if len(box) > 1 else 1
    r, c, note = _crop(rows, cols, what)
    idx = (np.arange(r, dtype=np.int64)[:, None] * cols + np.arange(c, dtype=np.int64)[None, :]).reshape(-1)
    return idx, note


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
    total = math.prod(shape)
    idx, crop_note = _box_cells(shape, f"the box {'x'.join(map(str, shape))}")
    n = idx.size
    if crop_note:
        crds = np.unravel_index(idx, shape)
        vals = np.stack(np.broadcast_arrays(*m.evaluate(*crds)), axis=-1).astype(np.int64).reshape(n, m.num_results)
    else:
        vals = m.index_map(shape).reshape(n, m.num_results)
        crds = np.unravel_index(idx, shape) if shape else ()
    columns = ["index", "(" + ", ".join(f"d{i}" for i in range(len(shape))) + ")", "results"]
    details = _rows(_strs(idx), _fmts(crds if shape else [], n), _fmts([vals[:, j] for j in range(m.num_results)], n))
    _, same = np.unique(vals, axis=0, return_inverse=True) if n else (None, np.zeros(0, np.int64))
    groups = {"value": np.asarray(same).reshape(-1)}
    for j in range(m.num_results):
        groups[f"result {j}"] = vals[:, j]
    return _finish(m, shape, "affine", f"affine map {m} on {'x'.join(map(str, shape)) or 'a point'}", str(m),
                   idx, np.zeros(n, bool), columns, details, groups,
                   f"affine map with {m.num_dims} dims and {m.num_results} results, drawn on the box "
                   f"{'x'.join(map(str, shape)) or '()'}", crop_note=crop_note, total=total)


# ---------------------------------------------------------------- TSL
def _tsl_view(t):
    if t.is_dynamic:
        raise LayoutError(f"{t} has '?' bounds or steps: the explorer draws static layouts only")
    shape = tuple(math.prod(ts.bounds) for ts in t.tstrides)
    total = math.prod(shape)
    idx, crop_note = _box_cells(shape, f"TSL {t}")
    n = idx.size
    crds = np.unravel_index(idx, shape)
    if crop_note:
        addr = np.asarray(t.to_affine().evaluate(*crds)[0], dtype=np.int64).reshape(n)
    else:
        addr = t.index_map()
    # Tile coordinate: each dim's digits except the innermost level.
    tile_keys = np.zeros(n, dtype=np.int64)
    tiles = []
    for d, ts in enumerate(t.tstrides):
        inner = ts.bounds[-1]
        tiles.append(crds[d] // inner)
        tile_keys = tile_keys * (shape[d] // inner) + crds[d] // inner
    columns = ["index", "coordinate", "tile coordinate", "address"]
    details = _rows(_strs(idx), _fmts(crds, n), _fmts(tiles, n), _strs(addr))
    _, same = np.unique(addr, return_inverse=True)
    groups = {"tile": tile_keys, "address": same}
    return _finish(t, None, "tsl", f"TSL {t}", str(t), idx, np.zeros(n, bool), columns, details, groups,
                   f"tiled-strided layout over {'x'.join(map(str, shape))}, offset {t.offset}", crop_note=crop_note,
                   total=total)


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
    core_key = np.ravel_multi_index(G, grid)
    logical = np.unravel_index(np.where(pad, 0, owner), ml.logical_shape)
    try:
        placement = (device or _default_device()).place(ml)
        cores = placement.cores.reshape(-1, 3)
    except LayoutError:  # a grid that this device cannot hold: leave chip/core out
        cores = None
    tiled = ml.tile is not None
    columns = ["logical index", "offset (position in shard())", "grid coordinate (core)", "shard coordinate"]
    if tiled:
        columns += ["tile coordinate", "in-tile coordinate"]
    columns += ["chip and core (y, x)", "padding"]
    shard_shape = ml.shard_shape
    # Strings that repeat from core to core (grid and shard coordinates) are formatted once per core / per slot.
    ncores, per_shard = math.prod(grid), math.prod(pss)
    in_shard = np.arange(n, dtype=np.int64) % per_shard  # the slot's position in its core's shard (row-major)
    S = np.unravel_index(np.arange(per_shard, dtype=np.int64), pss)
    cols = [_fmts(logical, n), _strs(np.arange(n)),
            _take(_fmts(np.unravel_index(np.arange(ncores, dtype=np.int64), grid), ncores), core_key),
            _take(_fmts(S, per_shard), in_shard)]
    for k in np.nonzero(pad)[0].tolist():
        cols[0][k] = "padding"
    if tiled:
        th, tw = ml.tile
        cols += [_take(_fmts(S[:-2] + (S[-2] // th, S[-1] // tw), per_shard), in_shard),
                 _take(_fmts((S[-2] % th, S[-1] % tw), per_shard), in_shard)]
    if cores is not None:
        names = [f"chip {int(c[0])}, core ({int(c[1])}, {int(c[2])})" for c in cores.tolist()]
        cols.append(_take(names, core_key))
    else:
        cols.append(["(grid larger than one 8x8 chip: not placed)"] * n)
    beyond_shard = np.zeros(n, dtype=bool)  # a slot past the shard in some dim: tile padding
    for i in range(r):
        beyond_shard |= Q[i] >= shard_shape[i]
    words = np.array(["no", "yes (beyond the tensor)", "yes (tile padding)"], dtype=object)
    cols.append(words[np.where(pad, 1 + beyond_shard, 0)].tolist())
    details = _rows(*cols)
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
    summary = (f"metal layout {'x'.join(map(str, ml.logical_shape))} on grid {'x'.join(map(str, grid))}: shard "
               f"{'x'.join(map(str, ml.shard_shape))}, padded shard {'x'.join(map(str, pss))} (oob_val {ml.oob_val})")
    view = _finish(ml, None, "metal", f"metal layout {'x'.join(map(str, ml.logical_shape))} on "
                   f"{'x'.join(map(str, grid))}", ml.tensor_type(), owner, pad, columns, details, groups, summary,
                   by_slot=True)
    view["cores"] = _cores_table(ml, cores)
    return view


def _device_view(dev):
    grid = tuple(dev.grid_shape)
    n = math.prod(grid)
    _check_count(n, f"device worker grid {'x'.join(map(str, grid))}")
    cores = np.asarray(dev.physical_cores()).reshape(n, 3)
    idx = np.arange(n, dtype=np.int64)
    crds = np.unravel_index(idx, grid)
    columns = ["grid coordinate", "chip", "core (y, x)"]
    details = _rows(_fmts(crds, n), _strs(cores[:, 0]), _fmts((cores[:, 1], cores[:, 2]), n))
    groups = {"chip": cores[:, 0], "core row": cores[:, 0] * 1024 + cores[:, 1]}
    return _finish(dev, None, "device", f"device worker grid {'x'.join(map(str, grid))}", str(dev), idx,
                   np.zeros(n, bool), columns, details, groups,
                   f"device: worker grid {'x'.join(map(str, grid))} over {len(set(cores[:, 0].tolist()))} chip(s)")


def _cell_count(value, shape):
    """Cells of ``value``'s whole picture (before any crop), without evaluating it."""
    fam = family_of(value)
    if fam == "cute":
        from .. import cute

        if isinstance(value, cute.Swizzle):
            return value.size
        return cute.size(value.inner if isinstance(value, cute.ComposedLayout) else value)
    if fam == "linear":
        return math.prod(value.out_dim_size(d) for d in value.out_dim_names)
    if fam == "affine":
        box = shape if shape is not None else (DEFAULT_AFFINE_EXTENT,) * value.num_dims
        return math.prod(int(s) for s in box)
    if fam == "tsl":
        return 0 if value.is_dynamic else math.prod(math.prod(ts.bounds) for ts in value.tstrides)
    if fam == "metal":
        return math.prod(tuple(value.grid) + tuple(value.padded_shard_shape))
    return math.prod(value.grid_shape)


def _cores_table(ml, cores):
    """Per core, as TTNN's visualiser lists them: data extent, padding per dim, padding slots."""
    ps = padding_summary(ml)
    grid = tuple(ml.grid)
    rows = []
    for gk in range(math.prod(grid)):
        g = tuple(int(v) for v in np.unravel_index(gk, grid))
        where = "" if cores is None else f"chip {int(cores[gk][0])}, core ({int(cores[gk][1])}, {int(cores[gk][2])})"
        rows.append([_fmt(g), where, "x".join(str(int(v)) for v in ps.extent[g]),
                     "x".join(str(int(v)) for v in ps.padding[g]), str(int(ps.slots[g]))])
    return {"columns": ["core", "chip and core", "data extent", "padding per dim", "padding slots"], "rows": rows}


def _canvas_view(value, shape, total):
    """The view of a layout of more than ``SVG_CELLS`` cells: its picture as a canvas payload, details per cell
    from the payload's arrays (``canvas.payload``), no per-cell markup."""
    from .canvas import MAX_LABELS, payload

    family = family_of(value)
    if family == "tsl" and value.is_dynamic:
        raise LayoutError(f"{value} has '?' bounds or steps: give a shape to resolve it (unilayout show --shape)")
    if family == "affine":
        shape = tuple(shape) if shape is not None else (DEFAULT_AFFINE_EXTENT,) * value.num_dims
        if value.num_symbols:
            raise LayoutError(f"affine map {value} has {value.num_symbols} symbol(s): the explorer draws maps "
                              "without symbols")
    if family == "linear" and total > MAX_CANVAS_CELLS and "lane" in value.in_dim_names:
        from ..viz.linear import MAX_INPUTS, warp_summary_scene

        if int(value.total_in_dim_size) <= MAX_INPUTS:  # a distributed layout too big to draw: per warp
            scene = warp_summary_scene(value)
        else:
            scene = picture(value, shape, max_cells=MAX_CANVAS_CELLS, labels=False)
    else:
        scene = picture(value, shape, max_cells=MAX_CANVAS_CELLS, labels=total <= MAX_LABELS)
    d = facts.describe(value, shape)
    drawn = scene.count_cells()
    what = scene.cell_class if scene.cell_class in ("core", "warp") else "cell"
    summary_scene = scene.cell_class != "cell"
    note = (f"large picture: {drawn:,} {what}s drawn on a canvas (wheel or buttons: zoom, drag: pan, Fit: whole "
            f"picture); hover or click a {what} for its details")
    crop = [n for n in scene.notes if n.startswith(("showing", "summary"))][:1]
    if crop:
        note += "; " + crop[0]
    view = {
        "note": note, "total": int(total), "keys": {}, "family": family, "title": scene.title,
        "text": facts.canonical_text(value), "count": drawn,
        "summary": f"{family} layout, {int(total):,} cells" + (f" (summarised per {what})" if summary_scene else "") +
                   f"; {facts.summary(d)}",
        "facts": [[k, v] for k, v in facts.fact_lines(d)], "columns": [], "details": [], "groups": {},
        "padding": int(np.count_nonzero(scene.padding)), "svg": "", "canvas": payload(scene),
    }
    if family == "metal":
        try:
            cores = (_default_device()).place(value).cores.reshape(-1, 3)
        except LayoutError:
            cores = None
        view["cores"] = _cores_table(value, cores)
    return view


def layout_view(value, shape=None):
    """The explorer's view of a layout value (see the module docstring for the keys).

    ``shape`` is the box an affine map is drawn on (default
    ``DEFAULT_AFFINE_EXTENT`` per dim) and the tensor shape that resolves a
    dynamic TSL's ``?`` values; other families ignore it. Above
    ``canvas.SVG_CELLS`` cells the view carries a ``canvas`` payload instead
    of ``svg`` and per-cell ``details`` (the page draws it on a ``<canvas>``).

    >>> from unilayout import tt
    >>> v = layout_view(tt.MetalLayout.from_collapse((53, 63), (3, 2)))
    >>> v["count"], v["padding"], v["svg"].count('class="cell padding"')
    (3456, 117, 117)
    >>> layout_view("not a layout")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: the explorer draws layout values; read text with text_view, got 'not a layout'
    """
    from .canvas import SVG_CELLS

    if isinstance(value, str):
        raise LayoutError(f"the explorer draws layout values; read text with text_view, got {value[:40]!r}")
    if family_of(value) == "xla":  # drawn as its buffer offsets, as the sharding command draws XLA texts
        from ..sharding import command as sharding_command

        return sharding_command.view(str(value))
    if family_of(value) == "tsl" and value.is_dynamic and shape is not None:  # the shape resolves its '?' values
        value = value.resolve(tuple(int(s) for s in shape))
    total = _cell_count(value, shape)
    if total > SVG_CELLS:
        return _canvas_view(value, shape, total)
    return _VIEWS[family_of(value)](value, shape)


_VIEWS = {
    "cute": lambda value, shape: _cute_view(value),
    "linear": lambda value, shape: _linear_view(value),
    "affine": _affine_view,
    "tsl": lambda value, shape: _tsl_view(value),
    "metal": lambda value, shape: _metal_view(value),
    "device": lambda value, shape: _device_view(value),
}


def text_view(text, shape=None):
    """Parse ``text`` (any family) and return its view; errors are unilayout errors.

    >>> v = text_view("#ttg.linear<{register = [[1, 0]], lane = [[0, 1], [0, 0]], warp = [], block = []}>")
    >>> v["family"], v["count"], v["columns"][:2]
    ('linear', 4, ['tensor coordinate', 'input index'])
    """
    from ..sharding import command as sharding_command

    if sharding_command.is_sharding_text(text):  # HLO / Shardy (``shape``: the tensor's) and XLA layouts
        return sharding_command.view(text, shape)
    return layout_view(parse_any(text), shape)


# ---------------------------------------------------------------- TiledMMA / TiledCopy
def _holders(tv, rows):
    """For each element ``m + rows*n`` of a TV layout's tile: its (thread, value) holders, thread-major."""
    from ..cute import index_map

    nt, nv = tv[0].size, tv[1].size
    pos = index_map(tv).reshape(nv, nt).T.reshape(-1)  # thread-major, as viz.cute_mma labels cells
    order = np.argsort(pos, kind="stable")
    out = {}
    for j in order.tolist():
        out.setdefault(int(pos[j]), []).append((j // nv, j % nv))
    return out


def tiled_view(tiled):
    """The explorer's view of a ``cute.TiledMMA`` (C, A left, B above) or ``cute.TiledCopy`` (source | destination).

    The picture is ``viz.cute_mma``'s; every cell's details are its operand,
    its coordinate in that operand, its first (thread, value) and every
    (thread, value) that holds it. The first grouping is ``thread``, so
    hovering a cell lights every cell of the same ``data-thread``: that
    thread's A, B and C cells together (source and destination for a copy).
    ``thread_cells[t]`` lists every cell thread t holds, also where another
    thread is the cell's first owner (an A element shared by the warps along
    N); the page lights those when grouping by thread.

    >>> from unilayout import cute
    >>> v = tiled_view(cute.make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN"))
    >>> v["family"], v["count"], list(v["groups"])[0], v["columns"][:3]
    ('cute.TiledMMA', 320, 'thread', ['operand', 'coordinate', 'thread'])
    """
    from .. import cute
    from ..viz.cute_mma import tiled_copy_scene, tiled_mma_scene

    if isinstance(tiled, cute.TiledMMA):
        sc = tiled_mma_scene(tiled, max_cells=MAX_CELLS)
        m, n, k = tiled.tile_size_mnk()
        ops = [("A", "(m, k)", tiled.get_layoutA_TV(), m, False), ("B", "(n, k)", tiled.get_layoutB_TV(), n, True),
               ("C", "(m, n)", tiled.get_layoutC_TV(), m, False)]
        family, text = "cute.TiledMMA", str(tiled)
        summary = f"TiledMMA {tiled.atom.name}: {tiled.size} threads, tile {m}x{n}x{k}"
    elif isinstance(tiled, cute.TiledCopy):
        sc = tiled_copy_scene(tiled, max_cells=MAX_CELLS)
        m = tiled.tiler_mn[0]
        ops = [("source", "(m, n)", tiled.get_layoutS_TV(), m, False),
               ("destination", "(m, n)", tiled.get_layoutD_TV(), m, False)]
        family, text = "cute.TiledCopy", str(tiled)
        summary = f"TiledCopy {tiled.atom.name} ({tiled.atom.element_bits}-bit): {tiled.size} threads, tile " + \
            "x".join(map(str, tiled.tiler_mn))
    else:
        raise LayoutError(f"tiled_view: expected a cute.TiledMMA or cute.TiledCopy, got {type(tiled).__name__}")
    drawn = sc.drawn
    cells = np.argwhere(drawn)  # row-major, the order of details
    cell = np.full(drawn.shape, -1, dtype=np.int64)
    cell[drawn] = np.arange(len(cells))
    sc.attrs["cell"] = cell
    a = sc.attrs
    holders = [_holders(tv, rows) for _, _, tv, rows, _ in ops]
    details, thread_cells = [], [[] for _ in range(tiled.size)]
    for r, c in cells.tolist():
        o = int(a["operand"][r, c])
        name, axes, _, rows, transposed = ops[o]
        i, j = int(a["row"][r, c]), int(a["col"][r, c])
        crd = (j, i) if transposed else (i, j)  # B is drawn k x n
        who = holders[o].get(crd[0] + rows * crd[1], [])
        for t in sorted({t for t, _ in who}):
            thread_cells[t].append(len(details))
        more = f" (+{len(who) - 8} more)" if len(who) > 8 else ""
        details.append([name, f"{axes} = ({crd[0]}, {crd[1]})", str(int(a["thread"][r, c])), str(int(a["value"][r, c])),
                        ", ".join(f"T{t}V{v}" for t, v in who[:8]) + more])
    columns = ["operand", "coordinate", "thread", "value", "held by (thread, value)"]
    groups = {"thread": a["thread"][drawn], "operand": a["operand"][drawn], "value": a["value"][drawn]}
    facts = [["atom", tiled.atom.name], ["threads", str(tiled.size)]]
    facts += [[f"layout{o[0][0].upper()}_TV", str(o[2])] for o in ops]  # A/B/C, S(ource)/D(estination)
    n_cells = len(cells)
    return {"note": "", "total": n_cells, "keys": {}, "family": family, "title": sc.title, "text": text,
            "count": n_cells, "summary": summary, "facts": facts, "columns": columns, "details": details,
            "groups": {g: [int(x) for x in vals] for g, vals in groups.items()}, "padding": 0, "svg": to_svg(sc),
            "thread_cells": thread_cells}
