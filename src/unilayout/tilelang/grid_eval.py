"""Evaluating an expression over a whole grid of points: narrow, in place, broadcast.

``expr.evaluate`` computes in int64 on whatever arrays it is given. A layout's
maps are evaluated over every point of its input shape (2^20 points for a
1024x1024 tile), where the cost is memory traffic, so ``evaluate_grid``:

- takes each placeholder as an *open* grid (``_i`` of shape ``(n, 1)``,
  ``_j`` of shape ``(1, m)``): a term of one placeholder is computed on one
  row or column, and a whole-grid array appears only where two meet;
- computes each operation in the narrowest signed type (int16, int32, else
  int64) that holds its operands and its result as TVM's bounds
  (``expr.bound``) prove them, so no intermediate can overflow, and the
  last one straight into int64;
- writes each operation into an operand it owns (a temporary of the full
  broadcast shape) instead of allocating a new array;
- evaluates the terms that read several placeholders (a swizzle's XOR of a
  row and a column) once per *period*: where they read ``_i`` only through
  ``_i % 8`` and ``_j`` only through ``_j % 64``, they are computed on an
  8x64 grid and added to the rest tile by tile (``period``).

The answer is int64 of the broadcast shape, equal to ``expr.evaluate``:

>>> import numpy as np
>>> from .expr import parse, evaluate
>>> e = parse("_i % 8 * 64 + T.bitwise_xor(_j // 8, _i % 8) * 8 + _j % 8")
>>> env = {"_i": np.arange(16).reshape(16, 1), "_j": np.arange(64).reshape(1, 64)}
>>> out = evaluate_grid(e, env, {"_i": 16, "_j": 64})
>>> out.dtype.name, out.shape, bool((out == evaluate(e, env)).all())
('int64', (16, 64), True)
"""

from __future__ import annotations

import math

import numpy as np

from .expr import apply, bound, pow2_shift, variables

__all__ = ["evaluate_grid", "narrow_dtype", "period"]

_NARROW = (np.dtype(np.int16), np.dtype(np.int32))
_INT64_MAX = (1 << 63) - 1
_IN_PLACE = {"+": np.add, "-": np.subtract, "*": np.multiply, "bitwise_xor": np.bitwise_xor,
             "bitwise_and": np.bitwise_and, "bitwise_or": np.bitwise_or, "min": np.minimum, "max": np.maximum}


def _fit(b) -> np.dtype:
    """The narrowest of int16/int32/int64 holding the bound ``b`` (``(lo, hi)``, or None: unbounded)."""
    if b is not None:
        for dt in _NARROW:
            if np.iinfo(dt).min <= b[0] and b[1] <= np.iinfo(dt).max:
                return dt
    return np.dtype(np.int64)


def narrow_dtype(e, extents) -> np.dtype:
    """The narrowest of int16/int32/int64 holding ``e`` over the box ``extents`` (TVM's bounds; int64 if unbounded).

    >>> from .expr import parse
    >>> narrow_dtype(parse("_i * 64 + _j"), {"_i": 64, "_j": 64}).name, narrow_dtype(parse("_i * 65536"), {"_i": 64}).name
    ('int16', 'int32')
    """
    return _fit(bound(e, extents))


def evaluate_grid(e, env, extents) -> np.ndarray:
    """``e`` over the open grid ``env`` (placeholder -> int array) with each placeholder in ``[0, extents[name])``.

    Returns int64 of the broadcast shape of the placeholders ``e`` reads (see the module docstring).
    """
    local = {k: np.asarray(v, dtype=_fit((0, max(extents[k] - 1, 0)))) for k, v in env.items()}
    nd = max((a.ndim for a in local.values()), default=0)  # the same rank for all, as broadcasting reads them
    local = {k: a.reshape((1,) * (nd - a.ndim) + a.shape) for k, a in local.items()}
    terms = _terms(e)
    whole = _sum(t for t in terms if len(variables(t[1])) > 1)
    periods = _tile_periods(whole, local, extents) if whole is not None else None
    if periods is None:
        out, _ = _ev(regroup(e), local, extents, np.dtype(np.int64))
        return np.asarray(out, dtype=np.int64)
    return _tiled(terms, periods, local, extents)


def period(e, var):
    """The least-known ``P`` such that ``e`` reads ``var`` only through ``var mod P`` (1: not at all; None: no period).

    Found structurally: ``x % c`` reads ``x`` only modulo ``c``; modulo ``c``, ``k * x`` needs ``x`` modulo
    ``c / gcd(k, c)``, ``x // d`` needs ``x`` modulo ``c * |d|``, sums need the lcm; any other operation is
    periodic with the lcm of its operands' periods. Every operand of the result is then periodic too (its
    value, or its value modulo what the result reads of it), so evaluating ``e`` on ``[0, P)`` meets every
    error the whole range would.

    >>> from .expr import parse
    >>> e = parse("(_j % 64 // 32 + _i % 8 // 4) % 2 * 32 + T.bitwise_xor(_i * 3 % 16, _j // 8 % 4)")
    >>> period(e, "_i"), period(e, "_j"), period(parse("_i // 8"), "_i")
    (16, 64, None)
    """
    if var not in variables(e):
        return 1
    op = e[0]
    if op == "var":
        return None
    c = _const(e[2]) if len(e) == 3 else None
    if op in ("%", "floormod") and c:
        return _mod_period(e[1], var, abs(c))
    if op == "bitwise_and" and c and c > 0 and c & (c + 1) == 0:
        return _mod_period(e[1], var, c + 1)
    return _lcm(period(x, var) for x in e[1:])


def _mod_period(e, var, c):
    """The least-known ``P`` such that ``e mod c`` reads ``var`` only through ``var mod P`` (None: no period)."""
    if var not in variables(e):
        return 1
    op = e[0]
    if op == "var":
        return c
    if op in ("+", "-"):
        return _lcm(_mod_period(x, var, c) for x in e[1:])
    if op == "neg":
        return _mod_period(e[1], var, c)
    if op == "*" and (_const(e[1]) is not None or _const(e[2]) is not None):
        k, x = (e[1], e[2]) if _const(e[1]) is not None else (e[2], e[1])
        m = c // math.gcd(_const(k), c)
        return 1 if m == 1 else _mod_period(x, var, m)
    d = _const(e[2]) if len(e) == 3 else None
    if op in ("//", "floordiv") and d:
        return _mod_period(e[1], var, c * abs(d))
    if op in ("%", "floormod") and d and d % c == 0:
        return _mod_period(e[1], var, c)
    return period(e, var)


def _const(e):
    return e[1] if e[0] == "int" else None


def _lcm(ps):
    out = 1
    for p in ps:
        if p is None:
            return None
        out = math.lcm(out, p)
    return out


def _axis(a) -> int | None:
    """The one axis of the open-grid array ``a`` longer than 1 (None: a whole grid, or a single value)."""
    long = [k for k, n in enumerate(a.shape) if n > 1]
    return long[0] if len(long) == 1 else None


def _tile_periods(whole, env, extents):
    """``{placeholder: period}`` of ``whole`` when it pays to evaluate it on one period (>= 4x fewer points)."""
    out, full, small = {}, 1, 1
    for v in variables(whole):
        n, p = extents.get(v, 0), period(whole, v)
        if p is None or n < 1 or n % p or v not in env or _axis(env[v]) is None:
            return None
        out[v], full, small = p, full * n, small * p
    return out if small * 4 <= full else None


def _tiled(terms, periods, env, extents):
    """The sum of ``terms`` as int64, its whole-grid terms evaluated on one period of each placeholder.

    Each axis of ``n`` points whose placeholder has period ``p < n`` is viewed as ``(n // p, p)``; the
    whole-grid terms (on the periods), the constant and each placeholder's own terms are summed smallest
    first, so that only the last addition writes the whole grid.
    """
    parts = {}  # the placeholder a term reads ("" none, "*" several) -> its sum
    for c, t in terms:
        v = variables(t)
        parts.setdefault("*" if len(v) > 1 else next(iter(v), ""), []).append((c, t))
    read = [v for v in env if v in periods or v in parts]
    shape = np.broadcast_shapes(*(env[v].shape for v in read))
    axis = {_axis(env[v]): v for v in read}
    split = []  # per axis: (tiles, period) or (n,)
    for k, n in enumerate(shape):
        p = periods.get(axis.get(k), n)
        split.append((n // p, p) if p < n else (n,))

    def view(a, k=None):  # ``a`` in the split shape: long along axis k, or (k None) along the period axes
        out = []
        for j, sp in enumerate(split):
            if len(sp) == 1:
                out.append(a.shape[j])
            else:
                out += [1, a.shape[j]] if k is None else list(sp) if j == k else [1, 1]
        return a.reshape(out)

    small = {v: np.arange(p, dtype=env[v].dtype).reshape([p if k == _axis(env[v]) else 1 for k in range(len(shape))])
             for v, p in periods.items()}
    acc = np.asarray(_ev(regroup(_sum(parts["*"])), small, {**extents, **periods}, np.dtype(np.int64))[0])
    if "" in parts:
        acc = acc + _ev(_sum(parts[""]), env, extents, np.dtype(np.int64))[0]
    acc = view(acc.reshape(acc.shape + (1,) * (len(shape) - acc.ndim)))
    rows = sorted((v for v in parts if v not in ("", "*")), key=lambda v: env[v].size)
    for v in rows:
        r = view(np.asarray(_ev(_sum(parts[v]), env, extents, np.dtype(np.int64))[0]), _axis(env[v]))
        acc = np.add(acc, r, out=np.empty(np.broadcast_shapes(acc.shape, r.shape), np.int64))
    whole = tuple(n for sp in split for n in sp)
    return (acc if acc.shape == whole else np.broadcast_to(acc, whole).copy()).reshape(shape)


def _term(c, t):
    """The term ``c * t`` as an expression."""
    if t[0] == "int" and abs(c * t[1]) <= _INT64_MAX:
        return ("int", c * t[1])
    return t if c == 1 else ("*", t, ("int", c))


def _sum(terms):
    out = None
    for c, t in terms:
        out = _term(c, t) if out is None else ("+", out, _term(c, t))
    return out


def _terms(e, c=1):
    """``e`` as ``[(coefficient, term)]`` whose sum it is: ``+``, ``-`` and products by a constant distributed."""
    op = e[0]
    if op == "+":
        return _terms(e[1], c) + _terms(e[2], c)
    if op == "-":
        return _terms(e[1], c) + _terms(e[2], -c)
    if op == "neg":
        return _terms(e[1], -c)
    if op == "*" and e[2][0] == "int" and abs(c * e[2][1]) <= _INT64_MAX:  # folded only where int64 holds it
        return _terms(e[1], c * e[2][1])
    if op == "*" and e[1][0] == "int" and abs(c * e[1][1]) <= _INT64_MAX:
        return _terms(e[2], c * e[1][1])
    return [(c, e)]


def regroup(e):
    """``e`` with its outer sum regrouped: the terms of each set of placeholders summed first, fewer first.

    On an open grid, ``(_j // 64 * 128 + _i // 8) * 512 + f(_i, _j)`` adds a row to a column (a whole grid)
    and then multiplies the whole grid; ``_j // 64 * 65536 + _i // 8 * 512 + f(_i, _j)`` scales each on its
    own axis, and the whole-grid terms (small values: a narrow type) are summed apart and added last.
    Integer sums and products are exact in any order.

    >>> from .expr import parse, to_text
    >>> to_text(regroup(parse("(_j * 4 + _i) * 8 + T.bitwise_xor(_i, _j) + _j + _i * _j")))
    '_i * 8 + (_j * 32 + _j) + (T.bitwise_xor(_i, _j) + _i * _j)'
    """
    terms = _terms(e)
    if len(terms) == 1:
        return e
    groups = {}  # the placeholders a term reads -> its terms, in the text's order
    for c, t in terms:
        groups.setdefault(tuple(sorted(variables(t))), []).append(_term(c, t))
    sums = [None, None]  # terms of at most one placeholder (rows, columns), and the rest (whole grids, small values)
    for key in sorted(groups, key=lambda k: (len(k), k)):
        part = groups[key][0]
        for term in groups[key][1:]:
            part = ("+", part, term)
        side = len(key) > 1
        sums[side] = part if sums[side] is None else ("+", sums[side], part)
    return sums[0] if sums[1] is None else sums[1] if sums[0] is None else ("+", sums[0], sums[1])


def _ev(e, env, extents, final=None):
    """``(value, owned)`` of ``e``, computed in the narrowest type that holds it and its operands (``final``: in
    that type instead). Owned values are temporaries of their full shape, free to be overwritten."""
    op = e[0]
    if op == "int":
        return e[1], False
    if op == "var":
        return env[e[1]], False
    args = [_ev(x, env, extents) for x in e[1:]]
    kinds = [_fit((a, a)) if isinstance(a, int) else a.dtype for a, _ in args]
    dt = final or max([_fit(bound(e, extents))] + kinds, key=lambda d: d.itemsize)
    vals = [dt.type(a) if isinstance(a, int) else a for a, _ in args]
    shape = np.broadcast_shapes(*(np.shape(a) for a in vals))
    out = next((a for a, (_, owned) in zip(vals, args) if owned and a.shape == shape and a.dtype == dt), None)
    if op in ("neg", "bitwise_not"):
        return (np.negative if op == "neg" else np.invert)(vals[0], out=out, dtype=dt), len(shape) > 0
    a, b = vals
    f = _IN_PLACE.get(op)
    if f is None and op in ("//", "floordiv", "%", "floormod"):
        k = pow2_shift(b)
        if k is not None:
            f, b = (np.right_shift, dt.type(k)) if op in ("//", "floordiv") else (np.bitwise_and, dt.type((1 << k) - 1))
    if f is None:
        return apply(op, np.asarray(a, dtype=dt), np.asarray(b, dtype=dt)), len(shape) > 0
    return f(a, b, out=out, dtype=dt), len(shape) > 0
