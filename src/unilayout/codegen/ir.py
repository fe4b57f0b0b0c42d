"""Index expressions: the small integer IR every emitter prints, folded and range-checked as it is built.

A layout's index code is an expression over a few integer inputs (a
coordinate, a thread and register ...), each with a known extent. Nodes are
built by the functions below, which fold as they go using each node's value
range ``[lo, hi]`` over the inputs' extents: constants combine, ``x // 8`` of
an ``x < 8`` is ``0``, ``x % 8`` of an ``x < 8`` is ``x``, ``(x * 8) // 4`` is
``x * 2``. ``reduce_strength`` then writes powers of two as an expert does:
``x // 8 -> x >> 3``, ``x % 8 -> x & 7``, ``x * 8 -> x << 3`` (only where the
operand is non-negative, where they agree).

>>> i = var("i", 32)
>>> e = add(mul(mod(i, 8), 4), floordiv(i, 8))
>>> str(e), (e.lo, e.hi)
('((i % 8) * 4) + (i // 8)', (0, 31))
>>> str(reduce_strength(e)), count_ops(reduce_strength(e))
('((i & 7) << 2) + (i >> 3)', 4)
>>> str(floordiv(var("j", 8), 8)), str(mod(var("j", 8), 8))
('0', 'j')

``str`` here is a debugging form (no precedence rules); the emitters
(``codegen.printers``) print each language's own syntax. Semantics are
mathematical: ``//`` rounds toward minus infinity and ``%`` is non-negative
for a positive divisor (MLIR's ``floordiv``/``mod``, Python's ``//``/``%``);
a C emitter uses helpers where an operand may be negative.

Invariants: nodes are immutable; divisors and multipliers are integer
constants (divisors >= 1); ``xor``/``or``/``and``/shifts only see
non-negative operands; ``lo <= value <= hi`` for every input in range.
"""

from __future__ import annotations

from ..errors import LayoutError

__all__ = ["Node", "const", "var", "add", "sub", "mul", "floordiv", "ceildiv", "mod", "xor", "bit_or", "bit_and",
           "shr", "shl", "reduce_strength", "count_ops", "inputs_of", "possible_bits"]

#: Operators of the IR (leaves: ``const``, ``var``).
OPS = ("+", "-", "*", "//", "ceil", "%", "^", "|", "&", ">>", "<<")


class Node:
    """One expression node: ``op`` with operands ``a``, ``b`` (a node or, for constants' operands, an int).

    ``lo``/``hi`` bound the value over the inputs' extents.

    >>> n = add(var("x", 4), const(3))
    >>> n.op, n.lo, n.hi
    ('+', 3, 6)
    """

    __slots__ = ("op", "a", "b", "lo", "hi")

    def __init__(self, op, a, b, lo, hi):
        object.__setattr__(self, "op", op)
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)
        object.__setattr__(self, "lo", lo)
        object.__setattr__(self, "hi", hi)

    def __setattr__(self, name, value):
        raise AttributeError("index expressions are immutable")

    @property
    def is_const(self) -> bool:
        return self.op == "const"

    def __str__(self):
        if self.op == "const":
            return str(self.a)
        if self.op == "var":
            return self.a
        return f"{_paren(self.a)} {self.op} {_paren(self.b)}"

    def __repr__(self):
        return f"<{self} in [{self.lo}, {self.hi}]>"


def _paren(x):
    s = str(x)
    return s if not isinstance(x, Node) or x.op in ("const", "var") else f"({s})"


def const(v: int) -> Node:
    """The constant ``v``.

    >>> const(5).lo, const(5).hi
    (5, 5)
    """
    v = int(v)
    return Node("const", v, None, v, v)


def var(name: str, extent: int) -> Node:
    """An input ``name`` in ``[0, extent)`` (``extent >= 1``).

    >>> var("lane", 32).hi
    31
    """
    if extent < 1:
        raise LayoutError(f"codegen: input {name} has extent {extent}; it needs at least one value")
    return Node("var", name, None, 0, int(extent) - 1)


def _c(x):
    return x if isinstance(x, Node) else const(x)


def add(a, b) -> Node:
    """``a + b``, folded (a constant ``b < 0`` prints as a subtraction).

    >>> str(add(var("x", 4), 0)), str(add(const(2), const(3))), str(add(var("x", 4), -2))
    ('x', '5', 'x - 2')
    """
    a, b = _c(a), _c(b)
    if a.is_const and b.is_const:
        return const(a.a + b.a)
    if a.is_const:
        a, b = b, a
    if b.is_const and b.a == 0:
        return a
    if b.is_const and b.a < 0:
        return Node("-", a, const(-b.a), a.lo + b.a, a.hi + b.a)
    if b.op == "*" and b.b.a < 0:  # a + x * -k -> a - x * k
        return sub(a, mul(b.a, -b.b.a))
    return Node("+", a, b, a.lo + b.lo, a.hi + b.hi)


def sub(a, b) -> Node:
    """``a - b``.

    >>> str(sub(var("x", 4), mul(var("y", 2), 3)))
    'x - (y * 3)'
    """
    a, b = _c(a), _c(b)
    if b.is_const:
        return add(a, -b.a)
    if a.is_const and a.a == 0:
        return mul(b, -1)
    return Node("-", a, b, a.lo - b.hi, a.hi - b.lo)


def mul(a, k: int) -> Node:
    """``a * k`` for an integer constant ``k``.

    >>> str(mul(mul(var("x", 4), 2), 3)), str(mul(var("x", 4), 0)), str(mul(var("x", 4), 1))
    ('x * 6', '0', 'x')
    """
    a, k = _c(a), int(k)
    if k == 0:
        return const(0)
    if k == 1:
        return a
    if a.is_const:
        return const(a.a * k)
    if a.op == "*":
        return mul(a.a, a.b.a * k)
    lo, hi = sorted((a.lo * k, a.hi * k))
    return Node("*", a, const(k), lo, hi)


def _check_divisor(k, what):
    k = int(k)
    if k < 1:
        raise LayoutError(f"codegen: {what} by {k}; a divisor must be >= 1")
    return k


def floordiv(a, k: int) -> Node:
    """``a floordiv k`` (toward minus infinity).

    >>> x = var("x", 64)
    >>> str(floordiv(mul(x, 8), 4)), str(floordiv(floordiv(x, 4), 2)), str(floordiv(x, 64))
    ('x * 2', 'x // 8', '0')
    """
    a, k = _c(a), _check_divisor(k, "floordiv")
    if k == 1:
        return a
    if a.is_const:
        return const(a.a // k)
    if a.lo // k == a.hi // k:
        return const(a.lo // k)
    if a.op == "*" and a.b.a % k == 0:
        return mul(a.a, a.b.a // k)
    if a.op == "//":
        return floordiv(a.a, a.b.a * k)
    if a.op in ("+", "-"):  # (y + z * m k) // k = y // k + z * m: the multiple of k passes through
        y, z = a.a, a.b
        if z.op == "*" and z.b.a % k == 0:
            return (add if a.op == "+" else sub)(floordiv(y, k), mul(z.a, z.b.a // k))
        if a.op == "+" and y.op == "*" and y.b.a % k == 0:
            return add(floordiv(z, k), mul(y.a, y.b.a // k))
    return Node("//", a, const(k), a.lo // k, a.hi // k)


def ceildiv(a, k: int) -> Node:
    """``a ceildiv k`` (toward plus infinity).

    >>> str(ceildiv(var("x", 9), 4)), str(ceildiv(mul(var("x", 9), 4), 4))
    ('x ceil 4', 'x')
    """
    a, k = _c(a), _check_divisor(k, "ceildiv")
    if k == 1:
        return a
    if a.is_const:
        return const(-(-a.a // k))
    if a.op == "*" and a.b.a % k == 0:
        return mul(a.a, a.b.a // k)
    lo, hi = -(-a.lo // k), -(-a.hi // k)
    if lo == hi:
        return const(lo)
    return Node("ceil", a, const(k), lo, hi)


def mod(a, k: int) -> Node:
    """``a mod k`` (non-negative).

    >>> x = var("x", 64)
    >>> str(mod(x, 64)), str(mod(mul(x, 8), 4)), str(mod(mod(x, 16), 4)), str(mod(x, 4))
    ('x', '0', 'x % 4', 'x % 4')
    """
    a, k = _c(a), _check_divisor(k, "mod")
    if k == 1:
        return const(0)
    if a.is_const:
        return const(a.a % k)
    if 0 <= a.lo and a.hi < k:
        return a
    if a.op == "*" and a.b.a % k == 0:
        return const(0)
    if a.op == "%" and a.b.a % k == 0:
        return mod(a.a, k)
    if a.op in ("+", "-"):  # (y + z * m k) mod k = y mod k
        y, z = a.a, a.b
        if z.op == "*" and z.b.a % k == 0:
            return mod(y, k)
        if a.op == "+" and y.op == "*" and y.b.a % k == 0:
            return mod(z, k)
    if a.lo // k == a.hi // k:  # one period: a - base
        return add(a, -(a.lo // k) * k)
    return Node("%", a, const(k), 0, k - 1)


def _nonneg(x, what):
    if x.lo < 0:
        raise LayoutError(f"codegen: {what} of a possibly negative value ({x}); bit operations need values >= 0")


def _bits_hi(x) -> int:
    return (1 << max(x.hi, 0).bit_length()) - 1


def xor(a, b) -> Node:
    """``a ^ b`` of non-negative values.

    >>> str(xor(var("x", 8), 0)), str(xor(const(5), const(3)))
    ('x', '6')
    """
    a, b = _c(a), _c(b)
    _nonneg(a, "xor")
    _nonneg(b, "xor")
    if a.is_const and b.is_const:
        return const(a.a ^ b.a)
    if a.is_const:
        a, b = b, a
    if b.is_const and b.a == 0:
        return a
    return Node("^", a, b, 0, _bits_hi(a) | _bits_hi(b))


def bit_or(a, b) -> Node:
    """``a | b`` of non-negative values (emitters use it to join bit fields that do not overlap).

    >>> str(bit_or(shl(var("x", 4), 2), var("y", 4)))
    '(x << 2) | y'
    """
    a, b = _c(a), _c(b)
    _nonneg(a, "or")
    _nonneg(b, "or")
    if a.is_const and b.is_const:
        return const(a.a | b.a)
    if a.is_const:
        a, b = b, a
    if b.is_const and b.a == 0:
        return a
    return Node("|", a, b, max(a.lo, b.lo), _bits_hi(a) | _bits_hi(b))


def bit_and(a, mask: int) -> Node:
    """``a & mask`` for a non-negative ``a`` and a constant ``mask >= 0``.

    >>> str(bit_and(var("x", 8), 7)), str(bit_and(var("x", 64), 12))
    ('x', 'x & 12')
    """
    a, mask = _c(a), int(mask)
    _nonneg(a, "and")
    if mask < 0:
        raise LayoutError(f"codegen: and with the negative mask {mask}")
    if a.is_const:
        return const(a.a & mask)
    if mask == 0:
        return const(0)
    if _bits_hi(a) & ~mask == 0:
        return a
    return Node("&", a, const(mask), 0, min(mask, a.hi))


def shr(a, s: int) -> Node:
    """``a >> s`` of a non-negative ``a`` (``s >= 0``).

    >>> str(shr(var("x", 8), 3)), str(shr(shr(var("x", 256), 2), 3))
    ('0', 'x >> 5')
    """
    a, s = _c(a), int(s)
    _nonneg(a, "shift")
    if s == 0:
        return a
    if a.is_const:
        return const(a.a >> s)
    if a.hi >> s == 0:
        return const(0)
    if a.op == ">>":
        return shr(a.a, a.b.a + s)
    return Node(">>", a, const(s), a.lo >> s, a.hi >> s)


def shl(a, s: int) -> Node:
    """``a << s`` of a non-negative ``a`` (``s >= 0``).

    >>> str(shl(var("x", 8), 0)), str(shl(shl(var("x", 8), 1), 2))
    ('x', 'x << 3')
    """
    a, s = _c(a), int(s)
    _nonneg(a, "shift")
    if s == 0:
        return a
    if a.is_const:
        return const(a.a << s)
    if a.op == "<<":
        return shl(a.a, a.b.a + s)
    return Node("<<", a, const(s), a.lo << s, a.hi << s)


def _pow2(k):
    return k > 0 and k & (k - 1) == 0


def reduce_strength(x: Node, memo: dict | None = None) -> Node:
    """Powers of two as shifts and masks where the operand is non-negative (where they agree).

    ``memo`` (id -> node) keeps a sub-expression shared by several parents
    (or several outputs: pass one dict for all) one node.

    >>> x = var("x", 100)
    >>> str(reduce_strength(add(mul(floordiv(x, 4), 16), mod(x, 4))))
    '((x >> 2) << 4) + (x & 3)'
    """
    if x.op in ("const", "var"):
        return x
    memo = {} if memo is None else memo
    done = memo.get(id(x))
    if done is not None:
        return done[1]
    a = reduce_strength(x.a, memo)
    b = x.b if x.b.op == "const" else reduce_strength(x.b, memo)
    k = b.a if b.op == "const" else None
    out = None
    if k is not None and a.lo >= 0 and _pow2(k):
        if x.op == "*":
            out = shl(a, k.bit_length() - 1)
        elif x.op == "//":
            out = shr(a, k.bit_length() - 1)
        elif x.op == "%":
            out = bit_and(a, k - 1)
    if out is None:
        out = x if a is x.a and b is x.b else Node(x.op, a, b, x.lo, x.hi)
    memo[id(x)] = (x, out)  # x kept alive so that its id is not reused while memo lives
    return out


def count_ops(x: Node) -> int:
    """Integer operations in ``x`` (a shared sub-expression counts once per use, as written).

    >>> count_ops(add(mul(var("x", 4), 3), var("y", 2)))
    2
    """
    if x.op in ("const", "var"):
        return 0
    return 1 + count_ops(x.a) + (count_ops(x.b) if isinstance(x.b, Node) else 0)


def inputs_of(x: Node) -> set:
    """Names of the inputs ``x`` reads.

    >>> sorted(inputs_of(add(var("b", 2), var("a", 2))))
    ['a', 'b']
    """
    if x.op == "var":
        return {x.a}
    if x.op == "const":
        return set()
    return inputs_of(x.a) | (inputs_of(x.b) if isinstance(x.b, Node) else set())


def possible_bits(n: Node) -> int:
    """The bits a non-negative ``n`` may set (a mask), tighter than its range for shifts and masks.

    >>> bin(possible_bits(shl(bit_and(var("x", 64), 12), 3)))
    '0b1100000'
    """
    if n.op == "const":
        return n.a
    if n.op == ">>":
        return possible_bits(n.a) >> n.b.a
    if n.op == "<<":
        return possible_bits(n.a) << n.b.a
    if n.op == "&":
        return possible_bits(n.a) & n.b.a
    if n.op in ("|", "^"):
        return possible_bits(n.a) | possible_bits(n.b)
    return _bits_hi(n)
