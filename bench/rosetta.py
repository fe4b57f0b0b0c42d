"""Benchmark: the atom Rosetta — the whole verdict matrix, and one compare of two 128x256 fragments.

Run: ``python bench/rosetta.py``. Prints, in one run:

1. the whole matrix (``rosetta.matrix()``: every instruction, every system's spelling built and compared with
   the reference) in a fresh interpreter (imports and the table's first build included) and again warm.
   Target: under 5 s.
2. ``rosetta.compare`` of two fragments of a 128x256 accumulator tile (256 threads x 128 values: Triton's
   ``#ttg.nvidia_mma`` v3 with 8 warps, and CuTe's WGMMA atom tiled 2x over M): the same, the same after a
   register permutation, and differing in the last cell; on built ``Fragment`` values (the compare itself) and
   from the Triton text (reading it included). Target: under 10 ms.

Times are the best of several repetitions (wall clock, one thread).
"""

from __future__ import annotations

import platform
import subprocess
import sys

import numpy as np

from _timing import best  # bench/ is on sys.path
from unilayout import rosetta

TEXT = ("tensor<128x256xf32, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], "
        "instrShape = [16, 256, 16]}>>")
COLD = "import time; t = time.perf_counter(); from unilayout import rosetta; rows = rosetta.matrix(); " \
       "print(time.perf_counter() - t, len(rows))"


def matrix_times():
    cold = []
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", COLD], capture_output=True, text=True, check=True).stdout.split()
        cold.append((float(out[0]), int(out[1])))
    t_cold, n_rows = min(cold)
    t_warm, rows = best(rosetta.matrix, 3)
    assert len(rows) == n_rows
    return t_cold, t_warm, rows


def fragments_128x256():
    """Triton's 8-warp WGMMA accumulator over 128x256, its register-permuted and its last-cell-changed copies."""
    a = rosetta.fragment(TEXT)
    perm = np.random.default_rng(0).permutation(a.values)
    b = a._replace(coords=a.coords[:, perm])
    c = a.coords.copy()
    c[-1, -1] = c[-1, -2]
    return a, b, a._replace(coords=c), perm


def main():
    print(f"rosetta bench — Python {platform.python_version()}, numpy {np.__version__}")
    t_cold, t_warm, rows = matrix_times()
    n_ins = len({r.instruction for r in rows})
    systems = sorted({r.system for r in rows})
    print(f"whole matrix: {n_ins} instructions, {len(rows)} operand spellings, {len(systems)} systems "
          f"({', '.join(systems)})")
    print(f"  fresh interpreter (imports + first build): {t_cold:.2f} s   warm: {t_warm:.2f} s   target < 5 s: "
          f"{'ok' if max(t_cold, t_warm) < 5 else 'MISSED'}")
    a, b, c, perm = fragments_128x256()
    print(f"compare of two 128x256 fragments ({a.threads} threads x {a.values} values):")
    same = a._replace(coords=a.coords.copy())  # equal, not the same array
    for label, other, check in (("same", same, lambda v: v.same),
                                ("register permutation", b, lambda v: v.register_permutation == tuple(perm)),
                                ("differ in the last cell", c, lambda v: v.first_difference is not None)):
        t, v = best(lambda o=other: rosetta.compare(a, o), 20)
        assert check(v), (label, v)
        print(f"  {label:24} {t * 1e3:7.2f} ms   target < 10 ms: {'ok' if t < 0.010 else 'MISSED'}")
    t, v = best(lambda: rosetta.compare(TEXT, b), 5)
    print(f"  from the Triton text (reading it included), permuted: {t * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
