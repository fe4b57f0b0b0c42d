"""Affine expressions: the tree of dims, symbols and constants, its printed form, scalar evaluation.

An affine expression is a tree over dimensions ``d0, d1, ...``, symbols
``s0, s1, ...`` and integer constants, combined by ``+``, ``*``,
``floordiv``, ``ceildiv`` and ``mod``. As in MLIR, a product needs one factor
free of dimensions, and the right operand of ``floordiv``/``ceildiv``/``mod``
must be free of dimensions (a constant divisor must be at least 1).

Building an expression with the Python operators applies the folds MLIR's
``AffineExpr::operator+`` etc. apply while building (constants to the right,
``x + 0 -> x``, ``(x * 2) * 3 -> x * 6``, ``(x * 8) floordiv 4 -> x * 2``,
``x + (x floordiv 8) * -8 -> x mod 8`` ...; they are in ``affine.fold``), so
that the printed form is MLIR's:

>>> d0, d1 = dim(0), dim(1)
>>> print(2 * d0 + 1)
d0 * 2 + 1
>>> print(d0 - d1 * 2)
d0 - d1 * 2
>>> print((d0 * 8 + d1).floordiv(8))
d0 + d1 floordiv 8
>>> print(d0 + (d0 // 8) * -8)
d0 mod 8

Semantics are MLIR's: ``floordiv`` rounds toward minus infinity, ``mod`` is
non-negative for a positive divisor, ``ceildiv`` rounds up:

>>> e = d0.floordiv(8), d0.ceildiv(8), d0 % 8
>>> [x.value_at((-3,)) for x in e]
[-1, 0, 5]

Invariants: nodes are immutable and hashable, ``==`` is structural, and the
tree depth is at most ``MAX_DEPTH`` (deeper trees raise ``LayoutError``
instead of exhausting Python's stack).
"""

from __future__ import annotations

import math

from .._ints import as_int
from ..errors import LayoutError

__all__ = [
    "AffineExpr",
    "Dim",
    "Symbol",
    "Constant",
    "Binary",
    "fold",
    "dim",
    "symbol",
    "constant",
    "MAX_DEPTH",
    "floordiv",
    "ceildiv",
    "mod",
]

#: Deepest expression tree accepted (guards recursion in every algorithm).
MAX_DEPTH = 160

ADD, MUL, FLOORDIV, CEILDIV, MOD = "+", "*", "floordiv", "ceildiv", "mod"
_OPS = (ADD, MUL, FLOORDIV, CEILDIV, MOD)


def floordiv(a: int, b: int) -> int:
    """Integer division rounding toward minus infinity (MLIR ``floorDiv``).

    >>> floordiv(-3, 8), floordiv(7, 2)
    (-1, 3)
    """
    return a // b


def ceildiv(a: int, b: int) -> int:
    """Integer division rounding toward plus infinity (MLIR ``ceilDiv``).

    >>> ceildiv(-3, 8), ceildiv(7, 2)
    (0, 4)
    """
    return -((-a) // b)


def mod(a: int, b: int) -> int:
    """``a - b * floordiv(a, b)``: in ``[0, b)`` for ``b >= 1`` (MLIR ``mod``).

    >>> mod(-3, 8), mod(11, 8)
    (5, 3)
    """
    return a % b


_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1


def _as_int(value, what="value") -> int:
    return as_int(value, what)


def _coerce(value) -> "AffineExpr":
    if isinstance(value, AffineExpr):
        return value
    return Constant(_as_int(value, "affine operand"))


class AffineExpr:
    """Base class of affine expression nodes (``Dim``, ``Symbol``, ``Constant``, ``Binary``).

    Operators build new expressions with MLIR's construction folds:
    ``+ - *`` and unary ``-``, ``//`` (floordiv), ``%`` (mod), and the methods
    ``floordiv``, ``ceildiv``, ``mod``.

    >>> e = dim(0) * 4 + symbol(0)
    >>> str(e), e.has_dims, e.value_at((2,), (1,))
    ('d0 * 4 + s0', True, 9)
    """

    __slots__ = ("_hash",)

    # --- structure (overridden) -------------------------------------------
    has_dims = False
    depth = 1
    #: True when the tree is what the folding constructors build (then ``parse(str(e))`` gives it back).
    canonical = True

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name):
        raise AttributeError(f"{type(self).__name__} is immutable")

    # --- operators --------------------------------------------------------
    def __add__(self, other):
        return get_add(self, _coerce(other))

    def __radd__(self, other):
        return get_add(_coerce(other), self)

    def __sub__(self, other):
        return get_add(self, get_mul(_coerce(other), Constant(-1)))

    def __rsub__(self, other):
        return get_add(_coerce(other), get_mul(self, Constant(-1)))

    def __mul__(self, other):
        return get_mul(self, _coerce(other))

    def __rmul__(self, other):
        return get_mul(_coerce(other), self)

    def __neg__(self):
        return get_mul(self, Constant(-1))

    def __floordiv__(self, other):
        return get_floordiv(self, _coerce(other))

    def __rfloordiv__(self, other):
        return get_floordiv(_coerce(other), self)

    def __mod__(self, other):
        return get_mod(self, _coerce(other))

    def __rmod__(self, other):
        return get_mod(_coerce(other), self)

    def floordiv(self, other) -> "AffineExpr":
        """``self floordiv other`` (rounds toward minus infinity).

        >>> print(dim(0).floordiv(4))
        d0 floordiv 4
        """
        return get_floordiv(self, _coerce(other))

    def ceildiv(self, other) -> "AffineExpr":
        """``self ceildiv other`` (rounds toward plus infinity).

        >>> print((dim(0) * 8).ceildiv(4))
        d0 * 2
        """
        return get_ceildiv(self, _coerce(other))

    def mod(self, other) -> "AffineExpr":
        """``self mod other`` (non-negative for a positive divisor).

        >>> print((dim(0) * 8 + dim(1)).mod(8))
        d1 mod 8
        """
        return get_mod(self, _coerce(other))

    # --- queries ------------------------------------------------------------
    def __str__(self) -> str:
        return print_expr(self)

    def __repr__(self) -> str:
        # ``AffineExpr.parse`` is ``affine.text.parse_expr``, attached by the text module (which imports this one).
        text = str(self)
        try:
            if AffineExpr.parse(text) == self:
                return f"AffineExpr.parse({text!r})"
        except LayoutError:
            pass
        return self._structural_repr()

    def largest_known_divisor(self) -> int:
        """MLIR's ``getLargestKnownDivisor``: a k >= 0 such that k divides every value.

        >>> (dim(0) * 6 + 12).largest_known_divisor(), (dim(0) * 4).floordiv(2).largest_known_divisor()
        (6, 2)
        """
        raise NotImplementedError  # pragma: no cover - overridden

    def dims(self) -> frozenset:
        """Positions of the dimensions that occur in the expression.

        >>> sorted((dim(2) + dim(0) * symbol(1)).dims())
        [0, 2]
        """
        out = set()
        stack = [self]
        while stack:
            e = stack.pop()
            if isinstance(e, Dim):
                out.add(e.position)
            elif isinstance(e, Binary):
                stack.append(e.lhs)
                stack.append(e.rhs)
        return frozenset(out)

    def symbols(self) -> frozenset:
        """Positions of the symbols that occur in the expression.

        >>> sorted((dim(0) * symbol(1) + symbol(0)).symbols())
        [0, 1]
        """
        out = set()
        stack = [self]
        while stack:
            e = stack.pop()
            if isinstance(e, Symbol):
                out.add(e.position)
            elif isinstance(e, Binary):
                stack.append(e.lhs)
                stack.append(e.rhs)
        return frozenset(out)

    def value_at(self, dims=(), symbols=()) -> int:
        """Exact value (Python int) at integer dims and symbols, MLIR semantics.

        Pre-conditions: every dim/symbol position used is given; a symbolic
        divisor evaluates to at least 1 (else ``LayoutError``).

        >>> (dim(0) * 3 + symbol(0)).floordiv(2).value_at((5,), (-1,))
        7
        """
        return _eval(self, tuple(dims), tuple(symbols))

    def replace(self, dims=None, symbols=None) -> "AffineExpr":
        """Substitute expressions for dims/symbols, rebuilding with MLIR's folds.

        ``dims``/``symbols`` are sequences indexed by position (None keeps
        the originals). This is MLIR's ``replaceDimsAndSymbols``.

        >>> print((dim(0) * 8 + dim(1)).replace(dims=[dim(0).floordiv(8), dim(0) % 8]))
        (d0 floordiv 8) * 8 + d0 mod 8
        """
        return _replace(self, replacements(dims, "dims"), replacements(symbols, "symbols"))


class Dim(AffineExpr):
    """Dimension ``d<position>``.

    >>> str(Dim(2)), Dim(2) == dim(2)
    ('d2', True)
    """

    __slots__ = ("position",)
    has_dims = True

    def __init__(self, position: int):
        p = _as_int(position, "dim position")
        if p < 0:
            raise LayoutError(f"dim position must be >= 0, got {p}")
        object.__setattr__(self, "position", p)
        object.__setattr__(self, "_hash", hash(("d", p)))

    def __eq__(self, other):
        return type(other) is Dim and other.position == self.position

    def __hash__(self):
        return self._hash

    def largest_known_divisor(self) -> int:
        return 1

    def _structural_repr(self):
        return f"Dim({self.position})"

    def __reduce__(self):
        return (Dim, (self.position,))


class Symbol(AffineExpr):
    """Symbol ``s<position>`` (a runtime constant).

    >>> print(Symbol(0) + 1)
    s0 + 1
    """

    __slots__ = ("position",)

    def __init__(self, position: int):
        p = _as_int(position, "symbol position")
        if p < 0:
            raise LayoutError(f"symbol position must be >= 0, got {p}")
        object.__setattr__(self, "position", p)
        object.__setattr__(self, "_hash", hash(("s", p)))

    def __eq__(self, other):
        return type(other) is Symbol and other.position == self.position

    def __hash__(self):
        return self._hash

    def largest_known_divisor(self) -> int:
        return 1

    def _structural_repr(self):
        return f"Symbol({self.position})"

    def __reduce__(self):
        return (Symbol, (self.position,))


class Constant(AffineExpr):
    """Integer constant.

    >>> str(Constant(-3)), Constant(4) + 5
    ('-3', AffineExpr.parse('9'))
    """

    __slots__ = ("value",)

    def __init__(self, value: int):
        v = _as_int(value, "constant")
        if not _INT64_MIN <= v <= _INT64_MAX:  # MLIR's constants are int64: a fold past it is refused, not kept
            raise LayoutError(f"constant {v} does not fit in int64 (MLIR's affine constants are 64-bit)")
        object.__setattr__(self, "value", v)
        object.__setattr__(self, "_hash", hash(("c", v)))

    def __eq__(self, other):
        return type(other) is Constant and other.value == self.value

    def __hash__(self):
        return self._hash

    def largest_known_divisor(self) -> int:
        return abs(self.value)

    def _structural_repr(self):
        return f"Constant({self.value})"

    def __reduce__(self):
        return (Constant, (self.value,))


class Binary(AffineExpr):
    """A binary node ``lhs <op> rhs`` built *without* folds (use the operators for folds).

    ``op`` is one of ``'+', '*', 'floordiv', 'ceildiv', 'mod'``. Validated:
    a product has a dimension-free factor, a divisor is dimension-free and,
    when constant, at least 1.

    >>> print(Binary("*", Dim(0), Constant(1)))
    d0 * 1
    >>> Binary("mod", Dim(0), Dim(1))
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: non-affine expression: the right operand of mod must not contain dims, got d1
    """

    __slots__ = ("op", "lhs", "rhs", "has_dims", "depth", "canonical")

    def __init__(self, op: str, lhs: AffineExpr, rhs: AffineExpr, _canonical: bool = False):
        if op not in _OPS:
            raise LayoutError(f"affine op must be one of {', '.join(_OPS)}; got {op!r}")
        if not isinstance(lhs, AffineExpr) or not isinstance(rhs, AffineExpr):
            raise LayoutError("Binary operands must be AffineExpr values")
        if op == MUL and lhs.has_dims and rhs.has_dims:
            raise LayoutError(
                f"non-affine expression: one factor of * must be free of dims, got ({lhs}) * ({rhs})"
            )
        if op in (FLOORDIV, CEILDIV, MOD):
            if rhs.has_dims:
                raise LayoutError(
                    f"non-affine expression: the right operand of {op} must not contain dims, got {rhs}"
                )
            if isinstance(rhs, Constant) and rhs.value < 1:
                raise LayoutError(f"{op} by {rhs.value}: a constant divisor must be >= 1")
        depth = 1 + max(lhs.depth, rhs.depth)
        if depth > MAX_DEPTH:
            raise LayoutError(f"affine expression nested deeper than {MAX_DEPTH} levels")
        s = object.__setattr__
        s(self, "op", op)
        s(self, "lhs", lhs)
        s(self, "rhs", rhs)
        s(self, "has_dims", lhs.has_dims or rhs.has_dims)
        s(self, "depth", depth)
        s(self, "canonical", _canonical)  # True only from the folding constructors (see ``fold``)
        s(self, "_hash", hash((op, lhs, rhs)))

    def __eq__(self, other):
        return (
            self is other
            or type(other) is Binary
            and other._hash == self._hash
            and other.op == self.op
            and other.lhs == self.lhs
            and other.rhs == self.rhs
        )

    def __hash__(self):
        return self._hash

    def largest_known_divisor(self) -> int:
        op = self.op
        if op == MUL:
            return self.lhs.largest_known_divisor() * self.rhs.largest_known_divisor()
        if op in (ADD, MOD):
            return math.gcd(self.lhs.largest_known_divisor(), self.rhs.largest_known_divisor())
        if isinstance(self.rhs, Constant) and self.rhs.value != 0:
            k = self.lhs.largest_known_divisor()
            if k % self.rhs.value == 0:
                return abs(k // self.rhs.value)
        return 1

    def __reduce__(self):
        return (Binary, (self.op, self.lhs, self.rhs))

    def _structural_repr(self):
        return f"Binary({self.op!r}, {self.lhs._structural_repr()}, {self.rhs._structural_repr()})"


def dim(position: int) -> Dim:
    """The dimension ``d<position>``.

    >>> print(dim(0) + dim(1))
    d0 + d1
    """
    return Dim(position)


def symbol(position: int) -> Symbol:
    """The symbol ``s<position>``.

    >>> print(dim(0) * symbol(0))
    d0 * s0
    """
    return Symbol(position)


def constant(value: int) -> Constant:
    """The constant ``value``.

    >>> print(constant(3) + dim(0))
    d0 + 3
    """
    return Constant(value)


# --- printer (MLIR's AsmPrinter::printAffineExprInternal); the parser is in text.py ---


_INT64_MIN = -(1 << 63)


def print_expr(e) -> str:
    """MLIR's printed form of an expression (what ``str(e)`` returns).

    A constant -2**63 is written ``-9223372036854775807 - 1``: MLIR's parser, and ours, reads the digits of
    ``-9223372036854775808`` as 2**63 before the sign, which is out of range, so that the text reads back.

    >>> print_expr(dim(0) + dim(1) * -3 + -2)
    'd0 - d1 * 3 - 2'
    >>> print_expr(dim(0) + -(1 << 63)), print_expr(constant(-(1 << 63)))
    ('d0 - 9223372036854775807 - 1', '(-9223372036854775807 - 1)')
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
        # -2**63 has no literal (the parser, as MLIR's, reads the digits before the sign): write the sum it is
        out.append(str(e.value) if e.value != _INT64_MIN else f"({_INT64_MIN + 1} - 1)")
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
            elif k < -1 and k != _INT64_MIN:  # - x * 2**63 would not read back: "+ x * (...)" below
                _print(lhs, False, out)
                out.append(" - ")
                _print(rhs.lhs, True, out)
                out.append(f" * {-k}")
                done = True
        if not done:
            if type(rhs) is Constant and rhs.value < 0:
                _print(lhs, False, out)
                out.append(f" - {-rhs.value}" if rhs.value != _INT64_MIN else f" - {-(_INT64_MIN + 1)} - 1")
            else:
                _print(lhs, False, out)
                out.append(" + ")
                _print(rhs, False, out)
    if strong:
        out.append(")")


# --- scalar evaluation (recursive; depth <= MAX_DEPTH) ---


def _eval(e, dims, syms):
    t = type(e)
    if t is Constant:
        return e.value
    if t is Dim:
        if e.position >= len(dims):
            raise LayoutError(f"expression uses d{e.position} but only {len(dims)} dim value(s) were given")
        return dims[e.position]
    if t is Symbol:
        if e.position >= len(syms):
            raise LayoutError(f"expression uses s{e.position} but only {len(syms)} symbol value(s) were given")
        return syms[e.position]
    a = _eval(e.lhs, dims, syms)
    b = _eval(e.rhs, dims, syms)
    op = e.op
    if op == ADD:
        return a + b
    if op == MUL:
        return a * b
    if b < 1:
        raise LayoutError(f"{op} by {b} (the divisor {e.rhs} evaluated to {b}); divisors must be >= 1")
    if op == FLOORDIV:
        return a // b
    if op == MOD:
        return a % b
    return -((-a) // b)


# The operators above build with MLIR's construction folds, and the folds build these classes: fold.py
# imports them, so it is imported once they exist (the tree and its folds are affine's one value <-> algebra
# pair, as linear.layout <-> linear.algebra). ``build`` and ``fold`` stay importable from here.
from .fold import _replace, build, fold, get_add, get_ceildiv, get_floordiv, get_mod, get_mul, replacements  # noqa: E402, F401
