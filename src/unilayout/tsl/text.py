"""The ``#tsl.tsl<...>`` text form: parser with precise errors, and printer (``str``).

Grammar (whitespace free between tokens, commas required)::

    tsl     ::= '#tsl.tsl<' body '>'  |  body
    body    ::= tstride (',' tstride)* [',' 'offset' ':' value]
    tstride ::= '[' value (',' value)* ']' '->' '(' value (',' value)* ')'
    value   ::= ['-'] DIGITS | '?'

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

from ..errors import LayoutError, ParseError
from .layout import Stride, TiledStride, TiledStridedLayout

__all__ = ["parse"]

_PREFIX = "#tsl.tsl<"
_INT64_MAX = (1 << 63) - 1


class _Parser:
    __slots__ = ("text", "i", "n")

    def __init__(self, text):
        self.text = text
        self.i = 0
        self.n = len(text)

    def error(self, message, pos=None):
        return ParseError(message, self.text, self.i if pos is None else pos)

    def skip(self):
        t, i, n = self.text, self.i, self.n
        while i < n and t[i] in " \t\r\n":
            i += 1
        self.i = i

    def peek(self, s):
        self.skip()
        return self.text.startswith(s, self.i)

    def expect(self, s, what=None):
        if not self.peek(s):
            raise self.error(f"expected {what or repr(s)}, found {self.found()}")
        self.i += len(s)

    def found(self):
        if self.i >= self.n:
            return "end of text"
        return repr(self.text[self.i])

    def value(self):
        """('?' -> None) or an int; returns (value, position)."""
        self.skip()
        t, i = self.text, self.i
        if t.startswith("?", i):
            self.i += 1
            return None, i
        j = i + 1 if t.startswith("-", i) else i
        k = j
        while k < self.n and t[k].isascii() and t[k].isdigit():
            k += 1
        if k == j:
            found = repr(t[j]) if j < self.n else "end of text"
            raise self.error(f"expected an integer or '?', found {found}", j)
        v = int(t[i:k])
        if abs(v) > _INT64_MAX:
            raise self.error("integer does not fit in 64 bits", i)
        self.i = k
        return v, i

    def values(self, open_, close):
        self.expect(open_)
        out = []
        while True:
            out.append(self.value())
            if self.peek(","):
                self.i += 1
                continue
            if self.peek(close):
                self.i += 1
                return out
            raise self.error(f"expected ',' or {close!r}, found {self.found()}")

    def tstride(self, dim):
        if not self.peek("["):
            raise self.error(f"expected '[' to start the bounds of dim {dim}, found {self.found()}")
        bounds = self.values("[", "]")
        self.expect("->", "'->'")
        if not self.peek("("):
            raise self.error(f"expected '(' to start the steps of dim {dim}, found {self.found()}")
        steps = self.values("(", ")")
        if len(steps) != len(bounds):
            if len(steps) > len(bounds):
                pos = steps[len(bounds)][1]
            else:
                pos = self.i - 1
            raise self.error(f"dim {dim} has {len(bounds)} bounds but {len(steps)} steps", pos)
        for k, (b, pos) in enumerate(bounds):
            if b is None and k > 0:
                raise self.error("only the outermost bound may be '?'", pos)
            if b is not None and b < 1:
                raise self.error(f"bound must be >= 1, got {b}", pos)
        return TiledStride([Stride(b, s) for (b, _), (s, _) in zip(bounds, steps)])

    def parse(self):
        self.skip()
        wrapped = self.text.startswith(_PREFIX, self.i)
        if wrapped:
            self.i += len(_PREFIX)
        elif self.peek("#"):
            raise self.error("expected '#tsl.tsl<'")
        tstrides = [self.tstride(0)]
        offset = 0
        while self.peek(","):
            self.i += 1
            if self.peek("offset"):
                self.i += len("offset")
                if not self.peek(":"):
                    raise self.error(f"expected ':' after 'offset', found {self.found()}")
                self.i += 1
                offset, _ = self.value()
                break
            tstrides.append(self.tstride(len(tstrides)))
        if wrapped:
            if not self.peek(">"):
                raise self.error(f"expected '>' to close '#tsl.tsl<', found {self.found()}")
            self.i += 1
        self.skip()
        if self.i < self.n:
            raise self.error(f"expected end of text, found {self.found()}")
        return TiledStridedLayout(tstrides, offset)


def parse(text: str) -> TiledStridedLayout:
    """Parse a TSL attribute ``#tsl.tsl<[b, ..] -> (s, ..), .., offset: o>`` (or its bare body).

    Raises ``ParseError`` with the 0-based position and what was expected.

    >>> parse("[?, 4] -> (?, 1), offset: ?").is_dynamic
    True
    >>> parse("#tsl.tsl<[2 4] -> (32, 4)>")
    Traceback (most recent call last):
    ...
    unilayout.errors.ParseError: expected ',' or ']', found '4' at position 12
      #tsl.tsl<[2 4] -> (32, 4)>
                  ^
    """
    if not isinstance(text, str):
        raise LayoutError(f"expected TSL text (str), got {type(text).__name__}")
    return _Parser(text).parse()
