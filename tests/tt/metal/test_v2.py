"""tt.metal.v2, alignment and v1_v2: the metal layout tt-mlir prints today (``#ttcore.metal_layout<logical_shape = ...>``).

Oracles: tt-mlir's lit tests (the tensor types they carry), the worked
examples in the comments of ``computeGridAwareDimAlignments`` and the
verifier's messages (test/ttmlir/Dialect/TTCore/metal_layout_verify.mlir).
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import unilayout
from unilayout import tt
from unilayout.errors import LayoutError, NotRepresentableError, ParseError
from unilayout.tt import MetalLayout, MetalLayoutV2
from unilayout.tt.metal.alignment import (
    default_intervals,
    grid_aware_alignments,
    normalize_and_flatten,
    optimal_grid,
    ttcore_alignments,
    v2_physical_shape,
)
from unilayout.tt.metal.v1_v2 import from_v2

ATTR = ("#ttcore.metal_layout<logical_shape = {ls}, dim_alignments = {al}, collapsed_intervals = dense<{iv}> : "
        "tensor<{n}x2xi64>, {rest}>")

# Tensor types copied from tt-mlir lit tests: each must parse, keep its device shape and print back.
LIT = [
    # test/ttmlir/.../bounce_buffer: 3x43x7 collapsed to 192x32 rows on a 6x1 grid
    "tensor<6x1x32x32xf32, #ttcore.metal_layout<logical_shape = 3x43x7, dim_alignments = 1x32x32, "
    "collapsed_intervals = dense<[[0, 2], [2, 3]]> : tensor<2x2xi64>, undef, l1>>",
    # the verifier test's valid layout
    "tensor<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.metal_layout<logical_shape = 32x32, dim_alignments = 32x32, "
    "collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, undef, l1, sharded>>",
    # a DRAM tensor from a pipeline dump
    "tensor<1x1x32x1024xf32, #ttcore.metal_layout<logical_shape = 1x32x1024, dim_alignments = 1x32x1, "
    "collapsed_intervals = dense<[[0, 2], [2, 3]]> : tensor<2x2xi64>, undef, dram>>",
    # the view test's 3-D grid
    "tensor<2x2x2x32x32x32xf32, #ttcore.metal_layout<logical_shape = 64x64x64, dim_alignments = 32x32x32, "
    "collapsed_intervals = dense<[[0, 1], [1, 2], [2, 3]]> : tensor<3x2xi64>, undef, l1, sharded>>",
    # the reference's 3072x3072 on 8x8 in tiles, newest form (no oob, index_map)
    "tensor<8x8x12x12x!ttcore.tile<32x32, f32>, #ttcore.metal_layout<logical_shape = 3072x3072, "
    "dim_alignments = 256x256, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded, "
    "index_map = map(4)>>",
]


@pytest.mark.parametrize("text", LIT)
def test_lit_tensor_types_parse_with_their_device_shape_and_print_back(text):
    ml = tt.parse(text)
    assert isinstance(ml, MetalLayoutV2)
    dims = text[len("tensor<"):].split("x!")[0].split("xf32")[0]
    assert ml.device_shape == tuple(int(v) for v in dims.split("x"))
    assert str(ml) == " ".join(text.split())
    assert unilayout.parse(str(ml)) == ml


def test_multiline_attribute_as_lit_tests_write_it():
    text = """tensor<2x2x2x32x32x32xf32, #ttcore.metal_layout<
      logical_shape = 64x64x64,
      dim_alignments = 32x32x32,
      collapsed_intervals = dense<[[0, 1], [1, 2], [2, 3]]> : tensor<3x2xi64>,
      undef,
      l1,
      sharded
    >>"""
    assert tt.parse(text) == tt.parse(LIT[3])


def test_td_examples_8x300_on_1x2_and_1024x1024_on_2x2_in_tiles():
    a = MetalLayoutV2((8, 300), (1, 2), (1, 1), [(0, 1), (1, 2)])
    assert a.tensor_type().startswith("tensor<1x2x8x150xf32, ")
    b = MetalLayoutV2((1024, 1024), (2, 2), (32, 32), [(0, 1), (1, 2)], tile=(32, 32))
    assert b.tensor_type().startswith("tensor<2x2x16x16x!ttcore.tile<32x32, f32>, ")


def test_fields_of_the_issue_example():
    ml = tt.parse("tensor<2x4x6x1x!ttcore.tile<32x32, f32>, " + ATTR.format(
        ls="2x3x64x128", al="1x1x32x32", iv="[[0, 3], [3, 4]]", n=2, rest="undef, l1, sharded") + ">")
    assert ml.logical_shape == (2, 3, 64, 128)
    assert ml.grid == (2, 4)
    assert ml.dim_alignments == (1, 1, 32, 32)
    assert ml.collapsed_intervals == ((0, 3), (3, 4))
    assert ml.physical_shape == (384, 128)
    assert ml.get_physical_shape((32, 32)) == (12, 4)
    assert ml.shard_shape == (192, 32)
    assert ml.device_shape == (2, 4, 6, 1)
    assert (ml.memory_space, ml.memory_layout, ml.oob_val) == ("l1", "sharded", "undef")
    # same placement as the seed's spec walkthrough (v1 form)
    v1 = MetalLayout.from_collapse((2, 3, 64, 128), (2, 4), tile=(32, 32))
    assert ml.to_v1() == v1
    assert ml.locate(1, 1, 6, 100) == v1.locate(1, 1, 6, 100) == ((1, 3), (70, 4))


def test_attribute_alone_has_a_unit_grid_and_round_trips():
    text = ATTR.format(ls="3072x3072", al="256x256", iv="[[0, 1], [1, 2]]", n=2, rest="undef, l1")
    ml = tt.parse(text)
    assert ml.grid == (1, 1) and ml.memory_layout is None and ml.attribute() == text
    assert unilayout.parse(text) == ml and unilayout.parse(str(ml)) == ml


def test_negative_intervals_are_kept_as_written_and_normalised():
    ml = MetalLayoutV2((2, 3, 64, 128), (1, 1), (1, 1, 1, 1), [(0, -1)])
    assert ml.collapsed_intervals == ((0, -1),)
    assert ml.normalized_intervals == ((0, 3), (3, 4))
    assert "dense<[[0, -1]]> : tensor<1x2xi64>" in ml.attribute()
    assert tt.parse(str(ml)) == ml


def test_default_and_normalised_intervals():
    assert default_intervals(4, 2) == ((0, 3), (3, 4))
    assert default_intervals(5, 3) == ((0, 3), (3, 4), (4, 5))
    assert default_intervals(2, 2) == ((0, 1), (1, 2))
    assert normalize_and_flatten([(0, 2)], 4) == ((0, 2), (2, 3), (3, 4))
    assert normalize_and_flatten([(2, 4), (0, 2)], 4) == ((0, 2), (2, 4))
    assert normalize_and_flatten([(-3, -1)], 3) == ((0, 2), (2, 3))
    assert normalize_and_flatten([(1, 1), (0, 2)], 3) == ((0, 2), (2, 3))


@pytest.mark.parametrize(
    "intervals, message",
    [
        ([(5, 6)], r"start index 5 \(normalized: 5\) is out of bounds for logical_shape rank 2"),
        ([(0, 10)], r"end index 10 \(normalized: 10\) is out of bounds for logical_shape rank 2"),
        ([(1, 0)], r"start \(1\) must not exceed end \(0\)"),
        ([(-10, 2)], r"start index -10 \(normalized: -8\) is out of bounds"),
        ([(1, 2)], "leave dim 0 out"),
    ],
)
def test_interval_errors_use_the_verifier_wording(intervals, message):
    with pytest.raises(LayoutError, match=message):
        normalize_and_flatten(intervals, 2)


@pytest.mark.parametrize(
    "text, message",
    [
        (ATTR.format(ls="32x32", al="32x32", iv="[[0, 1], [1, 1], [1, 2]]", n=3, rest="undef, l1, sharded"),
         "an empty collapsed interval after a dim is not read"),
        # metal_layout_attr_verify.mlir: rank 1 on one physical dim
        (ATTR.format(ls="32", al="32", iv="[[0, 1]]", n=1, rest="undef, l1, sharded, index_map = map(0)"),
         "logical_shape must have at least 2 dimensions, got 1"),
        (ATTR.format(ls="32x32", al="1x32x32", iv="[[0, 1], [1, 2]]", n=2, rest="undef, l1, sharded"),
         r"dim_alignments size \(3\) must match logical_shape rank \(2\)"),
        (ATTR.format(ls="32x32", al="0x32", iv="[[0, 1], [1, 2]]", n=2, rest="undef, l1, sharded"),
         r"dim_alignments\[0\] must be positive, got 0"),
        ("#ttcore.metal_layout<logical_shape = 32x32, dim_alignments = 32x32, collapsed_intervals = dense<[0, 1]> "
         ": tensor<2xi64>, undef, l1, sharded>", "collapsed_intervals must be a 2D array, got rank 1"),
        (ATTR.format(ls="32x32", al="32x32", iv="[[0, 1, 2]]", n=1, rest="undef, l1, sharded").replace("1x2xi64", "1x3xi64"),
         r"must have pairs \(second dim size 2\), got 3"),
        (ATTR.format(ls="32x32", al="32x32", iv="[[1, 0]]", n=1, rest="undef, l1, sharded"),
         r"start \(1\) must not exceed end \(0\)"),
        (ATTR.format(ls="32x32", al="32x32", iv="[[0, 1], [1, 2]]", n=2, rest="undef, hbm, sharded"),
         "memory space 'hbm' is not one of"),
        (ATTR.format(ls="32x32", al="32x32", iv="[[0, 1], [1, 2]]", n=3, rest="undef, l1"),
         r"dense intervals 2x2 do not match their type tensor<3x2xi64>"),
    ],
)
def test_verifier_errors_are_parse_errors(text, message):
    with pytest.raises(ParseError, match=message):
        tt.parse(text)


def test_tensor_shape_must_equal_the_device_shape():
    text = LIT[0].replace("tensor<6x1x32x32xf32", "tensor<6x1x32x31xf32")
    with pytest.raises(ParseError, match=r"tensor shape 6x1x32x31 does not match the device shape 6x1x32x32 "
                                         r"\(grid 6x1 \+\+ shard 32x32\)") as e:
        tt.parse(text)
    assert e.value.position == 0
    with pytest.raises(ParseError, match="a v2 tensor is device-shaped"):
        tt.parse(LIT[0].replace("tensor<6x1x32x32xf32", "tensor<192x32xf32"))
    with pytest.raises(ParseError, match=r"does not divide evenly over the grid 5x1"):
        tt.parse(LIT[0].replace("tensor<6x1x32x32xf32", "tensor<5x1x38x32xf32"))


def test_multiply_then_align_pads_the_group_end_unlike_from_collapse():
    # v2: 43 -> 64, 3 * 64 = 192, 7 -> 32; the seed-era rule keeps linear(S - 1) + 1
    assert v2_physical_shape((3, 43, 7), (1, 32, 32), [(0, 2), (2, 3)]) == (192, 32)
    v1 = MetalLayout.from_collapse((3, 43, 7), (1, 1), [(0, 2)], dim_alignments=(1, 32, 32))
    assert v1.physical_shape == (171, 7)
    v2 = MetalLayoutV2((3, 43, 7), (1, 1), (1, 32, 32), [(0, 2), (2, 3)])
    assert v2.linear == v1.linear
    assert v2.physical_shape == (192, 32)
    with pytest.raises(NotRepresentableError, match="v1 cannot pad a group's end"):
        v2.to_v1()
    # alignment of an outer dim: alignUp(S_j * c, A_j)
    assert v2_physical_shape((9, 43, 7), (256, 32, 32), [(0, 2), (2, 3)]) == (768, 32)
    assert v2_physical_shape((2, 3, 5), (1, 8, 1), [(0, 3)]) == (32,)  # 5, alignUp(15, 8) = 16, 2 * 16


def test_worked_examples_of_grid_aware_alignments():
    # computeGridAwareDimAlignments' comment: tensor<4x43x7> and tensor<9x43x7> on grid<8x8>, tile<32x32>
    a = from_v2((4, 43, 7), (8, 8), tile=(32, 32))
    assert a.dim_alignments == (1, 32, 32)
    assert a.physical_shape == (256, 32) and a.get_physical_shape((32, 32)) == (8, 1)
    assert a.grid == (8, 1) and a.device_shape == (8, 1, 1, 1)
    b = MetalLayout.from_v2((9, 43, 7), (8, 8), tile=(32, 32))
    assert b.dim_alignments == (256, 32, 32)
    assert b.physical_shape == (768, 32) and b.get_physical_shape((32, 32)) == (24, 1)
    assert b.grid == (8, 1) and b.device_shape == (8, 1, 3, 1)
    # the comment's 31x33x447 says 1x32x256, the code grid-aligns the leading interval too
    assert grid_aware_alignments((31, 33, 447)) == (256, 32, 256)


def test_ttcore_compute_alignments_and_optimal_grid():
    assert ttcore_alignments((4, 43, 7), (8, 8)) == (32, 1, 32)
    assert ttcore_alignments((512, 512), (8, 8)) == (256, 256)
    assert optimal_grid((24, 1)) == (8, 1)
    assert optimal_grid((7, 12)) == (7, 6)
    assert optimal_grid((5, 96, 96)) == (1, 8, 8)
    ml = from_v2((4, 43, 7), (8, 8), tile=(32, 32), alignments="ttcore")
    assert ml.dim_alignments == (32, 1, 32) and ml.physical_shape == (192, 32) and ml.grid == (6, 1)


def test_from_v2_keeps_a_grid_that_divides():
    ml = from_v2((2, 3, 64, 128), (2, 4), tile=(32, 32))
    assert ml.grid == (2, 4) and ml.device_shape == (2, 4, 6, 1)


def test_shard_unshard_padding_and_locate_on_a_padded_v2_layout():
    ml = MetalLayoutV2((3, 43, 7), (2, 1), (1, 32, 32), [(0, 2), (2, 3)], tile=(32, 32), oob_val="neginf")
    a = np.random.default_rng(1).random((3, 43, 7)).astype(np.float32)
    s = ml.shard(a)
    assert s.shape == (2, 1, 96, 32)
    assert np.array_equal(ml.unshard(s), a)
    mask = ml.padding_mask()
    assert int(mask.sum()) == s.size - a.size
    assert np.all(s[mask] == -np.inf)
    # element (2, 42, 6): row 2 * 64 + 42 = 170 -> core 1, row 74, column 6
    assert ml.locate(2, 42, 6) == ((1, 0), (74, 6))
    assert s[1, 0, 74, 6] == a[2, 42, 6]
    assert ml.logical_index((1, 0), (74, 6)) == (2, 42, 6)
    assert ml.logical_index((0, 0), (50, 0)) is None  # rows 43..63 of batch 0 are alignment padding


def test_v1_to_v2_where_exact_and_the_reasons_otherwise():
    v1 = MetalLayout.from_collapse((53, 63), (3, 2))  # grid padding becomes alignment to grid x shard
    v2 = v1.to_v2()
    assert v2.dim_alignments == (54, 64) and v2.physical_shape == (54, 64)
    assert v2.linear == v1.linear and v2.shards_shape == v1.shards_shape
    assert np.array_equal(v2.index_map(), v1.index_map())
    assert np.array_equal(v2.padding_mask(), v1.padding_mask())
    v1 = MetalLayout.from_collapse((2, 3, 64, 128), (2, 4), tile=(32, 32))
    assert v1.to_v2().to_v1() == v1
    with pytest.raises(NotRepresentableError, match="reaches 64 but grid x shard is 40"):
        MetalLayout.from_collapse((2, 8, 32), (1, 2), dim_alignments=(1, 32, 1)).to_v2()
    with pytest.raises(NotRepresentableError, match="not a join of consecutive dims"):
        MetalLayout((4, 4), "(d0, d1) -> (d0 floordiv 2, d1)", (1, 1)).to_v2()
    with pytest.raises(NotRepresentableError, match="constant results"):
        MetalLayout.from_collapse((128,), (1, 2)).to_v2()
    with pytest.raises(NotRepresentableError, match="does not take the next dims in order"):
        MetalLayout((4, 4), "(d0, d1) -> (d1, d0)", (1, 1)).to_v2()


def test_index_map_is_carried_and_printed():
    ml = MetalLayoutV2((64, 64), (2, 2), (32, 32), [(0, 1), (1, 2)],
                       index_map="(d0, d1, d2, d3) -> (d1, d0, d2, d3)")
    assert "index_map = (d0, d1, d2, d3) -> (d1, d0, d2, d3)>" in ml.attribute()
    assert tt.parse(str(ml)) == ml
    assert MetalLayoutV2((64, 64), (2, 2), (32, 32), [(0, 1), (1, 2)], index_map="map(4)").attribute().endswith(
        "index_map = map(4)>")


def test_value_semantics():
    a = MetalLayoutV2((64, 64), (2, 2), (32, 32), [(0, 1), (1, 2)])
    b = MetalLayoutV2([64, 64], [2, 2], [32, 32], ((0, 1), (1, 2)))
    assert a == b and hash(a) == hash(b) and a != a.replace(memory_space="dram")
    assert a != a.to_v1() and a.to_v1() != a
    assert eval(repr(a), {"MetalLayoutV2": MetalLayoutV2}) == a
    import pickle

    assert pickle.loads(pickle.dumps(a)) == a
    with pytest.raises(AttributeError):
        a.grid = (1, 1)


@st.composite
def v2_layouts(draw):
    rank = draw(st.integers(2, 4))
    shape = tuple(draw(st.integers(1, 12)) for _ in range(rank))
    cuts = sorted(draw(st.sets(st.integers(1, rank - 1), max_size=rank - 1)))
    bounds = [0] + cuts + [rank]
    intervals = [(a, b) for a, b in zip(bounds, bounds[1:])]
    if draw(st.booleans()) and len(intervals) > 1:
        intervals = intervals[:-1]  # trailing dims become singletons
    align = [draw(st.sampled_from([1, 1, 2, 4, 8, 16])) for _ in range(rank)]
    norm = normalize_and_flatten(intervals, rank)
    tile = None
    if len(norm) >= 2 and draw(st.booleans()):
        tile = (draw(st.sampled_from([1, 2, 4])), draw(st.sampled_from([1, 2, 4])))
        # the tile must divide the last two physical dims: align the leading dim of those groups to it
        for k, t in zip((-2, -1), tile):
            s = norm[k][0]
            align[s] = math.lcm(align[s], t)
    physical = v2_physical_shape(shape, align, norm)
    units = list(physical)
    if tile:
        units[-2] //= tile[0]
        units[-1] //= tile[1]
    grid = tuple(draw(st.sampled_from([g for g in range(1, 5) if u % g == 0])) for u in units)
    oob = draw(st.sampled_from(["undef", "zero", "one"]))
    return MetalLayoutV2(shape, grid, align, intervals, oob_val=oob, tile=tile)


@settings(max_examples=80, deadline=None)
@given(v2_layouts())
def test_property_shard_unshard_is_lossless_and_padding_is_device_minus_logical(ml):
    a = np.arange(ml.volume, dtype=np.int64).reshape(ml.logical_shape) + 7
    s = ml.shard(a)
    assert s.shape == ml.shards_shape
    assert np.array_equal(ml.unshard(s), a)
    device_size = math.prod(ml.device_shape) * (math.prod(ml.tile) if ml.tile else 1)
    assert s.size == device_size
    assert int(ml.padding_mask().sum()) == device_size - ml.volume
    assert tt.parse(str(ml)) == ml and unilayout.parse(str(ml)) == ml
    x = tuple(v - 1 for v in ml.logical_shape)
    G, q = ml.locate(*x)
    assert s[G + q] == a[x]


def test_empty_intervals_and_map0_as_lit_tests_print_them():
    ml = tt.parse("#ttcore.metal_layout<logical_shape = 32x256, dim_alignments = 32x32, collapsed_intervals = "
                  "dense<> : tensor<0x2xi64>, undef, l1, sharded>")
    assert ml.normalized_intervals == ((0, 1), (1, 2)) and ml.physical_shape == (32, 256)
    assert "dense<> : tensor<0x2xi64>" in str(ml) and tt.parse(str(ml)) == ml
    text = ("#ttcore.metal_layout<logical_shape = 256x256, dim_alignments = 32x32, collapsed_intervals = "
            "dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, undef, l1, sharded, index_map = map(0)>")
    ml = tt.parse(text)
    assert ml.attribute() == text and ml.index_affine_map.num_dims == 0


def test_todays_ttcore_device_text():
    text = ("#ttcore.device<workerGrid = #ttcore.grid<8x8, virt_to_physical_map = (d0, d1) -> (0, d0, d1), "
            "physical_to_virt_map = (d0, d1) -> (0, d0, d1)>, dramGrid = #ttcore.grid<1x12>, l1Map = (d0, d1, d2)[s0]"
            " -> (0, d0, d1, d2 + s0), dramMap = (d0, d1, d2)[s0, s1] -> (0, 0, 0, d0 * s1 + d1 * s1 + d2 + s0), "
            "meshShape = , chipIds = [0]>")
    dev = unilayout.parse(text)
    assert isinstance(dev, tt.Device)
    assert dev == tt.Device.from_mesh(tt.SystemDesc.wormhole_b0(1), (1,))
    assert dev.grid_shape == (8, 8) and dev.chip_ids == (0,)
    assert unilayout.parse(str(dev)) == dev
    older = ("#ttcore.device<workerGrid = #ttcore.grid<8x8, (d0, d1) -> (0, d0, d1)>, l1Map = (d0, d1, d2)[s0] -> "
             "(0, d0, d1, d2 + s0), dramMap = (d0, d1, d2)[s0, s1] -> (0, 0, 0, d0 * s1 + d1 * s1 + d2 + s0), "
             "meshShape = , chipIds = [0]>")
    assert tt.parse(older) == dev


def test_index_map_rank_past_the_bound_is_refused_before_it_is_built():
    import time

    from unilayout.tt.metal.v2 import MAX_INDEX_MAP_RANK

    head = ("#ttcore.metal_layout<logical_shape = 64x64, dim_alignments = 32x32, collapsed_intervals = "
            "dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, undef, l1, sharded, index_map = map(")
    t = time.perf_counter()
    with pytest.raises(ParseError, match=f"rank 100000000 is more than MAX_INDEX_MAP_RANK = {MAX_INDEX_MAP_RANK}") as e:
        unilayout.parse(head + "100000000)>")
    assert e.value.position == len(head) and time.perf_counter() - t < 2
    with pytest.raises(LayoutError, match="MAX_INDEX_MAP_RANK"):
        MetalLayoutV2((64, 64), (1, 1), (32, 32), [[0, 1], [1, 2]], index_map=f"map({MAX_INDEX_MAP_RANK + 1})")
    assert unilayout.parse(head + f"{MAX_INDEX_MAP_RANK})>").index_affine_map.num_dims == MAX_INDEX_MAP_RANK


# d2m-lower-to-layout lit test: a squeezed rank-1 tensor, tt-mlir's default intervals [[0, 0], [0, 1]] on a 2-D grid
RANK1 = ("tensor<1x1x1x4x!ttcore.tile<32x32, si32>, #ttcore.metal_layout<logical_shape = 128, dim_alignments = 32, "
         "collapsed_intervals = dense<[[0, 0], [0, 1]]> : tensor<2x2xi64>, l1, sharded>>")


def test_rank1_logical_shape_reads_with_an_empty_leading_interval():
    """The empty interval is a physical dim of size 1 (one padded tile row): physical 1x128, device 1x1x1x4 tiles."""
    ml = unilayout.parse(RANK1)
    assert ml.logical_shape == (128,) and ml.physical_shape == (1, 128) and ml.device_shape == (1, 1, 1, 4)
    assert str(ml.linear) == "(d0) -> (0, d0)" and unilayout.parse(str(ml)) == ml
    a = np.arange(1, 129, dtype=np.int32)
    s = ml.shard(a)
    assert s.shape == (1, 1, 32, 128)
    assert np.array_equal(s[0, 0, 0], a) and not s[0, 0, 1:].any()   # row 0 holds the data, rows 1..31 are padding
    assert np.array_equal(ml.unshard(s), a) and ml.padding_summary().total == 31 * 128


def test_default_intervals_of_a_rank1_tensor_on_a_2d_grid_are_tt_mlirs():
    assert unilayout.tt.default_intervals(1, 2) == ((0, 0), (0, 1))
    ml = unilayout.tt.MetalLayoutV2((32,), (1, 1), (1,), unilayout.tt.default_intervals(1, 2))
    assert ml.physical_shape == (1, 32) and ml.device_shape == (1, 1, 1, 32)
