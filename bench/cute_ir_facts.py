"""Record what the CuTe DSL itself prints, as facts the tests check unilayout's CuTe IR reader and printer against.

Run with a Python that has the CuTe DSL (``pip install nvidia-cutlass-dsl``; it traces on a CPU, no GPU needed):

    python -m venv /tmp/cdslv && /tmp/cdslv/bin/pip install nvidia-cutlass-dsl
    /tmp/cdslv/bin/python bench/cute_ir_facts.py          # writes tests/cute/data/cute_ir_facts.json

For each value built in a ``@cute.jit`` function (layouts with static and dynamic leaves, ``cute.assume``'d
divisibility, 64-bit leaves, composed layouts, tensors on plain and swizzled pointers) it records the DSL's
``print`` text and its MLIR type (``!cute.layout<"...">``, ``!cute.memref<...>``); for the algebra
operations it records the operands' and the result's types (the types CuTe IR infers, for the dynamic algebra's
tests). The tests (tests/cute/test_ir_text.py) read the JSON only: the CI machine has no CuTe DSL.
"""

from __future__ import annotations

import json
import pathlib
import re
import sys

import cutlass
import cutlass.cute as cute
from cutlass import Int32, Int64

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "cute" / "data" / "cute_ir_facts.json"

# Layouts as CuTe IR prints them; each ? becomes a run-time argument (i64 ones 64-bit), assumed divisible by div.
LAYOUTS = [
    "(4,8):(8,1)", "((2,2),2):((4,1),2)", "(8,(2,4)):(1,(8,16))", "8:1", "(8):(1)", "(1,1):(0,0)",
    "(?,8):(8,1)", "(8,?):(1,8)", "(?,?):(1,?)", "(?{div=16},8):(1,?{div=16})",
    "(128,32,?):(1,?{i64 div=8},?{i64 div=256})", "(?,?{div=64},((?,?),?)):(?{i64 div=64},1,((?{div=64},?{div=64}),?{div=64}))",
    "((64,16),2,?):((64,1),4096,?{div=8192})", "(?,(4,?)):(?{i64},(1,?{i64 div=4}))", "(16,?{div=4}):(?{div=4},1)",
    "(?{div=128},?{div=128},?):(1,?{i64 div=128},?{i64 div=16384})",
]
OPS = ["coalesce", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "logical_product",
       "zipped_product", "blocked_product", "raked_product", "composition", "complement", "right_inverse",
       "left_inverse", "size", "cosize", "flatten", "filter"]
TILERS = ["(4,2)", "(2,?)", "8:1", "(4,4):(1,4)"]
_TOKEN = re.compile(r"\?(?:\{(i64)?\s*(?:div=(\d+))?\})?|-?\d+|[(),:]")


def _build(spec, args32, args64):
    """The DSL value of ``spec``: a tuple tree of ints and assumed run-time values."""
    toks, pos = [m.group(0) for m in _TOKEN.finditer(spec)], [0]

    def tree():
        t = toks[pos[0]]
        pos[0] += 1
        if t == "(":
            items = [tree()]
            while toks[pos[0]] == ",":
                pos[0] += 1
                items.append(tree())
            pos[0] += 1  # ')'
            return tuple(items)
        if t.startswith("?"):
            m = re.fullmatch(r"\?(?:\{(i64)?\s*(?:div=(\d+))?\})?", t)
            pool = args64 if m.group(1) else args32
            v = pool[len(spec) % len(pool)]
            div = int(m.group(2) or 1)
            return cute.assume(v, divby=div) if div > 1 else v
        return int(t)

    shape = tree()
    if pos[0] < len(toks) and toks[pos[0]] == ":":
        pos[0] += 1
        return cute.make_layout(shape, stride=tree())
    return shape


def _rec(what, value, **extra):
    out = {"what": what, "print": str(value)}
    t = getattr(value, "type", None)
    if t is not None:
        out["type"] = str(t)
    out.update(extra)
    return out


def _collect(a, b, c, d, e, facts):
    """Build every value and record its print and type (a plain function: @cute.jit rewrites control flow)."""
    args32, args64 = [a, b, c], [d, e]
    layouts = [(s, _build(s, args32, args64)) for s in LAYOUTS]
    for spec, L in layouts:
        facts.append(_rec("layout", L, spec=spec))
    sw = cute.make_swizzle(3, 4, 3)
    facts.append(_rec("swizzle", sw))
    for spec, L in layouts[:10]:
        facts.append(_rec("composed_layout", cute.make_composed_layout(sw, 0, L), spec=spec))
    for elem, space, align in ((cutlass.Float16, cute.AddressSpace.gmem, 16), (cutlass.Float32, cute.AddressSpace.smem, 128),
                               (cutlass.Int8, cute.AddressSpace.rmem, 32), (cutlass.BFloat16, cute.AddressSpace.gmem, 8)):
        p = cute.make_ptr(elem, 0, space, assumed_align=align)
        for spec, L in layouts[6:12]:
            facts.append(_rec("tensor", cute.make_tensor(p, L), spec=spec))
    ps = cute.make_ptr(cutlass.Float16, 0, cute.AddressSpace.smem, assumed_align=1024)
    facts.append(_rec("tensor", cute.make_tensor(ps, cute.make_composed_layout(sw, 0, layouts[0][1]))))
    pz = cute.recast_ptr(ps, swizzle_=sw)
    for spec, L in layouts[:8]:
        facts.append(_rec("tensor", cute.make_tensor(pz, L), spec=spec))
    for _spec, L in layouts:
        for op in OPS:
            for tspec in (TILERS if op in ("logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
                                           "logical_product", "zipped_product", "blocked_product",
                                           "raked_product", "composition") else [None]):
                try:
                    if tspec is None:
                        r = getattr(cute, op)(L)
                    else:
                        r = getattr(cute, op)(L, _build(tspec, args32, args64))
                    facts.append(_rec("op", r, op=op, a=str(L.type), b=tspec))
                except Exception as ex:  # noqa: BLE001  (what the DSL rejects is a fact too)
                    facts.append({"what": "op", "op": op, "a": str(L.type), "b": tspec,
                                  "error": f"{type(ex).__name__}: {str(ex).splitlines()[0][:200]}"})


def main() -> int:
    facts = []

    @cute.jit
    def trace(a: Int32, b: Int32, c: Int32, d: Int64, e: Int64):
        _collect(a, b, c, d, e, facts)

    try:
        trace(Int32(3), Int32(64), Int32(128), Int64(8), Int64(256))
    except Exception as ex:  # noqa: BLE001  (the module is verified after tracing; the facts are the traced types)
        print(f"note: the traced module did not verify ({type(ex).__name__}); the facts recorded while tracing stand")
    OUT.write_text(json.dumps({"producer": f"nvidia-cutlass-dsl {cutlass.__version__}", "facts": facts}, indent=1)
                   + "\n")
    print(f"{len(facts)} facts -> {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
