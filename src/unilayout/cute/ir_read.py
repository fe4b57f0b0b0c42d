"""Reading the leaves, int tuples, layouts and swizzles inside CuTe IR's types (and FlyDSL's, Mojo's).

The pieces ``cute.ir_text`` reads its types with (its docstring has the
whole grammar). A leaf is an integer, a dynamic leaf ``?``, ``?{div=N}``,
``?{i64}``, ``?{i64 div=N}`` (a ``cute.Dyn``), a coordinate's ``_``, or a
basis stride: CuTe writes ``1@1@0`` for the mode ``(0,1)`` (inner mode
first), FlyDSL ``1E0E1`` (outer mode first). CuTe IR prints without spaces;
a fast path reads that spelling by indexing, and anything else (spaces, a
malformed text) goes through the ``Scanner``, which words every error with
its position.

>>> from unilayout._text import Scanner
>>> read_tuple(Scanner("(4,(?{div=8},1@1@0))"), "stride")
(4, (Dyn(div=8), ScaledBasis(1, (0, 1))))
>>> read_layout(Scanner("(8, 16):(1E0, 1E1)"), "fly")
Layout((8, 16), (ScaledBasis(1, 0), ScaledBasis(1, 1)))
>>> read_swizzle(Scanner("S<3,4,2>"))
Traceback (most recent call last):
...
unilayout.errors.ParseError: expects |num_shift| >= num_bits, got 2 < 3 for swizzle S<3,4,2> at position 0
  S<3,4,2>
  ^
"""

from __future__ import annotations

import re

from .._text import Scanner
from ..errors import LayoutError, NotRepresentableError
from .basis import ScaledBasis
from .dyn import Dyn
from .ir_print import tuple_string
from .layout import Layout
from .swizzle import Swizzle

__all__ = ["read_dyn", "read_tuple", "read_layout", "read_swizzle", "check_strides", "congruent_profile", "tuple_text",
           "MAX_DEPTH"]

#: How deep tuples (and tiles) may nest.
MAX_DEPTH = 64
_MAX_DEPTH = MAX_DEPTH
_LEAF = "an integer, '?' or '('"


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


def congruent_profile(a, b) -> bool:
    """Whether ``a`` and ``b`` nest alike (leaves against leaves).

    >>> congruent_profile((1, (2, 3)), (4, (5, 6))), congruent_profile((1, 2), (1, (2, 3)))
    (True, False)
    """
    if type(a) is tuple:
        return type(b) is tuple and len(a) == len(b) and all(congruent_profile(x, y) for x, y in zip(a, b))
    return type(b) is not tuple


def tuple_text(t) -> str:
    """``t`` as CuTe IR prints it (for messages).

    >>> tuple_text((Dyn(div=4), ScaledBasis(1, (0, 1))))
    '(?{div=4},1@1@0)'
    """
    return tuple_string(t)


def check_strides(s: Scanner, leaves: list) -> None:
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
                   f"another path continues through), got {tuple_text(v)}", p)


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
    if r is None or not congruent_profile(shape, r[0]):
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
    if not congruent_profile(shape, stride):
        s.fail(f"expects shape and stride profile to match: stride {tuple_text(stride)} is not congruent with "
               f"shape {tuple_text(shape)}", stride_at)
    check_strides(s, stride_leaves)
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
