"""The picture of an affine map: its results over a box of the caller's choosing (a map has no box of its own).

>>> from unilayout import affine
>>> affine_scene(affine.parse("(d0, d1) -> (d1, d0)"), (2, 2)).labels.tolist()
[['0,0', '1,0'], ['0,1', '1,1']]

What a cell is in the explorer (``affine_cells``, the record's ``cells``
hook): a point of the index box (``shape``; ``DEFAULT_AFFINE_EXTENT`` per dim
when none is given), last dim across, ``data-index`` its row-major position,
its details the point and the map's results there.

>>> affine_cells(affine.parse("(d0, d1) -> (d1, d0)"), (2, 2)).columns["results"]
['(0, 0)', '(1, 0)', '(0, 1)', '(1, 1)']
"""

from __future__ import annotations

import math

import numpy as np

from .._family import Cells
from ..draw.cells import box_block, fmts, same
from ..draw.grid import box_scene
from ..draw.scene import DEFAULT_MAX_CELLS
from ..errors import LayoutError
from .map import AffineMap

__all__ = ["affine_scene", "affine_cells", "DEFAULT_AFFINE_EXTENT"]

#: Extent of each dim of the box the explorer draws an affine map on when no ``shape`` is given.
DEFAULT_AFFINE_EXTENT = 4


def affine_scene(m, shape, *, max_cells=DEFAULT_MAX_CELLS, symbols=(), labels=True):
    """An affine map's results over the box ``shape`` (one label per point: the results joined by commas).

    >>> from unilayout import affine
    >>> affine_scene(affine.parse("(d0) -> (d0 floordiv 2, d0 mod 2)"), (4,)).labels.tolist()
    [['0,0', '0,1', '1,0', '1,1']]
    """
    if not isinstance(m, AffineMap):
        raise LayoutError(f"affine_scene: expected an AffineMap, got {type(m).__name__}")
    if shape is None:
        raise LayoutError("an affine map has no box of its own: give a shape (e.g. --shape 8x8)")
    if m.num_symbols and len(tuple(symbols)) != m.num_symbols:
        raise LayoutError(f"{m} has {m.num_symbols} symbols: give their values (symbols=...)")
    if len(tuple(shape)) != m.num_dims:
        raise LayoutError(f"shape {tuple(shape)} has {len(tuple(shape))} sizes but {m} has {m.num_dims} dims")
    if not m.num_results:  # each cell is drawn with its value(s); there are none
        raise LayoutError(f"{m} has no results: there is no value to draw in its cells")
    syms = [np.int64(v) for v in symbols]
    scene = box_scene(str(m), lambda *crd: np.stack(np.broadcast_arrays(*m.evaluate(*crd, *syms)), axis=-1),
                      tuple(shape), max_cells=max_cells, labels=labels)
    scene.kind = "affine"
    return scene


def affine_cells(m, shape=None, *, details=True) -> Cells:
    """The explorer's cells of an affine map: the points of the box ``shape`` (cropped to its top-left block)."""
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
    box = "x".join(map(str, shape))
    c = Cells(m, shape=shape, title=f"affine map {m} on {box or 'a point'}", text=str(m),
              summary=f"affine map with {m.num_dims} dims and {m.num_results} results, drawn on the box {box or '()'}",
              total=math.prod(shape))
    if not details:
        return c
    idx, c.note = box_block(shape, f"the box {box}")
    n = idx.size
    if c.note:
        crds = np.unravel_index(idx, shape)
        vals = np.stack(np.broadcast_arrays(*m.evaluate(*crds)), axis=-1).astype(np.int64).reshape(n, m.num_results)
    else:
        vals = m.index_map(shape).reshape(n, m.num_results)
        crds = np.unravel_index(idx, shape) if shape else ()
    c.index = idx
    c.columns = {"index": idx, "(" + ", ".join(f"d{i}" for i in range(len(shape))) + ")": fmts(crds if shape else [], n),
                 "results": fmts([vals[:, j] for j in range(m.num_results)], n)}
    c.groups = {"value": same(vals)}
    for j in range(m.num_results):
        c.groups[f"result {j}"] = vals[:, j]
    return c
