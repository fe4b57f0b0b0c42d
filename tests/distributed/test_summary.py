"""shard_summary / shard_svg: what each device holds, as data, text and a picture (no JAX needed)."""

import math
import xml.etree.ElementTree as ET

import pytest

from unilayout import NotRepresentableError, tt
from unilayout.distributed import DeviceShard, ShardSummary, shard_summary, shard_svg

TWO = tt.SystemDesc(num_chips=2)


def test_seed_batch_parallel_summary():
    dev = tt.Device.from_mesh(TWO, (2, 1, 1))
    ml = tt.MetalLayout.from_collapse((16, 3, 64, 128), (2, 2, 4), [(1, -1)], tile=(32, 32), tile_dtype="bfp_bf8")
    s = shard_summary(ml, dev)
    assert isinstance(s, ShardSummary)
    assert s.global_shape == (16, 192, 128) and s.spec == ("mesh0", None, None) and s.reason is None
    assert s.devices == (
        DeviceShard(0, ((0, 1), (0, 2), (0, 4)), (8, 192, 128), 8 * 24 * 1088, 0.0, 0, False),
        DeviceShard(1, ((1, 2), (0, 2), (0, 4)), (8, 192, 128), 8 * 24 * 1088, 0.0, 1, False),
    )
    text = str(s)
    assert "NamedSharding over the device mesh: (mesh0, None, None)" in text
    assert text.splitlines()[-1].split() == ["1", "[1:2,", "0:2,", "0:4]", "8x192x128", "208,896", "0.0%", "no"]


def test_replicated_and_padding_fractions():
    dev = tt.Device.from_mesh(TWO, (1, 2))
    ml = tt.MetalLayout.from_collapse((53, 63), (3, 2))  # on chip 0 only: replicated to chip 1
    s = shard_summary(ml, dev)
    assert [(d.chip_id, d.replica_of, d.replicated) for d in s.devices] == [(0, 0, True), (1, 0, True)]
    frac = 1 - 53 * 63 / (3 * 18 * 2 * 32)
    assert all(math.isclose(d.padding_fraction, frac) for d in s.devices)
    assert s.devices[0].bytes == 6 * 18 * 32 * 4
    assert "of chip 0" in str(s) and "yes" in str(s)


def test_ragged_block_counts_empty_shards_as_padding():
    dev = tt.Device.from_mesh(tt.SystemDesc((8, 8), 4), (1, 4))
    ml = tt.MetalLayout.from_collapse((40, 200), (2, 20))
    s = shard_summary(ml, dev)
    assert s.spec is None and "last chip gets 4" in s.reason and "placed device by device" in str(s)
    assert [d.chip_id for d in s.devices] == [0, 1, 2]
    assert [d.padding_fraction for d in s.devices] == [0.0, 0.0, 0.5]
    assert s.global_shape == (40, 240)


def test_summary_matches_padding_mask():
    dev = tt.Device.from_mesh(tt.SystemDesc((2, 2), 4), (2, 2))
    ml = tt.MetalLayout.from_collapse((5, 7, 9), (4, 4), tile=(2, 4))
    s = shard_summary(ml, dev)
    mask = ml.padding_mask()
    total = sum(d.padding_fraction * math.prod(d.shape) for d in s.devices if d.chip_id == d.replica_of)
    assert math.isclose(total, mask.sum())


def test_not_representable_is_reported():
    stair = tt.Device((8, 16), "(d0, d1) -> (((d0 + d1) floordiv 8) mod 2, d0, (d0 + d1) mod 8)", (1, 2), (0, 1))
    with pytest.raises(NotRepresentableError, match="not one box"):
        shard_summary(tt.MetalLayout.from_collapse((64, 128), (8, 16)), stair)


def test_svg_cells_and_escaping():
    dev = tt.Device.from_mesh(tt.SystemDesc((2, 2), 4), (2, 1, 2))
    ml = tt.MetalLayout.from_collapse((3, 5, 7), (2, 2, 3), [], element_type="bf16")
    svg = shard_svg(ml, dev)
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    cells = [e for e in root.iter(ns + "rect") if "cell" in e.get("class", "").split()]
    assert [int(c.get("data-index")) for c in cells] == list(range(12))
    chips = dev.place(ml).cores[..., 0].reshape(-1)
    assert [int(c.get("data-chip")) for c in cells] == chips.tolist()
    assert cells[11].get("data-cell") == "1,1,2"
    pad = [c for c in cells if "padding" in c.get("class").split()]
    empty = (ml.padding_summary().slots == math.prod(ml.padded_shard_shape)).reshape(-1)
    assert len(pad) == int(empty.sum())
    assert "copies" not in svg
    rep = shard_svg(tt.MetalLayout.from_collapse((4, 4), (1, 2)), tt.Device.from_mesh(TWO, (1, 2)))
    assert "chip 0 (copies on chips 1)" in rep
    ET.fromstring(rep)
