"""The picture of a TSL: its addresses over its index box, innermost tiles separated by gaps.

The box is folded to rows x last dim (row-major), each cell labelled with the
layout's address there and ``data-index`` its row-major position (the domain
order of ``index_map``).

>>> from unilayout import tsl
>>> s = tsl_scene(tsl.parse("#tsl.tsl<[2, 2] -> (8, 2), [2, 2] -> (4, 1), offset: 5>"))
>>> s.labels.tolist()
[['5', '6', '9', '10'], ['7', '8', '11', '12'], ['13', '14', '17', '18'], ['15', '16', '19', '20']]
"""

from __future__ import annotations

import numpy as np

from ..draw.grid import box_scene
from ..draw.scene import DEFAULT_MAX_CELLS
from ..errors import LayoutError
from .layout import TiledStridedLayout

__all__ = ["tsl_scene"]


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
