"""Benchmark: the planner — reshard pricing against np.copyto and a per-element count, grids on seed tensors.

Run: ``python bench/plan.py`` (``--quick`` for 4096x4096). Prints, in one run:

1. ``np.copyto`` of the 8192x8192 float32 tensor into a preallocated array
   (one read and one write of every byte: the time a reshard's data
   movement could not beat on this machine);
2. ``plan.reshard_cost`` between pairs of 8x8 layouts of that tensor
   (blocks -> transposed blocks, found as the transposed reinterpretation;
   the same without reinterpretations; scalar -> 32x32 tiles; blocks -> a
   4x16 virtual grid), each with its time, its ratio to ``np.copyto``
   (target: within 5x, and under 0.3 s) and to the *baseline*: the same
   local/moved split by a straightforward vectorised per-element pass
   (every element's source and destination core, 512 rows at a time); the
   two results are checked equal;
3. ``plan.grids`` for the seed's tensors on an 8x8 chip (and the batch over
   two chips): candidates and time (target: < 100 ms each);
4. ``plan.chain`` over three ops with three candidate 1024x1024 layouts each.

Times are the best of several repetitions (wall clock, one thread).
"""

from __future__ import annotations

import argparse
import platform

import numpy as np

from _timing import best  # bench/ is on sys.path
from unilayout import plan, tt


def baseline(src, dst, src_dev, dst_dev, eb, rows=512):
    """Per-element pricing without the component trick: every element's source and destination core, in row chunks."""
    tail = [np.arange(s, dtype=np.int64).reshape((-1,) + (1,) * (src.rank - 2 - i))
            for i, s in enumerate(src.logical_shape[1:])]

    def codes(ml, dev):
        phys = dev.physical_cores()[tuple(slice(0, g) for g in ml.grid)].reshape(-1, 3)
        return (phys[:, 0] * 64 + phys[:, 1]) * 64 + phys[:, 2]

    cs, cd = codes(src, src_dev), codes(dst, dst_dev)

    def core(ml, code, idx):
        vals = ml.linear.evaluate(*idx)
        flat = 0
        for v, s, g in zip(vals, ml.shard_shape, ml.grid):
            flat = flat * g + v // s
        return code[np.broadcast_to(flat, np.broadcast_shapes(*(np.shape(i) for i in idx)))]

    local = 0
    for r0 in range(0, src.logical_shape[0], rows):
        idx = [np.arange(r0, min(r0 + rows, src.logical_shape[0]), dtype=np.int64).reshape((-1,) + (1,) * (src.rank - 1))]
        idx += tail
        local += int(np.count_nonzero(core(src, cs, idx) == core(dst, cd, idx)))
    return local * eb, (src.volume - local) * eb


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="4096x4096 instead of 8192x8192")
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args(argv)
    n = 4096 if args.quick else 8192
    reps = args.reps
    a = np.random.default_rng(0).random((n, n), dtype=np.float32)
    out = np.empty_like(a)
    np.copyto(out, a)
    print(f"plan, {n}x{n} float32 ({a.nbytes / 2**20:.0f} MiB) on one 8x8 chip; Python {platform.python_version()}, "
          f"numpy {np.__version__}; best of {reps}")
    t_copy, _ = best(lambda: np.copyto(out, a), reps)
    print(f"  np.copyto                                   {t_copy * 1e3:8.1f} ms")
    dev = tt.Device((8, 8), "(d0, d1) -> (0, d0, d1)")
    blocks = tt.MetalLayout.from_collapse((n, n), (8, 8))
    transposed = tt.MetalLayout((n, n), "(d0, d1) -> (d1, d0)", (8, 8))
    tiles = tt.MetalLayout.from_collapse((n, n), (8, 8), tile=(32, 32))
    wide = plan.grids((n, n), dev)
    virt = [c for c in wide if c.grid == (4, 16)][0]
    cases = [
        ("blocks -> transposed (reinterpretation)", blocks, transposed, {}, dev),
        ("blocks -> transposed (no reinterpretation)", blocks, transposed, {"reinterpret": False}, dev),
        ("scalar -> 32x32 tiles", blocks, tiles, {}, dev),
        ("blocks -> 4x16 virtual grid", blocks, virt.layout, {"dst_device": virt.device}, virt.device),
    ]
    print(f"  {'reshard_cost':44}{'time':>9}  {'x copyto':>8}  {'baseline':>9}  {'speed-up':>8}  result")
    for name, s, d, kw, _ddev in cases:
        plan.reshard_cost(s, d, dev, **kw)  # compile the maps once
        t, c = best(lambda: plan.reshard_cost(s, d, dev, **kw), reps)
        used = c.dst_device
        tb, ref = best(lambda: baseline(s, d, dev, used, 4), 1)
        assert ref == (c.local_bytes, c.moved_bytes), (ref, c)
        ok = "ok" if t < 0.3 and t <= 5 * t_copy else "SLOW"
        r = f"moved {c.moved_bytes / 2**20:.0f} MiB" + (f", {c.reinterpretation}" if c.reinterpretation else "")
        print(f"  {name:44}{t * 1e3:7.1f} ms  {t / t_copy:7.2f}x  {tb * 1e3:7.0f} ms  {tb / t:7.1f}x  {r} [{ok}]")
    print(f"  {'grids on 8x8 (seed tensors)':44}{'time':>9}  candidates  best")
    seeds = [((53, 63), {}), ((2, 3, 64, 128), {}), ((8, 300), {}), ((8, 96, 32), {}), ((3, 64, 128), {"tile": (32, 32)}),
             ((2, 8, 32), {}), ((5, 3, 2, 2, 7, 32, 32), {}), ((5, 3, 2, 2, 7, 32, 32), {"collapse": [(0, 3), (-3, -1)]}),
             ((256, 1024), {"tile": (32, 32)})]
    for shape, kw in seeds:
        t, g = best(lambda: plan.grids(shape, dev, **kw), reps)
        ok = "ok" if t < 0.1 else "SLOW"
        label = "x".join(map(str, shape)) + ("" if not kw else " " + ",".join(f"{k}" for k in kw))
        print(f"  {label:44}{t * 1e3:7.1f} ms  {len(g):10}  {'x'.join(map(str, g[0].grid))} [{ok}]")
    two = tt.Device.from_mesh(tt.SystemDesc.wormhole_b0(2), (2, 1, 1))
    t, g = best(lambda: plan.grids((16, 3, 64, 128), two), reps)
    print(f"  {'16x3x64x128 on 2x8x8 (batch over chips)':44}{t * 1e3:7.1f} ms  {len(g):10}  "
          f"{'x'.join(map(str, g[0].grid))} [{'ok' if t < 0.1 else 'SLOW'}]")
    m = 1024
    c1 = [tt.MetalLayout.from_collapse((m, m), (8, 8)), tt.MetalLayout.from_collapse((m, m), (4, 8)),
          tt.MetalLayout((m, m), "(d0, d1) -> (d1, d0)", (8, 8))]
    t, p = best(lambda: plan.chain([c1, c1, c1], dev), reps)
    label = f"chain, 3 ops x 3 candidates, {m}x{m}"
    print(f"  {label:44}{t * 1e3:7.1f} ms  total {p.total_bytes} bytes, "
          f"views {[str(v) for v in p.views]}")


if __name__ == "__main__":
    main()
