"""CuTe IR benchmark: reading the types of a 5,000-line CuTe DSL dump (target: under 0.5 s).

    python bench/cute_ir.py [--quick]

The dump is made of lines shaped as the DSL's dumps are (``%7 = "cute.op"(%a, %b) : (T1, T2) -> T3``, alias lines
``!memref_.. = !cute.memref<...>`` first), its types drawn from the printed types the tests hold
(tests/cute/data/cute_ir_types.txt and the CuTe DSL's own, cute_ir_facts.json). Two dumps:

1. as a real dump: its types repeat (a kernel's few hundred distinct types, each used many times);
2. the worst case: every type distinct (each carries the line's number), so nothing is read twice.

It prints the seconds ``cute.ir_dump.ir_types`` takes on each (best of 5, 2 with ``--quick``) and the types read.
"""

from __future__ import annotations

import json
import pathlib
import random
import re
import sys
import time

from unilayout.cute.ir_dump import ir_types

DATA = pathlib.Path(__file__).resolve().parent.parent / "tests" / "cute" / "data"
QUICK = "--quick" in sys.argv
LINES = 5000


def pool() -> list:
    """The distinct CuTe IR types of the test data (only the !cute spellings)."""
    texts = [ln for ln in (DATA / "cute_ir_types.txt").read_text().splitlines() if ln.startswith("!cute.")]
    facts = json.loads((DATA / "cute_ir_facts.json").read_text())["facts"]
    texts += [f["type"] for f in facts if "type" in f]
    ok = []
    for t in dict.fromkeys(texts):
        try:
            ir_types(t)
            ok.append(t)
        except Exception:  # noqa: BLE001  (what unilayout cannot hold is left out of the dump)
            continue
    return ok


def dump(types: list, distinct: bool) -> str:
    rng = random.Random(24)
    plain = [t for t in types if re.search(r'"[^"]*\d', t) and "S<" not in t.split('"', 1)[1]]
    memrefs = [t for t in types if t.startswith("!cute.memref")]
    lines = [f"!memref_{i} = {t}" for i, t in enumerate(memrefs[:40])]
    while len(lines) < LINES:
        n = len(lines)
        a, b, c = (rng.choice(plain if distinct else types) for _ in range(3))
        if distinct:  # a number of its own in each type (its first integer in quotes): no two types alike
            a, b, c = (re.sub(r'("[^"]*?)(?<![A-Za-z0-9])(\d+)', lambda m, k=k: m.group(0) + str(n * 3 + k), t, count=1)
                       for k, t in enumerate((a, b, c)))
        lines.append(f'      %{n} = "cute.op_{n % 17}"(%{n - 1}, %arg{n % 9}) : ({a}, {b}) -> {c}')
    return "\n".join(lines) + "\n"


def best(f, reps: int) -> float:
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> int:
    types = pool()
    reps = 2 if QUICK else 5
    print(f"{len(types)} distinct CuTe IR types in the pool")
    for name, distinct in (("a real dump (types repeat)", False), ("worst case (every type distinct)", True)):
        text = dump(types, distinct)
        n = len(ir_types(text))
        t = best(lambda text=text: ir_types(text), reps)
        verdict = "ok" if t < 0.5 else "OVER the 0.5 s target"
        print(f"{name}: {text.count(chr(10)):,} lines, {len(text) / 1e6:.2f} MB, {n:,} types read in {t:.3f} s "
              f"({verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
