"""The producers' corpus: regenerate its facts from the producers themselves, and print unilayout's agreement.

``tests/corpus/sources/*.txt`` hold layout texts harvested from the producers' own test suites
(Triton, Shardy, XLA, CUTLASS/pycute, tt-mlir), each with its source file and the context it was
used in (tensor shape, mesh, device count). This script turns them into ``tests/corpus/corpus.jsonl``:
one JSON line per text with the facts *the producer* computes for it, where the producer installs here:

- Triton 3.9 (subprocess; it can abort): each ``tensor<SHAPE x f16, ENC>`` is parsed by Triton's MLIR
  parser and converted by Triton's own ``toLinearLayout`` (Gluon's ``to_linear_layout``); a text
  Triton's parser or verifier refuses is recorded as ``rejected`` with Triton's message.
- pycute (CUTLASS 4.2): the layout each pycute test builds, printed by pycute (the corpus text), its
  size, cosize and every value, and the printed result of the op the test applies (itself a text);
  ``left_inverse`` is CuTe C++'s where it differs from pycute's (``cute_cpp_left_inverses``).
- JAX (CPU, subprocess with fake devices): the index box each device holds, for HLO shardings
  (``HloSharding.from_string`` + ``op_sharding_to_indices``; a ``{maximal device=k}`` holds the whole array
  on device k alone, as XLA places it, where ``op_sharding_to_indices`` lists it for every device) and Shardy shardings over their mesh
  (the same axes as a ``NamedSharding``); JAX refuses uneven splits, so those carry no boxes.
- tt-mlir does not install here: its facts are what its lit test printed (the memref of a
  ``#ttnn.ttnn_layout``), and XLA layouts carry the dims and minor-to-major order the test wrote; a
  text a tt-mlir test writes by hand that tt-mlir's own builders never make (a placeholder memref or
  map, a metal layout on a tensor that is not device-shaped) is marked ``placeholder`` and not scored.

Then every text is run through unilayout (``tests/corpus/agree.py``) and the agreement per producer is
printed; ``tests/corpus/test_corpus.py`` asserts the same in CI from the stored facts.

    python bench/corpus.py               # agreement per producer, from the stored corpus
    python bench/corpus.py --regenerate  # recompute the facts with the producers, rewrite corpus.jsonl
    python bench/corpus.py --pending     # rewrite pending.jsonl: the texts that disagree, with the reason
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import pathlib
import re
import subprocess
import sys
from collections import Counter

ROOT = pathlib.Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "corpus"
REPOS = {"triton": "triton-lang/triton", "cute": "NVIDIA/cutlass", "hlo": "openxla/xla", "xla": "openxla/xla",
         "shardy": "openxla/shardy", "ttnn": "tenstorrent/tt-mlir",
         "ttcore": "tenstorrent/tt-mlir"}


def _load(name: str, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _agree():
    return _load("corpus_agree", CORPUS / "agree.py")


def _placeholders():
    return _load("corpus_placeholders", CORPUS / "placeholders.py")


# ---------------------------------------------------------------- reading the harvested sources

def read_sources() -> list[dict]:
    """Every harvested text, as ``{"producer", "source", "raw": [fields], "expect_test"}`` in file order."""
    out = []
    for f in sorted((CORPUS / "sources").glob("*.txt")):
        producer = f.stem
        source = None
        for line in f.read_text().splitlines():
            line = line.strip()
            if not line or line.startswith("# "):
                continue
            if line.startswith("@ "):
                _, path, commit = line.split()
                source = {"repo": REPOS[producer], "path": path, "commit": commit}
                continue
            rejected = line.startswith("! ")
            fields = [x.strip() for x in (line[2:] if rejected else line).split(" | ")]
            out.append({"producer": producer, "source": source, "raw": fields,
                        "expect_test": "rejected" if rejected else "reads"})
    return out


def _dims(s: str) -> list[int]:
    return [] if s == "scalar" else [int(x) for x in s.split("x")]


# ---------------------------------------------------------------- Triton

_TRITON = r'''
import json, os, sys, tempfile
from triton._C.libtriton import ir, gluon_ir
from triton.experimental.gluon.language import _layouts as gluon_layouts
# Gluon's SharedLinearLayout (the Python value to_linear_layout returns) asserts that offset_bases is not
# empty; Triton's toLinearLayout itself gives a size-1 buffer (shape [1], [1, 1]) a layout with no offset
# bases, and its verifier reads the type: let the Python value hold what Triton computed.
_shared_linear_check = gluon_layouts.SharedLinearLayout.__post_init__
def _keep_empty_offset_bases(self):
    try:
        _shared_linear_check(self)
    except AssertionError:
        if len(self.offset_bases) != 0:
            raise
gluon_layouts.SharedLinearLayout.__post_init__ = _keep_empty_offset_bases
cases = json.load(sys.stdin)
out = []
for c in cases:
    ctx = ir.context(); ir.load_dialects(ctx); b = gluon_ir.GluonOpBuilder(ctx)
    shape = "x".join(map(str, c["shape"])) + "x" if c["shape"] else ""
    if c["shared"]:
        ty = "!ttg.memdesc<%s%s, %s, #ttg.shared_memory, mutable>" % (shape, c["elem"], c["enc"])
        op = "    %%v = ttg.local_alloc : () -> %s" % ty
    else:
        ty = "tensor<%s%s, %s>" % (shape, c["elem"], c["enc"])
        op = "    %%v = arith.constant dense<0> : %s" % ty
    src = "\n".join(['module attributes {"ttg.num-warps" = %d : i32, "ttg.threads-per-warp" = %d : i32, '
                     '"ttg.num-ctas" = %d : i32} {' % (c["warps"], c["lanes"], c["ctas"]),
                     "  tt.func @f() {", op, "    tt.return", "  }", "}"])
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(src)
    try:
        m = ir.parse_mlir_module(f.name, ctx)
        vals = []
        m.walk(lambda o: vals.append(o.get_result(0)) if o.get_name() in ("arith.constant", "ttg.local_alloc") else None)
        v = vals[0]
        lay = b.get_gluon_layout_from_memdesc(v) if c["shared"] else b.get_gluon_layout_from_tensor(v)
        r = b.to_linear_layout(lay._to_ir(b), c["shape"])
        if hasattr(r, "reg_bases"):
            out.append({"bases": {"register": r.reg_bases, "lane": r.lane_bases, "warp": r.warp_bases,
                                  "block": r.block_bases}})
        else:
            out.append({"bases": {"offset": r.offset_bases, "block": r.block_bases}})
    except Exception as e:
        out.append({"error": str(e).strip().splitlines()[-1][:300] if str(e).strip() else repr(e)})
json.dump(out, sys.stdout)
sys.stdout.flush()
os._exit(0)
'''

FILE_SHAPES = 12  # at most this many other same-rank shapes of the test file per encoding (file order)
_SHARED = ("swizzled_shared", "nvmma_shared", "padded_shared", "shared_linear", "amd_rotating_shared")


def _machine(enc: str) -> tuple[int, int, int]:
    """(warps, lanes, ctas) the module must declare for ``enc`` (read off its distributed parent)."""
    def ints(name):
        m = re.search(name + r"\s*=\s*\[([^\]]*)\]", enc)
        return [int(x) for x in m.group(1).split(",") if x.strip()] if m else []

    def prod(xs):
        p = 1
        for x in xs:
            p *= x
        return p
    m = re.search(r"#ttg\.(blocked|nvidia_mma|amd_mfma|amd_wmma|linear)<", enc)
    kind = m.group(1) if m else None
    if kind == "linear":
        def count(name):
            mm = re.search(name + r"\s*=\s*\[(.*?)\]\s*(,\s*[a-z]+\s*=|\}>)", enc)
            return len(re.findall(r"\[", mm.group(1))) if mm else 0
        return 2 ** count("warp"), 2 ** count("lane"), 2 ** count("block")
    cta = re.search(r"ctaLayout\s*=\s*\{(.*?)\}", enc)
    if kind == "amd_wmma" and cta:
        warp = re.search(r"warp\s*=\s*\[(.*)\]", cta.group(1))
        return 2 ** (len(re.findall(r"\[", warp.group(1))) if warp else 0), 32, 1
    cga = re.search(r"CGALayout\s*=\s*\[(.*?)\]\]", enc)
    ctas = 2 ** len(re.findall(r"\[", cga.group(1))) if cga else max(1, prod(ints("CTAsPerCGA")))
    block = re.search(r"block\s*=\s*\[(.*?)\]\s*\}", enc) if kind is None else None
    if block:  # shared_linear / padded_shared: one block basis per doubling of the CTAs
        ctas = 2 ** len(re.findall(r"\[", block.group(1)))
    warps = prod(ints("warpsPerCTA")) or 4
    lanes = {"blocked": prod(ints("threadsPerWarp")), "amd_mfma": 64}.get(kind, 32)
    return warps, lanes, ctas


def triton_cases(raws: list[dict]) -> list[dict]:
    """Each encoding with the shapes its test used it with, then with (up to ``FILE_SHAPES``) other shapes
    of the same rank that the same test file uses (``shape_from``: ``used`` / ``file``): Triton decides
    every pair."""
    pool: dict = {}
    for r in raws:
        for shape in r["raw"][1].split():
            pool.setdefault((r["source"]["path"], len(_dims(shape))), []).append(shape)
    entries = []
    for r in raws:
        enc = r["raw"][0]
        used = r["raw"][1].split()
        rank = len(_dims(used[0]))
        others = [s for s in dict.fromkeys(pool[(r["source"]["path"], rank)]) if s not in used][:FILE_SHAPES]
        for shape in used + (others if r["expect_test"] == "reads" else []):
            shared = any("#ttg." + k + "<" in enc for k in _SHARED) and "parent" not in enc
            bits = re.search(r"elementBitWidth\s*=\s*(\d+)", enc)
            # the element type does not enter a distributed layout; i32 lets the probe be a dense<0> constant
            elem = {"8": "i8", "32": "f32"}.get(bits.group(1), "f16") if bits else ("f16" if shared else "i32")
            dims = _dims(shape)
            st = "x".join(map(str, dims)) + "x" if dims else ""
            text = (f"!ttg.memdesc<{st}{elem}, {enc}, #ttg.shared_memory>" if shared
                    else f"tensor<{st}{elem}, {enc}>")
            warps, lanes, ctas = _machine(enc)
            entries.append({"producer": "triton", "source": r["source"], "text": text,
                            "context": {"shape": dims, "shape_from": "used" if shape in used else "file",
                                        "num_warps": warps, "threads_per_warp": lanes, "num_ctas": ctas},
                            "expect_test": r["expect_test"], "_case": {"enc": enc, "shape": dims, "elem": elem,
                                                                      "shared": shared, "warps": warps,
                                                                      "lanes": lanes, "ctas": ctas}})
    return entries


def _run(script: str, cases, env=None, timeout=1200):
    proc = subprocess.run([sys.executable, "-c", script], input=json.dumps(cases), capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})})
    if proc.returncode != 0:
        return None
    return json.loads(proc.stdout)


def triton_facts(entries: list[dict]) -> None:
    def batch(cases):  # halve a batch Triton aborted on, so one abort costs one case
        got = _run(_TRITON, cases, {"TRITON_DISABLE_LINE_INFO": "1"})
        if got is not None:
            return got
        if len(cases) == 1:  # parsed, then aborted computing the layout? or aborted parsing?
            parsed = _run(_TRITON.replace("lay = b.get_gluon", "out.append({'parsed': 1}); continue\n        lay = b.get_gluon"),
                          cases, {"TRITON_DISABLE_LINE_INFO": "1"})
            if parsed and "parsed" in parsed[0]:
                return [{"aborted_layout": "Triton reads the type, then aborts computing its linear layout"}]
            return [{"error": "Triton aborted the process"}]
        half = len(cases) // 2
        return batch(cases[:half]) + batch(cases[half:])
    cases = [e["_case"] for e in entries]
    got = [g for k in range(0, len(cases), 200) for g in batch(cases[k:k + 200])]
    for e, g in zip(entries, got):
        e["expect"] = "rejected" if "error" in g else "reads"
        e["facts"] = ({"bases": g["bases"]} if "bases" in g else
                      {"producer_note": g["aborted_layout"]} if "aborted_layout" in g else {"producer_error": g["error"]})


# ---------------------------------------------------------------- CuTe (pycute)

def cute_entries(raws: list[dict]) -> list[dict]:
    import pycute as P  # lazy: only the regeneration needs pycute

    ns = {"Layout": P.Layout}
    out = []

    def add(layout, r, role, op=None, result=None, other=None):
        size = P.size(layout)
        facts = {"shape": json.loads(json.dumps(layout.shape)), "stride": json.loads(json.dumps(layout.stride)),
                 "size": size, "cosize": P.cosize(layout)}
        if size <= 4096:
            facts["values"] = [layout(i) for i in range(size)]
        if op:
            facts[op] = {"shape": json.loads(json.dumps(result.shape)),
                         "stride": json.loads(json.dumps(result.stride)), "text": str(result)}
            if other is not None:
                facts[op]["other"] = {"shape": json.loads(json.dumps(other.shape)),
                                      "stride": json.loads(json.dumps(other.stride))}
        out.append({"producer": "cute", "source": r["source"], "text": str(layout),
                    "context": {"role": role, "built_as": r["raw"][1:]}, "expect_test": "reads",
                    "expect": "reads", "facts": facts})
    for r in raws:
        if r["raw"][0].startswith("text "):
            out.extend(_cute_printed(P, r))
            continue
        if r["raw"][0] == "values":
            lay = _pycute_layout(P, r["raw"][1])
            facts = {"shape": _plain(lay.shape), "stride": _plain(lay.stride), "size": P.size(lay),
                     "cosize": P.cosize(lay), "values": [lay(i) for i in range(P.size(lay))]}
            if r["raw"][2] != "-":  # what the docs' print1D shows
                facts["printed_values"] = [int(v) for v in r["raw"][2].split()]
            out.append({"producer": "cute", "source": r["source"], "text": r["raw"][1],
                        "context": {"role": "printed by CuTe (docs)"}, "expect_test": "reads", "expect": "reads",
                        "facts": facts})
            continue
        op, *args = r["raw"]
        layouts = [eval(a, ns) for a in args]  # the pycute constructor the test wrote
        fn = getattr(P, op)
        result = fn(*layouts)
        if len(layouts) == 1:
            add(layouts[0], r, "operand", op, result)
        else:
            add(layouts[0], r, "operand A", op, result, other=layouts[1])
            add(layouts[1], r, "operand B")
        add(result, r, f"{op} result (printed by pycute)")
    return out


def cute_cpp_left_inverses(entries: list[dict]) -> None:
    """Where CuTe C++ (the CUTLASS headers of the same wheel as pycute, compiled by ``tests/cute/cute_cpp.py``)
    gives another ``left_inverse`` than pycute, the fact is C++'s and pycute's is kept beside it.

    C++'s ``left_inverse`` (``cute/layout.hpp``) sorts the modes by stride and starts from a stride-0 mode;
    pycute's is ``right_inverse(make_layout(L, complement(L)))``. Both are left inverses (``R(L(i)) == i``)
    and differ off the layout's image (``4:2`` -> C++ ``(2,4):(0,1)``, pycute ``(2, 4):(4, 1)``); unilayout
    follows C++, the library CuTe users compile. Without a compiler the facts stay pycute's."""
    cpp = _load("cute_cpp", ROOT / "tests" / "cute" / "cute_cpp.py")
    todo = [e for e in entries if "left_inverse" in e["facts"]]
    got = cpp.outputs((), (), prints=[(f"li{k}", f"left_inverse({cpp._static(e['text'])})") for k, e in enumerate(todo)])
    if got is None:
        return
    import pycute as P  # lazy: only the regeneration needs pycute

    for k, e in enumerate(todo):
        text = got[f"raw:li{k}"].strip()
        lay = _pycute_layout(P, text)
        mine = {"shape": _plain(lay.shape), "stride": _plain(lay.stride), "text": text, "by": "CuTe C++"}
        theirs = e["facts"]["left_inverse"]
        if [lay(i) for i in range(P.size(lay))] != [P.Layout(_tuple(theirs["shape"]), _tuple(theirs["stride"]))(i)
                                                     for i in range(P.size(lay))] or \
                P.size(lay) != P.size(P.Layout(_tuple(theirs["shape"]), _tuple(theirs["stride"]))):
            e["facts"]["left_inverse_pycute"] = theirs
            e["facts"]["left_inverse"] = mine


def _tuple(x):
    return tuple(_tuple(y) for y in x) if isinstance(x, list) else x


def _pycute_layout(P, text: str):
    """A CuTe printed layout (``(_2,_4):(_1,_2)``) as a pycute Layout: split shape:stride at the top level,
    each side a Python tuple once the static markers go (pycute has no text reader)."""
    t = text.replace("_", "").replace(" ", "")
    depth = 0
    for k, ch in enumerate(t):
        depth += ch == "("
        depth -= ch == ")"
        if ch == ":" and depth == 0:
            return P.Layout(eval(t[:k]), eval(t[k + 1:]))  # plain int tuples, from the docs' text
    raise ValueError(text)


def _cute_printed(P, r) -> list[dict]:
    """The texts of one docs example: the operand(s) and the printed result, facts by pycute."""
    op = r["raw"][0].split()[1]
    a_text, arg, printed = r["raw"][1:]
    a = _pycute_layout(P, a_text)
    if arg == "-":
        other, result = None, P.coalesce(a) if op == "coalesce" else a
    elif ":" in arg:
        other = _pycute_layout(P, arg)
        result = getattr(P, op)(a, other)
    else:
        other = int(arg)
        result = getattr(P, op)(a, other)
    out = []
    for role, text, lay in (("operand A", a_text, a), ("printed result", printed, _pycute_layout(P, printed))) + \
            ((("operand B", arg, other),) if isinstance(other, P.Layout) else ()):
        size = P.size(lay)
        facts = {"shape": _plain(lay.shape), "stride": _plain(lay.stride), "size": size, "cosize": P.cosize(lay)}
        if size <= 4096:
            facts["values"] = [lay(i) for i in range(size)]
        if role == "operand A" and arg != "-":
            facts[op] = {"shape": _plain(result.shape), "stride": _plain(result.stride), "text": str(result),
                         "printed_by_docs": printed}
            facts[op]["other"] = ({"shape": _plain(other.shape), "stride": _plain(other.stride)}
                                  if isinstance(other, P.Layout) else other)
        if role == "printed result":
            facts["pycute_agrees_with_docs"] = [lay(i) for i in range(min(size, 4096))] == \
                [result(i) for i in range(min(P.size(result), 4096))]
        out.append({"producer": "cute", "source": r["source"], "text": text,
                    "context": {"role": f"{op} {role} (CuTe docs)"}, "expect_test": "reads", "expect": "reads",
                    "facts": facts})
    return out


def _plain(x):
    return json.loads(json.dumps(x))


# ---------------------------------------------------------------- HLO and Shardy boxes (JAX)

_JAX = r'''
import json, os, sys
import numpy as np
import jax
from jax.sharding import Mesh, NamedSharding, PartitionSpec
from jax._src import op_shardings as O
from jax._src.lib import xla_client as xc
cases = json.load(sys.stdin)
devs = jax.devices()
out = []
def boxes(idx, shape):
    return [[[s.start or 0, shape[d] if s.stop is None else s.stop] for d, s in enumerate(i)] for i in idx]
for c in cases:
    try:
        shape = tuple(c["shape"])
        if c["kind"] == "hlo":
            h = xc.HloSharding.from_string(c["text"])
            if h.to_proto().type == xc.OpSharding.Type.MAXIMAL:
                # XLA places a maximal sharding's whole array on its one device; JAX's op_sharding_to_indices
                # lists the whole array for every device (as for {replicated}), so the boxes come from the
                # HloSharding's device: the whole array there, nothing elsewhere
                dev = h.tile_assignment_devices()[0]
                full, empty = [[0, n] for n in shape], [[0, 0] for _ in shape]
                out.append({"boxes": {str(k): full if k == dev else empty for k in range(max(c["n"], dev + 1))}})
                continue
            idx = O.op_sharding_to_indices(h, shape, c["n"])
            out.append({"boxes": {str(k): b for k, b in enumerate(boxes(idx, shape))}})
        else:
            names = [a for a, _ in c["axes"]]
            sizes = [s for _, s in c["axes"]]
            n = int(np.prod(sizes)) if sizes else 1
            mesh = Mesh(np.array(devs[:n]).reshape(sizes), names)
            spec = PartitionSpec(*[tuple(d) if len(d) > 1 else (d[0] if d else None) for d in c["dims"]])
            m = NamedSharding(mesh, spec).devices_indices_map(shape)
            out.append({"boxes": {str(d.id): boxes([i], shape)[0] for d, i in m.items()}})
    except BaseException as e:
        out.append({"error": (type(e).__name__ + ": " + str(e)).splitlines()[0][:300]})
json.dump(out, sys.stdout)
sys.stdout.flush()
os._exit(0)
'''


def _hlo_shape(s: str) -> tuple[str, list[int], str | None]:
    m = re.fullmatch(r"([a-z0-9]+)\[([0-9,]*)\](\{.*\})?", s)
    return m.group(1), [int(x) for x in m.group(2).split(",") if x], m.group(3)


def hlo_entries(raws: list[dict]) -> list[dict]:
    out = []
    for r in raws:
        shape_text, sharding, n = r["raw"]
        _, dims, layout = _hlo_shape(shape_text)
        out.append({"producer": "hlo", "source": r["source"], "text": sharding,
                    "context": {"shape": dims, "num_devices": int(n), "hlo_shape": shape_text},
                    "expect_test": r["expect_test"], "_case": {"kind": "hlo", "text": sharding, "shape": dims,
                                                               "n": int(n)}})
        if layout:
            m2m = re.match(r"\{([0-9,]*)", layout).group(1)
            out.append({"producer": "xla", "source": r["source"], "text": shape_text, "context": {},
                        "expect_test": "reads", "expect": "reads",
                        "facts": {"dims": dims, "minor_to_major": [int(x) for x in m2m.split(",") if x],
                                  "tiles": re.findall(r"T\(([0-9,]*)\)", layout)}})
    return out


def _mesh_axes(mesh: str) -> list | None:
    if mesh == "-":
        return None
    return [(a, int(s)) for a, s in re.findall(r'"(\w+)"\s*=\s*(\d+)', mesh)]


def shardy_entries(raws: list[dict]) -> list[dict]:
    out = []
    for r in raws:
        mesh, sharding, shape = r["raw"]
        dims = _dims(shape)
        axes = _mesh_axes(mesh)
        if axes is None:
            inline = re.search(r"mesh<(\[.*?\])>", sharding)
            axes = [(a, int(s)) for a, s in re.findall(r'"(\w+)"\s*=\s*(\d+)', inline.group(1))]
        body = re.search(r",\s*\[(.*)\]", sharding)
        dim_axes = [re.findall(r'"(\w+)"(:\(\d+\)\d+)?', d) for d in re.findall(r"\{([^}]*)\}", body.group(1))] \
            if body else []
        # sub-axes ("a":(2)2), unreduced or a maximal mesh have no NamedSharding spelling: no JAX boxes
        plain = (body is not None and all(not sub for d in dim_axes for _, sub in d)
                 and "unreduced" not in sharding and "device_ids" not in mesh and len(dim_axes) == len(dims))
        e = {"producer": "shardy", "source": r["source"], "text": sharding,
             "context": {"mesh": None if mesh == "-" else mesh, "shape": dims}, "expect_test": r["expect_test"]}
        if plain and r["expect_test"] == "reads":
            e["_case"] = {"kind": "shardy", "axes": axes, "dims": [[a for a, _ in d] for d in dim_axes],
                          "shape": dims}
        out.append(e)
    return out


def jax_facts(entries: list[dict]) -> None:
    todo = [e for e in entries if "_case" in e]
    got = _run(_JAX, [e["_case"] for e in todo], {"JAX_PLATFORMS": "cpu",
                                                  "XLA_FLAGS": "--xla_force_host_platform_device_count=64"})
    if got is None:
        raise SystemExit("jax facts: the JAX subprocess failed")
    for e, g in zip(todo, got):
        e["facts"] = {"boxes": g["boxes"]} if "boxes" in g else {"producer_error": g["error"]}
    for e in entries:
        e.setdefault("facts", {})
        e["expect"] = e["expect_test"]


# ---------------------------------------------------------------- tt-mlir (printed facts)

def ttnn_entries(raws: list[dict], producer: str = "ttnn") -> list[dict]:
    """TTNN layouts (memref and metal device shape as tt-mlir printed them) and metal layouts (the
    device shape their tensor states); tt-mlir does not install here, so these are its printed facts.

    A text tt-mlir's test writes by hand that its own builders never make (see ``_placeholder``) carries
    ``facts["placeholder"]`` with the reason instead (``tests/corpus/placeholders.py``): tt-mlir's parser
    reads it without checking it, so it says nothing about tt-mlir's layout rules and is not scored."""
    out = []
    for r in raws:
        text, device = r["raw"]
        m = re.search(r"memref<((?:\d+x)+)", text)
        memref = [int(x) for x in m.group(1).rstrip("x").split("x")] if m else None
        facts = {"memref_shape": memref} if memref and producer == "ttnn" and r["expect_test"] == "reads" else {}
        if device != "-":
            facts["device_shape"] = _dims(device)  # what ttir.ttnn_metal_layout_cast printed
        why = _placeholders().placeholder(r["producer"], r["source"]["path"], text, memref, device) \
            if r["expect_test"] == "reads" else None
        if why:
            facts = {"placeholder": why}
        out.append({"producer": producer, "source": r["source"], "text": text, "context": {},
                    "expect_test": r["expect_test"], "expect": r["expect_test"], "facts": facts})
    return out


# ---------------------------------------------------------------- driver

def regenerate() -> list[dict]:
    raws = read_sources()
    by = {p: [r for r in raws if r["producer"] == p] for p in {r["producer"] for r in raws}}
    entries = []
    tri = triton_cases(by.get("triton", []))
    triton_facts(tri)
    entries += tri
    cute = cute_entries(by.get("cute", []))
    cute_cpp_left_inverses(cute)
    entries += cute
    hs = hlo_entries(by.get("hlo", [])) + shardy_entries(by.get("shardy", []))
    jax_facts([e for e in hs if e["producer"] in ("hlo", "shardy")])
    entries += hs
    entries += ttnn_entries(by.get("ttnn", []))
    entries += ttnn_entries(by.get("ttcore", []), "ttcore")
    seen, unique = set(), []
    for e in entries:
        e.pop("_case", None)
        key = (e["producer"], e["text"], json.dumps(e["context"], sort_keys=True))
        if key not in seen:
            seen.add(key)
            unique.append(e)
    counts = Counter()
    for e in unique:
        counts[e["producer"]] += 1
        e["id"] = f"{e['producer']}-{counts[e['producer']]:04d}"
    with open(CORPUS / "corpus.jsonl", "w") as f:
        for e in unique:
            f.write(json.dumps({k: e[k] for k in ("id", "producer", "source", "text", "context", "expect_test",
                                                  "expect", "facts")}) + "\n")
    return unique


def triage(entries: list[dict], results: dict, top: int = 12) -> str:
    """The disagreements grouped by producer, category and reason (numbers blanked), largest first,
    with two example texts each: the list to fix from."""
    groups: dict = {}
    for e in entries:
        r = results[e["id"]]
        if r is not None:
            reason = re.sub(r"unilayout \[.*", "unilayout [...] vs ...", r[1].split(" at position")[0])  # lengths vary
            key = (e["producer"], r[0], re.sub(r"\d+", "N", reason)[:110])
            groups.setdefault(key, []).append(e)
    lines = ["disagreements by cause (largest first):"]
    for (producer, cat, reason), es in sorted(groups.items(), key=lambda kv: -len(kv[1]))[:top]:
        lines.append(f"  {len(es):5d}  {producer} / {cat}: {reason}")
        for e in es[:2]:
            lines.append(f"         e.g. {e['id']}: {e['text'][:150]}")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--regenerate", action="store_true", help="recompute the facts with the producers")
    ap.add_argument("--pending", action="store_true", help="rewrite pending.jsonl from this run")
    args = ap.parse_args(argv)
    agree = _agree()
    entries = regenerate() if args.regenerate else agree.load_corpus()
    results = {e["id"]: agree.check(e) for e in entries}
    print(agree.summary(entries, results))
    print(triage(entries, results))
    if args.pending:
        with open(CORPUS / "pending.jsonl", "w") as f:
            for e in entries:
                reason = results[e["id"]]
                if reason is not None:
                    f.write(json.dumps({"id": e["id"], "text": e["text"], "category": reason[0],
                                        "reason": reason[1]}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
