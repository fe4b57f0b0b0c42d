"""Every example of the two tt-mlir seeds (tensor-layout.md and device.md), as printed there."""

import numpy as np
import pytest

from unilayout import LayoutError, ParseError, affine, tt

# --- tensor-layout.md ------------------------------------------------------------

SEED_TENSORS = [
    # (text as in the seed, shard/memref shape, physical shape)
    ("""tensor<2x3x64x128xf32,
  #tt.metal_layout<
    (d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3),
    undef,
    <1x1>,
    memref<384x128xf32, #tt.memory_space<l1>>
  >
>""", (384, 128), (384, 128)),
    ("""tensor<2x3x64x128xf32,
  #tt.metal_layout<
    (d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3),
    undef,
    <2x4>,
    memref<192x32xf32, #tt.memory_space<l1>>
  >
>""", (192, 32), (384, 128)),
    ("""tensor<8x300xf32,
  #tt.metal_layout<(d0, d1) -> (d0, d1),
    undef,
    <1x2>,
    memref<8x150xf32, #tt.memory_space<l1>>
  >
>""", (8, 150), (8, 300)),
    ("""tensor<8x96x32xf32,
  #tt.metal_layout<(d0, d1, d2) -> (d0 * 96 + d1, d2),
    undef,
    <2x1>,
    memref<384x32xf32, #tt.memory_space<l1>>
  >
>""", (384, 32), (768, 32)),
    ("""tensor<8x96x32xf32,
  #tt.metal_layout<(d0, d1, d2) -> (d0 * 96 + d1, d1, d2),
    undef,
    <2x1x2>,
    memref<384x96x16xf32, #tt.memory_space<l1>>
  >
>""", (384, 96, 16), (768, 96, 32)),
    ("""tensor<5x3x2x2x7x32x32xf32,
  #tt.metal_layout<
    (d0, d1, d2, d3, d4, d5, d6)
      -> (d0 * 2688 + d1 * 896 + d2 * 448 + d3 * 224 + d4 * 32 + d5, d4, d5, d6),
    undef,
    <3x2x2x2>,
    memref<4480x4x16x16xf32, #tt.memory_space<l1>>
  >
>""", (4480, 4, 16, 16), (13440, 7, 32, 32)),
    ("""tensor<3x64x128xf32,
  #tt.metal_layout<
    (d0, d1, d2) -> (d0 * 64 + d1, d2),
    undef,
    <3x2>,
    memref<64x64xf32, #tt.memory_space<l1>>
  >
>""", (64, 64), (192, 128)),
    ("""tensor<3x64x128xf32,
  #tt.metal_layout<
    (d0, d1, d2) -> (d0 * 64 + d1, d2),
    undef,
    <3x2>,
    memref<2x2x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>
  >
>""", (2, 2), (192, 128)),
    ("""tensor<53x63xf32,
  #tt.metal_layout<
    (d0, d1) -> (d0, d1),
    undef,
    <3x2>,
    memref<18x32xf32, #tt.memory_space<l1>>
  >
>""", (18, 32), (53, 63)),
    ("""tensor<53x63xf32,
  #tt.metal_layout<
    (d0, d1) -> (d0, d1),
    undef,
    <3x2>,
    memref<1x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>
  >
>""", (1, 1), (53, 63)),
    ("""tensor<2x8x32xf32,
  #tt.metal_layout<
    (d0, d1, d2) -> (d0 * 8 + d1, d2),
    undef,
    <1x2>,
    memref<16x16xf32, #tt.memory_space<l1>>
  >
>""", (16, 16), (16, 32)),
    ("""tensor<2x3x64x128xf32,
  #tt.metal_layout<(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3),
    undef,
    <2x2x4>,
    memref<1x3x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>
  >
>""", (1, 3, 1), (2, 192, 128)),
    # device.md
    ("""tensor<16x3x64x128xf32,
  #tt.metal_layout<(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3),
    undef,
    <2x2x4>,
    memref<8x3x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>
  >
>""", (8, 3, 1), (16, 192, 128)),
    ("""tensor<256x1024xf32,
  #tt.metal_layout<(d0, d1) -> (d0, d1),
    undef,
    <4x16>,
    memref<2x2x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>
  >
>""", (2, 2), (256, 1024)),
]


@pytest.mark.parametrize("text, memref, physical", SEED_TENSORS)
def test_seed_tensor_parses_with_its_memref_and_round_trips(text, memref, physical):
    ml = tt.parse(text)
    assert ml.memref_shape == memref
    assert ml.physical_shape == physical
    assert tt.parse(ml.tensor_type()) == ml
    assert "\n" not in ml.tensor_type()


def test_device_md_inconsistent_tensor_is_rejected_naming_the_mismatch():
    text = """tensor<64x256x1024xf32,
  #tt.metal_layout<(d0, d1) -> (d0, d1),
    undef,
    <2x4x16>,
    memref<32x2x2x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>
  >
>"""
    with pytest.raises(ParseError, match="affine map has 2 dims but the tensor has rank 3") as e:
        tt.parse(text)
    assert text[e.value.position:].startswith("(d0, d1) -> (d0, d1)")
    # With a rank-3 map its memref is consistent.
    fixed = text.replace("(d0, d1) -> (d0, d1)", "(d0, d1, d2) -> (d0, d1, d2)")
    assert tt.parse(fixed).memref_shape == (32, 2, 2)


def test_walkthrough_remaps_index_1_1_6_100_to_262_100():
    ml = tt.parse(SEED_TENSORS[0][0])
    assert ml.linear(1, 1, 6, 100) == (262, 100)
    assert ml.linear(1, 2, 63, 127) == (383, 127)


def test_from_collapse_default_reproduces_walkthrough_map():
    ml = tt.MetalLayout.from_collapse((2, 3, 64, 128), (1, 1))
    assert str(ml.linear) == "(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)"
    assert ml == tt.parse(SEED_TENSORS[0][0])
    assert tt.MetalLayout.from_collapse((2, 3, 64, 128), (2, 4)) == tt.parse(SEED_TENSORS[1][0])


@pytest.mark.parametrize(
    "rank, intervals, grid_rank, expected_groups",
    [
        (3, [(0, -1)], 2, ((0, 1), (2,))),
        (4, [(1, -1)], 3, ((0,), (1, 2), (3,))),
        (4, [(0, 2)], 3, ((0, 1), (2,), (3,))),
        (7, [(0, 3), (-3, -1)], 4, ((0, 1, 2), (3,), (4, 5), (6,))),
    ],
)
def test_collapse_interval_examples_give_the_seed_groups(rank, intervals, grid_rank, expected_groups):
    assert tt.collapse_groups(rank, intervals) == expected_groups
    m = tt.collapse_map((2,) * rank, grid_rank, intervals)
    assert m.num_results == grid_rank
    for res, group in zip(m.results, expected_groups):
        assert res.dims() == frozenset(group)


def test_tilized_3x64x128_example():
    scalar = tt.parse(SEED_TENSORS[6][0])
    tiled = tt.parse(SEED_TENSORS[7][0])
    assert scalar.tilize((32, 32), "bfp_bf8") == tiled
    assert tiled.logical_shape == (3, 64, 128) and tiled.element_type == "f32"


def test_53x63_padding_one_row_and_one_column_of_grid_padding():
    ml = tt.parse(SEED_TENSORS[8][0])
    p = ml.padding_summary()
    # 1 scalar row of padding on the last row of cores, 1 column on the last column of cores.
    assert p.padding[..., 0].tolist() == [[0, 0], [0, 0], [1, 1]]
    assert p.padding[..., 1].tolist() == [[0, 1], [0, 1], [0, 1]]
    assert p.total == 3 * 2 * 18 * 32 - 53 * 63


def test_53x63_tilized_has_14_padded_rows_per_core_and_15_in_the_last_core_row():
    ml = tt.parse(SEED_TENSORS[9][0])
    p = ml.padding_summary()
    assert p.padding[..., 0].tolist() == [[14, 14], [14, 14], [15, 15]]
    assert p.slots.tolist() == [[448, 466], [448, 466], [480, 497]]
    assert p.total == 6 * 1024 - 53 * 63 == 2805
    assert int(ml.padding_mask().sum()) == 2805


def test_stride_bump_puts_each_batch_on_its_own_tile():
    packed = tt.parse(SEED_TENSORS[10][0])
    assert packed.tilize().memref_shape == (1, 1)  # both batches packed in one tile
    bumped = tt.MetalLayout((2, 8, 32), "(d0, d1, d2) -> (d0 * 32 + d1, d2)", (1, 2))
    assert bumped.physical_shape == (40, 32) and bumped.memref_shape == (40, 16)
    t = bumped.tilize()
    assert t.memref_shape == (2, 1)
    for b in range(2):
        for r in range(8):
            G, q = t.locate(b, r, 0)
            assert q[0] // 32 == b  # batch b lies in tile row b
    assert tt.MetalLayout.from_collapse((2, 8, 32), (1, 2), dim_alignments=(1, 32, 1)) == bumped


def test_multi_device_2x2x4_grid_divides_batch_over_the_outer_grid_dim():
    ml = tt.parse(SEED_TENSORS[11][0])
    assert tt.MetalLayout.from_collapse((2, 3, 64, 128), (2, 2, 4), [(1, -1)], tile=(32, 32), tile_dtype="bfp_bf8") == ml
    for b in range(2):
        assert ml.locate(b, 2, 63, 127)[0][0] == b


def test_memory_spaces_of_the_spec_are_the_four():
    assert tt.MEMORY_SPACES == ("system", "mmio", "dram", "l1")
    for space in tt.MEMORY_SPACES:
        ml = tt.MetalLayout.from_collapse((64, 64), (1, 1), memory_space=space)
        assert f"#tt.memory_space<{space}>" in ml.tensor_type()
        assert tt.parse(ml.tensor_type()).memory_space == space


# --- device.md ---------------------------------------------------------------------------

SEED_DEVICES = {
    "single": """#tt.device<
workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>,
meshShape = 1,
chipIds = [0]
>""",
    "batch": """#tt.device<
workerGrid = #tt.grid<2x8x8, (d0, d1, d2) -> (d0, d1, d2)>,
meshShape = 2x1x1,
chipIds = [0, 1]
>""",
    "2d": """#tt.device<
workerGrid = #tt.grid<8x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0, d1 mod 8)>,
meshShape = 1x2,
chipIds = [0, 1]
>""",
    "2d_batch": """#tt.device<
workerGrid = #tt.grid<2x8x16, (d0, d1, d2) -> (d0 * 2 + (d1 floordiv 8) * 2 + d2 floordiv 8, d1, d2 mod 8)>,
meshShape = 2x1x2,
chipIds = [0, 1, 2, 3]
>""",
    "pipeline_b": """#tt.device<
workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>,
meshShape = 2x2,
chipIds = [4, 5, 6, 7]
>""",
    "transpose": """#tt.device<
workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d1, d0)>,
meshShape = 1,
chipIds = [0]
>""",
    "extra_wide": """#tt.device<
workerGrid = #tt.grid<1x64, (d0, d1) -> (0, d0 * 8 + d1 floordiv 8, d1 mod 8)>,
meshShape = 1,
chipIds = [0]
>""",
    "extra_tall": """#tt.device<
workerGrid = #tt.grid<64x1, (d0, d1) -> (0, d1 * 8 + d0 floordiv 8, d0 mod 8)>,
meshShape = 1,
chipIds = [0]
>""",
    "staircase": """#tt.device<
workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, (d0 + d1) mod 8)>,
meshShape = 1,
chipIds = [0]
>""",
}

SYSTEM8 = tt.SystemDesc((8, 8), 8)


@pytest.mark.parametrize("name", sorted(SEED_DEVICES))
def test_seed_device_parses_validates_and_round_trips(name):
    dev = tt.parse(SEED_DEVICES[name])
    assert dev.validate(SYSTEM8) is dev
    assert tt.parse(str(dev)) == dev
    assert "\n" not in str(dev)


@pytest.mark.parametrize(
    "name, mesh, chip_ids",
    [("single", (1,), None), ("batch", (2, 1, 1), None), ("2d", (1, 2), None), ("2d_batch", (2, 1, 2), None),
     ("pipeline_b", (2, 2), [4, 5, 6, 7])],
)
def test_seed_device_equals_from_mesh_on_the_whole_grid(name, mesh, chip_ids):
    seed = tt.parse(SEED_DEVICES[name])
    built = tt.Device.from_mesh(SYSTEM8, mesh, chip_ids)
    assert built.grid_shape == seed.grid_shape
    assert np.array_equal(built.physical_cores(), seed.physical_cores())
    assert (built.mesh_shape, built.chip_ids) == (seed.mesh_shape, seed.chip_ids)


def test_single_chip_and_batch_devices_are_generated_verbatim():
    assert tt.Device.from_mesh(SYSTEM8, (1,)) == tt.parse(SEED_DEVICES["single"])
    assert tt.Device.from_mesh(SYSTEM8, (2, 1, 1)) == tt.parse(SEED_DEVICES["batch"])


def test_2d_device_wraps_to_the_next_chip_past_8_columns():
    dev = tt.parse(SEED_DEVICES["2d"])
    assert dev.physical_core(0, 7) == (0, 0, 7)
    assert dev.physical_core(0, 8) == (1, 0, 0)
    assert dev.physical_core(7, 15) == (1, 7, 7)


def test_2d_batch_device_groups_chips_in_pairs():
    dev = tt.parse(SEED_DEVICES["2d_batch"])
    assert {dev.physical_core(0, y, x)[0] for y in range(8) for x in range(16)} == {0, 1}
    assert {dev.physical_core(1, y, x)[0] for y in range(8) for x in range(16)} == {2, 3}
    assert dev.physical_core(1, 7, 15) == (3, 7, 7)


def test_pipeline_parallel_devices_take_disjoint_chips_and_overlap_is_rejected():
    a = tt.parse(SEED_DEVICES["2d_batch"])
    b = tt.parse(SEED_DEVICES["pipeline_b"])
    assert tt.pipeline(SYSTEM8, a, b) == (a, b)
    assert b.physical_core(8, 0) == (6, 0, 0)
    overlapping = tt.Device.from_mesh(SYSTEM8, (2, 2), [3, 4, 5, 6])
    with pytest.raises(LayoutError, match=r"share chip\(s\) \[3\]"):
        tt.pipeline(SYSTEM8, a, overlapping)


def test_data_parallel_over_batch_tensor_spans_both_chips_half_the_batch_each():
    dev = tt.parse(SEED_DEVICES["batch"])
    ml = tt.parse(SEED_TENSORS[12][0])
    p = dev.place(ml)
    assert p.chips == (0, 1) and p.distribution == ("sharded", None, None) and p.per_chip_grid == (1, 2, 4)
    assert (p.cores[0, ..., 0] == 0).all() and (p.cores[1, ..., 0] == 1).all()
    # within each chip the tensor occupies a 2x4 block of cores
    assert p.cores[1, :, :, 1].max() == 1 and p.cores[1, :, :, 2].max() == 3


def test_data_parallel_over_2d_tensor_spans_upper_half_of_both_chips():
    dev = tt.parse(SEED_DEVICES["2d"])
    p = dev.place(tt.parse(SEED_TENSORS[13][0]))
    assert p.chips == (0, 1) and p.distribution == (None, "sharded")
    assert set(np.unique(p.cores[..., 1]).tolist()) == {0, 1, 2, 3}  # upper half: rows 0..3 of each chip


def test_transpose_reinterpretation_swaps_core_coordinates_without_moving_data():
    base = tt.parse(SEED_DEVICES["single"])
    t = base.reinterpret(affine.parse("(d0, d1) -> (0, d1, d0)"))
    assert t == tt.parse(SEED_DEVICES["transpose"])
    assert t.physical_core(3, 5) == (0, 5, 3)


@pytest.mark.parametrize(
    "name, point, core",
    [("extra_wide", (0, 9), (0, 1, 1)), ("extra_wide", (0, 63), (0, 7, 7)), ("extra_tall", (9, 0), (0, 1, 1)),
     ("staircase", (7, 7), (0, 7, 6)), ("staircase", (2, 7), (0, 2, 1)), ("transpose", (3, 5), (0, 5, 3))],
)
def test_reinterpreted_grid_map_values(name, point, core):
    assert tt.parse(SEED_DEVICES[name]).physical_core(*point) == core


def test_single_chip_identity_maps_every_core_to_itself():
    cores = tt.parse(SEED_DEVICES["single"]).physical_cores()
    assert (cores[..., 1] == np.arange(8)[:, None]).all() and (cores[..., 2] == np.arange(8)).all()
