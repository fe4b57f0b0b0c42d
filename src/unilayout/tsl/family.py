"""The TSL family's record: snax tiled-strided layouts, addresses over their index box (row-major).

A TSL with ``?`` values has no box until a ``--shape`` resolves it
(``with_shape``).

>>> from unilayout import tsl
>>> t = tsl.parse("#tsl.tsl<[2] -> (1), [3] -> (2)>")
>>> TSL.box(t), TSL.index_map(t, None).tolist(), TSL.rank(t)
((2, 3), [0, 2, 4, 1, 3, 5], 2)
>>> TSL.with_shape(tsl.parse("#tsl.tsl<[?] -> (1)>"), (8,)).shape
(8,)
"""

from __future__ import annotations

import math

from .._family import Family, only_options
from .._measures import MAX_TABULATE, longest_run, vector_width
from ..draw.table import grid_text
from ..errors import LayoutError
from .layout import TiledStridedLayout
from .text import parse

__all__ = ["TSL", "TslFamily"]

def _picture():
    """This family's ``picture`` module, imported when a value is first drawn: reading a text loads no drawing kit."""
    from . import picture  # lazy: import time (the first parse of a text does not load the pictures)

    return picture



class TslFamily(Family):
    """``TiledStridedLayout`` values: ``#tsl.tsl<..>`` or a bare body ``[..] -> (..)``."""

    name, types = "tsl", (TiledStridedLayout,)

    def parse(self, text, **given):
        return parse(text)

    def index_map(self, t, shape=None):
        if shape is not None:
            t = t.resolve(shape)
        return t.index_map().reshape(-1)  # the family gives the box's shape; the top level is (N,)

    def box(self, t):
        return None if t.is_dynamic else tuple(t.shape)

    def with_shape(self, t, shape):
        return t.resolve(tuple(shape)) if t.is_dynamic else t

    def facts(self, t, shape):
        d = {"offset": t.offset, "dynamic": bool(t.is_dynamic)}
        if t.is_dynamic:
            d["note"] = "the layout has '?' values: not tabulated (resolve it for a shape)"
            return d
        d["shape"] = list(t.shape)
        d["size"] = int(t.size)
        try:
            d["dense"] = bool(t.is_dense())
            d["injective"] = not bool(t.self_overlaps())
        except LayoutError as e:  # too many points to decide by table
            d["note"] = f"density and injectivity not decided: {e}"
            return d
        if t.size <= MAX_TABULATE:
            vals = t.index_map()
            d["addresses"] = [int(vals.min()), int(vals.max())] if vals.size else []
            d["contiguity"] = vector_width(vals)
            d["longest_run"] = longest_run(vals)
        return d

    def checks(self, t, facts):
        if facts["dynamic"]:
            return [{"check": "static", "ok": True, "detail": "has '?' values (resolved at lowering)"}]
        return [{"check": "no self-overlap", "ok": True, "detail": "yes" if facts["injective"] else "no"}]

    def tables(self, t, shape, max_cells):
        if t.is_dynamic or t.size > max_cells:
            return [("addresses", f"(not shown: {'dynamic' if t.is_dynamic else f'{t.size:,} points'})")]
        return [("addresses (row-major box; rows x last dim)", grid_text(t.index_map(), t.shape))]

    def picture(self, t, *, max_cells, labels=True, **rest):
        only_options(self.name, rest)
        return _picture().tsl_scene(t, max_cells=max_cells, labels=labels is not False)

    def cells(self, t, shape=None, *, details=True):
        return _picture().tsl_cells(t, details=details)

    def size(self, t, shape=None):
        return 0 if t.is_dynamic else math.prod(math.prod(ts.bounds) for ts in t.tstrides)

    def rank(self, t):
        return sum(len(ts.strides) for ts in t.tstrides)

    def box_rank(self, t):
        return t.rank

    def to_affine(self, t):
        return t.to_affine()


TSL = TslFamily()
FAMILY = TSL
