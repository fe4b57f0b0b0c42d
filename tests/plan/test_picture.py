"""unilayout.plan.picture: the reshard heat map and the chosen grid over the device (old home: viz.plan)."""

import numpy as np
import pytest

from svgcheck import cells, label_text, parse_svg
from unilayout import LayoutError, plan, tt
from unilayout.plan.picture import grid_choice_scene, traffic_scene
from unilayout.viz import to_png, to_svg

DEV = tt.Device((4, 4), "(d0, d1) -> (0, d0, d1)")


def test_traffic_map_cells_are_the_traffic_matrix():
    a = tt.MetalLayout.from_collapse((32, 32), (4, 4))
    b = tt.MetalLayout.from_collapse((32, 32), (2, 4), tile=(8, 8))
    c = plan.reshard_cost(a, b, DEV)
    s = traffic_scene(c)
    assert s.shape == (16, 16)
    assert np.array_equal(s.attrs["bytes"], c.traffic)
    assert len([o for o in s.outlines if o[6] == "local"]) == 16
    # zero cells are pale, non-zero ones darker the more bytes they carry
    T = c.traffic
    lum = s.fill.astype(int).sum(axis=-1)
    assert (lum[T == 0] == lum[T == 0][0]).all()
    nz = T > 0
    order = np.argsort(T[nz], kind="stable")
    assert (np.diff(lum[nz][order]) <= 0).all()
    root = parse_svg(to_svg(s))
    drawn = cells(root)
    assert len(drawn) == 256
    # row (1, 0) sends to column (0, 0): label is its bytes
    k = 4 * 16 + 0
    want = "" if T[4, 0] == 0 else (str(T[4, 0]) if T[4, 0] < 1024 else f"{T[4, 0] // 1024}K")
    assert label_text(drawn[k]) == want
    assert to_png(s)[:4] == b"\x89PNG"


def test_traffic_map_groups_chips():
    dev = tt.Device.from_mesh(tt.SystemDesc((2, 2), 2), (1, 2))
    a = tt.MetalLayout.from_collapse((8, 16), (2, 4))
    b = tt.MetalLayout.from_collapse((8, 16), (2, 2))
    c = plan.reshard_cost(a, b, dev)
    s = traffic_scene(c)
    assert s.shape == (8, 8) and len([o for o in s.outlines if o[6] == "chip"]) == 4
    assert "chip to chip" in s.notes[1] and f"{c.chip_to_chip_bytes:,}" in s.notes[1]


def test_grid_choice_over_the_device():
    choice = [g for g in plan.grids((13, 10), DEV) if g.grid == (3, 4)][0]
    s = grid_choice_scene(choice)
    ml = choice.layout
    assert s.shape == (4, 4)
    placed = choice.device.place(ml).cores
    for G in np.ndindex(*ml.grid):
        _, y, x = placed[G].tolist()
        assert s.labels[y, x].split("\n")[0] == ",".join(map(str, G))
        mask = ml.padding_mask()[G]
        assert s.labels[y, x].split("\n")[1] == f"{100 * (~mask).sum() / mask.size:.0f}%"
    idle = [(y, x) for y in range(4) for x in range(4) if s.attrs["shard"][y, x] < 0]
    assert len(idle) == 16 - choice.cores_used
    assert 'grid 3x4' in s.title


def test_grid_choice_on_two_chips_and_a_virtual_grid():
    dev = tt.Device.from_mesh(tt.SystemDesc((2, 2), 2), (1, 2))
    wide = [g for g in plan.grids((4, 64), dev) if g.grid == (1, 8)][0]
    assert wide.placement == "extra_wide"
    s = grid_choice_scene(wide)
    assert s.shape == (2, 4) and (s.attrs["shard"] >= 0).all()
    # shard k sits on the k-th cell of the device grid (2x4 over both chips), row-major: row k // 4,
    # grid column k % 4, i.e. chip (k % 4) // 2, core column k % 2
    for k in range(8):
        chip, y, x = (k % 4) // 2, k // 4, k % 2
        assert s.labels[y, chip * 2 + x].startswith(f"0,{k}\n")


def test_bad_input():
    with pytest.raises(LayoutError, match="ReshardCost"):
        traffic_scene("x")
    with pytest.raises(LayoutError, match="GridChoice"):
        grid_choice_scene(tt.MetalLayout.from_collapse((4, 4), (1, 1)))
    a = tt.MetalLayout.from_collapse((32, 32), (4, 4))
    with pytest.raises(LayoutError, match="max_cells"):
        traffic_scene(plan.reshard_cost(a, a, DEV), max_cells=10)


def test_viz_plan_is_an_alias_of_plan_picture():
    from unilayout.viz import plan as old

    assert old.traffic_scene is traffic_scene and old.grid_choice_scene is grid_choice_scene

