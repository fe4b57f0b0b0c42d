"""TSL -> CuTe, linear and affine: a TSL is a CuTe layout plus an offset.

A TSL dim is one CuTe mode with its levels reversed (CuTe lists the fastest
sub-mode first), so natural coordinates agree: ``t(*crd) == offset + L(*crd)``.
Its address is affine: level ``k`` of dim ``d`` contributes
``step * ((d mod M_k) floordiv F_k)``, ``?`` values becoming symbols.

The affine map is the TSL's own (``TiledStridedLayout.to_affine``: the tsl
family may import ``affine``, the hub); CuTe and linear forms are this file's.
Building a TSL is ``to_tsl``'s job.

>>> from unilayout import tsl
>>> t = tsl.parse("#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1)>")
>>> L = tsl_to_cute(t)
>>> str(L), t(5, 6) == L(5, 6)
('((4,2),(4,2)):((4,32),(1,16))', True)
>>> print(tsl_to_affine(tsl.parse("#tsl.tsl<[2, 2, 8] -> (64, 32, 1)>")))
(d0) -> ((d0 floordiv 16) * 64 + ((d0 mod 16) floordiv 8) * 32 + d0 mod 8)
"""

from __future__ import annotations

from .. import cute
from ..errors import LayoutError, NotRepresentableError
from ..tsl.layout import TiledStridedLayout
from ._common import _name
from .cute_linear import cute_to_linear

__all__ = ["tsl_to_affine", "tsl_to_cute", "tsl_to_linear"]


def _expect_tsl(t, what):
    """``LayoutError`` unless ``t`` is a ``TiledStridedLayout``."""
    if not isinstance(t, TiledStridedLayout):
        raise LayoutError(f"{what}: expected a TiledStridedLayout, got {_name(t)}")


def tsl_to_affine(t):
    """The address function of a TSL as a one-result ``AffineMap`` (offset included): ``t.to_affine()``.

    The map is the tsl family's own (``TiledStridedLayout.to_affine`` says
    which term each level gives); this is its entry in the pair table.

    **Pre-conditions**: none; ``?`` values become symbols.

    **Post-condition** (static t): ``tsl_to_affine(t)(*crd) == (t(*crd),)`` on the box.

    >>> from unilayout import tsl
    >>> m = tsl_to_affine(tsl.parse("#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5>"))
    >>> print(m), m(5, 6)
    (d0, d1) -> ((d0 floordiv 4) * 32 + (d0 mod 4) * 4 + (d1 floordiv 4) * 16 + d1 mod 4 + 5)
    (None, (59,))
    """
    _expect_tsl(t, "tsl_to_affine")
    return t.to_affine()


def tsl_to_cute(t):
    """The CuTe ``Layout`` with the same natural-coordinate function: ``L(*crd) == t(*crd)``.

    Each dim becomes one mode, levels reversed (a one-level dim an integral
    mode). The 1-D orders differ: CuTe's has mode 0 fastest, TSL's
    ``index_map`` the last dim.

    **Pre-conditions** (else ``NotRepresentableError``): static, offset 0
    (CuTe keeps offsets in the pointer).

    **Post-condition**: ``L(*crd) == t(*crd)`` for every natural coordinate.

    >>> from unilayout import tsl
    >>> str(tsl_to_cute(tsl.parse("[2, 4] -> (32, 4)"))), str(tsl_to_cute(tsl.parse("[8] -> (1), [4] -> (8)")))
    ('((4,2)):((4,32))', '(8,4):(1,8)')
    """
    _expect_tsl(t, "tsl_to_cute")
    if t.offset != 0:
        raise NotRepresentableError(
            f"{t} has offset {'?' if t.offset is None else t.offset}: a CuTe layout has no offset "
            "(CuTe keeps it in the pointer); convert the layout with offset 0"
        )
    for d, k, s in t:
        if s.is_dynamic():
            raise NotRepresentableError(f"{t} has a '?' at dim {d}, level {k}: CuTe layouts here are static; resolve it first")
    shape, stride = [], []
    for ts in t.tstrides:
        if ts.depth == 1:
            shape.append(ts.bounds[0])
            stride.append(ts.steps[0])
        else:
            shape.append(tuple(reversed(ts.bounds)))
            stride.append(tuple(reversed(ts.steps)))
    return cute.Layout(tuple(shape), tuple(stride))


def tsl_to_linear(t, in_dims=None, out_dims=None):
    """The linear layout of a static TSL with offset 0: ``cute_to_linear(tsl_to_cute(t))``.

    TSL dim ``i`` becomes in-dim ``dim{i}`` (natural coordinates agree); the
    address becomes out-dim ``offset``.

    **Pre-conditions** (else ``NotRepresentableError``): offset 0 (linear
    layouts map 0 to 0), no ``?``, power-of-two dim sizes, steps whose bit
    images do not carry (see ``cute_to_linear``).

    **Post-condition**: ``L.apply({"dim0": i0, ..})["offset"] == t(i0, ..)`` on the box.

    >>> from unilayout import tsl
    >>> tsl_to_linear(tsl.parse("[2, 2] -> (1, 2), [4] -> (4)")).bases
    [('dim0', [[2], [1]]), ('dim1', [[4], [8]])]
    """
    _expect_tsl(t, "tsl_to_linear")
    if t.offset != 0:
        raise NotRepresentableError(
            f"{t} has offset {'?' if t.offset is None else t.offset}: a linear layout maps 0 to 0"
        )
    return cute_to_linear(tsl_to_cute(t), in_dims=in_dims, out_dims=out_dims)


#: This file's pairs for ``convert_to``'s table.
PAIRS = {("tsl", "cute"): tsl_to_cute, ("tsl", "affine"): tsl_to_affine, ("tsl", "linear"): tsl_to_linear}
