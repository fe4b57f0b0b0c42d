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
from .tpu import TpuTiledLayout, VectorLayout

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
             SwizzleTransform, VectorLayout, TpuTiledLayout)
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
        if isinstance(v, (SmemLayout, TpuTiledLayout)):
            return self._concrete(v, shape).offsets().reshape(-1)
        o = v.owners(shape)
        if isinstance(v, VectorLayout):
            import numpy as np  # lazy: numpy, kept out of the record's import (the registry loads it for a text)

            return np.stack([o["vreg"], o["sublane"], o["lane"], o["packed"]], axis=1)
        import numpy as np  # lazy: numpy, kept out of the record's import (the registry loads it for a text)

        return np.stack([o["thread"], o["value"]], axis=1)

    def box(self, v):
        if isinstance(v, (WGStridedFragLayout, WGSplatFragLayout, SmemLayout, Fragmented)):
            return tuple(v.shape)
        if isinstance(v, TpuTiledLayout) and v.shape is not None:
            return v.shape
        return None

    def default_shape(self, v):
        if isinstance(v, TiledLayout):
            return tuple(v.base_tile_shape)
        if isinstance(v, VectorLayout):  # one vreg's slice of the array
            rows, cols = v.vreg_slice
            rows = 1 if v.offsets[0] == "*" else rows
            cols = 1 if v.offsets[1] == "*" else cols
            return {None: (rows, cols), -1: (rows,), -2: (cols,), -3: (1,)}[v.implicit_dim]
        if isinstance(v, TpuTiledLayout):  # one tile
            first = v.tiles[0] if v.tiles else ()
            return (1,) * (len(v.tile_strides) - len(first)) + tuple(first)
        return None

    def _concrete(self, v, shape):
        if isinstance(v, TpuTiledLayout) and v.shape is None:
            return v.with_shape(self._shape(v, shape))
        return v

    def with_shape(self, v, shape):
        if isinstance(v, TpuTiledLayout):
            return v.with_shape(shape)
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
        if isinstance(v, VectorLayout):
            d.update(bitwidth=v.bitwidth, packing=v.packing, vreg_slice=list(v.vreg_slice),
                     tiles_per_vreg=v.tiles_per_vreg, vregs=list(v.tile_array_shape(shape)))
            return d
        if isinstance(v, (TpuTiledLayout, SmemLayout)):
            v = self._concrete(v, shape)
            if isinstance(v, SmemLayout):
                d.update(buffer_shape=list(v.buffer_shape), dtype=v.dtype)
            if d["size"] > MAX_TABULATE:
                d["note"] = f"size {d['size']:,} is above {MAX_TABULATE:,}: offsets not tabulated"
                return d
            offs = v.offsets().reshape(-1)
            table_facts(d, offs, 0, int(offs.max()) if offs.size else 0)
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
        if isinstance(v, (SmemLayout, TpuTiledLayout)):
            offs = self._concrete(v, shape).offsets().reshape(-1)
            return [("buffer offsets (row-major; rows x last dim)", grid_text(offs, shape))]
        o = v.owners(shape)
        if isinstance(v, VectorLayout):
            return [(f"{k} of each element (row-major; rows x last dim)", grid_text(o[k], shape))
                    for k in ("vreg", "sublane", "lane", "packed")]
        return [("thread of each element (row-major; rows x last dim)", grid_text(o["thread"], shape)),
                ("value of each element (register * vector_length + element)", grid_text(o["value"], shape))]

    def picture(self, v, *, color=None, shape=None, max_cells=None, labels=True, **rest):
        from .._family import only_options  # lazy: kept beside its one use
        from ..draw import DEFAULT_MAX_CELLS  # lazy: the drawing kit loads only when a value is drawn

        only_options(self.name, rest)
        if isinstance(v, (VectorLayout, TpuTiledLayout)):
            _picture()._check_size(self._shape(v, shape))
            return super().picture(self._concrete(v, shape), shape=self._shape(v, shape), max_cells=max_cells,
                                   labels=labels, color=color)
        return _picture().mosaic_scene(v, self._shape(v, shape), color, max_cells=max_cells or DEFAULT_MAX_CELLS,
                                       labels=labels)

    def cells(self, v, shape=None, *, details=True):
        if isinstance(v, (VectorLayout, TpuTiledLayout)):
            if details:
                _picture()._check_size(self._shape(v, shape))
            return super().cells(self._concrete(v, shape), self._shape(v, shape), details=details)
        return _picture().mosaic_cells(v, self._shape(v, shape), details=details)

    def size(self, v, shape=None):
        if isinstance(v, (TileTransform, SwizzleTransform)):
            return 0
        return math.prod(self._shape(v, shape))

    def rank(self, v):
        return 2


MOSAIC = MosaicFamily()
FAMILY = MOSAIC
