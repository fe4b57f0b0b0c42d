"""tt.ttnn.layout, memory_config and pages: TTNNTensorLayout (a metal layout printed as TTNN text), MemoryConfig."""

import pickle

import numpy as np
import pytest

from unilayout import tt
from unilayout.errors import LayoutError, NotRepresentableError
from unilayout.tt import CoreRange, MetalLayout, ShardSpec
from unilayout.tt.ttnn.layout import TTNNTensorLayout
from unilayout.tt.ttnn.memory_config import MemoryConfig

ML = MetalLayout


def test_a_ttnn_tensor_is_the_seed_form_layout_with_ttnn_text():
    L = TTNNTensorLayout((2, 3, 64, 128), "(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)", (2, 4),
                         element_type="f32", buffer_type="l1", memory_layout="block_sharded", tile=(32, 32))
    ml = ML.from_collapse((2, 3, 64, 128), (2, 4), tile=(32, 32))
    assert L.to_metal() == ml
    assert L.memref_shape == ml.memref_shape == (6, 1)
    a = np.random.default_rng(0).random((2, 3, 64, 128)).astype(np.float32)
    assert np.array_equal(L.shard(a), ml.shard(a))
    assert np.array_equal(L.unshard(L.shard(a)), a)
    assert L.locate(1, 1, 6, 100) == ((1, 3), (70, 4))
    assert L.view() == ml.to_ttnn()._replace(buffer_type="L1")


def test_ttnn_shard_shape_is_ceildiv_then_tiles_as_tt_mlir_computes_it():
    # calculateLogicalShardShapeForSharding: ceilDiv(physical, grid); tt-mlir's comment: 65x65 on 8x8 -> 9x9
    L = TTNNTensorLayout((65, 65), "(d0, d1) -> (d0, d1)", (8, 8), buffer_type="l1", memory_layout="block_sharded")
    assert L.shard_shape == (9, 9) and L.memref_shape == (9, 9)
    assert TTNNTensorLayout((65, 65), "(d0, d1) -> (d0, d1)", (8, 8), buffer_type="l1", memory_layout="block_sharded",
                            tile=(32, 32)).memref_shape == (1, 1)


def test_l1_interleaved_memref_follows_tt_mlirs_examples():
    # calculateLogicalShardShapeForL1Interleaved on 8x8: 1x1024 -> 1x1, 512x512 -> 1x4, 32x2049 -> 1x2 (tiles)
    for shape, memref in (((1, 1024), (1, 1)), ((512, 512), (1, 4)), ((32, 2049), (1, 2))):
        L = TTNNTensorLayout(shape, "(d0, d1) -> (d0, d1)", (8, 8), buffer_type="l1", memory_layout="interleaved",
                             tile=(32, 32))
        assert L.memref_shape == memref, shape
        with pytest.raises(NotRepresentableError, match="round robin"):
            L.to_metal()


def _pages_by_definition(L, a):
    """tt-metal interleaved placement written out directly: page i (tile i of the tile-padded 2-D image, row-major)
    is page slot i // n of bank i % n, banks = the grid's cores in row-major order."""
    th, tw = L.tile
    rows, cols = a.reshape(-1, a.shape[-1]).shape
    R, C = -(-rows // th) * th, -(-cols // tw) * tw
    img = np.zeros((R, C), a.dtype)
    img[:rows, :cols] = a.reshape(rows, cols)
    tiles = img.reshape(R // th, th, C // tw, tw).transpose(0, 2, 1, 3).reshape(-1, th, tw)
    n = int(np.prod(L.grid))
    per = L.memref_shape[-1]
    out = np.zeros((n, th, per * tw), a.dtype)
    for i, t in enumerate(tiles):
        out[i % n, :, (i // n) * tw:(i // n + 1) * tw] = t
    return out.reshape(L.grid + (th, per * tw))


@pytest.mark.parametrize("shape,grid", [((1, 1024), (8, 8)), ((512, 512), (8, 8)), ((32, 2049), (8, 8)),
                                        ((3, 40, 70), (2, 3)), ((64, 96), (1, 2)), ((33, 33), (3, 1)),
                                        ((64, 256), (2, 2)), ((2, 90, 128), (1, 4))])
def test_l1_interleaved_pages_go_round_robin_over_the_cores(shape, grid):
    rank = len(shape)
    dims = ", ".join(f"d{i}" for i in range(rank))
    lead = " + ".join(f"d{i} * {int(np.prod(shape[i + 1:-1]))}" for i in range(rank - 2)) + " + " if rank > 2 else ""
    L = TTNNTensorLayout(shape, f"({dims}) -> ({lead}d{rank - 2}, d{rank - 1})", grid, buffer_type="l1",
                         memory_layout="interleaved", tile=(32, 32), element_type="f32")
    a = np.random.default_rng(0).random(shape).astype(np.float32) + 1
    s = L.shard(a)
    assert s.shape == L.shards_shape and (s == _pages_by_definition(L, a)).all()
    assert (L.unshard(s) == a).all()
    buf, back = np.full(L.shards_shape, 7, np.float32), np.empty(shape, np.float32)
    assert L.shard(a, out=buf) is buf and (buf == s).all() and L.unshard(buf, out=back) is back and (back == a).all()
    mask = L.padding_mask()
    assert (mask == (s == 0)).all() and L.padding_summary().total == mask.sum() == s.size - a.size
    flat = L.index_map()
    assert (s.reshape(-1)[flat] == a.reshape(-1)).all()
    rng = np.random.default_rng(1)
    for _ in range(20):
        x = tuple(int(rng.integers(0, v)) for v in shape)
        G, q = L.locate(*x)
        assert s[G + q] == a[x] and L.logical_index(G, q) == x
    G = tuple(v - 1 for v in grid)
    holes = np.argwhere(mask[G])
    if len(holes):
        assert L.logical_index(G, tuple(int(v) for v in holes[0])) is None


def test_memory_config_of_a_layout_and_back():
    L = TTNNTensorLayout((256, 64), "(d0, d1) -> (d0, d1)", (8, 1), buffer_type="l1", memory_layout="height_sharded")
    c = L.memory_config()
    assert c == MemoryConfig("l1", "height_sharded", ShardSpec((CoreRange((0, 0), (7, 0)),), (32, 64), "ROW_MAJOR"))
    assert c.to_metal((256, 64), "bf16", ) == L.to_metal()
    block = TTNNTensorLayout((64, 256), "(d0, d1) -> (d0, d1)", (2, 4), buffer_type="l1", memory_layout="block_sharded")
    assert block.memory_config().shard_spec.grid == (CoreRange((0, 0), (3, 1)),)
    assert block.memory_config().to_metal((64, 256), "bf16") == block.to_metal()
    assert MemoryConfig("dram", "interleaved").to_metal((64, 64)).grid == (1, 1)
    with pytest.raises(NotRepresentableError, match="L1-interleaved pages"):
        MemoryConfig("l1", "interleaved").to_metal((64, 64))
    two = ShardSpec((CoreRange((0, 0), (7, 0)), CoreRange((0, 1), (3, 1))), (32, 32), "ROW_MAJOR")
    with pytest.raises(NotRepresentableError, match="2 core ranges is not one grid"):
        MemoryConfig("l1", "block_sharded", two).to_metal((64, 64))
    # COL_MAJOR block: height over grid.x
    col = MemoryConfig("l1", "block_sharded", ShardSpec((CoreRange((0, 0), (1, 3)),), (192, 32), "COL_MAJOR"))
    assert col.to_metal((384, 128)).grid == (2, 4)


def test_value_rules_and_semantics():
    with pytest.raises(LayoutError, match="Memory layout is required for non-SystemMemory"):
        TTNNTensorLayout((4, 4), "(d0, d1) -> (d0, d1)", (1, 1), buffer_type="l1", memory_layout=None)
    with pytest.raises(LayoutError, match="buffer type 'hbm'"):
        TTNNTensorLayout((4, 4), "(d0, d1) -> (d0, d1)", (1, 1), buffer_type="hbm")
    with pytest.raises(LayoutError, match="needs a shard spec"):
        MemoryConfig("l1", "height_sharded")
    a = TTNNTensorLayout((64, 64), "(d0, d1) -> (d0, d1)", (2, 2), buffer_type="l1", memory_layout="block_sharded",
                         core_ranges=[((0, 0), (1, 1))], exact_grid=True)
    assert a == pickle.loads(pickle.dumps(a)) and hash(a) == hash(tt.parse(str(a)))
    assert a != a.to_metal() and a.replace(exact_grid=None) != a
    assert eval(repr(a), {"TTNNTensorLayout": TTNNTensorLayout, "CoreRange": CoreRange}) == a
    c = MemoryConfig("dram", "interleaved")
    assert c == pickle.loads(pickle.dumps(c)) and eval(repr(c), {"MemoryConfig": MemoryConfig}) == c
    with pytest.raises(AttributeError):
        c.buffer_type = "l1"


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 3), st.integers(1, 70), st.integers(1, 70), st.integers(1, 4), st.integers(1, 4),
       st.sampled_from(["l1", "dram"]), st.booleans())
def test_property_ttnn_form_round_trips_and_places_as_the_seed_form(b, h, w, gy, gx, space, tiled):
    ml = MetalLayout.from_collapse((b, h, w), (gy, gx), memory_space=space, tile=(32, 32) if tiled else None)
    try:
        L = TTNNTensorLayout.from_metal(ml)
    except NotRepresentableError:
        assert space == "dram" and gy > 1 and gx > 1  # DRAM allows height or width sharding only
        return
    assert tt.parse(str(L)) == L and L.to_metal() == ml
    assert np.array_equal(L.index_map(), ml.index_map())


@pytest.mark.parametrize("shape, linear, grid, memref, how, device", [
    # tt-mlir's ttnn_{height,width}_sharded_translation.mlir: the metal tensor ttir.ttnn_metal_layout_cast prints
    ((384, 32), "(d0, d1) -> (d0, d1)", (6, 2), (1, 1), "height_sharded", (12, 1, 1, 1)),
    ((384, 32), "(d0, d1) -> (d0, d1)", (2, 6), (1, 1), "height_sharded", (12, 1, 1, 1)),
    ((32, 384), "(d0, d1) -> (d0, d1)", (6, 2), (1, 1), "width_sharded", (1, 12, 1, 1)),
    ((2, 32, 384), "(d0, d1, d2) -> (d0 * 32 + d1, d2)", (6, 2), (2, 1), "width_sharded", (1, 12, 2, 1)),
    ((4096, 32), "(d0, d1) -> (d0, d1)", (8, 1), (16, 1), "height_sharded", (8, 1, 16, 1)),
])
def test_height_and_width_sharded_to_v2_is_the_metal_tensor_tt_mlir_casts_to(shape, linear, grid, memref, how, device):
    L = TTNNTensorLayout(shape, linear, grid, buffer_type="l1", memory_layout=how, tile=(32, 32))
    assert L.memref_shape == memref
    v2 = L.to_v2()
    assert v2.device_shape == device
    # the same shards, core k of the v2 grid being core k of the 2-D grid (row-major)
    a = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    assert np.array_equal(v2.shard(a).reshape(-1), L.shard(a).reshape(-1))
