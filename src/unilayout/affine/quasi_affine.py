"""A quasi-affine map is a linear map plus a periodic one: its exact linear part and periods.

MLIR's affine expressions add, multiply by constants and take ``floordiv``,
``ceildiv`` and ``mod`` by positive constants. Such an expression ``e`` of
integer variables ``x`` (dims, then symbols taken as more variables) is
**quasi-affine**: for each variable ``i`` there is a period ``P_i`` and an
increment ``delta_i`` with ``e(x + P_i e_i) == e(x) + delta_i`` for every
integer ``x``. So ``e(x) = sum_i (delta_i / P_i) * x_i + g(x)`` with ``g``
periodic in every variable: ``delta_i / P_i`` is the exact (rational)
coefficient of the linear part.

Periods and increments come bottom-up, exactly:

- a variable: ``(1, 1)`` for itself, ``(1, 0)`` for the others; a constant ``(1, 0)``;
- ``a + b``: ``P = lcm(P_a, P_b)``, increments scaled to ``P`` and added;
- ``a * c``: ``(P_a, c * delta_a)``;
- ``a floordiv k`` and ``a ceildiv k``: over ``P_a * k / g`` steps (``g = gcd(delta_a, k)``)
  ``a`` grows by ``delta_a * k / g``, a multiple of ``k``, so the quotient grows by ``delta_a / g``;
- ``a mod k = a - k * (a floordiv k)``: the same period, increment 0.

A map's periods are the lcm over its results. Two maps are then equal as
functions on all integers exactly when their linear parts are equal and
they agree on one period box ``[0, P_i)`` (the difference is then periodic
and zero on a period), which ``unilayout.equivalent`` uses to compare maps
without a box.

>>> from unilayout import affine
>>> lp = linear_part(affine.parse("(d0, d1) -> (d0 floordiv 4 + d1 * 3, d0 mod 4)"))
>>> lp.periods, [[str(c) for c in row] for row in lp.coefficients]
((4, 1), [['1/4', '3'], ['0', '0']])
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from .._ints import MAX_TABLE, as_nonneg
from ..errors import LayoutError
from .expr import CEILDIV, FLOORDIV, MOD, MUL, AffineExpr, Binary, Constant, Dim, Symbol
from .map import AffineMap

__all__ = ["LinearPart", "linear_part", "expr_periods", "affine_maps_equal"]


class LinearPart(NamedTuple):
    """``m(x) == coefficients @ x + g(x)``, ``g`` periodic with ``periods`` in every variable.

    Variables are the dims, then the symbols. ``coefficients[r][i]`` is the
    ``Fraction`` coefficient of variable ``i`` in result ``r``; ``periods[i]``
    a period of every result in variable ``i`` (the lcm of the results').

    >>> LinearPart((2,), ((Fraction(1, 2),),)).periods
    (2,)
    """

    periods: tuple
    coefficients: tuple


def _constant_value(e: AffineExpr, what: str):
    """The value of a variable-free expression, else ``LayoutError`` (a symbol factor or divisor)."""
    if e.has_dims or e.symbols():
        raise LayoutError(
            f"{what}: {e} is not a constant: with symbols as factors or divisors the map is not "
            "quasi-affine in them (substitute the symbols, or compare on a box with shape=)"
        )
    return e.value_at()


def expr_periods(e: AffineExpr, num_dims: int, num_symbols: int = 0) -> tuple:
    """``((P_i, delta_i), ..)`` per variable (dims, then symbols): ``e(x + P_i e_i) == e(x) + delta_i``.

    ``P_i`` is derived from the tree (not searched), so it is a period, not
    always the smallest one. ``LayoutError`` when a factor or divisor
    involves a symbol (the expression is then not quasi-affine in it).

    >>> from unilayout.affine import parse_expr
    >>> expr_periods(parse_expr("(d0 * 3) floordiv 6 + d1 mod 4"), 2)
    ((2, 1), (4, 0))
    """
    if not isinstance(e, AffineExpr):
        raise LayoutError(f"expr_periods: expected an affine expression, got {type(e).__name__}")
    n = as_nonneg(num_dims, "expr_periods: num_dims") + as_nonneg(num_symbols, "expr_periods: num_symbols")
    memo: dict = {}

    def walk(x):
        key = id(x)
        if key in memo:
            return memo[key][1]
        if isinstance(x, Constant):
            out = ((1, 0),) * n
        elif isinstance(x, Dim):
            out = tuple((1, 1 if i == x.position else 0) for i in range(n))
        elif isinstance(x, Symbol):
            out = tuple((1, 1 if i == num_dims + x.position else 0) for i in range(n))
        elif isinstance(x, Binary):
            out = combine(x)
        else:
            raise LayoutError(f"expr_periods: expected an affine expression, got {type(x).__name__}")
        memo[key] = (x, out)  # keep x alive so its id is not reused
        return out

    def combine(x):
        if x.op == MUL:
            if x.lhs.has_dims or x.lhs.symbols():
                var, c = x.lhs, _constant_value(x.rhs, "expr_periods")
            else:
                var, c = x.rhs, _constant_value(x.lhs, "expr_periods")
            return tuple((p, d * c) for p, d in walk(var))
        if x.op in (FLOORDIV, CEILDIV, MOD):
            k = _constant_value(x.rhs, "expr_periods")
            if k < 1:
                raise LayoutError(f"expr_periods: {x.op} by {k}: a divisor must be >= 1")
            out = []
            for p, d in walk(x.lhs):
                g = math.gcd(d, k)
                out.append((p * (k // g), 0 if x.op == MOD else d // g))
            return tuple(out)
        a, b = walk(x.lhs), walk(x.rhs)  # +
        out = []
        for (pa, da), (pb, db) in zip(a, b):
            p = math.lcm(pa, pb)
            out.append((p, da * (p // pa) + db * (p // pb)))
        return tuple(out)

    return walk(e)


def linear_part(m: AffineMap) -> LinearPart:
    """The exact linear part and periods of a quasi-affine map (symbols taken as more variables).

    **Pre-condition** (else ``LayoutError``): every factor and divisor is a
    constant (no symbol in them).

    **Post-condition**: for every integer point ``x`` and variable ``i``,
    ``m(x + P_i e_i)[r] - m(x)[r] == coefficients[r][i] * P_i``.

    >>> from unilayout import affine
    >>> linear_part(affine.parse("(d0)[s0] -> (d0 * 2 + s0 - d0 floordiv 3)"))
    LinearPart(periods=(3, 1), coefficients=((Fraction(5, 3), Fraction(1, 1)),))
    >>> linear_part(affine.parse("(d0)[s0] -> (d0 mod s0)"))
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: expr_periods: s0 is not a constant: with symbols as factors or divisors the map is not quasi-affine in them (substitute the symbols, or compare on a box with shape=)
    """
    if not isinstance(m, AffineMap):
        raise LayoutError(f"linear_part: expected an AffineMap, got {type(m).__name__}")
    n = m.num_dims + m.num_symbols
    per_result = [expr_periods(r, m.num_dims, m.num_symbols) for r in m.results]
    periods = tuple(math.lcm(1, *(pr[i][0] for pr in per_result)) for i in range(n))
    coefficients = tuple(tuple(Fraction(d, p) for p, d in pr) for pr in per_result)
    return LinearPart(periods, coefficients)


def affine_maps_equal(a: AffineMap, b: AffineMap, max_points: int = MAX_TABLE) -> bool:
    """True iff the affine maps ``a`` and ``b`` are the same function on all integer dims and symbols.

    Same numbers of dims, symbols and results; the same exact linear part
    (``affine.linear_part``); and the same values on one common period box
    ``[0, P_i)`` (``P_i`` the lcm of both maps' periods), evaluated
    vectorised with the symbols as extra dims. The difference of two maps
    with equal linear parts is periodic, so agreeing on one period box is
    agreeing everywhere.

    **Pre-conditions** (else ``LayoutError``): no symbol as a factor or a
    divisor; the period box has at most ``max_points`` points (the message
    names it: compare on a box with ``equivalent(.., shape=)`` instead).

    >>> from unilayout import affine
    >>> affine_maps_equal(affine.parse("(d0) -> ((d0 floordiv 2) floordiv 2)"), affine.parse("(d0) -> (d0 floordiv 4)"))
    True
    >>> affine_maps_equal(affine.parse("(d0)[s0] -> (d0 + s0)"), affine.parse("(d0)[s0] -> (s0 + d0 + 1)"))
    False
    """
    for name, m in (("a", a), ("b", b)):
        if not isinstance(m, AffineMap):
            raise LayoutError(f"affine_maps_equal: {name} must be an AffineMap, got {type(m).__name__}")
    max_points = as_nonneg(max_points, "affine_maps_equal: max_points")
    if (a.num_dims, a.num_symbols, a.num_results) != (b.num_dims, b.num_symbols, b.num_results):
        return False
    la, lb = linear_part(a), linear_part(b)
    if la.coefficients != lb.coefficients:
        return False
    periods = tuple(math.lcm(p, q) for p, q in zip(la.periods, lb.periods))
    n = math.prod(periods)
    if n * max(a.num_results, 1) > max_points:
        raise LayoutError(
            f"equivalent: the period box {periods} of {a} and {b} has {n} points, more than {max_points} to "
            "compare: pass shape= to compare them on a box"
        )
    nv = a.num_dims + a.num_symbols
    as_dims = [Dim(a.num_dims + j) for j in range(a.num_symbols)]

    def table(m):
        m = m.replace(symbols=as_dims, num_dims=nv, num_symbols=0) if m.num_symbols else m
        return m.index_map(periods)

    return bool(np.array_equal(table(a), table(b)))
