"""Height / width sharding over a 2-D grid of cores: the shards of a one-column (one-row) grid, laid row-major.

tt-mlir prints a TTNN layout height-sharded over twelve cores as
``<6x2>, memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>``:
the rows are cut into ``6 * 2 = 12`` shards of whole rows (``ceilDiv(rows,
12)`` each; width sharding cuts the columns), and shard ``k`` sits on core
``(k div 2, k mod 2)`` of the grid, row-major (the ``ttnn_metal_layout_cast``
of such a tensor is ``tensor<12x1x1x1x!ttcore.tile<32x32, bf16>>``). So the
data move as a metal layout on the *virtual* grid ``12x1`` (``1x12``) does,
and the 12 shards are then seen as ``6x2``: the same bytes, row-major.

>>> import numpy as np
>>> from unilayout import tt
>>> L = tt.parse("tensor<384x32xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <6x2>, "
...              "memref<1x1x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, <height_sharded>>>")
>>> L.shard_shape, L.locate(100, 5)          # row 100 is in shard 3 = core (1, 1), its row 4
((32, 32), ((1, 1), (4, 5)))
"""

from __future__ import annotations

import numpy as np

from ...errors import LayoutError
from ..metal.metal import MetalLayout
from ..metal.shard import PaddingSummary

__all__ = ["VirtualGrid"]


class VirtualGrid:
    """The placement of a height/width-sharded TTNN layout ``L`` on its 2-D grid, through the virtual grid.

    >>> from unilayout.tt import TTNNTensorLayout
    >>> L = TTNNTensorLayout((96, 32), "(d0, d1) -> (d0, d1)", (2, 3), buffer_type="l1",
    ...                      memory_layout="height_sharded")
    >>> VirtualGrid(L, (6, 1)).locate((50, 0))
    ((1, 0), (2, 0))
    """

    def __init__(self, layout, virtual):
        self.layout = layout
        self.virtual = tuple(virtual)
        self.metal = MetalLayout(layout.logical_shape, layout.linear, self.virtual, layout.element_type,
                                 layout.memory_space, "undef", layout.tile, layout.tile_dtype)

    def _core(self, G):
        k = G[0] if self.virtual[1] == 1 else G[1]
        return divmod(k, self.layout.grid[1])

    def shard(self, array, out=None):
        """``metal.shard`` into the virtual grid's shards, seen as the 2-D grid (a reshape, no copy)."""
        if out is None:
            return self.metal.shard(array).reshape(self.layout.shards_shape)
        self.metal.shard(array, out=self._as_virtual(out, "shard"))
        return out

    def _as_virtual(self, arr, what):
        if not isinstance(arr, np.ndarray) or arr.shape != self.layout.shards_shape:
            got = arr.shape if isinstance(arr, np.ndarray) else type(arr).__name__
            raise LayoutError(f"{what}: expected an array of shape {self.layout.shards_shape}, got {got}")
        return arr.reshape(self.metal.shards_shape)

    def unshard(self, shards, out=None):
        """The tensor back from the 2-D grid's shards."""
        return self.metal.unshard(self._as_virtual(shards, "unshard"), out=out)

    def padding_mask(self):
        """``metal.padding_mask`` seen as the 2-D grid."""
        return self.metal.padding_mask().reshape(self.layout.shards_shape)

    def padding_summary(self):
        """``metal.padding_summary`` with its per-core arrays on the 2-D grid."""
        p = self.metal.padding_summary()
        g = self.layout.grid
        return PaddingSummary(p.extent.reshape(g + (-1,)), p.padding.reshape(g + (-1,)), p.slots.reshape(g), p.total)

    def index_map(self):
        """Flat slot positions: the virtual grid's, unchanged (the reshape keeps row-major order)."""
        return self.metal.index_map()

    def locate(self, index):
        """Logical index -> ``(core on the 2-D grid, shard coordinate)``."""
        G, q = self.metal.locate(*index)
        return self._core(G), q

    def logical_index(self, grid_coord, shard_coord):
        """``(G, q)`` on the 2-D grid -> the logical index there, or None for padding."""
        G = tuple(grid_coord)
        gy, gx = self.layout.grid
        if len(G) != 2 or not (0 <= G[0] < gy and 0 <= G[1] < gx):
            raise LayoutError(f"grid coordinate {grid_coord} is outside the grid {gy}x{gx}")
        k = G[0] * gx + G[1]
        v = (k, 0) if self.virtual[1] == 1 else (0, k)
        return self.metal.logical_index(v, shard_coord)
