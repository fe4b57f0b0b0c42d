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
from .dyn import Dyn
from .ir_values import IRTuple, MemRef, Tile
from .layout import Layout
from .swizzle import ComposedLayout, Swizzle

__all__ = ["parse_ir", "claims", "is_mojo", "read_dyn"]

_MAX_DEPTH = 64
_TYPE = re.compile(r"\s*([!#])(cute|fly)\.([A-Za-z_]+)\s*<")
_CUTE_NAMES = ("layout", "composed_layout", "swizzle", "shape", "stride", "int_tuple", "coord", "tile", "memref",
               "coord_tensor")
_FLY_NAMES = ("layout", "composed_layout", "int_tuple", "coord", "tile", "memref")
_FLY_SPACES = {"global": "gmem", "shared": "smem", "register": "rmem"}
_LEAF = "an integer, '?' or '('"


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


# --- leaves and tuples ------------------------------------------------------------------------------------------------

def read_dyn(s: Scanner) -> Dyn:
    """``?``, ``?{div=N}``, ``?{i64}``, ``?{i64 div=N}`` (``i32`` accepted, the default) at the cursor.

    >>> read_dyn(Scanner("?{i64 div=16}")), read_dyn(Scanner("?"))
    (Dyn(div=16, bits=64), Dyn())
    >>> read_dyn(Scanner("?{unknown}"))
    Traceback (most recent call last):
    ...
    unilayout.errors.ParseError: expected 'i64', 'div=N' or '}' in a dynamic leaf's braces, found 'unknown' at position 2
      ?{unknown}
        ^
    """
    at = s.skip()
    s.expect("?", "'?'")
    div, bits = 1, 32
    if s.text.startswith("{", s.pos):
        s.pos += 1
        if s.keyword("i64"):
            bits = 64
        else:
            s.keyword("i32")
        if s.keyword("div"):
            s.expect("=")
            div_at = s.skip()
            div = s.integer()
            if div < 1:
                s.fail(f"a dynamic leaf's divisibility is a positive integer, got {div}", div_at)
        s.expect("}", "'i64', 'div=N' or '}' in a dynamic leaf's braces")
    try:
        return Dyn(div, bits)
    except LayoutError as e:
        s.fail(str(e), at)


def _modes(s: Scanner, style: str) -> list:
    """The basis modes after a leaf's value: ``@1@0`` (CuTe) or ``E0E1`` (FlyDSL), as a path outer first."""
    t, out = s.text, []
    if style == "fly":
        while t.startswith("E", s.pos) and t[s.pos + 1:s.pos + 2].isdigit():
            s.pos += 1
            out.append(s.integer())
        return out
    while s.at("@"):
        s.pos = s.skip() + 1
        out.append(s.integer(what="a basis mode (an integer)"))
    return out[::-1]


def _leaf(s: Scanner, kind: str, style: str, leaves: list):
    at = s.skip()
    c = s.text[at:at + 1]
    if c == "_" and not s.text[at + 1:at + 2].isdigit():
        if kind != "coord":
            s.fail(f"'_' (a coordinate's slice marker) is not a leaf of a {kind}", at)
        s.pos = at + 1
        leaves.append((None, at))
        return None
    if c == "?":
        value = read_dyn(s)
    elif c == "-" or c.isdigit():
        value = s.integer(signs="-", what=_LEAF)
    else:
        s.expected(_LEAF)
    if s.text.startswith("/", s.pos):
        s.fail("expects scaled-basis strides to have integer values, not ratios", s.pos)
    path = _modes(s, style)
    if path:
        if kind in ("shape", "coord"):
            s.fail(f"a basis leaf is not a leaf of a {kind}", at)
        if type(value) is Dyn:
            raise NotRepresentableError(f"the dynamic basis stride at position {at} of {s.text!r:.120}: unilayout's "
                                        "basis strides hold integer values")
        try:
            value = ScaledBasis(value, tuple(path))
        except LayoutError as e:
            s.fail(str(e), at)
    leaves.append((value, at))
    return value


_FAST_LEAF = re.compile(r"(-?[0-9]{1,18})(?![0-9/E])|(\?(?:\{(?:i64|i32)?(?: ?div=[1-9][0-9]{0,17})?\})?)(?![{/])"
                        r"|(_)(?![0-9])")
_FAST_MODE = re.compile(r"@([0-9]{1,9})")
_DYN_CACHE: dict = {}


def _fast(text: str, i: int, kind: str, leaves: list):
    """CuTe IR's compact spelling (no spaces) read by a loop over its tokens: ``(value, end)``, or None to leave
    the text to the Scanner (which reads every spelling and words the errors)."""
    stack, match, n = [], _FAST_LEAF.match, len(text)
    while True:
        if i < n and text[i] == "(":  # open a tuple
            if len(stack) >= _MAX_DEPTH:
                return None
            stack.append([])
            i += 1
            continue
        m = match(text, i)
        if m is None:
            return None
        number, dyn = m.group(1), m.group(2)
        if number is not None:
            item = int(number)
        elif dyn is not None:
            item = _DYN_CACHE.get(dyn)
            if item is None:
                item = _DYN_CACHE[dyn] = read_dyn(Scanner(dyn))
        elif kind == "coord":
            item = None
        else:
            return None
        at, i = i, m.end()
        if i < n and text[i] == "@":  # a basis stride v@j@i
            if number is None or kind in ("shape", "coord"):
                return None
            path = []
            while i < n and text[i] == "@":
                mm = _FAST_MODE.match(text, i)
                if mm is None:
                    return None
                path.append(int(mm.group(1)))
                i = mm.end()
            item = ScaledBasis(item, tuple(path[::-1]))
        leaves.append((item, at))
        while True:  # the item is complete: end the text, or go on in its tuple
            if not stack:
                return item, i
            stack[-1].append(item)
            c = text[i:i + 1]
            i += 1
            if c == ",":
                break
            if c != ")":
                return None
            item = tuple(stack.pop())


def read_tuple(s: Scanner, kind: str, style: str = "cute", leaves: list | None = None, depth: int = 0):
    """An int tuple of ``kind`` (``shape``, ``stride``, ``int_tuple``, ``coord``) at the cursor.

    ``leaves`` collects ``(leaf, position)`` for the checks that point at a leaf.

    >>> read_tuple(Scanner("(1,(?{div=4},_))"), "coord")
    (1, (Dyn(div=4), None))
    """
    leaves = [] if leaves is None else leaves
    if depth == 0 and style != "fly":
        found = []
        r = _fast(s.text, s.skip(), kind, found)
        if r is not None:
            s.pos = r[1]
            leaves.extend(found)
            return r[0]
    if depth > _MAX_DEPTH:
        s.fail(f"nesting deeper than {_MAX_DEPTH}")
    if not s.accept("("):
        return _leaf(s, kind, style, leaves)
    items = [read_tuple(s, kind, style, leaves, depth + 1)]
    while s.accept(","):
        items.append(read_tuple(s, kind, style, leaves, depth + 1))
    s.expect(")", "',' or ')'")
    return tuple(items)


def _congruent(a, b) -> bool:
    if type(a) is tuple:
        return type(b) is tuple and len(a) == len(b) and all(_congruent(x, y) for x, y in zip(a, b))
    return type(b) is not tuple


def _tuple_text(t) -> str:
    from .ir_print import tuple_string  # lazy: only an error message needs it

    return tuple_string(t)


def _check_strides(s: Scanner, leaves: list) -> None:
    """CuTe IR's stride invariants: all-integer or all-basis (zeros allowed), basis paths at one depth."""
    bases = [(v, p) for v, p in leaves if type(v) is ScaledBasis]
    if not bases:
        return
    for v, p in leaves:
        if type(v) is Dyn or (type(v) is int and v != 0):
            s.fail("expects strides to be either all-integer or all-scaled-basis (zero integers allowed when "
                   f"mixed), got {v} beside {bases[0][0]}", p)
    through = {v.path[:k] for v, _ in bases for k in range(1, len(v.path))}
    for v, p in bases:
        if v.path in through:
            s.fail("expects scaled-basis paths to agree on mode-index depth (no path may terminate at a node that "
                   f"another path continues through), got {_tuple_text(v)}", p)


def _fast_layout(text: str, i: int):
    """``(Layout, end)`` for a compact, valid ``shape:stride`` at ``i``; None leaves it to the Scanner's path."""
    found = []
    r = _fast(text, i, "shape", found)
    if r is None or text[r[1]:r[1] + 1] != ":":
        return None
    shape = r[0]
    for v, _ in found:
        if type(v) is int and v <= 0:
            return None
    found = []
    r = _fast(text, r[1] + 1, "stride", found)
    if r is None or not _congruent(shape, r[0]):
        return None
    if any(type(v) is ScaledBasis for v, _ in found):
        return None  # the stride invariants: checked, and worded, on the Scanner's path
    try:
        return Layout(shape, r[0]), r[1]
    except LayoutError:
        return None


def read_layout(s: Scanner, style: str = "cute") -> Layout:
    """``shape:stride`` at the cursor, with CuTe IR's checks (positive sizes, congruence, stride invariants)."""
    start = s.skip()
    if style != "fly":
        r = _fast_layout(s.text, start)
        if r is not None:
            s.pos = r[1]
            return r[0]
    shape_leaves, stride_leaves = [], []
    shape = read_tuple(s, "shape", style, shape_leaves)
    for v, p in shape_leaves:
        if type(v) is int and v <= 0:
            s.fail(f"expects positive shape mode (a layout's sizes are at least 1), got {v}", p)
    s.expect(":", "':' and the stride")
    stride_at = s.skip()
    stride = read_tuple(s, "stride", style, stride_leaves)
    if not _congruent(shape, stride):
        s.fail(f"expects shape and stride profile to match: stride {_tuple_text(stride)} is not congruent with "
               f"shape {_tuple_text(shape)}", stride_at)
    _check_strides(s, stride_leaves)
    try:
        return Layout(shape, stride)
    except LayoutError as e:
        s.fail(str(e), start)


def read_swizzle(s: Scanner, cute_ir: bool = True) -> Swizzle:
    """``S<B,M,S>`` at the cursor; ``cute_ir`` adds CuTe IR's limits (``|S| >= B``, ``B + M + |S| <= 32``)."""
    at = s.skip()
    s.expect("S", "'S<'")
    s.expect("<")
    args = [s.integer(signs="-")]
    for _ in range(2):
        s.expect(",")
        args.append(s.integer(signs="-"))
    s.expect(">")
    b, m, sh = args
    if cute_ir and b >= 0 and m >= 0:
        if abs(sh) + b + m > 32:
            s.fail(f"expects |num_shift| + num_bits + num_base <= 32, got {abs(sh)} + {b} + {m} = {abs(sh) + b + m} "
                   f"for swizzle S<{b},{m},{sh}>", at)
        if abs(sh) < b:
            s.fail(f"expects |num_shift| >= num_bits, got {abs(sh)} < {b} for swizzle S<{b},{m},{sh}>", at)
    try:
        return Swizzle(b, m, sh)
    except LayoutError as e:
        s.fail(str(e), at)


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
        raise NotRepresentableError(f"the offset {_tuple_text(offset)} at position {offset_at} of {s.text!r:.120}: "
                                    "unilayout's ComposedLayout holds an integer offset")
    return ComposedLayout(first, offset, inner)


def _leaves_of(t):
    if type(t) is tuple:
        for v in t:
            yield from _leaves_of(v)
    else:
        yield t


def read_composed(s: Scanner, style: str = "cute", need_o: bool = False):
    """A layout, or ``A o offset o B`` (``A`` a layout or ``S<B,M,S>``), at the cursor."""
    at = s.skip()
    first = _outer(s, style)
    if s.at_keyword("o"):
        return _composed_rest(s, first, at, style)
    if need_o or isinstance(first, Swizzle):
        s.expected("'o' and the offset of a composed layout")
    return first


def read_tile(s: Scanner, style: str = "cute", depth: int = 0) -> Tile:
    """``[m0;m1;...]`` (FlyDSL ``[m0|m1|...]``) at the cursor."""
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
                                    f"{_tuple_text(base)}: unilayout reads a counting tensor that starts at zero")
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
        _check_strides(s, leaves)
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
