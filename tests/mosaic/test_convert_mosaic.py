"""Mosaic GPU layouts converted (unilayout.convert.mosaic): WGMMA is CuTe's GMMA accumulator and Triton's MMA v3."""

from __future__ import annotations

import numpy as np
import pytest
from mosaic_facts import FACTS

import unilayout
from unilayout import NotRepresentableError, mosaic
from unilayout.convert import convert_to
from unilayout.convert.mosaic import mosaic_to_cute, mosaic_to_linear, smem_to_cute
from unilayout.cute.atoms_mma import gmma_c_layout, gmma_n_values
from unilayout.linear.encodings import nvidia_mma


def _cute_table(C, threads, values):
    t, v = np.meshgrid(np.arange(threads), np.arange(values), indexing="ij")
    return np.vectorize(lambda a, b: C((int(a), int(b))))(t, v)


@pytest.mark.parametrize("n", gmma_n_values())
def test_wgmma_is_cute_sm90_gmma_accumulator_element_by_element(n):
    ours = mosaic_to_cute(mosaic.WGMMA, (64, n))
    theirs = gmma_c_layout(n)
    values = n // 2
    assert np.array_equal(_cute_table(ours, 128, values), _cute_table(theirs, 128, values))
    # and the (thread, value) -> element of our own evaluator, as a column-major index
    crd = mosaic.WGMMA.coordinates((64, n))
    assert np.array_equal(crd[..., 0] + 64 * crd[..., 1], _cute_table(theirs, 128, values))


@pytest.mark.parametrize("m, n", [(64, 8), (64, 64), (128, 256), (256, 32)])
def test_wgmma_is_triton_nvidia_mma_v3_element_by_element(m, n):
    ours = mosaic_to_linear(mosaic.WGMMA, (m, n))
    triton = nvidia_mma([m, n], [3, 0], [4, 1], [16, n, 16])
    assert ours.bases == [b for b in triton.bases if b[0] != "block"]
    assert ours.out_dims == triton.out_dims
    assert np.array_equal(ours.index_map(), triton.sublayout(["register", "lane", "warp"], ["dim0", "dim1"])
                          .index_map())


@pytest.mark.parametrize("fact", [f for f in FACTS["tiled"] if all(s & (s - 1) == 0 for s in f["shape"])],
                         ids=lambda f: f"{f['name']}-{'x'.join(map(str, f['shape']))}")
def test_to_linear_and_cute_agree_with_jax_elements(fact):
    L, shape = eval(fact["ours"], {"mosaic": mosaic}), tuple(fact["shape"])
    vec = L.vector_length
    first = np.array(fact["thread_idxs"])  # jax: (thread, register) -> first element of the vector
    lin = mosaic_to_linear(L, shape)
    table = lin.index_map().reshape(-1, len(shape))  # register fastest, then lane, then warp
    values = table.shape[0] // 128
    per = table.reshape(128, values, len(shape))  # thread = lane + 32 * warp, value
    assert np.array_equal(per[:, ::vec], first)
    C = mosaic_to_cute(L, shape)
    col = np.cumprod((1,) + shape[:-1])
    assert np.array_equal(_cute_table(C, 128, values)[:, ::vec], (first * col).sum(-1))


def test_not_a_power_of_two_is_not_linear():
    with pytest.raises(NotRepresentableError, match="dim 1 has size 24"):
        mosaic_to_linear(mosaic.WGMMA, (64, 24))
    assert str(mosaic_to_cute(mosaic.WGMMA, (64, 24))) == "((4,8,4),(2,2,3)):((128,1,16),(64,8,512))"


def test_splat_converts_nowhere_with_the_reason():
    with pytest.raises(NotRepresentableError, match="one value for the whole array"):
        convert_to(mosaic.WGSplatFragLayout((4, 8)), "linear")


def test_convert_to_uses_the_shape_given_to_read():
    v = unilayout.read("plgpu.Layout.WGMMA", shape=(128, 64))
    assert str(convert_to(v, "cute")) == str(mosaic_to_cute(mosaic.WGMMA, (128, 64)))


def test_strided_layout_to_cute_splits_rows():
    C = mosaic_to_cute(mosaic.WGStridedFragLayout((16, 64), 2))
    crd = mosaic.WGStridedFragLayout((16, 64), 2).coordinates((16, 64))
    assert np.array_equal(_cute_table(C, 128, 8), crd[..., 0] + 16 * crd[..., 1])


@pytest.mark.parametrize("dtype, swizzle, shape", [("f16", 128, (16, 64)), ("f32", 64, (32, 16)), ("i8", 32, (8, 32)),
                                                   ("bf16", 128, (64, 128))])
def test_shared_buffer_is_cute_swizzle_on_the_tiled_buffer(dtype, swizzle, shape):
    from unilayout.mosaic.smem import BITS

    elems = swizzle * 8 // BITS[dtype]
    s = mosaic.SmemLayout(shape, [mosaic.TileTransform((8, elems)), mosaic.SwizzleTransform(swizzle)], dtype)
    C = smem_to_cute(s)
    i, j = np.indices(shape)
    want = s.offsets()
    got = np.vectorize(lambda a, b: C((int(a), int(b))))(i, j)
    assert np.array_equal(got, want)
    assert sorted(want.reshape(-1).tolist()) == list(range(s.size))
