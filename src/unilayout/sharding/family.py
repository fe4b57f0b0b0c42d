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
>>> SHARDING.box(s), SHARDING.index_map(s).tolist(), SHARDING.form(s, "dtensor")
((4, 2), [0, 0, 0, 0, 2, 2, 2, 2], 'Shard(0), Replicate()  on mesh 2x2')
"""

from __future__ import annotations

import numpy as np

from .._family import Family, only_options
from .._ints import check_table
from ..errors import LayoutError, NotRepresentableError
from .forms import FORMS, conversions, to_text
from .hlo import manual_assignment
from .text import parse
from .value import Sharding

__all__ = ["SHARDING", "ShardingFamily"]

def _picture():
    """This family's ``picture`` module, imported when a value is first drawn: reading a text loads no drawing kit."""
    from . import picture  # lazy: import time (the first parse of a text does not load the pictures)

    return picture



class ShardingFamily(Family):
    """``Sharding`` values: each device's boxes of one tensor."""

    name, types, forms = "sharding", (Sharding,), FORMS

    def parse(self, text, *, shape=None, mesh=None, mesh_shape=None):
        return parse(text, shape, mesh, mesh_shape)

    def with_shape(self, s, shape):
        if tuple(int(n) for n in shape) != tuple(s.shape):
            raise LayoutError(f"the sharding is of a {'x'.join(map(str, s.shape))} tensor, not of shape {shape!r}")
        return s

    def index_map(self, s, shape=None):
        s._global("index_map (the lowest holder of each element of one global array)")
        out = np.full(s.shape, -1, dtype=np.int64)
        check_table(out.size, "index_map of a sharding")
        for d in sorted(s.devices, reverse=True):  # the lowest holder writes last
            for b in s.device_boxes[d]:
                out[tuple(slice(a, z) for a, z in b)] = d
        return out.reshape(-1)

    def box(self, s):
        return tuple(s.shape)

    def canonical(self, s):
        """HLO's text of ``s`` (read back with the tensor's shape), else its first line."""
        try:
            return to_text(s, "hlo", None)
        except NotRepresentableError:
            return str(s).split("\n", 1)[0]

    def facts(self, s, shape):
        d = {"shape": list(s.shape), "devices": s.num_devices, "replicated": any(s.replicated.values()),
             "partial_sums": [list(g) for g in s.sum_groups] if s.has_partial else False,
             "covers": bool(s.covers())}
        if s.manual is not None:  # which devices hold each manual value, and how XLA assigns them
            d["manual_groups"] = [list(g) for g in s.manual.groups]
            try:
                T, R, a = manual_assignment(s)
                d["tile_assignment"] = (
                    f"[{','.join(map(str, a.shape if R > 1 else a.shape[:-1]))}] "
                    f"{','.join(map(str, a.reshape(-1).tolist()))} (tiles {'x'.join(map(str, T)) or 'scalar'} of each "
                    f"value, {len(s.manual)} manual groups" + (f", {R} copies of each tile)" if R > 1 else ")"))
            except NotRepresentableError as e:
                d["tile_assignment"] = f"not representable: {e}"
        return d

    def checks(self, s, facts):
        return [{"check": "covers the tensor (every element on some device)", "ok": facts["covers"], "detail": ""}]

    def tables(self, s, shape, max_cells):
        lines = [f"{name + ':':9s}{text}" for name, text in conversions(s, None).items()]
        return [("blocks", str(s).rstrip("\n")), ("in each vocabulary", "\n".join(lines))]

    def form(self, s, name, *, mesh_shape=None):
        if name not in FORMS:
            raise LayoutError(f"a sharding has no text form {name!r}; choose one of {', '.join(FORMS)}")
        return to_text(s, name, mesh_shape)

    def picture(self, s, *, max_cells, labels=True, **rest):
        only_options(self.name, rest)
        return _picture().sharding_scene(s, max_cells=max_cells)

    canvas = False  # the explorer draws every block with its holders

    def cells(self, s, shape=None, *, details=True):
        c = _picture().sharding_cells(s)
        c.facts += [[k, t] for k, t in conversions(s, None).items()]  # its text in every other vocabulary
        return c

    def rank(self, s):
        return s.rank


SHARDING = ShardingFamily()
FAMILY = SHARDING
