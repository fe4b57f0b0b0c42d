"""MLIR's textual form of affine maps: a small lexer, a recursive-descent parser, the printer.

Grammar (MLIR's ``AffineParser``)::

    map   ::= 'affine_map' '<' body '>'  |  body
    body  ::= '(' [id (',' id)*] ')' ['[' [id (',' id)*] ']'] '->' '(' [expr (',' expr)*] ')'
    expr  ::= term (('+' | '-') term)*                           left-assoc
    term  ::= unary (('*' | 'floordiv' | 'ceildiv' | 'mod') unary)*   left-assoc
    unary ::= '-' unary | INT | id | '(' expr ')'

Identifiers may be any bare names declared in the lists; they print as
``d0, d1, ...`` and ``s0, s1, ...``. Expressions are built with MLIR's
construction folds, so ``str(parse(t))`` is what ``mlir-opt`` prints for t:

>>> print(print_map(*parse_map("(i, j)[n] -> (2 * i + 1, j - (i + n))")))
(d0, d1)[s0] -> (d0 * 2 + 1, d1 - (d0 + s0))
>>> print(print_map(*parse_map("affine_map<(d0) -> (-d0 floordiv 2)>")))
(d0) -> ((-d0) floordiv 2)

Bad text raises ``ParseError`` with the 0-based position and what was expected:

>>> parse_map("(d0) -> (d0 * d0)")
Traceback (most recent call last):
...
unilayout.errors.ParseError: non-affine expression: one factor of '*' must be free of dims at position 12
  (d0) -> (d0 * d0)
              ^
"""

from __future__ import annotations

from ..errors import LayoutError, ParseError
from .expr import (
    ADD,
    CEILDIV,
    FLOORDIV,
    MOD,
    MUL,
    MAX_DEPTH,
    Binary,
    Constant,
    Dim,
    Symbol,
    get_add,
    get_ceildiv,
    get_floordiv,
    get_mod,
    get_mul,
)

__all__ = ["parse_map", "parse_expr", "print_expr", "print_map"]

_INT64_MAX = (1 << 63) - 1
_KEYWORDS = (FLOORDIV, CEILDIV, MOD)
_MULOPS = {"*": get_mul, FLOORDIV: get_floordiv, CEILDIV: get_ceildiv, MOD: get_mod}


def _is_id_start(c):
    return c.isascii() and (c.isalpha() or c == "_")


def _is_id_char(c):
    return c.isascii() and (c.isalnum() or c in "_$.")


class _Lexer:
    """Tokens: ('id', text) ('int', value) ('->') and single-character punctuation."""

    __slots__ = ("text", "tokens")

    def __init__(self, text: str):
        self.text = text
        toks = []
        i, n = 0, len(text)
        while i < n:
            c = text[i]
            if c in " \t\r\n":
                i += 1
            elif _is_id_start(c):
                j = i + 1
                while j < n and _is_id_char(text[j]):
                    j += 1
                toks.append(("id", text[i:j], i))
                i = j
            elif c.isascii() and c.isdigit():
                j = i + 1
                while j < n and text[j].isascii() and text[j].isdigit():
                    j += 1
                if j < n and _is_id_start(text[j]):
                    raise ParseError("expected an integer; found a name starting with a digit", text, i)
                toks.append(("int", int(text[i:j]), i))
                i = j
            elif c == "-" and text.startswith("->", i):
                toks.append(("->", "->", i))
                i += 2
            elif c in "()[],+-*<>":
                toks.append((c, c, i))
                i += 1
            else:
                raise ParseError(f"unexpected character {c!r}", text, i)
        toks.append(("eof", "", n))
        self.tokens = toks


class _Parser:
    __slots__ = ("text", "toks", "i", "names", "implicit", "nest")

    def __init__(self, text: str, implicit: bool = False):
        if not isinstance(text, str):
            raise LayoutError(f"expected affine map text (str), got {type(text).__name__}")
        self.text = text
        self.toks = _Lexer(text).tokens
        self.i = 0
        self.names = {}
        self.implicit = implicit
        self.nest = 0

    # token helpers
    def peek(self):
        return self.toks[self.i]

    def error(self, message, pos=None):
        if pos is None:
            pos = self.peek()[2]
        return ParseError(message, self.text, pos)

    def describe(self, tok):
        return "end of text" if tok[0] == "eof" else repr(str(tok[1]))

    def expect(self, kind, what=None):
        tok = self.peek()
        if tok[0] != kind:
            raise self.error(f"expected {what or repr(kind)}, found {self.describe(tok)}")
        self.i += 1
        return tok

    def accept(self, kind):
        if self.peek()[0] == kind:
            self.i += 1
            return True
        return False

    # map
    def parse_map(self):
        wrapped = False
        tok = self.peek()
        if tok[0] == "id" and tok[1] == "affine_map":
            self.i += 1
            self.expect("<", "'<' after 'affine_map'")
            wrapped = True
        num_dims = self.parse_id_list("(", ")", Dim)
        num_syms = 0
        if self.peek()[0] == "[":
            num_syms = self.parse_id_list("[", "]", Symbol)
        self.expect("->", "'->'")
        self.expect("(", "'(' to open the results")
        results = []
        if not self.accept(")"):
            while True:
                results.append(self.parse_expr())
                if self.accept(")"):
                    break
                self.expect(",", "',' or ')'")
        if wrapped:
            self.expect(">", "'>' to close 'affine_map<'")
        self.expect("eof", "end of text")
        return num_dims, num_syms, tuple(results)

    def parse_id_list(self, open_, close, kind):
        self.expect(open_, f"{open_!r} to open the {'dimension' if kind is Dim else 'symbol'} list")
        count = 0
        if self.accept(close):
            return 0
        while True:
            tok = self.peek()
            if tok[0] != "id" or tok[1] in _KEYWORDS:
                raise self.error(f"expected an identifier, found {self.describe(tok)}")
            if tok[1] in self.names:
                raise self.error(f"redefinition of identifier {tok[1]!r}")
            self.names[tok[1]] = kind(count)
            count += 1
            self.i += 1
            if self.accept(close):
                return count
            self.expect(",", f"',' or {close!r}")

    # expressions
    def parse_expr(self):
        lhs = self.parse_term()
        while True:
            tok = self.peek()
            if tok[0] == "+":
                self.i += 1
                rhs = self.parse_term()
                lhs = self.build(get_add, lhs, rhs, tok[2])
            elif tok[0] == "-":
                self.i += 1
                rhs = self.parse_term()
                lhs = self.build(lambda a, b: get_add(a, get_mul(b, Constant(-1))), lhs, rhs, tok[2])
            else:
                return lhs

    def parse_term(self):
        lhs = self.parse_unary()
        while True:
            tok = self.peek()
            op = tok[1] if tok[0] in ("*", "id") else None
            if op not in _MULOPS:
                return lhs
            self.i += 1
            rhs = self.parse_unary()
            if op == "*":
                if lhs.has_dims and rhs.has_dims:
                    raise self.error("non-affine expression: one factor of '*' must be free of dims", tok[2])
            else:
                if rhs.has_dims:
                    raise self.error(
                        f"non-affine expression: the right operand of {op} must be a constant or symbolic", tok[2]
                    )
                if type(rhs) is Constant and rhs.value < 1:
                    raise self.error(f"{op} by {rhs.value}: a constant divisor must be >= 1", tok[2])
            lhs = self.build(_MULOPS[op], lhs, rhs, tok[2])

    def build(self, fn, lhs, rhs, pos):
        try:
            return fn(lhs, rhs)
        except LayoutError as e:
            raise self.error(str(e), pos) from None

    def parse_unary(self):
        tok = self.peek()
        kind = tok[0]
        if kind == "-":
            self.i += 1
            self.enter(tok)
            operand = self.parse_unary()
            self.nest -= 1
            return self.build(get_mul, operand, Constant(-1), tok[2])
        if kind == "int":
            self.i += 1
            if tok[1] > _INT64_MAX:
                raise self.error("integer constant does not fit in 64 bits", tok[2])
            return Constant(tok[1])
        if kind == "id":
            name = tok[1]
            if name in _KEYWORDS:
                raise self.error(f"expected an operand before {name!r}")
            self.i += 1
            e = self.names.get(name)
            if e is None and self.implicit:
                e = _implicit_name(name)
            if e is None:
                raise self.error(f"use of undeclared identifier {name!r}", tok[2])
            return e
        if kind == "(":
            self.i += 1
            self.enter(tok)
            e = self.parse_expr()
            self.expect(")", "')' to close the parenthesis")
            self.nest -= 1
            return e
        raise self.error(f"expected an affine operand (integer, identifier, '-' or '('), found {self.describe(tok)}")

    def enter(self, tok):
        self.nest += 1
        if self.nest > MAX_DEPTH:
            raise self.error(f"expression nested deeper than {MAX_DEPTH} levels", tok[2])


def _implicit_name(name):
    if len(name) > 1 and name[0] in "ds" and name[1:].isdigit() and (name[1] != "0" or len(name) == 2):
        return (Dim if name[0] == "d" else Symbol)(int(name[1:]))
    return None


def parse_map(text: str):
    """Parse MLIR affine-map text into ``(num_dims, num_symbols, results)``.

    Use ``unilayout.affine.parse`` to get an ``AffineMap``.

    >>> parse_map("(d0)[s0] -> (d0 + s0)")[:2]
    (1, 1)
    """
    return _Parser(text).parse_map()


def parse_expr(text: str):
    """Parse one affine expression whose names are ``d<i>`` and ``s<i>``.

    >>> print(parse_expr("(d0 * 8 + d1) mod 8"))
    d1 mod 8
    """
    p = _Parser(text, implicit=True)
    e = p.parse_expr()
    p.expect("eof", "end of text")
    return e


# --- printer (AsmPrinter::printAffineExprInternal) ---


def print_expr(e) -> str:
    """MLIR's printed form of an expression.

    >>> print_expr(parse_expr("d0 + d1 * -3 + -2"))
    'd0 - d1 * 3 - 2'
    """
    out = []
    _print(e, False, out)
    return "".join(out)


def _print(e, strong, out):
    t = type(e)
    if t is Dim:
        out.append(f"d{e.position}")
        return
    if t is Symbol:
        out.append(f"s{e.position}")
        return
    if t is Constant:
        out.append(str(e.value))
        return
    op, lhs, rhs = e.op, e.lhs, e.rhs
    if strong:
        out.append("(")
    if op != ADD:
        if op == MUL and type(rhs) is Constant and rhs.value == -1:
            out.append("-")
            _print(lhs, True, out)
        else:
            _print(lhs, True, out)
            out.append(f" {op} ")
            _print(rhs, True, out)
    else:
        done = False
        if type(rhs) is Binary and rhs.op == MUL and type(rhs.rhs) is Constant:
            k = rhs.rhs.value
            if k == -1:
                _print(lhs, False, out)
                out.append(" - ")
                _print(rhs.lhs, type(rhs.lhs) is Binary and rhs.lhs.op == ADD, out)
                done = True
            elif k < -1:
                _print(lhs, False, out)
                out.append(" - ")
                _print(rhs.lhs, True, out)
                out.append(f" * {-k}")
                done = True
        if not done:
            if type(rhs) is Constant and rhs.value < 0:
                _print(lhs, False, out)
                out.append(f" - {-rhs.value}")
            else:
                _print(lhs, False, out)
                out.append(" + ")
                _print(rhs, False, out)
    if strong:
        out.append(")")


def print_map(num_dims: int, num_symbols: int, results) -> str:
    """MLIR's printed form of a map: ``(d0, d1)[s0] -> (r0, r1)``.

    >>> print_map(1, 0, [parse_expr("d0 floordiv 4")])
    '(d0) -> (d0 floordiv 4)'
    """
    dims = ", ".join(f"d{i}" for i in range(num_dims))
    syms = "[" + ", ".join(f"s{i}" for i in range(num_symbols)) + "]" if num_symbols else ""
    return f"({dims}){syms} -> ({', '.join(print_expr(r) for r in results)})"
