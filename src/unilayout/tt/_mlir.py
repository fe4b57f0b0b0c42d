"""MLIR-side helpers shared by the tt value modules (private): shape text, linear affine terms
and the field update behind every tt value type's ``replace``.

``metal`` and ``ttnn`` both read and print MLIR; these helpers sit under both
so that neither imports the other to reach them.

>>> xs((2, 3)), _linear_terms(AffineMap.parse("(d0, d1) -> (d0 * 4 + d1 + 2)").results[0])
('2x3', (2, {0: 4, 1: 1}))
"""

from __future__ import annotations

import math

from ..affine import AffineMap  # noqa: F401  (used by the examples)
from ..affine.expr import Binary, Constant, Dim
from ..errors import LayoutError

#: The tile element types of tt-mlir (``!tt.tile<32x32, bf16>``), as its texts spell them.
TILE_DTYPES = ("f32", "f16", "bf16", "bfp_f8", "bfp_bf8", "bfp_f4", "bfp_bf4", "bfp_f2", "bfp_bf2", "u32", "u16", "u8", "si32")


def xs(shape) -> str:
    """``(2, 3)`` as MLIR writes it: ``2x3``.

    >>> xs((53, 63))
    '53x63'
    """
    return "x".join(str(v) for v in shape)


def replaced(fields: dict, changes: dict) -> dict:
    """``fields`` (a fresh dict of a value's constructor arguments) updated by ``changes``, for ``replace``.

    Pre: ``fields`` names every constructor argument. A name not in ``fields`` is a
    ``LayoutError``; ``tile=None`` also drops the tile's dtype. Post: the dict to build the copy from.

    >>> replaced(dict(tile=(32, 32), tile_dtype="bf16", grid=(1, 1)), dict(tile=None))
    {'tile': None, 'tile_dtype': None, 'grid': (1, 1)}
    """
    unknown = set(changes) - set(fields)
    if unknown:
        raise LayoutError(f"replace: unknown field(s) {', '.join(sorted(unknown))}")
    if "tile" in changes and changes["tile"] is None:
        fields["tile_dtype"] = None
    fields.update(changes)
    return fields


def linear_flat(results, rank: int, shape_of):
    """``(offset, strides)`` of the row-major flat index into ``shape_of()`` of a map's ``results``, or None.

    Pre: ``results`` are affine expressions over ``rank`` dims, one per dim of the shape that
    ``shape_of`` (called only when needed) returns. None when a result uses div/mod.

    >>> linear_flat(AffineMap.parse("(d0, d1) -> (d1, d0 + 1)").results, 2, lambda: (4, 8))
    (1, (1, 8))
    """
    terms = [_linear_terms(r) for r in results]
    if any(t is None for t in terms):
        return None
    shape = shape_of()
    pstride = [math.prod(shape[i + 1:]) for i in range(len(shape))]
    strides = [0] * rank
    for (_, coef), ps in zip(terms, pstride):
        for d, c in coef.items():
            strides[d] += c * ps
    return sum(c * ps for (c, _), ps in zip(terms, pstride)), tuple(strides)


def _linear_terms(e):
    """``(constant, {dim: coefficient})`` of a sum of scaled dims, or None if e uses div/mod."""
    if type(e) is Dim:
        return 0, {e.position: 1}
    if type(e) is Constant:
        return e.value, {}
    if type(e) is Binary:
        if e.op == "+":
            a, b = _linear_terms(e.lhs), _linear_terms(e.rhs)
            if a is None or b is None:
                return None
            coef = dict(a[1])
            for d, c in b[1].items():
                coef[d] = coef.get(d, 0) + c
            return a[0] + b[0], coef
        if e.op == "*":
            lhs, rhs = (e.lhs, e.rhs) if type(e.rhs) is Constant else (e.rhs, e.lhs)
            if type(rhs) is not Constant:
                return None
            a = _linear_terms(lhs)
            if a is None:
                return None
            return a[0] * rhs.value, {d: c * rhs.value for d, c in a[1].items()}
    return None
