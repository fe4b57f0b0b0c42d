"""Benchmark: shard / unshard of a metal layout against ``np.copyto`` of the same bytes.

Run: ``python bench/tt.py`` (``--quick`` for 4096x4096). Prints, in one run:

1. ``np.copyto`` of the 8192x8192 float32 tensor into a preallocated array
   (the floor: one read and one write of every byte);
2. for the layout ``(d0, d1) -> (d0, d1)`` on an 8x8 grid, scalar (shards
   1024x1024) and tiled 32x32 (shards 1024x1024 padded to whole 32x32 tiles):
   ``shard(a, out=buf)`` and ``unshard(buf, out=back)`` into preallocated
   arrays, with their bandwidth relative to ``np.copyto`` (target: >= 0.5x),
   and ``shard(a)`` allocating its output (compared with ``a.copy()``, which
   pays the same first-touch page faults);
3. one padded layout (8191x8190 on 7x9, tiled) for comparison.

Bandwidth ratio = copyto time / unilayout time (same bytes moved). Times are
the best of several repetitions (wall clock, one thread).
"""

from __future__ import annotations

import argparse
import platform
import time

import numpy as np

from unilayout.tt import MetalLayout


def best(fn, reps):
    t = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        t = min(t, time.perf_counter() - t0)
    return t


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="4096x4096 instead of 8192x8192")
    ap.add_argument("--reps", type=int, default=7)
    args = ap.parse_args(argv)
    n = 4096 if args.quick else 8192
    reps = args.reps
    rng = np.random.default_rng(0)
    a = rng.random((n, n), dtype=np.float32)
    dst = np.empty_like(a)
    np.copyto(dst, a)
    mib = a.nbytes / 2**20
    print(f"tt shard/unshard, {n}x{n} float32 ({mib:.0f} MiB), grid 8x8; Python {platform.python_version()}, "
          f"numpy {np.__version__}; best of {reps}")
    t_copy = best(lambda: np.copyto(dst, a), reps)
    print(f"  {'np.copyto (floor)':<44}{t_copy * 1e3:9.1f} ms  {a.nbytes / t_copy / 1e9:6.1f} GB/s")
    t_fresh = best(lambda: a.copy(), max(3, reps // 2))
    print(f"  {'a.copy() (floor when allocating)':<44}{t_fresh * 1e3:9.1f} ms  {a.nbytes / t_fresh / 1e9:6.1f} GB/s")
    ok = True
    cases = [("scalar", MetalLayout.from_collapse((n, n), (8, 8))),
             ("tiled 32x32", MetalLayout.from_collapse((n, n), (8, 8), tile=(32, 32)))]
    for name, ml in cases:
        buf = ml.shard(a)
        back = np.empty_like(a)
        t_sh = best(lambda: ml.shard(a, out=buf), reps)
        t_un = best(lambda: ml.unshard(buf, out=back), reps)
        t_alloc = best(lambda: ml.shard(a), max(3, reps // 2))
        assert np.array_equal(back, a)
        for label, t in ((f"{name}: shard(a, out=buf)", t_sh), (f"{name}: unshard(buf, out=back)", t_un)):
            ratio = t_copy / t
            target = "   ok (target >= 0.5x)" if ratio >= 0.5 else "   BELOW 0.5x target"
            ok &= ratio >= 0.5
            print(f"  {label:<44}{t * 1e3:9.1f} ms  {ratio:6.2f}x copyto{target}")
        print(f"  {name + ': shard(a) (allocates)':<44}{t_alloc * 1e3:9.1f} ms  {t_copy / t_alloc:6.2f}x copyto, "
              f"{t_fresh / t_alloc:.2f}x a.copy()")
    m = n - 1
    ml = MetalLayout.from_collapse((m, m - 1), (7, 9), tile=(32, 32))
    b = rng.random((m, m - 1), dtype=np.float32)
    buf = ml.shard(b)
    back = np.empty_like(b)
    t_sh = best(lambda: ml.shard(b, out=buf), reps)
    t_un = best(lambda: ml.unshard(buf, out=back), reps)
    assert np.array_equal(back, b)
    print(f"  padded {m}x{m - 1} on 7x9, tiled 32x32 (memref {'x'.join(map(str, ml.memref_shape))} tiles, "
          f"{buf.nbytes / b.nbytes:.3f}x the bytes):")
    print(f"  {'  shard(b, out=buf)':<44}{t_sh * 1e3:9.1f} ms  {t_copy * (b.nbytes / a.nbytes) / t_sh:6.2f}x copyto")
    print(f"  {'  unshard(buf, out=back)':<44}{t_un * 1e3:9.1f} ms  {t_copy * (b.nbytes / a.nbytes) / t_un:6.2f}x copyto")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
