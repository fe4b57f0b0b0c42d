"""lens.ttmlir: tt-mlir dumps — every metal/TTNN layout by SSA value, every layout change priced by plan.reshard_cost."""

from unilayout import lens, tt
from unilayout.lens import mlir, ttmlir
from unilayout.plan import reshard_cost

L1 = ("#l1 = #ttcore.metal_layout<logical_shape = 32x256, dim_alignments = 32x32, collapsed_intervals = dense<> : "
      "tensor<0x2xi64>, undef, l1, sharded>")
DEVICE = ("#dev = #ttcore.device<workerGrid = #ttcore.grid<8x8, (d0, d1) -> (0, d0, d1)>, l1Map = (d0, d1, d2)[s0] -> "
          "(0, d0, d1, d2 + s0), dramMap = (d0, d1, d2)[s0, s1] -> (0, 0, 0, d0 * s1 + d1 * s1 + d2 + s0), meshShape = , "
          "chipIds = [0]>")
D2M = f"""{L1}
{DEVICE}
module attributes {{ttcore.device = #dev}} {{
  func.func @f(%arg0: tensor<32x256xf32>) -> tensor<1x2x32x128xf32, #l1> {{
    %0 = d2m.empty() : tensor<1x1x32x256xf32, #l1>
    %1 = d2m.to_layout %arg0, %0 : tensor<32x256xf32> into tensor<1x1x32x256xf32, #l1> -> tensor<1x1x32x256xf32, #l1>
    %2 = d2m.empty() : tensor<1x2x32x128xf32, #l1>
    %3 = d2m.to_layout %1, %2 : tensor<1x1x32x256xf32, #l1> into tensor<1x2x32x128xf32, #l1>
      -> tensor<1x2x32x128xf32, #l1>
    %4 = d2m.view_layout %3 remapping = #map : tensor<1x2x32x128xf32, #l1> -> tensor<1x2x32x128xf32, #l1>
    return %4 : tensor<1x2x32x128xf32, #l1>
  }}
}}
"""


def test_every_device_tensor_is_a_layout_value():
    d = lens.read(D2M)
    assert d.kind == "tt-mlir"
    assert [v.name for v in d.values] == ["%0", "%1", "%2", "%3", "%4"]  # %arg0 is a host tensor: no layout
    assert d.layout("%3").grid == (1, 2) and d.layout("%1").grid == (1, 1)


def test_layout_changes_are_priced_by_reshard_cost():
    d = lens.read(D2M)
    host, reshard, view = d.moves
    assert (host.op, host.level, host.moved_bytes) == ("d2m.to_layout", "host to device", 32 * 256 * 4)
    dev = tt.parse(DEVICE)
    layouts = ttmlir.Layouts(mlir.read_module(D2M))
    want = reshard_cost(layouts.get("tensor<1x1x32x256xf32, #l1>"), layouts.get("tensor<1x2x32x128xf32, #l1>"), dev)
    assert (reshard.local_bytes, reshard.on_chip_bytes, reshard.chip_to_chip_bytes, reshard.transfers) == \
        (want.local_bytes, want.on_chip_bytes, want.chip_to_chip_bytes, want.transfers)
    assert reshard.level == "on chip (NoC)" and reshard.note == ""  # the dump's own device
    assert view.op == "d2m.view_layout" and view.level.startswith("in place") and view.moved_bytes == 32 * 256 * 4


def test_without_a_device_a_single_chip_is_assumed_and_said():
    text = "\n".join(line for line in D2M.splitlines() if not line.startswith("#dev"))
    mv = lens.read(text).moves[1]
    assert "no #ttcore.device" in mv.note and mv.on_chip_bytes == lens.read(D2M).moves[1].on_chip_bytes


def test_ttnn_to_memory_config_between_ttnn_layouts():
    a = ("#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x8x!ttcore.tile<32x32, f32>, "
         "#ttnn.buffer_type<l1>>, <block_sharded>>")
    b = ("#ttnn_layout1 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, memref<1x1x!ttcore.tile<32x32, f32>, "
         "#ttnn.buffer_type<l1>>, <block_sharded>>")
    text = (f"{a}\n{b}\nmodule {{\n  func.func @g(%x: tensor<256x256xf32, #ttnn_layout>) -> tensor<256x256xf32, #ttnn_layout1> {{\n"
            '    %0 = "ttnn.to_memory_config"(%x) <{memory_config = #mc}> : (tensor<256x256xf32, #ttnn_layout>) -> '
            "tensor<256x256xf32, #ttnn_layout1> loc(#loc1)\n    return %0 : tensor<256x256xf32, #ttnn_layout1>\n  }\n}\n"
            '#loc1 = loc("model.py":3:1)\n')
    d = lens.read(text)
    (mv,) = d.moves
    src, dst = d.layout("%x"), d.layout("%0")
    want = reshard_cost(src, dst, tt.Device((8, 8), "(d0, d1) -> (0, d0, d1)"))
    assert mv.location == "model.py:3:1" and mv.on_chip_bytes == want.on_chip_bytes and mv.local_bytes == want.local_bytes
    assert mv.on_chip_bytes + mv.local_bytes == 256 * 256 * 4


def test_the_table_names_the_tt_mlir_columns():
    table = lens.read(D2M).table()
    assert table.splitlines()[0].startswith("tt-mlir dump") and "chip-to-chip" in table and "d2m.view_layout" in table
