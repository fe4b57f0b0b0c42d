"""Timing shared by the bench scripts (private; each script runs as ``python bench/NAME.py``,
so this folder is on ``sys.path``).

``best`` keeps the fastest of a few runs: the least disturbed by the rest of the
machine, which is what a ratio between unilayout and its baseline should compare.

>>> t, out = best(lambda: sum(range(10)), 3)
>>> out, t >= 0
(45, True)
"""

import time


def best(fn, reps):
    """``(seconds, result)``: the fastest of ``reps`` calls of ``fn()`` and the last call's result."""
    t, out = float("inf"), None
    for _ in range(reps):
        t0 = time.perf_counter()
        out = fn()
        t = min(t, time.perf_counter() - t0)
    return t, out


def best_time(fn, reps):
    """The fastest of ``reps`` calls of ``fn()``, in seconds (``best`` without the result)."""
    return best(fn, reps)[0]
