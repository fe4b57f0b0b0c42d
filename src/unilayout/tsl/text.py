"""The ``#tsl.tsl<...>`` text form: the parser, on the shared scanner (the printer is ``str``).

Grammar (snax-mlir's TSL attribute), read with ``unilayout._text.Scanner``;
whitespace is free between tokens, commas are required::

    tsl     ::= '#tsl.tsl<' body '>'  |  body
    body    ::= tstride (',' tstride)* [',' 'offset' ':' value]
    tstride ::= '[' value (',' value)* ']' '->' '(' value (',' value)* ')'
    value   ::= ['-'] DIGITS | '?'

Departures from snax: the ``#tsl.tsl<>`` wrapper may be left off; values
must fit in 64 bits; only the outermost bound of a dimension may be ``?``.

>>> str(parse("#tsl.tsl<[2,4]->(32,4),[2,4]->(16,1),offset:5>"))
'#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5>'
>>> parse("#tsl.tsl<[8, 8] -> (64, 8, 1)>")
Traceback (most recent call last):
...
unilayout.errors.ParseError: dim 0 has 2 bounds but 3 steps at position 27
  #tsl.tsl<[8, 8] -> (64, 8, 1)>
                             ^
"""

from __future__ import annotations

from .._ints import as_int
from .._text import Scanner, check_text
from .layout import Stride, TiledStride, TiledStridedLayout

__all__ = ["parse"]

_PREFIX = "#tsl.tsl<"
_INT64_MAX = (1 << 63) - 1


def _value(s: Scanner):
    """``'?'`` (None) or a signed 64-bit int; returns ``(value, position)``."""
    at = s.skip()
    if s.accept("?"):
        return None, at
    v = s.integer(signs="-", what="an integer or '?'", limit=_INT64_MAX)  # bounded as read
    return as_int(v, "TSL value"), at


def _values(s: Scanner, open_: str, close: str, what: str):
    s.expect(open_, what)
    out = [_value(s)]
    while not s.accept(close):
        s.expect(",", f"',' or {close!r}")
        out.append(_value(s))
    return out


def _tstride(s: Scanner, dim: int) -> TiledStride:
    bounds = _values(s, "[", "]", f"'[' to start the bounds of dim {dim}")
    s.expect("->")
    steps = _values(s, "(", ")", f"'(' to start the steps of dim {dim}")
    if len(steps) != len(bounds):
        pos = steps[len(bounds)][1] if len(steps) > len(bounds) else s.pos - 1
        s.fail(f"dim {dim} has {len(bounds)} bounds but {len(steps)} steps", pos)
    for k, (b, pos) in enumerate(bounds):
        if b is None and k > 0:
            s.fail("only the outermost bound may be '?'", pos)
        if b is not None and b < 1:
            s.fail(f"bound must be >= 1, got {b}", pos)
    return TiledStride([Stride(b, step) for (b, _), (step, _) in zip(bounds, steps)])


def parse(text: str) -> TiledStridedLayout:
    """Parse a TSL attribute ``#tsl.tsl<[b, ..] -> (s, ..), .., offset: o>`` (or its bare body).

    Also ``TiledStridedLayout.parse``. Raises ``ParseError`` with the 0-based
    position and what was expected.

    >>> parse("[?, 4] -> (?, 1), offset: ?").is_dynamic
    True
    >>> parse("#tsl.tsl<[2 4] -> (32, 4)>")
    Traceback (most recent call last):
    ...
    unilayout.errors.ParseError: expected ',' or ']', found '4' at position 12
      #tsl.tsl<[2 4] -> (32, 4)>
                  ^
    """
    s = Scanner(check_text(text, "TSL text"))
    wrapped = s.accept(_PREFIX)
    if not wrapped and s.at("#"):
        s.expected(repr(_PREFIX))
    tstrides = [_tstride(s, 0)]
    offset = 0
    while s.accept(","):
        if s.keyword("offset"):
            s.expect(":", "':' after 'offset'")
            offset, _ = _value(s)
            break
        tstrides.append(_tstride(s, len(tstrides)))
    if wrapped:
        s.expect(">", "'>' to close '#tsl.tsl<'")
    s.expect_end()
    return TiledStridedLayout(tstrides, offset)


# ``TiledStridedLayout.parse`` is this module's: attached here so that the value module never imports its parser.
TiledStridedLayout.parse = staticmethod(parse)
