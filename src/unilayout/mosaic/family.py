"""The Mosaic GPU family's record: register layouts of JAX Pallas on GPUs, and shared buffers, for the registry.

A register layout (``TiledLayout``, ``WGStridedFragLayout``,
``WGSplatFragLayout``) maps each element of an array to the thread and value
that hold it: ``index_map(v, shape)`` gives, row-major over ``shape``, the
pair ``(thread, value)`` of its first holder (thread ``32 * warp + lane``,
value ``register * vector_length + element``). A ``TiledLayout`` has no shape
of its own: without one it is shown on its base tile (``WGMMA``: 64x8). A
shared buffer (``SmemLayout``) maps each element to its offset.

>>> from unilayout import mosaic
>>> M = MOSAIC
>>> M.index_map(mosaic.WGMMA)[[0, 72]].tolist(), M.facts(mosaic.WGMMA, None)["registers_shape"]
([[0, 0], [4, 2]], [1, 1, 1, 1, 2, 1, 1, 1, 1])
"""

from __future__ import annotations

import math

from .._family import Family
from .._measures import MAX_TABULATE, table_facts
from ..draw.table import grid_text, too_big
from ..errors import LayoutError
from .frag import Fragmented, WGSplatFragLayout, WGStridedFragLayout
from .layout import TiledLayout
from .smem import SmemLayout, SwizzleTransform, TileTransform
from .text import parse_mosaic

__all__ = ["MOSAIC", "MosaicFamily"]

_REGISTER = (TiledLayout, WGStridedFragLayout, WGSplatFragLayout)


def _picture():
    """This family's ``picture`` module, imported when a value is first drawn: reading a text loads no drawing kit."""
    from . import picture  # lazy: import time (the first parse of a text does not load the pictures)

    return picture


class MosaicFamily(Family):
    """Mosaic GPU register layouts (thread and value of each element) and shared buffers (offset of each element)."""

    name = "mosaic"
    types = (TiledLayout, WGStridedFragLayout, WGSplatFragLayout, Fragmented, SmemLayout, TileTransform,
             SwizzleTransform)
    conversions = ("linear", "cute")

    def parse(self, text, **given):
        return parse_mosaic(text)

    def _shape(self, v, shape):
        """The array ``v`` is evaluated on: ``shape``, else its own, else its base tile."""
        if isinstance(v, (TileTransform, SwizzleTransform)):
            raise LayoutError(f"{v} is a transform of a shared buffer: build mosaic.SmemLayout(shape, [transforms], "
                              "dtype) to evaluate it")
        if shape is not None:
            return tuple(int(s) for s in shape)
        own = self.box(v)
        return own if own is not None else self.default_shape(v)

    def index_map(self, v, shape=None):
        shape = self._shape(v, shape)
        if isinstance(v, SmemLayout):
            return v.offsets().reshape(-1)
        o = v.owners(shape)
        import numpy as np  # lazy: numpy, kept out of the record's import (the registry loads it for a text)

        return np.stack([o["thread"], o["value"]], axis=1)

    def box(self, v):
        if isinstance(v, (WGStridedFragLayout, WGSplatFragLayout, SmemLayout, Fragmented)):
            return tuple(v.shape)
        return None

    def default_shape(self, v):
        return tuple(v.base_tile_shape) if isinstance(v, TiledLayout) else None

    def with_shape(self, v, shape):
        if isinstance(v, (TiledLayout, Fragmented)):
            return Fragmented(v, shape)
        if isinstance(v, _REGISTER) and tuple(shape) != v.shape:
            raise LayoutError(f"{v} is a layout of shape {v.shape}, not {tuple(shape)}")
        return v

    def facts(self, v, shape):
        if isinstance(v, (TileTransform, SwizzleTransform)):
            return {"note": "a shared-memory transform: give it a buffer (mosaic.SmemLayout) to tabulate it"}
        shape = self._shape(v, shape)
        d = {"shape": list(shape), "size": math.prod(shape)}
        if isinstance(v, SmemLayout):
            d.update(buffer_shape=list(v.buffer_shape), dtype=v.dtype)
            table_facts(d, v.offsets().reshape(-1), 0, d["size"] - 1)
            return d
        d["registers_shape"] = list(v.registers_shape(shape))
        d["vector_length"] = int(v.vector_length)
        d["values_per_thread"] = math.prod(d["registers_shape"]) * int(v.vector_length)
        d["replication"] = int(v.replication_factor)
        base = v.layout if isinstance(v, Fragmented) else v
        if isinstance(base, TiledLayout):
            d["base_tile"] = list(base.base_tile_shape)
        if d["size"] > MAX_TABULATE:
            d["note"] = f"size {d['size']:,} is above {MAX_TABULATE:,}: holders not tabulated"
        return d

    def tables(self, v, shape, max_cells):
        if isinstance(v, (TileTransform, SwizzleTransform)):
            return []
        shape = self._shape(v, shape)
        n = math.prod(shape)
        if n > max_cells:
            return [too_big("thread:value", n, max_cells)]
        if isinstance(v, SmemLayout):
            return [("buffer offsets (row-major; rows x last dim)", grid_text(v.offsets().reshape(-1), shape))]
        o = v.owners(shape)
        return [("thread of each element (row-major; rows x last dim)", grid_text(o["thread"], shape)),
                ("value of each element (register * vector_length + element)", grid_text(o["value"], shape))]

    def picture(self, v, *, color=None, shape=None, max_cells=None, labels=True, **rest):
        from .._family import only_options  # lazy: kept beside its one use
        from ..draw import DEFAULT_MAX_CELLS  # lazy: the drawing kit loads only when a value is drawn

        only_options(self.name, rest)
        return _picture().mosaic_scene(v, self._shape(v, shape), color, max_cells=max_cells or DEFAULT_MAX_CELLS,
                                       labels=labels)

    def cells(self, v, shape=None, *, details=True):
        return _picture().mosaic_cells(v, self._shape(v, shape), details=details)

    def size(self, v, shape=None):
        if isinstance(v, (TileTransform, SwizzleTransform)):
            return 0
        return math.prod(self._shape(v, shape))

    def rank(self, v):
        return 2


MOSAIC = MosaicFamily()
FAMILY = MOSAIC
