"""lens.triton: every data-moving op of a dump priced as Triton 3.9 lowers it, checked against Triton itself.

``data/triton_facts.json`` holds 300 small modules (a load, a ``convert_layout`` or a ``local_alloc`` /
``local_load`` pair, a store) that Triton 3.9 compiled to PTX on a CPU (``bench/lens_facts.py``): the shared
memory it allocated and the PTX instruction classes. A small live check compiles a few fresh modules.
"""

import json
import pathlib
import subprocess
import sys

import pytest

from unilayout import lens
from unilayout.errors import ParseError
from unilayout.linear.encodings.types import layout
from unilayout.plan.triton import triton_lowering

FACTS = json.loads((pathlib.Path(__file__).parent / "data" / "triton_facts.json").read_text())["cases"]
BROADCAST = json.loads((pathlib.Path(__file__).parent / "data" / "triton_broadcast_facts.json").read_text())["cases"]


def classes(ptx, barriers=False):
    """The PTX's instruction classes as the lens names them; ``barriers``: keep bar.sync / bar.warp.sync."""
    out = set()
    for k in ptx:
        if k.startswith("bar.") and not barriers:
            continue
        out.add("shfl.sync" if k.startswith("shfl") else
                k.split(".")[0] + (".trans" if ".trans" in k else "") if "matrix" in k else k)
    return out


def _figures(text, barriers=False):
    dump = lens.read(text)
    return (sum(m.scratch_bytes or 0 for m in dump.moves),
            {x for m in dump.moves for x in m.instructions if barriers or not x.startswith("bar.")}, dump)


def test_convert_scratch_and_instructions_equal_tritons():
    checked = 0
    for i, case in enumerate(FACTS):
        if "convert_layout" not in case["ttgir"]:
            continue
        scratch, ins, _ = _figures(case["ttgir"], barriers=True)  # a convert's barrier: bar.sync or bar.warp.sync
        assert scratch == case["shared"], (i, scratch, case["shared"])
        assert ins == classes(case["ptx"], barriers=True), (i, ins, case["ptx"])
        checked += 1
    assert checked == 272


def test_warp_replicated_sources_shuffle_when_tritons_does():
    """Sources every warp holds whole: Triton shuffles when each destination warp's part lies in its own lanes."""
    shuffles = 0
    for case in BROADCAST:
        scratch, ins, dump = _figures(case["ttgir"], barriers=True)
        assert (scratch, ins) == (case["shared"], classes(case["ptx"], barriers=True)), case["ttgir"][:300]
        shuffles += dump.moves[0].level == "warp shuffle"
    assert len(BROADCAST) > 200 and 10 < shuffles < len(BROADCAST) - 100


def test_local_alloc_and_load_equal_tritons():
    local = [c for c in FACTS if "local_alloc" in c["ttgir"]]
    assert len(local) >= 20
    kinds = set()
    for case in local:
        scratch, ins, dump = _figures(case["ttgir"])
        assert scratch == case["shared"]  # the buffer local_alloc creates is all the module's shared memory
        assert [m.level for m in dump.moves] == ["shared-memory store", "shared-memory load"]
        assert ins == classes(case["ptx"]), (ins, case["ptx"])
        kinds |= ins
    assert {"stmatrix", "ldmatrix", "stmatrix.trans", "ldmatrix.trans"} <= kinds  # both lowerings are exercised


LIT = json.loads((pathlib.Path(__file__).parent / "data" / "triton_lit_facts.json").read_text())["cases"]


def test_tritons_own_lit_test_layouts_agree():
    """The convert_layout and local_alloc/local_load tests of Triton's tritongpu_to_llvm.mlir (bench/lens_facts.py --lit)."""
    checked = 0
    for case in LIT:
        if "error" in case:  # Triton itself aborts on this module (an i1 load through pointers)
            continue
        only_cvt = "local_alloc" not in case["ttgir"]  # a local pair's barrier is the allocator's, not listed
        scratch, ins, _ = _figures(case["ttgir"], barriers=only_cvt)
        assert (scratch, ins) == (case["shared"], classes(case["ptx"], barriers=only_cvt)), case["test"]
        checked += 1
    assert checked == len(LIT) - 1 == 24


def test_levels_name_the_lowering_path():
    seen = {}
    for i, case in enumerate(FACTS):
        if "convert_layout" in case["ttgir"]:
            dump = lens.read(case["ttgir"])
            mv = dump.moves[0]
            ptx = case["ptx"]
            want = ("warp shuffle" if any(k.startswith("shfl") for k in ptx) else
                    "shared-memory round trip" if case["shared"] else None)
            if want:
                assert mv.level == want, i
            seen[mv.level] = seen.get(mv.level, 0) + 1
    assert seen.get("warp shuffle", 0) >= 5 and seen.get("shared-memory round trip", 0) >= 200


def test_the_move_layouts_are_the_dump_types_layouts():
    case = next(c for c in FACTS if "convert_layout" in c["ttgir"])
    dump = lens.read(case["ttgir"])
    aliases = "\n".join(line for line in case["ttgir"].splitlines() if line.startswith("#"))
    mv = dump.moves[0]
    assert dump.layout("%1") == layout(aliases + "\n" + mv.source)
    assert dump.layout("%2") == layout(aliases + "\n" + mv.destination)
    bits = 16 if "xf16" in mv.source or "xbf16" in mv.source or "xi16" in mv.source else None
    if bits:
        assert mv.scratch_bytes == triton_lowering(dump.layout("%1"), dump.layout("%2"), bits).scratch_bytes


def test_register_permutation_and_no_op_converts_cost_nothing():
    # lanes and warps all along dim 0: the order only changes which register holds what
    enc = "#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>"
    enc2 = "#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>"
    text = (f"#a = {enc}\n#b = {enc2}\nmodule attributes {{\"ttg.num-warps\" = 4 : i32}} {{\n"
            "  tt.func @f(%x: tensor<256x2xf32, #a>) {\n"
            "    %0 = ttg.convert_layout %x : tensor<256x2xf32, #a> -> tensor<256x2xf32, #b>\n"
            "    %1 = ttg.convert_layout %x : tensor<256x2xf32, #a> -> tensor<256x2xf32, #a>\n    tt.return\n  }\n}\n")
    a, b = lens.read(text).moves
    assert (a.level, a.scratch_bytes, a.instructions) == ("register permutation", 0, ())
    assert (b.level, b.scratch_bytes) == ("none", 0)


def test_an_encoding_triton_rejects_is_a_parse_error_at_its_type():
    text = ("module attributes {\"ttg.num-warps\" = 4 : i32} {\n  tt.func @f(%x: tensor<64xf32, "
            "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>) {\n"
            "    %0 = ttg.convert_layout %x : tensor<64xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], "
            "warpsPerCTA = [4], order = [0]}>> -> tensor<64xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [31], "
            "warpsPerCTA = [4], order = [0]}>>\n    tt.return\n  }\n}\n")
    with pytest.raises(ParseError, match="line 3, column") as e:
        lens.read(text)
    assert text[e.value.position:].startswith("tensor<64xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [31]")


_LIVE = r"""
import collections, json, pathlib, re, sys, tempfile, warnings
warnings.filterwarnings("ignore")
from triton._C.libtriton import ir
from triton.backends.compiler import GPUTarget
from triton.compiler.compiler import Language, make_backend
backend = make_backend(GPUTarget("cuda", 90, 32))
out = []
for text in json.load(sys.stdin):
    path = pathlib.Path(tempfile.mkdtemp()) / "m.ttgir"
    path.write_text(text)
    ctx = ir.context(); ir.load_dialects(ctx); backend.load_dialects(ctx)
    mod = ir.parse_mlir_module(str(path), ctx); mod.context = ctx
    opts = backend.parse_options({"num_warps": mod.get_int_attr("ttg.num-warps")})
    stages = {}; backend.add_stages(stages, opts, Language.TRITON); md = {}
    ptx = stages["ptx"](stages["llir"](mod, md), md)
    out.append({"shared": md["shared"], "ptx": dict(collections.Counter(re.findall(
        r"\b(shfl\.sync[\w.]*|st\.shared[\w.]*|ld\.shared[\w.]*|stmatrix[\w.]*|ldmatrix[\w.]*|bar\.sync|bar\.warp\.sync|"
        r"cp\.async[\w.]*)",
        ptx)))})
print(json.dumps(out))
"""

_MODULE = """#src = {src}
#dst = {dst}
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @kernel(%arg0: !tt.ptr<{e}>) {{
    %0 = tt.splat %arg0 : !tt.ptr<{e}> -> tensor<{s}x!tt.ptr<{e}>, #src>
    %1 = tt.load %0 : tensor<{s}x!tt.ptr<{e}>, #src>
    %2 = ttg.convert_layout %1 : tensor<{s}x{e}, #src> -> tensor<{s}x{e}, #dst>
    %9 = tt.splat %arg0 : !tt.ptr<{e}> -> tensor<{s}x!tt.ptr<{e}>, #dst>
    tt.store %9, %2 : tensor<{s}x!tt.ptr<{e}>, #dst>
    tt.return
  }}
}}
"""


def test_live_triton_compiles_what_the_lens_says():
    pytest.importorskip("triton", reason="triton 3.9 compiles the live modules (the recorded facts need none)")
    mma = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>"
    texts = [
        _MODULE.format(src="#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>",
                       dst="#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>",
                       e="bf16", s="128x64"),
        _MODULE.format(src=mma, dst="#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>",
                       e="f32", s="64x64"),
        _MODULE.format(src="#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>",
                       dst="#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>",
                       e="f32", s="8x32"),
    ]
    kernel = (pathlib.Path(__file__).parents[1] / "linear" / "data" / "matmul_sm90.ttgir").read_text()
    copy = (pathlib.Path(__file__).parent / "data" / "async_copy.ttgir").read_text()
    p = subprocess.run([sys.executable, "-c", _LIVE], input=json.dumps(texts + [copy, kernel]), capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
    answers = json.loads(p.stdout)
    for text, got in zip(texts, answers):
        scratch, ins, _ = _figures(text, barriers=True)
        assert (scratch, ins) == (got["shared"], classes(got["ptx"], barriers=True))
    # the async copy: its moves' classes are the PTX's, but for the commit/wait ops that are no moves
    got = answers[-2]
    moves = lens.read(copy).moves
    assert {x for m in moves for x in m.instructions} == classes(got["ptx"]) - {"cp.async.commit_group",
                                                                              "cp.async.wait_group"}
    assert got["shared"] == moves[0].scratch_bytes
    # a whole matmul kernel Triton 3.9 compiled for sm_90: its PTX holds exactly the classes of the lens's moves,
    # and its shared memory is the largest buffer (the epilogue convert's scratch outlives nothing else)
    dump = lens.read(kernel)
    got = answers[-1]
    assert {x for m in dump.moves for x in m.instructions} == classes(got["ptx"], barriers=True)
    assert max(m.scratch_bytes or 0 for m in dump.moves) == got["shared"]


def test_other_targets_and_unread_encodings_are_read_not_fatal():
    data = pathlib.Path(__file__).parents[1] / "linear" / "data"
    amd = lens.read((data / "matmul_gfx942.ttgir").read_text())
    assert amd.target == "hip:gfx942" and len(amd.moves) == 4
    alloc = amd.moves[0]
    assert alloc.scratch_bytes == 128 * 64 * 2 and alloc.instructions == () and "only NVIDIA" in alloc.note
    unread = lens.read("""#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #ttg.tomorrows_shared<{vec = 8}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func @f(%x: tensor<64x64xf16, #b>) {
    %0 = ttg.local_alloc %x : (tensor<64x64xf16, #b>) -> !ttg.memdesc<64x64xf16, #s, #smem>
    tt.return
  }
}""").moves[0]  # an encoding unilayout has no value for: the move is listed with a note
    assert unread.level == "unknown" and "tomorrows_shared" in unread.note
    padded = lens.read((data / "matmul_gfx1250.ttgir").read_text())
    assert any("padded_shared" in m.note for m in padded.moves)


def test_an_async_copy_moves_the_buffers_elements():
    """tests/lens/data/async_copy.ttgir: Triton 3.9 compiles its copy to cp.async.cg (16-byte copies of 4 f32)."""
    text = (pathlib.Path(__file__).parent / "data" / "async_copy.ttgir").read_text()
    alloc, copy, load = lens.read(text).moves
    assert (alloc.level, alloc.scratch_bytes) == ("allocation", 32 * 32 * 4)
    assert (copy.level, copy.store_vector, copy.instructions) == ("global to shared", 4, ("cp.async.cg.shared.global",))
    assert load.instructions == ("ld.shared.v4.b32",)
