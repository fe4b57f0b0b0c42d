"""Pictures of TiledMMA and TiledCopy, laid out as CuTe's ``print_latex`` does, on the viz picture model.

``tiled_mma_scene(mma)``: C (M x N) at the origin, A (M x K) to its left, B
above it drawn K x N (B's (n, k) at row k, column n); every cell reads
``T<thread>`` / ``V<value>`` and is coloured by thread, so one thread's A, B
and C cells share a colour. ``tiled_copy_scene(tc)``: the source tile and the
destination tile side by side, each cell labelled with the (thread, value)
that reads or writes it.

Cells carry ``data-thread``, ``data-value`` and ``data-operand`` (0 = A, 1 = B,
2 = C; 0 = source, 1 = destination for a copy) and ``data-row`` /
``data-col`` (the cell's coordinate in its operand), so a viewer can light up
every cell of one thread across the operands.

>>> from unilayout import cute
>>> s = tiled_mma_scene(cute.make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN"))
>>> s.shape, int(s.drawn.sum()), s.labels[8, 8]
((24, 16), 320, 'T0\\nV0')
>>> sorted(set(s.attrs["operand"][s.drawn].tolist()))
[0, 1, 2]
"""

from __future__ import annotations

import numpy as np

from .. import cute
from ..draw.colors import distinct
from ..draw.scene import Scene, SvgOnly, grid_scene
from ..errors import LayoutError

__all__ = ["tiled_mma_scene", "tiled_copy_scene", "MAX_MMA_CELLS"]

#: Cells drawn at most (a 64x256x16 GMMA tile is (16 + 64) x (16 + 256) = 21,760 cells).
MAX_MMA_CELLS = 65536
_GAP = 14.0


def _owners(tv, shape):

    return cute.tv_table(tv, shape)


def _labels(thr, val):
    owned = thr >= 0
    lab = np.char.add(np.char.add("T", thr.astype(str)), np.char.add("\nV", val.astype(str)))
    return np.where(owned, lab, "").astype(object)


def _panels_scene(title, rows, cols, panels, nthreads, row_names, col_names, row_split, col_split, max_cells):
    """A grid with ``panels`` = [(r0, c0, thr, val, operand)] placed in it, gaps after ``row_split`` / ``col_split``."""
    if rows * cols > max_cells:
        raise LayoutError(f"picture of {rows}x{cols} = {rows * cols:,} cells is over max_cells={max_cells:,}; "
                          "raise max_cells to draw it")
    thr = np.full((rows, cols), -1, dtype=np.int64)
    val = np.full((rows, cols), -1, dtype=np.int64)
    op = np.full((rows, cols), -1, dtype=np.int64)
    rr = np.full((rows, cols), -1, dtype=np.int64)
    cc = np.full((rows, cols), -1, dtype=np.int64)
    placed = np.zeros((rows, cols), dtype=bool)
    for r0, c0, t, v, operand in panels:
        h, w = t.shape
        thr[r0:r0 + h, c0:c0 + w] = t
        val[r0:r0 + h, c0:c0 + w] = v
        op[r0:r0 + h, c0:c0 + w] = operand
        rr[r0:r0 + h, c0:c0 + w] = np.arange(h)[:, None]
        cc[r0:r0 + h, c0:c0 + w] = np.arange(w)[None, :]
        placed[r0:r0 + h, c0:c0 + w] = True
    s = grid_scene(title, rows, cols, labels=_labels(thr, val), row_names=row_names, col_names=col_names,
                   min_cell_w=34.0)
    if row_split:
        s.row_y[row_split:] += _GAP
    if col_split:
        s.col_x[col_split:] += _GAP
        for i, t in enumerate(s.texts):  # keep the column headers over their columns
            if t[6] == "header" and t[4] == "middle":
                x = t[0]
                if x > s.col_x[col_split] - _GAP:
                    s.texts[i] = (x + _GAP,) + tuple(t[1:])
    s.drawn = placed & (thr >= 0)
    s.index = np.where(s.drawn, thr + nthreads * val, -1)
    s.fill = distinct(np.maximum(thr, 0), min(max(nthreads, 1), 64))
    s.attrs.update({"thread": thr, "value": val, "operand": op, "row": rr, "col": cc})
    s.kind = "tv"
    return s


def tiled_mma_scene(mma, *, max_cells: int = MAX_MMA_CELLS) -> Scene:
    """The picture of a TiledMMA: C at the origin, A left of it, B above it (as ``print_latex``).

    >>> from unilayout import cute
    >>> s = tiled_mma_scene(cute.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1)))
    >>> s.shape, int(s.attrs["thread"][16, 16]), int(s.attrs["operand"][16, 16])
    ((48, 32), 0, 2)
    """

    if not isinstance(mma, cute.TiledMMA):
        raise LayoutError(f"tiled_mma_scene: expected a cute.TiledMMA, got {type(mma).__name__}")
    m, n, k = mma.tile_size_mnk()
    c_t, c_v = _owners(mma.get_layoutC_TV(), (m, n))
    a_t, a_v = _owners(mma.get_layoutA_TV(), (m, k))
    b_t, b_v = _owners(mma.get_layoutB_TV(), (n, k))
    nthreads = mma.get_layoutC_TV()[0].size
    panels = [(k, 0, a_t, a_v, 0), (0, k, b_t.T, b_v.T, 1), (k, k, c_t, c_v, 2)]
    row_names = [f"k{i}" for i in range(k)] + [str(i) for i in range(m)]
    col_names = [f"k{i}" for i in range(k)] + [str(i) for i in range(n)]
    title = f"TiledMMA {mma.atom.name} x {mma.atom_layout_mnk}: tile {m}x{n}x{k}"
    s = _panels_scene(title, k + m, k + n, panels, nthreads, row_names, col_names, k, k, max_cells)
    x0, y0 = s.col_x[0] + 6, s.row_y[0]
    s.add_text(x0, y0 + s.cell_h * 0.5, "B (k, n) above C", cls="axis", rgb=(40, 40, 40))
    s.add_text(x0, y0 + s.cell_h * 1.5, "A (m, k) left of C", cls="axis", rgb=(40, 40, 40))
    s.add_text(x0, y0 + s.cell_h * 2.5, "C (m, n)", cls="axis", rgb=(40, 40, 40))
    s.notes = [f"{mma.size} threads; A {m}x{k}, B {n}x{k} (drawn k x n), C {m}x{n}; cell shows its first owner "
               f"T<thread> V<value> (thread-major), colour: thread ({min(nthreads, 64)} colours"
               + (", repeating every 64)" if nthreads > 64 else ")"),
               SvgOnly("cells carry data-thread / data-operand (0 A, 1 B, 2 C) for the explorer")]
    return s


def tiled_copy_scene(tc, *, max_cells: int = MAX_MMA_CELLS) -> Scene:
    """The picture of a TiledCopy: source tile (left) and destination tile (right), cells ``T<t>`` / ``V<v>``.

    >>> from unilayout import cute
    >>> tc = cute.make_tiled_copy(cute.copy_atom("UniversalCopy<uint64_t>", 16), cute.Layout((8, 4), (4, 1)),
    ...                           cute.Layout((1, 4)))
    >>> s = tiled_copy_scene(tc)
    >>> s.shape, s.labels[1, 5], int(s.attrs["operand"][0, 16])
    ((8, 32), 'T5\\nV1', 1)
    """

    if not isinstance(tc, cute.TiledCopy):
        raise LayoutError(f"tiled_copy_scene: expected a cute.TiledCopy, got {type(tc).__name__}")
    if len(tc.tiler_mn) != 2:
        raise LayoutError(f"tiled_copy_scene: draws 2-D tiles, this one is {tc.tiler_mn}")
    m, n = tc.tiler_mn
    s_t, s_v = _owners(tc.get_layoutS_TV(), (m, n))
    d_t, d_v = _owners(tc.get_layoutD_TV(), (m, n))
    panels = [(0, 0, s_t, s_v, 0), (0, n, d_t, d_v, 1)]
    title = f"TiledCopy {tc.atom.name} ({tc.atom.element_bits}-bit): source | destination, tile {m}x{n}"
    s = _panels_scene(title, m, 2 * n, panels, tc.size, None, [str(i) for i in range(n)] * 2, 0, n, max_cells)
    s.notes = [f"{tc.size} threads; left: source (get_layoutS_TV), right: destination (get_layoutD_TV); "
               "cell shows the first (thread, value) moving it, colour: thread",
               SvgOnly("cells carry data-thread / data-operand (0 source, 1 destination) for the explorer")]
    return s
