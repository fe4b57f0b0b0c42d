"""Benchmark: converting a 1024-device sharding of a rank-4 tensor between vocabularies, against JAX.

Run: ``python bench/sharding.py`` (sets ``XLA_FLAGS`` for 1024 simulated CPU
devices before JAX starts). Prints, in one run:

1. JAX's own ``NamedSharding.devices_indices_map`` for the sharding (a fresh
   shape each repetition, so JAX's cache does not answer) — the baseline —
   and ``sharding.from_jax`` for the same answer; the two are checked equal
   device by device, and the ratio printed (target: at least 5x faster);
2. every conversion of that ``Sharding`` into and out of each vocabulary
   (JAX, HLO text, Shardy text, DTensor placements, TTNN placements) and
   each pair ``A -> Sharding -> B`` (target: under 20 ms each).

Times are the best of several repetitions (wall clock, one thread).
"""

from __future__ import annotations

import os
import platform
import sys

os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=1024").strip()

import jax  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P

from _timing import best  # noqa: E402  (bench/ is on sys.path)
from unilayout import sharding  # noqa: E402


def main():
    devs = jax.devices()
    if len(devs) < 1024:
        sys.exit(f"needs 1024 JAX devices, got {len(devs)} (XLA_FLAGS was set too late?)")
    mesh_shape = (8, 8, 16)
    mesh = Mesh(np.array(devs[:1024]).reshape(mesh_shape), ("data", "model", "seq"))
    spec = P("data", None, "seq", "model")
    shape = (256, 12, 1024, 4096)
    named = NamedSharding(mesh, spec)
    print(f"python {platform.python_version()}, jax {jax.__version__}, numpy {np.__version__}; "
          f"{len(devs)} CPU devices, mesh {mesh_shape}, spec {spec}, tensor {'x'.join(map(str, shape))}")

    # 1. JAX's devices_indices_map vs sharding.from_jax (fresh shapes so that no cache answers)
    shapes = iter([(256 + 8 * k, 12, 1024, 4096) for k in range(1, 100)])
    t_jax, jmap = best(lambda: named.devices_indices_map(next(shapes)), 7)
    shapes = iter([(256 + 8 * k, 12, 1024, 4096) for k in range(1, 100)])
    t_ours, s = best(lambda: sharding.from_jax(named, next(shapes)), 7)
    ref_shape = (256 + 8 * 7, 12, 1024, 4096)
    jmap = named.devices_indices_map(ref_shape)
    s = sharding.from_jax(named, ref_shape)
    for d, idx in jmap.items():
        assert s.boxes(d.id) == (tuple(sl.indices(n)[:2] for sl, n in zip(idx, ref_shape)),), d
    print("\n1. who holds what, 1024 devices (checked equal device by device)")
    print(f"   jax devices_indices_map   {t_jax * 1e3:8.2f} ms")
    print(f"   sharding.from_jax         {t_ours * 1e3:8.2f} ms   {t_jax / t_ours:5.1f}x faster (target >= 5x)")

    # 2. each vocabulary, in and out
    s = sharding.from_jax(named, shape)
    ids = {d.id: k for k, d in enumerate(mesh.devices.flat)}
    s_pos = s.relabel(ids)  # HLO, Shardy, DTensor and TTNN number devices by mesh position
    hlo = sharding.to_hlo(s_pos)
    sdy, sdy_mesh = sharding.to_shardy(s_pos)
    dt = sharding.to_dtensor(s_pos, mesh_shape, as_text=True)
    tn = sharding.to_ttnn(s_pos, mesh_shape)
    print(f"\n2. conversions (HLO {hlo}; DTensor {dt})")
    steps = {
        "JAX -> Sharding": lambda: sharding.from_jax(named, shape),
        "Sharding -> JAX": lambda: sharding.to_jax(s, mesh),
        "HLO -> Sharding": lambda: sharding.parse_hlo(hlo, shape),
        "Sharding -> HLO": lambda: sharding.to_hlo(s_pos),
        "Shardy -> Sharding": lambda: sharding.parse_shardy(sdy, sdy_mesh, shape),
        "Sharding -> Shardy": lambda: sharding.to_shardy(s_pos),
        "DTensor -> Sharding": lambda: sharding.from_dtensor(dt, mesh_shape, shape),
        "Sharding -> DTensor": lambda: sharding.to_dtensor(s_pos, mesh_shape, as_text=True),
        "TTNN -> Sharding": lambda: sharding.from_ttnn(tn, mesh_shape, shape),
        "Sharding -> TTNN": lambda: sharding.to_ttnn(s_pos, mesh_shape),
    }
    times = {}
    for name, fn in steps.items():
        times[name], out = best(fn, 7)
        print(f"   {name:22s} {times[name] * 1e3:8.2f} ms")
    assert sharding.parse_hlo(hlo, shape) == s_pos == sharding.from_dtensor(dt, mesh_shape, shape)
    assert sharding.parse_shardy(sdy, sdy_mesh, shape) == s_pos == sharding.from_ttnn(tn, mesh_shape, shape)
    names = ["JAX", "HLO", "Shardy", "DTensor", "TTNN"]
    worst = 0.0
    print("   pairs A -> Sharding -> B (ms):")
    print("   " + " " * 9 + "".join(f"{b:>9s}" for b in names))
    for a in names:
        row = []
        for b in names:
            tt = times[f"{a} -> Sharding"] + times[f"Sharding -> {b}"]
            worst = max(worst, tt)
            row.append(f"{tt * 1e3:9.2f}")
        print(f"   {a:9s}" + "".join(row))
    print(f"   slowest pair {worst * 1e3:.2f} ms (target < 20 ms)")


if __name__ == "__main__":
    main()
