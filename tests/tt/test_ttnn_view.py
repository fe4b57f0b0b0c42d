"""tt.ttnn_view, the TTNN view of a metal layout: fields, memory layouts, shard specs, what TTNN cannot express."""

import pytest

from unilayout import LayoutError, NotRepresentableError, tt
from unilayout.tt import CoreRange, MetalLayout, ShardSpec, TTNNLayout
from unilayout.tt.ttnn_view import core_ranges

ML = MetalLayout


def test_seed_view_fields():
    v = ML.from_collapse((2, 3, 64, 128), (2, 4), tile=(32, 32)).to_ttnn()
    assert v.shape == (2, 3, 64, 128)
    assert v.stride == (24576, 8192, 128, 1)
    assert v.shard_shape == (192, 32) and v.physical_shard_shape == (192, 32)
    assert v.tile_shape == (32, 32) and v.grid_shape == (2, 4)
    assert v.memory_layout == "BLOCK_SHARDED" and v.buffer_type == "L1"


def test_physical_shard_shape_is_the_shard_rounded_up_to_the_tile():
    v = ML.from_collapse((53, 63), (3, 2), tile=(32, 32)).to_ttnn()
    assert v.shard_shape == (18, 32) and v.physical_shard_shape == (32, 32)
    s = ML.from_collapse((53, 63), (3, 2)).to_ttnn()
    assert s.tile_shape is None and s.physical_shard_shape == (18, 32)


def test_block_sharding_row_and_col_major():
    ml = ML.from_collapse((2, 3, 64, 128), (2, 4))
    row = ml.to_ttnn()
    assert row.shard_spec == ShardSpec((CoreRange((0, 0), (3, 1)),), (192, 32), "ROW_MAJOR")
    col = ml.to_ttnn("col_major")
    assert col.shard_spec == ShardSpec((CoreRange((0, 0), (1, 3)),), (192, 32), "COL_MAJOR")  # height over x


@pytest.mark.parametrize(
    "grid, space, layout, shard, ranges",
    [
        ((1, 1), "dram", "INTERLEAVED", None, None),
        ((1, 1), "system", "INTERLEAVED", None, None),
        ((1, 1), "l1", "BLOCK_SHARDED", (256, 1024), (CoreRange((0, 0), (0, 0)),)),
        ((8, 1), "l1", "HEIGHT_SHARDED", (32, 1024), (CoreRange((0, 0), (7, 0)),)),
        ((16, 1), "l1", "HEIGHT_SHARDED", (16, 1024), (CoreRange((0, 0), (7, 1)),)),
        ((1, 12), "l1", "WIDTH_SHARDED", (256, 86), (CoreRange((0, 0), (7, 0)), CoreRange((0, 1), (3, 1)))),
        ((4, 1), "dram", "HEIGHT_SHARDED", (64, 1024), (CoreRange((0, 0), (3, 0)),)),
        ((4, 8), "l1", "BLOCK_SHARDED", (64, 128), (CoreRange((0, 0), (7, 3)),)),
    ],
)
def test_memory_layout_table(grid, space, layout, shard, ranges):
    v = ML.from_collapse((256, 1024), grid, memory_space=space).to_ttnn()
    assert v.memory_layout == layout
    if shard is None:
        assert v.shard_spec is None
    else:
        assert v.shard_spec.shape == shard and v.shard_spec.grid == ranges
        assert v.shard_spec.num_cores == grid[0] * grid[1]


def test_core_ranges_fill_x_or_y_fastest():
    assert core_ranges(8) == (CoreRange((0, 0), (7, 0)),)
    assert core_ranges(64) == (CoreRange((0, 0), (7, 7)),)
    assert core_ranges(10, (8, 8), "col_major") == (CoreRange((0, 0), (0, 7)), CoreRange((1, 0), (1, 1)))
    with pytest.raises(NotRepresentableError, match="65 shards"):
        core_ranges(65)
    with pytest.raises(LayoutError, match="orientation"):
        core_ranges(4, orientation="diagonal")


@pytest.mark.parametrize(
    "ml, message",
    [
        (ML.from_collapse((2, 3, 64, 128), (2, 2, 4), [(1, -1)]), "2-D grid"),
        (ML((64, 128), "(d0, d1) -> (d1, d0)", (1, 1)), "not TTNN's collapse"),
        (ML((4, 8, 32), "(d0, d1, d2) -> (d0 + d1 * 4, d2)", (1, 1)), "not TTNN's collapse"),
        (ML.from_collapse((256, 1024), (4, 8), memory_space="dram"), "DRAM allows height or width sharding only"),
        (ML.from_collapse((256, 1024), (4, 8), memory_space="system"), "host"),
        (ML((8, 64), "(d0, d1) -> (d0 mod 8, d1)", (1, 1)), "not TTNN's collapse"),
    ],
)
def test_layouts_ttnn_cannot_express(ml, message):
    with pytest.raises(NotRepresentableError, match=message):
        ml.to_ttnn()


def test_outer_stride_bump_is_allowed_and_appears_in_the_stride():
    v = ML((2, 8, 32), "(d0, d1, d2) -> (d0 * 32 + d1, d2)", (1, 2)).to_ttnn()
    assert v.stride == (1024, 32, 1) and v.shard_shape == (40, 16)


def test_rank_one_tensor_has_one_row():
    v = ML.from_collapse((1024,), (1, 4)).to_ttnn()
    assert v.shape == (1024,) and v.shard_shape == (1, 256) and v.memory_layout == "WIDTH_SHARDED"


def test_view_is_a_value():
    v = ML.from_collapse((64, 64), (2, 2)).to_ttnn()
    assert isinstance(v, TTNNLayout) and v == ML.from_collapse((64, 64), (2, 2)).to_ttnn() and hash(v)


def test_worker_grid_is_checked_only_when_a_device_is_given():
    ml = ML.from_collapse((128, 1024), (4, 16))  # a valid 4x16 block-sharded TTNN spec
    v = ml.to_ttnn()
    assert v.memory_layout == "BLOCK_SHARDED" and v.shard_spec.grid == (CoreRange((0, 0), (15, 3)),)
    dev = tt.Device.from_mesh(tt.SystemDesc.wormhole_b0(1), (1,))
    with pytest.raises(NotRepresentableError, match="block grid 4x16 does not fit the 8x8 worker grid"):
        ml.to_ttnn(device=dev)
    wide = tt.Device.from_mesh(tt.SystemDesc.wormhole_b0(2), (1, 2))  # 8x16 worker grid
    assert ml.to_ttnn(device=wide).shard_spec == v.shard_spec
    with pytest.raises(NotRepresentableError, match="does not fit the 8x8 worker grid"):
        ML.from_collapse((256, 1024), (16, 8)).to_ttnn(worker_grid=(8, 8))
    # height sharding over 80 cores: 8 wide, 10 rows without a device; refused on an 8x8 device
    tall = ML.from_collapse((80 * 32, 64), (80, 1))
    assert tall.to_ttnn().shard_spec.grid == (CoreRange((0, 0), (7, 9)),)
    with pytest.raises(NotRepresentableError, match="80 shards need more cores"):
        tall.to_ttnn(device=dev)
