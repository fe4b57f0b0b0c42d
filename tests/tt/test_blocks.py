"""tt.blocks: the block plan of a metal layout over a device's chips (regular tiling, replicas, refusals)."""

import pytest

from unilayout import LayoutError, NotRepresentableError, tt
from unilayout.tt.blocks import plan


def test_plan_blocks_for_a_mesh():
    dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=4), (1, 4))
    p = plan(tt.MetalLayout.from_collapse((40, 200), (2, 20)), dev)
    assert p.block == (2, 8) and p.blocks == (1, 3) and p.ragged
    assert [h.chip_id for h in p.holders] == [0, 1, 2]
    assert p.global_shape == (40, 200) and p.padded_global_shape == (40, 240)


def test_a_mesh_axis_on_one_chip_is_replicated():
    dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=4), (2, 2))
    p = plan(tt.MetalLayout.from_collapse((64, 64), (8, 16)), dev)  # rows on chip row 0 only
    assert p.replica_axes == (0,) and p.block == (8, 8)
    assert [(h.chip_id, h.primary, h.block) for h in p.holders] == [(0, 0, (0, 0)), (2, 0, (0, 0)),
                                                                     (1, 1, (0, 1)), (3, 1, (0, 1))]
    assert all(h.replicated for h in p.holders)


def test_a_staircase_of_chips_has_no_block_plan():
    dev = tt.Device((2, 2), "(d0, d1) -> ((d0 + d1) mod 2, 0, 0)", (2,), [0, 1])
    with pytest.raises(NotRepresentableError, match="the cells of chip 0 are not one box"):
        plan(tt.MetalLayout.from_collapse((4, 4), (2, 2)), dev)


def test_plan_checks_its_arguments():
    dev = tt.Device((2, 2), "(d0, d1) -> (0, d0, d1)")
    with pytest.raises(LayoutError, match="expected a tt.MetalLayout, got str"):
        plan("x", dev)
    with pytest.raises(LayoutError, match="expected a tt.Device, got int"):
        plan(tt.MetalLayout.from_collapse((4, 4), (2, 2)), 3)


def test_distributed_keeps_the_old_names():
    from unilayout.distributed import _plan as old
    from unilayout.tt import blocks

    assert old.plan is blocks.plan and old.Plan is blocks.Plan and old.Holder is blocks.Holder
    assert old._check is blocks._check and old._plan is blocks._plan
