"""The picture of an affine map: its results over a box of the caller's choosing (a map has no box of its own).

>>> from unilayout import affine
>>> affine_scene(affine.parse("(d0, d1) -> (d1, d0)"), (2, 2)).labels.tolist()
[['0,0', '1,0'], ['0,1', '1,1']]
"""

from __future__ import annotations

import numpy as np

from ..draw.grid import box_scene
from ..draw.scene import DEFAULT_MAX_CELLS
from ..errors import LayoutError
from .map import AffineMap

__all__ = ["affine_scene"]


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
