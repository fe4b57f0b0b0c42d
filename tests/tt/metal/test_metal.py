"""MetalLayout: validation, derived shapes, strides, value semantics, locate / logical_index."""

import itertools
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unilayout import LayoutError, NotRepresentableError, affine
from unilayout.tt import MetalLayout

ML = MetalLayout


def test_reference_worked_example_1():
    one = ML.from_collapse((2, 3, 64, 128), (1, 1))
    two = ML.from_collapse((2, 3, 64, 128), (2, 4))
    assert one.memref_shape == (384, 128) and two.memref_shape == (192, 32)
    assert one.linear(1, 1, 6, 100) == (262, 100)
    assert two.locate(1, 1, 6, 100) == ((1, 3), (70, 4))
    t = two.tilize()
    assert t.memref_shape == (6, 1)
    G, q = t.locate(1, 1, 6, 100)
    assert (q[0] // 32, q[1] // 32) == (2, 0)


def test_reference_worked_example_2_seed_map_and_from_collapse():
    seed = ML((8, 96, 32), "(d0, d1, d2) -> (d0 * 96 + d1, d1, d2)", (2, 1, 2))
    assert seed.physical_shape == (768, 96, 32) and seed.memref_shape == (384, 96, 16)
    assert int((~seed.padding_mask()).sum()) == 24576 and seed.padding_mask().size == 2359296
    default = ML.from_collapse((8, 96, 32), (2, 1, 2))
    assert str(default.linear) == "(d0, d1, d2) -> (0, d0 * 96 + d1, d2)"
    # reference/tt.md's table says 1x384x16, but ceilDiv(physical 1x768x32, grid 2x1x2) is 1x768x16
    assert default.physical_shape == (1, 768, 32) and default.memref_shape == (1, 768, 16)
    assert default.padding_summary().slots[1].tolist() == [[768 * 16, 768 * 16]]  # grid row 1 is empty
    assert default.padding_summary().slots[0].tolist() == [[0, 0]]
    assert ML.from_collapse((8, 96, 32), (2, 1, 2), ()).memref_shape == (4, 96, 16)


def test_reference_worked_example_3_and_4():
    seed = ML((5, 3, 2, 2, 7, 32, 32),
              "(d0, d1, d2, d3, d4, d5, d6) -> (d0 * 2688 + d1 * 896 + d2 * 448 + d3 * 224 + d4 * 32 + d5, d4, d5, d6)",
              (3, 2, 2, 2))
    assert seed.memref_shape == (4480, 4, 16, 16)
    g = ML.from_collapse((5, 3, 2, 2, 7, 32, 32), (3, 2, 2, 2), [(0, 3), (-3, -1)])
    assert g.physical_shape == (30, 2, 224, 32) and g.memref_shape == (10, 1, 112, 16)
    four = ML.from_collapse((2, 3, 64, 128), (2, 2, 4), [(1, -1)], tile=(32, 32))
    assert four.shard_shape == (1, 96, 32) and four.memref_shape == (1, 3, 1)


@pytest.mark.parametrize(
    "args, message",
    [
        (((2, 3, 4), "(d0, d1) -> (d0, d1)", (1, 1)), "affine map has 2 dims but the tensor has rank 3"),
        (((2, 3), "(d0, d1) -> (d0, d1)", (1, 1, 1)), "affine map has 2 results but the grid 1x1x1 has rank 3"),
        (((2, 3), "(d0, d1)[s0] -> (d0, d1 + s0)", (1, 1)), "symbol"),
        (((6,), "(d0) -> (d0 mod 4)", (1,)), r"result 0 \(d0 mod 4\) reaches 3 but the extent rule gives 1"),
        (((4,), "(d0) -> (d0 - 2)", (1,)), "reaches -2 on the tensor: results must be >= 0"),
        (((4, 4), "(d0, d1) -> (d0, 3 - d1)", (1, 1)), "extent rule"),
        (((0, 3), "(d0, d1) -> (d0, d1)", (1, 1)), "every dim must be >= 1"),
        (((), "() -> ()", ()), "rank >= 1"),
        (((2, 3), "(d0, d1) -> (d0, d1)", (0, 1)), "every dim must be >= 1"),
        (((2, 3), 42, (1, 1)), "AffineMap or its text"),
    ],
)
def test_invalid_layouts_raise_layout_error_naming_the_mismatch(args, message):
    with pytest.raises(LayoutError, match=message):
        ML(*args)


@pytest.mark.parametrize(
    "kw, message",
    [
        (dict(element_type="float32"), "element type"),
        (dict(memory_space="sram"), "memory space"),
        (dict(oob_val="nan"), "oob_val"),
        (dict(tile=(32,)), "tile must be"),
        (dict(tile=(32, 0)), ">= 1"),
        (dict(tile=(32, 32), tile_dtype="fp8"), "tile dtype"),
        (dict(tile_dtype="bf16"), "without a tile"),
        (dict(element_type="f64", tile=(32, 32)), "has no tile dtype"),
    ],
)
def test_invalid_fields_are_rejected(kw, message):
    with pytest.raises(LayoutError, match=message):
        ML((64, 64), "(d0, d1) -> (d0, d1)", (2, 2), **kw)


def test_a_mod_map_whose_maximum_is_at_the_last_index_is_valid():
    assert ML((8,), "(d0) -> (d0 mod 4)", (1,)).physical_shape == (4,)


def test_tilize_needs_a_grid_of_rank_two():
    with pytest.raises(LayoutError, match="rank >= 2"):
        ML.from_collapse((128,), (4,)).tilize()


def test_tile_dtype_defaults_from_the_element_type():
    assert ML.from_collapse((64, 64), (1, 1), element_type="bf16", tile=(32, 32)).tile_dtype == "bf16"
    assert ML.from_collapse((64, 64), (1, 1), element_type="ui8", tile=(32, 32)).tile_dtype == "u8"
    assert ML.from_collapse((64, 64), (1, 1), tile=(16, 32, "bfp_bf4")).tile == (16, 32)


def test_derived_shapes_of_a_padded_tilized_layout():
    ml = ML.from_collapse((53, 63), (3, 2), tile=(32, 32))
    assert ml.physical_shape == (53, 63)
    assert ml.shard_shape == (18, 32)
    assert ml.memref_shape == (1, 1)
    assert ml.padded_shard_shape == (32, 32)
    assert ml.shards_shape == (3, 2, 32, 32)
    assert ml.untilize().memref_shape == (18, 32)


def test_get_stride_matches_pytorch_strides_for_dense_collapse():
    ml = ML.from_collapse((2, 3, 64, 128), (2, 4))
    assert ml.get_stride() == (24576, 8192, 128, 1)
    assert ml.get_stride() == tuple(s // 4 for s in np.zeros((2, 3, 64, 128), np.float32).strides)


def test_get_stride_of_stride_bump_and_duplicate_dim_maps():
    assert ML((2, 8, 32), "(d0, d1, d2) -> (d0 * 32 + d1, d2)", (1, 2)).get_stride() == (1024, 32, 1)
    assert ML((8, 96, 32), "(d0, d1, d2) -> (d0 * 96 + d1, d1, d2)", (2, 1, 2)).get_stride() == (294912, 3104, 1)


def test_get_stride_of_a_map_with_mod_is_not_representable():
    with pytest.raises(NotRepresentableError):
        ML((8, 8), "(d0, d1) -> (d0 floordiv 2, d0 mod 2, d1)", (1, 1, 1)).get_stride()


def test_with_grid_keeps_linear_and_recomputes_shards():
    ml = ML.from_collapse((2, 3, 64, 128), (1, 1))
    w = ml.with_grid((2, 4))
    assert w.linear == ml.linear and w.memref_shape == (192, 32)
    assert ML.from_collapse((128,), (4,)).with_grid((1, 1, 2)).memref_shape == (1, 1, 64)
    with pytest.raises(LayoutError, match="use from_collapse"):
        ml.with_grid((2,))
    with pytest.raises(LayoutError):
        ml.with_grid((0, 4))


def test_value_semantics_hash_eq_repr_pickle():
    ml = ML.from_collapse((53, 63), (3, 2), oob_val="zero", memory_space="dram", tile=(32, 32), tile_dtype="bfp_bf8")
    same = ML((53, 63), affine.parse("(d0, d1) -> (d0, d1)"), [3, 2], "f32", "dram", "zero", (32, 32), "bfp_bf8")
    assert ml == same and hash(ml) == hash(same) and len({ml, same}) == 1
    assert ml != ml.replace(oob_val="one") and ml != ml.untilize()
    assert eval(repr(ml), {"MetalLayout": ML}) == ml
    assert pickle.loads(pickle.dumps(ml)) == ml
    with pytest.raises(AttributeError):
        ml.grid = (1, 1)
    with pytest.raises(LayoutError, match="unknown field"):
        ml.replace(colour="red")


def test_numpy_integers_are_accepted_and_floats_rejected():
    assert ML.from_collapse(np.array([4, 8]), (np.int64(2), 2)).shard_shape == (2, 4)
    with pytest.raises(LayoutError, match="integer"):
        ML.from_collapse((4.0, 8), (2, 2))
    with pytest.raises(LayoutError, match="integer"):
        ML.from_collapse((4, 8), (2, True))


LAYOUTS = [
    ML.from_collapse((2, 3, 64, 128), (2, 4)),
    ML.from_collapse((53, 63), (3, 2), tile=(32, 32)),
    ML.from_collapse((5, 7, 3), (2, 3, 2), [(0, 1)], tile=(4, 2)),
    ML((2, 8, 32), "(d0, d1, d2) -> (d0 * 32 + d1, d2)", (1, 2), tile=(32, 32)),
    ML((8, 96, 32), "(d0, d1, d2) -> (d0 * 96 + d1, d1, d2)", (2, 1, 2)),
    ML((8, 6), "(d0, d1) -> (d0 floordiv 2, d0 mod 2, d1)", (3, 1, 4)),
    ML((4, 4), "(d0, d1) -> (d1 * 5 + d0 + 1, 0)", (2, 1)),
    ML.from_collapse((9,), (2, 2, 4)),
]


@pytest.mark.parametrize("ml", LAYOUTS, ids=str)
def test_locate_and_logical_index_round_trip_over_every_index(ml):
    seen = set()
    for x in itertools.product(*(range(n) for n in ml.logical_shape)):
        G, q = ml.locate(*x)
        assert all(0 <= g < n for g, n in zip(G, ml.grid))
        assert all(0 <= v < n for v, n in zip(q, ml.shard_shape))
        assert ml.logical_index(G, q) == x
        seen.add((G, q))
    assert len(seen) == ml.volume


@pytest.mark.parametrize("ml", LAYOUTS[:5], ids=str)
def test_logical_index_is_none_exactly_on_padding(ml):
    mask = ml.padding_mask()
    grid_rank = len(ml.grid)
    rng = np.random.default_rng(1)
    for _ in range(200):
        G = tuple(int(rng.integers(n)) for n in ml.grid)
        q = tuple(int(rng.integers(n)) for n in ml.padded_shard_shape)
        assert (ml.logical_index(G, q) is None) == bool(mask[G + q]), (G, q)
    assert grid_rank == len(ml.grid)


def test_locate_and_logical_index_reject_points_outside_their_boxes():
    ml = ML.from_collapse((53, 63), (3, 2))
    with pytest.raises(LayoutError, match="outside 53x63"):
        ml.locate(53, 0)
    with pytest.raises(LayoutError, match="needs 2"):
        ml.locate(1)
    with pytest.raises(LayoutError, match="outside 3x2"):
        ml.logical_index((3, 0), (0, 0))
    with pytest.raises(LayoutError, match="outside 18x32"):
        ml.logical_index((0, 0), (18, 0))
    with pytest.raises(LayoutError, match="integer"):
        ml.locate(1.5, 0)
    assert ml.locate((52, 62)) == ((2, 1), (16, 30))


def test_non_injective_maps_are_reported_by_the_data_methods():
    ml = ML((4, 4), "(d0, d1) -> (d0 + d1, 0)", (1, 1))
    for call in (ml.padding_mask, ml.index_map, lambda: ml.shard(np.zeros((4, 4))),
                 lambda: ml.logical_index((0, 0), (1, 0))):
        with pytest.raises(LayoutError, match=r"not injective on 4x4: \(0, 1\) and \(1, 0\)"):
            call()


@settings(max_examples=40, deadline=None)
@given(
    shape=st.lists(st.integers(1, 5), min_size=1, max_size=4),
    data=st.data(),
)
def test_locate_round_trips_for_random_collapses_grids_and_tiles(shape, data):
    r = len(shape)
    b = data.draw(st.integers(0, r))
    e = data.draw(st.integers(b, r))
    from unilayout.tt import collapse_groups

    k = len(collapse_groups(r, [(b, e)]))
    g = max(k, 2) + data.draw(st.integers(0, 1))
    grid = tuple(data.draw(st.integers(1, 4)) for _ in range(g))
    align = tuple(data.draw(st.sampled_from([1, 1, 2, 4])) for _ in range(r))
    tile = data.draw(st.sampled_from([None, (2, 2), (4, 1), (3, 2)]))
    ml = ML.from_collapse(shape, grid, [(b, e)], dim_alignments=align, tile=tile)
    for x in itertools.product(*(range(n) for n in shape)):
        assert ml.logical_index(*ml.locate(*x)) == x


def test_equivalent_compares_the_placement_function_not_the_text():
    a = ML((4, 8), "(d0, d1) -> (d0, d1)", (2, 2))
    b = ML((4, 8), "(d0, d1) -> (d0 + (d1 floordiv 8) * 4, d1 mod 8)", (2, 2))
    assert a != b and a.equivalent(b) and b.equivalent(a)
    assert not a.equivalent(a.replace(grid=(4, 1)))
    assert not a.equivalent(a.replace(oob_val="zero")) and not a.equivalent("x")
    seed = ML((8, 96, 32), "(d0, d1, d2) -> (d0 * 96 + d1, d2)", (2, 1))
    assert seed.equivalent(ML.from_collapse((8, 96, 32), (2, 1)))
    swapped = ML((4, 4), "(d0, d1) -> (d1, d0)", (1, 1))
    assert not swapped.equivalent(ML((4, 4), "(d0, d1) -> (d0, d1)", (1, 1)))


JUNK = [None, 0, -1, 3, 2**70, 1.5, "x", "", (), (0,), (2, 2), (2, "a"), [3, 2], ((0, -1),), [(1, 0)],
        np.array([2, 2]), np.int64(4), {"a": 1}, "(d0, d1) -> (d0, d1)", "(d0) -> (d0)", "l1", "undef", (32, 32),
        (32, 32, "bf16"), "bfp_bf8", "f32", float("nan"), b"f32", object()]


@settings(max_examples=200, deadline=None)
@given(args=st.lists(st.sampled_from(JUNK), min_size=3, max_size=8), collapse=st.booleans())
def test_constructors_accept_or_raise_layout_error_only(args, collapse):
    try:
        if collapse:
            ml = ML.from_collapse(args[0], args[1], args[2], **dict(zip(
                ["element_type", "memory_space", "oob_val", "tile", "dim_alignments"], args[3:])))
        else:
            ml = ML(*args)
    except LayoutError:
        return
    assert ML(ml.logical_shape, ml.linear, ml.grid, ml.element_type, ml.memory_space, ml.oob_val, ml.tile,
              ml.tile_dtype) == ml
