"""The XLA family's cells: what the browser explorer shows of an XLA layout, element by element.

What a cell is in the explorer (``xla_cells``, the record's ``cells`` hook):
an element of the array (its dims, last dim across; the top-left block above
``draw.cells.MAX_CELLS``), ``data-index`` its row-major position, its details
the element and its offset in the (tiled, possibly padded) buffer. The
picture is the record's own (``XLA.picture``: the buffer offset over the dims).

>>> from unilayout import xla
>>> c = xla_cells(xla.parse("f32[3,5]{1,0:T(2,2)}"))
>>> list(c.columns), c.columns["buffer offset"][:5].tolist(), c.columns["element (d0, d1)"][2]
(['index', 'element (d0, d1)', 'buffer offset'], [0, 1, 4, 5, 8], '(0, 2)')
"""

from __future__ import annotations

import math

import numpy as np

from .._family import Cells
from ..draw.cells import box_block, fmts, same

__all__ = ["xla_cells"]


def xla_cells(x, *, details=True) -> Cells:
    """The explorer's cells of an ``XlaLayout``: each element (row-major) and its buffer offset."""
    dims = tuple(int(d) for d in x.dims)
    shown = "x".join(map(str, dims))
    c = Cells(x, title=f"XLA layout {x}: buffer offset of each element", text=str(x), summary="xla layout",
              total=math.prod(dims))
    if not details:
        return c
    idx, c.note = box_block(dims, f"the box {shown}")
    n = idx.size
    crds = np.unravel_index(idx, dims) if dims else ()
    if c.note:  # a cropped block: its offsets only, through the exact affine map
        offs = np.broadcast_to(np.asarray(x.to_affine().evaluate(*crds)[0], dtype=np.int64), (n,))
    else:
        offs = np.asarray(x.offsets(), dtype=np.int64).reshape(-1)
    c.index = idx
    c.columns = {"index": idx, "element (" + ", ".join(f"d{i}" for i in range(len(dims))) + ")": fmts(crds, n),
                 "buffer offset": offs}
    c.groups = {"value": same(offs), "result 0": offs}
    return c
