"""The explorer's planner panel, as one JSON-in, JSON-out function (the server wires it to a request).

``answer(body)`` takes the panel's request (a dict decoded from JSON) and
returns a dict that ``json.dumps`` writes:

==================  =============================================================================
request field       meaning
==================  =============================================================================
``shape``           the tensor's logical shape, ``[53, 63]`` or ``"53x63"`` (required)
``device``          a ``#tt.device<...>`` text, or ``mesh`` ``[1, 2]`` (Wormhole chips); default one 8x8 chip
``tile``            ``[32, 32]`` or null; ``element_type`` (``"f32"``), ``memory_space`` (``"l1"``)
``collapse``        null (every cut), ``[begin, end]`` pairs, or the form's ``"0,-1"``
``physical``        true: physical grids only
``top``             rows returned (default 20); ``choice``: the row drawn (default 0)
``reshard_from``    optional ``tensor<...>`` text: price resharding it into the chosen layout (a grid
                    that does not fit the device sits on its cores row-major, as virtual grids do)
==================  =============================================================================

The answer: ``count`` (candidates in all), ``grids`` (rows: grid,
placement, collapse, cores_used, padding_slots, padding_fraction,
bytes_per_core, fits_l1, layout text), ``choice``, ``layout`` (its
``tensor<...>``), ``svg`` (the chosen grid over the device), and with
``reshard_from``: ``reshard`` (the ``ReshardCost`` counters, ``moved_bytes``,
``source``: ``"device"`` or ``"row_major view"``, and the heat map
``svg``). Bad input raises ``LayoutError`` (the server answers 400 with
its message).

>>> a = answer({"shape": "53x63", "top": 3})
>>> a["count"], [r["grid"] for r in a["grids"]], a["svg"].startswith("<svg")
(112, [[2, 32], [8, 8], [4, 16]], True)
>>> src = "tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, memref<18x32xf32, #tt.memory_space<l1>>>>"
>>> r = answer({"shape": [53, 63], "choice": 1, "reshard_from": src})["reshard"]
>>> r["local_bytes"] + r["moved_bytes"] == 53 * 63 * 4, r["svg"].startswith("<svg")
(True, True)
"""

from __future__ import annotations

import math

from .. import tt
from ..draw.svg import to_svg
from ..errors import LayoutError
from .choose import grids
from .picture import grid_choice_scene, traffic_scene
from .regrid import row_major
from .reshard import _fits, reshard_cost
from .transfers import _components

__all__ = ["answer", "MAX_TOP", "MAX_RESHARD_POINTS", "MAX_VOLUME"]

#: Most elements (and cells of a mesh or tile) a request may name: bytes and slots stay within int64.
MAX_VOLUME = 1 << 48
#: Most rows one answer lists.
MAX_TOP = 1000
#: Most points ``reshard_cost`` may enumerate in one group of linked dims for a panel request (about a second).
MAX_RESHARD_POINTS = 1 << 22


def _ints(value, key):
    if isinstance(value, str):
        value = [p for p in value.replace("x", ",").replace(" ", ",").split(",") if p]
        try:
            value = [int(p) for p in value]
        except ValueError:
            raise LayoutError(f"'{key}' must be integers like 53x63, got {value!r}") from None
    if not isinstance(value, (list, tuple)) or not value or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise LayoutError(f"'{key}' must be a non-empty list of integers, got {value!r}")
    if len(value) > 16:
        raise LayoutError(f"'{key}' has {len(value)} entries; at most 16 are accepted")
    if any(v < 1 for v in value):
        raise LayoutError(f"'{key}' entries must be >= 1, got {list(value)}")
    if math.prod(value) > MAX_VOLUME:
        raise LayoutError(f"'{key}' {'x'.join(map(str, value))} has more than 2**{MAX_VOLUME.bit_length() - 1} "
                          "elements; the planner counts bytes in 64-bit integers")
    return tuple(value)


def _collapse(value):
    """``None`` (every cut) or a list of ``(begin, end)`` pairs, from ``[[0, -1]]`` or the form's ``"0,-1"`` / ``"0,2,3,-1"``."""
    if value in (None, "", []):
        return None
    if isinstance(value, str):
        nums = [p for p in value.replace(";", ",").replace(" ", ",").split(",") if p]
        try:
            nums = [int(p) for p in nums]
        except ValueError:
            raise LayoutError(f"'collapse' must be pairs of dims like 0,-1 or 0,2,3,-1, got {value!r}") from None
        if len(nums) % 2:
            raise LayoutError(f"'collapse' needs pairs of dims like 0,-1 or 0,2,3,-1, got {value!r}")
        value = [nums[i:i + 2] for i in range(0, len(nums), 2)]
    if not isinstance(value, list) or len(value) > 16 or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in p)
            for p in value):
        raise LayoutError(f"'collapse' must be a list of [begin, end] pairs, got {value!r}")
    return [tuple(p) for p in value]


def _check_points(src, dst):
    """Refuse a reshard whose largest group of linked dims has more than ``MAX_RESHARD_POINTS`` points.

    ``reshard_cost`` enumerates each group of logical dims that one map result
    links (``transfers`` module docstring); a request must stay quick, so a map
    mixing every dim of a big tensor is for the ``unilayout plan reshard`` command.
    """
    deps = [r.dims() for ml in (src, dst) for r in ml.linear.results]
    shape = src.logical_shape
    if len(shape) != len(dst.logical_shape):
        return  # reshard_cost says what is wrong
    worst = max(math.prod(shape[d] for d in comp) for comp in _components(len(shape), deps))
    if worst > MAX_RESHARD_POINTS:
        raise LayoutError(f"reshard_from: pricing it enumerates {worst} points at once (the panel stops at "
                          f"{MAX_RESHARD_POINTS}); run `unilayout plan reshard` for it")


def _row(c):
    """One ``GridChoice`` as a JSON row (the layout text is added by the caller, for the rows it shows)."""
    return dict(grid=list(c.grid), placement=c.placement, collapse=[list(v) for v in c.collapse],
                physical_shape=list(c.physical_shape), cores_used=c.cores_used, padding_slots=c.padding_slots,
                padding_fraction=c.padding_fraction, bytes_per_core=c.bytes_per_core, fits_l1=c.fits_l1)


def _cost_dict(c):
    """A ``ReshardCost``'s counters as a JSON dict, with ``moved_bytes``."""
    d = c.summary()
    d["moved_bytes"] = c.moved_bytes
    return d


def answer(body) -> dict:
    """Answer one planner-panel request (see the module docstring).

    >>> answer({"shape": [4, 4], "mesh": [1, 2], "top": 1})["grids"][0]["cores_used"]
    16
    >>> answer({"shape": [4, 4], "top": "many"})
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: 'top' must be an integer >= 1, got 'many'
    """
    if not isinstance(body, dict):
        raise LayoutError(f"the planner request must be a JSON object, got {type(body).__name__}")
    shape = _ints(body.get("shape"), "shape")
    if body.get("device") not in (None, ""):
        dev = tt.parse(body["device"]) if isinstance(body["device"], str) else None
        if not isinstance(dev, tt.Device):
            raise LayoutError("'device' must be a #tt.device<...> text")
    elif body.get("mesh") not in (None, "", []):
        mesh = _ints(body["mesh"], "mesh")
        dev = tt.Device.from_mesh(tt.SystemDesc.wormhole_b0(math.prod(mesh)), mesh)
    else:
        dev = tt.Device((8, 8), "(d0, d1) -> (0, d0, d1)")
    tile = body.get("tile")
    tile = None if tile in (None, "", []) else _ints(tile, "tile")
    collapse = _collapse(body.get("collapse"))
    top, choice = body.get("top", 20), body.get("choice", 0)
    for key, v, lo in (("top", top, 1), ("choice", choice, 0)):
        if not isinstance(v, int) or isinstance(v, bool) or v < lo:
            raise LayoutError(f"'{key}' must be an integer >= {lo}, got {v!r}")
    if top > MAX_TOP:
        raise LayoutError(f"'top' is {top}; the panel lists at most {MAX_TOP} rows")
    kw = {}
    for key in ("element_type", "memory_space"):
        if body.get(key) not in (None, ""):
            kw[key] = body[key]
    g = grids(shape, dev, tile=tile, collapse=collapse, virtual=not body.get("physical", False), **kw)
    if not g:
        raise LayoutError(f"no grid of {shape} fits the device")
    if choice >= len(g):
        raise LayoutError(f"'choice' {choice} is past the {len(g)} candidates")
    chosen = g[choice]
    out = dict(count=len(g), grids=[_row(c) | {"layout": c.layout.tensor_type()} for c in g[:top]], choice=choice,
               layout=chosen.layout.tensor_type(), device=str(chosen.device), svg=to_svg(grid_choice_scene(chosen)))
    src_text = body.get("reshard_from")
    if src_text not in (None, ""):
        src = tt.parse(src_text) if isinstance(src_text, str) else None
        if not isinstance(src, tt.MetalLayout):
            raise LayoutError("'reshard_from' must be a tensor<..., #tt.metal_layout<...>> text")
        _check_points(src, chosen.layout)
        if _fits(src.grid, dev):
            src_dev, source = dev, "device"
            dst_device = None if chosen.placement == "physical" else chosen.device
        else:  # a virtual source grid sits on the cores row-major, as grids() places its virtual grids
            src_dev, source = row_major(dev, src.grid).device, "row_major view"
            dst_device = chosen.device
        c = reshard_cost(src, chosen.layout, src_dev, dst_device=dst_device)
        r = _cost_dict(c)
        r["source"] = source
        n = len(c.cores)
        r["svg"] = to_svg(traffic_scene(c)) if n * n <= 16384 else None
        out["reshard"] = r
    return out
