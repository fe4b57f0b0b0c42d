"""Metal layouts and devices -> affine maps and CuTe shards (unilayout.convert.tt)."""

import itertools

import numpy as np
import pytest
from convert_helpers import FAST, natural_rowmajor
from hypothesis import given
from hypothesis import strategies as st

from unilayout import LayoutError, NotRepresentableError, cute, tt
from unilayout.convert import ShardLayout, metal_to_affine, metal_to_cute


@FAST
@given(st.data())
def test_metal_to_affine_matches_index_map_and_locate(data):
    rank = data.draw(st.integers(1, 3))
    shape = tuple(data.draw(st.integers(1, 9)) for _ in range(rank))
    g = data.draw(st.integers(min(rank, 2), rank))
    grid = tuple(data.draw(st.integers(1, 3)) for _ in range(g))
    intervals = ((0, -1),) if g < rank or data.draw(st.booleans()) else ()
    tile = (data.draw(st.sampled_from([2, 4])), data.draw(st.sampled_from([2, 4]))) if g >= 2 and data.draw(
        st.booleans()) else None
    ml = tt.MetalLayout.from_collapse(shape, grid, intervals, tile=tile)
    flat = metal_to_affine(ml, flat=True)
    np.testing.assert_array_equal(flat.index_map(shape)[:, 0], ml.index_map())
    coords = metal_to_affine(ml).index_map(shape)
    for i, x in enumerate(itertools.product(*map(range, shape))):
        G, q = ml.locate(*x)
        assert tuple(coords[i]) == G + q


def test_metal_to_affine_seed():
    ml = tt.parse("tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
                  "memref<18x32xf32, #tt.memory_space<l1>>>>")
    m = metal_to_affine(ml)
    assert str(m) == "(d0, d1) -> (d0 floordiv 18, d1 floordiv 32, d0 mod 18, d1 mod 32)"
    with pytest.raises(LayoutError):
        metal_to_affine(cute.Layout(4, 1))


# --------------------------------------------------------------------------------- metal -> CuTe shards


def check_shards(ml, tiles=False):
    a = np.arange(ml.volume, dtype=np.int64).reshape(ml.logical_shape) + 1
    shards = ml.to_tiles(ml.shard(a)) if tiles else ml.shard(a)
    g = len(ml.grid)
    seen = 0
    for sl in metal_to_cute(ml, tiles=tiles):
        assert isinstance(sl, ShardLayout)
        buf = shards[sl.grid_coord].reshape(-1)
        if sl.layout is None:
            assert not (buf != 0).any()
            continue
        vals, ext = natural_rowmajor(sl.layout)
        box = a[tuple(slice(o, o + e) for o, e in zip(sl.origin, ext))].reshape(-1)
        np.testing.assert_array_equal(buf[sl.offset + vals], box)
        seen += box.size
    assert seen == ml.volume
    assert len(metal_to_cute(ml)) == int(np.prod(ml.grid)) and g == len(ml.grid)


@FAST
@given(st.data())
def test_metal_shards_without_collapse_are_cute(data):
    rank = data.draw(st.integers(1, 3))
    shape = tuple(data.draw(st.integers(1, 12)) for _ in range(rank))
    grid = tuple(data.draw(st.integers(1, 3)) for _ in range(rank))
    tile = (data.draw(st.sampled_from([2, 4])), data.draw(st.sampled_from([2, 4]))) if rank >= 2 and data.draw(
        st.booleans()) else None
    ml = tt.MetalLayout.from_collapse(shape, grid, (), tile=tile)
    check_shards(ml)
    try:
        check_shards(ml, tiles=True)
    except NotRepresentableError as e:  # a partial tile breaks the tile-major stride pattern
        assert tile is not None and ("not a CuTe mode" in str(e) or "independently" in str(e))


@FAST
@given(st.data())
def test_metal_shards_with_collapse_are_exact_or_rejected(data):
    shape = tuple(data.draw(st.integers(1, 6)) for _ in range(3))
    grid = (data.draw(st.integers(1, 4)), data.draw(st.integers(1, 2)))
    ml = tt.MetalLayout.from_collapse(shape, grid)
    try:
        check_shards(ml)
    except NotRepresentableError as e:
        assert "not a box" in str(e) or "not a CuTe mode" in str(e) or "independently" in str(e)


def test_metal_shard_examples():
    ml = tt.MetalLayout.from_collapse((53, 63), (3, 2))
    s = metal_to_cute(ml, (2, 1))
    assert s == ShardLayout((2, 1), (36, 32), 0, cute.Layout((17, 31), (32, 1)))
    # a collapsed group split in the middle of a dim: rows 0..95 of 2x3x64 hold 1.5 slices
    bad = tt.MetalLayout.from_collapse((2, 3, 64, 8), (4, 1))
    with pytest.raises(NotRepresentableError, match="not a box"):
        metal_to_cute(bad, (0, 0))
    empty = tt.MetalLayout.from_collapse((128,), (1, 2))
    assert metal_to_cute(empty)[0] == ShardLayout((0, 0), (0,), 0, cute.Layout(64, 1))
    with pytest.raises(LayoutError, match="outside the grid"):
        metal_to_cute(ml, (3, 0))
    for bad_coord in ("x", (1.5, 0), (True, 0), 3):
        with pytest.raises(LayoutError):
            metal_to_cute(ml, bad_coord)
    with pytest.raises(LayoutError):
        metal_to_cute(cute.Layout(4, 1))


def test_metal_tilized_shard_in_tile_order():
    ml = tt.MetalLayout.from_collapse((2, 64, 96), (2, 2, 3), (), tile=(16, 8))
    check_shards(ml, tiles=True)
    s = metal_to_cute(ml, (1, 1, 2), tiles=True)
    assert s.origin == (1, 32, 64) and str(s.layout) == "(1,(16,2),(8,4)):(0,(8,512),(1,128))"


def test_metal_tilized_shard():
    check_shards(tt.MetalLayout.from_collapse((2, 3, 64, 128), (2, 3, 4), [(1, -1)], tile=(32, 32)))
    check_shards(tt.MetalLayout.from_collapse((2, 3, 64, 128), (2, 3, 4), [(1, -1)], tile=(16, 8)))


def test_device_to_affine():
    import unilayout
    from unilayout.convert import device_to_affine

    for mesh, ids in [((1, 2), None), ((1, 2), [4, 5]), ((2, 2), [6, 4, 2, 0]), ((1, 1), [3]), ((2, 1, 2), None)]:
        dev = tt.Device.from_mesh(tt.SystemDesc((8, 8), 8), mesh, ids)
        m = device_to_affine(dev)
        np.testing.assert_array_equal(m.index_map(dev.grid_shape), dev.physical_cores().reshape(-1, 3))
        assert unilayout.equivalent(m, dev) and unilayout.equivalent(dev, m)
    dev = tt.Device.from_mesh(tt.SystemDesc((8, 8), 8), (2, 2), [0, 3, 1, 2])
    with pytest.raises(NotRepresentableError, match="not an arithmetic progression"):
        device_to_affine(dev)
    with pytest.raises(LayoutError):
        device_to_affine(cute.Layout(2, 1))


def test_metal_form_between_seed_v2_and_ttnn_where_exact():
    import numpy as np

    from unilayout import tt
    from unilayout.convert import metal_form
    from unilayout.errors import NotRepresentableError

    v1 = tt.MetalLayout.from_collapse((2, 3, 64, 128), (2, 4), tile=(32, 32))
    v2 = metal_form(v1, "v2")
    ttnn = metal_form(v1, "ttnn")
    assert isinstance(v2, tt.MetalLayoutV2) and isinstance(ttnn, tt.TTNNTensorLayout)
    for other in (v2, ttnn):
        assert np.array_equal(other.index_map(), v1.index_map())
        assert metal_form(other, "v1") == v1
        assert unilayout_parse(str(other)) == other
    assert metal_form(ttnn, "v2") == v2
    with pytest.raises(NotRepresentableError, match="v1 cannot pad a group's end"):
        metal_form(tt.MetalLayout.from_v2((3, 43, 7), (1, 1)), "v1")
    # tile padding inside each 18x32 shard: v2's shards are whole tiles
    with pytest.raises(NotRepresentableError, match="not a whole number of 32x32 tiles"):
        metal_form(tt.MetalLayout.from_collapse((53, 63), (3, 2), tile=(32, 32)), "v2")
    assert metal_form(tt.MetalLayout.from_collapse((53, 63), (3, 2), tile=(32, 32)), "ttnn").memref_shape == (1, 1)
    with pytest.raises(NotRepresentableError, match="2-D grid"):
        metal_form(tt.MetalLayout.from_collapse((2, 3, 64, 128), (2, 2, 4), [(1, -1)]), "ttnn")


def unilayout_parse(text):
    import unilayout

    return unilayout.parse(text)
