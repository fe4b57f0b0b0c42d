"""MLIR's construction folds: the rewrites applied while an affine expression is built.

MLIR never builds ``d0 + 0`` or ``(d0 * 2) * 3``: ``AffineExpr::operator+``
and its siblings (``simplifyAdd``, ``simplifyMul``, ``simplifyFloorDiv``,
``simplifyCeilDiv``, ``simplifyMod`` in ``AffineExpr.cpp``) fold while
building, and ``mlir-opt`` prints the folded tree. The operators of
``AffineExpr`` call the functions of this module, so every expression built
with them, parsed, or substituted into is already folded:

>>> d0, d1 = Dim(0), Dim(1)
>>> print(get_add(d0, Constant(0))), print(get_mul(get_mul(d0, Constant(2)), Constant(3)))
d0
d0 * 6
(None, None)
>>> print(get_floordiv(get_add(get_mul(d0, Constant(8)), d1), Constant(8)))
d0 + d1 floordiv 8
>>> print(get_add(d0, get_mul(get_floordiv(d0, Constant(8)), Constant(-8))))
d0 mod 8

The folds, each one line of MLIR's (B3 of reference/tsl-and-affine.md):

====================  ==================================================================
``+``                 constants to the right and summed; ``x + 0 -> x``; ``c1*x + c2*x -> x*(c1+c2)``;
                      ``x + (x floordiv q) * -q -> x mod q``; sums lean left
``*``                 constants to the right and multiplied; ``x * 1 -> x``, ``x * 0 -> 0``
``floordiv q``        ``(x * k*q) floordiv q -> x * k``; a sum splits when a term is a multiple of ``q``
``ceildiv q``         ``(x * k*q) ceildiv q -> x * k``
``mod q``             a known multiple of ``q`` gives 0; multiples of ``q`` drop from a sum;
                      ``(x mod k*q) mod q -> x mod q``
====================  ==================================================================

A raw ``Binary`` (built without the folds) is folded by ``fold``;
``replace`` (MLIR's ``replaceDimsAndSymbols``) substitutes and rebuilds
with the folds. The node classes are in ``affine.expr``: the tree and its
folds are the affine family's one value <-> algebra pair (``expr`` imports
this module once its classes exist, as ``linear.layout`` does ``linear.algebra``).
"""

from __future__ import annotations

from ..errors import LayoutError
from .expr import (
    _OPS,
    ADD,
    CEILDIV,
    FLOORDIV,
    MOD,
    MUL,
    AffineExpr,
    Binary,
    Constant,
    Dim,
    Symbol,
    _coerce,
    ceildiv,
)

__all__ = ["fold", "build", "replacements", "get_add", "get_mul", "get_floordiv", "get_ceildiv", "get_mod"]


def fold(e: AffineExpr) -> AffineExpr:
    """``e`` rebuilt bottom-up with the folding constructors: the tree that parsing ``str(e)`` gives.

    A tree built by the operators (or parsed) is already folded and comes back
    as is; a tree of raw ``Binary`` nodes is folded. ``AffineMap`` folds its
    results on construction, so ``affine.parse(str(m)) == m`` for every map.

    >>> e = Binary("+", Dim(0), Binary("+", Dim(0), Dim(1)))
    >>> print(e), print(fold(e)), fold(e).canonical
    d0 + d0 + d1
    d0 * 2 + d1
    (None, None, True)
    """
    if not isinstance(e, AffineExpr):
        raise LayoutError(f"fold: expected an affine expression, got {type(e).__name__} {e!r:.60}")
    if e.canonical:
        return e
    return _BUILD[e.op](fold(e.lhs), fold(e.rhs))


def get_add(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """``lhs + rhs`` with MLIR's add folds (B3 of reference/tsl-and-affine.md).

    >>> print(get_add(Constant(1), Dim(0))), print(get_add(Dim(0), Dim(0)))
    d0 + 1
    d0 * 2
    (None, None)
    """
    lc = lhs if type(lhs) is Constant else None
    rc = rhs if type(rhs) is Constant else None
    if lc is not None and rc is not None:
        return Constant(lc.value + rc.value)
    # Constant, or a dim-free operand, goes to the right.
    if lc is not None or (not lhs.has_dims and rhs.has_dims):
        return get_add(rhs, lhs)
    if rc is not None and rc.value == 0:
        return lhs
    lbin = lhs if type(lhs) is Binary else None
    # (x + c1) + c2 -> x + (c1 + c2)
    if lbin is not None and rc is not None and lbin.op == ADD and type(lbin.rhs) is Constant:
        return get_add(lbin.lhs, Constant(lbin.rhs.value + rc.value))
    # c1 * x + c2 * x -> x * (c1 + c2)
    if lbin is not None and lbin.op == MUL and type(lbin.rhs) is Constant:
        c1, first = lbin.rhs.value, lbin.lhs
    else:
        c1, first = 1, lhs
    rbin = rhs if type(rhs) is Binary else None
    if rbin is not None and rbin.op == MUL and type(rbin.rhs) is Constant:
        c2, second = rbin.rhs.value, rbin.lhs
    else:
        c2, second = 1, rhs
    if first == second:
        return get_mul(first, Constant(c1 + c2))
    # (x + c) + y -> (x + y) + c
    if lbin is not None and lbin.op == ADD and type(lbin.rhs) is Constant:
        return get_add(get_add(lbin.lhs, rhs), lbin.rhs)
    # x + ((x floordiv q) * q) * -1 -> x mod q, and x + (x floordiv q) * -q -> x mod q
    if rbin is not None and rbin.op == MUL:
        lr, rr = rbin.lhs, rbin.rhs
        if type(rr) is Constant and rr.value == -1 and type(lr) is Binary and lr.op == MUL:
            inner = lr.lhs
            if type(inner) is Binary and inner.op == FLOORDIV and inner.rhs == lr.rhs and inner.lhs == lhs:
                return get_mod(lhs, lr.rhs)
        if type(lr) is Binary and lr.op == FLOORDIV and lr.lhs == lhs and not rr.has_dims:
            if get_mul(rr, Constant(-1)) == lr.rhs:
                return get_mod(lhs, lr.rhs)
    # x + (y + z) -> (x + y) + z: sums lean left, as the parser builds them from the printed ``x + y + z``
    if rbin is not None and rbin.op == ADD:
        return get_add(get_add(lhs, rbin.lhs), rbin.rhs)
    return Binary(ADD, lhs, rhs, lhs.canonical and rhs.canonical)


def get_mul(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """``lhs * rhs`` with MLIR's multiply folds.

    >>> print(get_mul(Constant(2), Dim(0) * 3)), print(get_mul(Dim(0) * 3, Symbol(0)))
    d0 * 6
    (d0 * s0) * 3
    (None, None)
    """
    lc = lhs if type(lhs) is Constant else None
    rc = rhs if type(rhs) is Constant else None
    if lc is not None and rc is not None:
        return Constant(lc.value * rc.value)
    if lhs.has_dims and rhs.has_dims:
        raise LayoutError(f"non-affine expression: one factor of * must be free of dims, got ({lhs}) * ({rhs})")
    if rhs.has_dims or lc is not None:
        return get_mul(rhs, lhs)
    if rc is not None:
        if rc.value == 1:
            return lhs
        if rc.value == 0:
            return rc
    lbin = lhs if type(lhs) is Binary else None
    if lbin is not None and lbin.op == MUL and type(lbin.rhs) is Constant:
        if rc is not None:
            return get_mul(lbin.lhs, Constant(lbin.rhs.value * rc.value))
        return get_mul(get_mul(lbin.lhs, rhs), lbin.rhs)
    return Binary(MUL, lhs, rhs, lhs.canonical and rhs.canonical)


def _check_divisor(op, rhs):
    if rhs.has_dims:
        raise LayoutError(f"non-affine expression: the right operand of {op} must not contain dims, got {rhs}")
    if type(rhs) is Constant and rhs.value < 1:
        raise LayoutError(f"{op} by {rhs.value}: a constant divisor must be >= 1")


def get_floordiv(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """``lhs floordiv rhs`` with MLIR's floordiv folds.

    >>> print(get_floordiv(Dim(0) * 8 + Dim(1) * 16 + Dim(2), Constant(8)))
    d0 + d1 * 2 + d2 floordiv 8
    """
    _check_divisor(FLOORDIV, rhs)
    if type(rhs) is not Constant:
        return Binary(FLOORDIV, lhs, rhs, lhs.canonical and rhs.canonical)
    q = rhs.value
    if type(lhs) is Constant:
        return Constant(lhs.value // q)
    if q == 1:
        return lhs
    if type(lhs) is Binary:
        if lhs.op == MUL and type(lhs.rhs) is Constant and lhs.rhs.value % q == 0:
            return get_mul(lhs.lhs, Constant(lhs.rhs.value // q))
        if lhs.op == ADD and (
            lhs.lhs.largest_known_divisor() % q == 0 or lhs.rhs.largest_known_divisor() % q == 0
        ):
            return get_add(get_floordiv(lhs.lhs, rhs), get_floordiv(lhs.rhs, rhs))
    return Binary(FLOORDIV, lhs, rhs, lhs.canonical and rhs.canonical)


def get_ceildiv(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """``lhs ceildiv rhs`` with MLIR's ceildiv folds.

    >>> print(get_ceildiv(Dim(0) * 6, Constant(3))), print(get_ceildiv(Constant(-3), Constant(8)))
    d0 * 2
    0
    (None, None)
    """
    _check_divisor(CEILDIV, rhs)
    if type(rhs) is not Constant:
        return Binary(CEILDIV, lhs, rhs, lhs.canonical and rhs.canonical)
    q = rhs.value
    if type(lhs) is Constant:
        return Constant(ceildiv(lhs.value, q))
    if q == 1:
        return lhs
    if type(lhs) is Binary and lhs.op == MUL and type(lhs.rhs) is Constant and lhs.rhs.value % q == 0:
        return get_mul(lhs.lhs, Constant(lhs.rhs.value // q))
    return Binary(CEILDIV, lhs, rhs, lhs.canonical and rhs.canonical)


def get_mod(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """``lhs mod rhs`` with MLIR's mod folds.

    >>> print(get_mod(Dim(0) * 8 + Dim(1), Constant(8))), print(get_mod(Dim(0) % 16, Constant(8)))
    d1 mod 8
    d0 mod 8
    (None, None)
    """
    _check_divisor(MOD, rhs)
    if type(rhs) is not Constant:
        return Binary(MOD, lhs, rhs, lhs.canonical and rhs.canonical)
    q = rhs.value
    if type(lhs) is Constant:
        return Constant(lhs.value % q)
    if lhs.largest_known_divisor() % q == 0:
        return Constant(0)
    if type(lhs) is Binary:
        if lhs.op == ADD:
            if lhs.lhs.largest_known_divisor() % q == 0:
                return get_mod(lhs.rhs, rhs)
            if lhs.rhs.largest_known_divisor() % q == 0:
                return get_mod(lhs.lhs, rhs)
        if lhs.op == MOD and type(lhs.rhs) is Constant and lhs.rhs.value % q == 0:
            return get_mod(lhs.lhs, rhs)
    return Binary(MOD, lhs, rhs, lhs.canonical and rhs.canonical)


_BUILD = {ADD: get_add, MUL: get_mul, FLOORDIV: get_floordiv, CEILDIV: get_ceildiv, MOD: get_mod}


def build(op: str, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """``lhs <op> rhs`` with MLIR's folds (``getAffineBinaryOpExpr``).

    >>> print(build("mod", Dim(0) * 4, Constant(2)))
    0
    """
    try:
        return _BUILD[op](lhs, rhs)
    except KeyError:
        raise LayoutError(f"affine op must be one of {', '.join(_OPS)}; got {op!r}") from None


def replacements(values, what):
    """``replace``'s ``dims``/``symbols``: None (keep them), or a tuple of the sequence given; else ``LayoutError``.

    >>> replacements([Dim(1), 3], "dims") == (Dim(1), 3), replacements(None, "dims")
    (True, None)
    >>> replacements(1.5, "symbols")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: replace: symbols must be a sequence of expressions (one per position), got float
    """
    if values is None:
        return None
    if not isinstance(values, (str, bytes, dict)):
        try:
            return tuple(values)
        except TypeError:
            pass
    raise LayoutError(f"replace: {what} must be a sequence of expressions (one per position), "
                      f"got {type(values).__name__}")


def _replace(e, dims, syms):
    """``e`` with ``dims``/``symbols`` substituted (None keeps them), rebuilt with the folds (``AffineExpr.replace``)."""
    t = type(e)
    if t is Dim:
        if dims is None:
            return e
        if e.position >= len(dims):
            raise LayoutError(f"replace: no replacement given for d{e.position}")
        return _coerce(dims[e.position])
    if t is Symbol:
        if syms is None:
            return e
        if e.position >= len(syms):
            raise LayoutError(f"replace: no replacement given for s{e.position}")
        return _coerce(syms[e.position])
    if t is Constant:
        return e
    return _BUILD[e.op](_replace(e.lhs, dims, syms), _replace(e.rhs, dims, syms))
