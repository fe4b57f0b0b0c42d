"""Mosaic GPU TiledLayout semantics against jax: registers_shape, who holds each element, jax's checks."""

from __future__ import annotations

import numpy as np
import pytest
from mosaic_facts import FACTS, need_jax, oracle

from unilayout import LayoutError, mosaic

TILED = FACTS["tiled"]


def _ours(fact):
    return eval(fact["ours"], {"mosaic": mosaic})


@pytest.mark.parametrize("fact", TILED, ids=[f"{f['name']}-{'x'.join(map(str, f['shape']))}" for f in TILED])
def test_named_layout_facts_equal_jax(fact):
    L, shape = _ours(fact), tuple(fact["shape"])
    assert str(L) == fact["attr"]
    assert list(L.registers_shape(shape)) == fact["registers_shape"]
    assert L.vector_length == fact["vector_length"]
    assert L.replication_factor == fact["replication"]


@pytest.mark.parametrize("fact", TILED, ids=[f"{f['name']}-{'x'.join(map(str, f['shape']))}" for f in TILED])
def test_every_register_holds_the_element_jax_computes(fact):
    """jax's thread_idxs gives each register's first element; ours gives every (thread, value)."""
    L, shape = _ours(fact), tuple(fact["shape"])
    want = np.array(fact["thread_idxs"])
    got = L.coordinates(shape)
    assert got[:, ::L.vector_length].tolist() == want.tolist()


@pytest.mark.parametrize("fact", TILED, ids=[f"{f['name']}-{'x'.join(map(str, f['shape']))}" for f in TILED])
def test_owners_invert_coordinates(fact):
    L, shape = _ours(fact), tuple(fact["shape"])
    crd = L.coordinates(shape)
    flat = np.ravel_multi_index(tuple(np.moveaxis(crd, -1, 0)), shape)
    o = L.owners(shape)
    threads = np.broadcast_to(np.arange(128)[:, None], flat.shape)
    values = np.broadcast_to(np.arange(flat.shape[1])[None, :], flat.shape)
    reps = L.replica_threads()
    assert len(reps) == L.replication_factor
    assert np.array_equal(o["value"][flat], values)
    assert np.isin(threads - o["thread"][flat], reps).all()
    # every element is held, replication_factor times
    assert np.array_equal(np.bincount(flat.reshape(-1), minlength=int(np.prod(shape))),
                          np.full(int(np.prod(shape)), L.replication_factor))


@pytest.mark.parametrize("fact", FACTS["errors"], ids=[f["what"] for f in FACTS["errors"]])
def test_bad_layouts_raise_jax_reason(fact):
    with pytest.raises(LayoutError) as e:
        eval(fact["ours"], {"mosaic": mosaic})
    assert str(e.value) == fact["message"]


@pytest.mark.parametrize("fact", FACTS["strided"], ids=lambda f: f"{f['shape']}-{f['vec']}")
def test_strided_layout_equals_jax(fact):
    S = mosaic.WGStridedFragLayout(fact["shape"], fact["vec"])
    assert str(S) == fact["attr"]
    assert list(S.registers_shape(tuple(fact["shape"]))) == fact["registers_shape"]
    crd = S.coordinates(tuple(fact["shape"]))
    flat = np.ravel_multi_index(tuple(np.moveaxis(crd, -1, 0)), fact["shape"])
    v = fact["vec"]
    t, val = np.arange(128)[:, None], np.arange(flat.shape[1])[None, :]
    assert np.array_equal(flat, (val // v) * 128 * v + t * v + val % v)  # jax's linear_thread_idxs + element


@pytest.mark.parametrize("fact", FACTS["splat"], ids=lambda f: str(f["shape"]))
def test_splat_layout_equals_jax(fact):
    S = mosaic.WGSplatFragLayout(fact["shape"])
    assert str(S) == fact["attr"] and S.registers_shape(fact["shape"]) == ()


def test_owner_of_an_element_of_wgmma():
    o = mosaic.WGMMA.owners((64, 16))
    i = 17 * 16 + 11  # row 17, column 11: warp 1, lane 4 * 1 + 1, register 2 * column block 1 + row half 0, element 1
    assert [int(o[k][i]) for k in ("warp", "lane", "register", "element")] == [1, 5, 2, 1]


def test_owners_are_vectorised_for_a_big_tile():
    o = mosaic.WGMMA.owners((256, 256))
    assert o["thread"].shape == (65536,) and o["value"].max() == 65536 // 128 - 1


def test_canonicalize_drops_a_tile_that_splits_nothing():
    L = mosaic.TiledLayout(mosaic.Tiling(((64, 8), (64, 8), (16, 8), (8, 8), (1, 2))), (-8,), (-4, -3), -1,
                           check_canonical=False)
    assert L.canonicalize() == mosaic.WGMMA


def test_layout_rejects_a_non_integer_dim():
    with pytest.raises(LayoutError, match="negative integer"):
        mosaic.TiledLayout(mosaic.Tiling(((64, 8),)), ("a",), (), -1)


def test_stored_facts_are_what_jax_computes_now():
    need_jax()
    assert oracle().facts() == FACTS


def test_vector_elements_follow_jax_tile_strides():
    """A register's vector element e sits e steps of the vector dim's tile stride past jax's first element."""
    need_jax()
    from jax.experimental.mosaic.gpu import fragmented_array as fa

    J = oracle()
    for jl, ours, shape in ((fa.WGMMA_TRANSPOSED_LAYOUT, mosaic.WGMMA_TRANSPOSED, (64, 16)),
                            (fa.WGMMA_LAYOUT_8BIT, mosaic.WGMMA_8BIT, (64, 32))):
        strides = jl.tiling.tile_strides(tuple(int(np.prod(shape[i + 1:])) for i in range(len(shape))))
        step = strides[jl.vector_dim]
        first = J.thread_idxs(jl, shape)
        flat0 = np.ravel_multi_index(tuple(np.moveaxis(first, -1, 0)), shape)
        crd = ours.coordinates(shape)
        flat = np.ravel_multi_index(tuple(np.moveaxis(crd, -1, 0)), shape).reshape(128, -1, ours.vector_length)
        assert np.array_equal(flat, flat0[:, :, None] + step * np.arange(ours.vector_length))


def test_the_values_carry_the_methods_design_md_names():
    # layout.to_linear(shape) and layout.to_cute_tv(shape) are the bridge's functions, as methods of the values
    from unilayout import mosaic
    from unilayout.convert.mosaic import mosaic_to_cute, mosaic_to_linear

    for v, shape in ((mosaic.WGMMA, (64, 16)), (mosaic.TCGEN05, (128, 8))):
        assert v.to_linear(shape) == mosaic_to_linear(v, shape)
        assert v.to_cute_tv(shape) == mosaic_to_cute(v, shape)
