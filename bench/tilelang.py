"""Benchmark: TileLang maps evaluated over 2^20 points, beside ``np.arange`` of the same size.

Run: ``python bench/tilelang.py``. Prints, in one run, for three maps of 1024x1024 = 2^20 points — the
identity-like linear layout, the full-bank swizzled layout of f16 (XOR, ``//``, ``%``), and a fragment's
thread map — the time of ``offsets()`` / ``thread_map()`` (a fresh value each time, so nothing is cached)
and its ratio to ``np.arange(2**20)``. Target (issue 26): within 5x.

Times are the best of several repetitions (wall clock, one thread).
"""

from __future__ import annotations

import platform

import numpy as np

from _timing import best_time  # bench/ is on sys.path
from unilayout import tilelang
from unilayout.tilelang import swizzle

N = 1 << 20
FRAGMENT = ("Fragment((1024, 1024) -> (4096,), replicate: 1, thread: 256, "
            "forward_thread: _i % 16 * 16 + _j % 16, "
            "forward_index: (_i // 16 * 64 + _j // 16,))")


def main():
    print(f"unilayout bench/tilelang.py  (python {platform.python_version()}, numpy {np.__version__})")
    base = best_time(lambda: np.arange(N, dtype=np.int64), 20)
    cases = [
        ("make_linear_layout(1024, 1024).offsets()", lambda: swizzle.make_linear_layout(1024, 1024).offsets()),
        ("make_full_bank_swizzled_layout(1024, 1024, 16).offsets()",
         lambda: swizzle.make_full_bank_swizzled_layout(1024, 1024, 16).offsets()),
        ("Fragment 1024x1024 over 256 threads: thread_map()", lambda: tilelang.parse(FRAGMENT).thread_map()),
    ]
    print(f"\nnp.arange({N}): {base * 1e3:.3f} ms")
    for name, fn in cases:
        t = best_time(fn, 10)
        print(f"  {name:58s} {t * 1e3:8.3f} ms  = {t / base:5.2f}x np.arange  (target <= 5x: "
              f"{'met' if t / base <= 5 else 'NOT met'})")


if __name__ == "__main__":
    main()
