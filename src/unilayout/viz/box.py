"""Pictures of layouts over a row-major index box: TSL layouts and affine maps.

The box is folded to rows x last dim (row-major), each cell labelled with the
layout's value there and ``data-index`` its row-major position (the domain
order of ``index_map``). A TSL's innermost tiles are separated by gaps.

>>> from unilayout import tsl, affine
>>> s = tsl_scene(tsl.parse("#tsl.tsl<[2, 2] -> (8, 2), [2, 2] -> (4, 1), offset: 5>"))
>>> s.labels.tolist()
[['5', '6', '9', '10'], ['7', '8', '11', '12'], ['13', '14', '17', '18'], ['15', '16', '19', '20']]
>>> affine_scene(affine.parse("(d0, d1) -> (d1, d0)"), (2, 2)).labels.tolist()
[['0,0', '1,0'], ['0,1', '1,1']]
"""

from __future__ import annotations

import numpy as np

from ..errors import LayoutError
from .colors import gradient
from .picture import DEFAULT_MAX_CELLS, grid_scene

__all__ = ["tsl_scene", "affine_scene", "box_scene"]


def box_scene(title, values, shape, *, max_cells=DEFAULT_MAX_CELLS, row_group=0, col_group=0, labels=True):
    """Cells of a row-major box: ``values`` ``(N,)`` or ``(N, k)`` over ``shape``, or a function.

    ``values`` may be a callable taking the int64 coordinate arrays of the
    cells shown (one per dim) and returning ``(n,)`` or ``(n, k)`` values, so
    a cropped picture of a huge box evaluates only what it draws.
    ``labels=False`` leaves the cells unlabelled (huge pictures).

    >>> box_scene("b", np.arange(6), (2, 3)).index.tolist()
    [[0, 1, 2], [3, 4, 5]]
    """
    from .cute import _crop

    shape = tuple(int(s) for s in shape) or (1,)
    cols = shape[-1]
    rows = int(np.prod(shape[:-1], dtype=np.int64)) if len(shape) > 1 else 1
    r, c, note = _crop(rows, cols, int(max_cells))
    index = np.arange(r, dtype=np.int64)[:, None] * cols + np.arange(c, dtype=np.int64)[None, :]
    if callable(values):
        coords = np.unravel_index(index.reshape(-1), shape)
        flat = np.asarray(values(*[np.asarray(x, dtype=np.int64) for x in coords]), dtype=np.int64)
        flat = flat.reshape(r, c, -1)
    else:
        flat = np.asarray(values, dtype=np.int64).reshape(rows, cols, -1)[:r, :c]
    text = None
    if labels:
        text = flat[..., 0].astype(str)
        for k in range(1, flat.shape[2]):
            text = np.char.add(np.char.add(text, ","), flat[..., k].astype(str))
        text = text.astype(object)
    scene = grid_scene(title, r, c, labels=text, row_group=row_group, col_group=col_group)
    scene.index = index
    key = flat[..., 0]
    scene.fill = gradient(key) if key.size else scene.fill
    scene.attrs["value"] = key
    scene.notes = ["rows: " + ("x".join(str(s) for s in shape[:-1]) or "1") + f" (row-major), columns: {cols}; "
                   "colour: " + ("value" if flat.shape[2] == 1 else "first result")]
    if note:
        scene.notes.append(note)
    return scene


def tsl_scene(t, *, max_cells=DEFAULT_MAX_CELLS, labels=True):
    """A static TSL's addresses over its box (offset included), innermost tiles separated.

    >>> from unilayout import tsl
    >>> tsl_scene(tsl.parse("[2, 4] -> (32, 4), [2, 4] -> (16, 1)")).shape
    (8, 8)
    """
    from ..tsl import TiledStridedLayout

    if not isinstance(t, TiledStridedLayout):
        raise LayoutError(f"tsl_scene: expected a TiledStridedLayout, got {type(t).__name__}")
    if t.is_dynamic:
        raise LayoutError(f"{t} has '?' values: resolve it for a shape first (t.resolve(shape))")
    bounds = t.tile_bounds()
    rg = bounds[-2][-1] if t.rank >= 2 and len(bounds[-2]) > 1 else 0
    cg = bounds[-1][-1] if len(bounds[-1]) > 1 else 0
    if t.rank > 2:
        rg = 0
    m = t.to_affine()
    scene = box_scene(str(t), lambda *crd: np.stack(m.evaluate(*crd), axis=-1), t.shape, max_cells=max_cells,
                      row_group=rg, col_group=cg, labels=labels)
    scene.kind = "tsl"
    return scene


def affine_scene(m, shape, *, max_cells=DEFAULT_MAX_CELLS, symbols=(), labels=True):
    """An affine map's results over the box ``shape`` (one label per point: the results joined by commas).

    >>> from unilayout import affine
    >>> affine_scene(affine.parse("(d0) -> (d0 floordiv 2, d0 mod 2)"), (4,)).labels.tolist()
    [['0,0', '0,1', '1,0', '1,1']]
    """
    from ..affine import AffineMap

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
