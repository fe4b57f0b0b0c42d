"""Pictures of basis-stride layouts: ``print_layout``'s grid with a coordinate tuple in every cell.

A layout with basis strides (``(4,5):(1@0,1@1)``, the identity layout
kernels partition for predication) has coordinates for values. Its picture is
the grid of ``layout_scene`` (rows = mode 0, columns = the other modes) with
each cell labelled ``L(m, n)``, e.g. ``(1,2)``; cells are coloured by their
coordinate's rank among the coordinates drawn (lexicographic, light = first)
and carry ``data-index``, their 1-D coordinate. Only the modes the strides
name are computed (``cute.coords``), so a stride ``1@100000000`` costs one
column of numbers.

>>> from unilayout import cute
>>> s = basis_scene(cute.parse("(2,3):(1@0,1@1)"))
>>> s.shape, s.labels.tolist()
((2, 3), [['(0,0)', '(0,1)', '(0,2)'], ['(1,0)', '(1,1)', '(1,2)']])
>>> c = basis_cells(cute.parse("8:2@0"))
>>> c.columns["value"][:3], c.index.tolist()[:3]
(['(0)', '(2)', '(4)'], [0, 1, 2])
"""

from __future__ import annotations

import numpy as np

from .._family import Cells
from ..draw.cells import block, crd_strs, same
from ..draw.colors import gradient
from ..draw.grid import crop as _crop
from ..draw.scene import DEFAULT_MAX_CELLS, band_width, grid_scene, label_bands, wrap_bands
from .coords import coordinate_columns, coordinate_labels
from .inttuple import product

__all__ = ["basis_scene", "basis_cells"]


def _grid(layout):
    if layout.rank <= 1:
        return 1, int(layout.size)
    rows = int(product(layout.shape[0]))
    return rows, int(layout.size) // rows


def _rank_of_rows(values):
    """Each row's rank among the distinct rows (lexicographic), for a colour ramp."""
    if values.shape[1] == 0:
        return np.zeros(values.shape[0], dtype=np.int64)
    _, inverse = np.unique(values, axis=0, return_inverse=True)
    return inverse.reshape(-1).astype(np.int64)


def basis_scene(layout, *, max_cells=DEFAULT_MAX_CELLS, labels=True):
    """The picture of a basis-stride ``Layout``: rows = mode 0, columns = the other modes, cells ``L(m, n)``.

    Cropped to ``max_cells`` (top-left block, with a note); ``labels=False``
    leaves the cells blank.
    """
    rows, cols = _grid(layout)
    r, c, note = _crop(rows, cols, int(max_cells))
    idx = np.arange(r, dtype=np.int64)[:, None] + rows * np.arange(c, dtype=np.int64)[None, :]
    paths, values = coordinate_columns(layout, idx.reshape(-1))
    text = coordinate_labels(paths, values).reshape(r, c)
    order = _rank_of_rows(values).reshape(r, c)
    chars = max((len(t) for t in text.reshape(-1)), default=1)
    width = band_width(r, c, max(34.0, 8.0 * chars + 8.0), 26.0) if note is None or r == 1 else c
    bands = c // width
    axes = ("", "n (mode 0)") if layout.rank <= 1 else (
        "m", "n (mode 1)" if layout.rank == 2 else "n (modes 1.., 1-D order)")
    scene = grid_scene(str(layout), r * bands, width, labels=wrap_bands(text, width) if labels else None,
                       axes=axes, min_cell_w=34.0, cell_h=26.0,
                       row_names=list(range(r)) * bands if bands > 1 else None, gap=6.0)
    notes = ["values are coordinates (basis strides): cell (m, n) shows L(m, n); "
             "colour: the coordinate's order (light = first)"]
    if bands > 1:
        label_bands(scene, r, width, "n")
        notes.append(f"one row folded into rows of {width}: each row is numbered by its first column" if r == 1 else
                     f"rows wrap: columns n {width}.. continue in the bands below")
    scene.index = wrap_bands(idx, width)
    scene.fill = wrap_bands(gradient(order, 0, max(int(order.max()), 1) if order.size else 1).reshape(r, c, 3), width)
    for k, p in enumerate(paths[:8]):  # one attribute per basis mode (bounded: the first 8)
        scene.attrs["coord" + "_".join(map(str, p))] = wrap_bands(values[:, k].reshape(r, c), width)
    if note:
        notes.append(note)
    scene.notes = notes
    scene.kind = "cute"
    return scene


def basis_cells(layout, *, details=True) -> Cells:
    """The explorer's cells of a basis-stride layout: per drawn cell its index, coordinate and value (a coordinate)."""
    c = Cells(layout, title=f"CuTe {layout}", text=str(layout), summary=f"CuTe layout {layout} (values are coordinates)",
              total=int(layout.size))
    if not details:
        return c
    nrows, ncols = _grid(layout)
    r, cols, c.note = block(nrows, ncols, f"CuTe layout {layout}")
    idx = np.sort((np.arange(r, dtype=np.int64)[:, None] + nrows * np.arange(cols, dtype=np.int64)[None, :]).reshape(-1))
    paths, values = coordinate_columns(layout, idx)
    c.index = idx
    c.columns = {"index": idx, "coordinate": crd_strs(idx, layout.shape),
                 "value": coordinate_labels(paths, values).tolist()}
    c.groups = {"value": same(values) if values.shape[1] else np.zeros(idx.size, dtype=np.int64),
                "row": idx % nrows, "column": idx // nrows}
    c.keys = {"index": idx}
    return c
