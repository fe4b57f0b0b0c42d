"""The affine family's record: MLIR affine maps, which have no box of their own (the caller gives ``shape``).

The hub of the families: every family may give its exact ``to_affine``, and
``convert`` reaches any box family through it.

>>> from unilayout import affine
>>> m = affine.parse("(d0, d1) -> (d1, d0)")
>>> AFFINE.box(m) is None, AFFINE.size(m, (2, 3)), AFFINE.rank(m)
(True, 6, 4)
>>> AFFINE.facts(m, (2, 2))["injective"]
True
"""

from __future__ import annotations

import math

import numpy as np

from .._family import Family, only_options
from .._measures import MAX_TABULATE, vector_width
from ..draw.table import grid_text
from ..errors import LayoutError
from .map import AffineMap
from .quasi_affine import affine_maps_equal
from .text import parse

__all__ = ["AFFINE", "AffineFamily"]

def _picture():
    """This family's ``picture`` module, imported when a value is first drawn: reading a text loads no drawing kit."""
    from . import picture  # lazy: import time (the first parse of a text does not load the pictures)

    return picture




class AffineFamily(Family):
    """``AffineMap`` values: ``affine_map<..>`` or any text holding ``->``; tabulated over the box ``shape``."""

    name, types = "affine", (AffineMap,)

    def parse(self, text, **given):
        return parse(text)

    def index_map(self, m, shape=None):
        return m.index_map(shape)

    def box(self, m):
        return None

    def facts(self, m, shape):
        d = {"num_dims": int(m.num_dims), "num_symbols": int(m.num_symbols), "num_results": int(m.num_results)}
        if shape is None:
            d["note"] = "an affine map has no box of its own: give --shape (e.g. --shape 8x8) to tabulate it"
            return d
        shape = tuple(int(s) for s in shape)
        if len(shape) != m.num_dims:
            raise LayoutError(f"shape {'x'.join(map(str, shape))} has {len(shape)} sizes but the map has "
                              f"{m.num_dims} dims")
        d["shape"] = list(shape)
        d["size"] = int(np.prod(shape, dtype=np.int64))
        if m.num_symbols:
            d["note"] = "the map has symbols: not tabulated"
            return d
        d["bounds"] = [list(b) for b in m.bounds(shape)]
        if d["size"] > MAX_TABULATE:
            d["note"] = f"size {d['size']:,} is above {MAX_TABULATE:,}: injectivity and contiguity not tabulated"
            return d
        vals = m.index_map(shape)
        d["injective"] = bool(np.unique(vals, axis=0).shape[0] == vals.shape[0])
        if m.num_results == 1:
            d["contiguity"] = vector_width(vals[:, 0])
        return d

    def checks(self, m, facts):
        return []

    def tables(self, m, shape, max_cells):
        if shape is None or m.num_symbols or int(np.prod(shape)) > max_cells:
            return []
        return [("values (row-major box; rows x last dim)", grid_text(m.index_map(tuple(shape)), tuple(shape)))]

    def picture(self, m, *, shape=None, max_cells, labels=True, **rest):
        only_options(self.name, rest)
        return _picture().affine_scene(m, shape, max_cells=max_cells, labels=labels is not False)

    def cells(self, m, shape=None, *, details=True):
        return _picture().affine_cells(m, shape, details=details)

    def default_shape(self, m):
        """8 points per dim for up to 2 dims, else 4 (a notebook's picture of a map).

        >>> AFFINE.default_shape(parse("(d0, d1) -> (d1, d0)")), AFFINE.default_shape(parse("(d0, d1, d2) -> (d0)"))
        ((8, 8), (4, 4, 4))
        """
        return (8,) * m.num_dims if m.num_dims <= 2 else (4,) * m.num_dims

    def size(self, m, shape=None):
        box = shape if shape is not None else self.default_shape(m)
        return math.prod(int(s) for s in box)

    def rank(self, m):
        return m.num_dims + m.num_symbols + m.num_results

    def to_affine(self, m):
        return m

    def same(self, a, b, shape):
        """Without a box, exactly over all integers (``affine_maps_equal``); on a box, by the tables."""
        return affine_maps_equal(a, b) if shape is None else None

    def box_rank(self, m):
        if m.num_symbols:
            raise LayoutError(f"equivalent: {m} has symbols: substitute them first")
        return m.num_dims


AFFINE = AffineFamily()
FAMILY = AFFINE
