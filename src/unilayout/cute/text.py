"""CuTe's text form: ``shape:stride``, swizzles ``Sw<B,M,S>`` and ``Sw<3,4,3> o 0 o (8,64):(64,1)``.

Grammar, read with the shared ``unilayout._text.Scanner`` (whitespace free
between tokens)::

    text     ::= function [sep INT sep function]           a ComposedLayout: outer o offset o inner
    function ::= swizzle | layout
    layout   ::= tuple [':' stride]                         a shape alone is column-major
    tuple    ::= int | '(' [tuple (',' tuple)* [',']] ')'
    stride   ::= sleaf | '(' [stride (',' stride)* [',']] ')'
    sleaf    ::= int ('@' (int | tuple))*                   a basis stride: 1@2, 1@(0,1), 1@1@0 (C++ nested)
    int      ::= ['_'] ['+' | '-'] ['_'] DIGITS             '_' is C++'s static marker (_8, _-1, -_1)
    swizzle  ::= 'Sw<' INT ',' INT ',' INT '>' | 'SW_' INT '_' INT '_' INT
    sep      ::= 'o' | '_o_'

``str(L)`` prints CuTe C++'s form without spaces (``print(layout)``);
``parse`` reads it back. Departures from C++ (which has no parser): the
static markers, spaces, and pycute's forms (trailing commas ``(3,):(2,)``,
``SW_3_4_3``, ``_o_``) are read too; the inner part of a composed layout must
be a layout; tuples nest at most 64 deep. The CuTe DSL's printed layouts read
the same; a ``?`` (a dynamic value) is refused with a ParseError saying so.

>>> parse("((2,2),2):((4,1),2)")
Layout(((2, 2), 2), ((4, 1), 2))
>>> parse("(_8, _4) : (_4, _1)")
Layout((8, 4), (4, 1))
>>> parse("Sw<3,4,3> o 0 o (8,64):(64,1)")
ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, 64), (64, 1)))
>>> parse("(128,32):(1@2,1@3)")
Layout((128, 32), (ScaledBasis(1, 2), ScaledBasis(1, 3)))
>>> parse("(4,?):(1,4)")
Traceback (most recent call last):
...
unilayout.errors.ParseError: '?' is a dynamic value (the CuTe DSL prints runtime values as ?): only static layouts can be read; substitute the value at position 3
  (4,?):(1,4)
     ^
>>> parse("(2,3):(1,")
Traceback (most recent call last):
...
unilayout.errors.ParseError: expected an integer or '(', found end of text at position 9
  (2,3):(1,
           ^
"""

from __future__ import annotations

from .._ints import as_int
from .._text import MAX_INT, Scanner, check_text
from ..errors import LayoutError
from .basis import ScaledBasis
from .inttuple import congruent, int_tuple_str
from .layout import Layout
from .swizzle import ComposedLayout, Swizzle

__all__ = ["parse"]

_MAX_DEPTH = 64
_INT = "an integer or '('"


def _int(s: Scanner, what: str = _INT) -> int:
    """``['_'] [sign] ['_'] DIGITS``: a C++ static int (``_8``, ``_-1``, ``-_1``) or a plain one."""
    t, p = s.text, s.skip()
    if t.startswith("_", p):
        p += 1
    sign = t[p:p + 1] if t[p:p + 1] in ("+", "-") else ""
    p += len(sign)
    if t.startswith("_", p):
        p += 1
    if not t[p:p + 1].isascii() or not t[p:p + 1].isdigit():
        s.expected(what, p)
    s.pos = p
    v = s.integer()
    return as_int(-v if sign == "-" else v, "int")


def _dynamic(s: Scanner):
    """Reject CuTe DSL's ``?`` (a runtime value) with a message saying so."""
    if s.at("?"):
        s.fail("'?' is a dynamic value (the CuTe DSL prints runtime values as ?): "
               "only static layouts can be read; substitute the value", s.skip())


def _stride_leaf(s: Scanner):
    """``INT ['@' mode]*``: an int or a ScaledBasis ``v@k``, ``v@(i,j)``, C++'s nested ``v@j@i``."""
    v = _int(s)
    if not s.at("@"):
        return v
    segments, at = [], s.skip() + 1
    while s.accept("@"):
        _dynamic(s)
        seg = _tuple(s)
        segments.append(seg if isinstance(seg, tuple) else (seg,))
    path = tuple(m for seg in reversed(segments) for m in seg)
    try:
        return ScaledBasis(v, path)
    except LayoutError as e:
        s.fail(str(e), at)


def _tuple(s: Scanner, depth: int = 0, leaf=None):
    if depth > _MAX_DEPTH:
        s.fail(f"nesting deeper than {_MAX_DEPTH}")
    _dynamic(s)
    if not s.accept("("):
        return (leaf or _int)(s)
    items = []
    while not s.accept(")"):
        items.append(_tuple(s, depth + 1, leaf))
        if not s.accept(",") and not s.at(")"):
            s.expected("',' or ')'")
    return tuple(items)


def _layout(s: Scanner) -> Layout:
    start = s.skip()
    shape = _tuple(s)
    stride = None
    if s.accept(":"):
        stride_at = s.skip()
        stride = _tuple(s, 0, _stride_leaf)
        if not congruent(shape, stride):
            s.fail(f"stride {int_tuple_str(stride)} is not congruent with shape {int_tuple_str(shape)}", stride_at)
    try:
        layout = Layout(shape, stride)
    except LayoutError as e:
        s.fail(str(e), start)
    if stride is None and any(abs(d) > MAX_INT for d in layout.flat()[1]):  # so that str(layout) reads back
        s.fail(f"the compact strides of shape {int_tuple_str(shape)} go past {MAX_INT}, the largest number a "
               "text may hold", start)
    return layout


def _swizzle(s: Scanner) -> Swizzle:
    start = s.skip()
    s.pos += 2  # 'Sw' or 'SW'
    if s.text.startswith("_", s.pos):  # SW_3_4_3 (pycute)
        args = []
        for _ in range(3):
            s.expect("_")
            args.append(_int(s, "an integer"))
    else:
        s.expect("<")
        args = [_int(s, "an integer")]
        for _ in range(2):
            s.expect(",")
            args.append(_int(s, "an integer"))
        s.expect(">")
    try:
        return Swizzle(*args)
    except LayoutError as e:
        s.fail(str(e), start)


def _function(s: Scanner):
    """A Swizzle or a Layout (the parts of a composed layout)."""
    return _swizzle(s) if s.at("Sw") or s.at("SW") else _layout(s)


def _separator(s: Scanner) -> bool:
    """Consume `` o `` or ``_o_`` between the parts of a composed layout."""
    return s.accept("_o_") or s.keyword("o")


def parse(text: str):
    """Parse CuTe text into a ``Layout``, ``Swizzle`` or ``ComposedLayout``.

    >>> parse("8:1"), parse("Sw<2,0,2>")
    (Layout(8, 1), Swizzle(2, 0, 2))
    >>> parse("(4,8) o 2 o (4,8):(8,1)")
    ComposedLayout(Layout((4, 8), (1, 4)), 2, Layout((4, 8), (8, 1)))
    """
    s = Scanner(check_text(text, "CuTe text"))
    result = _function(s)
    if _separator(s):
        offset = _int(s, "an integer")
        if not _separator(s):
            s.expected("'o' and the inner layout")
        inner_at = s.skip()
        inner = _function(s)
        if not isinstance(inner, Layout):
            s.fail("the inner part of a composed layout must be a layout", inner_at)
        result = ComposedLayout(result, offset, inner)
    s.expect_end()
    return result
