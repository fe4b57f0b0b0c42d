"""MLIR's textual form of affine maps: a recursive-descent parser on the shared scanner.

Grammar (MLIR's ``AffineParser``), read with ``unilayout._text.Scanner``::

    map     ::= 'affine_map' '<' body '>'  |  body
    body    ::= '(' [id (',' id)*] ')' ['[' [id (',' id)*] ']'] '->' '(' [expr (',' expr)*] ')'
    expr    ::= term (('+' | '-') term)*                                left-assoc
    term    ::= operand (('*' | 'floordiv' | 'ceildiv' | 'mod') operand)*  left-assoc
    operand ::= '-' operand | INT | id | '(' expr ')'
    id      ::= [A-Za-z_] [A-Za-z0-9_$.]*                               MLIR's bare identifier

As in MLIR, ``floordiv``, ``ceildiv`` and ``mod`` are keywords only where an
operator is expected: a declared dim or symbol may be called ``mod``, and
``mod floordiv 2`` then divides that name by 2. Expressions are built with
MLIR's construction folds and print as ``mlir-opt`` does (dims ``d0, d1, ..``,
symbols ``s0, s1, ..``, whatever names the text declared), so
``parse(str(m)) == m``:

>>> print(parse("(i, j)[n] -> (2 * i + 1, j - (i + n))"))
(d0, d1)[s0] -> (d0 * 2 + 1, d1 - (d0 + s0))
>>> print(parse("(d0, d1)[mod, floordiv] -> (mod floordiv 2 - d0)"))
(d0, d1)[s0, s1] -> (-d0 + s0 floordiv 2)

Departures from MLIR: integer literals are decimal only and must fit in 64
bits; expressions nest at most ``MAX_DEPTH`` levels; ``symbol(..)`` operands
and ``affine_set`` are not read. Bad text raises ``ParseError`` with the
0-based position and what was expected:

>>> parse("(d0) -> (d0 * d0)")
Traceback (most recent call last):
...
unilayout.errors.ParseError: non-affine expression: one factor of '*' must be free of dims at position 12
  (d0) -> (d0 * d0)
              ^
"""

from __future__ import annotations

from .._text import SPACE, Scanner, check_text
from ..errors import LayoutError
from .expr import (
    CEILDIV,
    FLOORDIV,
    MAX_DEPTH,
    MOD,
    AffineExpr,
    Constant,
    Dim,
    Symbol,
    print_expr,
)
from .fold import get_add, get_ceildiv, get_floordiv, get_mod, get_mul
from .map import AffineMap, print_map

__all__ = ["parse", "parse_map", "parse_expr", "read_map", "print_expr", "print_map"]

_INT64_MAX = (1 << 63) - 1
_DIVOPS = {FLOORDIV: get_floordiv, CEILDIV: get_ceildiv, MOD: get_mod}
_MINUS_ONE = Constant(-1)


def _divop_at(t, at):
    """The operator keyword (floordiv, ceildiv, mod) that is the whole word at ``t[at:]``, or None."""
    for op in _DIVOPS:
        end = at + len(op)
        if t.startswith(op, at) and t[end:end + 1] not in _ID_CHARS:
            return op
    return None


def _sub(a, b):
    return get_add(a, get_mul(b, _MINUS_ONE))


_OPERAND = "an affine operand (integer, identifier, '-' or '(')"
_ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$.")


class _Reader:
    """The parser state: the scanner, the declared names, and the nesting depth."""

    __slots__ = ("s", "names", "implicit", "nest")

    def __init__(self, s: Scanner, implicit: bool = False):
        self.s = s
        self.names = {}
        self.implicit = implicit
        self.nest = 0

    # --- map ------------------------------------------------------------------------------
    def map(self) -> AffineMap:
        s = self.s
        wrapped = s.keyword("affine_map")
        if wrapped:
            s.expect("<", "'<' after 'affine_map'")
        num_dims = self.id_list("(", ")", Dim, "dimension")
        num_syms = self.id_list("[", "]", Symbol, "symbol") if s.at("[") else 0
        s.expect("->")
        s.expect("(", "'(' to open the results")
        results = []
        if not s.accept(")"):
            results.append(self.expr())
            while not s.accept(")"):
                s.expect(",", "',' or ')'")
                results.append(self.expr())
        if wrapped:
            s.expect(">", "'>' to close 'affine_map<'")
        return AffineMap(num_dims, num_syms, results)

    def id_list(self, open_, close, kind, what) -> int:
        s = self.s
        s.expect(open_, f"{open_!r} to open the {what} list")
        count = 0
        if s.accept(close):
            return 0
        while True:
            at = s.skip()
            name = s.identifier()  # any bare identifier, keywords included (MLIR's isIdentifier)
            if name in self.names:
                s.fail(f"redefinition of identifier {name!r}", at)
            self.names[name] = kind(count)
            count += 1
            if s.accept(close):
                return count
            s.expect(",", f"',' or {close!r}")

    # --- expressions --------------------------------------------------------------------------
    # The two loops below look at the next character directly (one skip, no scanner calls per
    # alternative): they run once per operator of every map read, the hot path of parsing.
    def expr(self) -> AffineExpr:
        s = self.s
        t = s.text
        lhs = self.term()
        while True:
            at = s.pos
            if t[at:at + 1] in SPACE:
                at = s.skip()
            c = t[at:at + 1]
            if c == "+":
                s.pos = at + 1
                lhs = self.build(get_add, lhs, self.term(), at)
            elif c == "-" and not t.startswith("->", at):
                s.pos = at + 1
                rhs = self.term()
                lhs = self.build(_sub, lhs, rhs, at)
            else:
                return lhs

    def term(self) -> AffineExpr:
        s = self.s
        t = s.text
        lhs = self.operand()
        while True:
            at = s.pos
            if t[at:at + 1] in SPACE:
                at = s.skip()
            c = t[at:at + 1]
            if c == "*":
                s.pos = at + 1
                rhs = self.operand()
                if lhs.has_dims and rhs.has_dims:
                    s.fail("non-affine expression: one factor of '*' must be free of dims", at)
                lhs = self.build(get_mul, lhs, rhs, at)
                continue
            # floordiv / ceildiv / mod are operators only here, after an operand
            op = _divop_at(t, at) if c and c in "fcm" else None
            if op is None:
                return lhs
            s.pos = at + len(op)
            rhs = self.operand()
            if rhs.has_dims:
                s.fail(f"non-affine expression: the right operand of {op} must be a constant or symbolic", at)
            if type(rhs) is Constant and rhs.value < 1:
                s.fail(f"{op} by {rhs.value}: a constant divisor must be >= 1", at)
            lhs = self.build(_DIVOPS[op], lhs, rhs, at)

    def build(self, fn, lhs, rhs, at):
        try:
            return fn(lhs, rhs)
        except LayoutError as e:
            self.s.fail(str(e), at)

    def operand(self) -> AffineExpr:
        s = self.s
        at = s.pos
        c = s.text[at:at + 1]
        if c in SPACE:
            at = s.skip()
            c = s.text[at:at + 1]
        if c == "-" and not s.text.startswith("->", at):
            s.pos += 1
            self.enter(at)
            e = self.operand()
            self.nest -= 1
            return self.build(get_mul, e, _MINUS_ONE, at)
        if c.isascii() and c.isdigit():
            value = s.integer(limit=_INT64_MAX)  # MLIR's constants are int64: bounded as read
            if s.text[s.pos:s.pos + 1] in _ID_CHARS:  # '2d0': digits then a name
                s.expected("an integer", at)
            return Constant(value)
        if c == "(":
            s.pos += 1
            self.enter(at)
            e = self.expr()
            s.expect(")", "')' to close the parenthesis")
            self.nest -= 1
            return e
        if c and c in _ID_CHARS and not c.isdigit():
            name = s.identifier()
            e = self.names.get(name)
            if e is None and self.implicit:
                e = _implicit_name(name)
            if e is None:
                s.fail(f"use of undeclared identifier {name!r}", at)
            return e
        s.expected(_OPERAND)

    def enter(self, at):
        self.nest += 1
        if self.nest > MAX_DEPTH:
            self.s.fail(f"expression nested deeper than {MAX_DEPTH} levels", at)


def _implicit_name(name):
    if 1 < len(name) < 12 and name[0] in "ds" and name[1:].isdigit() and (name[1] != "0" or len(name) == 2):
        return (Dim if name[0] == "d" else Symbol)(int(name[1:]))
    return None


def read_map(s: Scanner) -> AffineMap:
    """Read one affine map at the scanner's position (other parsers embed maps this way).

    >>> s = Scanner("<(d0) -> (d0), undef>", 1)
    >>> str(read_map(s)), s.text[s.pos:]
    ('(d0) -> (d0)', ', undef>')
    """
    return _Reader(s).map()


def parse(text: str) -> AffineMap:
    """Parse MLIR affine-map text, ``(d0, d1)[s0] -> (...)`` or ``affine_map<...>``; also ``AffineMap.parse``.

    >>> parse("affine_map<(i)[n] -> (i * n)>").num_symbols
    1
    """
    s = Scanner(check_text(text, "affine map text"))
    m = read_map(s)
    s.expect_end()
    return m


def parse_map(text: str):
    """Parse MLIR affine-map text into ``(num_dims, num_symbols, results)``.

    >>> parse_map("(d0)[s0] -> (d0 + s0)")[:2]
    (1, 1)
    """
    m = parse(text)
    return m.num_dims, m.num_symbols, m.results


def parse_expr(text: str) -> AffineExpr:
    """Parse one affine expression whose names are ``d<i>`` and ``s<i>``; also ``AffineExpr.parse``.

    >>> print(parse_expr("(d0 * 8 + d1) mod 8"))
    d1 mod 8
    >>> AffineExpr.parse("d1 mod 4 + s0") == Dim(1) % 4 + Symbol(0)
    True
    """
    s = Scanner(check_text(text, "affine expression text"))
    e = _Reader(s, implicit=True).expr()
    s.expect_end()
    return e


# The values' ``parse`` is this module's: attached here so that the value modules never import their parser.
# The classes' ``parse`` are attached here, not declared on them: a declared method would import this reader
# from map.py/expr.py while the reader builds their values, a third circle inside affine beside the allowed
# expr <-> fold pair (docs/architecture.md). A reader below the classes, handed the constructors, would end it.
AffineMap.parse = staticmethod(parse)
AffineExpr.parse = staticmethod(parse_expr)
