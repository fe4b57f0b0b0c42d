"""SystemDesc: presets, validation, value semantics."""

import pickle

import pytest

from unilayout import LayoutError
from unilayout.tt import SUPPORTED_TILE_SHAPES, SystemDesc


def test_wormhole_and_blackhole_presets():
    wh = SystemDesc.wormhole_b0(2)
    assert (wh.chip_grid, wh.l1_size, wh.num_dram_channels, wh.dram_channel_size) == ((8, 8), 1499136, 12, 1 << 30)
    assert (wh.l1_alignment, wh.dram_alignment, wh.arch) == (16, 32, "wormhole_b0")
    bh = SystemDesc.blackhole()
    assert (bh.chip_grid, bh.l1_size, bh.num_dram_channels, bh.arch) == ((10, 13), 1572864, 8, "blackhole")
    assert wh.tile_shapes == SUPPORTED_TILE_SHAPES and (32, 32) in bh.tile_shapes
    assert wh.num_cores == 128 and bh.num_cores == 130 and wh.chip_ids == (0, 1)


@pytest.mark.parametrize(
    "args, kw, message",
    [
        (((8,),), {}, "rows, columns"),
        (((8, 0),), {}, ">= 1"),
        (((8, 8), 0), {}, "num_chips"),
        (((8, 8),), {"l1_size": 0}, "l1_size"),
        (((8, 8),), {"l1_unreserved_base": 1 << 22}, "below l1_size"),
        (((8, 8),), {"tile_shapes": [(32,)]}, "tile_shapes"),
        ((8,), {}, "rows, columns"),
        (((8, 8),), {"arch": ""}, "arch"),
    ],
)
def test_invalid_systems_are_rejected(args, kw, message):
    with pytest.raises(LayoutError, match=message):
        SystemDesc(*args, **kw)


def test_value_semantics():
    for s in (SystemDesc.wormhole_b0(4), SystemDesc.blackhole(2), SystemDesc((4, 4), 3, l1_size=1 << 20)):
        assert eval(repr(s), {"SystemDesc": SystemDesc}) == s
        assert pickle.loads(pickle.dumps(s)) == s and hash(pickle.loads(pickle.dumps(s))) == hash(s)
    assert SystemDesc() == SystemDesc.wormhole_b0(1) and SystemDesc() != SystemDesc(num_chips=2)
    with pytest.raises(AttributeError):
        SystemDesc().num_chips = 3
