"""Conversions between families (unilayout.convert): functional equality over the whole domain, round trips, reasons."""

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from unilayout import LayoutError, NotRepresentableError, affine, cute, linear, tsl, tt
from unilayout.convert import (
    ShardLayout, affine_to_cute, affine_to_linear, affine_to_tsl, convert_to, cute_to_affine, cute_to_linear,
    cute_to_tsl, family_of, linear_to_affine, linear_to_cute, linear_to_tsl, metal_to_affine, metal_to_cute,
    tsl_to_affine, tsl_to_cute, tsl_to_linear,
)

from cute_strategies import layouts

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --------------------------------------------------------------------------------- helpers


def natural_rowmajor(L):
    """L at every natural coordinate (box product_each(shape)), in row-major order of that box."""
    ext = cute.product_each(L.shape)
    ext = ext if isinstance(ext, tuple) else (ext,)
    vals = L.index_map()  # colexicographic
    t = vals.reshape(tuple(reversed(ext)))
    return t.transpose(tuple(reversed(range(len(ext))))).reshape(-1), ext


def flat_linear(L):
    """Linear index_map with out-dims flattened into one int (first out-dim least significant)."""
    vals = L.index_map()
    out = np.zeros(vals.shape[0], dtype=np.int64)
    shift = 0
    for j, (_, s) in enumerate(L.out_dims):
        out |= vals[:, j] << shift
        shift += s.bit_length() - 1
    return out


def linear_rowmajor(L):
    """Linear index_map reordered row-major over the in-dim box (dim i = in-dim i)."""
    sizes = [s for _, s in L.in_dims]
    vals = L.index_map().reshape(tuple(reversed(sizes)) + (len(L.out_dims),))
    return vals.transpose(tuple(reversed(range(len(sizes)))) + (len(sizes),)).reshape(-1, len(L.out_dims))


def is_gf2_linear(table):
    """Independent check: table[x] == XOR of table[2**k] over the set bits k of x, for every x."""
    n = table.size
    if n & (n - 1) or (table < 0).any():
        return False
    x = np.arange(n)
    acc = np.zeros(n, dtype=np.int64)
    for k in range(n.bit_length() - 1):
        acc ^= np.where((x >> k) & 1 == 1, table[1 << k], 0)
    return bool(np.array_equal(acc, table))


def is_integer_strided(table):
    """Independent check: table[x] == SUM of table[2**k] over the set bits k of x (a plain CuTe layout over bits)."""
    n = table.size
    x = np.arange(n)
    acc = np.zeros(n, dtype=np.int64)
    for k in range(n.bit_length() - 1):
        acc += np.where((x >> k) & 1 == 1, table[1 << k], 0)
    return bool(np.array_equal(acc, table))


POW2_LEAF = st.sampled_from([1, 2, 2, 4, 8])
STRIDES = st.sampled_from([0, 1, 2, 3, 4, 8, 16, 32, 5, 64])


@st.composite
def random_linear(draw, max_dims=3, max_bits=4, out_bits=6):
    names = ["register", "lane", "warp", "block"][: draw(st.integers(1, max_dims))]
    outs = draw(st.sampled_from([["offset"], ["dim0", "dim1"]]))
    sizes = {o: 1 << draw(st.integers(0, out_bits // len(outs))) for o in outs}
    bases = {}
    for n in names:
        k = draw(st.integers(0, max_bits))
        bases[n] = [[draw(st.integers(0, sizes[o] - 1)) for o in outs] for _ in range(k)]
    return linear.LinearLayout(bases, sizes, require_surjective=False)


# --------------------------------------------------------------------------------- CuTe -> linear


@FAST
@given(layouts(sizes=POW2_LEAF, stride=STRIDES))
def test_cute_to_linear_is_exact_or_really_not_linear(L):
    table = L.index_map()
    try:
        lin = cute_to_linear(L)
    except NotRepresentableError:
        assert not is_gf2_linear(table), f"{L} is GF(2)-linear but was rejected"
        return
    assert lin.in_dim_names == [f"dim{i}" for i in range(L.rank)]
    assert [s for _, s in lin.in_dims] == [m.size for m in L]
    np.testing.assert_array_equal(flat_linear(lin), table)
    assert is_gf2_linear(table)


@FAST
@given(layouts(sizes=st.sampled_from([1, 2, 3, 4, 6]), stride=st.integers(0, 12)))
def test_cute_to_linear_rejects_non_power_of_two_sizes(L):
    assume(any(m.size & (m.size - 1) for m in L))
    with pytest.raises(NotRepresentableError, match="not a power of two: pad to"):
        cute_to_linear(L)


@FAST
@given(
    layouts(sizes=POW2_LEAF, stride=st.sampled_from([0, 1, 2, 4, 8, 16, 32, 64])),
    st.integers(0, 3), st.integers(0, 4), st.integers(1, 4), st.booleans(),
)
def test_swizzled_layouts_convert_exactly(inner, b, m, s, negative):
    assume(s >= b)
    sw = cute.Swizzle(b, m, -s if negative else s)
    C = cute.ComposedLayout(sw, 0, inner)
    try:
        cute_to_linear(inner)
    except NotRepresentableError:
        with pytest.raises(NotRepresentableError):
            cute_to_linear(C)
        return
    lin = cute_to_linear(C)
    np.testing.assert_array_equal(flat_linear(lin), C.index_map())
    back = linear_to_cute(lin)
    np.testing.assert_array_equal(back.index_map(), C.index_map())


def test_seed_swizzle_round_trip():
    C = cute.parse("Sw<3,4,3> o 0 o (8,64):(64,1)")
    lin = cute_to_linear(C)
    assert lin.in_dims == [("dim0", 8), ("dim1", 64)] and lin.out_dims == [("offset", 512)]
    assert lin.bases[0][1] == [[64], [144], [288]]
    back = linear_to_cute(lin)
    assert isinstance(back, cute.ComposedLayout) and back.inner == cute.Layout((8, 64), (64, 1))
    np.testing.assert_array_equal(back.index_map(), C.index_map())


def test_bare_swizzle_and_layout_outer():
    sw = cute.Swizzle(2, 1, 3)
    lin = cute_to_linear(sw)
    np.testing.assert_array_equal(flat_linear(lin), sw(np.arange(sw.size)))
    C = cute.ComposedLayout(cute.Layout((4, 4), (4, 1)), 0, cute.Layout((2, 8), (8, 1)))
    np.testing.assert_array_equal(flat_linear(cute_to_linear(C)), C.index_map())
    # the outer layout evaluated past its size extends through its last mode, as CuTe does
    C2 = cute.ComposedLayout(cute.Layout((2, 2), (1, 8)), 0, cute.Layout(16, 1))
    np.testing.assert_array_equal(flat_linear(cute_to_linear(C2)), C2.index_map())


def test_thread_value_layout_to_triton_dims():
    # CuTe's TV layout of thr (4,32):(32,1), val (4,1): tiler (16,32), tv ((32,4),4):((16,4),1)
    tiler, tv = cute.make_layout_tv(cute.Layout((4, 32), (32, 1)), cute.Layout((4, 1), (1, 1)))
    M, N = tiler
    lin = cute_to_linear(tv, in_dims=(("lane", "warp"), "register"), out_dims={"dim0": M, "dim1": N})
    assert lin.in_dims == [("lane", 32), ("warp", 4), ("register", 4)]
    for t in range(128):
        for v in range(4):
            idx = tv(t, v)
            got = lin.apply({"lane": t % 32, "warp": t // 32, "register": v})
            assert (got["dim0"], got["dim1"]) == (idx % M, idx // M)


def test_in_dims_forms():
    L = cute.Layout(((2, 4), 2), ((1, 4), 2))
    assert cute_to_linear(L, in_dims="offset").in_dims == [("offset", 16)]
    # a repeated name takes the later leaves as higher bits
    lin = cute_to_linear(L, in_dims=(("register", "lane"), "register"))
    assert lin.in_dims == [("register", 4), ("lane", 4)]
    assert lin.bases[0][1] == [[1], [2]]
    with pytest.raises(LayoutError, match="one entry per top-level mode"):
        cute_to_linear(L, in_dims=("a",))
    with pytest.raises(LayoutError, match="does not match mode"):
        cute_to_linear(L, in_dims=(("a", "b", "c"), "d"))
    with pytest.raises(LayoutError):
        cute_to_linear(L, in_dims=(3, "d"))


def test_out_dims_forms():
    L = cute.Layout((4, 2), (1, 4))
    assert cute_to_linear(L, out_dims=(4, 2)).out_dims == [("dim0", 4), ("dim1", 2)]
    assert cute_to_linear(L, out_dims="addr").out_dims == [("addr", 8)]
    assert cute_to_linear(L, out_dims=[("x", 2), ("y", 8)]).out_dims == [("x", 2), ("y", 8)]
    with pytest.raises(NotRepresentableError, match="reaches offset 7"):
        cute_to_linear(L, out_dims={"x": 4})
    with pytest.raises(LayoutError, match="not a power of two"):
        cute_to_linear(L, out_dims={"x": 6})


@pytest.mark.parametrize(
    "text, reason",
    [
        ("12:1", "in-dim 'dim0' (mode 0) has size 12, not a power of two: pad to 16"),
        ("(4,3):(1,4)", "size 3, not a power of two: pad to 4"),
        ("4:3", "stride 3, not a power of two: over 4 points its images 3 and 6 share bit 1"),
        ("(2,2):(1,1)", "carry between modes"),
        ("(4,2):(1,2)", "carry between modes"),
        ("4:-1", "negative stride -1"),
        ("Sw<1,0,1> o 1 o 4:1", "offset 1 is not 0: a linear layout maps 0 to 0"),
    ],
)
def test_cute_to_linear_reasons(text, reason):
    with pytest.raises(NotRepresentableError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        cute_to_linear(cute.parse(text))


def test_cute_to_linear_accepts_odd_stride_on_one_bit():
    lin = cute_to_linear(cute.parse("(2,4):(3,4)"))
    np.testing.assert_array_equal(flat_linear(lin), cute.parse("(2,4):(3,4)").index_map())


def test_cute_to_linear_bad_input():
    with pytest.raises(LayoutError):
        cute_to_linear("8:1")


# --------------------------------------------------------------------------------- linear -> CuTe


@FAST
@given(random_linear())
def test_linear_to_cute_is_exact_or_has_no_single_swizzle_form(L):
    table = flat_linear(L)
    try:
        C = linear_to_cute(L)
    except NotRepresentableError as e:
        assert "no single swizzle" in str(e)
        assert not is_integer_strided(table)
        nb = int(table.max()).bit_length()
        for b in range(1, nb + 1):
            for s in range(b, nb + 1):
                for m in range(0, nb + 1):
                    for sign in (1, -1):
                        sw = cute.Swizzle(b, m, sign * s)
                        assert not is_integer_strided(sw(table)), f"{sw} would have worked"
        return
    np.testing.assert_array_equal(C.index_map(), table)
    inner = C.inner if isinstance(C, cute.ComposedLayout) else C
    assert inner.rank == max(1, len(L.in_dims))


@FAST
@given(random_linear())
def test_linear_cute_linear_round_trip_is_identical(L):
    try:
        C = linear_to_cute(L)
    except NotRepresentableError:
        return
    names = L.in_dim_names
    back = cute_to_linear(C, in_dims=names if len(names) > 1 else names[0], out_dims=dict(L.out_dims))
    assert back == L


@FAST
@given(layouts(sizes=POW2_LEAF, stride=st.sampled_from([0, 1, 2, 4, 8, 16, 64])))
def test_cute_linear_cute_round_trip(L):
    try:
        lin = cute_to_linear(L)
    except NotRepresentableError:
        return
    back = linear_to_cute(lin)
    np.testing.assert_array_equal(back.index_map(), L.index_map())
    assert back.rank == L.rank


def test_swizzle_search_is_bounded():
    from unilayout.convert import MAX_SWIZZLE_BITS

    n = MAX_SWIZZLE_BITS + 1
    L = linear.LinearLayout({"i": [[1 << k] for k in range(n - 1)] + [[(1 << (n - 1)) | 1]]}, {"o": 1 << n})
    with pytest.raises(NotRepresentableError, match=f"searched up to {MAX_SWIZZLE_BITS} offset bits"):
        linear_to_cute(L)
    np.testing.assert_array_equal(linear_to_affine(linear.LinearLayout({"i": [[1], [3]]}, {"o": 4})).index_map((4,)),
                                  [[0], [1], [3], [2]])


def test_linear_to_cute_examples():
    L = linear.LinearLayout({"register": [[0, 1], [8, 0]], "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]],
                             "warp": [[16, 0], [32, 0]], "block": []}, ["dim0", "dim1"])
    C = linear_to_cute(L)
    assert str(C) == "((2,2),(4,8),4,1):((64,8),(128,1),16,0)"
    np.testing.assert_array_equal(C.index_map(), flat_linear(L))
    assert linear_to_cute(linear.identity_1d(8, "i", "o")) == cute.Layout(8, 1)
    assert linear_to_cute(linear.LinearLayout.empty()) == cute.Layout(1, 0)
    assert linear_to_cute(linear.zeros_1d(4, "i", "o")) == cute.Layout(4, 0)
    with pytest.raises(LayoutError):
        linear_to_cute(cute.Layout(4, 1))


def test_triton_encodings_through_cute():
    from unilayout.linear import encodings

    blocked = encodings.blocked([32, 32], [2, 2], [4, 8], [2, 2], [1, 0])
    mfma = encodings.amd_mfma([32, 64], 3, [16, 16, 16], False, [2, 2])
    for L in (blocked, mfma):
        C = linear_to_cute(L)
        assert isinstance(C, cute.Layout)
        np.testing.assert_array_equal(C.index_map(), flat_linear(L))
    # swizzled shared layouts (offset -> element) are CuTe swizzles
    for args, text in [
        (([4, 8], 1, 1, 4, [1, 0]), "Sw<2,0,-2> o 0 o ((8,4),1):((4,1),0)"),
        (([32, 32], 4, 2, 4, [1, 0]), "Sw<2,1,-6> o 0 o ((32,32),1):((32,1),0)"),
    ]:
        L = encodings.swizzled_shared(*args)
        C = linear_to_cute(L)
        assert str(C) == text
        np.testing.assert_array_equal(C.index_map(), flat_linear(L))


# --------------------------------------------------------------------------------- -> affine


@FAST
@given(layouts(stride=st.integers(-6, 24)))
def test_cute_to_affine_on_natural_coordinates(L):
    m = cute_to_affine(L)
    vals, ext = natural_rowmajor(L)
    assert m.num_dims == len(ext) and m.num_results == 1
    np.testing.assert_array_equal(m.index_map(ext)[:, 0], vals)


@FAST
@given(layouts(max_rank=2), st.integers(0, 3), st.integers(0, 3), st.integers(1, 4), st.booleans(), st.integers(0, 9))
def test_swizzled_cute_to_affine(inner, b, m, s, negative, offset):
    assume(s >= b)
    C = cute.ComposedLayout(cute.Swizzle(b, m, -s if negative else s), offset, inner)
    amap = cute_to_affine(C)
    ext = cute.product_each(inner.shape)
    ext = ext if isinstance(ext, tuple) else (ext,)
    got = amap.index_map(ext)[:, 0].reshape(ext)
    for crd in itertools.product(*map(range, ext)):
        assert got[crd] == C(*crd) if len(crd) > 1 else got[crd] == C(crd[0])


@FAST
@given(layouts(max_rank=2), layouts(max_rank=2), st.integers(0, 5))
def test_layout_outer_composed_to_affine(outer, inner, offset):
    C = cute.ComposedLayout(outer, offset, inner)
    amap = cute_to_affine(C)
    vals, ext = natural_rowmajor(inner)
    got = amap.index_map(ext)[:, 0]
    want = np.array([C(*np.unravel_index(i, ext)) if len(ext) > 1 else C(i) for i in range(len(vals))])
    np.testing.assert_array_equal(got, want)


def test_bare_swizzle_to_affine():
    sw = cute.Swizzle(3, 4, 3)
    m = cute_to_affine(sw)
    np.testing.assert_array_equal(m.index_map((1024,))[:, 0], sw(np.arange(1024)))
    sw = cute.Swizzle(2, 0, -3)
    np.testing.assert_array_equal(cute_to_affine(sw).index_map((256,))[:, 0], sw(np.arange(256)))


@FAST
@given(random_linear())
def test_linear_to_affine_always_exact(L):
    m = linear_to_affine(L)
    sizes = tuple(s for _, s in L.in_dims)
    assert m.num_dims == len(sizes) and m.num_results == len(L.out_dims)
    np.testing.assert_array_equal(m.index_map(sizes), linear_rowmajor(L))


def test_linear_to_affine_parity_form():
    L = linear.LinearLayout({"i": [[1], [2], [7]]}, {"o": 8})
    m = linear_to_affine(L)
    assert "mod 2" in str(m)
    np.testing.assert_array_equal(m.index_map((8,)), L.index_map())


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


# --------------------------------------------------------------------------------- affine -> CuTe / TSL / linear


@FAST
@given(layouts(stride=st.integers(0, 20)))
def test_cute_affine_cute_round_trip(L):
    m = cute_to_affine(L)
    vals, ext = natural_rowmajor(L)
    back = affine_to_cute(m, ext)
    got, ext2 = natural_rowmajor(back)
    assert tuple(ext2) == tuple(ext)
    np.testing.assert_array_equal(got, vals)
    t = affine_to_tsl(m, ext)
    assert t.shape == tuple(ext)
    np.testing.assert_array_equal(t.index_map().reshape(-1), vals)


@FAST
@given(random_linear())
def test_linear_affine_linear_round_trip(L):
    m = linear_to_affine(L)
    sizes = tuple(s for _, s in L.in_dims)
    back = affine_to_linear(m, sizes, in_dims=L.in_dim_names, out_dims=L.out_dim_names)
    np.testing.assert_array_equal(back.index_map(), L.index_map())


def test_affine_fit_reasons():
    with pytest.raises(NotRepresentableError, match="maps 0 to 0"):
        affine_to_cute(affine.parse("(d0) -> (d0 + 3)"), (4,))
    assert str(affine_to_tsl(affine.parse("(d0) -> (d0 + 3)"), (4,))) == "#tsl.tsl<[4] -> (1), offset: 3>"
    with pytest.raises(NotRepresentableError, match="independently"):
        affine_to_cute(affine.parse("(d0, d1) -> ((d0 + d1) mod 4)"), (4, 4))
    with pytest.raises(NotRepresentableError, match="2 results"):
        affine_to_cute(affine.parse("(d0) -> (d0, d0)"), (4,))
    with pytest.raises(LayoutError, match="pass shape"):
        affine_to_cute(affine.parse("(d0) -> (d0)"), None)
    with pytest.raises(NotRepresentableError, match="symbols"):
        affine_to_cute(affine.parse("(d0)[s0] -> (d0 * s0)"), (4,))
    with pytest.raises(NotRepresentableError, match="size 6 of dim 0 is not a power of two: pad to 8"):
        affine_to_linear(affine.parse("(d0) -> (d0)"), (6,))
    with pytest.raises(NotRepresentableError, match="not GF\\(2\\)-linear"):
        affine_to_linear(affine.parse("(d0) -> (d0 * 3)"), (4,))
    with pytest.raises(NotRepresentableError, match="negative"):
        affine_to_linear(affine.parse("(d0) -> (-d0)"), (4,))
    m = affine.parse("(d0, d1) -> (d0 * 2 + d1)")
    for bad in ("ab", (4,), (4, -2), 5, ("a", 2), (4.0, 2)):
        for fn in (affine_to_cute, affine_to_tsl, affine_to_linear):
            with pytest.raises(LayoutError):
                fn(m, bad)


# --------------------------------------------------------------------------------- TSL


@FAST
@given(layouts(sizes=POW2_LEAF, stride=st.sampled_from([0, 1, 2, 4, 8, 16, 32])))
def test_tsl_linear_round_trip(L):
    t = cute_to_tsl(L)
    try:
        lin = tsl_to_linear(t)
    except NotRepresentableError:
        with pytest.raises(NotRepresentableError):
            cute_to_linear(L)
        return
    assert lin.in_dims == [(f"dim{i}", n) for i, n in enumerate(t.shape)]
    t2 = linear_to_tsl(lin)
    np.testing.assert_array_equal(t2.index_map(), t.index_map())
    np.testing.assert_array_equal(tsl_to_affine(t).index_map(t.shape)[:, 0], t.index_map().reshape(-1))


def test_tsl_linear_reasons():
    with pytest.raises(NotRepresentableError, match="maps 0 to 0"):
        tsl_to_linear(tsl.parse("[4] -> (1), offset: 2"))
    with pytest.raises(NotRepresentableError, match="swizzled"):
        linear_to_tsl(linear.LinearLayout({"i": [[1], [3]]}, {"o": 4}))
    with pytest.raises(LayoutError):
        tsl_to_linear(cute.Layout(4, 1))


# --------------------------------------------------------------------------------- dispatch


def test_convert_to_every_pair():
    C = cute.parse("(4,2):(2,1)")
    assert convert_to(C, "cute") is C
    lin = convert_to(C, "linear")
    assert convert_to(lin, "cute") == C
    assert convert_to(C, "tsl") == cute_to_tsl(C)
    assert str(convert_to(C, "affine")) == "(d0, d1) -> (d0 * 2 + d1)"
    assert convert_to(lin, "affine").index_map((4, 2)).shape == (8, 1)
    assert str(convert_to(lin, "tsl")) == "#tsl.tsl<[4] -> (2), [2] -> (1)>"
    t = tsl.parse("[4] -> (2), [2] -> (1)")
    assert convert_to(t, "cute") == C and convert_to(t, "linear") == lin
    assert convert_to(t, "affine") == tsl_to_affine(t)
    m = affine.parse("(d0, d1) -> (d0 * 2 + d1)")
    assert convert_to(m, "cute", shape=(4, 2)) == C
    assert convert_to(m, "tsl", shape=(4, 2)) == t
    assert convert_to(m, "linear", shape=(4, 2), in_dims=["dim0", "dim1"], out_dims=["offset"]) == lin
    ml = tt.MetalLayout.from_collapse((8, 8), (2, 2))
    assert convert_to(ml, "affine") == metal_to_affine(ml)
    assert convert_to(ml, "affine", flat=True) == metal_to_affine(ml, flat=True)
    assert len(convert_to(ml, "cute")) == 4
    dev = tt.Device.from_mesh(tt.SystemDesc((8, 8), 2), (1, 2))
    assert convert_to(dev, "affine") == dev.grid_map
    assert convert_to(C, "linear", in_dims=("a", "b")).in_dim_names == ["a", "b"]
    dyn = tsl.parse("#tsl.tsl<[?, 4] -> (32, 4), [?, 4] -> (?, 1)>")
    assert convert_to(dyn, "cute", shape=(64, 64)) == tsl_to_cute(dyn.resolve((64, 64)))
    assert convert_to(dyn, "tsl", shape=(64, 64)) == dyn.resolve((64, 64))


def test_device_to_affine():
    from unilayout.convert import device_to_affine
    import unilayout

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


def test_convert_to_errors():
    C = cute.parse("Sw<1,0,1> o 0 o 4:1")
    with pytest.raises(NotRepresentableError, match="ComposedLayout: a TSL only adds"):
        convert_to(C, "tsl")
    with pytest.raises(LayoutError, match="shape is the box of an affine map"):
        convert_to(cute.Layout(4, 1), "linear", shape=(4,))
    for junk in (cute.Tensor(np.arange(4), cute.Layout(4, 1)), tsl.Stride(2, 1), affine.dim(0), tt.SystemDesc()):
        with pytest.raises(LayoutError, match="expected a unilayout layout value"):
            convert_to(junk, "cute")
    with pytest.raises(NotRepresentableError, match="metal layout"):
        convert_to(tt.MetalLayout.from_collapse((8, 8), (2, 2)), "linear")
    with pytest.raises(NotRepresentableError, match="device"):
        convert_to(tt.Device.from_mesh(tt.SystemDesc((8, 8), 1), (1, 1)), "cute")
    with pytest.raises(LayoutError, match="unknown target family"):
        convert_to(C, "metal")
    with pytest.raises(LayoutError, match="options"):
        convert_to(cute.Layout(4, 1), "affine", bogus=1)
    with pytest.raises(LayoutError, match="expected a unilayout layout value"):
        convert_to(3, "cute")
    assert family_of(affine.parse("(d0) -> (d0)")) == "affine"


def test_tsl_cute_existing_conversions_still_hold():
    t = tsl.parse("#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1)>")
    L = tsl_to_cute(t)
    assert str(L) == "((4,2),(4,2)):((4,32),(1,16))" and cute_to_tsl(L) == t
    vals, _ = natural_rowmajor(L)
    np.testing.assert_array_equal(t.index_map().reshape(-1), vals)
