"""Analyses of affine maps over a box domain: exact bounds, inverses.

Bounds are exact: interval arithmetic is used only where it is provably
exact (each dim occurs once, and a ``mod`` argument takes every value of its
interval); otherwise the dims a group of terms depends on are enumerated with
numpy in chunks.

>>> from unilayout.affine import parse
>>> bounds(parse("(d0, d1) -> (d0 * 8 + d1 mod 8, (d0 * 2) mod 4)"), (4, 16))
((0, 31), (0, 2))

An inverse is found from the structure where the map is a *mixed-radix digit
permutation* (each result a dense sum of digits ``(d_i mod M) floordiv F``
of the inputs, as tiled and strided layouts are); otherwise it is fitted to
the inverse table (each input a sum of mixed-radix digits of the results,
e.g. a reversal), and the fit is checked on the whole box:

>>> print(inverse(parse("(d0, d1) -> (d0 floordiv 4, d1, d0 mod 4)"), (8, 3)))
(d0, d1, d2) -> (d0 * 4 + d2, d1)

The functions take the map and build results with its own class
(``type(m)``), so this module sits under ``affine.map``, whose ``bounds``,
``inverse`` and ``inverse_table`` methods delegate here.
"""

from __future__ import annotations

import numpy as np

from ..errors import LayoutError, NotRepresentableError
from .evaluate import compile_numpy
from .expr import ADD, CEILDIV, FLOORDIV, MOD, MUL, Binary, Constant, Dim
from .fold import _replace, get_add, get_floordiv, get_mod, get_mul
from .simplify import simplify_expr

__all__ = ["bounds", "inverse", "inverse_table"]

#: Most points bounds() will enumerate for one group of terms.
ENUMERATION_LIMIT = 1 << 27
_CHUNK = 1 << 20


def _terms(e):
    """The addends of a top-level sum."""
    out, stack = [], [e]
    while stack:
        x = stack.pop()
        if type(x) is Binary and x.op == ADD:
            stack.append(x.rhs)
            stack.append(x.lhs)
        else:
            out.append(x)
    return out


def _dim_counts(e, counts):
    stack = [e]
    while stack:
        x = stack.pop()
        if type(x) is Dim:
            counts[x.position] = counts.get(x.position, 0) + 1
        elif type(x) is Binary:
            stack.append(x.lhs)
            stack.append(x.rhs)
    return counts


def _exact(e, shape):
    """(lo, hi, dense) exactly, for a symbol-free expression using each dim once; else None."""
    t = type(e)
    if t is Constant:
        return e.value, e.value, True
    if t is Dim:
        return 0, shape[e.position] - 1, True
    if t is not Binary:
        return None
    a = _exact(e.lhs, shape)
    if a is None:
        return None
    op = e.op
    if op == ADD:
        b = _exact(e.rhs, shape)
        if b is None:
            return None
        return a[0] + b[0], a[1] + b[1], a[2] and b[2]
    if type(e.rhs) is not Constant:
        return None
    k = e.rhs.value
    lo, hi, dense = a
    if op == MUL:
        x, y = lo * k, hi * k
        return min(x, y), max(x, y), dense and (abs(k) <= 1 or lo == hi)
    if op == FLOORDIV:
        return lo // k, hi // k, dense
    if op == CEILDIV:
        return -(-lo // k), -(-hi // k), dense
    if not dense:
        return None
    if hi - lo + 1 >= k:
        return 0, k - 1, True
    if lo // k == hi // k:
        return lo % k, hi % k, True
    return 0, k - 1, False


def _enumerate_bounds(expr, dims, shape):
    sizes = [shape[d] for d in dims]
    total = 1
    for s in sizes:
        total *= s
    if total > ENUMERATION_LIMIT:
        raise LayoutError(
            f"bounds of {expr}: exact bounds need enumerating {total} points (limit {ENUMERATION_LIMIT})"
        )
    local = _replace(expr, [Dim(dims.index(i)) if i in dims else Constant(0) for i in range(len(shape))], None)
    evaluate = compile_numpy([local], len(dims), 0)
    lo = hi = None
    for start in range(0, total, _CHUNK):
        idx = np.arange(start, min(total, start + _CHUNK), dtype=np.int64)
        coords = np.unravel_index(idx, sizes) if sizes else ()
        (v,) = evaluate(*coords)
        vmin, vmax = int(v.min()), int(v.max())
        lo = vmin if lo is None else min(lo, vmin)
        hi = vmax if hi is None else max(hi, vmax)
    return lo, hi


def _result_bounds(expr, shape):
    terms = _terms(expr)
    # Group terms that share dims (union-find over dims).
    parent = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    term_dims = []
    for t in terms:
        ds = sorted(t.dims())
        term_dims.append(ds)
        for d in ds[1:]:
            parent[find(d)] = find(ds[0])
    groups = {}
    const = 0
    for t, ds in zip(terms, term_dims):
        if not ds:
            const += t.value_at((0,) * len(shape))
        else:
            groups.setdefault(find(ds[0]), []).append(t)
    lo = hi = const
    for members in groups.values():
        e = members[0]
        for t in members[1:]:
            e = Binary(ADD, e, t) if e.depth < 100 and t.depth < 100 else get_add(e, t)
        counts = _dim_counts(e, {})
        r = _exact(e, shape) if all(c == 1 for c in counts.values()) else None
        if r is None:
            r = _enumerate_bounds(e, sorted(counts), shape)
        lo += r[0]
        hi += r[1]
    return lo, hi


def bounds(m, shape, symbols=()):
    """Exact inclusive (min, max) of every result of ``m`` over the box ``shape``.

    Pre-conditions: ``len(shape) == m.num_dims``, every size >= 1, one value
    per symbol. Post-condition: for each result j, some box point attains
    ``lo_j`` and some attains ``hi_j``, and no point goes outside.

    >>> from unilayout.affine import parse
    >>> bounds(parse("(d0)[s0] -> (d0 * s0 - 1)"), (4,), symbols=(3,))
    ((-1, 8),)
    """
    shp = m._box(shape, "bounds")
    syms = m._symbols(symbols, "bounds")
    if any(n == 0 for n in shp):
        raise LayoutError(f"bounds: the box {shp} is empty")
    out = []
    for r in m.results:
        e = _replace(r, None, [Constant(s) for s in syms]) if syms else r
        try:
            e = simplify_expr(e, shp)
        except LayoutError:
            pass
        out.append(_result_bounds(e, shp))
    return tuple(out)


# --- inverse -------------------------------------------------------------


def _digit(e, shape):
    """(dim, F, M) for e == (d mod M) floordiv F (M None: no mod), or None."""
    f = 1
    if (
        type(e) is Binary
        and e.op == MOD
        and type(e.rhs) is Constant
        and type(e.lhs) is Binary
        and e.lhs.op == FLOORDIV
        and type(e.lhs.rhs) is Constant
    ):
        # (d floordiv F) mod E == (d mod (F * E)) floordiv F
        f, ext = e.lhs.rhs.value, e.rhs.value
        e = Binary(FLOORDIV, Binary(MOD, e.lhs.lhs, Constant(f * ext)), Constant(f))
    if type(e) is Binary and e.op == FLOORDIV and type(e.rhs) is Constant:
        f, e = e.rhs.value, e.lhs
    m = None
    if type(e) is Binary and e.op == MOD and type(e.rhs) is Constant:
        m, e = e.rhs.value, e.lhs
    if type(e) is not Dim:
        return None
    n = shape[e.position]
    if m is not None and m >= n:
        m = None
    top = n if m is None else m
    if top % f or (m is not None and n % m):
        return None
    return e.position, f, m, top // f


def _structural_inverse(m, shape):
    per_dim = {i: [] for i in range(m.num_dims)}  # dim -> [(F, extent, result, coef)]
    per_result = []
    for j, r in enumerate(m.results):
        const, digits = 0, []
        for t in _terms(r):
            coef = 1
            if type(t) is Constant:
                const += t.value
                continue
            if type(t) is Binary and t.op == MUL and type(t.rhs) is Constant:
                coef, t = t.rhs.value, t.lhs
            d = _digit(t, shape)
            if d is None or coef < 1:
                return None
            if d[3] > 1:
                digits.append((coef, d))
        digits.sort(key=lambda x: x[0])
        expect = 1
        for coef, d in digits:
            if coef != expect:
                return None
            expect *= d[3]
        per_result.append((const, digits))
        for k, (coef, d) in enumerate(digits):
            per_dim[d[0]].append((d[1], d[3], j, coef, k == len(digits) - 1))
    for i, ds in per_dim.items():
        ds.sort(key=lambda x: x[0])
        expect = 1
        for f, ext, _, _, _ in ds:
            if f != expect:
                return None
            expect *= ext
        if expect != shape[i]:
            return None
    results = []
    for i in range(m.num_dims):
        e = Constant(0)
        for f, ext, j, coef, outermost in per_dim[i]:
            y = get_add(Dim(j), Constant(-per_result[j][0]))
            v = get_floordiv(y, Constant(coef))
            if not outermost:
                v = get_mod(v, Constant(ext))
            e = get_add(e, get_mul(v, Constant(f)))
        results.append(e)
    return type(m)(m.num_results, 0, results).simplify()


def _fit_digits(f):
    """Terms (F, E, c) with f(y) == sum c * ((y floordiv F) mod E) (outermost E None), or None."""
    terms = []
    scale = 1
    while f.size > 1:
        w = f.size
        d = int(f[1] - f[0])
        off = np.nonzero(f != f[0] + np.arange(w, dtype=np.int64) * d)[0]
        if off.size == 0:
            terms.append((scale, None, d))
            return terms
        e = int(off[0])
        if w % e:
            return None
        y = np.arange(w, dtype=np.int64)
        g = f[::e]
        if not (f == (y % e) * d + g[y // e]).all():
            return None
        terms.append((scale, e, d))
        scale *= e
        f = g - g[0]
    return terms


def _table_inverse(m, shape):
    """Affine inverse fitted to the inverse table (separable mixed-radix digits), verified; or None."""
    total = 1
    for n in shape:
        total *= n
    if total > ENUMERATION_LIMIT:
        return None
    table = inverse_table(m, shape)
    fwd = m.index_map(shape)
    lo = fwd.min(axis=0)
    ext = tuple(int(x) for x in fwd.max(axis=0) - lo + 1)
    grid = table.reshape(ext + (m.num_dims,))
    base = grid[(0,) * len(ext)]
    results = []
    for i in range(m.num_dims):
        e = Constant(int(base[i]))
        for j in range(len(ext)):
            index = [0] * len(ext)
            index[j] = slice(None)
            f = grid[tuple(index) + (i,)] - base[i]
            terms = _fit_digits(np.asarray(f, dtype=np.int64))
            if terms is None:
                return None
            y = get_add(Dim(j), Constant(-int(lo[j])))
            for scale, ext_t, coef in terms:
                digit = get_floordiv(y, Constant(scale))
                if ext_t is not None:
                    digit = get_mod(digit, Constant(ext_t))
                e = get_add(e, get_mul(digit, Constant(coef)))
        results.append(e)
    inv = type(m)(m.num_results, 0, results).simplify()
    back = np.stack(inv.evaluate(*fwd.T), axis=1) if m.num_results else np.zeros((total, 0), dtype=np.int64)
    coords = np.stack(np.unravel_index(np.arange(total), shape), axis=1)
    if back.shape != coords.shape or not (back == coords).all():
        return None
    return inv


def inverse(m, shape):
    """Inverse of ``m``, a bijection from the box ``shape`` onto the box of its bounds.

    Post-conditions: ``inv(*m(*x)) == x`` for x in the box and
    ``m(*inv(*y)) == y`` for y in the image box. Raises ``LayoutError`` if
    ``m`` is not such a bijection (checked on the table), and
    ``NotRepresentableError`` if no affine inverse is found from the structure.

    >>> from unilayout.affine import parse
    >>> print(inverse(parse("(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)"), (2, 3, 64, 128)))
    (d0, d1) -> (d0 floordiv 192, (d0 floordiv 64) mod 3, d0 mod 64, d1)
    """
    if m.num_symbols:
        raise LayoutError(f"inverse: {m} has symbols; substitute values first (m.replace(symbols=[...]))")
    shp = m._box(shape, "inverse")
    if any(n == 0 for n in shp):
        raise LayoutError(f"inverse: the box {shp} is empty")
    simple = m.simplify(shp)
    inv = _structural_inverse(simple, shp)
    if inv is None:
        inv = _table_inverse(m, shp)  # raises LayoutError when m is not a bijection onto a box
    if inv is None:
        raise NotRepresentableError(
            f"inverse: {m} is a bijection on {shp} but no affine inverse of mixed-radix digits fits it; "
            "use inverse_table(shape)"
        )
    return inv


def inverse_table(m, shape):
    """Row r: the box point that ``m`` maps to the r-th point (row-major) of its image box.

    >>> from unilayout.affine import parse
    >>> inverse_table(parse("(d0) -> (d0 * -1 + 3)"), (4,)).tolist()
    [[3], [2], [1], [0]]
    """
    shp = m._box(shape, "inverse_table")
    if m.num_symbols:
        raise LayoutError(f"inverse_table: {m} has symbols; substitute values first")
    table = m.index_map(shp)
    n = table.shape[0]
    if n == 0:
        raise LayoutError(f"inverse_table: the box {shp} is empty")
    lo = table.min(axis=0)
    hi = table.max(axis=0)
    ext = [int(h - l + 1) for l, h in zip(lo, hi)]
    total = 1
    for x in ext:
        total *= x
    if total != n:
        raise LayoutError(
            f"{m} is not a bijection from {shp} onto a box: {n} points but the bounding box has {total}"
        )
    flat = np.ravel_multi_index(tuple((table - lo).T), ext) if ext else np.zeros(n, dtype=np.int64)
    out = np.full((n, m.num_dims), -1, dtype=np.int64)
    seen = np.zeros(n, dtype=bool)
    seen[flat] = True
    if not seen.all():
        raise LayoutError(f"{m} is not injective on the box {shp}")
    coords = np.stack(np.unravel_index(np.arange(n), shp), axis=1) if shp else np.zeros((n, 0), dtype=np.int64)
    out[flat] = coords
    return out
