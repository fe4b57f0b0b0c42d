"""CuTe benchmark: unilayout against pycute (and tensor-layouts, if installed) in one run.

    python bench/cute.py [--quick]

1. An op mix on a fixed set of 1- to 3-level layouts: median time per call
   of each op (unilayout and its baselines timed in alternation), unilayout / baseline (target: <= 0.35x pycute on every op).
2. TiledMMA: ``make_tiled_mma`` + its A, B and C TV layouts for SM80 16x8x16 on
   2x2 warps and for SM90 64x128x16 GMMA, against tensor-layouts' ``tile_mma_grid``
   for A, B and C (target: <= 0.5x tensor-layouts).
3. ``index_map`` of 2^20- and 2^24-element layouts, against pycute evaluating
   points one by one (per point; target >= 1000x) and against ``np.arange(n)``,
   the write-bandwidth floor (target <= 3x).
4. Dynamic leaves (CuTe IR's ``?``): the op mix on the same layouts with the
   last mode's sizes and strides made dynamic (``?{div=N}``, as a CuTe DSL dump
   holds them), against the same ops on the static layouts (target <= 2x).
"""

from __future__ import annotations

import statistics
import sys
import timeit

import numpy as np

from unilayout import cute
from unilayout.cute import Layout
from unilayout.cute.dyn import Dyn

try:
    import pycute
except ImportError:  # pragma: no cover - the benchmark says so
    pycute = None
try:
    import tensor_layouts as tl
except ImportError:  # pragma: no cover
    tl = None

QUICK = "--quick" in sys.argv

# (A, B) pairs: 1- to 3-level layouts; B is a tile that composes with / divides A.
PAIRS = [
    (Layout(64, 1), Layout(8, 2)),
    (Layout((6, 8), (8, 1)), Layout((3, 4), (1, 3))),
    (Layout((8, 16), (16, 1)), Layout((4, 4), (1, 8))),
    (Layout(((2, 4), (4, 8)), ((1, 8), (2, 32))), Layout((4, 2), (1, 16))),
    (Layout(((4, 2), (8, 4)), ((16, 1), (2, 128))), Layout((8, 4), (1, 8))),
    (Layout((((2, 2), 2), (4, 8)), (((1, 32), 2), (4, 64))), Layout((2, 8), (8, 1))),
    (Layout(((16, 4), (8, (2, 2))), ((1, 512), (16, (128, 2048)))), Layout((16, 8), (1, 64))),
]
TILERS = [(2,), (3, 4), (4, 4), (2, 4), (4, 8), (4, 8), (8, 8)]


def _py(L):
    return pycute.Layout(L.shape, L.stride)


def _tl(L):
    return tl.Layout(L.shape, L.stride)


def _ops():
    """name -> (unilayout call, pycute call or None, tensor-layouts call or None) per case."""
    ops = {}

    def add(name, ours, py=None, tlf=None):
        ops.setdefault(name, []).append((ours, py, tlf))

    for (A, B), tiler in zip(PAIRS, TILERS):
        cot = A.cosize * 2
        pa, pb = (_py(A), _py(B)) if pycute else (None, None)
        ta, tb = (_tl(A), _tl(B)) if tl else (None, None)
        ptiler = tuple(pycute.Layout(t, 1) for t in tiler) if pycute else None
        ttiler = tuple(tl.Layout(t, 1) for t in tiler) if tl else None
        utiler = tuple(Layout(t, 1) for t in tiler)
        utiler = utiler if len(utiler) <= A.rank else utiler[: A.rank]
        add("coalesce", lambda A=A: cute.coalesce(A),
            pycute and (lambda pa=pa: pycute.coalesce(pa)), tl and (lambda ta=ta: tl.coalesce(ta)))
        add("composition", lambda A=A, B=B: cute.composition(A, B),
            pycute and (lambda pa=pa, pb=pb: pycute.composition(pa, pb)),
            tl and (lambda ta=ta, tb=tb: tl.compose(ta, tb)))
        add("complement", lambda B=B, c=cot: cute.complement(B, c),
            pycute and (lambda pb=pb, c=cot: pycute.complement(pb, c)),
            tl and (lambda tb=tb, c=cot: tl.complement(tb, c)))
        add("logical_divide", lambda A=A, B=B: cute.logical_divide(A, B),
            pycute and (lambda pa=pa, pb=pb: pycute.logical_divide(pa, pb)),
            tl and (lambda ta=ta, tb=tb: tl.logical_divide(ta, tb)))
        if len(tiler) <= A.rank:
            add("zipped_divide", lambda A=A, t=utiler: cute.zipped_divide(A, t),
                pycute and (lambda pa=pa, t=ptiler: pycute.zipped_divide(pa, t)),
                tl and (lambda ta=ta, t=ttiler: tl.zipped_divide(ta, t)))
        add("logical_product", lambda A=A, B=B: cute.logical_product(B, A),
            pycute and (lambda pa=pa, pb=pb: pycute.logical_product(pb, pa)),
            tl and (lambda ta=ta, tb=tb: tl.logical_product(tb, ta)))
        add("blocked_product", lambda A=A, B=B: cute.blocked_product(B, A),
            None, tl and (lambda ta=ta, tb=tb: tl.blocked_product(tb, ta)))
        add("right_inverse", lambda A=A: cute.right_inverse(A),
            pycute and (lambda pa=pa: pycute.right_inverse(pa)), tl and (lambda ta=ta: tl.right_inverse(ta)))
    return ops


def _per_call(fn, number):
    return min(timeit.repeat(fn, number=number, repeat=5)) / number


def _paired(fns, number, repeat=7):
    """Per-call times of several functions timed in alternation (min of ``repeat`` rounds each), so that a
    machine whose load changes during the run slows them alike and their ratios stay fair."""
    best = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            best[i] = min(best[i], timeit.timeit(fn, number=number) / number)
    return best


def bench_ops():
    number = 200 if QUICK else 2000
    print("op mix: median time per call over", len(PAIRS), "layout pairs (1- to 3-level)")
    print(f"  {'op':<16}{'unilayout':>12}{'pycute':>12}{'ratio':>8}{'tensor-layouts':>16}{'ratio':>8}")
    worst = 0.0
    for name, cases in _ops().items():
        timed = [_paired([f for f in case if f], number) for case in cases]  # unilayout, pycute, tensor-layouts
        ours = statistics.median(t[0] for t in timed)
        py = [t[1] for t, case in zip(timed, cases) if case[1]]
        tlc = [t[-1] for t, case in zip(timed, cases) if case[2]]
        py_t = statistics.median(py) if py else None
        tl_t = statistics.median(tlc) if tlc else None
        cells = [f"{ours * 1e6:10.2f}us"]
        cells.append(f"{py_t * 1e6:10.2f}us{ours / py_t:7.2f}x" if py_t else f"{'n/a':>12}{'':>8}")
        cells.append(f"{tl_t * 1e6:14.2f}us{ours / tl_t:7.2f}x" if tl_t else f"{'n/a':>16}{'':>8}")
        if py_t:
            worst = max(worst, ours / py_t)
        print(f"  {name:<16}" + "".join(cells))
    print(f"  worst ratio against pycute: {worst:.2f}x (target <= 0.35x)")


def bench_tiled_mma():
    print("\nTiledMMA: make_tiled_mma + get_layoutA/B/C_TV (unilayout) vs tile_mma_grid A, B, C (tensor-layouts)")
    cases = [("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1)), ("SM90_64x128x16_F32F16F16_SS", (1, 1, 1))]
    number = 20 if QUICK else 100
    for name, lay in cases:
        def ours(name=name, lay=lay):
            mma = cute.make_tiled_mma(name, lay)
            return mma.get_layoutA_TV(), mma.get_layoutB_TV(), mma.get_layoutC_TV()

        ours()
        t_ours = _per_call(ours, number)
        cells = f"{t_ours * 1e6:10.1f}us"
        if tl:
            from tensor_layouts import atoms_nv
            from tensor_layouts.layout_utils import tile_mma_grid

            atom = getattr(atoms_nv, name)
            al = tl.Layout(lay[:2], (1, lay[0]))

            def theirs(atom=atom, al=al):
                return [tile_mma_grid(atom, al, m) for m in "ABC"]

            t_tl = _per_call(theirs, max(1, number // 10))
            cells += f"{t_tl * 1e6:12.1f}us{t_ours / t_tl:8.3f}x"
        else:
            cells += f"{'n/a':>14}"
        print(f"  {name + ' ' + str(lay):<46}{cells}")
    print("  target: <= 0.5x tensor-layouts")


def bench_index_map():
    layouts = [
        Layout(((32, 32), (32, 32)), ((1, 1024), (32, 32768))),
        Layout(((64, 64), (64, 64)), ((1, 4096), (64, 262144))),
    ]
    print("\nindex_map: every point of a layout")
    print(f"  {'layout':<40}{'unilayout':>12}{'np.arange':>12}{'ratio':>8}{'pycute/pt':>12}{'speedup/pt':>12}")
    for L in layouts:
        n = L.size
        reps = 3 if QUICK else 7
        ours = min(timeit.repeat(lambda: cute.index_map(L), number=1, repeat=reps))
        floor = min(timeit.repeat(lambda: np.arange(n, dtype=np.int64), number=1, repeat=reps))
        assert cute.index_map(L)[n - 1] == L(n - 1)
        if pycute:
            P = _py(L)
            k = 2000 if QUICK else 20000
            step = n // k
            py_pt = min(timeit.repeat(lambda: [P(i) for i in range(0, n, step)], number=1, repeat=3)) / k
            py_cells = f"{py_pt * 1e6:10.2f}us{py_pt / (ours / n):11.0f}x"
        else:
            py_cells = f"{'n/a':>12}{'':>12}"
        print(f"  {str(L) + f' (2^{n.bit_length() - 1})':<40}{ours * 1e3:10.2f}ms{floor * 1e3:10.2f}ms"
              f"{ours / floor:7.2f}x{py_cells}")
    print("  targets: <= 3x np.arange; >= 1000x pycute per point")


def _dynamic(L):
    """L with the leaves of its last top-level mode made dynamic, each keeping the divisibility its value has."""
    def dyn(v):
        return Dyn(div=v & -v) if v > 0 else v

    def walk(t):
        return tuple(walk(x) for x in t) if isinstance(t, tuple) else dyn(t)

    if not isinstance(L.shape, tuple):
        return Layout(dyn(L.shape), dyn(L.stride))
    return Layout(L.shape[:-1] + (walk(L.shape[-1]),), L.stride[:-1] + (walk(L.stride[-1]),))


def bench_dynamic():
    number = 100 if QUICK else 1000
    print("\ndynamic leaves: the op mix on layouts whose last mode is dynamic (?{div=N}) vs the same ops static")
    print(f"  {'op':<16}{'dynamic':>12}{'static':>12}{'ratio':>8}")
    ops = {
        "coalesce": lambda A, B: cute.coalesce(A),
        "composition": lambda A, B: cute.composition(A, B),
        "complement": lambda A, B: cute.complement(B, A.size),
        "logical_divide": lambda A, B: cute.logical_divide(A, B),
        "zipped_divide": lambda A, B: cute.zipped_divide(A, B),
        "logical_product": lambda A, B: cute.logical_product(B, A),
        "right_inverse": lambda A, B: cute.right_inverse(A),
        "size/cosize": lambda A, B: (A.size, A.cosize),
    }
    worst = 0.0
    for name, op in ops.items():
        ratios, dyn_t, st_t = [], [], []
        for A, B in PAIRS:
            D = _dynamic(A)
            if name == "right_inverse":  # cute-opt refuses a dynamic shape here (the strides alone are dynamic)
                D = Layout(A.shape, D.stride)
            A = Layout(A.shape, A.stride)  # fresh layouts: neither has its flat form cached before the first call
            t_dyn, t_st = _paired([lambda op=op, D=D, B=B: op(D, B), lambda op=op, A=A, B=B: op(A, B)], number)
            dyn_t.append(t_dyn)
            st_t.append(t_st)
            ratios.append(t_dyn / t_st)
        r = statistics.median(ratios)
        worst = max(worst, r)
        print(f"  {name:<16}{statistics.median(dyn_t) * 1e6:10.2f}us{statistics.median(st_t) * 1e6:10.2f}us{r:7.2f}x")
    print(f"  worst median ratio dynamic / static: {worst:.2f}x (target <= 2x)")


if __name__ == "__main__":
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, "
          f"pycute {'yes' if pycute else 'not installed'}, tensor-layouts {getattr(tl, '__version__', 'yes') if tl else 'not installed'}")
    bench_ops()
    bench_tiled_mma()
    bench_index_map()
    bench_dynamic()
