"""Record TVM TIRx's own answers for seeded random ``TileLayout``/``ComposeLayout`` values: tests/axe/data/facts.json.

Run with the interpreter that has ``apache-tvm-tirx`` (it is not a dependency
of unilayout: 45 MB)::

    /tmp/axv/bin/python bench/axe_facts.py            # writes tests/axe/data/facts.json
    /tmp/axv/bin/python bench/axe_facts.py --speed    # times unilayout's table against TIRx's apply per point

For every layout it stores the iters and offsets it was built from, the text
TIRx prints (``str(layout)``), ``size()``, ``span(axis)`` per axis, and
``apply(i)`` for every linear index of the domain plus a few outside it and
some multi-index calls; for the paper's ``S[...] + R[...] + offset`` texts, the
layout TIRx builds from them (evaluated with TIRx's own ``S``/``R``/``@``).
It also stores the axes TIRx registers (CUDA and Trainium backends) with their
kind and scopes. ``tests/axe`` checks unilayout against this file.
"""

from __future__ import annotations

import json
import pathlib
import random
import sys

import tvm_tirx
import tvm_tirx.backend.cuda.axis as cuda_axis
import tvm_tirx.backend.trn.axis as trn_axis
from tvm_tirx.tirx.layout import Axis, ComposeLayout, Iter, R, S, TileLayout

SEED = 2026
OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "axe" / "data" / "facts.json"
AXES = ("m",) + cuda_axis._NAMES + trn_axis._NAMES
USE = ("m", "m", "m", "laneid", "warpid", "wgid", "tid_in_wg", "bx", "by", "TLane", "TCol", "P", "F", "Bank", "tx")
ANALYZER = tvm_tirx.sym.Analyzer()


def _int(x):
    return int(ANALYZER.simplify(x)) if not isinstance(x, int) else x


def _apply(layout, *args, **kw):
    return {str(k): _int(v) for k, v in layout.apply(*args, **kw).items()}


def _axes():
    out = []
    for name in AXES:
        a = Axis.get(name)
        scope, sub = a.get_scope(), a.get_subscope()
        out.append({"name": name, "thread": bool(a.is_thread()), "memory": bool(a.is_memory()), "backend": a.backend,
                    "scope": None if scope is None else str(scope), "subscope": None if sub is None else str(sub)})
    return out


def _iters(rng, n, size_cap):
    its, size = [], 1
    for _ in range(n):
        e = rng.choice([1, 2, 2, 3, 4, 4, 8])
        if size * e > size_cap:
            e = 1
        size *= e
        its.append([e, rng.choice([0, 1, 1, 2, 3, 4, 8, 16, -1]), rng.choice(USE)])
    return its


def _record(layout, spec, rng, kind):
    size = _int(layout.size())
    rec = dict(spec, kind=kind, tirx=str(layout), size=size, span_default=_int(layout.span()))
    if kind == "tile":  # a ComposeLayout answers span() only for its memory axis
        axes = {it[2] for it in spec["shard"] + spec["replica"]} | set(spec["offset"])
        rec["span"] = {a: _int(layout.span(a)) for a in sorted(axes)}
    rec["apply"] = [_apply(layout, i) for i in range(size)]
    rec["apply_outside"] = [[i, _apply(layout, i)] for i in (size, size + 3, -1, -size - 2)]
    shard = [it[0] for it in spec["shard"]]
    if len(shard) > 1:
        calls = []
        for _ in range(3):
            crd = [rng.randrange(-1, e + 2) for e in shard]
            calls.append([crd, _apply(layout, *crd)])
        rec["apply_multi"] = calls
    return rec


def _tile(spec):
    mk = lambda its: [Iter(e, s, a) for e, s, a in its]  # noqa: E731
    return TileLayout.from_iters(mk(spec["shard"]), mk(spec["replica"]), dict(spec["offset"]))


def random_layouts(rng, n):
    out = []
    for k in range(n):
        spec = {"shard": _iters(rng, rng.randint(0 if k % 17 == 0 else 1, 4), 256),
                "replica": _iters(rng, rng.choice([0, 0, 1, 2]), 16),
                "offset": {a: rng.randrange(0, 10) for a in rng.sample(USE, rng.choice([0, 0, 1, 2]))}}
        out.append(_record(_tile(spec), spec, rng, "tile"))
    for _ in range(n // 4):  # swizzles on the memory axis
        shard = [[e, s, "m"] for e, s in zip([rng.choice([2, 4, 8]) for _ in range(2)], [0, 1])]
        shard[0][1] = shard[1][0] * rng.choice([1, 2])
        spec = {"shard": shard, "replica": [], "offset": {"m": rng.choice([0, 0, 4])} if rng.random() < .5 else {}}
        b = rng.randrange(0, 4)
        sw = {"per_element": rng.randrange(0, 3), "swizzle_len": b, "atom_len": rng.randrange(b, 4),
              "swizzle_inner": rng.random() < .6}
        layout = ComposeLayout(sw["per_element"], sw["swizzle_len"], sw["atom_len"], _tile(spec), sw["swizzle_inner"])
        out.append(_record(layout, dict(spec, **sw), rng, "compose"))
    return out


def bit_layouts(rng, n):
    """Layouts whose iters partition each axis's bits (power-of-two extents and strides): linear layouts."""
    out = []
    for _ in range(n):
        axes = rng.sample(["m", "laneid", "warpid", "TLane", "TCol"], rng.randint(1, 3))
        owner = [rng.choice(axes) for _ in range(rng.randint(2, 7))]  # logical bits, lowest first
        nxt = dict.fromkeys(axes, 0)
        bits = []
        for a in owner:
            bits.append((a, nxt[a]))
            nxt[a] += 1
        perm = {a: rng.sample(range(nxt[a]), nxt[a]) for a in axes}  # each axis's bits in a random order
        bits = [(a, perm[a][b]) for a, b in bits]
        shard = []
        for a, b in reversed(bits):  # outermost logical bit first; merge runs on one axis
            if shard and shard[-1][2] == a and shard[-1][1] == 2 << b:
                shard[-1] = [shard[-1][0] * 2, 1 << b, a]
            else:
                shard.append([2, 1 << b, a])
        replica = [[2, 1 << nxt[a], a] for a in rng.sample(axes, rng.randint(0, 1))]
        spec = {"shard": shard, "replica": replica, "offset": {}}
        out.append(_record(_tile(spec), spec, rng, "tile"))
    return out


PAPER = [
    "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1@m)]",
    "S[(8,2):(4@laneid,1@m)] + R[(4,):(1@warpid,)] + 3@m + 2@laneid",
    "S[8, 4, 2]",
    "S[8 : 4@laneid]",
    "S[(128, 64):(1@TLane, 1@TCol)]",
    "S[(2, 64):(1@wgid, 1@m)] + R[2 : 1@bx]",
    "S[(4, 2):(2, 1@warpid)] + 5",
    "S[(16, 8):(1@P, 1@F)] + 2@Bank",
]


NAMED = [
    "tmem_datapath_layout('D', 128, 16)", "tmem_datapath_layout('F', 64, 16)", "tmem_datapath_layout('B', 64, 16)",
    *[f"mma_atom_layout('{dt}', {sw})" for dt in ("float16", "float32", "int8") for sw in range(4)],
    "mma_shared_layout('float16', 3, [64, 64])",
]


def named_layouts():
    """The layouts TIRx's CUDA backend builds (tensor-memory datapaths, MMA shared-memory swizzle atoms)."""
    import importlib

    cuda_layout = importlib.import_module("tvm_tirx.backend.cuda.layout")  # the package's `layout` is another name

    out = []
    for call in NAMED:
        layout = eval(call, vars(cuda_layout))  # noqa: S307
        size = _int(layout.size())
        out.append({"call": call, "tirx": str(layout), "size": size, "apply": [_apply(layout, i) for i in range(size)]})
    return out


def paper_layouts():
    names = {a: Axis.get(a) for a in AXES}
    return [{"text": t, "tirx": str(TileLayout(eval(t, {"S": S, "R": R, **names})))} for t in PAPER]  # noqa: S307


SPEED = "S[(2,4,16,2,8,2,4,2):(1@wgid,1@warpid,2@m,1@tid_in_wg,4@tid_in_wg,1@m,32@tid_in_wg,64@m)]"


def speed():
    """unilayout's vectorised ``table`` of a 128x256 layout against TIRx's ``apply`` on every point, same run."""
    import time

    sys.path.insert(0, str(OUT.parents[3] / "src"))  # this interpreter has TIRx, not unilayout installed
    from unilayout import axe

    ours = axe.parse(SPEED)
    theirs = TileLayout(eval(SPEED, {"S": S, "R": R, **{a: Axis.get(a) for a in AXES}}))  # noqa: S307
    assert ours.size == 128 * 256 and ours.to_tirx() == str(theirs)
    t0 = time.perf_counter()
    for _ in range(10):
        table = ours.table()
    t_ours = (time.perf_counter() - t0) / 10
    t0 = time.perf_counter()
    rows = [theirs.apply(i) for i in range(ours.size)]
    t_tirx = time.perf_counter() - t0
    check = [[int(rows[i][a]) for a in ours.axes] for i in range(0, ours.size, 97)]
    assert table[::97].tolist() == check
    print(f"axe apply over all {ours.size:,} points of a 128x256 layout: unilayout table {t_ours * 1e3:.2f} ms, "
          f"TIRx apply per point {t_tirx * 1e3:.0f} ms: {t_tirx / t_ours:.0f}x")


def main():
    cuda_axis.register()
    trn_axis.register()
    if "--speed" in sys.argv[1:]:
        speed()
        return
    rng = random.Random(SEED)
    facts = {"tirx_version": tvm_tirx.__version__, "seed": SEED, "axes": _axes(), "paper": paper_layouts(),
             "named": named_layouts(),
             "layouts": random_layouts(rng, 60) + bit_layouts(rng, 16)}
    OUT.write_text(json.dumps(facts, indent=None, separators=(",", ":")) + "\n")
    print(f"{len(facts['layouts'])} layouts, {len(facts['paper'])} paper texts, {len(facts['named'])} named -> {OUT}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
