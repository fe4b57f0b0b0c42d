"""The picture of a TSL: its addresses over its index box, innermost tiles separated by gaps.

The box is folded to rows x last dim (row-major), each cell labelled with the
layout's address there and ``data-index`` its row-major position (the domain
order of ``index_map``).

>>> from unilayout import tsl
>>> s = tsl_scene(tsl.parse("#tsl.tsl<[2, 2] -> (8, 2), [2, 2] -> (4, 1), offset: 5>"))
>>> s.labels.tolist()
[['5', '6', '9', '10'], ['7', '8', '11', '12'], ['13', '14', '17', '18'], ['15', '16', '19', '20']]

What a cell is in the explorer (``tsl_cells``, the record's ``cells`` hook):
a point of the index box (last dim across), ``data-index`` its row-major
position, its details the coordinate, its tile (every level but the
innermost) and the address.

>>> c = tsl_cells(tsl.parse("#tsl.tsl<[2, 2] -> (8, 2), [2, 2] -> (4, 1), offset: 5>"))
>>> c.columns["address"][:4].tolist(), c.columns["tile coordinate"][:4]
([5, 6, 9, 10], ['(0, 0)', '(0, 0)', '(0, 1)', '(0, 1)'])
"""

from __future__ import annotations

import math

import numpy as np

from .._family import Cells
from ..draw.cells import box_block, fmts, same
from ..draw.grid import box_scene
from ..draw.scene import DEFAULT_MAX_CELLS
from ..errors import LayoutError
from .layout import TiledStridedLayout

__all__ = ["tsl_scene", "tsl_cells"]


def tsl_scene(t, *, max_cells=DEFAULT_MAX_CELLS, labels=True):
    """A static TSL's addresses over its box (offset included), innermost tiles separated.

    >>> from unilayout import tsl
    >>> tsl_scene(tsl.parse("[2, 4] -> (32, 4), [2, 4] -> (16, 1)")).shape
    (8, 8)
    """
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


def tsl_cells(t, *, details=True) -> Cells:
    """The explorer's cells of a static TSL: the points of its box (cropped to its top-left block)."""
    if t.is_dynamic:
        raise LayoutError(f"{t} has '?' bounds or steps: the explorer draws static layouts only")
    shape = tuple(math.prod(ts.bounds) for ts in t.tstrides)
    c = Cells(t, title=f"TSL {t}", text=str(t), total=math.prod(shape),
              summary=f"tiled-strided layout over {'x'.join(map(str, shape))}, offset {t.offset}")
    if not details:
        return c
    idx, c.note = box_block(shape, f"TSL {t}")
    n = idx.size
    crds = np.unravel_index(idx, shape)
    if c.note:
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
    c.index = idx
    c.columns = {"index": idx, "coordinate": fmts(crds, n), "tile coordinate": fmts(tiles, n),
                 "address": np.asarray(addr, dtype=np.int64).reshape(-1)}
    c.groups = {"tile": tile_keys, "address": same(addr)}
    return c
