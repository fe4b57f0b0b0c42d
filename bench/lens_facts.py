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
    python bench/lens_facts.py --broadcast   # converts from warp-replicated sources: .../triton_broadcast_facts.json

``--lit`` takes the layouts of the ``convert_layout`` (and ``local_alloc`` /
``local_load``) tests of Triton's ``test/Conversion/tritongpu_to_llvm.mlir``
(triton-lang/triton, the revision whose allocator Triton 3.9 ships), each put
in the same small module (pointer-typed and multi-CTA tests left out: the
module loads and stores the tensor).

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
                     r"bar\.sync|bar\.warp\.sync|tcgen05\.(?:ld|st)[\w.]*|cp\.async[\w.]*)")
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


_B = "#ttg.blocked<{{sizePerThread = {}, threadsPerWarp = {}, warpsPerCTA = {}, order = {}}}>"
_MMA2 = "#ttg.nvidia_mma<{{versionMajor = 2, warpsPerCTA = {}, instrShape = [16, 8]}}>"
_MMA3 = "#ttg.nvidia_mma<{{versionMajor = 3, versionMinor = 0, warpsPerCTA = {}, instrShape = {}}}>"
_DOT = "#ttg.dot_op<{{opIdx = {}, parent = {}, kWidth = {}}}>"
_LIN0 = ("#ttg.linear<{register=[[1, 0], [2, 0], [4, 0]], lane=[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], "
         "warp=[], block=[]}>")
_LIN1 = ("#ttg.linear<{register=[[1, 0], [2, 0], [0, 1]], lane=[[4, 0], [0, 2], [0, 4], [0, 8], [0, 16]], "
         "warp=[], block=[]}>")
_B1D = _B.format([1], [32], [1], [0])
_B2D = _B.format([1, 4], [4, 8], [1, 1], [1, 0])
_M3A = _MMA3.format([4, 1], [16, 64, 16])
_M3B = _MMA3.format([4, 1], [16, 128, 16])
_BL = _B.format([1, 4], [2, 16], [1, 4], [1, 0])
#: (test name, num_warps, shape x element, source layout, destination layout[, shared layout of a local pair])
LIT = [
    ("convert_layout_transpose", 4, "128x128xf8E5M2", _B.format([1, 16], [4, 8], [4, 1], [1, 0]),
     _B.format([16, 1], [8, 4], [1, 4], [0, 1])),
    ("convert_layout_mmav2_blocked", 4, "32x16xf32", _MMA2.format([2, 2]), _B.format([1, 4], [32, 1], [1, 4], [1, 0])),
    ("convert_layout_mmav2_dot_reg", 1, "16x16xf16", _MMA2.format([1, 1]), _DOT.format(0, _MMA2.format([1, 1]), 2)),
    ("convert_layout_mmav2_dot_reg 1x16", 1, "1x16xf16", _MMA2.format([1, 1]), _DOT.format(0, _MMA2.format([1, 1]), 2)),
    ("convert_layout_slice_mmav2_blocked_reg", 4, "1xf16", f"#ttg.slice<{{dim = 0, parent = {_MMA2.format([2, 2])}}}>",
     _B.format([1], [32], [4], [0])),
    ("convert_layout_mmav3_mmav3_0", 4, "64x64xf16", _M3A, _M3B),
    ("convert_layout_mmav3_mmav3_1", 4, "64x64xf16", _M3B, _M3A),
    ("convert_layout_mmav3_mmav3_2", 4, "16x16xf16", _M3B, _M3A),
    ("convert_layout_mmav3_mmav3_3", 4, "1x64xf16", _M3B, _M3A),
    ("convert_layout_mmav3_transpose", 8, "128x256xf8E5M2", _MMA3.format([8, 1], [16, 256, 32]),
     _B.format([16, 1], [8, 4], [1, 8], [0, 1])),
    ("convert_blocked1d_to_slice0", 1, "32xi32", _B1D, f"#ttg.slice<{{dim = 0, parent = {_B2D}}}>"),
    ("convert_blocked1d_to_slice1", 1, "32xi32", _B1D, f"#ttg.slice<{{dim = 1, parent = {_B2D}}}>"),
    ("matmul_kernel_dot_operand_layout", 4, "128x256xf32", _MMA2.format([2, 2]), _BL),
    ("matmul_tf32dot", 4, "32x32xf32", _MMA2.format([2, 2]), _BL),
    ("convert_layout_blocked_blocked_shuffle_swap", 1, "32x32xi32", _B.format([32, 1], [1, 32], [1, 1], [1, 0]),
     _B.format([16, 2], [2, 16], [1, 1], [1, 0])),
    ("convert_layout_blocked_blocked_shuffle_ship", 1, "32x32xi32", _B.format([32, 1], [1, 32], [1, 1], [0, 1]),
     _B.format([16, 2], [2, 16], [1, 1], [0, 1])),
    ("convert_layout_shuffle_packed_4xi1", 1, "8x32xi1", _LIN0, _LIN1),
    ("convert_layout_blocked_blocked", 4, "32x32xf32", _B.format([1, 4], [8, 4], [2, 2], [1, 0]),
     _B.format([4, 1], [4, 8], [2, 2], [0, 1])),
    ("convert_layout_blocked_blocked_vec", 4, "32x32xf32", _B.format([1, 4], [8, 4], [2, 2], [1, 0]),
     _B.format([1, 4], [16, 2], [2, 2], [1, 0])),
    ("convert_layout_blocked_blocked_multi_rep", 1, "32x32xf32", _B.format([1, 32], [32, 1], [1, 1], [1, 0]),
     _B.format([4, 8], [8, 4], [1, 1], [1, 0])),
    ("convert_dot_ldmatrix", 1, "16x16xf16", _B.format([1, 4], [8, 4], [1, 1], [1, 0]),
     _DOT.format(0, _MMA2.format([1, 1]), 2), "#ttg.swizzled_shared<{vec = 1, perPhase=1, maxPhase=1, order = [1, 0]}>"),
    ("convert_dot_ldmatrix_swizzle", 1, "16x16xf16", _B.format([1, 4], [8, 4], [1, 1], [1, 0]),
     _DOT.format(1, _MMA2.format([1, 1]), 2), "#ttg.swizzled_shared<{vec = 8, perPhase=1, maxPhase=8, order = [1, 0]}>"),
    ("convert_dot", 1, "16x16xf16", _B.format([1, 4], [8, 4], [1, 1], [1, 0]),
     _DOT.format(0, _MMA2.format([1, 1]), 2), "#ttg.swizzled_shared<{vec = 1, perPhase=1, maxPhase=8, order = [1, 0]}>"),
    ("convert_dot_fp8", 1, "16x16xf8E5M2", _B.format([1, 4], [8, 4], [1, 1], [1, 0]),
     _DOT.format(0, _MMA2.format([1, 1]), 4), "#ttg.swizzled_shared<{vec = 16, perPhase=1, maxPhase=8, order = [1, 0]}>"),
    ("convert_dot_mmav3_shared", 1, "64x64xf16", _B.format([1, 4], [8, 4], [1, 1], [1, 0]),
     _DOT.format(0, _MMA2.format([1, 1]), 2),
     "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>"),
]


def lit_cases():
    """The modules of :data:`LIT`: (test name, module text)."""
    out = []
    for row in LIT:
        name, warps, typ, src, dst = row[:5]
        shape, e = typ.rsplit("x", 1)
        aliases = f"#src = {src}\n#dst = {dst}"
        body = CVT
        if len(row) > 5:
            aliases += f"\n#shared = {row[5]}\n#smem = #ttg.shared_memory"
            body = LOCAL
        out.append((name, MODULE.format(aliases=aliases, warps=warps, e=e, shape=shape,
                                        body=body.format(shape=shape, e=e))))
    return out


def broadcast_cases():
    """Seeded converts whose source every warp holds whole (its warp bases zero) that do cross warps by
    unilayout's minimal conversion: where Triton chooses between shuffles and shared memory by what the
    destination's warps need (``plan.triton._warp_replicated``)."""
    from unilayout import lens
    from unilayout.linear import analysis

    out = []
    for seed in range(5000, 5040):
        for text in cases(60, seed=seed):
            if "local_alloc" in text:
                continue
            d = lens.read(text)
            src, dst = d.layout("%1"), d.layout("%2")
            warps = dict(src.bases).get("warp", [])
            if warps and not any(any(v) for v in warps) and "warp" in analysis.minimal_conversion(src, dst).out_dim_names:
                out.append(text)
    return out


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
    names = None
    if "--broadcast" in argv:
        texts = broadcast_cases()
        out = ROOT / "tests" / "lens" / "data" / "triton_broadcast_facts.json"
    elif "--lit" in argv:
        names, texts = zip(*lit_cases())
        out = ROOT / "tests" / "lens" / "data" / "triton_lit_facts.json"
    else:
        n = int(argv[argv.index("-n") + 1]) if "-n" in argv else 300
        texts = cases(n)
        out = OUT
    facts = compile_all(texts)
    rows = [{"ttgir": t, **f} for t, f in zip(texts, facts)]
    if names:
        for row, name in zip(rows, names):
            row["test"] = name
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"triton": "3.9.0", "target": "cuda:90", "cases": rows}, indent=0) + "\n")
    bad = sum("error" in r for r in rows)
    print(f"{len(rows)} modules, {bad} rejected by Triton -> {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main(sys.argv[1:])
