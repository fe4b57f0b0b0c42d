"""The TileLang family's record: ``Layout(...)`` (an input box -> an output coordinate) and ``Fragment(...)``
(an input box -> the thread holding each element and its place in the thread's buffer).

The domain is the input shape (row-major). A ``Layout``'s value at a point is
its output coordinate flattened row-major over the output shape (a buffer
offset); a ``Fragment``'s is ``(thread, local index)`` of its first replica.

>>> L = TILELANG.parse("Layout((2, 4) -> (8,), transform: (_i, _j) -> (_j * 2 + _i,))")
>>> TILELANG.box(L), TILELANG.index_map(L).tolist(), TILELANG.facts(L, None)["bijective"]
((2, 4), [0, 2, 4, 6, 1, 3, 5, 7], True)
"""

from __future__ import annotations

import math

from .._family import Family, only_options
from .._measures import MAX_TABULATE, table_facts
from ..draw.table import grid_text
from .layout import Fragment, Layout, parse

__all__ = ["TILELANG", "TileLangFamily"]


def _picture():
    """This family's ``picture`` module, imported when a value is first drawn: reading a text loads no drawing kit."""
    from . import picture  # lazy: import time (the first parse of a text does not load the pictures)

    return picture


class TileLangFamily(Family):
    """TileLang ``Layout`` and ``Fragment`` values (``tilelang.layout``)."""

    name, types = "tilelang", (Layout, Fragment)
    conversions = ("cute", "linear")

    def parse(self, text, **given):
        return parse(text)

    def index_map(self, x, shape=None):
        self.refuse_shape(shape)
        return x.offsets() if isinstance(x, Layout) else x.index_map()

    def box(self, x):
        return tuple(x.input_shape)

    def facts(self, x, shape):
        d = {"kind": type(x).__name__, "input_shape": list(x.input_shape),
             "output_shape": ["pos_inf" if v is None else v for v in x.output_shape], "size": x.size}
        if isinstance(x, Fragment):
            d.update(replicate=x.replicate, thread_extent=x.thread_extent if x.thread_extent is not None else "pos_inf")
            if x.thread_range:
                d["thread_range"] = list(x.thread_range)
        if x.size > MAX_TABULATE:
            d["note"] = f"size {x.size:,} is above {MAX_TABULATE:,}: injectivity and contiguity not tabulated"
            return d
        if isinstance(x, Layout):
            offs = x.offsets()
            cosize = math.prod(v for v in x.output_shape if v is not None) if None not in x.output_shape else None
            table_facts(d, offs, 0, (cosize - 1) if cosize else int(offs.max()) if offs.size else 0)
        return d

    def tables(self, x, shape, max_cells):
        if x.size > max_cells:
            return [("values", f"(not shown: {x.size:,} cells > {max_cells:,})")]
        if isinstance(x, Layout):
            return [("buffer offsets (row-major; rows x last dim)", grid_text(x.offsets(), x.input_shape))]
        m = x.index_map()
        return [("thread (first replica)", grid_text(m[:, 0], x.input_shape)),
                ("index in the thread's buffer", grid_text(m[:, 1], x.input_shape))]

    def picture(self, x, *, max_cells, labels=True, **rest):
        only_options(self.name, rest)
        return _picture().tilelang_scene(x, max_cells=max_cells, labels=labels is not False)

    def cells(self, x, shape=None, *, details=True):
        return _picture().tilelang_cells(x, details=details)


TILELANG = TileLangFamily()
FAMILY = TILELANG
