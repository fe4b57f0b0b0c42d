"""MLIR affine maps: parse, print (exactly as MLIR), evaluate (scalar and numpy), compose, simplify, bound, invert.

An affine map sends ``num_dims`` dimensions and ``num_symbols`` symbols to a
tuple of affine expressions built from ``+``, ``*`` (one factor free of
dims), ``floordiv``, ``ceildiv`` and ``mod`` (by a dim-free divisor)::

    (d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)

collapses a 2x3x64x128 tensor onto 384x128 rows and columns (the
Tenstorrent metal layout of the tt-mlir docs):

>>> from unilayout import affine
>>> m = affine.parse("(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)")
>>> m(1, 1, 6, 100)
(262, 100)
>>> m.bounds((2, 3, 64, 128))
((0, 383), (0, 127))

Semantics are MLIR's: ``floordiv`` rounds toward minus infinity, ``mod`` is
non-negative, ``ceildiv`` rounds up; the printed form is ``mlir-opt``'s, so
what MLIR prints parses and prints back identically:

>>> print(affine.parse("affine_map<(i, j) -> (2 * i + (j floordiv 8) * 2, j - (i + 1))>"))
(d0, d1) -> (d0 * 2 + (d1 floordiv 8) * 2, d1 - (d0 + 1))
>>> affine.parse("(d0) -> (d0 floordiv 8, d0 mod 8, d0 ceildiv 8)")(-3)
(-1, 5, 0)

Vectorised evaluation compiles the tree once to numpy code, and
``index_map(shape)`` enumerates a box in row-major order:

>>> import numpy as np
>>> tile = affine.parse("(d0, d1) -> ((d0 floordiv 4) * 32 + (d0 mod 4) * 4 + (d1 floordiv 4) * 16 + d1 mod 4)")
>>> tile.index_map((8, 8))[:8, 0].tolist()
[0, 1, 2, 3, 16, 17, 18, 19]

Composition is MLIR's (``m.compose(n)(x) == m(n(x))``); ``simplify`` is
exact and removes the usual div/mod round trips:

>>> split = affine.parse("(d0) -> (d0 floordiv 8, d0 mod 8)")
>>> merged = affine.parse("(d0, d1) -> (d0 * 8 + d1)").compose(split)
>>> print(merged), print(merged.simplify())
(d0) -> ((d0 floordiv 8) * 8 + d0 mod 8)
(d0) -> (d0)
(None, None)

Invariants: ``AffineMap`` and expression nodes are immutable, hashable and
compare by structure (two different trees may still be the same function:
use ``unilayout.equivalent`` over a box). Relation to the other families: a
TSL layout is one affine result (``TiledStridedLayout.to_affine()``), a
Tenstorrent metal layout's ``linear`` is an ``AffineMap``; CuTe layouts and
linear layouts are functions of one kind this module can express only for
static shapes.
"""

from __future__ import annotations

from .expr import AffineExpr, Binary, Constant, Dim, Symbol, constant, dim, symbol
from .fold import fold
from .map import AffineMap, constant_map, identity, permutation
from .quasi_affine import LinearPart, affine_maps_equal, expr_periods, linear_part
from .text import parse_expr

__all__ = [
    "AffineExpr",
    "AffineMap",
    "Binary",
    "Constant",
    "Dim",
    "Symbol",
    "constant",
    "constant_map",
    "dim",
    "expr_periods",
    "fold",
    "identity",
    "LinearPart",
    "linear_part",
    "affine_maps_equal",
    "parse",
    "parse_expr",
    "permutation",
    "symbol",
]


def parse(text: str) -> AffineMap:
    """Parse MLIR affine-map text: ``(d0, d1)[s0] -> (...)`` or ``affine_map<...>``.

    Raises ``ParseError`` (with the 0-based position) on bad text.

    >>> print(parse("affine_map<(x)[n] -> (x mod n, -x)>"))
    (d0)[s0] -> (d0 mod s0, -d0)
    """
    return AffineMap.parse(text)
