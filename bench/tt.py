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
3. padded layouts (8191x8190 and 8192x8192 on 7x9, tiled 32x32: the last core
   row and column partial, tile padding in every core): shard/unshard against
   ``np.copyto`` of the same logical tensor timed in this run (target: >= 0.5x);
4. the v2 ``#ttcore.metal_layout`` (``MetalLayoutV2``): the same tensor on 8x8
   in 32x32 tiles, and 8191x8190 with tt-mlir's grid-aware alignments
   (padded to 8192x8192 by alignment), shard/unshard against ``np.copyto``
   (target: >= 0.5x, like the seed form);
5. a TTNN L1-interleaved layout of 8191x8190 on 8x8 (tile pages round robin
   over the cores): shard/unshard for information (no target: the pages are
   the one-core image, then a permutation of whole tiles);
6. ``tt.parse_module`` on a generated 2,000-line TTIR/TTNN dump (alias
   lines, v2 layouts inline and aliased, TTNN layouts, a device): target < 0.5 s.

Bandwidth ratio = copyto time / unilayout time (same bytes moved), the two
timed in the same run, repetition by repetition interleaved (so a busy machine
slows both alike). Times are the best of several repetitions (wall clock, one
thread).
"""

from __future__ import annotations

import argparse
import platform

import numpy as np

from _timing import best_time as best  # bench/ is on sys.path
from unilayout import tt
from unilayout.tt import MetalLayout, MetalLayoutV2


def _round_trip(layout, x, reps):
    """``(buf, shard s, unshard s, copyto s)``: best times of ``layout.shard(x, out=buf)``,
    ``unshard(buf, out=back)`` and ``np.copyto`` of ``x``'s bytes, the three interleaved rep by rep so that
    each ratio compares runs under the same load; ``back`` is checked to equal ``x``."""
    buf = layout.shard(x)
    back = np.empty_like(x)
    dst = np.empty_like(x)
    t_sh = t_un = t_cp = float("inf")
    for _ in range(reps):
        t_cp = min(t_cp, best(lambda: np.copyto(dst, x), 1))
        t_sh = min(t_sh, best(lambda: layout.shard(x, out=buf), 1))
        t_un = min(t_un, best(lambda: layout.unshard(buf, out=back), 1))
    assert np.array_equal(back, x)
    return buf, t_sh, t_un, t_cp


def _row(label, t, ratio, target):
    """Print one row (label, ms, ratio to np.copyto; with ``target`` the 0.5x verdict); False when below target."""
    verdict = ("   ok (target >= 0.5x)" if ratio >= 0.5 else "   BELOW 0.5x target") if target else ""
    print(f"  {label:<44}{t * 1e3:9.1f} ms  {ratio:6.2f}x copyto{verdict}")
    return ratio >= 0.5 or not target


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
             ("tiled 32x32", MetalLayout.from_collapse((n, n), (8, 8), tile=(32, 32))),
             ("v2 tiled 32x32", MetalLayoutV2((n, n), (8, 8), (32, 32), [(0, 1), (1, 2)], tile=(32, 32)))]
    for name, ml in cases:
        _, t_sh, t_un, t_cp = _round_trip(ml, a, reps)
        t_alloc = best(lambda: ml.shard(a), max(3, reps // 2))
        for label, t in ((f"{name}: shard(a, out=buf)", t_sh), (f"{name}: unshard(buf, out=back)", t_un)):
            ok &= _row(label, t, t_cp / t, True)
        print(f"  {name + ': shard(a) (allocates)':<44}{t_alloc * 1e3:9.1f} ms  {t_copy / t_alloc:6.2f}x copyto, "
              f"{t_fresh / t_alloc:.2f}x a.copy()")
    m = n - 1
    ml = MetalLayout.from_collapse((m, m - 1), (7, 9), tile=(32, 32))
    b = rng.random((m, m - 1), dtype=np.float32)
    buf, t_sh, t_un, same = _round_trip(ml, b, reps)  # same: copyto of b's own bytes, interleaved
    print(f"  {f'np.copyto of the {m}x{m - 1} tensor':<44}{same * 1e3:9.1f} ms  {b.nbytes / same / 1e9:6.1f} GB/s")
    print(f"  padded {m}x{m - 1} on 7x9, tiled 32x32 (memref {'x'.join(map(str, ml.memref_shape))} tiles, "
          f"{buf.nbytes / b.nbytes:.3f}x the bytes):")
    for label, t in (("  shard(b, out=buf)", t_sh), ("  unshard(buf, out=back)", t_un)):
        ok &= _row(label, t, same / t, True)
    pad = MetalLayout.from_collapse((n, n), (7, 9), tile=(32, 32))
    buf, t_sh, t_un, t_cp = _round_trip(pad, a, reps)
    print(f"  padded {n}x{n} on 7x9, tiled 32x32 (memref {'x'.join(map(str, pad.memref_shape))} tiles, "
          f"{buf.nbytes / a.nbytes:.3f}x the bytes):")
    for label, t in (("  shard(a, out=buf)", t_sh), ("  unshard(buf, out=back)", t_un)):
        ok &= _row(label, t, t_cp / t, True)
    v2 = tt.MetalLayout.from_v2((m, m - 1), (8, 8), tile=(32, 32))
    _, t_sh, t_un, same = _round_trip(v2, b, reps)
    print(f"  v2 {m}x{m - 1}, from_v2 on 8x8 tiled (alignments {'x'.join(map(str, v2.dim_alignments))}, device "
          f"{'x'.join(map(str, v2.device_shape))}):")
    for label, t in (("  shard(b, out=buf)", t_sh), ("  unshard(buf, out=back)", t_un)):
        ok &= _row(label, t, same / t, True)
    il = tt.TTNNTensorLayout((m, m - 1), "(d0, d1) -> (d0, d1)", (8, 8), element_type="f32", buffer_type="l1",
                             memory_layout="interleaved", tile=(32, 32))
    _, t_sh, t_un, same = _round_trip(il, b, reps)
    print(f"  TTNN L1-interleaved {m}x{m - 1} on 8x8 (pages round robin, memref "
          f"{'x'.join(map(str, il.memref_shape))} tiles; no target):")
    for label, t in (("  shard(b, out=buf)", t_sh), ("  unshard(buf, out=back)", t_un)):
        _row(label, t, same / t, False)
    dump = make_dump(2000)
    t_parse = best(lambda: tt.parse_module(dump), 5)
    found = tt.parse_module(dump)
    target = "   ok (target < 0.5 s)" if t_parse < 0.5 else "   ABOVE 0.5 s target"
    ok &= t_parse < 0.5
    print(f"  {'parse_module, 2,000-line dump':<44}{t_parse * 1e3:9.1f} ms  {len(found)} layouts "
          f"({len(set(map(id, found.values())))} distinct){target}")
    return 0 if ok else 1


def make_dump(lines):
    """A TTIR/TTNN-style module of ``lines`` lines: aliases, then ops whose tensor types carry tt layouts."""
    rng = np.random.default_rng(1)
    head = ["#dram = #ttnn.buffer_type<dram>", "#l1 = #ttnn.buffer_type<l1>",
            "#any_device = #ttcore.device<workerGrid = #ttcore.grid<8x8, (d0, d1) -> (0, d0, d1)>, l1Map = (d0, d1, "
            "d2)[s0] -> (0, d0, d1, d2 + s0), dramMap = (d0, d1, d2)[s0, s1] -> (0, 0, 0, d0 * s1 + d1 * s1 + d2 + "
            "s0), meshShape = , chipIds = [0]>"]
    tensors = []
    for i in range(40):
        shape = (int(rng.integers(1, 9)), int(rng.integers(1, 300)), int(rng.integers(1, 300)))
        ml = tt.MetalLayout.from_v2(shape, (8, 8), tile=(32, 32))
        head.append(f"#layout{i} = {ml.attribute()}")
        tensors.append(f"tensor<{'x'.join(map(str, ml.device_shape))}x!ttcore.tile<32x32, f32>, #layout{i}>")
        tensors.append(str(ml))  # inline
    for i in range(20):
        r, c = int(rng.integers(1, 40)) * 32, int(rng.integers(1, 40)) * 32
        head.append(f"#ttnn_layout{i} = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, "
                    f"memref<{r // 32}x{c // 32}x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>")
        tensors.append(f"tensor<{r}x{c}xbf16, #ttnn_layout{i}>")
    body = ["module attributes {ttcore.device = #any_device} {", "  func.func @main() {"]
    while len(head) + len(body) < lines - 2:
        k = len(body)
        a, b = tensors[int(rng.integers(len(tensors)))], tensors[int(rng.integers(len(tensors)))]
        body.append(f'    %{k} = "d2m.to_layout"(%{k - 1}, %x) : ({a}, tensor<64x64xf32>) -> {b}')
    return "\n".join(head + body + ["  }", "}"])


if __name__ == "__main__":
    raise SystemExit(main())
