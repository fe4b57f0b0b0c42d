"""distribute / gather: each JAX device holds exactly what device.place says its chip holds."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

jax = pytest.importorskip("jax")

from helpers_distributed import check_distributed  # noqa: E402

from unilayout import LayoutError, NotRepresentableError, tt  # noqa: E402
from unilayout.distributed import distribute, gather  # noqa: E402

DEVS = jax.devices()
pytestmark = pytest.mark.skipif(len(DEVS) < 8, reason="needs 8 JAX devices (XLA_FLAGS set in conftest.py)")


def _rand(shape, dtype=np.float32, seed=0):
    return np.random.default_rng(seed).random(shape).astype(dtype)


# --- the seed's multi-device examples -------------------------------------------------------------

def test_seed_batch_parallel_two_chips():
    dev = tt.parse("#tt.device<workerGrid = #tt.grid<2x8x8, (d0, d1, d2) -> (d0, d1, d2)>, meshShape = 2x1x1, "
                   "chipIds = [0, 1]>")
    ml = tt.parse("tensor<16x3x64x128xf32, #tt.metal_layout<(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3), undef, "
                  "<2x2x4>, memref<8x3x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>")
    a = _rand((16, 3, 64, 128))
    x = distribute(a, ml, dev)
    assert x.shape == (16, 192, 128)
    assert tuple(x.sharding.spec) == ("mesh0", None, None)
    holders = check_distributed(x, a, ml, dev, DEVS)
    assert holders == {0: [0], 1: [1]}
    shards = {s.device.id: np.asarray(s.data) for s in x.addressable_shards}
    np.testing.assert_array_equal(shards[0], a[:8].reshape(8, 192, 128))  # half the batch on each chip
    np.testing.assert_array_equal(shards[1], a[8:].reshape(8, 192, 128))
    np.testing.assert_array_equal(gather(x, ml), a)


def test_seed_2d_one_by_two_mesh():
    dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (1, 2))
    ml = tt.parse("tensor<256x1024xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <4x16>, "
                  "memref<2x2x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>")
    a = _rand((256, 1024))
    x = distribute(a, ml, dev)
    assert x.shape == (256, 1024)
    assert check_distributed(x, a, ml, dev, DEVS) == {0: [0], 1: [1]}
    shards = {s.device.id: np.asarray(s.data) for s in x.addressable_shards}
    np.testing.assert_array_equal(shards[0], a[:, :512])
    np.testing.assert_array_equal(shards[1], a[:, 512:])
    np.testing.assert_array_equal(gather(x, ml), a)


def test_seed_batch_and_2d_two_by_one_by_two_mesh():
    dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=4), (2, 1, 2))
    assert dev.equivalent(tt.parse(
        "#tt.device<workerGrid = #tt.grid<2x8x16, (d0, d1, d2) -> (d0 * 2 + (d1 floordiv 8) * 2 + d2 floordiv 8, "
        "d1, d2 mod 8)>, meshShape = 2x1x2, chipIds = [0, 1, 2, 3]>"))
    ml = tt.MetalLayout.from_collapse((64, 256, 1024), (2, 4, 16), [], tile=(32, 32), tile_dtype="bfp_bf8")
    a = _rand((64, 256, 1024))
    x = distribute(a, ml, dev)
    assert tuple(x.sharding.spec) == ("mesh0", None, "mesh2")
    assert check_distributed(x, a, ml, dev, DEVS) == {0: [0], 1: [1], 2: [2], 3: [3]}
    shards = {s.device.id: np.asarray(s.data) for s in x.addressable_shards}
    np.testing.assert_array_equal(shards[3], a[32:, :, 512:])
    np.testing.assert_array_equal(gather(x, ml), a)


def test_seed_spec_multicore_on_one_chip_of_a_pair_is_replicated():
    # device.md's 2x3x64x128 tensor on <2x4> fits on chip 0 of a 1x2 mesh: both chips hold it
    dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (1, 2))
    ml = tt.MetalLayout.from_collapse((2, 3, 64, 128), (2, 4))
    a = _rand((2, 3, 64, 128))
    x = distribute(a, ml, dev)
    assert dev.place(ml).replicated
    assert check_distributed(x, a, ml, dev, DEVS) == {0: [0, 1]}
    data = [np.asarray(s.data) for s in x.addressable_shards]
    assert len(data) == 2 and np.array_equal(data[0], data[1])
    np.testing.assert_array_equal(gather(x, ml), a)


# --- padding, ragged blocks, partial meshes, chip order ---------------------------------------

def test_padding_is_filled_from_oob_val_and_dropped_by_gather():
    dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (2, 1))
    ml = tt.MetalLayout.from_collapse((53, 63), (16, 2), oob_val="neginf", tile=(32, 32))
    a = _rand((53, 63))
    x = distribute(a, ml, dev)
    check_distributed(x, a, ml, dev, DEVS)
    full = np.asarray(x)
    assert np.isneginf(full).sum() == ml.padding_mask().sum()
    np.testing.assert_array_equal(gather(x, ml), a)


def test_ragged_last_block_is_padded_with_empty_shards():
    dev = tt.Device.from_mesh(tt.SystemDesc((8, 8), 4), (1, 4))
    ml = tt.MetalLayout.from_collapse((40, 200), (2, 20), oob_val="one")  # chips get 8, 8, 4 cells; chip 3 none
    a = _rand((40, 200)) + 5
    x = distribute(a, ml, dev)
    assert x.shape == (40, 240)
    holders = check_distributed(x, a, ml, dev, DEVS)
    assert holders == {0: [0], 1: [1], 2: [2]}
    np.testing.assert_array_equal(np.asarray(x)[:, 200:], 1)
    np.testing.assert_array_equal(gather(x, ml), a)


def test_chip_ids_index_jax_devices():
    devs = DEVS[::-1]
    dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=8), (2, 2), [6, 2, 7, 5])
    ml = tt.MetalLayout.from_collapse((64, 32), (16, 16))
    a = _rand((64, 32))
    x = distribute(a, ml, dev, jax_devices=devs)
    held = check_distributed(x, a, ml, dev, devs)
    assert sorted(held) == [2, 5, 6, 7]
    assert {devs.index(s.device) for s in x.addressable_shards} == {2, 5, 6, 7}
    # chip 6 (mesh position (0, 0)) holds the top-left block
    s6 = next(s for s in x.addressable_shards if s.device == devs[6])
    np.testing.assert_array_equal(np.asarray(s6.data), a[:32, :16])
    np.testing.assert_array_equal(gather(x, ml), a)


def test_64_bit_arrays_whose_values_fit_are_kept_exactly():
    dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (1, 2))
    ml = tt.MetalLayout.from_collapse((16, 32), (2, 16))
    a = np.arange(16 * 32).reshape(16, 32)  # int64
    x = distribute(a, ml, dev)
    assert x.dtype == np.int32 and np.array_equal(gather(x, ml), a)
    b = np.full((16, 32), np.nan)
    b[0, 0] = 0.5
    np.testing.assert_array_equal(gather(distribute(b, ml, dev), ml), b)


def test_non_dense_maps_and_integer_dtypes():
    dev = tt.Device.from_mesh(tt.SystemDesc((2, 2), 4), (2, 2))
    for ml in (tt.MetalLayout((8, 6), "(d0, d1) -> (d0 floordiv 2, d0 mod 2 + d1 * 2)", (4, 4)),
               tt.MetalLayout((5, 4), "(d0, d1) -> (d1 * 7 + d0 + 1, d0)", (3, 4)),
               tt.MetalLayout.from_collapse((3, 5, 7), (4, 3), dim_alignments=(1, 8, 1))):
        a = np.arange(np.prod(ml.logical_shape), dtype=np.int32).reshape(ml.logical_shape)
        x = distribute(a, ml, dev)
        check_distributed(x, a, ml, dev, DEVS)
        assert gather(x, ml).dtype == np.int32
        np.testing.assert_array_equal(gather(x, ml), a)


# --- not representable and bad input ------------------------------------------------------------

STAIRCASE = tt.Device((8, 16), "(d0, d1) -> (((d0 + d1) floordiv 8) mod 2, d0, (d0 + d1) mod 8)", (1, 2), (0, 1))
CHECKER = tt.Device((4, 4), "(d0, d1) -> ((d0 floordiv 2 + d1 floordiv 2) mod 2, d0 mod 2 + (d0 floordiv 2) * 2, d1)",
                    (1, 2), (0, 1))


def test_staircase_over_chips_is_not_representable():
    STAIRCASE.validate()
    ml = tt.MetalLayout.from_collapse((64, 128), (8, 16))
    with pytest.raises(NotRepresentableError, match=r"the cells of chip 0 are not one box: its bounding box \[0:8, 0:16\] also holds cell \(0, 8\) of chip 1"):
        distribute(_rand((64, 128)), ml, STAIRCASE)


def test_chip_with_two_blocks_is_not_representable():
    CHECKER.validate()
    ml = tt.MetalLayout.from_collapse((8, 8), (4, 4))
    with pytest.raises(NotRepresentableError, match=r"the cells of chip 0 are not one box: its bounding box \[0:4, 0:4\] also holds cell \(0, 2\) of chip 1"):
        distribute(_rand((8, 8)), ml, CHECKER)


def test_bad_input_messages():
    dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (1, 2))
    ml = tt.MetalLayout.from_collapse((16, 32), (2, 16))
    with pytest.raises(LayoutError, match=r"array of shape 16x31 does not match the layout's logical shape 16x32"):
        distribute(np.zeros((16, 31), np.float32), ml, dev)
    with pytest.raises(LayoutError, match="chip id 1 has no JAX device: jax_devices has 1"):
        distribute(np.zeros((16, 32), np.float32), ml, dev, jax_devices=DEVS[:1])
    with pytest.raises(LayoutError, match="same JAX device to two chips"):
        distribute(np.zeros((16, 32), np.float32), ml, dev, jax_devices=[DEVS[0], DEVS[0]])
    with pytest.raises(LayoutError, match=r"JAX stores this float64 array as float32 \(64-bit types are off\) and some "
                                          r"values do not survive"):
        distribute(np.full((16, 32), 0.1), ml, dev)
    with pytest.raises(LayoutError, match="JAX stores this int64 array as int32"):
        distribute(np.full((16, 32), 2**40), ml, dev)
    with pytest.raises(LayoutError, match="array of dtype <U1 cannot go to JAX"):
        distribute(np.full((16, 32), "a"), ml, dev)
    with pytest.raises(LayoutError, match="needs a floating-point array"):
        distribute(np.zeros((16, 32), np.int32), ml.replace(oob_val="inf"), dev)
    with pytest.raises(LayoutError, match="rank 3 but the device grid 8x16 has rank 2"):
        distribute(np.zeros((16, 32), np.float32), tt.MetalLayout.from_collapse((16, 32), (1, 2, 2), []), dev)
    with pytest.raises(LayoutError, match="expected a tt.Device"):
        distribute(np.zeros((16, 32), np.float32), ml, "device")
    x = distribute(np.zeros((16, 32), np.float32), ml, dev)
    with pytest.raises(LayoutError, match=r"array of shape 16x32 is not the block array of this layout: expected 32x32"):
        gather(x, tt.MetalLayout.from_collapse((32, 32), (2, 16)))
    with pytest.raises(LayoutError, match="expected a jax.Array, got ndarray"):
        gather(np.zeros((16, 32)), ml)
    with pytest.raises(LayoutError, match="expected a tt.MetalLayout"):
        gather(x, "ml")


# --- random shapes and grids ---------------------------------------------------------------------

MESHES = [(1,), (2,), (1, 2), (2, 1), (2, 2), (1, 4), (2, 1, 2), (2, 2, 2), (4, 2), (8,)]


@st.composite
def cases(draw):
    chip = draw(st.sampled_from([(1, 1), (1, 2), (2, 1), (2, 2), (3, 2)]))
    mesh = draw(st.sampled_from(MESHES))
    n = int(np.prod(mesh))
    chip_ids = draw(st.permutations(range(8)))[:n] if draw(st.booleans()) else None
    dev = tt.Device.from_mesh(tt.SystemDesc(chip, 8), mesh, chip_ids)
    g = len(dev.grid_shape)
    grid = tuple(draw(st.integers(1, d)) for d in dev.grid_shape)
    rank = draw(st.integers(1, 3))
    shape = tuple(draw(st.integers(1, 12)) for _ in range(rank))
    if rank >= g and draw(st.booleans()):
        intervals = [(0, rank - g + 1)] if rank > g else []
    else:
        intervals = ((0, -1),)
    tile = draw(st.sampled_from([None, None, (2, 2), (1, 4)]))
    oob = draw(st.sampled_from(["undef", "zero", "one", "neginf"]))
    try:
        ml = tt.MetalLayout.from_collapse(shape, grid, intervals, tile=tile, oob_val=oob)
    except LayoutError:
        ml = tt.MetalLayout.from_collapse(shape, grid, tile=tile, oob_val=oob) if rank >= 2 or g == 1 else None
    if ml is None:
        ml = tt.MetalLayout((shape[0],), "(d0) -> (" + ", ".join(["0"] * (g - 1) + ["d0"]) + ")", grid, oob_val=oob)
    return ml, dev, draw(st.booleans())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_random_layouts_every_device_holds_its_chips_shards(case):
    ml, dev, reverse = case
    devs = DEVS[::-1] if reverse else DEVS
    a = np.random.default_rng(1).standard_normal(ml.logical_shape).astype(np.float32)
    x = distribute(a, ml, dev, jax_devices=devs)
    holders = check_distributed(x, a, ml, dev, devs)
    p = dev.place(ml)
    assert sorted(holders) == list(p.chips)
    if p.replicated:
        data = [np.asarray(s.data) for s in x.addressable_shards]
        assert all(np.array_equal(d, data[0]) for d in data)
    np.testing.assert_array_equal(gather(x, ml), a)


def test_uneven_chip_boxes_are_not_representable():
    dev = tt.Device((1, 6), "(d0, d1) -> ((d1 + 1) floordiv 3, 0, d1 mod 4)", (3,), (0, 1, 2)).validate()
    ml = tt.MetalLayout.from_collapse((4, 12), (1, 6))
    with pytest.raises(NotRepresentableError, match=r"do not tile the grid 1x6 regularly: grid cell \(0, 5\) is on chip 2 "
                                                     r"but cell \(0, 4\) of the same 1x2 block is on chip 1"):
        distribute(_rand((4, 12)), ml, dev)
