"""CuTe <-> linear (unilayout.convert.cute_linear): exact over the whole domain, round trips, reasons."""

import numpy as np
import pytest
from convert_helpers import FAST, POW2_LEAF, STRIDES, flat_linear, is_gf2_linear, is_integer_strided, random_linear
from hypothesis import assume, given
from hypothesis import strategies as st

from cute_strategies import layouts
from unilayout import LayoutError, NotRepresentableError, cute, linear
from unilayout.convert import cute_to_linear, linear_to_affine, linear_to_cute

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


@pytest.mark.parametrize("text", [
    "tensor<128x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>>",
    "tensor<128x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>>",
])
def test_convert_of_a_shared_encoding_to_cute_maps_element_to_offset(text):
    # CuTe's smem layouts map an element coordinate to its offset; Triton's shared encoding maps an offset to
    # the element. convert must answer CuTe's direction: the 128B swizzle atom Sw<3,3,3> o (8,64):(64,1) tiled
    # over 128x64 (issue 23: it answered the inverse, Sw<3,0,-10> o 0 o ((64,128),1):...).
    import unilayout
    from unilayout.convert import convert_to

    L = unilayout.parse(text)
    C = convert_to(L, "cute")
    atom = cute.ComposedLayout(cute.Swizzle(3, 3, 3), 0, cute.Layout((8, 64), (64, 1)))
    tiled = cute.tile_to_shape(atom, (128, 64))
    rows, cols = np.meshgrid(np.arange(128), np.arange(64), indexing="ij")
    coords = (rows.ravel(), cols.ravel())
    assert np.array_equal(C.index_map()[np.ravel_multi_index(coords, (128, 64), order="F")],
                          tiled.index_map()[np.ravel_multi_index(coords, (128, 64), order="F")])
    # and it is the inverse of Triton's offset -> element map, element by element
    off = C.index_map()
    element = L.index_map()  # offset -> (dim0, dim1) per Triton
    r, c = element[..., 0].ravel()[off], element[..., 1].ravel()[off]
    assert np.array_equal(r, np.tile(np.arange(128), 64)) and np.array_equal(c, np.repeat(np.arange(64), 128))
