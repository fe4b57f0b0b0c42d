"""The tt families' records: metal layouts (``METAL``), devices (``DEVICE``) and TTNN memory configs (``TTNN``).

``METAL`` covers every tensor type that carries a metal layout: v1
``#tt.metal_layout``, v2 ``#ttcore.metal_layout`` and TTNN's
``#ttnn.ttnn_layout`` (their values subclass ``MetalLayout``); the domain is
the logical box (row-major), a value is the element's flat position in
``shard()``'s output. ``DEVICE`` is a ``#tt.device`` / ``#ttcore.device`` worker
grid (values: chip id, core y, core x). ``TTNN`` holds what has no tensor
shape of its own (``#ttnn.memory_config``, ``#ttnn.nd_shard_spec``) or is
ND-sharded (``#ttnn.ttnn_nd_layout``): its facts are its fields, and
``--shape`` (``with_shape``) makes the metal layout it means.

>>> from unilayout import tt
>>> ml = tt.MetalLayout.from_collapse((53, 63), (3, 2))
>>> METAL.box(ml), METAL.facts(ml, None)["padding"]
((53, 63), {'slots': 117, 'fraction': 0.0339})
>>> cfg = TTNN.parse("#ttnn.memory_config<#l1, <block_sharded>, #ttnn.shard_spec<<[#ttnn.core_range<(0,0), (3,1)>]>, "
...                  "<32x64>, <row_major>>>")
>>> TTNN.facts(cfg, None)["cores"], METAL.box(TTNN.with_shape(cfg, (64, 256)))
(8, (64, 256))
"""

from __future__ import annotations

import math

import numpy as np

from .._family import Family, only_options
from .._measures import MAX_TABULATE, longest_run, vector_width
from ..draw.table import grid_text
from ..errors import LayoutError
from .device import Device
from .forms import FORMS, metal_form
from .metal.metal import MetalLayout
from .text import parse
from .ttnn.attr import TTNNLayoutAttr
from .ttnn.facts import config_facts
from .ttnn.memory_config import MemoryConfig
from .ttnn.nd import TTNNNDTensorLayout
from .ttnn.ndshard import NdShardSpec

__all__ = ["METAL", "DEVICE", "TTNN", "MetalFamily", "DeviceFamily", "TtnnConfigFamily"]

def _picture():
    """This family's ``picture`` module, imported when a value is first drawn: reading a text loads no drawing kit."""
    from . import picture  # lazy: import time (the first parse of a text does not load the pictures)

    return picture



class MetalFamily(Family):
    """Metal layouts on tensor types (v1, v2, TTNN): the logical box, each element's place in the shards."""

    name, types, forms = "metal", (MetalLayout,), FORMS

    def parse(self, text, **given):
        return parse(text)

    def index_map(self, ml, shape=None):
        self.refuse_shape(shape)
        return ml.index_map()

    def box(self, ml):
        return tuple(ml.logical_shape)

    def canonical(self, ml):
        return ml.tensor_type()

    def form(self, ml, name, *, mesh_shape=None):
        return metal_form(ml, name).tensor_type()

    def facts(self, ml, shape):
        d = {}
        d["logical_shape"] = list(ml.logical_shape)
        d["element_type"] = ml.element_type
        d["linear"] = str(ml.linear)
        d["grid"] = list(ml.grid)
        d["physical_shape"] = list(ml.physical_shape)
        d["shard_shape"] = list(ml.shard_shape)
        d["memref_shape"] = list(ml.memref_shape)
        d["tile"] = list(ml.tile) if ml.tile else None
        d["memory_space"] = ml.memory_space
        d["oob_val"] = ml.oob_val
        if hasattr(ml, "dim_alignments"):  # tt.MetalLayoutV2
            d["dim_alignments"] = list(ml.dim_alignments)
            d["collapsed_intervals"] = [list(p) for p in ml.collapsed_intervals]
            d["device_shape"] = list(ml.device_shape)
        if hasattr(ml, "buffer_type"):  # tt.TTNNTensorLayout
            d["buffer_type"] = ml.buffer_type
        if hasattr(ml, "memory_layout"):
            d["memory_layout"] = ml.memory_layout
        d["size"] = int(ml.volume)
        slots = int(np.prod(ml.shards_shape, dtype=np.int64))
        d["cosize"] = slots
        if slots > MAX_TABULATE:  # every element one slot (injective): the rest is padding, counted not tabulated
            try:
                ml.check_injective()
                total = slots - int(ml.volume)
                d["padding"] = {"slots": total, "fraction": round(total / slots, 4)}
            except LayoutError as e:
                d["injective"], d["injective_reason"] = False, str(e)
            d["note"] = f"{slots:,} slots: the shards are not tabulated (contiguity not measured)"
            return d
        s = ml.padding_summary()
        d["padding"] = {"slots": int(s.total), "fraction": round(s.total / slots, 4) if slots else 0.0}
        if ml.volume > MAX_TABULATE:
            d["note"] = f"{ml.volume:,} elements: injectivity and contiguity not tabulated"
            return d
        try:
            ml.check_injective()
        except LayoutError as e:
            d["injective"] = False
            d["injective_reason"] = str(e)
            return d
        d["injective"] = True
        flat = ml.index_map()
        d["contiguity"] = vector_width(flat)
        d["longest_run"] = longest_run(flat)
        return d

    def same(self, a, b, shape):
        return a.equivalent(b)

    def values_as(self, ml, table, k):
        """A flat position in ``shard()``'s output as its coordinates there (``k`` = its rank)."""
        if k != len(ml.shards_shape):
            return None
        return np.stack(np.unravel_index(table[:, 0], ml.shards_shape), axis=1).astype(np.int64)

    def checks(self, ml, facts):
        out = [{"check": "memref matches map and grid", "ok": True, "detail": str(ml.memref_shape)}]
        if "injective" in facts:
            out.append({"check": "injective (no two elements share a slot)", "ok": facts["injective"],
                        "detail": facts.get("injective_reason", "")})
        return out

    def tables(self, ml, shape, max_cells):
        slots = math.prod(ml.shards_shape)
        if slots > MAX_TABULATE:  # the per-core extents need the padding mask of every slot
            return [("grid of shards", f"(not tabulated: {slots:,} slots > {MAX_TABULATE:,}; grid "
                                       f"{'x'.join(map(str, ml.grid))}, shard {'x'.join(map(str, ml.shard_shape))})")]
        return [("grid of shards (each core: data extent +padding per dim)", _picture().shard_grid(ml)),
                ("per core", _picture().shard_table(ml))]

    def picture(self, ml, *, max_cells, labels=True, **rest):
        only_options(self.name, rest)
        return _picture().metal_scene(ml, max_cells=max_cells, labels=labels)

    def cells(self, ml, shape=None, *, details=True):
        return _picture().metal_cells(ml, details=details)

    def size(self, ml, shape=None):
        return math.prod(tuple(ml.grid) + tuple(ml.padded_shard_shape))

    def rank(self, ml):
        return len(ml.logical_shape) + len(ml.grid)


class DeviceFamily(Family):
    """``#tt.device`` worker grids: each logical core's (chip, core y, core x)."""

    name, types = "device", (Device,)

    def parse(self, text, **given):
        return parse(text)

    def index_map(self, dev, shape=None):
        self.refuse_shape(shape)
        return dev.physical_cores().reshape(-1, 3)

    def box(self, dev):
        return tuple(dev.grid_shape)

    def facts(self, dev, shape):
        d = {}
        d["grid_shape"] = list(dev.grid_shape)
        d["grid_map"] = str(dev.grid_map)
        d["mesh_shape"] = list(dev.mesh_shape)
        d["chip_ids"] = list(dev.chip_ids)
        d["cores"] = int(np.prod(dev.grid_shape, dtype=np.int64))
        try:
            dev.validate()
            d["valid"] = True
        except LayoutError as e:
            d["valid"] = False
            d["reason"] = str(e)
        return d

    def same(self, a, b, shape):
        return a.equivalent(b)

    def checks(self, dev, facts):
        return [{"check": "valid worker grid (chips exist, cores distinct)", "ok": facts["valid"],
                 "detail": facts.get("reason", "")}]

    def tables(self, dev, shape, max_cells):
        chips = dev.physical_cores()[..., 0]
        lines = [f"chip {cid}: {int((chips == cid).sum())} cores" for cid in np.unique(chips).tolist()]
        if chips.size <= max_cells:
            rows = chips.reshape(-1, tuple(dev.grid_shape)[-1])
            lines += ["", grid_text(rows.reshape(-1), rows.shape)]
        return [("chip of each logical core", "\n".join(lines))]

    def picture(self, dev, *, layout=None, max_cells, **rest):
        only_options(self.name, rest)
        if layout is not None and not isinstance(layout, MetalLayout):
            raise LayoutError("a device's picture places a metal layout on it (--place tensor<..., "
                              f"#tt.metal_layout<...>>), got a {type(layout).__name__}")
        return _picture().device_scene(dev, layout, max_cells=max_cells)

    def cells(self, dev, shape=None, *, details=True):
        return _picture().device_cells(dev, details=details)

    def rank(self, dev):
        return len(dev.grid_shape) + len(dev.mesh_shape)


class TtnnConfigFamily(Family):
    """TTNN placements without a tensor or a grid split of their own: memory configs, ND shard specs, ND-sharded
    tensors, bare ``#ttnn.ttnn_layout`` attributes (drawn as their grid of full shards)."""

    name, types = "ttnn", (MemoryConfig, NdShardSpec, TTNNNDTensorLayout, TTNNLayoutAttr)

    def parse(self, text, **given):
        return parse(text)

    def _metal(self, v):
        if isinstance(v, TTNNLayoutAttr):  # no tensor shape, but its grid of full shards is a layout
            return v.to_metal()
        if not hasattr(v, "logical_shape"):
            raise LayoutError(f"{str(v).split('<', 1)[0]} has no tensor shape: give --shape (e.g. --shape 64x256) "
                              "for the layout it gives a tensor of that shape")
        return v.to_metal()

    def index_map(self, v, shape=None):
        return (v.to_metal(shape) if shape is not None else self._metal(v)).index_map()

    def box(self, v):
        return tuple(v.logical_shape) if hasattr(v, "logical_shape") else None

    def with_shape(self, v, shape):
        return v.to_metal(shape)

    def concrete(self, v):
        """An ND-sharded tensor's metal layout; a bare config has none (a ``LayoutError`` asks for ``--shape``)."""
        return self._metal(v)

    def facts(self, v, shape):
        return config_facts(v)

    def checks(self, v, facts):
        return []

    def tables(self, v, shape, max_cells):
        return []

    def picture(self, v, *, max_cells, labels=True, **rest):
        only_options(self.name, rest)
        return _picture().metal_scene(self._metal(v), max_cells=max_cells, labels=labels)

    def cells(self, v, shape=None, *, details=True):  # shown as the metal layout it gives
        return _picture().metal_cells(v.to_metal(shape) if shape is not None else self._metal(v), details=details)

    def size(self, v, shape=None):
        return METAL.size(v.to_metal(shape) if shape is not None else self._metal(v))

    def rank(self, v):
        return len(v.logical_shape) if hasattr(v, "logical_shape") else 0


METAL, DEVICE, TTNN = MetalFamily(), DeviceFamily(), TtnnConfigFamily()
FAMILIES = (METAL, DEVICE, TTNN)
