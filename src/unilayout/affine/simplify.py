"""Exact simplification of affine expressions through a flat (linear) form.

Each expression is flattened to an integer combination of *atoms* plus a
constant. Atoms are dims, symbols and "local" terms: ``floordiv``,
``ceildiv`` and ``mod`` of simplified arguments, and products whose factors
both are non-constant (``d0 * s0``). On that form:

1. like terms merge, zeros drop, constants fold;
2. ``q*(x floordiv q) + x mod q -> x`` and ``x - q*(x floordiv q) -> x mod q``;
3. ``(x floordiv a) floordiv b -> x floordiv (a*b)`` (same for ``ceildiv``);
4. ``(x mod a) mod b -> x mod b`` when b | a; ``(x mod a) floordiv b -> 0`` when a <= b;
5. in ``(q*y + z) floordiv q`` / ``mod q`` multiples are pulled out
   (``y + z floordiv q`` / ``z mod q``) and a common factor of all
   coefficients and the divisor cancels (``(6*d0) mod 4 -> (d0*3 mod 2) * 2``).

The result is rebuilt in MLIR's flat-form order: dims, symbols, local terms
in first-seen order, then the constant (with MLIR's construction folds).
With a box ``shape``, ``x mod c -> x`` and ``x floordiv c -> 0`` when
``0 <= x < c`` on the whole box.

>>> from unilayout.affine.text import parse_expr
>>> print(simplify_expr(parse_expr("(d0 floordiv 8) * 8 + d0 mod 8 + 1")))
d0 + 1
>>> print(simplify_expr(parse_expr("d1 mod 8"), shape=(4, 8)))
d1

The function never changes: ``simplify_expr(e)`` equals ``e`` at every point.
"""

from __future__ import annotations

import math

from ..errors import LayoutError
from .evaluate import value_range
from .expr import ADD, CEILDIV, FLOORDIV, MOD, MUL, Binary, Constant, Dim, Symbol
from .fold import get_add, get_mul

__all__ = ["simplify_expr"]


def _trunc_rem(c, q):
    """(quotient, remainder) of c by q > 0 with the remainder taking c's sign."""
    quo = abs(c) // q
    if c < 0:
        quo = -quo
    return quo, c - quo * q


class _Simplifier:
    def __init__(self, shape):
        self.shape = None if shape is None else tuple(shape)
        self.memo = {}

    # flat forms: (dict atom -> coef (ordered), const)
    def flatten(self, e):
        got = self.memo.get(e)
        if got is not None:
            return got
        t = type(e)
        if t is Constant:
            f = ({}, e.value)
        elif t is Dim or t is Symbol:
            f = ({e: 1}, 0)
        else:
            op = e.op
            a = self.flatten(e.lhs)
            if op == ADD:
                f = self.normalize(_add(a, self.flatten(e.rhs)))
            elif op == MUL:
                b = self.flatten(e.rhs)
                if not b[0]:
                    f = _scale(a, b[1])
                elif not a[0]:
                    f = _scale(b, a[1])
                else:
                    f = self.product(a, b)
            else:
                b = self.flatten(e.rhs)
                if b[0]:
                    atom = Binary(op, self.rebuild(a), self.rebuild(b))
                    f = ({atom: 1}, 0)
                else:
                    q = b[1]
                    if q < 1:
                        raise LayoutError(f"{op} by {e.rhs}, which is always {q}: divisors must be >= 1")
                    f = self.divmod(op, a, q)
        self.memo[e] = f
        return f

    def product(self, a, b):
        ga, gb = _content(a), _content(b)
        ea, eb = self.rebuild(_div_exact(a, ga)), self.rebuild(_div_exact(b, gb))
        if ea.has_dims and eb.has_dims:
            raise LayoutError(f"non-affine product ({ea}) * ({eb})")
        atom = get_mul(ea, eb)
        return _scale(self.flatten(atom) if type(atom) is not Binary else ({atom: 1}, 0), ga * gb)

    def box_range(self, f):
        """Enclosing (lo, hi) of a flat form on the box, or None (no box, or symbols)."""
        if self.shape is None:
            return None
        lo = hi = f[1]
        for atom, c in f[0].items():
            if atom.symbols():
                return None
            dims = atom.dims()
            if any(d >= len(self.shape) for d in dims):
                return None
            r = value_range(atom, {Dim(d): (0, self.shape[d] - 1) for d in dims})
            if r is None:
                return None
            lo += min(c * r[0], c * r[1])
            hi += max(c * r[0], c * r[1])
        return lo, hi

    def divmod(self, op, a, q):
        while True:
            terms, c = a
            if not terms:
                v = c // q if op == FLOORDIV else c % q if op == MOD else -((-c) // q)
                return ({}, v)
            if q == 1:
                return a if op != MOD else ({}, 0)
            single = next(iter(terms.items())) if len(terms) == 1 else None
            if single is not None and single[1] == 1 and type(single[0]) is Binary:
                atom = single[0]
                inner_q = atom.rhs.value if type(atom.rhs) is Constant else None
                if inner_q is not None:
                    # rule 3: (x div a + c) div q == (x + a*c) div (a*q)
                    if atom.op == op and op in (FLOORDIV, CEILDIV):
                        x = self.flatten(atom.lhs)
                        a, q = _add(x, ({}, inner_q * c)), inner_q * q
                        continue
                    if atom.op == MOD and c == 0:
                        if op == MOD and inner_q % q == 0:  # rule 4
                            a = self.flatten(atom.lhs)
                            continue
                        if op == FLOORDIV and inner_q <= q:
                            return ({}, 0)
            rng = self.box_range(a)
            if rng is not None:
                if op == MOD and 0 <= rng[0] and rng[1] < q:
                    return a
                if op == FLOORDIV and 0 <= rng[0] and rng[1] < q:
                    return ({}, 0)
                if op == CEILDIV and -q < rng[0] and rng[1] <= 0:
                    return ({}, 0)
            # rule 5: pull out multiples of q
            keep, pulled = {}, {}
            for atom, coef in terms.items():
                quo, rem = _trunc_rem(coef, q)
                if quo:
                    pulled[atom] = quo
                if rem:
                    keep[atom] = rem
            cq, cr = _trunc_rem(c, q)
            rest = (keep, cr)
            if op == MOD:
                if pulled or cq:
                    a = rest
                    continue
                g = math.gcd(q, cr, *keep.values())
                if g > 1:
                    inner = self.divmod(MOD, _div_exact(rest, g), q // g)
                    return _scale(inner, g)
                atom = Binary(MOD, self.rebuild(rest), Constant(q))
                return ({atom: 1}, 0)
            head = (pulled, cq)
            if pulled or cq:
                return _add(head, self.divmod(op, rest, q))
            g = math.gcd(q, cr, *keep.values())
            if g > 1:
                a, q = _div_exact(rest, g), q // g
                continue
            atom = Binary(op, self.rebuild(rest), Constant(q))
            return ({atom: 1}, 0)

    def normalize(self, f):
        """Rule 2 on a flat form: recombine x mod q with q*(x floordiv q) and x."""
        terms, c = f
        changed = True
        budget = 10_000  # every step keeps the value; the cap only bounds the work
        while changed and budget:
            budget -= 1
            changed = False
            for atom, coef in list(terms.items()):
                if type(atom) is not Binary or type(atom.rhs) is not Constant:
                    continue
                q = atom.rhs.value
                if atom.op == MOD:
                    floor = Binary(FLOORDIV, atom.lhs, atom.rhs)
                    if terms.get(floor) == coef * q:
                        x = self.flatten(atom.lhs)
                        rest = {k: v for k, v in terms.items() if k != atom and k != floor}
                        terms, c = _add((rest, c), _scale(x, coef))
                        changed = True
                        break
                elif (
                    atom.op == FLOORDIV
                    and type(atom.lhs) is Binary
                    and atom.lhs.op == MOD
                    and type(atom.lhs.rhs) is Constant
                    and atom.lhs.rhs.value % q == 0
                    and terms.get(Binary(FLOORDIV, atom.lhs.lhs, atom.lhs.rhs)) == coef * (atom.lhs.rhs.value // q)
                ):
                    # (A/q) * (x floordiv A) + (x mod A) floordiv q == x floordiv q when q | A
                    outer = Binary(FLOORDIV, atom.lhs.lhs, atom.lhs.rhs)
                    rest = {k: v for k, v in terms.items() if k != atom and k != outer}
                    x_div = self.divmod(FLOORDIV, self.flatten(atom.lhs.lhs), q)
                    terms, c = _add((rest, c), _scale(x_div, coef))
                    changed = True
                    break
                elif atom.op == FLOORDIV and coef % q == 0:
                    k = -coef // q
                    x_terms, x_c = self.flatten(atom.lhs)
                    if x_terms and all(
                        (terms.get(t, 0) * (k * v) > 0 and abs(terms.get(t, 0)) >= abs(k * v)) for t, v in x_terms.items()
                    ):
                        modatom = Binary(MOD, atom.lhs, atom.rhs)
                        new = {}
                        for t, v in terms.items():
                            if t == atom:
                                new[modatom] = new.get(modatom, 0) + k
                            else:
                                new[t] = new.get(t, 0) + v - k * x_terms.get(t, 0)
                        terms = {t: v for t, v in new.items() if v}
                        c = c - k * x_c
                        changed = True
                        break
        return terms, c

    def rebuild(self, f):
        terms, c = f
        dims = sorted((a.position, v) for a, v in terms.items() if type(a) is Dim)
        syms = sorted((a.position, v) for a, v in terms.items() if type(a) is Symbol)
        expr = Constant(0)
        for p, v in dims:
            expr = get_add(expr, get_mul(Dim(p), Constant(v)))
        for p, v in syms:
            expr = get_add(expr, get_mul(Symbol(p), Constant(v)))
        for a, v in terms.items():
            if type(a) is Binary:
                expr = get_add(expr, get_mul(a, Constant(v)))
        return get_add(expr, Constant(c))


def _add(a, b):
    terms = dict(a[0])
    for t, v in b[0].items():
        n = terms.get(t, 0) + v
        if n:
            terms[t] = n
        else:
            terms.pop(t, None)
    return terms, a[1] + b[1]


def _scale(a, k):
    if k == 0:
        return {}, 0
    return {t: v * k for t, v in a[0].items()}, a[1] * k


def _content(a):
    return math.gcd(a[1], *a[0].values()) or 1


def _div_exact(a, g):
    return {t: v // g for t, v in a[0].items()}, a[1] // g


def simplify_expr(e, shape=None):
    """Simplify one expression exactly (see the module docstring for the rules).

    Pre-condition: with ``shape``, the expression is only used for dims in the
    box ``0 <= d_i < shape[i]``. Post-condition: ``simplify_expr(e, shape)``
    and ``e`` agree at every point (of the box, when given).

    >>> from unilayout.affine.text import parse_expr
    >>> print(simplify_expr(parse_expr("((d0 mod 16) mod 8) floordiv 8 + (d0 floordiv 4) floordiv 2")))
    d0 floordiv 8
    """
    s = _Simplifier(shape)
    f = s.normalize(s.flatten(e))
    return s.rebuild(f)
