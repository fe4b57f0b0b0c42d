"""Byte addresses of elements: L1 (per core), DRAM (channel round robin) and host memory.

- ``l1``: each core holds its shard at ``base`` (the system's
  ``l1_unreserved_base`` by default), row-major over the padded shard —
  element by element, or tile by tile (row-major over the memref) when tilized.
- ``dram`` with a 1x..x1 grid (TTNN INTERLEAVED): the tensor is cut into pages
  (a tile, or one shard row when not tilized), page ``k`` goes to channel
  ``k mod N`` at ``base + (k floordiv N) * page_size`` (page size aligned up to
  the DRAM alignment).
- ``dram`` with a larger grid (sharded): shard ``k`` (row-major over the grid)
  is one page, on channel ``k mod N`` at ``base + (k floordiv N) * shard_size``
  (``in_page`` is then the element's position in the shard).
- ``system`` / ``mmio`` (host): the byte offset in ``shard()``'s output.

>>> from unilayout.tt import MetalLayout, SystemDesc
>>> ml = MetalLayout.from_collapse((2, 3, 64, 128), (2, 4))
>>> address(ml, 1, 1, 6, 100)
Address(memory_space='l1', location=(1, 3), offset=10000, page=70, in_page=4)

(core (1, 3), shard row 70, column 4: element 70 * 32 + 4 = 2244, at 1024 + 4 * 2244 bytes.)
Tile sizes follow Tenstorrent's formats: ``bfp_*8`` tiles hold one byte per
element plus one shared exponent byte per 16 elements (32x32: 1088 B).
For ``bfp`` tiles ``offset`` is the start of the tile (an element has no byte
of its own there); ``in_page`` says which element of the page it is.
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

from .._ints import as_nonneg
from ..errors import LayoutError
from .device import Device
from .metal.metal import MetalLayout
from .system import SystemDesc

__all__ = ["Address", "address", "element_bytes", "tile_bytes", "page_bytes"]

_TILE_ELEM_BYTES = {"f32": 4, "u32": 4, "si32": 4, "f16": 2, "bf16": 2, "u16": 2, "u8": 1}
_BFP_BITS = {"bfp_f8": 8, "bfp_bf8": 8, "bfp_f4": 4, "bfp_bf4": 4, "bfp_f2": 2, "bfp_bf2": 2}


def element_bytes(element_type: str) -> int:
    """Bytes of one scalar of an MLIR element type (``i1`` counts one byte).

    >>> element_bytes("bf16"), element_bytes("f32"), element_bytes("i1"), element_bytes("ui64")
    (2, 4, 1, 8)
    """
    if element_type in ("f16", "bf16"):
        return 2
    if element_type == "f32":
        return 4
    if element_type == "f64":
        return 8
    m = re.fullmatch(r"(?:si|ui|i)([1-9][0-9]*)", str(element_type))
    if not m:
        raise LayoutError(f"element type {element_type!r} has no byte size")
    return -(-int(m.group(1)) // 8)


def tile_bytes(dtype: str, tile=(32, 32)) -> int:
    """Bytes of one tile of ``dtype`` (block floating point: mantissas plus one exponent byte per 16 values).

    >>> tile_bytes("f32"), tile_bytes("bf16"), tile_bytes("bfp_bf8"), tile_bytes("bfp_bf4"), tile_bytes("bfp_f2")
    (4096, 2048, 1088, 576, 320)
    """
    if not isinstance(dtype, str):
        raise LayoutError(f"tile dtype must be a string such as 'bf16', got {type(dtype).__name__} {dtype!r:.60}")
    try:
        n = math.prod(int(t) for t in tile)
    except (TypeError, ValueError):
        raise LayoutError(f"tile must be a (height, width) of integers, got {tile!r:.60}") from None
    if dtype in _TILE_ELEM_BYTES:
        return n * _TILE_ELEM_BYTES[dtype]
    if dtype in _BFP_BITS:
        if n % 16:
            raise LayoutError(f"a {dtype} tile needs a multiple of 16 values, {tuple(tile)} has {n}")
        return n * _BFP_BITS[dtype] // 8 + n // 16
    raise LayoutError(f"tile dtype {dtype!r} has no byte size")


def page_bytes(ml: MetalLayout) -> int:
    """Bytes of one page of ``ml``: a tile, or one row of the shard.

    >>> from unilayout.tt import MetalLayout
    >>> page_bytes(MetalLayout.from_collapse((64, 256), (1, 1))), page_bytes(MetalLayout.from_collapse((64, 256), (1, 1), tile=(32, 32)))
    (1024, 4096)
    """
    if not isinstance(ml, MetalLayout):
        raise LayoutError(f"page_bytes: expected a MetalLayout, got {type(ml).__name__} {ml!r:.60}")
    if ml.tile is not None:
        return tile_bytes(ml.tile_dtype, ml.tile)
    return ml.shard_shape[-1] * element_bytes(ml.element_type)


def _align(v, a):
    return -(-v // a) * a


class Address(NamedTuple):
    """Where one element lives: memory space, location, byte offset, page index and element inside the page.

    ``location`` is the core's grid coordinate (or ``(chip_id, y, x)`` when a
    device is given) for ``l1``, the channel for ``dram``, None for the host.

    >>> Address("dram", 3, 1024, 3, 0).location
    3
    """

    memory_space: str
    location: object
    offset: int
    page: int
    in_page: int


def address(ml: MetalLayout, *index, system: SystemDesc = None, device=None, base: int = None) -> Address:
    """The ``Address`` of the logical element ``index`` of ``ml`` (rules in the module docstring).

    ``system`` gives the bases, DRAM channels and alignment (Wormhole B0 by
    default); ``device`` turns an L1 grid coordinate into ``(chip_id, y, x)``.

    >>> from unilayout.tt import MetalLayout
    >>> ml = MetalLayout.from_collapse((64, 256), (1, 1), memory_space="dram", tile=(32, 32))
    >>> [address(ml, 32 * (k // 8), 32 * (k % 8))[1:4] for k in (0, 1, 11, 12)]
    [(0, 1024, 0), (1, 1024, 1), (11, 1024, 11), (0, 5120, 12)]
    """
    if not isinstance(ml, MetalLayout):
        raise LayoutError(f"address: expected a MetalLayout, got {type(ml).__name__}")
    system = SystemDesc() if system is None else system
    if not isinstance(system, SystemDesc):
        raise LayoutError(f"address: system must be a SystemDesc, got {type(system).__name__}")
    if base is not None:
        base = as_nonneg(base, "base")
    if device is not None:
        if not isinstance(device, Device):
            raise LayoutError(f"address: device must be a Device, got {type(device).__name__}")
    G, q = ml.locate(*index)
    bfp = ml.tile is not None and ml.tile_dtype in _BFP_BITS
    if ml.tile is not None:
        T = ml.tile
        tq = q[:-2] + (q[-2] // T[0], q[-1] // T[1])
        page = 0
        for v, n in zip(tq, ml.memref_shape):
            page = page * n + v
        in_page = (q[-2] % T[0]) * T[1] + q[-1] % T[1]
        psize = tile_bytes(ml.tile_dtype, T)
        in_bytes = 0 if bfp else in_page * _TILE_ELEM_BYTES[ml.tile_dtype]
        flat_in_shard = page * psize + in_bytes
        elem_in_shard = page * T[0] * T[1] + in_page
    else:
        flat = 0
        for v, n in zip(q, ml.shard_shape):
            flat = flat * n + v
        eb = element_bytes(ml.element_type)
        page, in_page = divmod(flat, ml.shard_shape[-1])
        psize = page_bytes(ml)
        in_bytes = in_page * eb
        flat_in_shard = flat * eb
        elem_in_shard = flat
    shard_size = (math.prod(ml.memref_shape) * psize if ml.tile is not None
                  else math.prod(ml.shard_shape) * element_bytes(ml.element_type))
    space = ml.memory_space
    core = 0
    for v, n in zip(G, ml.grid):
        core = core * n + v
    if space == "l1":
        b = system.l1_unreserved_base if base is None else base
        if b + shard_size > system.l1_size:
            raise LayoutError(f"a shard of {shard_size} B at {b} does not fit in {system.l1_size} B of L1")
        loc = G if device is None else device.physical_core(*G)
        return Address(space, loc, b + flat_in_shard, page, in_page)
    if space == "dram":
        b = system.dram_unreserved_base if base is None else base
        N = system.num_dram_channels
        if all(v == 1 for v in ml.grid):
            size = _align(psize, system.dram_alignment)
            channel, slot = page % N, page // N
            offset = b + slot * size + in_bytes
            page_no, in_no = page, in_page
        else:
            size = _align(shard_size, system.dram_alignment)
            channel, slot = core % N, core // N
            offset = b + slot * size + flat_in_shard
            page_no, in_no = core, elem_in_shard
        if b + (slot + 1) * size > system.dram_channel_size:
            raise LayoutError(
                f"page {page_no} ends at {b + (slot + 1) * size} B, beyond the {system.dram_channel_size} B of DRAM channel {channel}"
            )
        return Address(space, channel, offset, page_no, in_no)
    # host: the byte offset in shard()'s output
    b = 0 if base is None else base
    return Address(space, None, b + core * shard_size + flat_in_shard, page + core * (shard_size // psize), in_page)
