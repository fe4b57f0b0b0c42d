"""Pictures of CuTe layouts: the grid of a layout's values, and thread-value (TV) layouts.

``layout_scene(L)`` draws rows = mode 0 and columns = the other modes (rank 1
as one row), exactly the cells of CuTe's ``print_layout``: cell ``(m, n)``
shows ``L(m, n)`` and has ``data-index = m + M*n``, its 1-D coordinate.
Colours: ``"index"`` (a ramp over the values; the default), ``"swizzle"``
(the default for a swizzled layout: each cell coloured by its swizzled unit
``(offset >> M) mod 2^B``, so every row shows the XOR permutation of its
units), ``"thread"`` or ``"bank"``. Rows are ``m`` (mode 0), columns ``n``
(the other modes), named on the axes; cells are at least 34x26 units.
For the last two, coordinates ``32k .. 32k+31`` form one warp-wide access
(thread ``t`` reads coordinate ``32k+t``); ``"bank"`` colours each cell by its
shared-memory bank (``offset * element_bytes // bank_bytes mod num_banks``)
and outlines in red the cells whose bank holds more than one word of the same
access, so bank conflicts show.

>>> from unilayout import cute
>>> s = layout_scene(cute.Layout((2, 3), (3, 1)))
>>> s.shape, s.labels.tolist(), s.index.tolist()
((2, 3), [['0', '1', '2'], ['3', '4', '5']], [[0, 2, 4], [1, 3, 5]])
>>> t = tv_scene(cute.Layout((2, 2), (2, 1)), (2, 2))
>>> t.labels[0, 1]
'T1\\nV0'

What a cell is in the explorer (``layout_cells``, ``tiled_cells``: the
records' ``cells`` hooks): for a layout, a cell of ``print_layout``'s grid
(mode 0 down, the other modes across; a bare ``Sw<B,M,S>``: its block,
``swizzle_layout``), ``data-index`` its 1-D coordinate, its details the index,
coordinate, offset and shared-memory bank; for a TiledMMA/TiledCopy, an
element of an operand tile (A, B, C; source, destination), its details the
operand coordinate and every (thread, value) holding it.

>>> c = layout_cells(cute.Layout((2, 3), (3, 1)))
>>> c.columns["offset"].tolist(), c.groups["row"].tolist()
([0, 3, 1, 4, 2, 5], [0, 1, 0, 1, 0, 1])
"""

from __future__ import annotations

import numpy as np

from .. import cute
from .._family import Cells
from ..draw.cells import MAX_CELLS, block, crd_strs, fmts, same
from ..draw.colors import categorical, distinct, gradient
from ..draw.grid import crop as _crop
from ..draw.scene import DEFAULT_MAX_CELLS, band_width, grid_scene, label_bands, wrap_bands
from ..errors import LayoutError
from .picture_tiled import tiled_copy_scene, tiled_mma_scene
from .swizzle import swizzle_layout

__all__ = ["layout_scene", "tv_scene", "offset_bank_conflicts", "swizzle_layout", "layout_cells", "tiled_cells",
           "COLOR_MODES"]

COLOR_MODES = ("index", "swizzle", "thread", "bank")


def _is_cute(x) -> bool:

    return isinstance(x, (cute.Layout, cute.ComposedLayout))


def _values(layout, idx):
    """``layout(i)`` for the 1-D coordinates ``idx`` (vectorised, swizzles included)."""

    return cute.evaluate(layout, idx)


def _grid_shape(layout):

    if layout.rank == 0:
        return 1, 1
    if layout.rank == 1:
        return 1, cute.size(layout)
    rows = cute.size(layout[0])
    return rows, cute.size(layout) // rows


def _first_leaf_group(mode_shape):

    if isinstance(mode_shape, tuple):
        leaves = cute.flatten(mode_shape)
        if len(leaves) > 1 and leaves[0] > 1:
            return int(leaves[0])
    return 0


def offset_bank_conflicts(offsets, element_bytes=4, bank_bytes=4, num_banks=32, warp=32):
    """Per element of a CuTe picture's offsets: ``(bank, ways)``, ``ways`` = distinct words its bank serves in its access.

    Not ``linear.analysis.bank_conflicts(reg, shared)`` (Triton's count of extra wavefronts of
    a distributed-to-shared copy): this one colours given offsets, one access per ``warp`` of them.

    Elements ``warp*k .. warp*k + warp-1`` (in the order given) form access ``k``;
    an access costs ``max(ways)`` wavefronts (1 = conflict-free).

    >>> b, w = offset_bank_conflicts([0, 32, 1, 2], warp=4)
    >>> b.tolist(), w.tolist()
    ([0, 0, 1, 2], [2, 2, 1, 1])
    """
    off = np.asarray(offsets, dtype=np.int64)
    for name, v in (("element_bytes", element_bytes), ("bank_bytes", bank_bytes), ("num_banks", num_banks), ("warp", warp)):
        if int(v) < 1:
            raise LayoutError(f"offset_bank_conflicts: {name} must be >= 1, got {v}")
    word = (off * int(element_bytes)) // int(bank_bytes)
    bank = word % int(num_banks)
    group = np.arange(off.size, dtype=np.int64) // int(warp)
    if off.size == 0:
        return bank, np.zeros(0, dtype=np.int64)
    triples = np.unique(np.stack([group, bank, word], axis=1), axis=0)
    gb, counts = np.unique(triples[:, :2], axis=0, return_counts=True)
    key = group * int(num_banks) + bank
    gkey = gb[:, 0] * int(num_banks) + gb[:, 1]
    ways = counts[np.searchsorted(gkey, key)]
    return bank, ways


def _swizzle_of(layout):

    if isinstance(layout, cute.ComposedLayout) and isinstance(layout.outer, cute.Swizzle):
        return layout.outer
    return None


def _axes(layout):
    if layout.rank <= 1:
        return ("", "n (mode 0)")
    return ("m", "n (mode 1)" if layout.rank == 2 else "n (modes 1.., 1-D order)")


def layout_scene(layout, color=None, *, element_bytes=4, bank_bytes=4, num_banks=32, max_cells=DEFAULT_MAX_CELLS,
                 labels=True):
    """The picture of a CuTe ``Layout`` or ``ComposedLayout`` as ``print_layout``'s grid.

    Cells beyond ``max_cells`` are cropped (top-left block kept) with a note;
    ``labels=False`` leaves the cells unlabelled (huge pictures).

    >>> from unilayout import cute
    >>> s = layout_scene(cute.Layout((4, 2), (1, 8)), color="bank", element_bytes=4, num_banks=8)
    >>> s.attrs["bank"].tolist()
    [[0, 0], [1, 1], [2, 2], [3, 3]]
    """

    if not _is_cute(layout):
        raise LayoutError(f"layout_scene: expected a cute.Layout or cute.ComposedLayout, got {type(layout).__name__}")
    sw = _swizzle_of(layout)
    if color is None:
        color = "swizzle" if sw is not None else "index"
    if color not in COLOR_MODES:
        raise LayoutError(f"unknown colour mode {color!r}: expected one of {', '.join(COLOR_MODES)}")
    if color == "swizzle" and sw is None:
        raise LayoutError(f"colour 'swizzle' needs a swizzled layout (Sw<B,M,S> o offset o layout), got {layout}")
    rows, cols = _grid_shape(layout)
    r, c, note = _crop(rows, cols, int(max_cells))
    idx = (np.arange(r, dtype=np.int64)[:, None] + rows * np.arange(c, dtype=np.int64)[None, :])
    values = _values(layout, idx.reshape(-1)).reshape(r, c)
    want_labels = labels
    labels = values.astype(str).astype(object) if want_labels else np.full((r, c), "", dtype=object)
    row_group = col_group = 0
    if layout.rank >= 2:
        row_group = _first_leaf_group(layout.shape[0])
        col_group = _first_leaf_group(layout.shape[1]) if layout.rank == 2 else 0
    attrs = {"value": values}
    notes = []
    conflict = None
    cell_h = 26.0
    if color == "index":
        fill = gradient(values, values.min(), values.max()).reshape(r, c, 3)
        notes.append("colour: offset (light = low, dark = high)")
    elif color == "swizzle":
        units = 1 << sw.bits
        unit = (values >> sw.base) & (units - 1)
        attrs["unit"] = unit
        fill = distinct(unit, units)
        notes.append(f"colour: swizzled unit (offset >> {sw.base}) mod {units} of {1 << sw.base} elements; "
                     f"{sw} XORs offset bits {sw.base}..{sw.base + sw.bits - 1} with bits "
                     f"{sw.base + abs(sw.shift)}..{sw.base + abs(sw.shift) + sw.bits - 1}, "
                     "so each row permutes the units")
    elif color == "thread":
        attrs["thread"] = idx % 32
        fill = distinct(idx % 32, 32)
        notes.append("colour: thread t = 1-D coordinate mod 32 (coordinates 32k..32k+31 are one warp access)")
    else:
        # Whole accesses only: evaluate every coordinate of the accesses the picture touches.
        size = cute.size(layout)
        groups = np.unique(idx // 32)
        coords = (groups[:, None] * 32 + np.arange(32, dtype=np.int64)[None, :]).reshape(-1)
        coords = coords[coords < size]
        bank, ways = offset_bank_conflicts(_values(layout, coords), element_bytes, bank_bytes, num_banks)
        pos = np.searchsorted(coords, idx)
        bank_rc, ways_rc = bank[pos], ways[pos]
        attrs["bank"] = bank_rc
        attrs["ways"] = ways_rc
        if want_labels:
            labels = np.char.add(np.char.add(values.astype(str), "\nb"), bank_rc.astype(str)).astype(object)
        cell_h = 34.0
        fill = categorical(bank_rc)
        conflict = ways_rc > 1
        g = coords // 32
        conflicted = int(np.unique(g[ways > 1]).size)
        notes.append(f"colour: bank ({element_bytes}-byte elements, {num_banks} banks of {bank_bytes} bytes); "
                     "one access = coordinates 32k..32k+31")
        notes.append(f"worst access {int(ways.max())}-way; {conflicted} of {groups.size} accesses shown conflict "
                     "(red outlines on the cells whose bank serves several words of their access)")
    # Long rows wrap into bands of columns stacked below each other (a readable aspect).
    chars = len(str(int(np.abs(values).max()))) + 1 if values.size else 1
    width = band_width(r, c, max(34.0, 8.0 * chars + 8.0), cell_h) if (note is None or r == 1) and col_group == 0 else c
    bands = c // width
    scene = grid_scene(str(layout), r * bands, width, labels=wrap_bands(labels, width) if want_labels else None,
                       row_group=row_group,
                       col_group=col_group, axes=_axes(layout), min_cell_w=34.0, cell_h=cell_h,
                       row_names=list(range(r)) * bands if bands > 1 else None, gap=6.0)
    if bands > 1:
        label_bands(scene, r, width, "n")
        notes.append(f"one row folded into rows of {width}: each row is numbered by its first column" if r == 1 else
                     f"rows wrap: columns n {width}.. continue in the bands below")
    scene.index = wrap_bands(idx, width)
    scene.fill = wrap_bands(fill, width)
    scene.attrs.update({k: wrap_bands(v, width) for k, v in attrs.items()})
    scene.labels_of = "value" if want_labels and "bank" not in attrs else ""
    if conflict is not None:
        rr, cc = np.nonzero(wrap_bands(conflict, width))
        for y, x in zip(rr[:4096].tolist(), cc[:4096].tolist()):
            scene.add_outline(*scene.cell_box(y, x, y + 1, x + 1), rgb=(200, 0, 0), width=2, cls="conflict")
    if note:
        notes.append(note)
    scene.notes = notes
    return scene


def tv_scene(tv, tiler, *, max_cells=DEFAULT_MAX_CELLS):
    """A thread-value layout over an ``M x N`` tile: each element labelled ``T<thread>`` / ``V<value>``.

    ``tv`` maps ``(thread, value)`` to ``m + M*n`` (``cute.make_layout_tv``);
    each cell shows its first owner (``cute.tv_table``), coloured by thread,
    with ``data-index = thread + num_threads * value`` (the TV layout's 1-D
    coordinate). Elements no thread owns are left blank.

    >>> from unilayout import cute
    >>> tiler, tv = cute.make_layout_tv(cute.Layout((2, 2)), cute.Layout((1, 2)))
    >>> s = tv_scene(tv, tiler)
    >>> s.shape, s.attrs["thread"].tolist()
    ((2, 4), [[0, 0, 2, 2], [1, 1, 3, 3]])
    """

    if not isinstance(tv, cute.Layout):
        raise LayoutError(f"tv_scene: expected a cute.Layout (thread, value) -> position, got {type(tv).__name__}")
    tshape = tiler if isinstance(tiler, tuple) else (tiler,)
    if len(tshape) != 2:
        raise LayoutError(f"tv_scene: expected a 2-D tile (M, N), got {tiler}")
    thr, val = cute.tv_table(tv, tiler)
    rows, cols = thr.shape
    r, c, note = _crop(rows, cols, int(max_cells))
    thr, val = thr[:r, :c], val[:r, :c]
    nt = cute.size(tv[0])
    owned = thr >= 0
    labels = np.where(owned, np.char.add(np.char.add("T", thr.astype(str)), np.char.add("\nV", val.astype(str))), "")
    scene = grid_scene(f"TV layout {tv} over tile {rows}x{cols}", r, c, labels=labels.astype(object),
                       axes=("m", "n"), min_cell_w=34.0)
    scene.drawn = owned
    scene.index = np.where(owned, thr + nt * val, -1)
    scene.attrs["thread"] = thr
    scene.attrs["value"] = val
    scene.fill = distinct(np.maximum(thr, 0), min(nt, 64))
    scene.kind = "tv"
    scene.notes = [f"{nt} threads x {cute.size(tv[1])} values; cell (m, n) shows its first owner T<thread> V<value>; "
                   f"colour: thread ({min(nt, 64)} colours" + (", repeating every 64 threads)" if nt > 64 else ")")]
    if not owned.all():
        scene.notes.append(f"{int((~owned).sum())} elements are owned by no thread (blank)")
    if note:
        scene.notes.append(note)
    return scene


def layout_cells(value, *, details=True) -> Cells:
    """The explorer's cells of a CuTe ``Layout``/``ComposedLayout``/``Swizzle``: ``print_layout``'s grid, cropped.

    Rows are the drawn cells by 1-D coordinate; ``keys`` ``index`` and
    ``offset`` tie them to the cells of another layout (the algebra panel).
    """
    L = swizzle_layout(value) if isinstance(value, cute.Swizzle) else value  # a bare swizzle: drawn as its block
    composed = isinstance(L, cute.ComposedLayout)
    shape_layout = L.inner if composed else L
    size = cute.size(shape_layout)
    c = Cells(value, title=f"CuTe {L}", text=str(L), summary=f"CuTe layout {L}", total=size)
    if not details:
        return c
    nrows = 1 if shape_layout.rank <= 1 else cute.size(shape_layout[0])
    r, cols, c.note = block(nrows, size // nrows, f"CuTe layout {L}")
    idx = (np.arange(r, dtype=np.int64)[:, None] + nrows * np.arange(cols, dtype=np.int64)[None, :]).reshape(-1)
    idx.sort()
    n = idx.size
    if composed:
        inner = cute.evaluate(L.inner, idx) + L.offset
        outer = L.outer
        offs = outer(inner) if isinstance(outer, cute.Swizzle) else cute.evaluate(outer, inner)  # both vectorised
    else:
        offs = cute.evaluate(L, idx)
    row, col = idx % nrows, idx // nrows
    bank = offs % 32
    c.index = idx
    c.columns = {"index": idx, "coordinate": crd_strs(idx, shape_layout.shape),
                 "(row, col) = (thread, value) of a TV layout": fmts((row, col), n), "offset": offs,
                 "bank (4-byte words, 32 banks)": bank}
    if composed:
        c.columns["offset before the swizzle"] = inner
    c.groups = {"offset": same(offs), "row": row, "column": col, "bank": bank}
    c.keys = {"index": idx, "offset": offs}
    return c


def _holders(tv, rows):
    """For each element ``m + rows*n`` of a TV layout's tile: its (thread, value) holders, thread-major."""
    nt, nv = tv[0].size, tv[1].size
    pos = cute.index_map(tv).reshape(nv, nt).T.reshape(-1)  # thread-major, as the tiled scenes label cells
    order = np.argsort(pos, kind="stable")
    out = {}
    for j in order.tolist():
        out.setdefault(int(pos[j]), []).append((j // nv, j % nv))
    return out


def tiled_cells(tiled, *, details=True) -> Cells:
    """The explorer's cells of a ``cute.TiledMMA`` (C, A left, B above) or ``cute.TiledCopy`` (source | destination).

    Every drawn cell (row-major) is a row: its operand, its coordinate in
    that operand, its first (thread, value) and every (thread, value) that
    holds it. The first group is ``thread``; ``extras["thread_cells"][t]``
    lists every row thread t holds, also where another thread is the cell's
    first owner (an A element shared by the warps along N). The cells are
    always given (``details`` is ignored: the tiles are small).

    >>> c = tiled_cells(cute.make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN"))
    >>> c.family, c.rows, list(c.groups)[0], list(c.columns)[:3]
    ('cute.TiledMMA', 320, 'thread', ['operand', 'coordinate', 'thread'])
    """
    if isinstance(tiled, cute.TiledMMA):
        sc = tiled_mma_scene(tiled, max_cells=MAX_CELLS)
        m, n, k = tiled.tile_size_mnk()
        ops = [("A", "(m, k)", tiled.get_layoutA_TV(), m, False), ("B", "(n, k)", tiled.get_layoutB_TV(), n, True),
               ("C", "(m, n)", tiled.get_layoutC_TV(), m, False)]
        family = "cute.TiledMMA"
        summary = f"TiledMMA {tiled.atom.name}: {tiled.size} threads, tile {m}x{n}x{k}"
    elif isinstance(tiled, cute.TiledCopy):
        sc = tiled_copy_scene(tiled, max_cells=MAX_CELLS)
        m = tiled.tiler_mn[0]
        ops = [("source", "(m, n)", tiled.get_layoutS_TV(), m, False),
               ("destination", "(m, n)", tiled.get_layoutD_TV(), m, False)]
        family = "cute.TiledCopy"
        summary = f"TiledCopy {tiled.atom.name} ({tiled.atom.element_bits}-bit): {tiled.size} threads, tile " + \
            "x".join(map(str, tiled.tiler_mn))
    else:
        raise LayoutError(f"tiled_cells: expected a cute.TiledMMA or cute.TiledCopy, got {type(tiled).__name__}")
    drawn = sc.drawn
    a = sc.attrs
    holders = [_holders(tv, rows) for _, _, tv, rows, _ in ops]
    operand, coordinate, held_by, thread_cells = [], [], [], [[] for _ in range(tiled.size)]
    for r, col in np.argwhere(drawn).tolist():  # row-major, the order of the rows
        o = int(a["operand"][r, col])
        name, axes, _, rows, transposed = ops[o]
        i, j = int(a["row"][r, col]), int(a["col"][r, col])
        crd = (j, i) if transposed else (i, j)  # B is drawn k x n
        who = holders[o].get(crd[0] + rows * crd[1], [])
        for t in sorted({t for t, _ in who}):
            if t >= len(thread_cells):  # SM70's quad-pair atoms number their 8 threads 0-3 and 16-19
                thread_cells.extend([] for _ in range(t + 1 - len(thread_cells)))
            thread_cells[t].append(len(operand))
        more = f" (+{len(who) - 8} more)" if len(who) > 8 else ""
        operand.append(name)
        coordinate.append(f"{axes} = ({crd[0]}, {crd[1]})")
        held_by.append(", ".join(f"T{t}V{v}" for t, v in who[:8]) + more)
    facts = [["atom", tiled.atom.name], ["threads", str(tiled.size)]]
    facts += [[f"layout{o[0][0].upper()}_TV", str(o[2])] for o in ops]  # A/B/C, S(ource)/D(estination)
    return Cells(tiled, match="drawn", scene=sc, title=sc.title, text=str(tiled), summary=summary, family=family,
                 facts=facts, extras={"thread_cells": thread_cells},
                 columns={"operand": operand, "coordinate": coordinate, "thread": a["thread"][drawn],
                          "value": a["value"][drawn], "held by (thread, value)": held_by},
                 groups={"thread": a["thread"][drawn], "operand": a["operand"][drawn], "value": a["value"][drawn]})
