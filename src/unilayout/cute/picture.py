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
"""

from __future__ import annotations

import numpy as np

from ..errors import LayoutError
from .. import cute
from .swizzle import swizzle_layout
from ..draw.colors import categorical, distinct, gradient
from ..draw.grid import crop as _crop
from ..draw.scene import DEFAULT_MAX_CELLS, band_width, grid_scene, wrap_bands

__all__ = ["layout_scene", "tv_scene", "offset_bank_conflicts", "swizzle_layout", "COLOR_MODES"]

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
    width = band_width(r, c, max(34.0, 8.0 * chars + 8.0), cell_h) if note is None and col_group == 0 else c
    bands = c // width
    scene = grid_scene(str(layout), r * bands, width, labels=wrap_bands(labels, width) if want_labels else None,
                       row_group=row_group,
                       col_group=col_group, axes=_axes(layout), min_cell_w=34.0, cell_h=cell_h,
                       row_names=list(range(r)) * bands if bands > 1 else None, gap=6.0)
    if bands > 1:
        scene.row_y = scene.row_y + (np.arange(r * bands) // r) * 20.0
        for b in range(1, bands):
            scene.add_text(scene.col_x[0], scene.row_y[b * r] - 10, f"n {b * width}..{(b + 1) * width - 1}",
                           rgb=(60, 60, 60), cls="band")
        scene.texts = [t for t in scene.texts if not (t[6] == "header" and t[4] == "end")]
        for y, name in zip(scene.row_y.tolist(), list(range(r)) * bands):
            scene.add_text(scene.col_x[0] - 4, y + scene.cell_h / 2, name, anchor="end", rgb=(90, 90, 90),
                           cls="header")
        notes.append(f"rows wrap: columns n {width}.. continue in the bands below")
    scene.index = wrap_bands(idx, width)
    scene.fill = wrap_bands(fill, width)
    scene.attrs.update({k: wrap_bands(v, width) for k, v in attrs.items()})
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
