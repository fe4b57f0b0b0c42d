"""unilayout.tt.picture: metal layouts (shards, padding, tiles) and devices as pictures."""

import numpy as np
import pytest

from svgcheck import cells, label_text, parse_svg
from unilayout import LayoutError, tt
from unilayout.tt.picture import device_scene, metal_scene, shard_grid, shard_table
from unilayout.viz import to_png, to_svg

PADDED = ("tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
          "memref<1x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>")
DEVICE = ("#tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0, d1 mod 8)>, "
          "meshShape = 1x2, chipIds = [0, 1]>")


def _check_positions(ml, s):
    """Every data cell sits in its core's shard at the place ``locate`` gives."""
    ps = ml.padded_shard_shape
    sr = int(np.prod(ps[:-1]))
    rr, cc = np.nonzero(~s.padding)
    for k in range(0, rr.size, max(1, rr.size // 300)):
        crd = np.unravel_index(int(s.index[rr[k], cc[k]]), ml.logical_shape)
        G, q = ml.locate(*(int(v) for v in crd))
        grow = int(np.ravel_multi_index(G[:-1], ml.grid[:-1])) if len(G) > 1 else 0
        qrow = int(np.ravel_multi_index(q[:-1], ps[:-1])) if len(q) > 1 else 0
        assert rr[k] == grow * sr + qrow and cc[k] == G[-1] * ps[-1] + q[-1]


def test_padded_seed():
    ml = tt.parse(PADDED)
    s = metal_scene(ml)
    assert s.shape == (96, 64) and s.count_cells() == 6144
    assert int(s.padding.sum()) == ml.padding_summary().total == 2805
    assert sorted(s.index[~s.padding].tolist()) == list(range(53 * 63))
    _check_positions(ml, s)
    root = parse_svg(to_svg(ml))
    assert len(cells(root)) == 6144
    pads = cells(root, "padding")
    assert len(pads) == 2805 and all(g.get("data-index") == "-1" for g in pads)
    assert all("cell" in g.get("class").split() for g in pads)
    assert len([o for o in s.outlines if o[6] == "tile"]) == 6
    assert len([o for o in s.outlines if o[6] == "shard"]) == 6
    # Slots: the flat position in shard()'s output.
    flat = ml.index_map()
    data = ~s.padding
    assert (flat[s.index[data]] == s.attrs["slot"][data]).all()


def test_scalar_padding_and_labels():
    ml = tt.MetalLayout.from_collapse((3, 4), (2, 2))
    s = metal_scene(ml)
    root = parse_svg(to_svg(ml))
    cs = cells(root)
    assert len(cs) == 16 and len(cells(root, "padding")) == 4
    for g in cs:
        i = int(g.get("data-index"))
        assert label_text(g) == ("" if i < 0 else str(i))
    _check_positions(ml, s)


@pytest.mark.parametrize("ml", [
    tt.MetalLayout.from_collapse((2, 3, 40, 20), (2, 2), tile=(16, 16)),
    tt.MetalLayout.from_collapse((16, 3, 64, 128), (2, 2, 4), [(1, -1)]),
    tt.MetalLayout.from_collapse((8, 96, 32), (2, 1, 2)),
])
def test_higher_rank_layouts_fold(ml):
    s = metal_scene(ml, max_cells=1 << 20)
    assert int(s.padding.sum()) == ml.padding_summary().total
    assert sorted(s.index[~s.padding].tolist()) == list(range(ml.volume))
    _check_positions(ml, s)


def test_big_layout_becomes_a_summary():
    ml = tt.MetalLayout.from_collapse((1000, 1000), (3, 3))
    s = metal_scene(ml)
    assert s.cell_class == "core" and s.shape == (3, 3)
    assert any("summary" in n for n in s.notes)
    root = parse_svg(to_svg(ml))
    assert cells(root) == [] and len(cells(root, "core")) == 9
    assert "data 334x334" in label_text(cells(root, "core")[0])


def test_device_cells_are_physical_cores():
    dev = tt.parse(DEVICE)
    s = device_scene(dev)
    phys = dev.physical_cores()
    assert (s.attrs["chip"] == phys[..., 0]).all() and (s.attrs["y"] == phys[..., 1]).all()
    root = parse_svg(to_svg(dev))
    cs = cells(root)
    assert len(cs) == 128 and [int(g.get("data-index")) for g in cs] == list(range(128))
    assert label_text(cs[15]) == "c1 0,7"
    assert len([o for o in s.outlines if o[6] == "chip"]) == 2


def test_device_with_a_placed_layout():
    dev = tt.parse(DEVICE)
    ml = tt.MetalLayout.from_collapse((256, 1024), (4, 16))
    s = device_scene(dev, ml)
    assert s.attrs["shard"].sum() == 64 and s.attrs["shard"][:4].all()
    assert s.labels[3, 15] == "c1 3,7\n(3,15)"
    assert any("sharded" in n for n in s.notes)
    with pytest.raises(LayoutError):
        device_scene(dev, tt.MetalLayout.from_collapse((256, 1024), (16, 16)))


def test_three_d_device_folds():
    dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (2, 1, 1))
    s = device_scene(dev)
    assert s.shape == (16, 8) and (s.attrs["chip"][8:] == 1).all()


BATCH_DEVICE = "#tt.device<workerGrid = #tt.grid<2x8x8, (d0, d1, d2) -> (d0, d1, d2)>, meshShape = 2x1x1, chipIds = [0, 1]>"
BATCH_TENSOR = ("tensor<16x3x64x128xf32, #tt.metal_layout<(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3), undef, <2x2x4>, "
                "memref<8x3x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>")


def test_batch_over_chips_outlines_each_chip():
    # The seed's "data parallel over batch": half the batch on each chip, a 2x4 block of cores on each.
    dev, ml = tt.parse(BATCH_DEVICE), tt.parse(BATCH_TENSOR)
    s = device_scene(dev, ml)
    placement = dev.place(ml)
    held = s.attrs["shard"].astype(bool)
    assert held.sum() == 16
    # every held cell is the physical core the placement gives its shard
    for g in np.ndindex(*ml.grid):
        chip, y, x = placement.cores[g].tolist()
        r, c = chip * 8 + y, x  # identity map: logical (chip, y, x) folded to rows
        assert held[r, c] and s.labels[r, c].endswith("(" + ",".join(map(str, g)) + ")")
    boxes = [o for o in s.outlines if o[6] == "layout"]
    assert len(boxes) == 2  # one per chip the shards touch
    for (x, y, w, h, *_), r0 in zip(sorted(boxes, key=lambda o: o[1]), (0, 8)):
        bx, by, bw, bh = s.cell_box(r0, 0, r0 + 2, 4)
        assert abs(x - bx) <= 3 and abs(y - by) <= 3 and abs(w - bw) <= 5 and abs(h - bh) <= 5
    headers = [t[2] for t in s.texts if t[6] == "header"]
    assert "1,7" in headers  # folded rows are named by (chip row, core row)


def test_png_outputs():
    assert to_png(tt.parse(PADDED))[:8] == b"\x89PNG\r\n\x1a\n"
    assert to_png(tt.parse(DEVICE))[:8] == b"\x89PNG\r\n\x1a\n"


def test_shard_table():
    text = shard_table(tt.parse(PADDED))
    lines = text.splitlines()
    assert lines[0].split() == ["core", "data", "padding", "slots"]
    assert lines[-1].split() == ["(2,1)", "17x31", "+15,+1", "497"]


def test_wrong_types():
    with pytest.raises(LayoutError):
        metal_scene(tt.parse(DEVICE))
    with pytest.raises(LayoutError):
        device_scene(tt.parse(PADDED))


def test_shard_grid():
    text = shard_grid(tt.parse(PADDED))
    assert text.splitlines()[1].split() == ["0", "18x32", "+14,+0", "18x31", "+14,+1"]
    rank3 = shard_grid(tt.MetalLayout.from_collapse((16, 3, 64, 128), (2, 2, 4), [(1, -1)]))
    assert len(rank3.splitlines()) == 5 and rank3.splitlines()[4].startswith("1,1")


def test_metal_picture_names_logical_rows_columns_and_core_extents():
    ml = tt.parse("tensor<11x10xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <2x3>, "
                  "memref<6x4xf32, #tt.memory_space<l1>>>>")
    s = metal_scene(ml)
    rows = [t for t in s.texts if t[6] == "axis" and t[4] == "end"]
    cols = [t for t in s.texts if t[6] == "axis" and t[4] != "end"]
    assert sorted(int(t[2]) for t in rows) == list(range(11)) and sorted(int(t[2]) for t in cols) == list(range(10))
    for _x, y, text, *_ in rows:
        r = int(np.argmin(np.abs(s.row_y + s.cell_h / 2 - y)))
        data = s.index[r][s.index[r] >= 0]
        assert (data // 10 == int(text)).all()
    for x, _y, text, *_ in cols:
        c = int(np.argmin(np.abs(s.col_x + s.cell_w / 2 - x)))
        data = s.index[:, c][s.index[:, c] >= 0]
        assert (data % 10 == int(text)).all()
    names = [t[2] for t in s.texts if t[6] == "core-name"]
    assert "(1,2) r6..10 c8..9" in names  # the last core holds rows 6..10, columns 8..9
    wide = metal_scene(tt.MetalLayout.from_collapse((53, 63), (3, 2), tile=(32, 32)))
    assert "core (2,1): rows 36..52, cols 32..62" in [t[2] for t in wide.texts if t[6] == "core-name"]


def test_summary_picture_and_core_table_count_rows_left_by_alignment_holes():
    """3x43x7 collapsed with d1 aligned to 32: the summary boxes and the per-core table say 11x7 on the odd cores."""
    from unilayout import tt as _tt
    from unilayout.tt import picture as _picture

    v = _tt.parse("tensor<6x1x32x32xf32, #ttcore.metal_layout<logical_shape = 3x43x7, dim_alignments = 1x32x32, "
                  "collapsed_intervals = dense<[[0, 2], [2, 3]]> : tensor<2x2xi64>, l1, sharded>>")
    s = _picture.metal_scene(v, max_cells=10)
    assert s.kind == "metal-summary"
    assert s.labels[:, 0].tolist() == ["data 32x7\npad +0,+25", "data 11x7\npad +21,+25"] * 3
    rows = _picture.shard_table(v).splitlines()[1:]
    assert [r.split()[1:3] for r in rows] == [["32x7", "+0,+25"], ["11x7", "+21,+25"]] * 3
