"""CuTe and linear layouts -> TSL: each top-level CuTe mode flattened and reversed.

A TSL adds strides and an offset, nothing else, so only a plain CuTe
``Layout`` (no swizzle, no composition) has a TSL form; a linear layout has
one when its CuTe form is a plain ``Layout``. The other direction is
``convert.tsl``; ``convert.affine_fit`` fits a TSL to an affine map's table.

>>> from unilayout import cute
>>> str(cute_to_tsl(cute.Layout(((4, 2), (4, 2)), ((4, 32), (1, 16)))))
'#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1)>'
"""

from __future__ import annotations

from .. import cute
from ..errors import NotRepresentableError
from ..tsl.layout import Stride, TiledStride, TiledStridedLayout
from ._common import _name
from .cute_linear import linear_to_cute

__all__ = ["cute_to_tsl", "linear_to_tsl"]


def cute_to_tsl(layout, offset=0):
    """The TSL of a CuTe ``Layout``: each top-level mode flattened (colexicographic) and reversed.

    **Pre-conditions**: a plain ``Layout`` of rank >= 1 (else ``NotRepresentableError``).

    **Post-condition**: ``cute_to_tsl(L, o)(*crd) == o + L(*crd)`` for natural coordinates.

    >>> from unilayout import cute
    >>> str(cute_to_tsl(cute.Layout(((2, 2), 3), ((1, 6), 2)), offset=1))
    '#tsl.tsl<[2, 2] -> (6, 1), [3] -> (2), offset: 1>'
    """
    if not isinstance(layout, cute.Layout):
        raise NotRepresentableError(
            f"cute_to_tsl: only plain cute.Layout values have a TSL form, got {_name(layout)}"
        )
    shape, stride = layout.shape, layout.stride
    modes = zip(shape, stride) if isinstance(shape, tuple) else [(shape, stride)]
    tstrides = []
    for s, d in modes:
        bs = cute.flatten(s) if isinstance(s, tuple) else (s,)
        ds = cute.flatten(d) if isinstance(d, tuple) else (d,)
        tstrides.append(TiledStride([Stride(b, st) for b, st in zip(reversed(bs), reversed(ds))]))
    if not tstrides:
        raise NotRepresentableError("cute_to_tsl: a rank-0 CuTe layout has no TSL form (TSL needs >= 1 dim)")
    return TiledStridedLayout(tstrides, offset)


def linear_to_tsl(layout):
    """The TSL of a linear layout whose CuTe form is a plain ``Layout``: ``cute_to_tsl(linear_to_cute(L))``.

    In-dim ``i`` becomes TSL dim ``i``; out-dims are flattened as in
    ``linear_to_cute``.

    **Pre-conditions** (else ``NotRepresentableError``): the flattened bases
    have disjoint bits (a swizzled layout has no TSL form: a TSL adds).

    **Post-condition**: ``t(*x) == offset`` of ``L`` at in-dims ``x`` (out-dims flattened).

    >>> from unilayout import linear
    >>> str(linear_to_tsl(linear.identity_1d(8, "i", "o")))
    '#tsl.tsl<[8] -> (1)>'
    """

    c = linear_to_cute(layout)
    if not isinstance(c, cute.Layout):
        raise NotRepresentableError(f"linear_to_tsl: the layout is swizzled ({c.outer}): a TSL only adds strides")
    return cute_to_tsl(c)


#: This file's pairs for ``convert_to``'s table.
PAIRS = {("cute", "tsl"): cute_to_tsl, ("linear", "tsl"): linear_to_tsl}
