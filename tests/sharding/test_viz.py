"""viz.sharding (lives in src/unilayout/viz/sharding.py; tested here, tests/viz belongs to the pictures issue)."""

import numpy as np
import pytest

from unilayout import LayoutError, viz
from unilayout.sharding import Sharding, from_dtensor, parse_hlo
from unilayout.viz.sharding import holders_text, sharding_scene


def test_blocks_holders_and_colours_follow_the_sharding():
    s = parse_hlo("{devices=[2,2]<=[2,2]T(1,0)}", (8, 6))
    sc = sharding_scene(s)
    assert sc.shape == (2, 2)
    # every cell's holders are exactly the devices whose box covers that block
    for (i, j), label in np.ndenumerate(sc.labels):
        point = (i * 4, j * 3)
        want = sorted(d for d, bs in s.device_boxes.items()
                      if any(all(a <= x < z for x, (a, z) in zip(point, b)) for b in bs))
        assert label == holders_text(want)
        assert sc.attrs["device"][i, j] == want[0]
    assert len({tuple(c) for c in sc.fill.reshape(-1, 3)}) == 4


def test_partial_strided_uneven_and_holes():
    p = sharding_scene(from_dtensor(["Shard(0)", "Partial()"], (2, 2), (5, 3)))
    assert p.labels[:, 0].tolist() == ["p:0-1", "p:2-3"]
    st = sharding_scene(from_dtensor(["_StridedShard(0, split_factor=2)"], (2,), (8,)))
    assert st.labels.tolist() == [["0", "1", "0", "1"]]
    hole = sharding_scene(Sharding((4,), {0: [((0, 1),)]}))
    assert hole.labels.tolist() == [["0", ""]] and hole.attrs["device"].tolist() == [[0, -1]]
    big = sharding_scene(from_dtensor(["Shard(0)", "Shard(1)", "Replicate()"], (2, 2, 2), (4, 4, 3)))
    assert big.shape == (4, 1) and big.labels[3, 0] == "6-7"


def test_renders_and_refuses():
    s = parse_hlo("{devices=[2,1,4]<=[8] last_tile_dim_replicate}", (8, 6))
    svg = viz.to_svg(sharding_scene(s))
    assert "<svg" in svg and "4-7" in svg
    assert viz.to_png(sharding_scene(s))[:4] == b"\x89PNG"
    with pytest.raises(LayoutError, match="expected a unilayout.sharding.Sharding"):
        sharding_scene("s")
    with pytest.raises(LayoutError, match="more than max_cells"):
        sharding_scene(parse_hlo("{devices=[8]<=[8]}", (8,)), max_cells=4)


def test_partial_sums_in_several_groups_are_labelled_group_by_group():
    from unilayout.sharding import from_dtensor
    one_axis = sharding_scene(from_dtensor(["Partial()", "Replicate()"], (2, 2), (4,)))
    both = sharding_scene(from_dtensor(["Partial()", "Partial()"], (2, 2), (4,)))
    assert one_axis.labels.tolist() == [["p:0,2|1,3"]] and both.labels.tolist() == [["p:0-3"]]


def test_a_manual_sharding_has_no_picture_of_one_global_array():
    from unilayout import NotRepresentableError
    from unilayout.sharding.picture import block_holders, sharding_cells
    s = parse_hlo("{devices=[2,1,2]0,1,2,3 last_tile_dims={manual}}", (6, 3))
    for draw in (sharding_scene, block_holders, sharding_cells):
        with pytest.raises(NotRepresentableError, match="picture of blocks.*partially manual"):
            draw(s)
