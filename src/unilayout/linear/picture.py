"""Pictures and text views of Triton linear layouts: which register, lane, warp (and block) holds each element.

``linear_scene(L)`` draws the tensor (out-dims folded to rows x last dim, dim0
outermost, as Triton prints tensors); each cell is labelled like Triton's
tensor view, ``T<thread>:<register>`` with ``thread = lane + warp * lanes``
(``B<block>:`` in front when there are several blocks), and has
``data-index`` = the flat hardware input of its first holder (the domain
order of ``index_map``: first in-dim least significant). Layouts without
lanes (shared memory, other in-dims) are labelled with their input index.

``tensor_view(L)`` and ``hardware_view(L)`` are Triton's
``get_distributed_view(False/True)`` text, byte for byte, and
``shared_tensor_view(L)`` / ``shared_hardware_view(L)`` its
``get_shared_view(False/True)`` for shared-memory layouts (``offset``, ``block``).

>>> from unilayout import linear
>>> L = linear.parse("#ttg.linear<{register = [[1, 0]], lane = [[0, 1], [0, 0]], warp = [], block = []}>")
>>> print(tensor_view(L), end="")
[[T0:0|T2:0, T1:0|T3:0]
[ T0:1|T2:1, T1:1|T3:1]]
>>> print(hardware_view(L), end="")
Warp0:
(0,0), (0,1), (0,0), (0,1)
(1,0), (1,1), (1,0), (1,1)
>>> s = linear_scene(L)
>>> s.labels.tolist(), s.index.tolist()
([['T0:0', 'T1:0'], ['T0:1', 'T1:1']], [[0, 2], [1, 3]])

What a cell is in the explorer (``linear_cells``, the record's ``cells``
hook): one element of the tensor (out-dims; last dim across), ``data-index``
its first holder's input, its details the tensor coordinate, the input's
digits (register, lane, warp, block) and, for distributed layouts, the
thread and every holder; ``keys["element"]`` is the element's row-major
position, which ties it to the same element in another encoding's view.

>>> c = linear_cells(L)
>>> c.columns["tensor coordinate"], c.columns["holders"]
(['(0, 0)', '(0, 1)', '(1, 0)', '(1, 1)'], ['T0:0 T2:0', 'T1:0 T3:0', 'T0:1 T2:1', 'T1:1 T3:1'])
"""

from __future__ import annotations

import numpy as np

from .._family import Cells
from ..draw.cells import MAX_CANVAS_CELLS, check_count, fmt
from ..draw.colors import distinct, gradient
from ..draw.grid import crop as _crop
from ..draw.scene import (
    CHAR_W,
    DEFAULT_MAX_CELLS,
    band_width,
    grid_scene,
    label_bands,
    label_panels,
    panel_gap,
    panel_height,
    wrap_bands,
    wrap_panels,
)
from ..errors import LayoutError
from .layout import LinearLayout

__all__ = ["linear_scene", "warp_summary_scene", "tensor_view", "hardware_view", "shared_tensor_view", "shared_hardware_view", "owners",
           "linear_cells", "COLOR_MODES"]

COLOR_MODES = ("thread", "warp", "register", "block", "index")
#: Largest number of hardware inputs a picture tabulates (every holder of every element is found).
MAX_INPUTS = 1 << 24
_HW = ("register", "lane", "warp", "block")


def _check(layout):

    if not isinstance(layout, LinearLayout):
        raise LayoutError(f"expected a linear.LinearLayout, got {type(layout).__name__}")


def _size(layout, name):
    return layout.in_dim_size(name) if name in layout.in_dim_names else 1


def _in_digits(layout, flat):
    """``{in_dim: values}`` of flat inputs (first in-dim least significant)."""
    out, rest = {}, np.asarray(flat, dtype=np.int64)
    for name in layout.in_dim_names:
        s = layout.in_dim_size(name)
        out[name] = rest % s
        rest = rest // s
    return out


def owners(layout):
    """``(positions, first, count)``: each input's element (row-major over out-dims), each element's first holder and count.

    ``first`` is -1 for elements no input reaches.

    >>> from unilayout import linear
    >>> pos, first, count = owners(linear.zeros_1d(2, "lane", "dim0", 2))
    >>> pos.tolist(), first.tolist(), count.tolist()
    ([0, 0], [0, -1], [2, 0])
    """
    _check(layout)
    vals = layout.index_map()
    sizes = [layout.out_dim_size(o) for o in layout.out_dim_names]
    pos = np.zeros(vals.shape[0], dtype=np.int64)
    for d, s in enumerate(sizes):
        pos = pos * s + vals[:, d]
    total = int(np.prod(sizes, dtype=np.int64)) if sizes else 1
    first = np.full(total, -1, dtype=np.int64)
    n = np.arange(vals.shape[0], dtype=np.int64)
    first[pos[::-1]] = n[::-1]
    return pos, first, np.bincount(pos, minlength=total)


def _is_distributed(layout):
    return "lane" in layout.in_dim_names and set(layout.in_dim_names) <= set(_HW)


def _hw_label(layout, flat):
    d = _in_digits(layout, flat)
    z = np.zeros_like(np.asarray(flat, dtype=np.int64))
    reg, lane, warp, block = (d.get(k, z) for k in _HW)
    thread = lane + warp * _size(layout, "lane")
    s = np.char.add(np.char.add(np.char.add("T", thread.astype(str)), ":"), reg.astype(str))
    if _size(layout, "block") > 1:
        s = np.char.add(np.char.add(np.char.add("B", block.astype(str)), ":"), s)
    return s


def tensor_view(layout) -> str:
    """Triton's tensor view (``get_distributed_view(False)``): every element with all the threads holding it.

    Needs in-dims among register/lane/warp/block (a missing one has size 1).

    >>> from unilayout import linear
    >>> print(tensor_view(linear.identity_1d(2, "register", "dim0") * linear.identity_1d(2, "lane", "dim0")), end="")
    [T0:0, T0:1, T1:0, T1:1]
    """
    _check(layout)
    if not set(layout.in_dim_names) <= set(_HW):
        raise LayoutError(f"tensor view: in-dims {layout.in_dim_names} are not register/lane/warp/block")
    pos, first, count = owners(layout)
    labels = _hw_label(layout, np.arange(pos.size, dtype=np.int64))
    width = int(np.char.str_len(labels).max()) if labels.size else 0
    labels = np.char.rjust(labels, width).tolist()
    order = np.argsort(pos, kind="stable")
    cells = [[] for _ in range(first.size)]
    for k in order.tolist():
        cells[pos[k]].append(labels[k])
    strs = ["|".join(c) for c in cells]
    sizes = [layout.out_dim_size(o) for o in layout.out_dim_names] or [1]
    return _brackets(strs, sizes, ", ")


def hardware_view(layout) -> str:
    """Triton's hardware view (``get_distributed_view(True)``): per block and warp, one line per register over the lanes.

    >>> from unilayout import linear
    >>> print(hardware_view(linear.identity_1d(2, "register", "dim0") * linear.identity_1d(2, "lane", "dim0")), end="")
    Warp0:
    (0), (2)
    (1), (3)
    """
    _check(layout)
    if not set(layout.in_dim_names) <= set(_HW):
        raise LayoutError(f"hardware view: in-dims {layout.in_dim_names} are not register/lane/warp/block")
    vals = layout.index_map()
    widths = [len(str(layout.out_dim_size(o) - 1)) for o in layout.out_dim_names]
    cols = []
    for d, w in enumerate(widths):
        cols.append(np.char.rjust(vals[:, d].astype(str), w))
    if cols:
        text = cols[0]
        for c in cols[1:]:
            text = np.char.add(np.char.add(text, ","), c)
    else:
        text = np.full(vals.shape[0], "", dtype=str)
    text = np.char.add(np.char.add("(", text), ")")
    nr, nl, nw, nb = (_size(layout, k) for k in _HW)
    # Reorder flat inputs (in the layout's in-dim order) to (block, warp, register, lane).
    names = layout.in_dim_names
    digits = _in_digits(layout, np.arange(vals.shape[0], dtype=np.int64))
    z = np.zeros(vals.shape[0], dtype=np.int64)
    key = (((digits.get("block", z) * nw + digits.get("warp", z)) * nr + digits.get("register", z)) * nl
           + digits.get("lane", z))
    grid = np.empty(vals.shape[0], dtype=object)
    grid[key] = text.tolist()
    grid = grid.reshape(nb, nw, nr, nl)
    del names
    out = []
    for b in range(nb):
        if nb > 1:
            out.append(f"Block{b}:\n")
        for w in range(nw):
            out.append(f"Warp{w}:\n")
            for r in range(nr):
                out.append(", ".join(grid[b, w, r].tolist()) + "\n")
    return "".join(out)


def _brackets(strs, sizes, sep):
    """Triton's nested-bracket text of ``strs`` laid out row-major over ``sizes`` (rows = the last dim)."""
    rank = len(sizes)
    last = sizes[-1]
    outer = sizes[:-1]
    lines = []
    for row in range(len(strs) // last if last else 0):
        crd = [int(c) for c in np.unravel_index(row, outer)] if outer else []
        opens = 1
        for d in range(rank - 2, -1, -1):
            if crd[d] != 0:
                break
            opens += 1
        closes = 1
        for d in range(rank - 2, -1, -1):
            if crd[d] != outer[d] - 1:
                break
            closes += 1
        body = sep.join(strs[row * last : (row + 1) * last])
        lines.append("[" * opens + " " * (rank - opens) + body + "]" * closes + "\n")
    return "".join(lines)


def _shared_points(layout):
    """Triton's walk of a shared layout: position p -> (block, offset) -> tensor coordinates, padded per out-dim."""
    _check(layout)
    if "offset" not in layout.in_dim_names or not set(layout.in_dim_names) <= {"offset", "block"}:
        raise LayoutError(f"shared view: in-dims {layout.in_dim_names} are not offset/block")
    sizes = [layout.out_dim_size(o) for o in layout.out_dim_names] or [1]
    total = int(np.prod(sizes, dtype=np.int64))
    nb = _size(layout, "block")
    if nb > total:
        raise LayoutError(f"shared view: {nb} blocks for a tensor of {total} elements: nothing to lay out per block")
    per_block = total // nb
    p = np.arange(total, dtype=np.int64)
    block, offset = p // per_block, p % per_block
    # Triton's apply XORs the bases of the bits it has: higher input bits are ignored.
    ins = {"offset": offset % layout.in_dim_size("offset")}
    if "block" in layout.in_dim_names:
        ins["block"] = block % nb
    out = layout.evaluate(ins)
    widths = [len(str(sz - 1)) for sz in sizes]
    cols = [np.char.rjust(np.asarray(out[o]).astype(str), w) for o, w in zip(layout.out_dim_names, widths)]
    return sizes, block, offset, per_block, cols


def shared_tensor_view(layout) -> str:
    """Triton's ``get_shared_view(False)``: memory position ``p`` (block-major) laid out over the tensor's shape,
    each showing the tensor element stored there.

    >>> from unilayout.linear import encodings as E
    >>> print(shared_tensor_view(E.swizzled_shared([2, 4], 1, 1, 2, [1, 0])), end="")
    [[(0:0),(0:1),(0:2),(0:3)]
    [ (1:1),(1:0),(1:3),(1:2)]]
    """
    sizes, _, _, _, cols = _shared_points(layout)
    text = cols[0]
    for c in cols[1:]:
        text = np.char.add(np.char.add(text, ":"), c)
    strs = np.char.add(np.char.add("(", text), ")").tolist()
    return _brackets(strs, sizes, ",")


def shared_hardware_view(layout) -> str:
    """Triton's ``get_shared_view(True)``: per block, each offset and the tensor element it holds.

    >>> from unilayout.linear import encodings as E
    >>> print(shared_hardware_view(E.swizzled_shared([2, 2], 1, 1, 2, [1, 0])), end="")
    Block: 0:
    Offset: 0 -> (0,0)
    Offset: 1 -> (0,1)
    Offset: 2 -> (1,1)
    Offset: 3 -> (1,0)
    """
    sizes, block, offset, per_block, cols = _shared_points(layout)
    text = cols[0]
    for c in cols[1:]:
        text = np.char.add(np.char.add(text, ","), c)
    lines = []
    for p, t in enumerate(text.tolist()):
        if p % per_block == 0:
            lines.append(f"Block: {p // per_block}:\n")
        lines.append(f"Offset: {p % per_block} -> ({t})\n")
    return "".join(lines)


def _runs(mask):
    """``(line, start, stop)`` of every run of True along axis 1 of a 2-D boolean array (vectorised)."""
    padded = np.zeros((mask.shape[0], mask.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = mask
    d = np.diff(padded, axis=1)
    lines, starts = np.nonzero(d == 1)
    _, stops = np.nonzero(d == -1)
    return lines, starts, stops


def _boundaries(scene, key, rows_per_band, rgb, width, cls):
    """Lines between neighbouring cells whose ``key`` differs (runs merged, vectorised), and around each band."""
    R, C = key.shape
    cw, ch = scene.cell_w, scene.cell_h
    band = np.arange(R) // max(rows_per_band, 1)
    # vertical: between columns c and c+1, runs of rows (a run stops at a band's edge)
    vert = (key[:, 1:] != key[:, :-1]).T  # (C-1, R)
    vert_split = np.zeros((vert.shape[0], R + (R - 1) // max(rows_per_band, 1)), dtype=bool)
    pos = np.arange(R) + band  # one False column between bands
    vert_split[:, pos] = vert
    cols, a, b = _runs(vert_split)
    rows_of = np.full(vert_split.shape[1] + 1, -1, dtype=np.int64)
    rows_of[pos] = np.arange(R)
    for c, r0, r1 in zip(cols.tolist(), rows_of[a].tolist(), rows_of[b - 1].tolist()):
        x = scene.col_x[c + 1]
        scene.add_line(x, scene.row_y[r0], x, scene.row_y[r1] + ch, rgb, width, cls)
    # horizontal: between rows r and r+1 of one band, runs of columns
    horiz = key[1:, :] != key[:-1, :]
    horiz[band[1:] != band[:-1]] = False
    rows, a, b = _runs(horiz)
    for r, c0, c1 in zip(rows.tolist(), a.tolist(), b.tolist()):
        y = scene.row_y[r + 1]
        scene.add_line(scene.col_x[c0], y, scene.col_x[c1 - 1] + cw, y, rgb, width, cls)
    for b0 in range(0, R, rows_per_band):
        scene.add_outline(*scene.cell_box(b0, 0, min(b0 + rows_per_band, R), C), rgb=rgb, width=width, cls=cls)


def linear_scene(layout, color="thread", *, max_cells=DEFAULT_MAX_CELLS, labels=True):
    """The picture of a linear layout's tensor: who holds each element, coloured by ``color``.

    ``color``: ``"thread"`` (the default: each lane of a warp its own colour,
    warps outlined in black), ``"warp"``, ``"register"``, ``"block"`` or
    ``"index"`` (the flat input). Cells are labelled like Triton's tensor
    view, ``T<thread>:<register>``. Elements held by several hardware
    positions show the first; elements held by none are left blank. Rows
    longer than ``picture.WRAP_COLUMNS`` columns wrap into bands stacked below each
    other (the picture stays about as tall as wide); ``data-<out dim>``
    attributes give each cell's tensor coordinate. ``labels=False`` leaves the
    cells unlabelled (huge pictures: the explorer's canvas shows details on hover).

    >>> from unilayout.linear import encodings as E
    >>> s = linear_scene(E.amd_mfma([32, 64], 3, [16, 16, 16], False, [2, 2]))
    >>> s.shape, s.count_cells(), s.labels[4, 0], s.labels[32, 0], int(s.attrs["dim1"][32, 0])
    ((64, 32), 2048, 'T16:0', 'T0:4', 32)
    """
    _check(layout)
    if color not in COLOR_MODES:
        raise LayoutError(f"unknown colour mode {color!r}: expected one of {', '.join(COLOR_MODES)}")
    n_in = int(layout.total_in_dim_size)
    if n_in > MAX_INPUTS:
        raise LayoutError(f"linear layout with {n_in:,} inputs is too large to draw (limit {MAX_INPUTS:,}): "
                          "draw a sublayout (L.sublayout(...)) or a smaller shape")
    pos, first, count = owners(layout)
    sizes = [layout.out_dim_size(o) for o in layout.out_dim_names] or [1]
    cols = sizes[-1]
    rows = first.size // cols

    r, c, note = _crop(rows, cols, int(max_cells))
    first = first.reshape(rows, cols)[:r, :c]
    count = count.reshape(rows, cols)[:r, :c]
    row_i, col_i = np.indices((r, c), dtype=np.int64)
    held = first >= 0
    safe = np.maximum(first, 0)
    digits = _in_digits(layout, safe)
    distributed = _is_distributed(layout)
    want_labels = labels
    if not want_labels:
        labels = np.full((r, c), "", dtype=object)
    elif distributed:
        labels = np.where(held, _hw_label(layout, safe.reshape(-1)).reshape(r, c), "").astype(object)
    else:
        labels = np.where(held, safe.astype(str), "").astype(object)
    z = np.zeros_like(safe)
    chars = int(np.char.str_len(labels.astype(str)).max()) if labels.size and want_labels else 1
    cell_w = max(26.0, CHAR_W * chars + 8.0)
    width = band_width(r, c, cell_w, 22.0) if note is None or r == 1 else c
    bands = c // width
    # A long row wraps into bands stacked below each other; a tall picture (3-D: dim0 x dim1 rows) into panels
    # side by side.
    height = panel_height(r, c, cell_w, 22.0) if bands == 1 and note is None else r
    panels = r // height

    def wrap(a):
        return wrap_bands(a, width) if bands > 1 else wrap_panels(a, height) if panels > 1 else a

    title = "linear layout " + " x ".join(f"{o}={layout.out_dim_size(o)}" for o in layout.out_dim_names) + " <- " + \
        ", ".join(f"{i}={layout.in_dim_size(i)}" for i in layout.in_dim_names)
    out_names = list(layout.out_dim_names) or ["dim0"]
    if panels > 1:
        scene = grid_scene(title, height, c * panels, labels=wrap(labels), col_group=c, gap=panel_gap(r),
                           col_names=list(range(c)) * panels)
        label_panels(scene, height, c)
    else:
        scene = grid_scene(title, r * bands, width, labels=wrap(labels),
                           row_names=list(range(r)) * bands if bands > 1 else None)
        label_bands(scene, r, width, out_names[-1])
    scene.kind = "linear"
    scene.drawn = wrap(held)
    scene.index = wrap(np.where(held, first, -1))
    for name in layout.in_dim_names:
        scene.attrs[name] = wrap(np.where(held, digits[name], -1))
    scene.attrs["holders"] = wrap(count)
    if len(out_names) == 1:
        coords = [col_i]
    else:
        lead = np.unravel_index(row_i.reshape(-1), sizes[:-1])
        coords = [np.asarray(x, dtype=np.int64).reshape(r, c) for x in lead] + [col_i]
    for name, v in zip(out_names, coords):
        scene.attrs.setdefault(name, wrap(v))
    lanes = _size(layout, "lane")
    if color == "index" or (color == "thread" and not distributed):
        scene.fill = wrap(gradient(safe))
        what = "flat hardware input"
    elif color == "thread":
        scene.fill = wrap(distinct(digits.get("lane", z), lanes))
        what = f"lane ({lanes} colours, one per lane of a warp; black lines: warp boundaries)"
    else:
        key = {"warp": digits.get("warp", z), "register": digits.get("register", z),
               "block": digits.get("block", z)}[color]
        scene.fill = wrap(distinct(key, _size(layout, color)))
        what = color
    if distributed and _size(layout, "warp") * _size(layout, "block") > 1:
        warp_key = np.where(held, digits.get("warp", z) + _size(layout, "warp") * digits.get("block", z), -1)
        _boundaries(scene, wrap(warp_key), r if bands > 1 else r, (0, 0, 0), 2.5, "warp")
    notes = [f"colour: {what}; label T<thread>:<register>, thread = lane + warp * {lanes}"
             if distributed else f"colour: {what}; label: flat input"]
    notes.append("rows: " + ("x".join(layout.out_dim_names[:-1]) or "-") +
                 f", columns: {layout.out_dim_names[-1] if layout.out_dim_names else '-'}" +
                 _wrap_note(out_names[-1], r, width, bands, height, panels))
    most = int(count.max()) if count.size else 0
    if most > 1:
        notes.append(f"broadcast: some elements are held by {most} hardware positions (the first is shown)")
    if not held.all():
        notes.append(f"{int((~held).sum())} elements are held by no hardware position (blank)")
    if note:
        notes.append(note)
    scene.notes = notes
    return scene


def _wrap_note(axis, rows, width, bands, height, panels):
    """How a wrapped picture reads: bands below, a folded 1-D row, or panels side by side."""
    if bands > 1 and rows == 1:
        return f" (one row folded into rows of {width}: each row is numbered by its first {axis})"
    if bands > 1:
        return f" (rows wrap: {axis} {width}.. continues in the band below)"
    if panels > 1:
        return f" (tall: rows {height}.. continue in the panel to the right, {panels} panels of {height} rows)"
    return ""


def warp_summary_scene(layout):
    """A summary of a huge distributed layout: one cell per (block, warp) with the box of tensor elements it holds.

    Rows are blocks, columns warps; each cell is labelled with the range of
    every out-dim its lanes and registers reach and how many elements that
    is, coloured by warp (class ``"warp"``). Layouts without warps (shared
    memory, other in-dims) summarise by their last in-dim instead.

    >>> from unilayout.linear import encodings as E
    >>> s = warp_summary_scene(E.blocked([64, 64], [1, 4], [8, 4], [2, 2], [1, 0]))
    >>> s.shape, s.labels[0, 1]
    ((1, 4), 'dim0 0..7, 16..23, ...\\ndim1 16..31, 48..63\\n1024 elements')
    """
    _check(layout)
    n_in = int(layout.total_in_dim_size)
    if n_in > MAX_INPUTS:
        raise LayoutError(f"linear layout with {n_in:,} inputs is too large to summarise (limit {MAX_INPUTS:,})")
    names = list(layout.in_dim_names)
    group_dim = "warp" if "warp" in names else names[-1] if names else None
    vals = layout.index_map()
    flat = np.arange(n_in, dtype=np.int64)
    digits = _in_digits(layout, flat)
    z = np.zeros(n_in, dtype=np.int64)
    warp = digits.get(group_dim, z) if group_dim else z
    block = digits.get("block", z) if group_dim == "warp" else z
    nw = _size(layout, group_dim) if group_dim else 1
    nb = _size(layout, "block") if group_dim == "warp" else 1
    key = block * nw + warp
    pos = np.zeros(n_in, dtype=np.int64)  # each input's element, row-major over the out-dims
    for d, name in enumerate(layout.out_dim_names):
        pos = pos * layout.out_dim_size(name) + vals[:, d]
    order = np.argsort(key, kind="stable")
    starts = np.searchsorted(key[order], np.arange(nb * nw))
    out_names = list(layout.out_dim_names)
    labels = []
    for g in range(nb * nw):
        sel = order[starts[g]: starts[g + 1] if g + 1 < nb * nw else n_in]
        parts = []
        for d, name in enumerate(out_names):
            v = np.unique(vals[sel, d])
            runs = np.split(v, np.nonzero(np.diff(v) != 1)[0] + 1) if v.size else []
            text = ", ".join(f"{r[0]}..{r[-1]}" if r.size > 1 else f"{r[0]}" for r in runs[:2])
            parts.append(f"{name} {text}" + (", ..." if len(runs) > 2 else ""))
        count = int(np.count_nonzero(np.bincount(pos[sel], minlength=1))) if sel.size else 0
        labels.append("\n".join(parts + [f"{count} elements"]))
    title = ("linear layout " + " x ".join(f"{o}={layout.out_dim_size(o)}" for o in out_names) +
             f" (summary: one cell per {'block and warp' if nb > 1 else group_dim or 'layout'})")
    scene = grid_scene(title, nb, nw, labels=np.array(labels, dtype=object).reshape(nb, nw),
                       row_names=[f"block {b}" for b in range(nb)], col_names=[f"{group_dim} {w}" for w in range(nw)])
    scene.kind = "linear-summary"
    scene.cell_class = "warp"
    scene.fill = distinct(np.arange(nb * nw).reshape(nb, nw) % max(nw, 1), max(nw, 1))
    scene.attrs[group_dim or "group"] = np.tile(np.arange(nw), (nb, 1))
    scene.attrs["block"] = np.repeat(np.arange(nb), nw).reshape(nb, nw)
    scene.notes = [f"summary: {int(np.prod([layout.out_dim_size(o) for o in out_names])):,} elements; each cell: the "
                   f"ranges of each out-dim the {group_dim}'s inputs reach (first two runs) and how many elements"]
    return scene


def linear_cells(L, *, details=True) -> Cells:
    """The explorer's cells of a linear layout: one per tensor element that some input reaches (first holder first).

    Without ``details`` (a canvas picture), a distributed layout of more than
    ``MAX_CANVAS_CELLS`` elements is drawn per warp (``warp_summary_scene``).
    """
    in_names = list(L.in_dim_names)
    in_sizes = [L.in_dim_size(d) for d in in_names]
    out_names = list(L.out_dim_names)
    out_sizes = [L.out_dim_size(d) for d in out_names]
    n_out = int(np.prod(out_sizes, dtype=np.int64))
    n_in = int(np.prod(in_sizes, dtype=np.int64))
    try:
        text = L.to_attr()
    except LayoutError:  # shared layouts (offset, block) have no #ttg.linear text
        text = None
    c = Cells(L, text=text, title="linear layout " + " x ".join(f"{d}:{s}" for d, s in zip(out_names, out_sizes, strict=True)),
              summary=f"linear layout: {', '.join(f'{d} {s}' for d, s in zip(in_names, in_sizes, strict=True))} -> "
                      f"{' x '.join(str(s) for s in out_sizes)}")
    if not details:
        if n_out > MAX_CANVAS_CELLS and "lane" in in_names and int(L.total_in_dim_size) <= MAX_INPUTS:
            c.scene = warp_summary_scene(L)  # a distributed layout too big to draw: per warp
        return c
    check_count(n_out, "linear layout")
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
    for name, size in zip(in_names, in_sizes, strict=True):
        digits[name] = rem % size
        rem //= size
    lanes = L.in_dim_size("lane") if "lane" in in_names else 1
    distributed = "lane" in in_names
    cells = np.nonzero(first >= 0)[0]
    ocrd = np.unravel_index(cells, out_sizes) if out_names else ()
    idx = first[cells]

    def thread(i):
        t = int(digits["lane"][i])
        if "warp" in digits:
            t += int(digits["warp"][i]) * lanes
        return t

    columns = {"tensor coordinate": [], "input index": [], **{d: [] for d in in_names}}
    if distributed:
        columns["thread"], columns["holders"] = [], []
    for k, f in enumerate(cells.tolist()):
        i = int(first[f])
        columns["tensor coordinate"].append(fmt(int(x[k]) for x in ocrd) if out_names else "()")
        columns["input index"].append(str(i))
        for d in in_names:
            columns[d].append(str(int(digits[d][i])))
        if distributed:
            hs = ["T%d:%d" % (thread(j), int(digits["register"][j]) if "register" in digits else 0)
                  for j in holders[f]]
            columns["thread"].append(str(thread(i)))
            columns["holders"].append(" ".join(hs[:16]) + (" ..." if len(hs) > 16 else ""))
    groups = {}
    if distributed:
        groups["thread"] = np.array([thread(int(i)) for i in idx], dtype=np.int64) if idx.size \
            else np.zeros(0, np.int64)
    for name in in_names:
        groups[name] = digits[name][idx]
    c.index, c.columns, c.groups, c.keys = idx, columns, groups, {"element": cells}
    return c
