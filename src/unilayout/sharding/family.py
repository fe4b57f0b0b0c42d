"""The sharding family's record: how a tensor is spread over devices (HLO, Shardy, DTensor and TTNN placements).

A sharding text means nothing without the tensor's shape (and, for
placements, the mesh), so ``parse`` takes ``shape`` / ``mesh`` /
``mesh_shape``. The domain is the tensor's box (row-major); the value at an
element is the lowest device id that holds it (-1: none), which is what the
picture colours. ``sharding`` is a family, not a bridge: its values are a
layout of tensors over devices in their own right, read from their own texts;
where it meets metal layouts (``from_metal``) is the bridge
``convert/tt_sharding.py``.

>>> s = SHARDING.parse("{devices=[2,1,2]<=[4] last_tile_dim_replicate}", shape=(4, 2))
>>> SHARDING.box(s), SHARDING.index_map(s).tolist()
((4, 2), [0, 0, 0, 0, 2, 2, 2, 2])
"""

from __future__ import annotations

import numpy as np

from .._family import Family, only_options
from .._ints import check_table
from ..errors import LayoutError
from .command import read
from .picture import sharding_scene
from .value import Sharding

__all__ = ["SHARDING", "ShardingFamily"]


class ShardingFamily(Family):
    """``Sharding`` values: each device's boxes of one tensor."""

    name, types = "sharding", (Sharding,)

    def parse(self, text, *, shape=None, mesh=None, mesh_shape=None):
        kind, value = read(text, shape, mesh, mesh_shape)
        if kind != "sharding":
            raise LayoutError(f"expected a sharding, got an XLA layout: {text.strip()!r}")
        return value

    def with_shape(self, s, shape):
        if tuple(int(n) for n in shape) != tuple(s.shape):
            raise LayoutError(f"the sharding is of a {'x'.join(map(str, s.shape))} tensor, not of shape {shape!r}")
        return s

    def index_map(self, s, shape=None):
        out = np.full(s.shape, -1, dtype=np.int64)
        check_table(out.size, "index_map of a sharding")
        for d in sorted(s.devices, reverse=True):  # the lowest holder writes last
            for b in s.device_boxes[d]:
                out[tuple(slice(a, z) for a, z in b)] = d
        return out.reshape(-1)

    def box(self, s):
        return tuple(s.shape)

    def facts(self, s, shape):
        d = {"shape": list(s.shape), "devices": s.num_devices, "replicated": any(s.replicated.values()),
             "partial_sums": bool(s.has_partial), "covers": bool(s.covers())}
        return d

    def checks(self, s, facts):
        return [{"check": "covers the tensor", "ok": facts["covers"], "detail": ""}]

    def picture(self, s, *, max_cells, labels=True, **rest):
        only_options(self.name, rest)
        return sharding_scene(s, max_cells=max_cells)

    def rank(self, s):
        return s.rank


SHARDING = ShardingFamily()
FAMILY = SHARDING
