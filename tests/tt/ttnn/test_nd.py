"""tt.ttnn.nd: tensor<..., #ttnn.ttnn_nd_layout<...>> as tt-mlir prints it, its ND shard spec, data and metal form."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import unilayout
from unilayout import tt
from unilayout.errors import LayoutError, NotRepresentableError, ParseError
from unilayout.tt.ttnn.nd import TTNNNDTensorLayout

# tt-mlir's test/ttmlir/.../ttnn_nd_layout lit test (tensor type and alias lines as written there)
LIT_MODULE = """
#l1 = #ttnn.buffer_type<l1>
#layout = #ttnn.ttnn_nd_layout<<1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, <row_major>, <grid_2d>>
#nd_shard_spec = #ttnn.nd_shard_spec<<[#ttnn.core_range<(0,0), (0,0)>]>, <32x32>, <row_major>, <grid_2d>>

module {
    func.func @test_lowered(%arg0: tensor<32x32xbf16, #layout>) -> tensor<32x32xbf16, #layout> {
"""


def test_the_lit_module_reads_and_its_nd_shard_spec_is_the_one_tt_mlir_derives():
    m = tt.parse_module(LIT_MODULE)
    L = m["tensor<32x32xbf16, #layout>"]
    assert isinstance(L, TTNNNDTensorLayout)
    assert (L.grid, L.shard_shape, L.tile, L.buffer_type) == ((1, 1), (1, 1), (32, 32), "l1")
    # NDShardSpecAttr::get(layout) is the #nd_shard_spec alias the test writes next to it
    assert L.nd_shard_spec() == m["#nd_shard_spec"]
    assert str(L.memory_config()).endswith(str(m["#nd_shard_spec"]) + ">")
    assert unilayout.parse(str(L)) == L


def test_grid_is_rows_by_columns_and_cores_are_x_by_y():
    L = TTNNNDTensorLayout((64, 96), (2, 3), (32, 32))
    r = L.nd_shard_spec().core_grid[0]
    assert (r.start, r.end) == ((0, 0), (2, 1))  # W-1 = 2 columns, H-1 = 1 row
    assert L.to_metal() == tt.MetalLayout.from_collapse((64, 96), (2, 3), element_type="bf16", memory_space="l1")


@pytest.mark.parametrize("dist", ["grid_2d", "round_robin_1d"])
@pytest.mark.parametrize("orient", ["row_major", "col_major"])
def test_core_of_each_element_matches_the_metal_layout_where_one_exists(dist, orient):
    L = TTNNNDTensorLayout((64, 96), (2, 3) if orient == "row_major" else (3, 2), (32, 32), orientation=orient,
                           distribution=dist)
    spec = L.nd_shard_spec()
    a = np.arange(64 * 96).reshape(64, 96)
    cores = L.shard(a)
    assert (L.unshard(cores) == a).all()
    if dist == "round_robin_1d":  # 6 shards in 2x3 boxes are neither full-width nor full-height: no grid split
        with pytest.raises(NotRepresentableError, match="neither full-width nor full-height"):
            L.to_metal()
        return
    ml = L.to_metal()
    shards = ml.shard(a)
    for i, (x, y) in enumerate(spec.cores):  # the metal grid coordinate of core (x, y) is (y, x) row-major
        g = (y, x) if orient == "row_major" else (x, y)
        assert (cores[i, 0] == shards[g]).all()


def test_rank_three_shards_round_robin():
    L = tt.parse("tensor<3x64x64xbf16, #ttnn.ttnn_nd_layout<<2x2>, memref<2x1x1x!ttcore.tile<32x32, bf16>, #l1>, "
                 "<block_sharded>, <row_major>, <round_robin_1d>>>")
    assert L.scalar_shard_shape == (2, 32, 32)
    a = np.random.default_rng(1).random((3, 64, 64))
    s = L.shard(a)
    assert s.shape == (4, 2, 2, 32, 32) and (L.unshard(s) == a).all()
    assert (s[1, 0, 0] == a[0, :32, 32:]).all()  # shard (0, 0, 1) -> core 1, first slot
    with pytest.raises(NotRepresentableError, match="not a 2-D grid split"):
        L.to_metal()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 9), min_size=1, max_size=3), st.data())
def test_shard_unshard_is_lossless(shape, data):
    shard = tuple(data.draw(st.integers(1, s)) for s in shape)
    grid = (data.draw(st.integers(1, 3)), data.draw(st.integers(1, 3)))
    L = TTNNNDTensorLayout(tuple(shape), grid, shard, element_type="f32", distribution="round_robin_1d",
                           orientation=data.draw(st.sampled_from(["row_major", "col_major"])))
    a = np.arange(np.prod(shape)).reshape(shape)
    assert (L.unshard(L.shard(a, fill=-1)) == a).all()
    held = L.shard(a, fill=-1)
    assert (held >= 0).sum() == a.size  # every element once, the rest padding


@pytest.mark.parametrize("text,needle", [
    ("tensor<32x32xbf16, #ttnn.ttnn_nd_layout<<1x1x1>, memref<32x32xbf16, #l1>, <block_sharded>, <row_major>, "
     "<grid_2d>>>", "2-D"),
    ("tensor<32x32xbf16, #ttnn.ttnn_nd_layout<<1x1>, memref<32x32xf32, #l1>, <block_sharded>, <row_major>, "
     "<grid_2d>>>", "does not match"),
    ("tensor<32x32xbf16, #ttnn.ttnn_nd_layout<<1x1>, memref<32x32xbf16, #l1>, <block_sharded>, <diagonal>, "
     "<grid_2d>>>", "orientation"),
    ("tensor<32x32xbf16, #ttnn.ttnn_nd_layout<<1x1>, memref<32x32xbf16, #system_memory>, <block_sharded>, "
     "<row_major>, <grid_2d>>>", "device buffer"),
    ("#ttnn.ttnn_nd_layout<<1x1>, memref<32x32xbf16, #l1>, <block_sharded>, <row_major>, <grid_2d>>", "needs its tensor"),
])
def test_bad_nd_text_is_a_positioned_parse_error(text, needle):
    with pytest.raises(ParseError, match=needle) as e:
        unilayout.parse(text)
    assert 0 <= e.value.position < len(text)


def test_value_semantics_and_bad_arguments():
    L = TTNNNDTensorLayout((64, 64), (1, 2), (2, 1), tile=(32, 32), distribution="round_robin_1d")
    assert eval("tt." + repr(L), {"tt": tt}) == L and hash(L) == hash(tt.parse(str(L)))
    with pytest.raises(AttributeError):
        L.grid = (1, 1)
    with pytest.raises(LayoutError, match="not 32x32"):
        L.to_metal((32, 32))
    with pytest.raises(LayoutError, match="tile dtype"):
        TTNNNDTensorLayout((64, 64), (1, 1), (2, 2), element_type="i32", tile=(32, 32))
    with pytest.raises(LayoutError, match="shape"):
        L.shard(np.zeros((64, 65)))


def test_tensor_mesh_in_a_ttnn_layout_is_carried_and_printed():
    t = ('tensor<64x128xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, mesh = <"mesh">, '
         'memref<2x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>>')
    L = tt.parse(t)
    assert L.tensor_mesh == "mesh" and 'mesh = <"mesh">, memref<' in str(L) and tt.parse(str(L)) == L
    assert tt.parse(t.replace('<"mesh">', '#ttcore.tensor_mesh<"mesh">')) == L
    assert L != L.replace(tensor_mesh=None) and L.to_metal() == L.replace(tensor_mesh="m2").to_metal()
    with pytest.raises(ParseError, match="mesh name"):
        tt.parse(t.replace('"mesh"', '""'))
    with pytest.raises(ParseError, match="only encoding is #ttcore.tensor_mesh") as e:
        unilayout.parse('tensor<64x64xf32, #ttcore.tensor_mesh<"mesh">>')
    assert e.value.position == 18
