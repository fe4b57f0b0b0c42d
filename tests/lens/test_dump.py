"""lens.dump: read(text) -> Dump — the module's facts, layouts by SSA value, moves, unknown ops, JSON."""

import json

import pytest

from unilayout import lens
from unilayout.errors import LayoutError
from unilayout.linear.encodings.types import layout

A = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
S = "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>"
DUMP = f"""#blocked = {A}
#shared = {S}
#smem = #ttg.shared_memory
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @stage(%x: tensor<64x64xf16, #blocked>) {{
    %0 = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %1 = ttg.local_load %0 : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #blocked>
    %2 = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
    ttg.local_store %1, %0 : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %3 = acme.magic %1 : tensor<64x64xf16, #blocked>
    tt.return
  }}
  tt.func @other(%y: tensor<64x64xf16, #blocked>) {{
    tt.return
  }}
}}
"""


def test_module_facts():
    d = lens.read(DUMP)
    assert (d.kind, d.num_warps, d.threads_per_warp, d.num_ctas, d.target) == ("triton", 4, 32, 1, "cuda:90")
    assert d.functions == ["stage", "other"] and set(d.aliases) == {"blocked", "shared", "smem"}


def test_layouts_by_ssa_value_are_the_types_layouts():
    d = lens.read(DUMP)
    names = [(v.function, v.name) for v in d.values]
    assert names == [("stage", "%x"), ("stage", "%0"), ("stage", "%1"), ("stage", "%2"), ("stage", "%3"),
                     ("other", "%y")]
    head = f"#blocked = {A}\n#shared = {S}\n#smem = #ttg.shared_memory\n"
    assert d.layout("%0") == layout(head + "!ttg.memdesc<64x64xf16, #shared, #smem>")
    assert d.layout("%x") == layout(head + "tensor<64x64xf16, #blocked>") == d.layout("%y", "other")
    assert set(d.layouts("other")) == {"%y"} and set(d.layouts()) == {"%x", "%0", "%1", "%2", "%3"}
    line = DUMP.splitlines()[d.value("%1").line - 1]
    v = d.value("%1")
    assert line[v.col:v.end] == "tensor<64x64xf16, #blocked>"
    with pytest.raises(LayoutError, match="no layout-carrying value %9"):
        d.value("%9")


def test_local_ops_are_priced_and_the_bare_alloc_is_an_allocation():
    d = lens.read(DUMP)
    assert [(m.op, m.level) for m in d.moves] == [
        ("ttg.local_alloc", "shared-memory store"), ("ttg.local_load", "shared-memory load"),
        ("ttg.local_alloc", "allocation"), ("ttg.local_store", "shared-memory store")]
    store, load, alloc, store2 = d.moves
    assert store.scratch_bytes == 64 * 64 * 2 and alloc.scratch_bytes == 2 * 64 * 64 * 2 and store2.scratch_bytes == 0
    assert store.store_vector == load.load_vector == 8  # 8 contiguous f16 per thread, an 8-wide swizzle vector
    assert store.store_conflicts == load.load_conflicts == 0
    assert store.instructions == ("st.shared.v4.b32",) and load.instructions == ("ld.shared.v4.b32",)


def test_unknown_dialects_are_listed_not_fatal():
    assert lens.read(DUMP).unknown_ops == ["acme.magic"]


def test_json_is_plain_data():
    data = json.loads(json.dumps(lens.read(DUMP).to_json()))
    assert data["kind"] == "triton" and [f["name"] for f in data["functions"]] == ["stage", "other"]
    moves = data["functions"][0]["moves"]
    assert moves[0]["op"] == "ttg.local_alloc" and moves[0]["instructions"] == ["st.shared.v4.b32"]
    assert data["unknown_ops"] == ["acme.magic"]


def test_not_text_is_refused():
    with pytest.raises(LayoutError, match="expected the text"):
        lens.read(b"module {}")
