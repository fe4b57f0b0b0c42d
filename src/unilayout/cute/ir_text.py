"""Reading CuTe IR's types, the CuTe DSL's prints, FlyDSL's types and Mojo's layouts.

Grammar (whitespace free between tokens; ``cute.parse`` sends these texts here)::

    type     ::= ('!' | '#') 'cute.' name '<' '"' STRING '"' '>'      CuTe IR (cutlass_compiler/cute_ir)
               | '!cute.memref<' ELEM ',' SPACE (',' extra)* ',' '"' composed '"' '>'
               | ('!' | '#') 'fly.' name '<' BODY '>'                   FlyDSL (ROCm/FlyDSL), no quotes
               | 'tensor<ptr<' ELEM ',' SPACE (',' extra)* '>' 'o' composed '>'   the CuTe DSL's print(tensor)
               | '(' layout ')'                                         Mojo's layout print ((3, 4):(4, 1))
    name     ::= layout | composed_layout | swizzle | shape | stride | int_tuple | coord | tile
    extra    ::= 'align<' INT '>' | swizzle
    composed ::= layout | (layout | swizzle) 'o' tuple 'o' layout
    layout   ::= tuple ':' tuple
    tuple    ::= leaf | '(' tuple (',' tuple)* ')'
    leaf     ::= (['-'] INT | dyn) basis* | '_'                         '_' only in a coord
    dyn      ::= '?' ['{' ['i32' | 'i64'] ['div=' INT] '}']             a cute.Dyn
    basis    ::= '@' INT                                                CuTe: 1@1@0 is E<0,1> (inner mode first)
               | 'E' INT                                                FlyDSL: 1E0E1 is E<0,1> (outer mode first)
    swizzle  ::= 'S<' INT ',' INT ',' INT '>'
    tile     ::= '[' mode (';' mode)* ']'                               FlyDSL: '|' between modes, '*' for '_',
    mode     ::= layout | '_' | tile                                    and a size n for the layout n:1

What each reads to: ``!cute.layout`` a ``Layout`` (so does a
``!cute.coord_tensor<"(0,0)", "L">`` starting at zero: the counting tensor's
layout ``L``, basis strides and all), ``!cute.composed_layout``
a ``ComposedLayout`` (CuTe IR's ``A o off o B`` is ``A(off + B(c))``, as
unilayout's ``outer o offset o inner``), ``!cute.swizzle`` a ``Swizzle``,
the int tuple types an ``IRTuple``, ``!cute.tile`` a ``Tile``, a memref (or
the DSL's tensor) a ``MemRef``. FlyDSL's memory spaces ``global``,
``shared``, ``register`` read as CuTe's ``gmem``, ``smem``, ``rmem``.

>>> parse_ir('!cute.layout<"(?,?{div=64}):(?{i64 div=64},1)">')
Layout((Dyn(), Dyn(div=64)), (Dyn(div=64, bits=64), 1))
>>> parse_ir('!cute.tile<"[(4,2):(1,4);_]">')
Tile(Layout((4, 2), (1, 4)), None)
>>> parse_ir('!fly.layout<(8, 16):(1E0, 1E1)>')
Layout((8, 16), (ScaledBasis(1, 0), ScaledBasis(1, 1)))
>>> parse_ir("tensor<ptr<f16, smem, align<1024>> o S<3,3,3> o 0 o (8,64):(64,1)>").to_ir()
'!cute.memref<f16, smem, align<1024>, "S<3,3,3> o 0 o (8,64):(64,1)">'

CuTe IR's own checks are ParseErrors at the part at fault: a shape leaf
below 1 in a layout, a stride not congruent with its shape, basis strides
mixed with non-zero integers or ending at different depths, a ratio value,
a trivial composed layout (``S<0,0,0> o 0 o L``), a swizzle over basis
strides:

>>> parse_ir('!cute.layout<"(0,3):(1,2)">')
Traceback (most recent call last):
...
unilayout.errors.ParseError: expects positive shape mode (a layout's sizes are at least 1), got 0 at position 15
  !cute.layout<"(0,3):(1,2)">
                 ^

What CuTe IR reads but unilayout's values cannot hold (an arith-tuple offset
``(0,0)`` in a composed layout, a dynamic basis value ``?@0``) is a
NotRepresentableError saying so.
"""

from __future__ import annotations

import re

from .._text import Scanner, check_text
from ..errors import LayoutError, NotRepresentableError
from .basis import ScaledBasis
from .ir_read import MAX_DEPTH as _MAX_DEPTH
from .ir_read import check_strides, read_layout, read_swizzle, read_tuple, tuple_text
from .ir_values import IRTuple, MemRef, Tile
from .layout import Layout
from .swizzle import ComposedLayout, Swizzle

__all__ = ["parse_ir", "claims", "is_mojo", "read_composed", "read_tile"]

_TYPE = re.compile(r"\s*([!#])(cute|fly)\.([A-Za-z_]+)\s*<")
_CUTE_NAMES = ("layout", "composed_layout", "swizzle", "shape", "stride", "int_tuple", "coord", "tile", "memref",
               "coord_tensor")
_FLY_NAMES = ("layout", "composed_layout", "int_tuple", "coord", "tile", "memref")
_FLY_SPACES = {"global": "gmem", "shared": "smem", "register": "rmem"}


def claims(text: str) -> bool:
    """Whether ``text`` is one of the forms this module reads (a CuTe IR or FlyDSL type, a DSL tensor, Mojo).

    >>> claims('!cute.shape<"(2,4)">'), claims("tensor<ptr<f16, gmem> o 8:1>"), claims("((3, 4):(4, 1))")
    (True, True, True)
    >>> claims("(3,4):(4,1)"), claims("tensor<8x8xf32>")
    (False, False)
    """
    body = text.lstrip()
    if body.startswith(("!cute.", "#cute.", "!fly.", "#fly.")):
        return True
    if re.match(r"tensor\s*<\s*ptr\s*<", body):
        return True
    return is_mojo(body)


def is_mojo(body: str) -> bool:
    """Whether ``body`` is Mojo's ``(shape:stride)``: a ``(`` whose own level holds the ``:``, closed at the end.

    >>> is_mojo("((3, 4):(4, 1))"), is_mojo("(4:1)"), is_mojo("(3,4):(4,1)"), is_mojo("((3,4))")
    (True, True, False, False)
    """
    body = body.strip()
    if not body.startswith("(") or not body.endswith(")"):
        return False
    depth, colon = 0, False
    for i, c in enumerate(body):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0 and i != len(body) - 1:
                return False
        elif c == ":" and depth == 1:
            colon = True
    return colon


def _outer(s: Scanner, style: str):
    return read_swizzle(s, style != "fly") if s.at("S<") or s.at("S <") else read_layout(s, style)


def _composed_rest(s: Scanner, first, first_at: int, style: str):
    """After ``A`` and at ``o``: ``o offset o B``, CuTe IR's composability checks, the ComposedLayout."""
    s.pos = s.skip() + 1  # the 'o'
    offset_at = s.skip()
    offset = read_tuple(s, "int_tuple", style)
    if not s.keyword("o"):
        s.expected("'o' and the layout")
    inner_at = s.skip()
    inner = read_layout(s, style)
    if s.at_keyword("o"):
        raise NotRepresentableError(f"the chained composition at position {s.skip()} of {s.text!r:.120}: "
                                    "unilayout's ComposedLayout composes one outer function with one layout")
    if isinstance(first, Swizzle) and first.bits == 0 and offset == 0:
        s.fail("expects a non-trivial composed layout (with swizzle bits or non-zero offset); use `!cute.layout` "
               "for trivial wraps", first_at)
    if isinstance(first, Swizzle) and any(type(v) is ScaledBasis for v in _leaves_of(inner.stride)):
        s.fail("swizzle layout expects scalar `offset` and `outer` without scaled basis", inner_at)
    if type(offset) is not int:
        raise NotRepresentableError(f"the offset {tuple_text(offset)} at position {offset_at} of {s.text!r:.120}: "
                                    "unilayout's ComposedLayout holds an integer offset")
    return ComposedLayout(first, offset, inner)


def _leaves_of(t):
    if type(t) is tuple:
        for v in t:
            yield from _leaves_of(v)
    else:
        yield t


def read_composed(s: Scanner, style: str = "cute", need_o: bool = False):
    """A layout, or ``A o offset o B`` (``A`` a layout or ``S<B,M,S>``), at the cursor.

    >>> read_composed(Scanner("S<3,4,3> o 0 o (8,?):(?,1)"))
    ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, Dyn()), (Dyn(), 1)))
    """
    at = s.skip()
    first = _outer(s, style)
    if s.at_keyword("o"):
        return _composed_rest(s, first, at, style)
    if need_o or isinstance(first, Swizzle):
        s.expected("'o' and the offset of a composed layout")
    return first


def read_tile(s: Scanner, style: str = "cute", depth: int = 0) -> Tile:
    """``[m0;m1;...]`` (FlyDSL ``[m0|m1|...]``) at the cursor.

    >>> read_tile(Scanner("[8:1;_;[(2,2):(1,2);_]]")), read_tile(Scanner("[8|*]"), "fly")
    (Tile(Layout(8, 1), None, Tile(Layout((2, 2), (1, 2)), None)), Tile(Layout(8, 1), None))
    """
    if depth > _MAX_DEPTH:
        s.fail(f"nesting deeper than {_MAX_DEPTH}")
    sep = "|" if style == "fly" else ";"
    if style == "fly" and not s.at("["):
        return Tile(_fly_mode(s))
    s.expect("[", "'[' opening a tile")
    modes = [_tile_mode(s, style, depth)]
    while s.accept(sep):
        modes.append(_tile_mode(s, style, depth))
    s.expect("]", f"'{sep}' or ']'")
    return Tile(*modes)


def _tile_mode(s: Scanner, style: str, depth: int):
    if s.at("["):
        return read_tile(s, style, depth + 1)
    if style == "fly":
        return _fly_mode(s)
    at = s.skip()
    if s.text.startswith("_", at) and not s.text[at + 1:at + 2].isdigit():
        s.pos = at + 1
        return None
    return read_layout(s, style)


def _fly_mode(s: Scanner):
    at = s.skip()
    if s.accept("*"):
        return None
    shape = read_tuple(s, "shape", "fly")
    if not s.at(":"):
        if type(shape) is tuple:
            s.fail("a tile mode is a layout (shape:stride), a size or '*'", at)
        if type(shape) is int and shape <= 0:
            s.fail(f"a tile mode's size is at least 1, got {shape}", at)
        return Layout(shape, 1)
    s.pos = at
    return read_layout(s, "fly")


def _space(s: Scanner) -> str:
    at = s.skip()
    if s.text.startswith("#", at):
        s.pos = at + 1
        return "#" + s.identifier("a memory space")
    return s.identifier("a memory space (gmem, smem, rmem, tmem)")


def _pointer_extras(s: Scanner, style: str, closer: str):
    """``, align<N>`` and ``, S<B,M,S>`` after a memref's element and space; stops before the layout or ``closer``."""
    align = swizzle = None
    while s.at(","):
        save = s.pos
        s.pos = s.skip() + 1
        if s.at_keyword("align"):
            s.keyword("align")
            s.expect("<")
            at = s.skip()
            align = s.integer()
            s.expect(">")
            if align < 1 or align & (align - 1):
                s.fail(f"an alignment is a power of two (bytes), got {align}", at)
        elif s.at("S<") and swizzle is None:
            sw_at = s.skip()
            swizzle = read_swizzle(s, style != "fly")
            if s.at_keyword("o"):  # FlyDSL: the memref's layout is a composed layout starting with this swizzle
                s.pos = save
                return align, None, sw_at
        else:
            s.pos = save
            break
    if closer and not s.at(closer) and not s.at(","):
        s.expected(f"',' or '{closer}'")
    return align, swizzle, None


def _memref(s: Scanner, style: str) -> MemRef:
    element = s.identifier("an element type (f16, bf16, f32, i8...)")
    s.expect(",")
    space = _space(s)
    if style == "fly":
        space = _FLY_SPACES.get(space, space)
    align, swizzle, composed_at = _pointer_extras(s, style, "")
    s.expect(",", "',' and the memref's layout")
    at = s.skip()
    if composed_at is not None:
        s.pos = composed_at
    quoted = style != "fly"
    if quoted:
        s.expect('"', "the memref's layout in quotes")
    layout = read_composed(s, style)
    if quoted:
        s.expect('"', "'\"' closing the layout")
    return _make_memref(s, element, space, layout, align, swizzle, at)


def _make_memref(s, element, space, layout, align, swizzle, at):
    try:
        return MemRef(element, space, layout, align=align, swizzle=swizzle)
    except LayoutError as e:
        s.fail(str(e), at)


def _dsl_tensor(s: Scanner) -> MemRef:
    """``tensor<ptr<ELEM, SPACE[, align<N>][, S<B,M,S>]> o LAYOUT>``: the CuTe DSL's ``print(tensor)``."""
    s.expect("tensor")
    s.expect("<")
    s.expect("ptr")
    s.expect("<")
    element = s.identifier("an element type (f16, bf16, f32, i8...)")
    s.expect(",")
    space = _space(s)
    align, swizzle, _ = _pointer_extras(s, "cute", ">")
    s.expect(">", "'>' closing the pointer")
    if not s.keyword("o"):
        s.expected("'o' and the tensor's layout")
    at = s.skip()
    layout = read_composed(s, "cute")
    s.expect(">", "'>' closing the tensor")
    return _make_memref(s, element, space, layout, align, swizzle, at)


def _quoted(s: Scanner, read):
    s.expect('"', "a string: the type's value in quotes")
    value = read()
    s.expect('"', "'\"' closing the string")
    return value


def _coord_tensor(s: Scanner):
    """``!cute.coord_tensor<"base", "layout">``: a counting tensor; with base 0 it is its layout (as C++'s
    ``ArithTuple(_0,_0) o L`` reads)."""
    at = s.skip() + 1
    base = _quoted(s, lambda: read_tuple(s, "int_tuple"))
    s.expect(",", "',' and the tensor's layout")
    layout = _quoted(s, lambda: read_layout(s))
    if any(v != 0 for v in _leaves_of(base)):
        raise NotRepresentableError(f"the coord_tensor at position {at - 1} of {s.text!r:.120} starts at "
                                    f"{tuple_text(base)}: unilayout reads a counting tensor that starts at zero")
    return layout


def _typed(s: Scanner, dialect: str, name: str):
    style = "fly" if dialect == "fly" else "cute"
    if name == "memref":
        return _memref(s, style)
    if name == "coord_tensor" and dialect == "cute":
        return _coord_tensor(s)
    if dialect == "cute" and name == "swizzle":
        return _quoted(s, lambda: read_swizzle(s))
    body = {
        "layout": lambda: read_layout(s, style),
        "composed_layout": lambda: read_composed(s, style, need_o=True),
        "tile": lambda: read_tile(s, style),
    }.get(name)
    if body is None:
        body = lambda: _ir_tuple(s, name, style)  # noqa: E731  (the int tuple kinds)
    return body() if style == "fly" else _quoted(s, body)


def _ir_tuple(s: Scanner, kind: str, style: str) -> IRTuple:
    leaves = []
    value = read_tuple(s, kind, style, leaves)
    if kind == "stride":
        check_strides(s, leaves)
    return IRTuple(kind, value)


def parse_ir(text: str):
    """Read a CuTe IR or FlyDSL type, the CuTe DSL's ``tensor<ptr<..>> o L>`` print or Mojo's ``(S:D)``.

    >>> parse_ir('!cute.composed_layout<"S<3,4,3> o 0 o ((128,8),1,4,6):((32,1),0,8,4096)">').outer
    Swizzle(3, 4, 3)
    >>> parse_ir("((3, 4):(4, 1))")
    Layout((3, 4), (4, 1))
    >>> parse_ir('!cute.coord<"(_,?,1)">')
    IRTuple('coord', (None, Dyn(), 1))
    """
    text = check_text(text, "CuTe IR text")
    m = _TYPE.match(text)
    if m is not None:
        dialect, name = m.group(2), m.group(3)
        s = Scanner(text, m.end())
        names = _CUTE_NAMES if dialect == "cute" else _FLY_NAMES
        if name not in names:
            s.fail(f"!{dialect}.{name} is not a type unilayout reads: expected one of "
                   + ", ".join(f"!{dialect}.{n}" for n in names), m.start(3))
        value = _typed(s, dialect, name)
        s.expect(">", f"'>' closing the !{dialect}.{name} type")
        s.expect_end()
        return value
    s = Scanner(text)
    if s.at("tensor"):
        value = _dsl_tensor(s)
    elif is_mojo(text):
        s.expect("(")
        value = read_layout(s, "mojo")
        s.expect(")")
    else:
        s.expected("a CuTe IR type (!cute.layout<\"...\">), a FlyDSL type (!fly.layout<...>), a CuTe DSL tensor "
                   "(tensor<ptr<...>> o ...>) or a Mojo layout ((3, 4):(4, 1))")
    s.expect_end()
    return value
