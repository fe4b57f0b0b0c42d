"""explorer.api in process: TTNN placements without a layout family are drawn through their metal layout."""

import json

from unilayout import parse
from unilayout.explorer.api import handle

CONFIG = ("#ttnn.memory_config<#l1, <block_sharded>, #ttnn.shard_spec<<[#ttnn.core_range<(0,0), (3,1)>]>, "
          "<32x64>, <row_major>>>")


def view(**body):
    return handle("/api/view", json.dumps(body))


def test_a_memory_config_with_a_shape_is_drawn_as_its_metal_layout():
    status, out = view(text=CONFIG, shape=[64, 256])
    assert status == 200 and out["family"] == "metal"
    metal = parse(CONFIG).to_metal((64, 256))
    assert out["count"] == 64 * 256 and out["text"] == str(metal) and metal.grid == (2, 4)


def test_a_memory_config_without_a_shape_asks_for_one():
    status, out = view(text=CONFIG)
    assert status == 400 and out["error"]["field"] == "shape" and "give 'shape'" in out["error"]["message"]
