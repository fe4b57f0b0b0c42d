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


def test_code_answers_the_layouts_index_code_in_each_language_or_why_not():
    # issue 29: the explorer's code box
    from unilayout import codegen, cute

    for lang in ("c", "python", "cute-cpp"):
        status, out = handle("/api/code", json.dumps({"text": "Sw<3,3,3> o 0 o (8,64):(64,1)", "lang": lang}).encode())
        assert status == 200 and out["code"] == codegen.emit(cute.parse("Sw<3,3,3> o 0 o (8,64):(64,1)"), lang)
    status, out = handle("/api/code", b'{"text": "(4,8):(8,1)", "lang": "c", "inverse": true}')
    assert status == 200 and "coordinate of (4,8):(8,1)" in out["code"]
    status, out = handle("/api/code", b'{"text": "(d0) -> (d0 floordiv 4)", "lang": "mlir-affine", "shape": [16]}')
    assert status == 200 and out["code"] == "affine_map<(d0) -> (d0 floordiv 4)>"
    status, out = handle("/api/code", b'{"text": "Sw<3,3,3> o 0 o (8,64):(64,1)", "lang": "mlir-affine"}')
    assert status == 400 and "XOR is not quasi-affine" in out["error"]["message"] and out["error"]["field"] == "lang"
    status, out = handle("/api/code", b'{"text": "(4,8):(8,1)", "lang": "fortran"}')
    assert status == 400 and out["error"]["field"] == "lang"
