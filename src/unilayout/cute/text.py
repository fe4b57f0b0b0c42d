"""CuTe's text form: ``shape:stride``, swizzles ``Sw<B,M,S>``, ``Sw<3,4,3> o 0 o (8,64):(64,1)`` and C++'s prints.

Grammar, read with the shared ``unilayout._text.Scanner`` (whitespace free
between tokens)::

    text     ::= [pointer sep] composed                    C++ print(tensor): the pointer, then the layout
    composed ::= function [sep [offset sep] function]       a ComposedLayout: outer o offset o inner (offset 0 if absent)
    offset   ::= INT | flag
    function ::= swizzle | layout
    layout   ::= tuple [':' stride]                         a shape alone is column-major
    tuple    ::= int | '(' [tuple (',' tuple)* [',']] ')'
    stride   ::= sleaf | '(' [stride (',' stride)* [',']] ')'
    sleaf    ::= int ('@' (int | tuple))*                   a basis stride: 1@2, 1@(0,1), 1@1@0 (C++ nested)
    int      ::= ['_'] ['+' | '-'] ['_'] DIGITS             '_' is C++'s static marker (_8, _-1, -_1)
    swizzle  ::= 'Sw<' INT ',' INT ',' INT '>' | 'SW_' INT '_' INT '_' INT
    sep      ::= 'o' | '_o_'
    pointer  ::= [swizzle '_'] [space] ('ptr' | 'subptr') '[' BITS 'b](' ADDRESS ')' | 'tmem_[' BITS 'b](' ADDRESS ')'
               | 'ArithTuple(' int (',' int)* ')'          space: gmem_ smem_ rmem_; ADDRESS: 0x.., (nil), unset
    flag     ::= 'smem_ptr[' BITS 'b](unset)'               C++'s smem_ptr_flag_bits: offset 0, bytes swizzled

``str(L)`` prints CuTe C++'s form without spaces (``print(layout)``);
``parse`` reads it back, and what C++'s ``print`` writes:

- a tensor, ``ptr[32b](0x7ffe..) o (_4,_8):(_8,_1)``, ``gmem_ptr[..]``,
  ``smem_ptr[..]``, ``tmem_[32b](0x0000.0000)``, reads to its layout (the
  value is a function of element offsets; the pointer's address, memory and
  element width are not part of it), ``ArithTuple(_0,_0) o L`` (an identity
  tensor) to ``L`` when its base is zero;
- a swizzle that acts on byte addresses, ``Sw<3,4,3> o smem_ptr[16b](unset) o
  L`` (a GMMA shared-memory atom) or a swizzle pointer ``Sw<3,4,3>_smem_ptr[16b]
  ((nil)) o L``, reads to the same function of element offsets:
  ``Sw<3,3,3> o 0 o L`` for 16-bit elements (the base moves down by
  ``log2(bits/8)``); a swizzle pointer must be aligned to the bytes its
  swizzle reads;
- ``Sw<3,4,3> o L`` and ``A o B`` (no offset) read as offset 0.

Departures from C++ (which has no parser): the static markers, spaces, and
pycute's forms (trailing commas ``(3,):(2,)``, ``SW_3_4_3``, ``_o_``) are read
too; the inner part of a composed layout must be a layout; tuples nest at
most 64 deep. The CuTe DSL's printed layouts read the same: a ``?``,
``?{div=N}``, ``?{i64 div=N}`` leaf (a value known at run time) reads to a
``cute.Dyn`` leaf, and ``S<B,M,S>`` is the DSL's (and CuTe IR's) swizzle.

CuTe IR's types (``!cute.layout<"...">`` and its siblings), the DSL's
``tensor<ptr<..>> o L>``, FlyDSL's ``!fly.*`` types and Mojo's ``((3, 4):(4,
1))`` are read by ``cute.ir_text`` (``parse`` sends them there).

>>> parse("((2,2),2):((4,1),2)")
Layout(((2, 2), 2), ((4, 1), 2))
>>> parse("(_8, _4) : (_4, _1)")
Layout((8, 4), (4, 1))
>>> parse("Sw<3,4,3> o 0 o (8,64):(64,1)")
ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, 64), (64, 1)))
>>> parse("Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)")
ComposedLayout(Swizzle(3, 3, 3), 0, Layout((8, 64), (64, 1)))
>>> parse("ptr[32b](0x7ffe7143e500) o (_4,_8):(_1,_4)")
Layout((4, 8), (1, 4))
>>> parse("(128,32):(1@2,1@3)")
Layout((128, 32), (ScaledBasis(1, 2), ScaledBasis(1, 3)))
>>> parse("(4,?):(1,?{i64 div=4})")
Layout((4, Dyn()), (1, Dyn(div=4, bits=64)))
>>> parse('!cute.layout<"(4,?):(1,4)">'), parse("((3, 4):(4, 1))")
(Layout((4, Dyn()), (1, 4)), Layout((3, 4), (4, 1)))
>>> parse("(2,3):(1,")
Traceback (most recent call last):
...
unilayout.errors.ParseError: expected an integer or '(', found end of text at position 9
  (2,3):(1,
           ^
"""

from __future__ import annotations

import re

from .._ints import as_int
from .._text import MAX_INT, Scanner, check_text
from ..errors import LayoutError, NotRepresentableError, ParseError
from .basis import ScaledBasis
from .dyn import has_dyn
from .inttuple import congruent, int_tuple_str
from .ir_read import read_dyn
from .ir_text import claims as _ir_claims
from .ir_text import parse_ir
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


def _dynamic_basis(s: Scanner, at: int):
    """A dynamic value with a basis mode (``?@0``): CuTe IR reads it; unilayout's basis strides are integers."""
    if s.at("@"):
        raise NotRepresentableError(f"the dynamic basis stride at position {at} of {s.text!r:.120}: unilayout's "
                                    "basis strides hold integer values")


def _stride_leaf(s: Scanner):
    """``INT ['@' mode]*``: an int or a ScaledBasis ``v@k``, ``v@(i,j)``, C++'s nested ``v@j@i``."""
    v = _int(s)
    if not s.at("@"):
        return v
    segments, at = [], s.skip() + 1
    while s.accept("@"):
        if s.at("?"):
            s.fail("a basis mode is an integer, not a dynamic value", s.skip())
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
    if s.at("?"):  # the CuTe DSL's dynamic leaf: ?, ?{div=N}, ?{i64 div=N}
        at = s.skip()
        value = read_dyn(s)
        _dynamic_basis(s, at)
        return value
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
    if stride is None and not has_dyn(shape) and any(abs(d) > MAX_INT for d in layout.flat()[1]):  # reads back
        s.fail(f"the compact strides of shape {int_tuple_str(shape)} go past {MAX_INT}, the largest number a "
               "text may hold", start)
    return layout


def _swizzle(s: Scanner) -> Swizzle:
    start = s.skip()
    s.pos += 1 if s.text.startswith("S<", start) else 2  # 'S<' (CuTe IR, the DSL), 'Sw' or 'SW'
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
    return _swizzle(s) if s.at("Sw") or s.at("SW") or s.at("S<") else _layout(s)


def _separator(s: Scanner) -> bool:
    """Consume `` o `` or ``_o_`` between the parts of a composed layout."""
    return s.accept("_o_") or s.keyword("o")


_POINTER = re.compile(
    r"(?:Sw<(\d{1,9}),(\d{1,9}),(-?\d{1,9})>_)?"     # a swizzle_ptr: print(Swizzle) '_' print(pointer)
    r"(sparse<\d+>_)?(gmem_|smem_|rmem_)?(?:(sub)?ptr|(tmem_))\[(\d+)b\]"
    r"\((\(nil\)|unset|[0-9A-Za-z.]+)\)")
_FLAG = re.compile(r"smem_ptr\[(\d+)b\]\(unset\)")


def _pointer(s: Scanner):
    """C++'s printed pointer at the cursor: ``(swizzle or None, sparse, bits, address text, start)``, or None."""
    at = s.skip()
    m = _POINTER.match(s.text, at)
    if m is None:
        return None
    s.pos = m.end()
    sw = None
    if m.group(1) is not None:
        try:
            sw = Swizzle(*(as_int(int(g), "int") for g in m.group(1, 2, 3)))
        except LayoutError as e:
            s.fail(str(e), at)
    return sw, m.group(4), _bits(s, m.group(8), at), m.group(9), at


def _bits(s: Scanner, digits: str, at: int) -> int:
    if len(digits.lstrip("0")) > 4:
        s.fail(f"a pointer's element width must be a power of two up to 1024 bits, got {digits[:12]}...b", at)
    bits = int(digits)
    if bits < 1 or bits & (bits - 1) or bits > 1024:
        s.fail(f"a pointer's element width must be a power of two up to 1024 bits, got {digits}b", at)
    return bits


def _element_swizzle(s: Scanner, sw: Swizzle, bits: int, at: int) -> Swizzle:
    """The swizzle of element offsets that ``sw`` on byte addresses is, for ``bits``-bit elements."""
    base = sw.base + 3 - (bits.bit_length() - 1)
    if base < 0:
        s.fail(f"{sw} on byte addresses moves bits inside a {bits}-bit element: not a function of element offsets",
               at)
    return Swizzle(sw.bits, base, sw.shift)


def _arith_tuple(s: Scanner) -> bool:
    """``ArithTuple(_0,_0) o``: an identity tensor's base coordinate, which must be zero."""
    at = s.skip()
    if not s.text.startswith("ArithTuple(", at):
        return False
    s.pos = at + len("ArithTuple")
    base = _tuple(s)
    if any(v != 0 for v in (base if isinstance(base, tuple) else (base,))):
        s.fail("an ArithTuple tensor with a non-zero base coordinate is a layout plus an offset: only base 0 reads",
               at)
    return True


def _offset(s: Scanner):
    """After ``outer o``: the offset and its ``o`` (an int, or C++'s ``smem_ptr[B b](unset)`` flag, read
    ``(0, bits)``), or None when the inner function follows at once (``Sw<3,4,3> o L``)."""
    at = s.skip()
    m = _FLAG.match(s.text, at)
    if m is not None:
        s.pos = m.end()
        if not _separator(s):
            s.expected("'o' and the inner layout")
        return 0, _bits(s, m.group(1), at)
    try:
        value = _int(s)
    except ParseError:
        s.pos = at
        return None
    if _separator(s):
        return value, None
    if value <= 0 and not s.at(":"):  # no layout has a shape <= 0: this was an offset missing its 'o'
        s.expected("'o' and the inner layout")
    s.pos = at  # 'A o 8' : the inner layout 8
    return None


def _composed(s: Scanner):
    result = _function(s)
    if not _separator(s):
        return result
    offset = _offset(s)
    value, flag_bits = offset if offset is not None else (0, None)
    inner_at = s.skip()
    inner = _function(s)
    if not isinstance(inner, Layout):
        s.fail("the inner part of a composed layout must be a layout", inner_at)
    if flag_bits is not None:
        if not isinstance(result, Swizzle):
            s.fail("a smem_ptr flag offset comes after a swizzle (Sw<B,M,S> o smem_ptr[16b](unset) o L)", 0)
        result = _element_swizzle(s, result, flag_bits, 0)
    return ComposedLayout(result, value, inner)


def parse(text: str):
    """Parse CuTe text into a ``Layout``, ``Swizzle`` or ``ComposedLayout``.

    >>> parse("8:1"), parse("Sw<2,0,2>")
    (Layout(8, 1), Swizzle(2, 0, 2))
    >>> parse("(4,8) o 2 o (4,8):(8,1)")
    ComposedLayout(Layout((4, 8), (1, 4)), 2, Layout((4, 8), (8, 1)))
    >>> parse("(4,8):(8,1) o (4,8):(1,4)"), parse("Sw<3,4,3> o (8,64):(64,1)")
    (ComposedLayout(Layout((4, 8), (8, 1)), 0, Layout((4, 8), (1, 4))), ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, 64), (64, 1))))
    >>> parse("Sw<3,4,3>_smem_ptr[16b]((nil)) o ((_8,_32),(_64,_4)):((_64,_512),(_1,_16384))")
    ComposedLayout(Swizzle(3, 3, 3), 0, Layout(((8, 32), (64, 4)), ((64, 512), (1, 16384))))
    """
    if _ir_claims(check_text(text, "CuTe text")):
        return parse_ir(text)
    s = Scanner(text)
    pointer = _pointer(s)
    if pointer is not None or _arith_tuple(s):
        if not _separator(s):
            s.expected("'o' and the tensor's layout")
    layout_at = s.skip()
    result = _composed(s)
    s.expect_end()
    if pointer is not None and pointer[0] is not None:  # a swizzle pointer: the swizzle acts on its byte addresses
        sw, _, bits, address, at = pointer
        if not isinstance(result, Layout):
            s.fail("a swizzle pointer's tensor must have a plain layout", layout_at)
        base = int(address, 16) if re.fullmatch(r"0x[0-9a-fA-F]+", address) else 0
        reach = sw.bits + sw.base + abs(sw.shift)
        if base % (1 << reach):
            s.fail(f"the swizzle pointer's address {address} is not aligned to the {1 << reach} bytes {sw} reads: "
                   "its function of element offsets depends on the address", at)
        result = ComposedLayout(_element_swizzle(s, sw, bits, at), 0, result)
    return result
