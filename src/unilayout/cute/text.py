"""CuTe's text form: ``shape:stride``, swizzles ``Sw<B,M,S>`` and ``Sw<3,4,3> o 0 o (8,64):(64,1)``.

``str(L)`` prints CuTe C++'s form without spaces; ``parse`` reads it back, and
also C++'s static markers (``_8``), spaces, and pycute's spaced form with
trailing commas (``(3,):(2,)``). A shape alone means column-major.

>>> parse("((2,2),2):((4,1),2)")
Layout(((2, 2), 2), ((4, 1), 2))
>>> parse("(_8, _4) : (_4, _1)")
Layout((8, 4), (4, 1))
>>> parse("Sw<3,4,3> o 0 o (8,64):(64,1)")
ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, 64), (64, 1)))
>>> parse("(2,3):(1,")
Traceback (most recent call last):
...
unilayout.errors.ParseError: expected an int or '(' at position 9
  (2,3):(1,
           ^
"""

from __future__ import annotations

from ..errors import LayoutError, ParseError
from .inttuple import congruent, int_tuple_str
from .layout import Layout
from .swizzle import ComposedLayout, Swizzle

__all__ = ["parse"]

_MAX_DEPTH = 64


class _Reader:
    def __init__(self, text: str):
        self.text, self.pos = text, 0

    def fail(self, msg, pos=None):
        raise ParseError(msg, self.text, self.pos if pos is None else pos)

    def ws(self):
        t, p = self.text, self.pos
        while p < len(t) and t[p] in " \t\n\r":
            p += 1
        self.pos = p

    def peek(self) -> str:
        self.ws()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def expect(self, ch: str):
        if self.peek() != ch:
            self.fail(f"expected {ch!r}")
        self.pos += 1

    def int_(self) -> int:
        self.ws()
        t, start = self.text, self.pos
        p = start
        if p < len(t) and t[p] == "_":
            p += 1
        if p < len(t) and t[p] in "+-":
            p += 1
        if p < len(t) and t[p] == "_":  # _-1 or -_1
            p += 1
        digits = p
        while p < len(t) and "0" <= t[p] <= "9":
            p += 1
        if p == digits:
            self.fail("expected an int or '('", start)
        self.pos = p
        return int(t[start:p].replace("_", ""))

    def int_tuple(self, depth=0):
        if depth > _MAX_DEPTH:
            self.fail(f"nesting deeper than {_MAX_DEPTH}")
        if self.peek() != "(":
            return self.int_()
        self.pos += 1
        items = []
        while True:
            if self.peek() == ")":
                self.pos += 1
                return tuple(items)
            items.append(self.int_tuple(depth + 1))
            c = self.peek()
            if c == ",":
                self.pos += 1
            elif c != ")":
                self.fail("expected ',' or ')'")

    def layout(self) -> Layout:
        start = self.pos
        shape = self.int_tuple()
        if self.peek() != ":":
            return self._build(shape, None, start)
        self.pos += 1
        stride_at = self.pos
        stride = self.int_tuple()
        if not congruent(shape, stride):
            self.fail(
                f"stride {int_tuple_str(stride)} is not congruent with shape {int_tuple_str(shape)}", stride_at
            )
        return self._build(shape, stride, start)

    def _build(self, shape, stride, start):
        try:
            return Layout(shape, stride)
        except LayoutError as e:
            self.fail(str(e), start)

    def swizzle(self) -> Swizzle:
        start = self.pos
        self.ws()
        if not self.text.startswith(("Sw", "SW"), self.pos):
            self.fail("expected 'Sw<'")
        self.pos += 2
        if self.peek() == "_":  # SW_3_4_3 (pycute)
            args = []
            for _ in range(3):
                self.expect("_")
                args.append(self.int_())
        else:
            self.expect("<")
            args = [self.int_()]
            for _ in range(2):
                self.expect(",")
                args.append(self.int_())
            self.expect(">")
        try:
            return Swizzle(*args)
        except LayoutError as e:
            self.fail(str(e), start)

    def function(self):
        """A Swizzle or a Layout (the parts of a composed layout)."""
        self.ws()
        if self.text.startswith(("Sw", "SW"), self.pos):  # pycute spells it SW_3_4_3
            return self.swizzle()
        return self.layout()

    def separator(self) -> bool:
        """Consume `` o `` or ``_o_`` between parts of a composed layout."""
        self.ws()
        t, p = self.text, self.pos
        for sep in ("_o_", "o"):
            if t.startswith(sep, p):
                end = p + len(sep)
                if sep == "o" and end < len(t) and (t[end].isalnum() and t[end] != "_"):
                    continue
                self.pos = end
                return True
        return False


def parse(text: str):
    """Parse CuTe text into a ``Layout``, ``Swizzle`` or ``ComposedLayout``.

    >>> parse("8:1"), parse("Sw<2,0,2>")
    (Layout(8, 1), Swizzle(2, 0, 2))
    >>> parse("(4,8) o 2 o (4,8):(8,1)")
    ComposedLayout(Layout((4, 8), (1, 4)), 2, Layout((4, 8), (8, 1)))
    """
    if not isinstance(text, str):
        raise LayoutError(f"parse: expected text, got {type(text).__name__}")
    r = _Reader(text)
    first = r.function()
    if r.separator():
        offset = r.int_()
        if not r.separator():
            r.fail("expected 'o' and the inner layout")
        r.ws()
        inner_at = r.pos
        inner = r.function()
        if not isinstance(inner, Layout):
            r.fail("the inner part of a composed layout must be a layout", inner_at)
        result = ComposedLayout(first, offset, inner)
    else:
        result = first
    if r.peek() != "":
        r.fail("unexpected text after the layout")
    return result
