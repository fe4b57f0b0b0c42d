"""How fast the lens reads and prices a big dump, and how often its figures equal what Triton 3.9 compiles.

    python bench/lens.py            # the timing and a fresh 300-convert check against Triton (about 30 s)
    python bench/lens.py --no-triton

1. A 10,000-line TTGIR dump (300 kernels, each a distinct ``convert_layout``
   between seeded random layouts inside an ``scf.for`` with element-wise
   work around it, locations on every op) is read and fully priced
   (``lens.read``: every value's type, every move's level, scratch bytes,
   conflicts, vectors and instructions). Target: under 2 s.
2. 300 fresh converts (a seed the recorded tests do not use) are compiled by
   Triton 3.9 on the CPU (``bench/lens_facts.py``) and the lens's scratch bytes and
   PTX instruction classes compared with Triton's, printed as agreement %.
"""

from __future__ import annotations

import platform
import re
import sys
import time

from _timing import best
from lens_facts import cases, compile_all
from unilayout import lens

FRESH_SEED = 4096


def big_dump(n_kernels=300, filler=36, seed=17):
    """A TTGIR dump of ``n_kernels`` functions (about 35 lines each) built from seeded random converts (the
    four-warp ones, so the module's ``ttg.num-warps`` holds for all of them)."""
    mods = [t for t in cases(8 * n_kernels, seed=seed) if '"ttg.num-warps" = 4 ' in t][:n_kernels]
    aliases, funcs, locs = [], [], []
    for k, text in enumerate(mods):
        head = [line for line in text.splitlines() if line.startswith("#")]
        ren = {}
        for line in head:
            name = line.split("=", 1)[0].strip()[1:]
            ren[name] = f"{name}_{k}"
            aliases.append(f"#{name}_{k} =" + line.split("=", 1)[1])
        body = [line for line in text.splitlines() if line.startswith("    ") and "tt.return" not in line]
        body = [re.sub(r"#(src|dst|shared|smem)\b", lambda m: "#" + ren[m.group(1)], line) for line in body]
        m = re.search(r"tensor<([0-9x]+)x(\w+), #src>", text)
        shape, elem = m.group(1), m.group(2)
        ptr = re.search(r"!tt\.ptr<(\w+)>", text).group(1)
        t = f"tensor<{shape}x{elem}, #src_{k}>"
        lines = [f"  tt.func public @kernel_{k}(%arg0: !tt.ptr<{ptr}>, %n: i32) {{",
                 "    %c0 = arith.constant 0 : i32", "    %c1 = arith.constant 1 : i32"]
        lines += [line + f" loc(#loc{k})" for line in body[:2]]
        lines.append(f"    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %1) -> ({t})  : i32 {{")
        prev = "%a"
        for j in range(filler // 2):
            op = "arith.addi" if elem.startswith("i") else "arith.addf"
            lines.append(f"      %f{j} = {op} {prev}, {prev} : {t} loc(#loc{k})")
            prev = f"%f{j}"
        lines.append(f"      scf.yield {prev} : {t}")
        lines.append("    }")
        lines += [line.replace(" %1 ", " %acc ").replace("(%1)", "(%acc)") + f" loc(#loc{k})" for line in body[2:]]
        lines.append("    tt.return")
        lines.append("  }")
        funcs.extend(lines)
        locs.append(f'#loc{k} = loc("kernels.py":{k + 1}:7)')
    header = ('module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", '
              '"ttg.threads-per-warp" = 32 : i32} {')
    return "\n".join(aliases + [header] + funcs + ["}"] + locs) + "\n"


def _classes(ptx, barriers):
    out = set()
    for k in ptx:
        if barriers or not k.startswith("bar."):
            out.add("shfl.sync" if k.startswith("shfl") else
                    k.split(".")[0] + (".trans" if ".trans" in k else "") if "matrix" in k else k)
    return out


def main(argv):
    print(f"lens; Python {platform.python_version()}")
    text = big_dump()
    nlines = text.count("\n")
    t0 = time.perf_counter()
    dump = lens.read(text)
    cold = time.perf_counter() - t0
    t, dump = best(lambda: lens.read(text), 3)
    moves = len(dump.moves)
    shared = sum(1 for m in dump.moves if m.level == "shared-memory round trip")
    ok = "ok" if cold < 2.0 else "SLOW"
    print(f"  {'read and price a TTGIR dump':44}{'lines':>7}  {'values':>7}  {'moves':>6}  {'first':>9}  {'best':>9}")
    print(f"  {'':44}{nlines:7}  {len(dump.values):7}  {moves:6}  {cold * 1e3:7.0f} ms  {t * 1e3:7.0f} ms  "
          f"[{ok}: < 2 s; {shared} through shared memory]")
    if "--no-triton" in argv:
        return
    try:
        import triton  # noqa: F401
    except ImportError:
        print("  check against Triton: skipped (triton 3.9 is not installed)")
        return
    texts = cases(300, seed=FRESH_SEED)
    t0 = time.perf_counter()
    facts = compile_all(texts)
    t_triton = time.perf_counter() - t0
    agree_bytes = agree_ins = n = 0
    misses = []
    for i, (text, fact) in enumerate(zip(texts, facts)):
        if "error" in fact:
            continue
        d = lens.read(text)
        scratch = sum(m.scratch_bytes or 0 for m in d.moves)
        bars = "local_alloc" not in text  # a convert's own barrier (bar.sync or bar.warp.sync) is compared too
        ins = {x for m in d.moves for x in m.instructions if bars or not x.startswith("bar.")}
        want = _classes(fact["ptx"], bars)
        n += 1
        agree_bytes += scratch == fact["shared"]
        agree_ins += ins == want
        if scratch != fact["shared"] or ins != want:
            misses.append(i)
    print(f"  {'lens vs Triton 3.9 (fresh seed, compiled here)':44}{'cases':>7}  {'bytes':>7}  {'instr':>6}  "
          f"{'triton':>9}")
    print(f"  {'':44}{n:7}  {100 * agree_bytes / n:6.1f}%  {100 * agree_ins / n:5.1f}%  {t_triton:7.1f} s  "
          f"[{len(texts) - n} rejected by Triton; disagreements: {misses[:10]}]")


if __name__ == "__main__":
    main(sys.argv[1:])
