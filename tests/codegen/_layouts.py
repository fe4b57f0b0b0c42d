"""Seeded random values of every family for the codegen tests, and the table each must reproduce.

``random_values(family, n, seed)`` -> n values; ``expected(value)`` -> (kernel, table): the kernel's input
grid in its row order and ``index_map``'s rows (for a metal layout: its exact affine form's, logical index ->
core coordinates and shard offset).
"""

import random

import numpy as np

from unilayout import _families, affine, cute, linear, tt
from unilayout.codegen import kernel
from unilayout.convert import convert_to
from xla_strategies import random_layout as random_xla

FAMILIES = ("cute", "linear", "affine", "tsl", "xla", "metal", "tilelang")


def _shape(rng, depth=0):
    if depth < 2 and rng.random() < 0.35:
        return tuple(_shape(rng, depth + 1) for _ in range(rng.randint(1, 3)))
    return rng.choice([1, 2, 2, 3, 4, 4, 5, 8])


def _size(s):
    return int(np.prod([_size(x) for x in s])) if isinstance(s, tuple) else s


def _stride(rng, s, basis):
    if isinstance(s, tuple):
        return tuple(_stride(rng, x, basis) for x in s)
    if basis:
        return cute.ScaledBasis(rng.randint(1, 4), rng.randint(0, 2))
    return rng.choice([0, 1, 2, 3, 4, 8, 16, 24, rng.randint(0, 40)])


def random_cute(rng):
    while True:
        shape = _shape(rng)
        if _size(shape) <= 512:
            break
    kind = rng.random()
    L = cute.Layout(shape, _stride(rng, shape, basis=kind < 0.1))
    if kind < 0.1:
        return L
    if kind < 0.45:
        b = rng.randint(1, 3)
        m = rng.randint(0, 3)
        s = rng.choice([1, -1]) * rng.randint(b, b + 3)
        return cute.ComposedLayout(cute.Swizzle(b, m, s), rng.choice([0, 0, 4, 16]), L)
    if kind < 0.55:  # A o off o B with an integer layout A
        outer = rng.choice([cute.Layout((4, 64), (64, 1)), cute.Layout(((2, 4), 8), ((1, 16), 2))])
        return cute.ComposedLayout(outer, rng.choice([0, 1]), L)
    return L


def random_linear(rng):
    names = ["register", "lane", "warp", "block"][: rng.randint(1, 4)]
    outs = rng.choice([["offset"], ["dim0", "dim1"]])
    sizes = {o: 1 << rng.randint(0, 6 // len(outs)) for o in outs}
    bases = {}
    for n in names:
        kind = rng.random()
        k = rng.randint(0, 3)
        if kind < 0.5:  # a permutation-like (blocked) in-dim: single output bits
            bases[n] = [[(1 << rng.randrange(sizes[o].bit_length() - 1)) if sizes[o] > 1 and o == outs[j % len(outs)]
                         else 0 for o in outs] for j in range(k)]
        else:
            bases[n] = [[rng.randrange(sizes[o]) for o in outs] for _ in range(k)]
    return linear.LinearLayout(bases, sizes, require_surjective=False)


def _affine_expr(rng, dims, depth=0):
    r = rng.random()
    if depth > 2 or r < 0.3:
        return rng.choice(dims) if rng.random() < 0.8 else affine.constant(rng.randint(-5, 9))
    a = _affine_expr(rng, dims, depth + 1)
    if r < 0.55:
        return a + _affine_expr(rng, dims, depth + 1)
    if r < 0.7:
        return a * rng.choice([-3, -1, 2, 3, 4, 8])
    k = rng.choice([2, 3, 4, 5, 8, 16])
    return {0: a.floordiv(k), 1: a.ceildiv(k), 2: a % k}[rng.randrange(3)]


def random_affine(rng):
    n = rng.randint(1, 3)
    dims = [affine.dim(k) for k in range(n)]
    results = [_affine_expr(rng, dims) for _ in range(rng.randint(1, 2))]
    shape = tuple(rng.randint(1, 9) for _ in range(n))
    return affine.AffineMap(n, 0, results), shape


def random_tsl(rng):
    import unilayout

    r = rng.randint(1, 2)
    dims = []
    for _ in range(r):
        k = rng.randint(1, 2)
        bounds = [rng.choice([1, 2, 3, 4]) for _ in range(k)]
        steps = [rng.choice([0, 1, 2, 4, 8, 16, 32]) for _ in range(k)]
        dims.append(f"[{', '.join(map(str, bounds))}] -> ({', '.join(map(str, steps))})")
    off = rng.choice(["", ", offset: 3"])
    return unilayout.parse(f"#tsl.tsl<{', '.join(dims)}{off}>")


def random_metal(rng):
    r = rng.randint(1, 3)
    shape = tuple(rng.randint(1, 40) for _ in range(r))
    grid = tuple(rng.randint(1, 4) for _ in range(2 if r >= 2 else 1))
    ml = tt.MetalLayout.from_collapse(shape, grid) if r >= 2 else tt.MetalLayout.from_collapse(shape, grid, ())
    return ml


def _tl_expr(rng, names, depth=0):
    r = rng.random()
    if depth > 2 or r < 0.3:
        return rng.choice(names) if rng.random() < 0.85 else str(rng.randint(0, 9))
    a, b = _tl_expr(rng, names, depth + 1), _tl_expr(rng, names, depth + 1)
    return rng.choice([f"({a} + {b})", f"({a}) * {rng.choice([2, 3, 4, -1])}", f"({a}) // {rng.choice([2, 3, 4, 8])}",
                       f"({a}) % {rng.choice([2, 3, 4, 8])}", f"({a} - {b})",
                       f"T.bitwise_xor({a} % 8, {b} % 8)"])


def random_tilelang(rng):
    from unilayout.tilelang import Fragment, Layout
    from unilayout.tilelang import expr as E

    shape = tuple(rng.choice([2, 3, 4, 8]) for _ in range(rng.randint(1, 2)))
    names = ["_i", "_j"][: len(shape)]
    if rng.random() < 0.5:
        return Layout(shape, [E.parse(_tl_expr(rng, names)) for _ in range(rng.randint(1, 2))])
    rep = rng.choice([1, 1, 2])
    thread = E.parse(_tl_expr(rng, names) + (" + _rep * 16" if rep > 1 else ""))
    return Fragment(shape, thread, [E.parse(_tl_expr(rng, names))], rep)


def random_values(family, n, seed):
    rng = random.Random(seed)
    make = {"cute": random_cute, "linear": random_linear, "affine": random_affine, "tsl": random_tsl,
            "xla": lambda r: random_xla(r), "metal": random_metal, "tilelang": random_tilelang}[family]
    return [make(rng) for _ in range(n)]


def grid(k):
    """The kernel's inputs over their extents, in ``index_map``'s row order, as int64 columns."""
    ext = [e for _, e in k.inputs]
    order = "F" if k.order == "F" else "C"
    idx = np.indices(ext, dtype=np.int64)
    return [a.reshape(-1, order=order) for a in idx]


def expected(value):
    """``(kernel, table)``: the table is ``index_map``'s rows, one column per output."""
    shape = None
    if isinstance(value, tuple):
        value, shape = value
    k = kernel(value, "f", shape)
    fam = _families.family_of(value)
    if fam == "metal":
        table = _families.index_map(convert_to(value, "affine"), value.logical_shape)
    elif fam == "tilelang":
        table = _tilelang_table(value)
    elif fam == "cute" and isinstance(value, cute.Layout) and k.outputs[0].startswith("c") and k.outputs != ("offset",):
        table = _basis_table(value, k)
    else:
        table = _families.index_map(value, shape)
    table = np.asarray(table, dtype=np.int64).reshape(len(grid(k)[0]) if k.inputs else 1, -1)
    return k, table


def _basis_table(L, k):
    n = cute.size(L)
    rows = []
    for i in range(n):
        c = L(i)
        c = c if isinstance(c, tuple) else (c,)
        rows.append([int(c[j]) if j < len(c) else 0 for j in range(len(k.outputs))])
    return np.array(rows, dtype=np.int64)


def _tilelang_table(x):
    """TileLang's own maps, evaluated by the family: output coordinates, or (thread, index) per (point, replica)."""
    from unilayout.tilelang import Fragment

    if not isinstance(x, Fragment):
        return x.index_map()
    t = x.thread_map()  # (N, rep)
    idx = x.index_columns()
    rows = [np.concatenate([t[:, [r]], idx], axis=1) for r in range(x.replicate)]
    return np.stack(rows, axis=1).reshape(-1, 1 + idx.shape[1])
