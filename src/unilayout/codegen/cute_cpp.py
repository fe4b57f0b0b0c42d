"""A CuTe value as the C++ expression CuTe itself writes: ``Layout<Shape<..>,Stride<..>>{}`` and kin.

Static integers are ``Int<N>``; a basis stride ``v@k`` is ``ScaledBasis<Int<v>, k>``
(a nested mode ``v@(0,1)`` is ``ScaledBasis<Int<v>, 0, 1>``); a swizzled layout
``Sw<B,M,S> o off o L`` is ``make_composed_layout(Swizzle<B,M,S>{}, Int<off>{}, L)``
(``A o off o B`` with a layout ``A`` likewise); a bare swizzle is ``Swizzle<B,M,S>{}``.
The function returns the value (``CUTE_HOST_DEVICE constexpr auto name()``), so
``name()(i)`` is CuTe's own evaluation.

>>> from unilayout import cute
>>> cute_expr(cute.parse("((2,3),4):((1,8),2)"))
'Layout<Shape<Shape<Int<2>,Int<3>>,Int<4>>,Stride<Stride<Int<1>,Int<8>>,Int<2>>>{}'
"""

from __future__ import annotations

from ..errors import NotRepresentableError

__all__ = ["cute_cpp", "cute_expr"]


def _int(v):
    return f"Int<{int(v)}>"


def _tuple(kind, t, leaf):
    if isinstance(t, tuple):
        return f"{kind}<" + ",".join(_tuple(kind, x, leaf) for x in t) + ">"
    return leaf(t)


def _stride_leaf(d):
    if isinstance(d, int):
        return _int(d)
    mode = d.mode if isinstance(d.mode, tuple) else (d.mode,)
    return f"ScaledBasis<{_int(d.value)}, {', '.join(map(str, mode))}>"


def _layout(L):
    return f"Layout<{_tuple('Shape', L.shape, _int)},{_tuple('Stride', L.stride, _stride_leaf)}>{{}}"


def cute_expr(x) -> str:
    """The C++ expression of a CuTe ``Layout``, ``ComposedLayout`` or ``Swizzle``.

    >>> from unilayout import cute
    >>> cute_expr(cute.parse("Sw<2,0,2>")), cute_expr(cute.parse("(4,5):(1@0,1@1)"))
    ('Swizzle<2,0,2>{}', 'Layout<Shape<Int<4>,Int<5>>,Stride<ScaledBasis<Int<1>, 0>,ScaledBasis<Int<1>, 1>>>{}')
    """
    from .. import cute  # lazy: the cute family loads only for CuTe values

    if isinstance(x, cute.Swizzle):
        return f"Swizzle<{x.bits},{x.base},{x.shift}>{{}}"
    if isinstance(x, cute.ComposedLayout):
        return f"make_composed_layout({cute_expr(x.outer)}, {_int(x.offset)}{{}}, {cute_expr(x.inner)})"
    if isinstance(x, cute.Layout):
        return _layout(x)
    raise NotRepresentableError(f"codegen: cute-cpp writes CuTe layouts and swizzles, not a {type(x).__name__}")


def cute_cpp(x, name: str = "layout") -> str:
    """A C++ function returning the CuTe value (include ``cute/layout.hpp`` and ``cute/swizzle_layout.hpp``).

    >>> from unilayout import cute
    >>> print(cute_cpp(cute.parse("(4,8):(8,1)"), "tile"))
    // (4,8):(8,1)
    CUTE_HOST_DEVICE constexpr auto tile() { return Layout<Shape<Int<4>,Int<8>>,Stride<Int<8>,Int<1>>>{}; }
    """
    return f"// {x}\nCUTE_HOST_DEVICE constexpr auto {name}() {{ return {cute_expr(x)}; }}"
