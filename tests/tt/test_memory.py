"""Addresses of elements: L1 per core, DRAM interleaved / sharded round robin, host; tile and page sizes."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unilayout import LayoutError
from unilayout.tt import Device, MetalLayout, SystemDesc, address, page_bytes, tile_bytes
from unilayout.tt.memory import element_bytes

ML = MetalLayout


def test_tile_and_element_sizes():
    assert [tile_bytes(d) for d in ("f32", "f16", "bf16", "u32", "u16", "u8", "si32")] == [4096, 2048, 2048, 4096, 2048, 1024, 4096]
    assert [tile_bytes(d) for d in ("bfp_f8", "bfp_bf8", "bfp_f4", "bfp_bf4", "bfp_f2", "bfp_bf2")] == [1088, 1088, 576, 576, 320, 320]
    assert tile_bytes("bf16", (16, 32)) == 1024
    with pytest.raises(LayoutError, match="multiple of 16"):
        tile_bytes("bfp_bf8", (3, 5))
    with pytest.raises(LayoutError):
        tile_bytes("f64")
    assert [element_bytes(t) for t in ("f64", "i8", "si16", "ui32", "i1", "i33")] == [8, 1, 2, 4, 1, 5]
    with pytest.raises(LayoutError):
        element_bytes("bfp_bf8")


def test_l1_seed_element_address():
    a = address(ML.from_collapse((2, 3, 64, 128), (2, 4)), 1, 1, 6, 100)
    assert a.memory_space == "l1" and a.location == (1, 3)
    assert a.offset == 1024 + 4 * (70 * 32 + 4) and (a.page, a.in_page) == (70, 4)


def test_l1_addresses_are_distinct_per_core_and_cover_the_shard_densely():
    ml = ML.from_collapse((10, 12), (2, 3))
    seen = {}
    for x in itertools.product(range(10), range(12)):
        a = address(ml, *x, base=0)
        assert a.offset % 4 == 0 and 0 <= a.offset < 4 * 5 * 4
        seen.setdefault(a.location, set()).add(a.offset)
    assert len(seen) == 6 and all(len(v) == 20 for v in seen.values())


def test_l1_tiled_address_is_tile_then_element():
    ml = ML.from_collapse((64, 64), (1, 1), element_type="bf16", tile=(32, 32))
    a = address(ml, 33, 34)  # tile (1, 1) = page 3, element (1, 2) of the tile
    assert (a.page, a.in_page) == (3, 34) and a.offset == 1024 + 3 * 2048 + 34 * 2
    b = address(ml.tilize((32, 32), "bfp_bf8"), 33, 34)
    assert b.offset == 1024 + 3 * 1088 and b.in_page == 34  # bfp: the tile's start


def test_l1_with_a_device_gives_physical_cores():
    dev = Device.from_mesh(SystemDesc(num_chips=2), (1, 2))
    ml = ML.from_collapse((64, 1024), (1, 16))
    assert address(ml, 0, 1023, device=dev).location == (1, 0, 7)


def test_l1_shard_that_does_not_fit_is_rejected():
    with pytest.raises(LayoutError, match="does not fit"):
        address(ML.from_collapse((1024, 1024), (1, 1)), 0, 0)


def test_dram_interleaved_round_robin_over_channels():
    ml = ML.from_collapse((64, 512), (1, 1), memory_space="dram", tile=(32, 32))  # 2x16 = 32 tiles
    for k in range(32):
        a = address(ml, 32 * (k // 16), 32 * (k % 16))
        assert (a.location, a.page) == (k % 12, k)
        assert a.offset == 1024 + (k // 12) * 4096
    bh = address(ml, 32, 0, system=SystemDesc.blackhole())
    assert (bh.location, bh.offset) == (16 % 8, 1024 + 2 * 4096)


def test_dram_interleaved_row_pages_are_aligned():
    ml = ML.from_collapse((4, 5), (1, 1), memory_space="dram", element_type="bf16")  # 10-byte rows
    assert page_bytes(ml) == 10
    a = address(ml, 3, 2)
    assert (a.location, a.page, a.in_page) == (3, 3, 2) and a.offset == 1024 + 0 * 32 + 4


def test_dram_sharded_one_shard_per_page():
    ml = ML.from_collapse((256, 64), (16, 1), memory_space="dram")
    a = address(ml, 255, 63)
    assert a.page == 15 and a.location == 15 % 12 and a.offset == 1024 + 1 * (16 * 64 * 4) + (15 * 64 + 63) * 4


def test_host_offset_is_the_byte_offset_in_shard_output():
    ml = ML.from_collapse((10, 12), (2, 3), memory_space="system", tile=(4, 4))
    im = ml.index_map()
    for k, x in enumerate(itertools.product(range(10), range(12))):
        a = address(ml, *x)
        assert a.location is None and a.offset == 4 * int(im[k])


def test_address_checks_its_arguments():
    ml = ML.from_collapse((4, 4), (1, 1))
    with pytest.raises(LayoutError, match="outside"):
        address(ml, 4, 0)
    with pytest.raises(LayoutError, match="MetalLayout"):
        address("x", 0, 0)
    with pytest.raises(LayoutError, match="SystemDesc"):
        address(ml, 0, 0, system=(8, 8))


@settings(max_examples=40, deadline=None)
@given(
    shape=st.tuples(st.integers(1, 12), st.integers(1, 12)),
    grid=st.tuples(st.integers(1, 3), st.integers(1, 3)),
    space=st.sampled_from(["l1", "dram", "system"]),
    tile=st.sampled_from([None, (4, 4), (2, 8)]),
    elem=st.sampled_from(["f32", "bf16", "ui8"]),
)
def test_distinct_elements_get_distinct_addresses(shape, grid, space, tile, elem):
    ml = ML.from_collapse(shape, grid, memory_space=space, tile=tile, element_type=elem)
    seen = set()
    for x in itertools.product(*(range(n) for n in shape)):
        a = address(ml, *x)
        key = (a.location, a.offset)
        assert key not in seen
        seen.add(key)
        assert a.offset >= (1024 if space != "system" else 0)


def test_address_checks_base_device_and_dram_capacity():
    ml = ML.from_collapse((4, 4), (1, 1))
    with pytest.raises(LayoutError, match="base must be >= 0"):
        address(ml, 0, 0, base=-4)
    with pytest.raises(LayoutError, match="device must be a Device"):
        address(ml, 0, 0, device="chip0")
    small = SystemDesc(num_dram_channels=2, dram_channel_size=4096)
    big = ML.from_collapse((64, 64), (1, 1), memory_space="dram", tile=(32, 32))  # 4 tiles of 4096 B
    assert address(big, 0, 0, system=small, base=0).offset == 0
    with pytest.raises(LayoutError, match="beyond the 4096 B of DRAM channel 0"):
        address(big, 32, 0, system=small, base=0)
