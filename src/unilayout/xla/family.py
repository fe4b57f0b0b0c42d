"""The XLA family's record: XLA shapes with a layout (``f32[128,256]{1,0:T(8,128)}``), their buffer offsets.

The domain is the shape's dims (row-major), a value the element's offset in
the (tiled, possibly padded) buffer; ``to_affine`` is exact.

>>> x = XLA.parse("f32[3,5]{1,0:T(2,2)}")
>>> XLA.box(x), XLA.index_map(x)[:5].tolist(), XLA.facts(x, None)["padded"]
((3, 5), [0, 1, 4, 5, 8], True)
"""

from __future__ import annotations

import math

import numpy as np

from .._family import Family, only_options
from .._measures import MAX_TABULATE, table_facts
from ..draw.grid import box_scene
from ..draw.table import grid_text
from .layout import XlaLayout
from .text import parse_xla_layout

__all__ = ["XLA", "XlaFamily"]

def _picture():
    """This family's ``picture`` module, imported when a value is first drawn: reading a text loads no drawing kit."""
    from . import picture  # lazy: import time (the first parse of a text does not load the pictures)

    return picture



class XlaFamily(Family):
    """``XlaLayout`` values: an XLA shape with its minor-to-major order and tiles."""

    name, types = "xla", (XlaLayout,)
    #: ``show`` lists the value converted to these families (or why not).
    conversions = ("cute", "metal")

    def parse(self, text, **given):
        return parse_xla_layout(text)

    def index_map(self, x, shape=None):
        self.refuse_shape(shape)
        return x.offsets().reshape(-1)

    def box(self, x):
        return tuple(x.dims)

    def facts(self, x, shape):
        d = {"shape": list(x.dims), "element_type": x.element_type, "minor_to_major": list(x.minor_to_major),
             "tiles": [list(t) for t in x.tiles], "buffer_shape": list(x.buffer_shape), "size": math.prod(x.dims),
             "cosize": int(x.storage_size), "padded": bool(x.padded), "affine": str(x.to_affine())}
        if d["size"] > MAX_TABULATE:
            d["note"] = f"size {d['size']:,} is above {MAX_TABULATE:,}: injectivity and contiguity not tabulated"
            return d
        table_facts(d, x.offsets().reshape(-1), 0, d["cosize"] - 1)
        return d

    def tables(self, x, shape, max_cells):
        size = int(np.prod(x.dims, dtype=np.int64))
        if size > max_cells:
            return [("buffer offsets", f"(not shown: {size:,} cells > {max_cells:,})")]
        return [("buffer offsets (row-major; rows x last dim)", grid_text(x.offsets().reshape(-1), x.dims))]

    def picture(self, x, *, max_cells, labels=True, **rest):
        only_options(self.name, rest)
        m = x.to_affine()  # exact: XLA's linear index as floordiv/mod terms
        scene = box_scene(f"XLA layout {x}: buffer offset of each element",
                          lambda *crd: np.stack(np.broadcast_arrays(*m.evaluate(*crd)), axis=-1), tuple(x.dims),
                          max_cells=max_cells, labels=labels is not False)
        scene.kind = "xla"
        return scene

    def cells(self, x, shape=None, *, details=True):
        return _picture().xla_cells(x, details=details)

    def to_affine(self, x):
        return x.to_affine()


XLA = XlaFamily()
FAMILY = XLA
