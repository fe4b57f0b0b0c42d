"""lens.table: the per-function text table and short type names."""

from unilayout import lens
from unilayout.lens.table import format_table, short_type


def _dump():
    a = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>"
    b = "#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>"
    return lens.read(f"""#a = {a}
#b = {b}
module attributes {{"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"}} {{
  tt.func @one(%x: tensor<64x128xf16, #a>) {{
    %0 = ttg.convert_layout %x : tensor<64x128xf16, #a> -> tensor<64x128xf16, #b> loc(#loc1)
    tt.return
  }}
  tt.func @two() {{
    tt.return
  }}
}}
#loc1 = loc("/home/k.py":7:3)
""")


def test_one_block_per_function_with_a_summary():
    lines = format_table(_dump()).splitlines()
    assert lines[0] == "triton dump: cuda:90, 4 warps x 32 threads, 1 CTA"
    assert lines[1] == "@one: 1 move, 16384 B scratch" and lines[-1] == "@two: 0 moves, 0 B scratch"
    row = lines[3].split()
    assert row[:2] == ["ttg.convert_layout", "k.py:7:3"] and "16384" in row and "0/0" in row and "8/8" in row


def test_short_type():
    assert short_type("tensor<64x128xf16, #blocked>") == "64x128xf16 #blocked"
    assert short_type("i32") == "i32"
