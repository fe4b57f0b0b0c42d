"""Benchmark: distribute + gather of a metal layout over 8 JAX CPU devices against plain JAX.

Run: ``python bench/distributed.py`` (``--quick`` for 4096x4096). Sets
``XLA_FLAGS=--xla_force_host_platform_device_count=8`` before importing JAX.
For an 8192x8192 float32 tensor, in one run:

1. plain JAX: ``jax.device_put(a, NamedSharding(mesh, spec))`` (waited for)
   and ``np.asarray`` of the result (timed on a fresh array each time: JAX
   caches an array's numpy value);
2. unilayout: ``distribute(a, ml, device)`` with the metal layout and tt
   device that place the same rows on the same devices (waited for), and
   ``gather(x, ml)``; the ratio unilayout / JAX (target: <= 1.5x).

Cases: mesh 8x1 (grid 64x8, each chip 1024 whole rows: ``P('x', None)``),
mesh 2x4 (grid 16x32, blocks of 4096x2048: ``P('x', 'y')``). For
information, two layouts plain JAX has no sharding for: tilized 32x32 with
padding (8191x8190 on grid 63x8, mesh 8x1), and a ragged split (grid 60x8
on mesh 8x1: the last chip gets 4 of 8 grid rows; placed device by
device), timed against the dense case's plain JAX.
Times are the best of several repetitions (wall clock); put and get are
timed separately and summed.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import jax  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P

from _timing import best_time as best  # noqa: E402  (bench/ is on sys.path)
from unilayout import tt  # noqa: E402
from unilayout.distributed import distribute, gather, to_named_sharding  # noqa: E402


def best_fresh(make, fn, reps):
    """Best time of ``fn(make())``, a fresh input each time (JAX caches an array's numpy value)."""
    t = float("inf")
    for _ in range(reps):
        x = make()
        t0 = time.perf_counter()
        fn(x)
        t = min(t, time.perf_counter() - t0)
        del x
    return t


def _put(a, s):
    return jax.block_until_ready(jax.device_put(a, s))


def _dist(a, ml, dev):
    return jax.block_until_ready(distribute(a, ml, dev))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="4096x4096 instead of 8192x8192")
    ap.add_argument("--reps", type=int, default=7)
    args = ap.parse_args(argv)
    n = 4096 if args.quick else 8192
    reps = args.reps
    devs = jax.devices()
    if len(devs) < 8:
        raise SystemExit(f"needs 8 JAX devices, got {len(devs)}: set XLA_FLAGS before JAX starts")
    a = np.random.default_rng(0).random((n, n), dtype=np.float32)
    system = tt.SystemDesc.wormhole_b0(8)
    print(f"distribute/gather, {n}x{n} float32 ({a.nbytes / 2**20:.0f} MiB) over 8 JAX CPU devices; "
          f"Python {platform.python_version()}, numpy {np.__version__}, jax {jax.__version__}, "
          f"{os.cpu_count()} CPU(s); best of {reps}")
    worst = 0.0
    base_put = base_get = None
    for mesh_shape, names, spec in (((8, 1), ("x", "y"), P("x", None)), ((2, 4), ("x", "y"), P("x", "y"))):
        dev = tt.Device.from_mesh(system, mesh_shape)
        ml = tt.MetalLayout.from_collapse((n, n), dev.grid_shape)
        mesh = Mesh(np.array(devs[:8]).reshape(mesh_shape), names)
        s = NamedSharding(mesh, spec)
        assert to_named_sharding(ml, dev, mesh) == s
        x = _put(a, s)
        y = _dist(a, ml, dev)
        assert y.sharding.is_equivalent_to(s, 2)
        assert np.array_equal(gather(y, ml), a) and np.array_equal(np.asarray(x), a)
        t_put = best(lambda: _put(a, s), reps)
        t_asarray = best_fresh(lambda: _put(a, s), np.asarray, reps)
        t_dist = best(lambda: _dist(a, ml, dev), reps)
        t_gather = best_fresh(lambda: _dist(a, ml, dev), lambda v: gather(v, ml), reps)
        if mesh_shape == (8, 1):
            base_put, base_get = t_put, t_asarray
        title = f"mesh {mesh_shape[0]}x{mesh_shape[1]}, grid {dev.grid_shape[0]}x{dev.grid_shape[1]}, {spec}"
        print(f"  {title}")
        for what, ours, theirs, base in (("put", t_dist, t_put, "jax.device_put"),
                                         ("get", t_gather, t_asarray, "np.asarray")):
            name = "distribute" if what == "put" else "gather"
            r = ours / theirs
            worst = max(worst, r)
            print(f"    {base:<16}{theirs * 1e3:8.1f} ms   {name:<11}{ours * 1e3:8.1f} ms   {r:5.2f}x")
        both = (t_dist + t_gather) / (t_put + t_asarray)
        worst = max(worst, both)
        print(f"    {'both':<16}{(t_put + t_asarray) * 1e3:8.1f} ms   {'':<11}{(t_dist + t_gather) * 1e3:8.1f} ms   "
              f"{both:5.2f}x  {'ok' if both <= 1.5 else 'SLOW'} (target <= 1.5x)")
    dev = tt.Device.from_mesh(system, (8, 1))
    others = ((f"tilized 32x32, padded {n - 1}x{n - 2}, grid 63x8", tt.MetalLayout.from_collapse((n - 1, n - 2), (63, 8), tile=(32, 32))),
              ("ragged: grid 60x8 (last chip 4 of 8 rows)", tt.MetalLayout.from_collapse((n, n), (60, 8))))
    for title, ml in others:
        b = np.ascontiguousarray(a[: ml.logical_shape[0], : ml.logical_shape[1]])
        y = _dist(b, ml, dev)
        assert np.array_equal(gather(y, ml), b)
        t_dist = best(lambda: _dist(b, ml, dev), max(3, reps // 2))
        t_gather = best_fresh(lambda: _dist(b, ml, dev), lambda v: gather(v, ml), max(3, reps // 2))
        print(f"  {title} (no plain-JAX equivalent; vs the dense 8x1 figures)")
        print(f"    distribute {t_dist * 1e3:8.1f} ms ({t_dist / base_put:5.2f}x)   gather {t_gather * 1e3:8.1f} ms "
              f"({t_gather / base_get:5.2f}x)")
    print(f"worst ratio on the NamedSharding cases: {worst:.2f}x ({'within' if worst <= 1.5 else 'above'} the 1.5x target)")


if __name__ == "__main__":
    main()
