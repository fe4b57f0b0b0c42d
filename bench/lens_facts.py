"""Record what Triton 3.9 itself does with seeded random ``convert_layout`` ops: tests/lens/data/triton_facts.json.

Triton 3.9 lowers TTGIR to PTX on a CPU (no GPU, about 50 ms a module in one
process). For every case this script writes a small module — a ``tt.load`` in
the source layout, the ``ttg.convert_layout`` (or a ``local_alloc`` /
``local_load`` pair), a ``tt.store`` in the destination layout — runs Triton's
own ``make_llir`` and ``make_ptx`` stages, and stores the module text, the
shared memory Triton allocates (``metadata["shared"]``) and how many of each
instruction class the PTX holds (``shfl.sync``, ``st.shared.*``,
``ld.shared.*``, ``stmatrix``, ``ldmatrix``, ``bar.sync``). ``tests/lens``
checks the lens against this file; ``bench/lens.py`` re-checks a fresh sample.

    python bench/lens_facts.py            # writes tests/lens/data/triton_facts.json (300 converts)
    python bench/lens_facts.py --lit      # Triton's own lit-test converts: tests/lens/data/triton_lit_facts.json

Each batch of modules compiles in a child process: Triton aborts the
interpreter on some inputs, and a crashed module is recorded as ``error``.
"""

from __future__ import annotations

import collections
import json
import pathlib
import random
import re
import subprocess
import sys

SEED = 2028
ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "lens" / "data" / "triton_facts.json"
CLASSES = re.compile(r"\b(shfl\.sync[\w.]*|st\.shared[\w.]*|ld\.shared[\w.]*|stmatrix[\w.]*|ldmatrix[\w.]*|"
                     r"bar\.sync|tcgen05\.(?:ld|st)[\w.]*|cp\.async[\w.]*)")
ELEMS = {"f16": 16, "bf16": 16, "f32": 32, "i8": 8, "i32": 32, "f64": 64, "i16": 16}
MODULE = """{aliases}
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {warps} : i32, ttg.target = "cuda:90", \
"ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @kernel(%arg0: !tt.ptr<{e}>) {{
    %0 = tt.splat %arg0 : !tt.ptr<{e}> -> tensor<{shape}x!tt.ptr<{e}>, #src>
    %1 = tt.load %0 : tensor<{shape}x!tt.ptr<{e}>, #src>
{body}
    %9 = tt.splat %arg0 : !tt.ptr<{e}> -> tensor<{shape}x!tt.ptr<{e}>, #dst>
    tt.store %9, %2 : tensor<{shape}x!tt.ptr<{e}>, #dst>
    tt.return
  }}
}}
"""
CVT = "    %2 = ttg.convert_layout %1 : tensor<{shape}x{e}, #src> -> tensor<{shape}x{e}, #dst>"
LOCAL = ("    %5 = ttg.local_alloc %1 : (tensor<{shape}x{e}, #src>) -> !ttg.memdesc<{shape}x{e}, #shared, #smem>\n"
         "    %2 = ttg.local_load %5 : !ttg.memdesc<{shape}x{e}, #shared, #smem> -> tensor<{shape}x{e}, #dst>")


def _split(total, parts, rng):
    """``total`` (a power of two) as ``parts`` random power-of-two factors."""
    out = [1] * parts
    while total > 1:
        out[rng.randrange(parts)] *= 2
        total //= 2
    return out


def _blocked(shape, warps, rng):
    rank = len(shape)
    spt = [rng.choice([1, 1, 2, 4, 8]) for _ in shape]
    tpw = _split(32, rank, rng)
    wpc = _split(warps, rank, rng)
    order = list(range(rank))
    rng.shuffle(order)
    return (f"#ttg.blocked<{{sizePerThread = {spt}, threadsPerWarp = {tpw}, warpsPerCTA = {wpc}, "
            f"order = {order}}}>")


def _mma(shape, warps, rng, e):
    wpc = _split(warps, 2, rng)
    if rng.random() < 0.5 or warps % 4 or shape[0] < 64:
        return f"#ttg.nvidia_mma<{{versionMajor = 2, versionMinor = 0, warpsPerCTA = {wpc}, instrShape = [16, 8]}}>"
    n = rng.choice([n for n in (8, 16, 32, 64) if n <= shape[1]] or [8])
    k = 256 // ELEMS[e] if e != "f64" else 16
    return (f"#ttg.nvidia_mma<{{versionMajor = 3, versionMinor = 0, warpsPerCTA = [{warps}, 1], "
            f"instrShape = [16, {n}, {k}]}}>")


def _layout(shape, warps, rng, e):
    """A random distributed layout for ``shape``: blocked, an mma, a dot operand of an mma, or a slice."""
    kind = rng.choice(["blocked", "blocked", "blocked", "mma", "dot"]) if len(shape) == 2 else "slice"
    if kind == "blocked":
        return _blocked(shape, warps, rng)
    if kind == "mma":
        return _mma(shape, warps, rng, e)
    if kind == "dot":
        wpc = _split(warps, 2, rng)
        parent = f"#ttg.nvidia_mma<{{versionMajor = 2, versionMinor = 0, warpsPerCTA = {wpc}, instrShape = [16, 8]}}>"
        kw = rng.choice([k for k in (1, 2, 4, 8) if k * ELEMS[e] <= 64] or [1])
        return f"#ttg.dot_op<{{opIdx = {rng.randrange(2)}, parent = {parent}, kWidth = {kw}}}>"
    dim = rng.randrange(2)
    parent = _blocked([shape[0], 32] if dim == 1 else [32, shape[0]], warps, rng)
    return f"#ttg.slice<{{dim = {dim}, parent = {parent}}}>"


def cases(n, seed=SEED):
    """``n`` seeded modules: convert_layout between random layouts (a tenth are local_alloc / local_load pairs)."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        warps = rng.choice([1, 2, 4, 4, 8])
        e = rng.choice(list(ELEMS))
        shape = [rng.choice([16, 32, 64, 128]), rng.choice([16, 32, 64, 128])] if rng.random() < 0.85 else \
            [rng.choice([32, 64, 128, 256])]
        src, dst = _layout(shape, warps, rng, e), _layout(shape, warps, rng, e)
        if src == dst:
            continue
        local = len(shape) == 2 and rng.random() < 0.1
        aliases = f"#src = {src}\n#dst = {dst}"
        body = CVT
        if local:
            vec = rng.choice([1, 2, 4, 8])
            per = rng.choice([1, 2, 4])
            aliases += (f"\n#shared = #ttg.swizzled_shared<{{vec = {vec}, perPhase = {per}, maxPhase = "
                        f"{rng.choice([1, 2, 4, 8])}, order = [1, 0]}}>\n#smem = #ttg.shared_memory")
            body = LOCAL
        sh = "x".join(map(str, shape))
        out.append(MODULE.format(aliases=aliases, warps=warps, e=e, shape=sh, body=body.format(shape=sh, e=e)))
    return out


def _worker():
    """Child process: compile every module of the JSON list on stdin, print one JSON line per module."""
    import tempfile
    import warnings

    warnings.filterwarnings("ignore")
    import triton
    from triton._C.libtriton import ir
    from triton.backends.compiler import GPUTarget
    from triton.compiler.compiler import Language, make_backend

    backend = make_backend(GPUTarget("cuda", 90, 32))
    texts = json.load(sys.stdin)
    with tempfile.TemporaryDirectory() as tmp:
        for i, text in enumerate(texts):
            path = pathlib.Path(tmp) / f"m{i}.ttgir"
            path.write_text(text)
            ctx = ir.context()
            ir.load_dialects(ctx)
            backend.load_dialects(ctx)
            try:
                mod = ir.parse_mlir_module(str(path), ctx)
                mod.context = ctx
                opts = backend.parse_options({"num_warps": mod.get_int_attr("ttg.num-warps")})
                stages: dict = {}
                backend.add_stages(stages, opts, Language.TRITON)
                md: dict = {}
                ptx = stages["ptx"](stages["llir"](mod, md), md)
                got = {"shared": int(md.get("shared", 0)), "ptx": dict(collections.Counter(CLASSES.findall(ptx)))}
            except Exception as e:  # Triton rejects the module: keep its message
                got = {"error": str(e).splitlines()[0][:300] if str(e) else type(e).__name__}
            print(json.dumps(got), flush=True)
    _ = triton


def compile_all(texts, batch=40):
    """``[{shared, ptx} or {error}]`` for each module, compiled by Triton 3.9 in child processes."""
    out: list = []
    i = 0
    while i < len(texts):
        chunk = texts[i:i + batch]
        p = subprocess.run([sys.executable, __file__, "--worker"], input=json.dumps(chunk), capture_output=True,
                           text=True)
        lines = [json.loads(x) for x in p.stdout.splitlines() if x.startswith("{")]
        out.extend(lines)
        if len(lines) < len(chunk):  # the child aborted on module len(lines): record it and go on after it
            out.append({"error": "Triton aborted: " + (p.stderr.strip().splitlines() or ["?"])[-1][:300]})
            i += len(lines) + 1
        else:
            i += len(chunk)
    return out


def main(argv):
    if "--worker" in argv:
        _worker()
        return
    if "--lit" in argv:
        from lens_lit import harvest  # the converts of Triton's lit tests, kept beside this script

        texts = harvest()
        out = ROOT / "tests" / "lens" / "data" / "triton_lit_facts.json"
    else:
        n = int(argv[argv.index("-n") + 1]) if "-n" in argv else 300
        texts = cases(n)
        out = OUT
    facts = compile_all(texts)
    rows = [{"ttgir": t, **f} for t, f in zip(texts, facts)]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"triton": "3.9.0", "target": "cuda:90", "cases": rows}, indent=0) + "\n")
    bad = sum("error" in r for r in rows)
    print(f"{len(rows)} modules, {bad} rejected by Triton -> {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main(sys.argv[1:])
