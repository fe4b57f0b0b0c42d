"""Tiled-strided layouts (TSL, snax-mlir's ``#tsl.tsl`` memref layout attribute).

A TSL gives every tensor dimension *tiles of tiles*: a list of levels,
outermost -> innermost, each ``bound -> step``. A coordinate ``i`` of a
dimension is split mixed-radix by the bounds (outermost digit most
significant) and the address is the offset plus ``step * digit`` summed over
all dims and levels. The seed's 8x8 example tiles both dims into 2 tiles of 4:

>>> from unilayout import tsl
>>> t = tsl.parse("#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1)>")
>>> t.index_map().reshape(8, 8)[:5].tolist()
[[0, 1, 2, 3, 16, 17, 18, 19], [4, 5, 6, 7, 20, 21, 22, 23], [8, 9, 10, 11, 24, 25, 26, 27], [12, 13, 14, 15, 28, 29, 30, 31], [32, 33, 34, 35, 48, 49, 50, 51]]
>>> t.is_dense(), t.self_overlaps(), t.tile_bounds()
(True, False, [[2, 4], [2, 4]])

That is, 4x4 tiles, tile (I, J) at ``32*I + 16*J``, row-major inside. ``?``
marks dynamic values (only the outermost bound of a dim may be ``?``);
``resolve(shape)`` fills them in as snax-mlir's lowering does:

>>> str(tsl.parse("#tsl.tsl<[?, 4] -> (32, 4), [?, 4] -> (?, 1)>").resolve((64, 64)))
'#tsl.tsl<[16, 4] -> (32, 4), [16, 4] -> (512, 1)>'

Invariants: values are immutable and hashable, ``==`` by value, bounds >= 1,
and ``parse(str(t)) == t`` (dynamic values and ``offset: ?`` included).
``index_map()`` enumerates the index box in row-major (numpy C) order and
includes the offset.

Relation to the other families: a TSL is one affine result
(``to_affine()``, the family's own) and, with offset 0, a CuTe layout whose
modes are the dims with their levels reversed: ``unilayout.convert``'s
``tsl_to_cute`` and ``cute_to_tsl`` (the older ``to_cute()`` and
``tsl.from_cute`` are deprecated delegates to them). Where unilayout deliberately differs from snax-mlir
(``0`` prints as ``0``, exact division in ``resolve``, commas required, the
offset included in addresses) is listed in docs/tsl.md.
"""

from __future__ import annotations

from .analysis import DmaLoop, DmaPlan, dma_plan, element_bytes
from .layout import Stride, TiledStride, TiledStridedLayout
from .text import parse

__all__ = [
    "DmaLoop",
    "DmaPlan",
    "Stride",
    "TiledStride",
    "TiledStridedLayout",
    "dma_plan",
    "element_bytes",
    "from_cute",
    "parse",
]


def from_cute(layout, offset=0) -> TiledStridedLayout:
    """Deprecated (a conversion, now ``unilayout.convert.cute_to_tsl``): the TSL of a CuTe layout.

    Each top-level mode flattened and reversed:

    >>> from unilayout import cute
    >>> str(from_cute(cute.Layout(((4, 2), (4, 2)), ((4, 32), (1, 16)))))
    '#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1)>'
    """
    from ..convert.to_tsl import cute_to_tsl  # lazy: deprecated delegate, moved to convert.to_tsl

    return cute_to_tsl(layout, offset)
