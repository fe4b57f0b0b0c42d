"""CuTe IR's printed strings: what goes between the quotes of ``!cute.layout<"...">`` and its siblings.

CuTe IR (NVIDIA's MLIR dialect of CuTe, ``cutlass_compiler/cute_ir``) keeps a
layout, a shape or a tile in its type as a string. The string is CuTe's text
without C++'s static markers: ``(2,3):(1,2)``; a dynamic leaf prints as
``?``, ``?{div=N}``, ``?{i64}`` or ``?{i64 div=N}``; a basis stride as
``v@k``, nested ``v@j@i`` (mode ``(i,j)``, inner mode first); a coordinate's
``_`` as ``_``; a swizzle as ``S<B,M,S>``; a composed layout as ``A o off o
B``; a tile as its modes between brackets, ``;`` between them.

``to_ir(x)`` wraps that string in the type CuTe IR prints for the value:

>>> from unilayout.cute import Layout, ComposedLayout, Swizzle
>>> from unilayout.cute.dyn import Dyn
>>> to_ir(Layout((Dyn(), 4), (1, Dyn(div=8, bits=64))))
'!cute.layout<"(?,4):(1,?{i64 div=8})">'
>>> to_ir(ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, 64), (64, 1))))
'!cute.composed_layout<"S<3,4,3> o 0 o (8,64):(64,1)">'
>>> to_ir(Swizzle(3, 5, 4))
'!cute.swizzle<"S<3,5,4>">'

The values that are not layouts (``IRTuple``, ``Tile``, ``MemRef``, in
``cute.ir_values``) print their own type through ``to_ir`` too.

``to_ir(x, dialect="fly")`` prints FlyDSL's type (``!fly.layout<...>``, no
quotes; a basis stride ``1E0E1``, outer mode first; a tile ``[8:1|*]``):

>>> to_ir(Layout((128, 64), (ScaledBasis(1, 0), ScaledBasis(1, 1))), dialect="fly")
'!fly.layout<(128,64):(1E0,1E1)>'
"""

from __future__ import annotations

from ..errors import LayoutError, NotRepresentableError
from .basis import ScaledBasis
from .dyn import Dyn
from .layout import Layout
from .swizzle import ComposedLayout, Swizzle

__all__ = ["to_ir", "ir_string", "tuple_string", "swizzle_string"]


def tuple_string(t, fly: bool = False) -> str:
    """An int tuple as CuTe IR prints it: ints, ``?{..}`` leaves, ``v@j@i`` bases, ``_``, no spaces.

    ``fly``: as FlyDSL prints it (``vEiEj`` bases, ``*`` for ``_``).

    >>> tuple_string((1, (Dyn(div=64), None), ScaledBasis(2, (0, 1))))
    '(1,(?{div=64},_),2@1@0)'
    >>> tuple_string((1, (Dyn(div=64), None), ScaledBasis(2, (0, 1))), fly=True)
    '(1,(?{div=64},*),2E0E1)'
    """
    kind = type(t)
    if kind is int or kind is Dyn:
        return str(t)
    if kind is tuple:
        return "(" + ",".join([tuple_string(v, fly) for v in t]) + ")"
    if t is None:
        return "*" if fly else "_"
    if kind is ScaledBasis:
        if fly:
            return str(t.value) + "".join(f"E{m}" for m in t.path)
        return str(t.value) + "".join(f"@{m}" for m in reversed(t.path))
    raise LayoutError(f"to_ir: {t!r:.60} is not a leaf of an int tuple (an int, a Dyn, a basis stride or None)")


def swizzle_string(sw: Swizzle) -> str:
    """``S<B,M,S>``: CuTe IR's (and the CuTe DSL's) spelling of a swizzle.

    >>> swizzle_string(Swizzle(3, 4, 3))
    'S<3,4,3>'
    """
    return f"S<{sw.bits},{sw.base},{sw.shift}>"


def ir_string(x) -> str:
    """The string CuTe IR keeps in the type of a Layout, ComposedLayout or Swizzle.

    >>> ir_string(Layout(8, 1)), ir_string(Layout((8,), (1,)))
    ('8:1', '(8):(1)')
    >>> ir_string(ComposedLayout(Layout((4, 5), (1, 4)), 2, Layout((2, 3), (1, 2))))
    '(4,5):(1,4) o 2 o (2,3):(1,2)'
    """
    if isinstance(x, Layout):
        return f"{tuple_string(x.shape)}:{tuple_string(x.stride)}"
    if isinstance(x, ComposedLayout):
        return f"{ir_string(x.outer)} o {tuple_string(x.offset)} o {ir_string(x.inner)}"
    if isinstance(x, Swizzle):
        return swizzle_string(x)
    own = getattr(x, "ir_string", None)
    if own is not None:
        return own()
    raise LayoutError(f"to_ir: expected a CuTe value (Layout, ComposedLayout, Swizzle, IRTuple, Tile, MemRef), "
                      f"got {type(x).__name__}")


def _fly_string(x) -> str:
    if isinstance(x, Layout):
        return f"{tuple_string(x.shape, True)}:{tuple_string(x.stride, True)}"
    if isinstance(x, ComposedLayout):
        return f"{_fly_string(x.outer)} o {tuple_string(x.offset, True)} o {_fly_string(x.inner)}"
    if isinstance(x, Swizzle):
        return swizzle_string(x)
    modes = getattr(x, "modes", None)
    if modes is not None and all(not hasattr(m, "modes") for m in modes):
        return "[" + "|".join("*" if m is None else _fly_string(m) for m in modes) + "]"
    if getattr(x, "kind", None):  # an IRTuple (ir_values imports this module: no import back)
        return tuple_string(x.value, True)
    raise NotRepresentableError(f"to_ir: {type(x).__name__} {x} has no FlyDSL type unilayout prints "
                                "(layouts, composed layouts, int tuples and flat tiles have)")


def _fly(x) -> str:
    if isinstance(x, Layout):
        return f"!fly.layout<{_fly_string(x)}>"
    if isinstance(x, ComposedLayout):
        return f"!fly.composed_layout<{_fly_string(x)}>"
    if hasattr(x, "modes"):
        return f"!fly.tile<{_fly_string(x)}>"
    if getattr(x, "kind", None):
        return f"!fly.int_tuple<{_fly_string(x)}>"
    raise NotRepresentableError(f"to_ir: {type(x).__name__} has no FlyDSL type unilayout prints "
                                "(layouts, composed layouts, int tuples and flat tiles have)")


def to_ir(x, dialect: str = "cute") -> str:
    """The CuTe IR type of ``x``, byte for byte as ``cute-opt`` and the CuTe DSL print it (``dialect="fly"``: FlyDSL's).

    ``Layout`` -> ``!cute.layout<"...">``, ``ComposedLayout`` ->
    ``!cute.composed_layout<"...">``, ``Swizzle`` -> ``!cute.swizzle<"...">``;
    ``IRTuple``, ``Tile`` and ``MemRef`` print their own types. ``cute.parse``
    reads every one back to an equal value.

    >>> to_ir(Layout((2, 3), (1, 2)))
    '!cute.layout<"(2,3):(1,2)">'
    >>> to_ir("8:1")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: to_ir: expected a CuTe value (Layout, ComposedLayout, Swizzle, IRTuple, Tile, MemRef), got str
    """
    if dialect == "fly":
        return _fly(x)
    if dialect != "cute":
        raise LayoutError(f"to_ir: dialect is 'cute' (CuTe IR) or 'fly' (FlyDSL), got {dialect!r:.40}")
    if isinstance(x, Layout):
        return f'!cute.layout<"{ir_string(x)}">'
    if isinstance(x, ComposedLayout):
        return f'!cute.composed_layout<"{ir_string(x)}">'
    if isinstance(x, Swizzle):
        return f'!cute.swizzle<"{ir_string(x)}">'
    own = getattr(x, "to_ir", None)
    if own is not None and callable(own):
        return own()
    raise LayoutError(f"to_ir: expected a CuTe value (Layout, ComposedLayout, Swizzle, IRTuple, Tile, MemRef), "
                      f"got {type(x).__name__}")
