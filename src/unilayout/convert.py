"""Conversions between layout families: the only module where two families meet.

Each function is exact or raises ``NotRepresentableError`` saying why.
Methods such as ``TiledStridedLayout.to_cute()`` are thin delegates to these.

TSL <-> CuTe: a TSL dim is one CuTe mode with its levels reversed (CuTe lists
the fastest sub-mode first), so natural coordinates agree,
``t(*crd) == offset + L(*crd)``:

>>> from unilayout import tsl, cute
>>> t = tsl.parse("#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1)>")
>>> L = tsl_to_cute(t)
>>> str(L), t(5, 6) == L(5, 6), cute_to_tsl(L) == t
('((4,2),(4,2)):((4,32),(1,16))', True, True)

TSL -> affine: one result, dim-major, levels outer -> inner:

>>> print(tsl_to_affine(tsl.parse("#tsl.tsl<[2, 2, 8] -> (64, 32, 1)>")))
(d0) -> ((d0 floordiv 16) * 64 + ((d0 mod 16) floordiv 8) * 32 + d0 mod 8)
"""

from __future__ import annotations

from .errors import LayoutError, NotRepresentableError

__all__ = ["tsl_to_affine", "tsl_to_cute", "cute_to_tsl"]


def tsl_to_affine(t):
    """The address function of a TSL as a one-result ``AffineMap`` (offset included).

    Level k of dim d contributes ``step * ((d mod M_k) floordiv F_k)`` with
    ``M_k`` the product of the bounds from level k inward and ``F_k`` of those
    inside it; the outermost level drops the ``mod``, factors 1 and bound-1
    levels vanish, and the offset comes last. ``?`` steps become symbols
    ``s0, s1, ..`` in (dim, level) order and a ``?`` offset the last symbol.

    Post-condition (static t): ``tsl_to_affine(t)(*crd) == (t(*crd),)`` on the box.

    >>> from unilayout import tsl
    >>> m = tsl_to_affine(tsl.parse("#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5>"))
    >>> print(m), m(5, 6)
    (d0, d1) -> ((d0 floordiv 4) * 32 + (d0 mod 4) * 4 + (d1 floordiv 4) * 16 + d1 mod 4 + 5)
    (None, (59,))
    """
    from .affine import AffineMap, Constant, Dim, Symbol
    from .tsl import TiledStridedLayout

    if not isinstance(t, TiledStridedLayout):
        raise LayoutError(f"tsl_to_affine: expected a TiledStridedLayout, got {type(t).__name__}")
    num_symbols = 0
    expr = Constant(0)
    for d, ts in enumerate(t.tstrides):
        bounds = ts.bounds
        for k, s in enumerate(ts.strides):
            if s.step is None:
                step = Symbol(num_symbols)
                num_symbols += 1
            else:
                step = Constant(s.step)
            if s.bound == 1:
                continue
            inner = 1
            for b in bounds[k + 1 :]:
                inner *= b
            digit = Dim(d)
            if k > 0:
                digit = digit % (inner * s.bound)
            if inner != 1:
                digit = digit.floordiv(inner)
            expr = expr + digit * step
    if t.offset is None:
        expr = expr + Symbol(num_symbols)
        num_symbols += 1
    else:
        expr = expr + t.offset
    return AffineMap(t.rank, num_symbols, [expr])


def tsl_to_cute(t):
    """The CuTe ``Layout`` with the same natural-coordinate function: ``L(*crd) == t(*crd)``.

    Each dim becomes one mode, levels reversed (a one-level dim an integral
    mode). Needs a static layout with offset 0 (CuTe keeps offsets in the
    pointer), else ``NotRepresentableError``. The 1-D orders differ: CuTe's
    has mode 0 fastest, TSL's ``index_map`` the last dim.

    >>> from unilayout import tsl
    >>> str(tsl_to_cute(tsl.parse("[2, 4] -> (32, 4)"))), str(tsl_to_cute(tsl.parse("[8] -> (1), [4] -> (8)")))
    ('((4,2)):((4,32))', '(8,4):(1,8)')
    """
    from . import cute
    from .tsl import TiledStridedLayout

    if not isinstance(t, TiledStridedLayout):
        raise LayoutError(f"tsl_to_cute: expected a TiledStridedLayout, got {type(t).__name__}")
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


def cute_to_tsl(layout, offset=0):
    """The TSL of a CuTe ``Layout``: each top-level mode flattened (colexicographic) and reversed.

    Post-condition: ``cute_to_tsl(L, o)(*crd) == o + L(*crd)`` for natural coordinates.

    >>> from unilayout import cute
    >>> str(cute_to_tsl(cute.Layout(((2, 2), 3), ((1, 6), 2)), offset=1))
    '#tsl.tsl<[2, 2] -> (6, 1), [3] -> (2), offset: 1>'
    """
    from . import cute
    from .tsl import Stride, TiledStride, TiledStridedLayout

    if not isinstance(layout, cute.Layout):
        raise NotRepresentableError(
            f"cute_to_tsl: only plain cute.Layout values have a TSL form, got {type(layout).__name__}"
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
