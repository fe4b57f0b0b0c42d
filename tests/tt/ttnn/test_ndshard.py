"""tt.ttnn.ndshard: TTNN ND sharding — which core holds each shard, and shard/unshard of real arrays."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unilayout.errors import LayoutError, NotRepresentableError
from unilayout.tt import CoreRange, MetalLayout
from unilayout.tt.ttnn.memory_config import create_sharded_memory_config
from unilayout.tt.ttnn.ndshard import (
    GRID_2D,
    ROUND_ROBIN_1D,
    NdShardSpec,
    block_sharded,
    corerange_to_cores,
    height_sharded,
    sharded_across_dims,
    width_sharded,
)


def test_cores_are_listed_range_by_range_in_orientation_order():
    ranges = [((0, 0), (2, 0)), ((0, 1), (1, 2))]
    assert corerange_to_cores(ranges) == ((0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (0, 2), (1, 2))
    assert corerange_to_cores(ranges, "col_major") == ((0, 0), (1, 0), (2, 0), (0, 1), (0, 2), (1, 1), (1, 2))


def test_round_robin_table():
    # 3x5 in 2x2 shards: grid 2x3, six shards on four cores, k -> cores[k mod 4]
    spec = NdShardSpec((2, 2), [((0, 0), (1, 1))])
    assert spec.core_of_shards((3, 5)).reshape(-1, 2).tolist() == [[0, 0], [1, 0], [0, 1], [1, 1], [0, 0], [1, 0]]
    col = NdShardSpec((2, 2), [((0, 0), (1, 1))], "col_major")
    assert col.core_of_shards((3, 5)).reshape(-1, 2).tolist() == [[0, 0], [0, 1], [1, 0], [1, 1], [0, 0], [0, 1]]
    assert spec.shards_per_core((3, 5)) == (2, 2, 1, 1)


def test_grid_2d_is_one_to_one_on_the_rectangle():
    # tt-metal: a 3x2 grid (x by y) over 64x192 with 32x64 shards fits; after a WH transpose it needs 3 rows
    spec = NdShardSpec((32, 64), [((0, 0), (2, 1))], distribution=GRID_2D)
    assert spec.core_of_shards((64, 192)).tolist() == [[[0, 0], [1, 0], [2, 0]], [[0, 1], [1, 1], [2, 1]]]
    with pytest.raises(NotRepresentableError, match="needs 2x3 cores"):
        NdShardSpec((64, 32), [((0, 0), (2, 1))], distribution=GRID_2D).core_of_shards((192, 64))
    col = NdShardSpec((32, 64), [((1, 1), (2, 3))], "col_major", GRID_2D)
    assert col.core_of_shards((64, 192)).tolist() == [[[1, 1], [1, 2], [1, 3]], [[2, 1], [2, 2], [2, 3]]]
    with pytest.raises(LayoutError, match="one core rectangle"):
        NdShardSpec((1, 1), [((0, 0), (0, 0)), ((1, 1), (1, 1))], distribution=GRID_2D)


def test_leading_dims_fold_into_the_outermost_shard_dim():
    spec = NdShardSpec((64, 32), (4, 1))  # a 2-D shard on a 4-D tensor chunks N*C*H
    assert spec.shard_grid((2, 3, 32, 64)) == (3, 2)
    a = np.arange(2 * 3 * 32 * 64).reshape(2, 3, 32, 64)
    s = spec.shard(a)
    assert np.array_equal(s[0, 0], a.reshape(192, 64)[:64, :32])
    assert np.array_equal(spec.unshard(s, a.shape), a)


def test_block_sharded_matches_the_metal_layout_core_by_core():
    a = np.random.default_rng(0).random((3, 100, 96)).astype(np.float32)
    spec = block_sharded(a.shape, (4, 3))  # 4 cores wide (x), 3 tall (y): rows over y, columns over x
    assert spec.distribution == GRID_2D and spec.shard_shape == (100, 24)
    ml = MetalLayout.from_collapse(a.shape, (3, 4))
    per_core = spec.shard(a)
    metal = ml.shard(a)
    for i, (x, y) in enumerate(spec.cores):
        assert np.array_equal(per_core[i, 0], metal[y, x])


def test_height_and_width_helpers_and_their_legacy_memory_config():
    h = height_sharded((2, 64, 96), (4, 2))
    assert h.shard_shape == (16, 96) and h.distribution == ROUND_ROBIN_1D
    assert height_sharded((2, 64, 96), (4, 2), tile=(32, 32)).shard_shape == (32, 96)
    w = width_sharded((64, 1000), [((0, 0), (7, 0))], tile=(32, 32))
    assert w.shard_shape == (64, 128)
    c = create_sharded_memory_config((2, 64, 96), (8, 1), "height")
    assert c.memory_layout == "height_sharded" and c.shard_spec.shape == (16, 96)
    assert c.to_metal((2, 64, 96)) == MetalLayout.from_collapse((2, 64, 96), (8, 1))
    col = create_sharded_memory_config((384, 128), (2, 4), "block", "col_major")
    assert col.shard_spec.shape == (192, 32) and col.shard_spec.grid == (CoreRange((0, 0), (1, 3)),)
    with pytest.raises(LayoutError, match="strategy"):
        create_sharded_memory_config((4, 4), (1, 1), "diagonal")


def test_sharded_across_dims():
    s = sharded_across_dims((2, 3, 32, 32), [0, -3], (2, 2))
    assert s.shard_shape == (1, 1, 32, 32)
    a = np.arange(2 * 3 * 32 * 32).reshape(2, 3, 32, 32)
    out = s.shard(a)
    assert out.shape == (4, 2, 1, 1, 32, 32)
    assert np.array_equal(out[1, 1, 0, 0], a[1, 2])  # shard 5 = (1, 2) -> core 5 mod 4 = 1, slot 1


def test_value_semantics_and_errors():
    a = NdShardSpec((2, 2), (2, 2))
    assert a == NdShardSpec([2, 2], [((0, 0), (1, 1))]) and hash(a) == hash(NdShardSpec((2, 2), (2, 2)))
    assert eval(repr(a), {"NdShardSpec": NdShardSpec}) == a
    with pytest.raises(LayoutError, match="overlap"):
        NdShardSpec((1,), [((0, 0), (1, 1)), ((1, 1), (2, 2))])
    with pytest.raises(LayoutError, match="distribution"):
        NdShardSpec((1,), (1, 1), distribution="RANDOM")
    with pytest.raises(LayoutError, match="do not match"):
        a.unshard(np.zeros((4, 1, 2, 2)), (5, 5))
    with pytest.raises(AttributeError):
        a.orientation = "COL_MAJOR"


@st.composite
def specs(draw):
    rank = draw(st.integers(1, 3))
    shape = tuple(draw(st.integers(1, 9)) for _ in range(rank + draw(st.integers(0, 1))))
    shard = tuple(draw(st.integers(1, 5)) for _ in range(rank))
    gx, gy = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    orient = draw(st.sampled_from(["row_major", "col_major"]))
    dist = draw(st.sampled_from([ROUND_ROBIN_1D, GRID_2D]))
    spec = NdShardSpec(shard, [((0, 0), (gx - 1, gy - 1))], orient, dist)
    return spec, shape


@settings(max_examples=80, deadline=None)
@given(specs())
def test_property_shard_unshard_lossless_and_padding_counted(case):
    spec, shape = case
    a = np.arange(1, math.prod(shape) + 1, dtype=np.int64).reshape(shape)
    try:
        s = spec.shard(a, fill=0)
    except NotRepresentableError:
        assert spec.distribution == GRID_2D
        return
    assert np.array_equal(spec.unshard(s, shape), a)
    assert int((s == 0).sum()) == s.size - a.size  # every slot that holds no element is padding
    grid = spec.shard_grid(shape)
    assert sum(spec.shards_per_core(shape)) == math.prod(grid)


def test_to_metal_names_a_bad_buffer_type_as_a_memory_config_does():
    spec = NdShardSpec((32, 64), [((0, 0), (3, 1))], distribution="GRID_2D")
    with pytest.raises(LayoutError, match="buffer type 'sram' is not one of dram, l1"):
        spec.to_metal((64, 256), buffer_type="sram")
    assert spec.to_metal((64, 256), buffer_type="dram").memory_space == "dram"


def test_core_ranges_past_max_cores_are_refused_before_the_cores_are_listed():
    import time

    import unilayout
    from unilayout.errors import ParseError
    from unilayout.tt.ttnn.ndshard import MAX_CORES

    t = time.perf_counter()
    with pytest.raises(ParseError, match=f"6442450947 cores are more than the MAX_CORES = {MAX_CORES}") as e:
        unilayout.parse("#ttnn.nd_shard_spec<<[#ttnn.core_range<(0,0), (2147483648,2)>]>, <32x32>, <row_major>, "
                        "<round_robin_1d>>")
    assert e.value.position == 0 and time.perf_counter() - t < 2
    side = math.isqrt(MAX_CORES)
    with pytest.raises(LayoutError, match="MAX_CORES"):
        NdShardSpec((1,), [((0, 0), (side - 1, side - 1)), ((side, 0), (side, 0))])
    assert NdShardSpec((1,), [((0, 0), (side - 1, side - 1))]).num_cores == MAX_CORES


@pytest.mark.parametrize("distribution", [ROUND_ROBIN_1D, GRID_2D])
@pytest.mark.parametrize("orientation", ["row_major", "col_major"])
def test_shards_per_core_is_counted_without_tabulating_the_shards(distribution, orientation):
    spec = NdShardSpec((32, 32), [((1, 1), (4, 3))], orientation, distribution)
    for shape in [(5, 7), (64, 96), (96, 64), (33, 65), (2, 3, 40)]:  # small: the counts match the placement table
        try:
            core, _ = spec._placement(shape)
        except NotRepresentableError:
            with pytest.raises(NotRepresentableError):
                spec.shards_per_core(shape)
            continue
        assert spec.shards_per_core(shape) == tuple(np.bincount(core, minlength=spec.num_cores).tolist())
    rr = NdShardSpec((32, 32), [((0, 0), (2, 0))], orientation, ROUND_ROBIN_1D)
    per = rr.shards_per_core((2**54, 32))  # every shard once, the first cores one more
    assert sum(per) == 2**49 and per == tuple(sorted(per, reverse=True)) and per[0] - per[-1] <= 1
    with pytest.raises(NotRepresentableError, match="GRID_2D"):
        NdShardSpec((32, 32), (1, 1), orientation, GRID_2D).shards_per_core((2**54, 32))
    with pytest.raises(LayoutError, match="values are more than"):
        rr.core_of_shards((2**54, 32))
