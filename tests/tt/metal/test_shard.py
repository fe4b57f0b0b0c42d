"""shard / unshard / padding_mask / padding_summary / index_map: exact, lossless, vectorised."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import unilayout
from unilayout import LayoutError
from unilayout.tt import MetalLayout, collapse_groups

ML = MetalLayout


def _slot(ml, G, q):
    return G + q  # shard() is grid + padded shard, row-major inside the shard


def _check_against_locate(ml, a, s):
    """Every element sits where locate says; everything else is padding."""
    mask = np.ones(s.shape, dtype=bool)
    for x in itertools.product(*(range(n) for n in ml.logical_shape)):
        G, q = ml.locate(*x)
        slot = _slot(ml, G, q)
        assert s[slot] == a[x]
        mask[slot] = False
    assert np.array_equal(mask, ml.padding_mask())


CASES = [
    ML.from_collapse((2, 3, 64, 128), (2, 4)),
    ML.from_collapse((53, 63), (3, 2)),
    ML.from_collapse((53, 63), (3, 2), tile=(32, 32)),
    ML.from_collapse((2, 8, 32), (1, 2), dim_alignments=(1, 32, 1), tile=(32, 32)),
    ML((8, 96, 32), "(d0, d1, d2) -> (d0 * 96 + d1, d1, d2)", (2, 1, 2)),
    ML.from_collapse((3, 5, 7, 4), (2, 2, 3), [(1, -1)], tile=(4, 4)),
    ML((8, 6), "(d0, d1) -> (d0 floordiv 2, d0 mod 2, d1)", (3, 1, 4)),
    ML((5, 4), "(d0, d1) -> (d1 * 7 + d0 + 1, 0)", (4, 1)),
    ML.from_collapse((9,), (2, 2, 4)),
    ML.from_collapse((4, 6), (8, 1)),  # more cores than rows: whole empty cores
]


@pytest.mark.parametrize("ml", CASES, ids=str)
def test_shard_puts_every_element_where_locate_says_and_unshard_inverts(ml):
    a = np.arange(1, ml.volume + 1, dtype=np.int64).reshape(ml.logical_shape)
    s = ml.shard(a)
    assert s.shape == ml.shards_shape and s.dtype == a.dtype
    if ml.volume <= 5000:
        _check_against_locate(ml, a, s)
    assert (s[ml.padding_mask()] == 0).all()
    assert np.array_equal(ml.unshard(s), a)
    assert np.array_equal(s.reshape(-1)[ml.index_map()], a.reshape(-1))
    assert np.array_equal(unilayout.index_map(ml), ml.index_map())


@pytest.mark.parametrize("oob, value", [("undef", 0.0), ("zero", 0.0), ("one", 1.0), ("inf", np.inf), ("neginf", -np.inf)])
def test_padding_is_filled_from_oob_val(oob, value):
    ml = ML.from_collapse((53, 63), (3, 2), oob_val=oob, tile=(32, 32))
    s = ml.shard(np.full((53, 63), 7.0, dtype=np.float32))
    mask = ml.padding_mask()
    assert (s[mask] == value).all() and (s[~mask] == 7.0).all()


def test_inf_padding_on_an_integer_array_is_rejected():
    ml = ML.from_collapse((5, 5), (2, 2), oob_val="inf")
    with pytest.raises(LayoutError, match="floating-point"):
        ml.shard(np.zeros((5, 5), dtype=np.int32))
    # no padding needed still needs a representable fill: the rule does not depend on the sizes
    assert ML.from_collapse((4, 4), (2, 2), oob_val="one").shard(np.zeros((4, 4), np.int8)).dtype == np.int8


def test_shard_and_unshard_check_shapes_and_out_buffers():
    ml = ML.from_collapse((8, 8), (2, 2))
    with pytest.raises(LayoutError, match=r"shape \(8, 9\) does not match the expected \(8, 8\)"):
        ml.shard(np.zeros((8, 9)))
    with pytest.raises(LayoutError, match="does not match"):
        ml.unshard(np.zeros((8, 8)))
    with pytest.raises(LayoutError, match="out must be"):
        ml.shard(np.zeros((8, 8)), out=np.zeros((2, 2, 4, 4), np.float32))
    with pytest.raises(LayoutError, match="C-contiguous"):
        ml.shard(np.zeros((8, 8)), out=np.zeros((2, 2, 4, 8))[..., ::2])
    out = np.empty((2, 2, 4, 4))
    a = np.random.default_rng(0).random((8, 8))
    assert ml.shard(a, out=out) is out
    back = np.empty((8, 8))
    assert ml.unshard(out, out=back) is back and np.array_equal(back, a)


def test_non_contiguous_inputs_and_other_dtypes_round_trip():
    a = np.arange(40 * 30, dtype=np.int16).reshape(40, 30)[::2, ::3]  # 20x10, strided
    ml = ML.from_collapse((20, 10), (3, 4), tile=(4, 4))
    s = ml.shard(a)
    assert np.array_equal(ml.unshard(s), a)
    assert np.array_equal(ml.unshard(np.asfortranarray(s)), a)
    b = np.random.default_rng(2).random((20, 10)) > 0.5
    assert np.array_equal(ml.unshard(ml.shard(b)), b)
    c = np.array([["x"] * 10] * 20, dtype=object)
    assert np.array_equal(ml.unshard(ml.shard(c)), c)


def test_to_tiles_gives_the_tile_major_order_inside_a_shard():
    ml = ML.from_collapse((4, 8), (1, 1), tile=(2, 4))
    s = ml.shard(np.arange(32).reshape(4, 8))
    assert s.shape == (1, 1, 4, 8) and ml.index_map()[:8].tolist() == list(range(8))
    t = ml.to_tiles(s)
    assert t.shape == (1, 1, 2, 2, 2, 4)
    assert t[0, 0, 0, 1].tolist() == [[4, 5, 6, 7], [12, 13, 14, 15]]  # tile row 0, tile column 1
    assert np.array_equal(ml.to_tiles(ml.padding_mask()).reshape(-1)[:8], np.zeros(8, bool))


def test_padding_summary_counts_holes_grid_and_tile_padding():
    p = ML((2, 8, 32), "(d0, d1, d2) -> (d0 * 32 + d1, d2)", (1, 2)).tilize().padding_summary()
    # per core: 2 tiles of 32x16; physical rows 0..7 and 32..39 hold data (16 rows), 16 columns each
    assert p.extent.tolist() == [[[16, 16], [16, 16]]]
    assert p.padding.tolist() == [[[48, 16], [48, 16]]]
    assert p.slots.tolist() == [[2 * 1024 - 16 * 16, 2 * 1024 - 16 * 16]]
    assert p.total == 2 * 2 * 1024 - 2 * 8 * 32



DENSE = [ML.from_collapse((53, 63), (3, 2)), ML.from_collapse((53, 63), (3, 2), tile=(32, 32)),
         ML.from_collapse((2, 3, 64, 128), (2, 4)), ML.from_collapse((5, 7, 9), (2, 3, 2), [(0, 1)]),
         ML.from_collapse((100,), (3,)), ML.from_collapse((8, 300), (1, 2), tile=(32, 32)),
         unilayout.tt.MetalLayoutV2((53, 63), (1, 1), (32, 32), [(0, 1), (1, 2)]),       # alignment pads the extent
         unilayout.tt.MetalLayoutV2((53, 63), (2, 2), (32, 32), [(0, 1), (1, 2)], tile=(32, 32))]
HOLES = [ML((2, 8, 32), "(d0, d1, d2) -> (d0 * 32 + d1, d2)", (1, 2)), ML((4, 8), "(d0, d1) -> (d1, d0)", (2, 2))]


def _summary_by_numbering(ml):
    """Per-core extents and padding slots found by sharding a numbered array: independent of padding_summary."""
    n = int(np.prod(ml.logical_shape))
    shards = ml.shard(np.arange(1, n + 1, dtype=np.int64).reshape(ml.logical_shape))
    g = len(ml.grid)
    extent = np.zeros(ml.grid + (g,), dtype=np.int64)
    slots = np.zeros(ml.grid, dtype=np.int64)
    for G in itertools.product(*map(range, ml.grid)):
        where = np.nonzero(shards[G])      # slots holding an element (numbers start at 1, padding is 0)
        extent[G] = [len(set(w.tolist())) for w in where]
        slots[G] = shards[G].size - len(where[0])
    return extent, slots


V2_HOLES = [unilayout.tt.MetalLayoutV2((3, 43, 7), (6, 1), (1, 32, 32), [(0, 2), (2, 3)]),
            unilayout.tt.MetalLayoutV2((3, 43, 7), (3, 1), (1, 32, 32), [(0, 2), (2, 3)], tile=(32, 32)),
            unilayout.tt.MetalLayoutV2((2, 5, 40), (4, 2), (1, 8, 32), [(0, 2), (2, 3)])]


@pytest.mark.parametrize("ml", DENSE + HOLES + V2_HOLES, ids=str)
def test_padding_summary_matches_a_numbered_array_sharded(ml):
    """Each core's data extent per dim and padding slots are where a numbered array's elements land after shard()."""
    extent, slots = _summary_by_numbering(ml)
    p = ml.padding_summary()
    assert p.extent.dtype == p.slots.dtype == np.int64
    assert np.array_equal(p.extent, extent) and np.array_equal(p.slots, slots)
    assert np.array_equal(p.padding, np.asarray(ml.padded_shard_shape) - extent)
    assert p.total == int(ml.padding_mask().sum())


def test_alignment_inside_a_collapsed_group_leaves_the_second_core_11_rows():
    """3x43x7, dims 0-1 collapsed with d1 aligned to 32: rows 32..42 of each batch sit at the top of an odd core."""
    ml = unilayout.tt.parse("tensor<6x1x32x32xf32, #ttcore.metal_layout<logical_shape = 3x43x7, dim_alignments = "
                            "1x32x32, collapsed_intervals = dense<[[0, 2], [2, 3]]> : tensor<2x2xi64>, l1, sharded>>")
    p = ml.padding_summary()
    assert p.extent[:, 0].tolist() == [[32, 7], [11, 7]] * 3
    assert p.padding[:, 0].tolist() == [[0, 25], [21, 25]] * 3
    assert ml.locate(0, 32, 0) == ((1, 0), (0, 0)) and ml.locate(0, 42, 6) == ((1, 0), (10, 6))
    from unilayout.tt import picture

    assert "11x7 +21,+25" in picture.shard_grid(ml) and "32x7 +0,+25" in picture.shard_grid(ml)


def test_padding_summary_of_a_huge_dense_layout_builds_no_mask():
    ml = ML.from_collapse((65536, 65536 - 1), (8, 8), tile=(32, 32))
    p = ml.padding_summary()  # 2**32 slots: a mask would not fit
    assert p.slots[:, 7].tolist() == [8192] * 8 and p.slots[:, :7].sum() == 0  # the last column of cores: 8191 + 1
    assert p.total == 8 * 8192 and p.extent[0, 7].tolist() == [8192, 8191]

@st.composite
def layouts(draw):
    r = draw(st.integers(1, 4))
    shape = tuple(draw(st.integers(1, 9)) for _ in range(r))
    b = draw(st.integers(0, r))
    e = draw(st.integers(b, r))
    k = len(collapse_groups(r, [(b, e)]))
    g = max(k, 2) + draw(st.integers(0, 1))  # includes 3-D grids
    grid = tuple(draw(st.integers(1, 5)) for _ in range(g))
    align = tuple(draw(st.sampled_from([1, 1, 2, 3, 8])) for _ in range(r))
    tile = draw(st.sampled_from([None, None, (2, 2), (4, 8), (1, 3), (32, 32)]))
    oob = draw(st.sampled_from(["undef", "zero", "one", "neginf"]))
    return ML.from_collapse(shape, grid, [(b, e)], dim_alignments=align, tile=tile, oob_val=oob)


@settings(max_examples=80, deadline=None)
@given(ml=layouts(), seed=st.integers(0, 2**16))
def test_shard_then_unshard_gives_back_the_same_array(ml, seed):
    a = np.random.default_rng(seed).standard_normal(ml.logical_shape).astype(np.float32)
    s = ml.shard(a)
    assert s.shape == ml.shards_shape
    assert np.array_equal(ml.unshard(s), a)
    mask = ml.padding_mask()
    assert int((~mask).sum()) == ml.volume
    assert np.array_equal(np.sort(s[~mask]), np.sort(a.reshape(-1)))
    im = ml.index_map()
    assert len(np.unique(im)) == ml.volume and not mask.reshape(-1)[im].any()


@settings(max_examples=25, deadline=None)
@given(ml=layouts())
def test_shard_matches_locate_elementwise(ml):
    a = np.arange(ml.volume, dtype=np.float64).reshape(ml.logical_shape)
    _check_against_locate(ml, a, ml.shard(a))


def test_large_layout_moves_data_with_a_bounded_number_of_copies(monkeypatch):
    """shard does a fixed number of numpy copies, independent of the core and element counts."""
    from unilayout.tt.metal import shard as shard_mod

    calls = []
    real = np.copyto

    def counting(dst, src, *a, **k):
        calls.append(dst.shape)
        return real(dst, src, *a, **k)

    monkeypatch.setattr(shard_mod.np, "copyto", counting)
    ml = ML.from_collapse((1000, 1000), (7, 9), tile=(32, 32))
    a = np.random.default_rng(0).random((1000, 1000))
    s = ml.shard(a)
    assert len(calls) <= 16  # 4 runs per tiled dim
    calls.clear()
    assert np.array_equal(ml.unshard(s), a)
    assert len(calls) <= 16


@pytest.mark.parametrize("ml", CASES, ids=str)
def test_shard_into_a_dirty_out_buffer_overwrites_every_slot(ml):
    a = np.arange(1, ml.volume + 1, dtype=np.float64).reshape(ml.logical_shape)
    out = np.full(ml.shards_shape, -99.0)
    ml.replace(oob_val="one").shard(a, out=out)
    mask = ml.padding_mask()
    assert (out[mask] == 1.0).all() and np.array_equal(np.sort(out[~mask]), a.reshape(-1))


@settings(max_examples=40, deadline=None)
@given(ml=layouts())
def test_padding_mask_counts_match_the_slot_arithmetic(ml):
    mask = ml.padding_mask()
    assert mask.shape == ml.shards_shape
    assert int(mask.size - mask.sum()) == ml.volume
    out = np.full(ml.shards_shape, 5, dtype=np.int16)
    ml.replace(oob_val="zero").shard(np.full(ml.logical_shape, 7, dtype=np.int16), out=out)
    assert np.array_equal(out == 0, mask) and np.array_equal(out == 7, ~mask)


@settings(max_examples=30, deadline=None)
@given(ml=layouts())
def test_to_tiles_puts_each_element_in_its_tile(ml):
    a = np.arange(ml.volume, dtype=np.float64).reshape(ml.logical_shape)
    t = ml.to_tiles(ml.shard(a))
    tiles = ml.grid + (ml.memref_shape + ml.tile if ml.tile else ml.shard_shape)
    assert t.shape == tiles
    for x in itertools.islice(itertools.product(*(range(n) for n in ml.logical_shape)), 0, None, 3):
        G, q = ml.locate(*x)
        if ml.tile:
            T = ml.tile
            q = q[:-2] + (q[-2] // T[0], q[-1] // T[1], q[-2] % T[0], q[-1] % T[1])
        assert t[G + q] == a[x]
    assert int(np.isnan(ml.to_tiles(np.where(ml.padding_mask(), np.nan, 0.0))).sum()) == t.size - ml.volume


@st.composite
def explicit_layouts(draw):
    """Random maps given explicitly: sums of scaled dims with offsets, dims shared by results, div/mod terms."""
    from hypothesis import assume

    from unilayout.affine import AffineMap, constant, dim

    r = draw(st.integers(1, 3))
    shape = tuple(draw(st.integers(1, 5)) for _ in range(r))
    g = draw(st.integers(2, 3))
    results = []
    for _ in range(g):
        e = constant(draw(st.integers(0, 2)))
        for d in range(r):
            kind = draw(st.sampled_from(["skip", "skip", "lin", "div", "mod"]))
            if kind == "lin":
                e = e + dim(d) * draw(st.integers(1, 7))
            elif kind == "div":
                e = e + dim(d).floordiv(draw(st.integers(1, 3)))
            elif kind == "mod":
                e = e + dim(d) % draw(st.integers(2, 4))
        results.append(e)
    grid = tuple(draw(st.integers(1, 3)) for _ in range(g))
    tile = draw(st.sampled_from([None, (2, 2), (3, 1)]))
    try:
        ml = ML(shape, AffineMap(r, 0, results), grid, tile=tile)
        ml.check_injective()
    except LayoutError:
        assume(False)
    return ml


@settings(max_examples=80, deadline=None)
@given(ml=explicit_layouts(), seed=st.integers(0, 2**16))
def test_explicit_maps_shard_unshard_and_locate_round_trip(ml, seed):
    a = np.random.default_rng(seed).integers(1, 1000, ml.logical_shape)
    s = ml.shard(a)
    assert np.array_equal(ml.unshard(s), a)
    _check_against_locate(ml, a, s)
    for x in itertools.product(*(range(n) for n in ml.logical_shape)):
        assert ml.logical_index(*ml.locate(*x)) == x


def test_shard_of_a_void_array_pads_with_zero_bytes_and_round_trips():
    """A non-numeric dtype gets its own zero as undef padding; oob_val one on it is a LayoutError, not a TypeError."""
    a = np.arange(25).astype("S3").astype("V3").reshape(5, 5)
    ml = ML.from_collapse((5, 5), (2, 2))
    s = ml.shard(a)
    assert s.dtype == a.dtype and bytes(s[1, 1, 2, 2]) == b"\0\0\0" and bytes(s[1, 1, 1, 1]) == bytes(a[4, 4])
    assert (ml.unshard(s) == a).all()
    assert ml.shard(np.zeros((5, 5), "V3")).shape == (2, 2, 3, 3)
    with pytest.raises(LayoutError, match="oob_val one needs a numeric array"):
        ML.from_collapse((5, 5), (2, 2), oob_val="one").shard(a)


def test_tiled_shard_moves_whole_shard_rows_in_at_most_two_copies_per_dim():
    """A padded tiled layout copies whole shard rows (not 32-element tile rows): <= 2^g copies, runs of a shard row."""
    from unilayout.tt.metal import shard as shard_mod

    ml = ML.from_collapse((8191, 8190), (7, 9), tile=(32, 32))
    phys = np.zeros((8191, 8190), np.float32)
    out = np.empty(ml.shards_shape, np.float32)
    pairs = list(shard_mod._views(ml, phys, out))
    assert len(pairs) <= 4
    widths = sorted({ov.dtype.itemsize for ov, _ in pairs})
    assert widths == [-(-8190 // 9) * 4]                    # a whole shard row of 910 float32s per item
