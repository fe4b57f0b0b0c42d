"""lens.mlir: the dump reader (aliases, module attributes, functions, ops, SSA types, block arguments, locations)."""

import pytest

from unilayout.errors import ParseError
from unilayout.lens import mlir

DUMP = """#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4],
    warpsPerCTA = [4, 1], order = [1, 0]}>
#loc = loc("/src/kernel.py":10:0)
#loc2 = loc("/src/kernel.py":14:19)
#loc3 = loc("acc"(#loc2))
#loc4 = loc(callsite(#loc3 at #loc))
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32} loc("/src/kernel.py":10:0), %arg1: tensor<64x64xf32, #blocked>) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32 loc(#loc)
    %0:2 = scf.for %i = %c0_i32 to %c0_i32 step %c0_i32 iter_args(%acc = %arg1, %n = %c0_i32) -> (tensor<64x64xf32, #blocked>, i32)  : i32 {
      %1 = arith.addf %acc, %acc : tensor<64x64xf32, #blocked> loc(#loc4)
      scf.yield %1, %n : tensor<64x64xf32, #blocked>, i32
    } loc(#loc2)
    %2 = "tt.reduce"(%0#0) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %3 = arith.addf %a, %b : f32
      tt.reduce.return %3 : f32
    }) : (tensor<64x64xf32, #blocked>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %4 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>, #ttg.slice<{dim = 1, parent = #blocked}>>
    %5 = tt.load %4 : tensor<64x!tt.ptr<f16>, #ttg.slice<{dim = 1, parent = #blocked}>>
    tt.return
  }
}
"""


def test_aliases_join_continued_lines_and_keep_locations_apart():
    m = mlir.read_module(DUMP)
    assert m.aliases["blocked"].endswith("order = [1, 0]}>") and "warpsPerCTA = [4, 1]" in m.aliases["blocked"]
    assert set(m.aliases) == {"blocked"} and set(m.locations) == {"loc", "loc2", "loc3", "loc4"}


def test_module_attributes_are_read_as_values():
    a = mlir.read_module(DUMP).attributes
    assert a == {"ttg.num-ctas": 1, "ttg.num-warps": 8, "ttg.target": "cuda:90", "ttg.threads-per-warp": 32}


def test_every_ssa_value_gets_its_type():
    fn = mlir.read_module(DUMP).functions[0]
    assert fn.name == "kernel"
    t = fn.types
    assert t["%arg0"] == "!tt.ptr<f16>" and t["%arg1"] == "tensor<64x64xf32, #blocked>"
    assert t["%i"] == "i32" and t["%acc"] == "tensor<64x64xf32, #blocked>" and t["%n"] == "i32"
    assert t["%0#0"] == "tensor<64x64xf32, #blocked>" and t["%0#1"] == "i32"
    assert t["%a"] == "f32" and t["%3"] == "f32"
    assert t["%2"] == "tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>"  # a generic op's closing line
    assert t["%4"] == "tensor<64x!tt.ptr<f16>, #ttg.slice<{dim = 1, parent = #blocked}>>"
    assert t["%5"] == "tensor<64xf16, #ttg.slice<{dim = 1, parent = #blocked}>>"  # tt.load prints its pointers


def test_ops_in_order_with_operands_and_locations():
    m = mlir.read_module(DUMP)
    ops = m.functions[0].ops
    assert [o.name for o in ops] == ["arith.constant", "scf.for", "arith.addf", "scf.yield", "tt.reduce",
                                     "arith.addf", "tt.reduce.return", "tt.splat", "tt.load", "tt.return"]
    add = ops[2]
    assert add.operands == ("%acc", "%acc") and add.line == 11
    assert m.location(add.location) == "kernel.py:14:19"  # callsite -> its callee, a name -> what it names
    assert m.location(ops[0].location) == "kernel.py:10:0" and m.location(None) is None


def test_type_spans_point_at_the_text():
    m = mlir.read_module(DUMP)
    lines = DUMP.splitlines()
    for op in m.functions[0].ops:
        for s in op.spans:
            assert lines[s.line - 1][s.col:s.end] == s.text


def test_split_top_respects_brackets_and_arrows():
    assert mlir.split_top("(a, b) -> (c, d)", "->") == ["(a, b)", "(c, d)"]
    assert mlir.split_top('tensor<2xf32, #a<{x = [1, 2]}>>, "a,b", i1') == ['tensor<2xf32, #a<{x = [1, 2]}>>', '"a,b"', "i1"]


def test_a_type_that_never_closes_is_a_parse_error_with_line_and_column():
    text = DUMP.replace("%5 = tt.load %4 : tensor<64x!tt.ptr<f16>, #ttg.slice<{dim = 1, parent = #blocked}>>",
                        "%5 = tt.load %4 : tensor<64x!tt.ptr<f16>, #blocked")
    lineno = next(i for i, line in enumerate(text.splitlines(), 1) if "#blocked\n" in line + "\n" and "tt.load" in line)
    with pytest.raises(ParseError, match=rf"line {lineno}, column 23") as e:
        mlir.read_module(text)
    assert text[e.value.position:].startswith("tensor<64x!tt.ptr")


def test_an_op_continued_on_the_next_line_is_one_op():
    m = mlir.read_module("module {\n  func.func @f(%a: tensor<4xf32>) {\n    %0 = d2m.to_layout %a, %a : tensor<4xf32> into tensor<4xf32>\n"
                         "      -> tensor<4xf32, #l>\n    return\n  }\n}")
    ops = m.functions[0].ops
    assert [o.name for o in ops] == ["d2m.to_layout", "return"] and ops[0].result_types == ("tensor<4xf32, #l>",)
