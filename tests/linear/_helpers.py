"""Shared helpers for tests/linear (loaded by path): the Triton oracle, run in a subprocess.

Triton aborts the interpreter on a failed precondition, so every oracle call
runs in a child process, and many cases go in one call (JSON in, JSON out).
Only cases unilayout accepts (hence valid for Triton) are sent.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

from unilayout.linear import LinearLayout
from unilayout.linear import encodings as E

_ORACLE = r'''
import json, os, sys
from triton.tools import LinearLayout as LL

def build(d):
    return LL.from_bases([(n, b) for n, b in d["bases"]], [n for n, _ in d["outs"]],
                         [s for _, s in d["outs"]], False)

def desc(L):
    return {"str": str(L), "bases": [[n, b] for n, b in L.bases], "outs": [[n, s] for n, s in L.out_dims],
            "surj": L.is_surjective(), "inj": L.is_injective(), "inv": L.is_invertible(),
            "matrix": L.get_matrix_view()}

def run(case):
    op = case["op"]
    a = build(case["a"])
    if op == "build":
        return desc(a)
    if op == "mul":
        return desc(a * build(case["b"]))
    if op == "compose":
        return desc(a.compose(build(case["b"])))
    if op == "iac":
        return desc(a.invert_and_compose(build(case["b"])))
    if op == "pinv":
        return desc(a.pseudoinvert())
    if op == "inv":
        return desc(a.invert())
    if op == "apply":
        return [dict(a.apply(p)) for p in case["points"]]
    if op == "eq":
        return a == build(case["b"])
    raise ValueError(op)

cases = json.load(sys.stdin)
json.dump([run(c) for c in cases], sys.stdout)
sys.stdout.flush()
os._exit(0)
'''

_ENCODING_ORACLE = r'''
import json, os, sys
from triton._C.libtriton import ir, gluon_ir
import triton.experimental.gluon.language._layouts as G
import triton.experimental.gluon.language.amd._layouts as A
ctx = ir.context(); ir.load_dialects(ctx); builder = gluon_ir.GluonOpBuilder(ctx)
cases = json.load(sys.stdin)
out = []
for c in cases:
    try:
        layout = eval(c["layout"], {"G": G, "A": A})
        r = builder.to_linear_layout(layout._to_ir(builder), c["shape"])
    except Exception as e:
        out.append({"error": repr(e)})
        continue
    if hasattr(r, "reg_bases"):
        out.append({"register": r.reg_bases, "lane": r.lane_bases, "warp": r.warp_bases, "block": r.block_bases})
    else:
        out.append({"offset": r.offset_bases, "block": r.block_bases})
json.dump(out, sys.stdout)
sys.stdout.flush()
os._exit(0)
'''


_MLIR_ORACLE = r'''
import json, os, sys, tempfile
from triton._C.libtriton import ir
ctx = ir.context(); ir.load_dialects(ctx)
cases = json.load(sys.stdin)
lines = ['module attributes {"ttg.num-warps" = %d : i32, "ttg.threads-per-warp" = %d : i32, "ttg.num-ctas" = 1 : i32} {'
         % (cases["warps"], cases["lanes"]), "  tt.func @f() {"]
for k, (attr, shape) in enumerate(cases["tensors"]):
    lines.append("    %%c%d = arith.constant dense<0> : tensor<%sxi32, %s>" % (k, "x".join(map(str, shape)), attr))
lines += ["    tt.return", "  }", "}"]
with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
    f.write("\n".join(lines))
m = ir.parse_mlir_module(f.name, ctx)
out = [l.split(" = ", 1)[1] for l in str(m).splitlines() if l.startswith("#linear")]
json.dump(out, sys.stdout)
sys.stdout.flush()
os._exit(0)
'''


_TEXT_ORACLE = r'''
import json, os, sys
from triton._C.libtriton import ir, gluon_ir
import triton.experimental.gluon.language._layouts as G
import triton.experimental.gluon.language.amd._layouts as A
import triton.experimental.gluon.language.nvidia.blackwell as BW
ctx = ir.context(); ir.load_dialects(ctx); b = gluon_ir.GluonOpBuilder(ctx)
elem = {"f16": b.get_half_ty(), "f32": b.get_float_ty(), "i8": b.get_int8_ty()}
cases = json.load(sys.stdin)
out = []
for c in cases:
    try:
        layout = eval(c["layout"], {"G": G, "A": A, "BW": BW})
        attr = layout._to_ir(b)
        ty = elem[c.get("elem", "f16")]
        if c["type"] == "dist":
            text = str(b.get_distributed_ty(ty, c["shape"], attr))
        elif c["type"] == "shared":
            text = str(b.get_shared_mem_desc_ty(ty, c["shape"], attr, c["shape"]))
        else:
            text = str(b.get_tensor_mem_desc_ty(ty, c["shape"], attr, c["shape"]))
        res = {"text": text}
        if c.get("views"):
            res["hw"] = layout.format_hardware_view(c["shape"])
            res["tv"] = layout.format_tensor_view(c["shape"])
        if c.get("linear"):
            r = b.to_linear_layout(attr, c["shape"])
            if hasattr(r, "reg_bases"):
                res["bases"] = {"register": r.reg_bases, "lane": r.lane_bases, "warp": r.warp_bases,
                                "block": r.block_bases}
            elif hasattr(r, "offset_bases"):
                res["bases"] = {"offset": r.offset_bases, "block": r.block_bases}
            else:
                res["bases"] = {"row": r.rows, "col": r.cols}
        out.append(res)
    except Exception as e:
        out.append({"error": repr(e)})
json.dump(out, sys.stdout)
sys.stdout.flush()
os._exit(0)
'''


_TMEM_REG_ORACLE = r'''
import json, os, sys
import triton.experimental.gluon.language as gl
import triton.experimental.gluon.language.nvidia.blackwell as BW
from triton._C.libtriton.gluon_ir import compute_tmem_reg_layout
out = []
for c in json.load(sys.stdin):
    try:
        ty = {8: gl.float8e4nv, 16: gl.float16, 32: gl.float32}[c["bits"]]
        r = compute_tmem_reg_layout(ty, c["shape"], c["shape"], BW.TensorMemoryLayout(tuple(c["block"]), c["cs"]),
                                    c["warps"], c.get("variant", "32x32b"))
        if r is None:
            raise ValueError("no layout")
        out.append({"register": r.reg_bases, "lane": r.lane_bases, "warp": r.warp_bases})
    except Exception as e:
        out.append({"error": repr(e)})
json.dump(out, sys.stdout)
sys.stdout.flush()
os._exit(0)
'''


_DEFAULT_SWIZZLE_ORACLE = r'''
import json, os, sys
import triton.experimental.gluon.language as gl
from triton.experimental.gluon.language._layouts import NVMMASharedLayout
ty = {8: gl.float8e4nv, 16: gl.float16, 32: gl.float32}
out = []
for c in json.load(sys.stdin):
    try:
        r = NVMMASharedLayout.get_default_for(c["shape"], ty[c["bits"]], transposed=c["transposed"],
                                              fp4_padded=c["fp4"], cga_layout=c["cga"])
        out.append([r.swizzle_byte_width, r.element_bitwidth, r.rank, r.transposed, r.fp4_padded])
    except Exception as e:
        out.append({"error": repr(e)})
json.dump(out, sys.stdout)
sys.stdout.flush()
os._exit(0)
'''


def triton_default_swizzle_oracle(cases: list) -> list:
    """Gluon's ``NVMMASharedLayout.get_default_for`` on ``[{"shape", "bits", "transposed", "fp4", "cga"}]``."""
    return _run(_DEFAULT_SWIZZLE_ORACLE, cases)


def triton_tmem_reg_oracle(cases: list) -> list:
    """``[{"block": [M, N], "cs", "shape", "warps", "bits", "variant"}]`` -> Gluon's TMEM register layouts."""
    return _run(_TMEM_REG_ORACLE, cases)


def triton_text_oracle(cases: list) -> list:
    """``[{"layout": Gluon expr, "shape", "type": dist|shared|tmem, "elem", "linear": bool}]`` ->
    ``{"text": Triton's printed type, "bases": {in-dim: bases}}`` (or ``{"error"}``), one subprocess."""
    return _run(_TEXT_ORACLE, cases)


def triton_mlir_print(warps: int, lanes: int, tensors: list) -> list:
    """Parse ``[(attr_text, shape), ...]`` as tensor encodings with Triton's MLIR parser and
    return the ``#ttg.linear`` attributes it prints back (one per distinct layout)."""
    return _run(_MLIR_ORACLE, {"warps": warps, "lanes": lanes, "tensors": tensors})


_MLIR_LAYOUT_ORACLE = r"""
import json, os, sys, tempfile
from triton._C.libtriton import ir, gluon_ir
out = []
for c in json.load(sys.stdin):
    ctx = ir.context(); ir.load_dialects(ctx); b = gluon_ir.GluonOpBuilder(ctx)
    shared = c["type"].startswith("!ttg.memdesc")
    tmem = "#ttng.tensor_memory," in c["type"] or "#ttng.tensor_memory>" in c["type"]
    op = ("    %%v = ttng.tmem_alloc : () -> %s" if tmem else "    %%v = ttg.local_alloc : () -> %s" if shared
          else "    %%v = arith.constant dense<0> : %s") % c["type"]
    head = "  tt.func @f(%%a: %s) {" % c["type"] if c.get("arg") else "  tt.func @f() {"
    src = "\n".join(c.get("aliases", []) + ['module attributes {"ttg.num-warps" = %d : i32, "ttg.threads-per-warp" = '
                     '%d : i32, "ttg.num-ctas" = %d : i32} {' % (c["warps"], c["lanes"], c.get("ctas", 1)),
                     head] + ([] if c.get("arg") else [op]) + ["    tt.return", "  }", "}"])
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(src)
    try:
        m = ir.parse_mlir_module(f.name, ctx)
        m.context = ctx
        if not m.verify():
            raise ValueError("verifier rejects")
        if c.get("arg"):  # only whether Triton's parser and verifier take the type (as a function argument)
            out.append({"accepted": True})
            continue
        vals = []
        m.walk(lambda o: vals.append(o.get_result(0)) if o.get_name() in ("arith.constant", "ttg.local_alloc",
                                                                            "ttng.tmem_alloc") else None)
        lay = b.get_gluon_layout_from_memdesc(vals[0]) if shared else b.get_gluon_layout_from_tensor(vals[0])
        r = b.to_linear_layout(lay._to_ir(b), c["shape"])
        if hasattr(r, "reg_bases"):
            out.append({"register": r.reg_bases, "lane": r.lane_bases, "warp": r.warp_bases, "block": r.block_bases})
        elif hasattr(r, "offset_bases"):
            out.append({"offset": r.offset_bases, "block": r.block_bases})
        else:  # tensor memory: Gluon gives the row and col bases
            out.append({"row": r.rows, "col": r.cols})
    except Exception as e:
        out.append({"error": (str(e).strip().splitlines() or [repr(e)])[-1][:300]})
json.dump(out, sys.stdout)
sys.stdout.flush()
os._exit(0)
"""


def triton_mlir_layouts(cases: list) -> list:
    """``[{"type": tensor or memdesc type text, "shape", "warps", "lanes", "ctas"?, "aliases"?: [lines], "arg"?}]`` ->
    Triton's bases for each type as its MLIR parser (and verifier) reads it in a module, or ``{"error"}``
    (``{"error": "abort: .."}`` where Triton aborts the process: that case is found by halves). With ``"arg"``
    the type is a function argument and the answer only ``{"accepted": True}`` or the error."""
    return _run_isolating_aborts(_MLIR_LAYOUT_ORACLE, cases)


def _run_isolating_aborts(script: str, cases: list) -> list:
    """``_run``, except that a case aborting Triton's process answers ``{"error": "abort: .."}`` (found by halves)."""
    try:
        return _run(script, cases)
    except RuntimeError as e:
        if len(cases) == 1:
            lines = str(e).splitlines()  # "triton oracle failed (rc N):", then its stderr (none on a SIGFPE)
            return [{"error": "abort: " + (lines[1] if len(lines) > 1 else lines[0])[:300]}]
        half = len(cases) // 2
        return _run_isolating_aborts(script, cases[:half]) + _run_isolating_aborts(script, cases[half:])


def _have_triton() -> bool:
    try:
        import importlib.util

        return importlib.util.find_spec("triton") is not None
    except Exception:
        return False


def _run(script: str, cases: list) -> list:
    """Run ``script`` in a subprocess with ``cases`` as JSON on stdin; its JSON stdout (skips without triton)."""
    if not _have_triton():
        pytest.skip("triton is not installed")
    proc = subprocess.run(
        [sys.executable, "-c", script],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "TRITON_DISABLE_LINE_INFO": "1"},
    )
    if proc.returncode != 0:
        if "ImportError" in proc.stderr or "ModuleNotFoundError" in proc.stderr:
            pytest.skip(f"triton is not importable: {proc.stderr.strip().splitlines()[-1]}")
        raise RuntimeError(f"triton oracle failed (rc {proc.returncode}):\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout)


def triton_oracle(cases: list) -> list:
    """Run cases against triton.tools.LinearLayout in one subprocess (skips without triton)."""
    return _run(_ORACLE, cases)


def triton_encoding_oracle(cases: list) -> list:
    """``[{"layout": "G.BlockedLayout(...)", "shape": [..]}] -> bases per in-dim`` via Gluon."""
    return _run(_ENCODING_ORACLE, cases)


def per_kind(default: int) -> int:
    """Random cases per encoding kind: ``default`` in CI, ``UNILAYOUT_SWEEP`` (e.g. 500) for the full sweep."""
    return int(os.environ.get("UNILAYOUT_SWEEP", default))


def load():
    return sys.modules[__name__]


def to_json(L: LinearLayout) -> dict:
    """A layout as the oracle's JSON description."""
    return {"bases": [[n, b] for n, b in L.bases], "outs": [[n, s] for n, s in L.out_dims]}


def describe(L: LinearLayout) -> dict:
    """unilayout's answers in the oracle's format."""
    return {
        "str": str(L),
        "bases": [[n, b] for n, b in L.bases],
        "outs": [[n, s] for n, s in L.out_dims],
        "surj": L.is_surjective(),
        "inj": L.is_injective(),
        "inv": L.is_invertible(),
        "matrix": L.get_matrix_view(),
    }


IN_NAMES = ["register", "lane", "warp", "block"]


def random_layout(rng: random.Random, *, outs=None, surjective=None, max_in_bits=3, max_out_bits=3,
                  in_names=None) -> LinearLayout:
    """A random valid layout (small enough for Triton's 64-bit caps)."""
    if outs is None:
        k = rng.randint(1, 3)
        outs = [(f"dim{j}", 1 << rng.randint(0, max_out_bits)) for j in range(k)]
    names = in_names if in_names is not None else [n for n in IN_NAMES if rng.random() < 0.7] or ["register"]
    for _ in range(200):
        bases = []
        for n in names:
            vecs = []
            for _ in range(rng.randint(0, max_in_bits)):
                r = rng.random()
                if r < 0.5:  # a unit-ish vector: one nonzero power of two
                    j = rng.randrange(len(outs))
                    s = outs[j][1]
                    v = [0] * len(outs)
                    if s > 1:
                        v[j] = 1 << rng.randrange(s.bit_length() - 1)
                    vecs.append(v)
                elif r < 0.6:
                    vecs.append([0] * len(outs))
                else:
                    vecs.append([rng.randrange(s) for _, s in outs])
            bases.append((n, vecs))
        L = LinearLayout(bases, outs, require_surjective=False)
        if surjective is None or L.is_surjective() == surjective:
            return L
    # Fall back to a surjective one by construction: identities on every out-dim.
    L = LinearLayout.empty()
    for name, size in outs:
        L = L * LinearLayout.identity_1d(size, names[0], name)
    return L


# ------------------------------------------------------------------ random encodings
def _p2(rng, lo, hi):
    return 1 << rng.randint(lo, hi)


def _split(rng, total_log2, rank):
    parts = [0] * rank
    for _ in range(total_log2):
        parts[rng.randrange(rank)] += 1
    return [1 << x for x in parts]


def _unit_bases(rng, rank, count, allow_zero=False, counts=None):
    counts = counts if counts is not None else [0] * rank
    out = []
    for _ in range(count):
        d = rng.randrange(rank + (1 if allow_zero else 0))
        v = [0] * rank
        if d < rank:
            v[d] = 1 << counts[d]
            counts[d] += 1
        out.append(v)
    return out


def random_case(rng, kind):
    """(gluon constructor text, unilayout encoding object, shape)."""
    if kind == "blocked":
        rank = rng.randint(1, 3)
        spt = [_p2(rng, 0, 2) for _ in range(rank)]
        tpw = _split(rng, rng.choice([5, 6]), rank)
        wpc = _split(rng, rng.randint(0, 3), rank)
        order = list(range(rank))
        rng.shuffle(order)
        shape = [_p2(rng, 0, 7) for _ in range(rank)]
        cga = _unit_bases(rng, rank, rng.randint(1, 2)) if rng.random() < 0.3 else None
        text = f"G.BlockedLayout({spt},{tpw},{wpc},{order}" + (f", cga_layout={cga})" if cga else ")")
        return text, E.Blocked(spt, tpw, wpc, order, cga), shape
    if kind == "mma2":
        rank = rng.choice([2, 2, 3])
        wpc = _split(rng, rng.randint(0, 3), rank)
        instr = [1] * (rank - 2) + [16, 8]
        shape = [_p2(rng, 0, 2) for _ in range(rank - 2)] + [_p2(rng, 3, 8), _p2(rng, 2, 7)]
        cga = _unit_bases(rng, rank, 1) if rng.random() < 0.25 else None
        text = f"G.NVMMADistributedLayout([2,0],{wpc},{instr}" + (f", cga_layout={cga})" if cga else ")")
        return text, E.NvidiaMma([2, 0], wpc, instr, cga), shape
    if kind == "mma3":
        wpc = rng.choice([[4, 1], [4, 2], [8, 1], [4, 4]])
        instr = [16, _p2(rng, 3, 8), 16]
        shape = [_p2(rng, 4, 8), _p2(rng, 3, 8)]
        cga = _unit_bases(rng, 2, 1) if rng.random() < 0.25 else None
        text = f"G.NVMMADistributedLayout([3,0],{wpc},{instr}" + (f", cga_layout={cga})" if cga else ")")
        return text, E.NvidiaMma(3, wpc, instr, cga), shape
    if kind == "dot":
        rank = rng.choice([2, 2, 3])
        wpc = _split(rng, rng.randint(0, 3), rank)
        op, kw = rng.randint(0, 1), rng.choice([1, 2, 4, 8])
        instr = [1] * (rank - 2) + [16, 8]
        shape = [_p2(rng, 0, 2) for _ in range(rank - 2)] + [_p2(rng, 3, 8), _p2(rng, 3, 8)]
        text = f"G.DotOperandLayout({op}, G.NVMMADistributedLayout([2,0],{wpc},{instr}), {kw})"
        return text, E.DotOperand(op, E.NvidiaMma([2, 0], wpc, instr), kw), shape
    if kind == "mfma":
        rank = rng.choice([2, 2, 3])
        wpc = _split(rng, rng.randint(0, 3), rank)
        mn = rng.choice([16, 32])
        k = 8 if mn == 32 else 16
        tr = rng.random() < 0.5
        tpw = [1] * (rank - 2) + [_p2(rng, 0, 1), _p2(rng, 0, 1)] if rng.random() < 0.5 else None
        ver = rng.choice([3, 4])
        shape = [_p2(rng, 0, 2) for _ in range(rank - 2)] + [_p2(rng, 3, 8), _p2(rng, 3, 8)]
        cga = _unit_bases(rng, rank, 1) if rng.random() < 0.25 else None
        text = (f"A.AMDMFMALayout({ver},[{mn},{mn},{k}],{tr},{wpc}" + (f", tiles_per_warp={tpw}" if tpw else "")
                + (f", cga_layout={cga})" if cga else ")"))
        return text, E.AmdMfma(ver, [mn, mn, k], tr, wpc, tiles_per_warp=tpw, cga_layout=cga), shape
    if kind == "wmma":
        ver = rng.choice([1, 2, 3])
        tr = rng.random() < 0.5
        counts = [0, 0]
        rb = _unit_bases(rng, 2, rng.randint(0, 2), counts=counts) if rng.random() < 0.5 else None
        wb = _unit_bases(rng, 2, rng.randint(0, 3), allow_zero=True, counts=counts)
        instr = [16, 16, 16] if ver < 3 else [16, 16, 32]
        shape = [_p2(rng, 4, 7), _p2(rng, 4, 7)]
        cga = _unit_bases(rng, 2, 1) if rng.random() < 0.25 else None
        text = (f"A.AMDWMMALayout({ver},{tr},{wb}" + (f", reg_bases={rb}" if rb else "") + f", instr_shape={instr}"
                + (f", cga_layout={cga})" if cga else ")"))
        return text, E.AmdWmma(ver, tr, wb, rb, instr, cga), shape
    if kind == "slice":
        dim = rng.randint(0, 1)
        shape = [_p2(rng, 0, 8)]
        which = rng.choice(["blocked", "mma2", "mfma"])
        while True:
            text, parent, pshape = random_case(rng, which)
            if len(pshape) == 2:
                break
        return f"G.SliceLayout({dim}, {text})", E.Slice(dim, parent), shape
    if kind == "shared":
        rank = rng.choice([1, 2, 2, 3])
        vec, pp, mp = _p2(rng, 0, 3), _p2(rng, 0, 3), _p2(rng, 0, 3)
        order = list(range(rank))
        rng.shuffle(order)
        shape = [_p2(rng, 0, 6) for _ in range(rank)]
        if shape == [1] * rank:
            shape[0] = 2
        cga = _unit_bases(rng, rank, 1) if rng.random() < 0.2 and max(shape) > 1 else None
        total = 1
        for x in shape:
            total *= x
        if cga and (shape[cga[0].index(1)] == 1 or total < 4):
            cga = None
        text = f"G.SwizzledSharedLayout({vec},{pp},{mp},{order}" + (f", cga_layout={cga})" if cga else ")")
        return text, E.SwizzledShared(vec, pp, mp, order, cga), shape
    if kind == "mfma_new":  # 64-bit elements, 4x64 and 64x4 instructions, every version
        rank = rng.choice([2, 2, 3])
        wpc = _split(rng, rng.randint(0, 3), rank)
        ver = rng.randint(1, 4)
        mn, ebw = rng.choice([([32, 32, 4], 64), ([16, 16, 4], 64), ([4, 64, 4], 32), ([64, 4, 4], 32),
                              ([32, 32, 8], 32), ([16, 16, 16], 32)])
        tr = True if mn[0] == 64 else rng.random() < 0.5
        tpw = [1] * (rank - 2) + [_p2(rng, 0, 1), _p2(rng, 0, 1)] if rng.random() < 0.5 else None
        shape = [_p2(rng, 0, 2) for _ in range(rank - 2)] + [_p2(rng, 2, 8), _p2(rng, 2, 8)]
        cga = _unit_bases(rng, rank, 1) if rng.random() < 0.25 else None
        text = (f"A.AMDMFMALayout({ver},{mn},{tr},{wpc}, element_bitwidth={ebw}"
                + (f", tiles_per_warp={tpw}" if tpw else "") + (f", cga_layout={cga})" if cga else ")"))
        return text, E.AmdMfma(ver, mn, tr, wpc, ebw, tpw, cga), shape
    if kind == "nvmma_shared":
        for _ in range(100):
            rank = rng.choice([1, 2, 2, 2, 3])
            swz = rng.choice([0, 32, 64, 128])
            ebw = rng.choice([8, 16, 32])
            fp4 = swz == 128 and ebw == 8 and rng.random() < 0.4
            tr = rng.random() < 0.3
            shape = [_p2(rng, 0, 2) for _ in range(rank - 2)] + [_p2(rng, 2, 9) for _ in range(min(rank, 2))]
            cga = _unit_bases(rng, rank, 1) if rng.random() < 0.25 else None
            enc = E.NvmmaShared(swz, ebw, tr, fp4, cga, rank)
            try:
                enc.to_linear(shape)
            except Exception:
                continue
            text = (f"G.NVMMASharedLayout({swz},{ebw},rank={rank},transposed={tr},fp4_padded={fp4}"
                    + (f", cga_layout={cga})" if cga else ")"))
            return text, enc, shape
        raise RuntimeError("no valid nvmma_shared case")
    if kind == "shared_linear":
        rank = rng.choice([1, 2, 2, 3])
        shape = [_p2(rng, 0, 4) for _ in range(rank)]
        units = [[1 << k if j == d else 0 for j in range(rank)] for d in range(rank)
                 for k in range(shape[d].bit_length() - 1)]
        if not units:
            shape[0], units = 2, [[1] + [0] * (rank - 1)]
        rng.shuffle(units)
        offset = [list(u) for u in units]
        for i in range(1, len(offset)):  # swizzle-like: XOR an earlier basis into a later one
            if rng.random() < 0.3:
                src = offset[rng.randrange(i)]
                offset[i] = [a ^ b for a, b in zip(offset[i], src)]
        nb = rng.randint(0, min(1, len(offset) - 1))
        block = [offset.pop() for _ in range(nb)]
        align = 1 << rng.randint(4, 10)
        text = f"G.SharedLinearLayout({offset}, {block}, alignment={align})"
        return text, E.SharedLinear(offset, block, align), list(E.SharedLinear(offset, block, align).shape)
    if kind == "padded_shared":
        rank = rng.choice([1, 2, 2, 3])
        shape = [_p2(rng, 0, 5) for _ in range(rank)]
        intervals = rng.sample([4, 8, 16, 32, 64, 128], rng.randint(1, 2))
        pairs = [[i, _p2(rng, 0, 3)] for i in intervals]
        if rng.random() < 0.5:
            order = list(range(rank))
            rng.shuffle(order)
            text = f"G.PaddedSharedLayout.with_identity_for({pairs}, {shape}, {order})"
            return text, E.PaddedShared(pairs, order, shape), shape
        if shape == [1] * rank:  # no bases: the rank would only be known from the shape
            shape[0] = 2
        units = [[1 << k if j == d else 0 for j in range(rank)] for d in range(rank)
                 for k in range(shape[d].bit_length() - 1)]
        rng.shuffle(units)
        text = f"G.PaddedSharedLayout({pairs}, {units}, [], {shape})"
        return text, E.PaddedShared(pairs, offset_bases=units, block_bases=[]), shape
    if kind == "tmem":
        bm = rng.choice([64, 128])
        bn = _p2(rng, 0, 8)
        cs = rng.choice([1, 1, 2])
        shape = [_p2(rng, 6, 8), _p2(rng, 0, 8)]
        if bm == 128 and shape[0] < 128:
            shape[0] = 128
        cga, two = None, False
        r = rng.random()
        if r < 0.15:
            cga, two = [[1, 0]], rng.random() < 0.5
            if two and bm == 64:  # Triton 3.9.0 crashes when half a block holds no column
                bn = max(bn, 2)
                shape[1] = max(shape[1], bn)
            shape[0] *= 2
        elif r < 0.3:
            cga = [[0, 1]]
            shape[1] = max(shape[1], 2)
        text = (f"BW.TensorMemoryLayout(({bm},{bn}),{cs}" + (f", cga_layout={cga}" if cga else "")
                + (", two_ctas=True)" if two else ")"))
        return text, E.TensorMemory(bm, bn, cs, cga, two), shape
    if kind == "tmem_scales":
        shape = [_p2(rng, 5, 8), _p2(rng, 0, 4)]
        return "BW.TensorMemoryScalesLayout()", E.TensorMemoryScales(), shape
    if kind == "dot_amd":
        parent_kind = rng.choice(["mfma", "wmma"])
        while True:
            ptext, parent, shape = random_case(rng, parent_kind)
            if len(shape) == 2 or parent_kind == "mfma":  # MFMA parents of rank 3 (batch) too
                break
        op, kw = rng.randint(0, 1), rng.choice([4, 8, 16])
        return f"G.DotOperandLayout({op}, {ptext}, {kw})", E.DotOperand(op, parent, kw), shape
    raise ValueError(kind)


#: Kinds whose layouts unilayout computes and Triton checks (``to_linear`` vs Gluon's conversion).
LINEAR_KINDS = ["blocked", "mma2", "mma3", "dot", "mfma", "mfma_new", "wmma", "slice", "shared", "nvmma_shared",
                "shared_linear", "dot_amd"]
#: Kinds whose text is checked too (Triton has no linear layout for padding; tensor memory is
#: checked by rows/cols in test_ttgir.py).
TEXT_KINDS = LINEAR_KINDS + ["padded_shared", "tmem", "tmem_scales"]
#: How Gluon's object is turned into a type, per kind (what the oracle prints).
TYPE_OF = {k: "dist" for k in TEXT_KINDS}
TYPE_OF.update({k: "shared" for k in ("shared", "nvmma_shared", "shared_linear", "padded_shared")})
TYPE_OF.update({k: "tmem" for k in ("tmem", "tmem_scales")})




_RESHAPE_ORACLE = r"""
import json, os, re, sys, tempfile
from triton._C.libtriton import ir, gluon_ir
out = []
for c in json.load(sys.stdin):
    ctx = ir.context(); ir.load_dialects(ctx); b = gluon_ir.GluonOpBuilder(ctx)
    t = "!ttg.memdesc<%sxf16, #s, #smem, mutable>" % "x".join(map(str, c["shape"]))
    src = "\n".join(["#s = " + c["enc"], "#smem = #ttg.shared_memory",
                     'module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, '
                     '"ttg.num-ctas" = %d : i32} {' % c.get("ctas", 1), "  tt.func @f() {",
                     "    %%v = ttg.local_alloc : () -> %s" % t, "    tt.return", "  }", "}"])
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(src)
    try:
        m = ir.parse_mlir_module(f.name, ctx)
        m.context = ctx
        if not m.verify():
            raise ValueError("verifier rejects")
        printed = [l.split(" = ", 1)[1] for l in str(m).splitlines() if l.startswith("#s")]
        ops = []
        m.walk(lambda o: ops.append(o) if o.get_name() == "ttg.local_alloc" else None)
        b.set_insertion_point_after(ops[0])
        got = str(b.create_memdesc_reshape(ops[0].get_result(0), c["shape"]).get_type())
        def grab(name):  # the balanced [...] after "name = " in the printed #ttg.shared_linear
            i = got.find(name + " = [", got.find("#ttg.shared_linear<"))
            if i < 0:
                return []
            i += len(name) + 3
            depth = 0
            for k in range(i, len(got)):
                depth += {"[": 1, "]": -1}.get(got[k], 0)
                if depth == 0:
                    return json.loads(got[i:k + 1])
        out.append({"text": printed[0], "offset": grab("offset"), "block": grab("block")})
    except Exception as e:
        out.append({"error": (str(e).strip().splitlines() or [repr(e)])[-1][:300]})
json.dump(out, sys.stdout)
sys.stdout.flush()
os._exit(0)
"""


def triton_shared_via_reshape(cases: list) -> list:
    """``[{"enc": shared attribute text, "shape", "ctas"?}]`` -> ``{"text": Triton's printed attribute,
    "offset", "block": the bases of its toLinearLayout}`` (or ``{"error"}``). For encodings Gluon has no
    Python class for (``#ttg.amd_rotating_shared``): a ``ttg.memdesc_reshape`` to the same shape infers its
    result encoding from ``toLinearLayout`` and prints it as ``#ttg.shared_linear``. One subprocess; send
    only cases unilayout accepts. Where the layout is not injective (a CGA layout can make it so) Triton
    aborts building the #ttg.shared_linear: that case answers ``{"error": "abort: .."}``."""
    return _run_isolating_aborts(_RESHAPE_ORACLE, cases)


def random_rotating(rng: random.Random):
    """``(AmdRotatingShared, shape, ctas)``: random fields (vec >= 0, perPhase, maxPhase >= 1, not only powers
    of two: Triton takes them), order, a power-of-two shape of rank 1-3, and sometimes a CGA layout."""
    rank = rng.choice([1, 2, 2, 2, 3])
    vec, pp, mp = rng.choice([0, 1, 2, 4, 8, 16, 3]), rng.choice([1, 1, 2, 4, 3]), rng.choice([1, 2, 4, 8, 16, 5])
    order = list(range(rank))
    rng.shuffle(order)
    shape = [_p2(rng, 0, 7) for _ in range(rank)]
    if shape == [1] * rank:
        shape[0] = 2
    cga = None
    if rng.random() < 0.25:
        big = [d for d in range(rank) if shape[d] > 1]
        d = rng.choice(big)
        cga = [[1 if j == d else 0 for j in range(rank)]]
    return E.AmdRotatingShared(vec, pp, mp, order, cga), shape, 2 if cga else 1
