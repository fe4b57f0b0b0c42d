"""Contiguity along the layout's fastest dim, checked against Triton 3.9's own layouts.

Triton prints each tensor / memdesc type and builds its linear layout (Gluon's
``to_linear_layout``); the oracle then measures, by applying Triton's
``LinearLayout`` to every input, how many consecutive slots of the first in-dim
land on consecutive elements of the fastest dim (Triton's ``getOrder()[0]``).
unilayout reads Triton's printed text and must report the same number.
"""

import random

import pytest
from linear_helpers import _p2, _run, _split

import unilayout
from unilayout.linear import LinearLayout
from unilayout.linear.analysis import contiguity, fastest_dim
from unilayout.linear.family import LINEAR

_ORACLE = r'''
import json, os, sys, itertools
from triton._C.libtriton import ir, gluon_ir
from triton.tools import LinearLayout as LL
import triton.experimental.gluon.language._layouts as G
import triton.experimental.gluon.language.amd._layouts as A
ctx = ir.context(); ir.load_dialects(ctx); b = gluon_ir.GluonOpBuilder(ctx)
elem = {"f16": b.get_half_ty(), "f32": b.get_float_ty(), "i8": b.get_int8_ty()}

def measure(bases, shape):
    """Brute force over Triton's LinearLayout: fastest dim = the dim the first in-dim's first non-zero basis
    moves (else the last); V = the largest power of two such that every input whose first in-dim is a multiple
    of V, plus r < V, lands r further along the fastest dim (from a multiple of V) and nowhere else."""
    names = list(bases)
    outs = ["dim%d" % i for i in range(len(shape))]
    L = LL.from_bases([(n, bases[n]) for n in names], outs, list(shape), False)
    first = bases[names[0]]
    fast = next((i for v in first for i, x in enumerate(v) if x), len(shape) - 1)
    sizes = [1 << len(bases[n]) for n in names]
    pts = [dict(zip(names, p)) for p in itertools.product(*[range(s) for s in sizes])]
    img = {tuple(sorted(p.items())): L.apply(p) for p in pts}
    def at(p):
        return dict(img[tuple(sorted(p.items()))])
    best = 1
    v = 2
    while v <= sizes[0]:
        ok = True
        for p in pts:
            if p[names[0]] % v:
                continue
            base = at(p)
            if base["dim%d" % fast] % v:
                ok = False
                break
            for r in range(1, v):
                q = dict(p); q[names[0]] += r
                got = at(q)
                want = dict(base); want["dim%d" % fast] += r
                if got != want:
                    ok = False
                    break
            if not ok:
                break
        if not ok:
            break
        best, v = v, 2 * v
    return best, "dim%d" % fast

out = []
for c in json.load(sys.stdin):
    try:
        layout = eval(c["layout"], {"G": G, "A": A})
        attr = layout._to_ir(b)
        ty = elem[c["elem"]]
        if c["type"] == "dist":
            text = str(b.get_distributed_ty(ty, c["shape"], attr))
        else:
            text = str(b.get_shared_mem_desc_ty(ty, c["shape"], attr, c["shape"]))
        r = b.to_linear_layout(attr, c["shape"])
        if hasattr(r, "reg_bases"):
            bases = {"register": r.reg_bases, "lane": r.lane_bases, "warp": r.warp_bases, "block": r.block_bases}
            # only thread 0 of warp 0 of block 0 matters for registers: Triton counts per thread
            bases = {"register": r.reg_bases}
        else:
            bases = {"offset": r.offset_bases}
        n, dim = measure(bases, c["shape"])
        out.append({"text": text, "contiguity": n, "fastest": dim})
    except Exception as e:
        out.append({"error": repr(e)})
json.dump(out, sys.stdout)
sys.stdout.flush()
os._exit(0)
'''


def _cases(seed=23, n=40):
    rng = random.Random(seed)
    cases = [
        # the README's row-major blocked layout, its column-major mirror, NVMMA 128B shared
        {"layout": "G.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])", "shape": [128, 64], "type": "dist", "elem": "f16"},
        {"layout": "G.BlockedLayout([8, 1], [8, 4], [1, 4], [0, 1])", "shape": [64, 128], "type": "dist", "elem": "f16"},
        {"layout": "G.NVMMASharedLayout(128, 16, 2)", "shape": [128, 64], "type": "shared", "elem": "f16"},
        {"layout": "G.NVMMASharedLayout(128, 16, 2, transposed=True)", "shape": [64, 128], "type": "shared",
         "elem": "f16"},
        {"layout": "G.NVMMASharedLayout(64, 8, 2)", "shape": [64, 64], "type": "shared", "elem": "i8"},
        {"layout": "G.NVMMASharedLayout(0, 32, 2)", "shape": [32, 32], "type": "shared", "elem": "f32"},
        {"layout": "G.NVMMADistributedLayout([3, 0], [4, 1], [16, 64, 16])", "shape": [64, 64], "type": "dist",
         "elem": "f32"},
        {"layout": "G.NVMMADistributedLayout([2, 0], [2, 2], [16, 8])", "shape": [64, 64], "type": "dist",
         "elem": "f32"},
        {"layout": "G.SliceLayout(1, G.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0]))", "shape": [64],
         "type": "dist", "elem": "f32"},
        {"layout": "A.AMDMFMALayout(3, [32, 32, 8], True, [2, 2])", "shape": [64, 64], "type": "dist", "elem": "f32"},
        {"layout": "A.AMDMFMALayout(3, [32, 32, 8], False, [2, 2])", "shape": [64, 64], "type": "dist",
         "elem": "f32"},
    ]
    for _ in range(n):
        rank = rng.choice([2, 2, 3])
        shape = [_p2(rng, 1, 5) for _ in range(rank)]
        order = list(range(rank))
        rng.shuffle(order)
        if rng.random() < 0.7:
            spt = [_p2(rng, 0, 3) for _ in range(rank)]
            layout = f"G.BlockedLayout({spt}, {_split(rng, 5, rank)}, {_split(rng, rng.randint(0, 2), rank)}, {order})"
            cases.append({"layout": layout, "shape": shape, "type": "dist", "elem": "f16"})
        else:
            layout = f"G.SwizzledSharedLayout({_p2(rng, 0, 3)}, {_p2(rng, 0, 2)}, {_p2(rng, 0, 3)}, {order})"
            cases.append({"layout": layout, "shape": shape, "type": "shared", "elem": "f16"})
    return cases


def test_contiguity_is_counted_along_the_fastest_dim_as_triton_does():
    cases = _cases()
    got = _run(_ORACLE, cases)
    checked = 0
    for case, want in zip(cases, got):
        if "error" in want:
            continue
        L = unilayout.parse(want["text"])
        assert fastest_dim(L) == want["fastest"], (case, want)
        assert contiguity(L) == want["contiguity"], (case, want)
        assert LINEAR.facts(L, None)["contiguity"] == want["contiguity"], (case, want)
        checked += 1
    assert checked >= 40


def test_readme_row_major_blocked_holds_eight_along_dim1():
    text = ("#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], "
            "order = [1, 0]}>\ntensor<128x64xf16, #blocked>")
    L = unilayout.parse(text)
    assert (fastest_dim(L), contiguity(L)) == ("dim1", 8)


def test_register_contiguity_stops_at_a_basis_that_leaves_the_fastest_dim():
    L = LinearLayout({"register": [[0, 1], [1, 1], [0, 2]]}, {"dim0": 2, "dim1": 4})
    assert (fastest_dim(L), contiguity(L)) == ("dim1", 2)


@pytest.mark.parametrize("L", [LinearLayout({}, {}), LinearLayout({"register": []}, {"dim0": 1})])
def test_layouts_without_bases_have_contiguity_one(L):
    assert contiguity(L) == 1
