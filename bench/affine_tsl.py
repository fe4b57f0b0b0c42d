"""Benchmark: affine-map evaluation and text round trips, TSL index maps.

Run: ``python bench/affine_tsl.py`` (``--quick`` for a smaller run). Prints,
in one run:

1. a 3-result map with floordiv/mod evaluated at 10^7 points: unilayout's
   compiled numpy evaluation against the equivalent hand-written numpy
   expression (the floor; target: within 1.5x) and against a Python loop over
   the same tree (timed on a sample, scaled to 10^7); then a second map on
   which none of the evaluator's shortcuts (shifts, masks, divmod) apply;
2. parse + print of 10^4 distinct maps: time per map;
3. a 4096x4096 TSL index map against hand-written numpy.

Times are the best of several repetitions (wall clock, one thread).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import numpy as np

from unilayout import affine, tsl

MAP = "(d0, d1) -> (d0 floordiv 32, (d0 mod 32) * 12 + d1 floordiv 12, d1 mod 12)"
# A second map where no shift/mask/divmod shortcut applies (the general overhead).
MAP_PLAIN = "(d0, d1) -> (d0 floordiv 6, d1 mod 10 + d0 * 3, (d0 + d1) ceildiv 7)"


def hand_written(d0, d1):
    return d0 // 32, (d0 % 32) * 12 + d1 // 12, d1 % 12


def hand_written_plain(d0, d1):
    return d0 // 6, d1 % 10 + d0 * 3, -((-(d0 + d1)) // 7)


def best(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def _grid(points):
    rows = 10_000
    cols = points // rows
    return np.repeat(np.arange(rows, dtype=np.int64), cols), np.tile(np.arange(cols, dtype=np.int64), rows)


def _timed(text, hand, d0, d1, repeat):
    m = affine.parse(text)
    got = m.evaluate(d0, d1)
    want = hand(d0, d1)
    assert all((g == w).all() for g, w in zip(got, want)), "unilayout and numpy disagree"
    return m, best(lambda: m.evaluate(d0, d1), repeat), best(lambda: hand(d0, d1), repeat)


def bench_evaluate(points, repeat, sample):
    d0, d1 = _grid(points)
    m, t_uni, t_np = _timed(MAP, hand_written, d0, d1, repeat)
    pts = list(zip(d0[:sample].tolist(), d1[:sample].tolist()))
    results = m.results
    t0 = time.perf_counter()
    for p in pts:
        tuple(r.value_at(p) for r in results)
    t_tree = (time.perf_counter() - t0) * (d0.size / sample)
    t0 = time.perf_counter()
    for p in pts:
        m(*p)
    t_scalar = (time.perf_counter() - t0) * (d0.size / sample)
    n = d0.size
    print(f"affine evaluate, {MAP}")
    print(f"  points                                  {n:,}")
    print(f"  hand-written numpy (floor)              {t_np * 1e3:9.1f} ms")
    print(f"  unilayout m.evaluate (compiled numpy)   {t_uni * 1e3:9.1f} ms   {t_uni / t_np:5.2f}x the floor (target <= 1.5x)")
    print(f"  Python loop, tree walk (scaled)         {t_tree * 1e3:9.1f} ms   {t_tree / t_uni:7.0f}x unilayout")
    print(f"  Python loop, compiled m(*p) (scaled)    {t_scalar * 1e3:9.1f} ms   {t_scalar / t_uni:7.0f}x unilayout")
    _, p_uni, p_np = _timed(MAP_PLAIN, hand_written_plain, d0, d1, repeat)
    print(f"affine evaluate, {MAP_PLAIN} (no shortcut applies)")
    print(f"  hand-written numpy (floor)              {p_np * 1e3:9.1f} ms")
    print(f"  unilayout m.evaluate (compiled numpy)   {p_uni * 1e3:9.1f} ms   {p_uni / p_np:5.2f}x the floor (target <= 1.5x)")
    return max(t_uni / t_np, p_uni / p_np)


def bench_text(count):
    rng = random.Random(0)
    texts = []
    for _ in range(count):
        a, b, c = rng.randint(2, 64), rng.randint(2, 64), rng.randint(1, 9)
        texts.append(
            f"(d0, d1, d2)[s0] -> (d0 * {a * b} + (d1 floordiv {a}) * {b} + d2 mod {b}, "
            f"d1 mod {a} + s0 * {c}, (d2 + {c}) ceildiv {a})"
        )
    t0 = time.perf_counter()
    out = [str(affine.parse(t)) for t in texts]
    dt = time.perf_counter() - t0
    assert all(str(affine.parse(o)) == o for o in out[:100])
    print(f"affine parse + print, {count:,} maps")
    print(f"  per map                                 {dt / count * 1e6:9.1f} us   ({dt * 1e3:.0f} ms in all)")


def bench_tsl(repeat):
    t = tsl.parse("#tsl.tsl<[128, 32] -> (4096, 32), [128, 32] -> (131072, 1)>")
    i = np.arange(4096, dtype=np.int64)

    def hand():
        a = (i // 32) * 4096 + (i % 32) * 32
        b = (i // 32) * 131072 + i % 32
        return (a[:, None] + b[None, :]).reshape(-1)

    assert (t.index_map() == hand()).all()
    t_uni = best(t.index_map, repeat)
    t_np = best(hand, repeat)
    print(f"tsl index_map, {t} ({t.size:,} points)")
    print(f"  hand-written numpy                      {t_np * 1e3:9.1f} ms")
    print(f"  unilayout t.index_map()                 {t_uni * 1e3:9.1f} ms   {t_uni / t_np:5.2f}x")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="10^6 points and 10^3 maps")
    args = ap.parse_args(argv)
    points, maps, repeat = (10**6, 10**3, 3) if args.quick else (10**7, 10**4, 7)
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}")
    ratio = bench_evaluate(points, repeat, sample=20_000)
    bench_text(maps)
    bench_tsl(repeat)
    return 0 if ratio <= 1.5 else 1


if __name__ == "__main__":
    sys.exit(main())
