"""One text scanner for every family's parser: a cursor over the text, one wording per error kind.

Each family's ``text.py`` states its grammar and reads it with a ``Scanner``:
a position ``pos`` into the original text and a handful of moves. Whitespace
(spaces, tabs, newlines) is free between tokens: every move skips it first.

=====================  ===============================================================
move                   what it does
=====================  ===============================================================
``skip()``             skip whitespace; returns the new ``pos``
``peek()``             the next character after whitespace (``""`` at the end)
``at(lit)``            whether the text continues with ``lit`` (after whitespace)
``accept(lit)``        consume ``lit`` if it is next; ``True`` if it was
``expect(lit, what)``  consume ``lit`` or fail: ``expected <what>, found <token>``
``keyword(word)``      ``accept`` for a whole word (``o`` does not match ``offset``)
``integer(signs)``     ASCII digits (after one of ``signs`` if given) as an ``int``
``identifier(what)``   ``[A-Za-z_][A-Za-z0-9_$.]*`` (MLIR's bare identifier)
``end()``              whether only whitespace is left
``expect_end()``       fail unless only whitespace is left
``fail(msg, pos)``     raise ``ParseError(msg, text, pos)`` (``pos`` defaults to ``pos``)
=====================  ===============================================================

Error messages have one wording per kind, so every family reads the same:

- ``expected <what>, found <token>``: a literal, a name or a field is missing;
  ``<token>`` is the word, number or character at the position, quoted, or
  ``end of text``;
- ``expected an integer, found <token>``: digits are missing (a superscript
  ``\u00b2`` or a full-width digit is not an ASCII digit);
- ``unexpected text after the end, found <token>``: a complete value is followed
  by more text.

Positions are 0-based character offsets into the original text, leading
whitespace counted, pointing at the token at fault.

A worked example: the grammar ``pair ::= '<' INT 'x' INT '>'``::

    >>> def pair(text):
    ...     s = Scanner(text)
    ...     s.expect("<")
    ...     a = s.integer()
    ...     s.expect("x")
    ...     b = s.integer()
    ...     s.expect(">")
    ...     s.expect_end()
    ...     return a, b
    >>> pair(" < 2 x 16 >")
    (2, 16)
    >>> pair("<2x>")
    Traceback (most recent call last):
    ...
    unilayout.errors.ParseError: expected an integer, found '>' at position 3
      <2x>
         ^
    >>> pair("<2x4> 5")
    Traceback (most recent call last):
    ...
    unilayout.errors.ParseError: unexpected text after the end, found '5' at position 6
      <2x4> 5
            ^

A family reads its own checks through ``fail`` so that a value the
constructor refuses points at the field at fault::

    >>> s = Scanner("grid <3x0>")
    >>> s.keyword("grid"), s.skip()
    (True, 5)
    >>> s.fail("grid 3x0: every dim must be >= 1", 5)
    Traceback (most recent call last):
    ...
    unilayout.errors.ParseError: grid 3x0: every dim must be >= 1 at position 5
      grid <3x0>
           ^
"""

from __future__ import annotations

from .errors import LayoutError, ParseError

__all__ = ["Scanner", "check_text", "parse_sizes"]

#: The whitespace every parser skips between tokens.
SPACE = " \t\r\n"

#: The largest magnitude ``Scanner.integer`` reads by default (uint64's maximum).
MAX_INT = (1 << 64) - 1

_DIGITS = "0123456789"
_ID_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_ID_CHAR = _ID_START | frozenset(_DIGITS) | frozenset("$.")


def check_text(text, what: str) -> str:
    """``text`` if it is a ``str``, else ``LayoutError`` naming ``what`` the parser reads.

    >>> check_text(3, "CuTe text")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: expected CuTe text (str), got int
    """
    if not isinstance(text, str):
        raise LayoutError(f"expected {what} (str), got {type(text).__name__}")
    return text


def parse_sizes(text, what: str | None = None, least: int = 1) -> tuple:
    """The sizes a command line gives as ``8x8`` or ``8,8``, each at least ``least``, or ``LayoutError``.

    ``least=1`` (a box, a mesh, a tile) also refuses an empty list; ``what``
    (``"--shape"``) starts the message when given.

    >>> parse_sizes("53x63"), parse_sizes("2, 4"), parse_sizes("0x8", "--shape", least=0)
    ((53, 63), (2, 4), (0, 8))
    >>> parse_sizes("8x0", "--mesh")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: --mesh: expected positive sizes like 8x8, got '8x0'
    """
    head = f"{what}: " if what else ""
    parts = [p for p in str(text).replace(",", "x").lower().split("x") if p.strip()]
    try:
        dims = tuple(int(p) for p in parts)
    except ValueError:
        raise LayoutError(f"{head}expected sizes like 8x8, got {text!r}") from None
    if (least and not dims) or any(d < least for d in dims):
        raise LayoutError(f"{head}expected {'positive ' if least else ''}sizes like 8x8, got {text!r}")
    return dims


class Scanner:
    """A cursor over ``text``: ``pos`` is the 0-based offset of the next unread character.

    >>> s = Scanner("  foo = -12]")
    >>> s.identifier(), s.accept("="), s.integer(signs="-"), s.pos
    ('foo', True, -12, 11)
    >>> s.peek(), s.end()
    (']', False)
    """

    __slots__ = ("text", "pos")

    def __init__(self, text: str, pos: int = 0):
        self.text = text
        self.pos = pos

    # --- looking ---------------------------------------------------------------------
    def skip(self) -> int:
        """Skip whitespace; the new position.

        >>> Scanner(" \\n x").skip()
        3
        """
        t, p = self.text, self.pos
        if p < len(t) and t[p] in SPACE:
            n = len(t)
            p += 1
            while p < n and t[p] in SPACE:
                p += 1
            self.pos = p
        return p

    def peek(self) -> str:
        """The next character after whitespace, ``""`` at the end.

        >>> Scanner("  (").peek(), Scanner(" ").peek()
        ('(', '')
        """
        t, p = self.text, self.pos
        if p < len(t) and t[p] in SPACE:
            p = self.skip()
        return t[p:p + 1]

    def at(self, lit: str) -> bool:
        """Whether the text continues with ``lit`` after whitespace (nothing is consumed).

        >>> Scanner(" -> (").at("->")
        True
        """
        t, p = self.text, self.pos
        if p < len(t) and t[p] in SPACE:
            p = self.skip()
        return t.startswith(lit, p)

    def at_keyword(self, word: str) -> bool:
        """Whether the next word (identifier characters) is exactly ``word``.

        >>> Scanner("offset: 5").at_keyword("o"), Scanner("o 0").at_keyword("o")
        (False, True)
        """
        t, p = self.text, self.pos
        if p < len(t) and t[p] in SPACE:
            p = self.skip()
        end = p + len(word)
        return t.startswith(word, p) and (end >= len(t) or t[end] not in _ID_CHAR)

    def found(self) -> str:
        """How an error names the token at ``pos``: a word, a number or one character, quoted; or ``end of text``.

        >>> Scanner("2d0 + 1").found(), Scanner(")").found(), Scanner("").found()
        ("'2d0'", "')'", 'end of text')
        """
        t, p = self.text, self.pos
        if p >= len(t):
            return "end of text"
        q = p
        while q < len(t) and t[q] in _ID_CHAR:
            q += 1
        return repr(t[p:max(q, p + 1)])

    # --- consuming ---------------------------------------------------------------------
    def accept(self, lit: str) -> bool:
        """Consume ``lit`` if it comes next (after whitespace).

        >>> s = Scanner(" , x")
        >>> s.accept(","), s.accept(","), s.pos
        (True, False, 3)
        """
        if self.at(lit):
            self.pos += len(lit)
            return True
        return False

    def keyword(self, word: str) -> bool:
        """Consume the whole word ``word`` if it comes next.

        >>> s = Scanner("offset: 5")
        >>> s.keyword("o"), s.keyword("offset"), s.pos
        (False, True, 6)
        """
        if self.at_keyword(word):
            self.pos += len(word)
            return True
        return False

    def expect(self, lit: str, what: str | None = None) -> int:
        """Consume ``lit`` or fail with ``expected <what>, found <token>``; returns where ``lit`` started.

        ``what`` defaults to ``lit`` quoted.

        >>> Scanner("(8)").expect("(")
        0
        >>> Scanner("8)").expect("(", "'(' to open the shape")
        Traceback (most recent call last):
        ...
        unilayout.errors.ParseError: expected '(' to open the shape, found '8' at position 0
          8)
          ^
        """
        start = self.skip()
        if not self.accept(lit):
            self.expected(what or repr(lit))
        return start

    def expected(self, what: str, position: int | None = None):
        """Fail with ``expected <what>, found <token at position>``.

        >>> Scanner("x").expected("a basis")
        Traceback (most recent call last):
        ...
        unilayout.errors.ParseError: expected a basis, found 'x' at position 0
          x
          ^
        """
        if position is not None:
            self.pos = position
        else:
            self.skip()
        self.fail(f"expected {what}, found {self.found()}")

    def integer(self, signs: str = "", what: str = "an integer", limit: int | None = None) -> int:
        """ASCII decimal digits, after one optional sign from ``signs`` (``"-"``, ``"+-"``), as an int.

        The error points just after the sign, where the digits should be.
        Numbers are bounded when read: more than ``limit`` in magnitude
        (``MAX_INT``, 2**64 - 1, by default) is a ``ParseError`` at the
        number, before Python converts it (so 5,000 digits cost nothing and
        never reach Python's 4,300-digit limit). Each family still checks
        the range it allows.

        >>> Scanner(" -7,").integer(signs="-"), Scanner("042").integer()
        (-7, 42)
        >>> Scanner("-" + "0" * 5000 + "9").integer(signs="-")  # leading zeros do not count toward int()'s limit
        -9
        >>> Scanner("99999999999999999999").integer()
        Traceback (most recent call last):
        ...
        unilayout.errors.ParseError: integer 99999999999999999999 is out of range (at most 18446744073709551615) at position 0
          99999999999999999999
          ^
        >>> Scanner("-7").integer()
        Traceback (most recent call last):
        ...
        unilayout.errors.ParseError: expected an integer, found '-' at position 0
          -7
          ^
        """
        t, start = self.text, self.pos
        if start < len(t) and t[start] in SPACE:
            start = self.skip()
        p = start
        if signs and p < len(t) and t[p] in signs:
            p += 1
        digits = p
        while p < len(t) and t[p] in _DIGITS:
            p += 1
        if p == digits:
            self.expected(what, digits)
        limit = MAX_INT if limit is None else limit
        lead = digits
        while lead < p - 1 and t[lead] == "0":
            lead += 1
        if p - lead > len(str(limit)) or int(t[lead:p]) > limit:
            shown = t[digits:p] if p - digits <= 24 else f"{t[digits:digits + 8]}...({p - digits} digits)"
            self.fail(f"integer {shown} is out of range (at most {limit})", start)
        self.pos = p
        value = int(t[lead:p])  # the leading zeros stripped: int() refuses over 4,300 digits, zeros included
        return -value if t[start] == "-" else value

    def identifier(self, what: str = "an identifier") -> str:
        """MLIR's bare identifier ``[A-Za-z_][A-Za-z0-9_$.]*`` (ASCII only).

        >>> Scanner("bfp_bf8>").identifier(), Scanner("d0.x$1").identifier()
        ('bfp_bf8', 'd0.x$1')
        >>> Scanner("8x").identifier("an element type")
        Traceback (most recent call last):
        ...
        unilayout.errors.ParseError: expected an element type, found '8x' at position 0
          8x
          ^
        """
        t, start = self.text, self.pos
        if start < len(t) and t[start] in SPACE:
            start = self.skip()
        if start >= len(t) or t[start] not in _ID_START:
            self.expected(what)
        p = start + 1
        while p < len(t) and t[p] in _ID_CHAR:
            p += 1
        self.pos = p
        return t[start:p]

    # --- ending and failing ------------------------------------------------------------
    def end(self) -> bool:
        """Whether only whitespace is left.

        >>> Scanner("x  ", 1).end()
        True
        """
        return self.skip() >= len(self.text)

    def expect_end(self) -> None:
        """Fail with ``unexpected text after the end, found <token>`` unless only whitespace is left.

        >>> Scanner("8:1 )", 3).expect_end()
        Traceback (most recent call last):
        ...
        unilayout.errors.ParseError: unexpected text after the end, found ')' at position 4
          8:1 )
              ^
        """
        if not self.end():
            self.fail(f"unexpected text after the end, found {self.found()}")

    def fail(self, message: str, position: int | None = None):
        """Raise ``ParseError(message, text, position)``; ``position`` defaults to ``pos``.

        >>> Scanner("abc", 2).fail("bad")
        Traceback (most recent call last):
        ...
        unilayout.errors.ParseError: bad at position 2
          abc
            ^
        """
        raise ParseError(message, self.text, self.pos if position is None else position)
