"""Analyses of tiled-strided layouts: density, overlap, common contiguous blocks, DMA plans, allocation.

All need static bounds and steps; the offset may be ``?`` (density and overlap
do not depend on it).

>>> from unilayout.tsl import parse
>>> src = parse("#tsl.tsl<[2, 4] -> (4, 1), [2, 4] -> (32, 8)>")
>>> dst = parse("#tsl.tsl<[2, 4] -> (16, 1), [2, 4] -> (32, 4)>")
>>> print(dma_plan(src, dst, "i32"))
unit 16 B; repeat 4 x (src 32 B, dst 16 B); loops 2 x (src 16 B, dst 64 B), 2 x (src 128 B, dst 128 B)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from .._ints import as_int
from ..errors import LayoutError
from .layout import Stride, TiledStridedLayout, _check_tsl

__all__ = [
    "is_dense",
    "self_overlaps",
    "largest_common_contiguous_block",
    "element_bytes",
    "allocation_bytes",
    "DmaLoop",
    "DmaPlan",
    "dma_plan",
]

_INT64_MAX = (1 << 63) - 1


def _static_addresses(t: TiledStridedLayout, what: str) -> np.ndarray:
    for d, k, s in t:
        if s.is_dynamic():
            raise LayoutError(f"{what}: {t} has a '?' at dim {d}, level {k}; call resolve(shape) first")
    span = sum(abs(s.step) * (s.bound - 1) for _, _, s in t)
    if span > _INT64_MAX:
        raise LayoutError(f"{what}: the addresses of {t} do not fit in int64")
    return TiledStridedLayout(t.tstrides, 0).index_map()


def self_overlaps(t: TiledStridedLayout) -> bool:
    """True iff two points of the box have the same address.

    >>> from unilayout.tsl import parse
    >>> self_overlaps(parse("[2, 4] -> (16, 4), [2, 4] -> (16, 1)")), self_overlaps(parse("[4] -> (0)"))
    (True, True)
    """
    a = np.sort(_static_addresses(t, "self_overlaps"))
    return bool(a.size > 1 and (a[1:] == a[:-1]).any())


def is_dense(t: TiledStridedLayout) -> bool:
    """True iff no address repeats and the addresses fill ``[min, max]`` without gaps.

    For non-negative steps that is exactly ``[offset, offset + N)``.

    >>> from unilayout.tsl import parse
    >>> is_dense(parse("[2, 4] -> (32, 4), [2, 4] -> (16, 1)")), is_dense(parse("[2, 4] -> (64, 4), [2, 4] -> (16, 1)"))
    (True, False)
    """
    a = _static_addresses(t, "is_dense")
    if self_overlaps(t):
        return False
    return int(a.max()) - int(a.min()) + 1 == a.size


def _lcb_positions(a, b, starting_stride, what):
    _check_tsl(b, what)
    if a.rank != b.rank or any(x.depth != y.depth for x, y in zip(a.tstrides, b.tstrides)):
        raise LayoutError(
            f"{what}: the layouts need the same number of dims and levels per dim; got {a} and {b}"
        )
    order = sorted(list(a), key=lambda x: x[2].bound is None)  # stable: static bounds first
    used = set()
    cur = starting_stride
    found = []
    while True:
        nxt = next((x for x in order if (x[0], x[1]) not in used and x[2].step == cur), None)
        if nxt is None:
            break
        d, k, s = nxt
        if b.get_stride(d, k) != s:
            break
        found.append((d, k))
        used.add((d, k))
        cur = None if s.step is None or s.bound is None else s.step * s.bound
    return found


def largest_common_contiguous_block(a: TiledStridedLayout, b: TiledStridedLayout, starting_stride=1) -> list:
    """The strides of the largest block contiguous in both layouts, innermost first (snax semantics).

    From ``cur = starting_stride``: among ``a``'s unused strides ((dim, level)
    order, static bounds first) take the first with ``step == cur``; stop if
    none, or if ``b``'s stride at that (dim, level) differs; else append it
    and continue from ``cur = step * bound``. Nothing found gives
    ``[Stride(bound=1, step=starting_stride)]``.

    >>> from unilayout.tsl import parse
    >>> largest_common_contiguous_block(parse("[4] -> (1)"), parse("[4] -> (2)"))
    [Stride(bound=1, step=1)]
    """
    s = starting_stride if starting_stride is None else as_int(starting_stride, "starting_stride")
    pos = _lcb_positions(a, b, s, "largest_common_contiguous_block")
    if not pos:
        return [Stride(1, s)]
    return [a.get_stride(d, k) for d, k in pos]


_NAMED = {"index": 8, "bf16": 2, "tf32": 4}


def element_bytes(element) -> int:
    """Bytes of one element: an int, or an MLIR type name (``i8``, ``i32``, ``f16``, ``bf16``, ``f64``, ``index``).

    >>> element_bytes("i32"), element_bytes("bf16"), element_bytes("ui8"), element_bytes(2)
    (4, 2, 1, 2)
    """
    if isinstance(element, bool):
        raise LayoutError(f"element type: expected a positive int or a type name, got {element!r}")
    if isinstance(element, int):
        if element < 1:
            raise LayoutError(f"element size must be >= 1 byte, got {element}")
        return element
    if isinstance(element, str):
        if element in _NAMED:
            return _NAMED[element]
        m = re.fullmatch(r"(?:[su]?i|f)(\d+)", element)
        if m and int(m.group(1)) >= 1:
            return (int(m.group(1)) + 7) // 8
    raise LayoutError(f"element type: expected bytes (int) or a name like 'i32', 'f16', 'bf16'; got {element!r}")


def allocation_bytes(t: TiledStridedLayout, element="i32") -> int:
    """Bytes that hold every address of ``t`` (offset included): ``(max address + 1) * element bytes``.

    Pre-conditions: static layout (offset included) with no negative address.

    >>> from unilayout.tsl import parse
    >>> allocation_bytes(parse("[2, 4] -> (64, 4), [2, 4] -> (16, 1)"), "i8")
    96
    """
    size = element_bytes(element)
    if t.is_dynamic:
        raise LayoutError(f"allocation_bytes: {t} is dynamic; call resolve(shape, offset=...) first")
    lo = hi = t.offset
    for _, _, s in t:
        span = s.step * (s.bound - 1)
        lo += min(0, span)
        hi += max(0, span)
    if lo < 0:
        raise LayoutError(f"allocation_bytes: {t} reaches the negative address {lo}")
    return (hi + 1) * size


@dataclass(frozen=True)
class DmaLoop:
    """One loop of a DMA transfer: ``bound`` iterations, advancing source and destination by these bytes.

    >>> str(DmaLoop(4, 32, 16))
    '4 x (src 32 B, dst 16 B)'
    """

    bound: int
    src_stride_bytes: int
    dst_stride_bytes: int

    def __str__(self):
        return f"{self.bound} x (src {self.src_stride_bytes} B, dst {self.dst_stride_bytes} B)"


@dataclass(frozen=True)
class DmaPlan:
    """A 2-D DMA decomposition: a contiguous ``unit_bytes`` block, the 2-D ``repeat``, then outer ``loops``.

    ``repeat`` is None when the whole copy is one contiguous unit; ``loops``
    are nested outside the repeat, outermost last.

    >>> p = DmaPlan(16, DmaLoop(4, 32, 16), (DmaLoop(2, 16, 64),))
    >>> p.transfers, p.total_bytes
    (2, 128)
    """

    unit_bytes: int
    repeat: DmaLoop | None
    loops: tuple

    @property
    def transfers(self) -> int:
        """Number of 2-D transfers issued (product of the outer loop bounds)."""
        n = 1
        for lp in self.loops:
            n *= lp.bound
        return n

    @property
    def total_bytes(self) -> int:
        """Bytes copied in all."""
        n = self.unit_bytes * (self.repeat.bound if self.repeat else 1)
        return n * self.transfers

    def __str__(self):
        parts = [f"unit {self.unit_bytes} B"]
        if self.repeat is not None:
            parts.append(f"repeat {self.repeat}")
        if self.loops:
            parts.append("loops " + ", ".join(map(str, self.loops)))
        return "; ".join(parts)


def dma_plan(source: TiledStridedLayout, destination: TiledStridedLayout, element="i32") -> DmaPlan:
    """How snax's ``snax-copy-to-dma`` splits a copy between two layouts of the same tile bounds.

    The largest common contiguous block is the unit (``step * bound`` of its
    outermost stride, times the element size); the other strides, by bound
    descending (ties in (dim, level) order), give the 2-D repeat (the first)
    and the nested outer loops (the rest), each with source and destination
    strides in bytes.

    Post-condition: ``plan.total_bytes == source.size * element bytes``.

    >>> from unilayout.tsl import parse
    >>> p = dma_plan(parse("[8, 8] -> (8, 1)"), parse("[8, 8] -> (8, 1)"), 4)
    >>> p.unit_bytes, p.repeat, p.loops
    (256, None, ())
    """
    _check_tsl(source, "dma_plan")
    _check_tsl(destination, "dma_plan")
    size = element_bytes(element)
    for t, name in ((source, "source"), (destination, "destination")):
        for d, k, s in t:
            if s.is_dynamic():
                raise LayoutError(f"dma_plan: the {name} {t} has a '?' at dim {d}, level {k}; resolve it first")
    if source.tile_bounds() != destination.tile_bounds():
        raise LayoutError(
            f"dma_plan: source and destination need the same tile bounds, got {source.tile_bounds()} "
            f"and {destination.tile_bounds()}"
        )
    block = _lcb_positions(source, destination, 1, "dma_plan")
    if block:
        last = source.get_stride(*block[-1])
        unit = last.step * last.bound * size
    else:
        unit = size
    rest = [(d, k) for d, k, _ in source if (d, k) not in set(block)]
    rest = [p for p in rest if source.get_stride(*p).bound > 1]
    rest.sort(key=lambda p: -source.get_stride(*p).bound)
    loops = [
        DmaLoop(source.get_stride(*p).bound, source.get_stride(*p).step * size, destination.get_stride(*p).step * size)
        for p in rest
    ]
    repeat = loops.pop(0) if loops else None
    return DmaPlan(unit, repeat, tuple(loops))
