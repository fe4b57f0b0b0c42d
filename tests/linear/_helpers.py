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


def triton_mlir_print(warps: int, lanes: int, tensors: list) -> list:
    """Parse ``[(attr_text, shape), ...]`` as tensor encodings with Triton's MLIR parser and
    return the ``#ttg.linear`` attributes it prints back (one per distinct layout)."""
    if not _have_triton():
        pytest.skip("triton is not installed")
    return _run(_MLIR_ORACLE, {"warps": warps, "lanes": lanes, "tensors": tensors})


def _have_triton() -> bool:
    try:
        import importlib.util

        return importlib.util.find_spec("triton") is not None
    except Exception:
        return False


def _run(script: str, cases: list) -> list:
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
    if not _have_triton():
        pytest.skip("triton is not installed")
    return _run(_ORACLE, cases)


def triton_encoding_oracle(cases: list) -> list:
    """``[{"layout": "G.BlockedLayout(...)", "shape": [..]}] -> bases per in-dim`` via Gluon."""
    if not _have_triton():
        pytest.skip("triton is not installed")
    return _run(_ENCODING_ORACLE, cases)


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
