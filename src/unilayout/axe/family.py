"""The axe family's record: TIRx ``TileLayout``/``ComposeLayout`` values, a logical box -> named-axis coordinates.

The domain is the shard extents (row-major, TIRx's default shape). The value
at a point is its coordinates on ``layout.axes`` (TIRx's ``apply`` keys, the
first replica), so ``index_map`` is int64 ``(size, len(axes))``.

>>> L = AXE.parse("S[(2,4):(1@warpid,1@laneid)] + 3@m")
>>> AXE.box(L), AXE.index_map(L)[5].tolist(), AXE.facts(L, None)["axes"]
((2, 4), [1, 1, 3], ['warpid', 'laneid', 'm'])
"""

from __future__ import annotations

import numpy as np

from .._family import Family, only_options
from .._measures import MAX_TABULATE
from ..draw.table import grid_text
from .layout import ComposeLayout, TileLayout
from .text import parse

__all__ = ["AXE", "AxeFamily"]


def _picture():
    """This family's ``picture`` module, imported when a value is first drawn."""
    from . import picture  # lazy: import time (reading a text loads no drawing kit)

    return picture


class AxeFamily(Family):
    """TVM TIRx (Axe) named-axis layouts (``unilayout.axe``)."""

    name, types = "axe", (TileLayout, ComposeLayout)
    conversions = ("cute", "linear")

    def parse(self, text, **given):
        return parse(text)

    def index_map(self, x, shape=None):
        self.refuse_shape(shape)
        return x.table()

    def box(self, x):
        return tuple(x.box)

    def facts(self, x, shape):
        d = {"kind": type(x).__name__, "box": list(x.box), "size": x.size, "axes": list(x.axes),
             "replicas": x.replicas, "tirx": x.to_tirx()}
        tile = x.tile_layout if isinstance(x, ComposeLayout) else x
        if tile.offset:
            d["offset"] = dict(tile.offset)
        d["span"] = {a: tile.span(a) for a in x.all_axes}
        if x.size > MAX_TABULATE:
            d["note"] = f"size {x.size:,} is above {MAX_TABULATE:,}: injectivity not tabulated"
            return d
        t = x.table()
        d["injective"] = bool(len(np.unique(t, axis=0)) == len(t)) if t.size else True
        return d

    def tables(self, x, shape, max_cells):
        if x.size > max_cells:
            return [("values", f"(not shown: {x.size:,} cells > {max_cells:,})")]
        t = x.table()
        rows, cols = _picture().view(x)
        return [(f"{a} (the logical index row-major, {rows} x {cols})", grid_text(t[:, k], (rows, cols)))
                for k, a in enumerate(x.axes)]

    def picture(self, x, *, max_cells=None, labels=True, color=None, **rest):
        only_options(self.name, rest)
        pic = _picture()
        return pic.axe_scene(x, color=color, max_cells=max_cells or pic.DEFAULT_MAX_CELLS, labels=labels is not False)

    def cells(self, x, shape=None, *, details=True):
        return _picture().axe_cells(x, details=details)


AXE = AxeFamily()
FAMILY = AXE
