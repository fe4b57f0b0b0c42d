"""plan.grids: the seed's examples, ranking invariants, and each candidate's numbers against the real layout."""

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unilayout import LayoutError, tt
from unilayout.plan import grids
from unilayout.plan.choose import collapse_choices

DEV8 = tt.Device((8, 8), "(d0, d1) -> (0, d0, d1)")


def rank_key(c, l1=True):
    return ((not c.fits_l1) if l1 else False, -c.cores_used, c.padding_slots)


def check_against_layout(c):
    ml = c.layout
    s = ml.padding_summary()
    assert c.padding_slots == s.total
    assert c.padding_fraction == pytest.approx(s.total / math.prod(ml.shards_shape))
    # every core holds data
    assert (s.slots < math.prod(ml.padded_shard_shape)).all()
    assert c.cores_used == math.prod(ml.grid)
    if ml.tile is None:
        assert c.bytes_per_core == math.prod(ml.shard_shape) * tt.memory.element_bytes(ml.element_type)
    else:
        assert c.bytes_per_core == math.prod(ml.memref_shape) * tt.tile_bytes(ml.tile_dtype, ml.tile)
    # the device it names holds the grid: place() works and every shard is on a distinct core
    cores = c.device.place(ml).cores.reshape(-1, 3)
    assert len({tuple(v) for v in cores.tolist()}) == len(cores)


def test_seed_53x63_on_8x8():
    g = grids((53, 63), DEV8)
    assert g[0].cores_used == 64
    best_physical = [c for c in g if c.placement == "physical"][0]
    assert best_physical.grid == (8, 8) and best_physical.layout.shard_shape == (7, 8)
    # the seed's 3x2 grid is there, with its 1 row and 1 column of padding
    three_two = [c for c in g if c.grid == (3, 2)][0]
    assert three_two.layout.shard_shape == (18, 32) and three_two.padding_slots == 3 * 2 * 18 * 32 - 53 * 63
    # tilized 32x32: the seed's 18x32 shard padded to one tile
    t = [c for c in grids((53, 63), DEV8, tile=(32, 32)) if c.grid == (3, 2)][0]
    assert t.layout.memref_shape == (1, 1) and t.bytes_per_core == 4096
    for c in g[:5] + tuple(x for x in g if x.grid in ((3, 2), (1, 63), (63, 1))):
        check_against_layout(c)


def test_seed_7d_tensor():
    shape = (5, 3, 2, 2, 7, 32, 32)
    g = grids(shape, DEV8)
    assert g[0].cores_used == 64 and g[0].padding_slots == 0 and g[0].collapse == ((0, 6),)
    # every way to cut 7 dims into 2 groups appears
    assert {c.collapse for c in g} == set(collapse_choices(7, 2))
    # the seed's collapse [(0, 3), (-3, -1)] gives 4 groups: a rank-4 (virtual) grid
    g4 = grids(shape, DEV8, collapse=[(0, 3), (-3, -1)])
    assert all(len(c.grid) == 4 and c.placement == "row_major" for c in g4)
    assert g4[0].physical_shape == (30, 2, 224, 32) and g4[0].cores_used == 64 and g4[0].padding_slots == 0
    seed = [c for c in g4 if c.grid == (3, 2, 2, 2)][0]
    check_against_layout(seed)
    check_against_layout(g4[0])


def test_batch_over_chips():
    dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (2, 1, 1))
    best = grids((16, 3, 64, 128), dev, collapse=[(1, -1)])[0]
    assert best.grid == (2, 8, 8) and best.placement == "physical" and best.padding_slots == 0
    ml = best.layout
    assert dev.place(ml).distribution == ("sharded", None, None)
    assert ml.locate(7, 0, 0, 0)[0][0] == 0 and ml.locate(8, 0, 0, 0)[0][0] == 1   # half the batch per chip
    # the seed's 2x2x4 grid with tiles: memref 8x3x1 tiles
    seed = [c for c in grids((16, 3, 64, 128), dev, collapse=[(1, -1)], tile=(32, 32)) if c.grid == (2, 2, 4)][0]
    assert seed.layout.memref_shape == (8, 3, 1)
    check_against_layout(best)
    # data parallel over 2d and batch: 64x256x1024 on four chips as 2x8x16
    dev4 = tt.Device.from_mesh(tt.SystemDesc(num_chips=4), (2, 1, 2))
    top = grids((64, 256, 1024), dev4, virtual=False)[0]
    assert top.grid == (2, 8, 16) and top.cores_used == 256 and top.padding_slots == 0
    assert dev4.place(top.layout).chips == (0, 1, 2, 3)


def test_fits_l1_from_the_system():
    g = grids((8192, 8192), DEV8)
    assert not any(c.fits_l1 for c in g)              # 4 MiB per core at best
    assert g[0].grid == (8, 8)
    small = tt.SystemDesc((8, 8), 1, l1_size=4096 + 1024)
    g2 = grids((64, 64), DEV8, system=small)
    assert all(c.fits_l1 == (c.bytes_per_core <= 4096) for c in g2)
    dram = grids((8192, 8192), DEV8, memory_space="dram")
    assert dram[0].layout.memory_space == "dram"


def test_width_sharding_is_extra_wide():
    g = grids((32, 2048), DEV8)
    wide = [c for c in g if c.grid == (1, 64)][0]
    assert wide.placement == "extra_wide" and wide.padding_slots == 0
    assert str(wide.device.grid_map) == "(d0, d1) -> (0, d0 * 8 + d1 floordiv 8, d1 mod 8)"
    check_against_layout(wide)


@st.composite
def small_case(draw):
    rank = draw(st.integers(1, 3))
    shape = tuple(draw(st.integers(1, 9)) for _ in range(rank))
    D = (draw(st.integers(1, 4)), draw(st.integers(1, 4)))
    tile = draw(st.sampled_from([None, (2, 2), (4, 2)]))
    return shape, D, tile


@settings(max_examples=40, deadline=None)
@given(small_case())
def test_ranking_and_completeness(case):
    shape, D, tile = case
    dev = tt.Device(D, "(d0, d1) -> (0, d0, d1)")
    g = grids(shape, dev, tile=tile)
    keys = [rank_key(c) for c in g]
    assert keys == sorted(keys)
    assert len(set((c.grid, c.collapse) for c in g)) == len(g)
    # completeness for the physical grids: every grid <= D whose cores all hold data, per collapse
    for intervals in collapse_choices(len(shape), 2):
        want = set()
        for n in itertools.product(range(1, D[0] + 1), range(1, D[1] + 1)):
            ml = tt.MetalLayout.from_collapse(shape, n, intervals)
            if all(-(-p // s) == k for p, s, k in zip(ml.physical_shape, ml.shard_shape, n)):
                want.add(n)
        got = {c.grid for c in g if c.collapse == intervals and c.placement == "physical"}
        assert got == want
    for c in g[:3] + g[-2:]:
        check_against_layout(c)


def test_bad_input():
    with pytest.raises(LayoutError, match="Device"):
        grids((4, 4), "8x8")
    with pytest.raises(LayoutError, match="every dim >= 1"):
        grids((4, 0), DEV8)
    with pytest.raises(LayoutError, match="memory space"):
        grids((4, 4), DEV8, memory_space="hbm")
    with pytest.raises(LayoutError, match="element type"):
        grids((4, 4), DEV8, element_type="q7")
    with pytest.raises(LayoutError, match="overlap"):
        grids((4, 4, 4), DEV8, collapse=[(0, 2), (1, 3)])


def test_a_metal_layout_gives_shape_type_and_tile():
    ml = tt.MetalLayout.from_collapse((64, 128), (1, 1), element_type="bf16", tile=(32, 32))
    g = grids(ml, DEV8)
    assert g[0].layout.element_type == "bf16" and g[0].layout.tile == (32, 32)
    assert g[0].bytes_per_core == math.prod(g[0].layout.memref_shape) * tt.tile_bytes("bf16", (32, 32))
    assert grids(ml, DEV8, tile=(16, 16))[0].layout.tile == (16, 16)


def test_collapse_that_is_not_a_sequence():
    with pytest.raises(LayoutError, match="collapse"):
        grids((4, 4), DEV8, collapse=5)


def test_idle_grids_on_request():
    dev = tt.Device((4, 4), "(d0, d1) -> (0, d0, d1)")
    every = grids((5, 4), dev, idle=True, virtual=False)
    assert {c.grid for c in every} == {(a, b) for a in range(1, 5) for b in range(1, 5)}
    four = [c for c in every if c.grid == (4, 4)][0]        # shards of 2 rows: the 4th core row is idle
    assert four.cores_used == 12 and four.padding_slots == four.layout.padding_summary().total
    assert (four.layout.padding_summary().slots[3] == 2).all()
    keys = [rank_key(c) for c in every]
    assert keys == sorted(keys)
    assert {c.grid for c in grids((5, 4), dev, virtual=False)} < {c.grid for c in every}
