"""TileLang's index expressions: parsed from what TileLang prints, evaluated with numpy, bounded as TVM bounds them.

TileLang (and TVM under it) prints a layout's maps as Python-like expressions
over placeholders ``_i, _j, _k, ..`` (the input coordinates) and ``_rep`` (a
fragment's replica): ``_i // 8 * 4 + _j % 4``, ``T.bitwise_xor(_i, _j)``,
``T.Div(_i, 3)``. Semantics are TVM's: ``//`` and ``%`` are floor division and
floor modulo (``floordiv``/``floormod``), ``T.Div``/``T.truncmod`` truncate,
``T.bitwise_*`` and ``T.shift_*`` are the bit operations.

An expression is a tree of tuples: ``("var", name)``, ``("int", value)``,
``(op, a, b)`` with ``op`` in ``+ - * // %`` or a call name
(``bitwise_xor``, ...), ``("neg", a)``. ``evaluate`` runs it over numpy
arrays (vectorised, never a loop per element); ``interval`` and ``bound`` are
TVM's interval set and ``ConstIntBound`` of it given each placeholder's
range, from which TileLang derives output shapes and thread extents
(``layout``); ``to_text`` prints TVM's form back.

>>> e = parse("_i // 8 * 4 + _j % 4")
>>> import numpy as np
>>> evaluate(e, {"_i": np.array([9, 17]), "_j": np.array([5, 2])}).tolist()
[5, 10]
>>> interval(e, {"_i": 16, "_j": 16}), to_text(e)
((0, 7), '_i // 8 * 4 + _j % 4')
"""

from __future__ import annotations

import re

import numpy as np

from .._text import Scanner
from ..errors import LayoutError

__all__ = ["parse", "parse_at", "evaluate", "apply", "pow2_shift", "interval", "bound", "to_text", "variables", "check",
           "CALLS", "MAX_DEPTH"]

#: Calls TVM prints, with their arity.
CALLS = {"bitwise_xor": 2, "bitwise_and": 2, "bitwise_or": 2, "shift_left": 2, "shift_right": 2, "Div": 2,
         "truncdiv": 2, "truncmod": 2, "floordiv": 2, "floormod": 2, "min": 2, "max": 2, "bitwise_not": 1}
#: Deepest expression read (bounds the recursion of every walk).
MAX_DEPTH = 200

_BIN = {"+": 10, "-": 10, "*": 20, "//": 20, "%": 20}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def parse(text: str):
    """One expression (the whole text).

    >>> parse("T.bitwise_xor(_i, _j)")
    ('bitwise_xor', ('var', '_i'), ('var', '_j'))
    """
    s = Scanner(text)
    e = parse_at(s)
    s.expect_end()
    return e


def parse_at(s: Scanner, depth: int = 0):
    """An expression starting at the scanner's position (stops before ``,`` ``)`` or the end)."""
    return _binary(s, 0, depth)


def _binary(s, level, depth):
    if depth > MAX_DEPTH:
        s.fail(f"expression nested deeper than {MAX_DEPTH} levels")
    left = _unary(s, depth)
    while True:
        s.skip()
        op = "//" if s.text.startswith("//", s.pos) else s.peek()
        if op not in _BIN or _BIN[op] <= level:
            return left
        s.pos += len(op)
        right = _binary(s, _BIN[op], depth + 1)
        left = (op, left, right)


def _unary(s, depth):
    s.skip()
    if s.accept("-"):
        e = _unary(s, depth + 1)
        return ("int", -e[1]) if e[0] == "int" else ("neg", e)
    if s.accept("("):
        e = _binary(s, 0, depth + 1)
        s.expect(")")
        return e
    c = s.peek()
    if c.isdigit():
        return ("int", s.integer())
    m = _NAME.match(s.text, s.pos)
    if not m:
        s.expected("a number, a placeholder such as _i or a call such as T.bitwise_xor(a, b)")
    name = m.group(0)
    if name == "T" and s.text.startswith("T.", s.pos):
        start = s.pos
        s.pos += 2
        m = _NAME.match(s.text, s.pos)
        if not m or m.group(0) not in CALLS:
            s.fail(f"unknown call T.{m.group(0) if m else ''}: expected one of " +
                   ", ".join(f"T.{c}" for c in CALLS), start)
        fn = m.group(0)
        s.pos = m.end()
        s.expect("(")
        args = [_binary(s, 0, depth + 1)]
        while s.accept(","):
            args.append(_binary(s, 0, depth + 1))
        s.expect(")")
        if len(args) != CALLS[fn]:
            s.fail(f"T.{fn} takes {CALLS[fn]} argument(s), got {len(args)}", start)
        return (fn, *args)
    if not name.startswith("_"):
        s.fail(f"unknown name {name!r}: TileLang's placeholders start with '_' (_i, _j, _rep)")
    s.pos = m.end()
    return ("var", name)


_ARITY = {"+": 2, "-": 2, "*": 2, "//": 2, "%": 2, "neg": 1, **CALLS}


def check(e, what="an expression", depth=0):
    """``e`` if it is an expression tree (``parse``'s tuples), else ``LayoutError`` naming ``what``.

    >>> check(("+", ("var", "_i"), ("int", 1)))
    ('+', ('var', '_i'), ('int', 1))
    >>> check(1.5, "the thread")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: the thread must be an expression tree (tilelang.expr.parse), got 1.5
    """
    ok = isinstance(e, tuple) and e and isinstance(e[0], str) and depth <= MAX_DEPTH
    if ok and e[0] == "var":
        ok = len(e) == 2 and isinstance(e[1], str)
    elif ok and e[0] == "int":
        ok = len(e) == 2 and isinstance(e[1], int) and not isinstance(e[1], bool)
    elif ok:
        ok = e[0] in _ARITY and len(e) == 1 + _ARITY[e[0]]
        if ok:
            for x in e[1:]:
                check(x, what, depth + 1)
    if not ok:
        raise LayoutError(f"{what} must be an expression tree (tilelang.expr.parse), got {e!r}"[:300])
    return e


def variables(e) -> set:
    """The placeholders ``e`` reads.

    >>> sorted(variables(parse("_j * 2 + _rep")))
    ['_j', '_rep']
    """
    if e[0] == "var":
        return {e[1]}
    if e[0] == "int":
        return set()
    out = set()
    for x in e[1:]:
        out |= variables(x)
    return out


def _fdiv(a, b, what):
    b = np.asarray(b)
    if (b == 0).any():
        raise LayoutError(f"{what} by zero")
    return a // b


def pow2_shift(b):
    """``k`` when ``b`` is the scalar ``2**k`` (k >= 0), else None.

    >>> pow2_shift(np.int64(8)), pow2_shift(np.int64(6)), pow2_shift(np.array([8]))
    (3, None, None)
    """
    if np.ndim(b):
        return None
    v = int(b)
    return v.bit_length() - 1 if v > 0 and v & (v - 1) == 0 else None


def evaluate(e, env):
    """``e`` over int64 arrays ``env`` (placeholder -> array), broadcast together; TVM's semantics.

    >>> evaluate(parse("T.Div(0 - _i, 3)"), {"_i": np.array([4])}).tolist()
    [-1]
    """
    if not isinstance(e, tuple) or not e:
        check(e)
    op = e[0]
    if op == "int":
        return np.int64(e[1])
    if op == "var":
        try:
            return env[e[1]]
        except KeyError:
            raise LayoutError(f"the placeholder {e[1]} has no value here") from None
    if op == "neg":
        return -evaluate(e[1], env)
    args = [np.asarray(evaluate(x, env), dtype=np.int64) for x in e[1:]]
    if op == "bitwise_not":
        return ~args[0]
    return apply(op, *args)


def apply(op, a, b):
    """The binary operation ``op`` of TVM on numpy integers ``a`` and ``b`` (their dtype kept).

    >>> apply("//", np.array([-7, 7]), np.int64(2)).tolist(), apply("truncmod", np.array([-7]), np.int64(2)).tolist()
    ([-4, 3], [-1])
    """
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op in ("//", "floordiv", "%", "floormod"):
        shift = pow2_shift(b)
        if shift is not None:  # by 2**k: an arithmetic shift and a mask are floor division and modulo, signs too
            return a >> shift if op in ("//", "floordiv") else a & a.dtype.type((1 << shift) - 1)
        if op in ("//", "floordiv"):
            return _fdiv(a, b, "floordiv")
        return a - _fdiv(a, b, "floormod") * b
    if op in ("Div", "truncdiv"):
        q = _fdiv(np.abs(a), np.abs(b), "truncdiv")
        return np.where((a < 0) != (b < 0), -q, q)
    if op == "truncmod":
        q = _fdiv(np.abs(a), np.abs(b), "truncmod")
        return a - np.where((a < 0) != (b < 0), -q, q) * b
    if op == "bitwise_xor":
        return a ^ b
    if op == "bitwise_and":
        return a & b
    if op == "bitwise_or":
        return a | b
    if op == "shift_left":
        return a << b
    if op == "shift_right":
        return a >> b
    if op == "min":
        return np.minimum(a, b)
    if op == "max":
        return np.maximum(a, b)
    raise LayoutError(f"unknown operation {op!r}")  # pragma: no cover (the parser only builds the ones above)


def _pow2_mask(hi):
    return (1 << max(int(hi), 0).bit_length()) - 1


_BITWISE = ("bitwise_xor", "bitwise_and", "bitwise_or", "bitwise_not", "shift_left", "shift_right")
_INF = None  # an unbounded end of an interval


def _add(x, y):
    return None if x is None or y is None else x + y


def _span(vals):
    """``(lo, hi)`` of candidate ends, None (infinite) if any candidate is infinite."""
    if any(v is None for v in vals):
        return None, None
    return min(vals), max(vals)


def interval(e, extents):
    """``(lo, hi)``: TVM's interval set of ``e`` (``Analyzer.int_set``), None for an infinite end.

    A bit operation has no interval (both ends infinite); a floor modulo by
    ``c`` of anything lies in ``[0, c - 1]`` (within one period it keeps its
    range). This is how TileLang bounds a fragment's thread and, first, a
    layout's output dims.

    >>> interval(parse("_rep * 8 + T.bitwise_xor(_i, _j) % 4"), {"_i": 3, "_j": 3, "_rep": 2})
    (0, 11)
    >>> interval(parse("T.bitwise_xor(_i, _j) + 1"), {"_i": 3, "_j": 3})
    (None, None)
    """
    op = e[0]
    if op == "int":
        return e[1], e[1]
    if op == "var":
        if e[1] not in extents:
            raise LayoutError(f"the placeholder {e[1]} has no range here")
        return 0, extents[e[1]] - 1
    if op in _BITWISE:
        return None, None
    if op == "neg":
        lo, hi = interval(e[1], extents)
        return (None if hi is None else -hi), (None if lo is None else -lo)
    (alo, ahi), (blo, bhi) = interval(e[1], extents), interval(e[2], extents)
    if op == "+":
        return _add(alo, blo), _add(ahi, bhi)
    if op == "-":
        return _add(alo, None if bhi is None else -bhi), _add(ahi, None if blo is None else -blo)
    const = blo if blo is not None and blo == bhi else None
    if op == "*":
        if const is not None:
            lo, hi = (alo, ahi) if const >= 0 else (ahi, alo)
            return (None if lo is None else lo * const), (None if hi is None else hi * const)
        return _span([None if None in (x, y) else x * y for x in (alo, ahi) for y in (blo, bhi)])
    if op == "min":  # an infinite lo is -inf, an infinite hi +inf
        lo = None if alo is None or blo is None else min(alo, blo)
        hi = bhi if ahi is None else ahi if bhi is None else min(ahi, bhi)
        return lo, hi
    if op == "max":
        lo = blo if alo is None else alo if blo is None else max(alo, blo)
        hi = None if ahi is None or bhi is None else max(ahi, bhi)
        return lo, hi
    if const is None or const == 0:
        return None, None
    c = const
    if c < 0 and op in ("//", "floordiv"):  # a negative divisor turns the order round
        return (None if ahi is None else ahi // c), (None if alo is None else alo // c)
    if c < 0 and op in ("%", "floormod"):
        return c + 1, 0
    if c < 0:
        return None, None
    if op in ("//", "floordiv"):
        return (None if alo is None else alo // c), (None if ahi is None else ahi // c)
    if op in ("Div", "truncdiv"):
        t = lambda v: None if v is None else (v // c if v >= 0 else -((-v) // c))  # noqa: E731
        return t(alo), t(ahi)
    if op in ("%", "floormod"):
        if alo is not None and ahi is not None and alo // c == ahi // c:
            return alo - (alo // c) * c, ahi - (alo // c) * c
        return 0, c - 1
    if op == "truncmod":
        if alo is not None and alo >= 0:
            return (alo, ahi) if ahi is not None and ahi < c else (0, c - 1)
        return -(c - 1), c - 1
    raise LayoutError(f"unknown operation {op!r}")  # pragma: no cover


def bound(e, extents):
    """``(lo, hi)``: TVM's ``ConstIntBound`` of ``e`` with each placeholder in ``[0, extent)``, or None.

    Interval arithmetic over integers that also bounds bit operations of
    non-negative values (a XOR or OR fills the bits of the larger, an AND
    is at most the smaller); None where TVM's bound is infinite. TileLang
    falls back to it for an output dim its interval set cannot bound.

    >>> bound(parse("T.bitwise_xor(0, _i * 3) + 4"), {"_i": 4})
    (4, 19)
    >>> bound(parse("T.bitwise_xor(_i, _j - 6)"), {"_i": 4, "_j": 4}) is None
    True
    """
    try:
        return _bound(e, extents)
    except _Unbounded:
        return None


class _Unbounded(Exception):
    pass


def _bound(e, extents):
    op = e[0]
    if op in _BITWISE:
        args = [_bound(x, extents) for x in e[1:]]
        if any(lo < 0 for lo, _ in args):
            raise _Unbounded
        his = [hi for _, hi in args]
        if op in ("bitwise_xor", "bitwise_or"):
            return 0, _pow2_mask(max(his))
        if op == "bitwise_and":
            return 0, min(his)
        if op == "shift_left":
            return args[0][0] << args[1][0], args[0][1] << args[1][1]
        if op == "shift_right":
            return args[0][0] >> args[1][1], args[0][1] >> args[1][0]
        raise _Unbounded  # bitwise_not of a non-negative value is negative: TVM does not bound it
    if op in ("int", "var", "neg") or op in _BIN or op in ("min", "max", "floordiv", "floormod", "Div", "truncdiv",
                                                            "truncmod"):
        if op in ("int", "var"):
            return interval(e, extents)
        if op == "neg":
            lo, hi = _bound(e[1], extents)
            return -hi, -lo
        (alo, ahi), (blo, bhi) = _bound(e[1], extents), _bound(e[2], extents)
        return _const_binary(op, alo, ahi, blo, bhi)
    raise LayoutError(f"unknown operation {op!r}")  # pragma: no cover


def _const_binary(op, alo, ahi, blo, bhi):
    if op == "+":
        return alo + blo, ahi + bhi
    if op == "-":
        return alo - bhi, ahi - blo
    if op in ("*", "min", "max"):
        f = {"*": lambda x, y: x * y, "min": min, "max": max}[op]
        vals = [f(x, y) for x in (alo, ahi) for y in (blo, bhi)]
        return min(vals), max(vals)
    if blo != bhi or blo == 0:
        raise _Unbounded
    c = blo
    if c < 0 and op in ("//", "floordiv"):
        return ahi // c, alo // c
    if c < 0 and op in ("%", "floormod"):
        return c + 1, 0
    if c < 0:
        raise _Unbounded
    if op in ("//", "floordiv"):
        return alo // c, ahi // c
    if op in ("Div", "truncdiv"):
        t = lambda v: v // c if v >= 0 else -((-v) // c)  # noqa: E731
        return t(alo), t(ahi)
    if op in ("%", "floormod"):
        return (0, min(ahi, c - 1)) if alo >= 0 else (0, c - 1)
    return (0, min(ahi, c - 1)) if alo >= 0 else (-(c - 1), c - 1)  # truncmod


def to_text(e, level=0) -> str:
    """TVM's printed form (minimal parentheses, ``T.`` calls).

    >>> to_text(parse("(_j // 32 + _i % 8 // 4) % 2 * 32"))
    '(_j // 32 + _i % 8 // 4) % 2 * 32'
    """
    op = e[0]
    if op == "int":
        return str(e[1])  # TVM prints a negative constant bare: _i * -6
    if op == "var":
        return e[1]
    if op == "neg":
        return f"-{to_text(e[1], 30)}"
    if op in _BIN:
        p = _BIN[op]
        text = f"{to_text(e[1], p)} {op} {to_text(e[2], p + 1)}"
        return f"({text})" if p < level else text
    return f"T.{op}(" + ", ".join(to_text(x) for x in e[1:]) + ")"
