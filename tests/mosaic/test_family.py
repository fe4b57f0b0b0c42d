"""The mosaic family through its record alone: show, render, the explorer's cells, notebooks."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np

import unilayout
from unilayout import facts, mosaic, viz
from unilayout._families import record

WGMMA_TEXT = ("#mosaic_gpu.TiledLayout<[[64, 8], [16, 8], [8, 8], [2]], warp_dims = [-7], lane_dims = [-3, -2], "
              "vector_dim = -1>")


def test_family_is_registered_and_claims_its_texts():
    assert "mosaic" in unilayout.families()
    assert unilayout.family_of(mosaic.WGMMA) == "mosaic"
    assert unilayout.parse(WGMMA_TEXT) == mosaic.WGMMA


def test_index_map_is_thread_and_value_of_each_element():
    table = unilayout.index_map(unilayout.read(WGMMA_TEXT, shape=(64, 16)))
    o = mosaic.WGMMA.owners((64, 16))
    assert np.array_equal(table, np.stack([o["thread"], o["value"]], 1))


def test_show_facts_with_and_without_shape():
    d = facts.describe(mosaic.WGMMA)
    assert d["shape"] == [64, 8] and d["registers_shape"] == [1, 1, 1, 1, 2, 1, 1, 1, 1]
    assert d["cute"] == "((4,8,4),(2,2)):((128,1,16),(64,8))"
    d = facts.describe(unilayout.read(WGMMA_TEXT, shape=(128, 64)))
    assert d["values_per_thread"] == 64 and d["cute"] == str(
        unilayout.convert.mosaic.mosaic_to_cute(mosaic.WGMMA, (128, 64)))


def test_show_command_prints_json():
    out = subprocess.run([sys.executable, "-m", "unilayout", "show", "--json", "plgpu.Layout.WGMMA_8BIT"],
                         capture_output=True, text=True, check=True).stdout
    d = json.loads(out)
    assert d["family"] == "mosaic" and d["vector_length"] == 4


def test_render_draws_threads_and_values(tmp_path):
    s = viz.scene(mosaic.WGMMA, shape=(64, 8))
    assert s.kind == "mosaic" and s.labels[9, 2] == "T5:2" and s.labels[0, 7] == "T3:1"
    assert viz.scene(mosaic.WGMMA, color="warp").fill.shape == (64, 8, 3)
    out = tmp_path / "w.svg"
    subprocess.run([sys.executable, "-m", "unilayout", "render", "plgpu.Layout.TCGEN05", "-o", str(out)], check=True,
                   capture_output=True)
    assert out.read_text().count("T127:") >= 1


def test_explorer_cells_list_every_holder():
    c = record("mosaic").cells(mosaic.WGMMA_COL, (16,))
    assert c.rows == 16 and len(c.columns["holders"][0].split()) == 32
    assert c.columns["register"].tolist() == [0] * 8 + [1] * 8


def test_explorer_view_of_a_mosaic_text():
    from unilayout.explorer import views

    v = views.view_of(unilayout.parse(WGMMA_TEXT), source=WGMMA_TEXT)
    assert v["family"] == "mosaic" and "T5:2" in json.dumps(v)


def test_shared_buffer_shows_offsets():
    s = unilayout.parse("memref<16x64xf16> [#mosaic_gpu.tile<[8, 64]>, #mosaic_gpu.swizzle<128 : i32>]")
    d = facts.describe(s)
    assert d["injective"] and d["buffer_shape"] == [2, 1, 8, 64]
    assert viz.scene(s).labels[1, 0] == "72"


def test_a_huge_array_is_refused_by_pictures_but_shown_by_facts():
    import pytest

    from unilayout import LayoutError

    v = unilayout.read("plgpu.Layout.WGMMA", shape=(65536, 65536))
    assert facts.describe(v)["values_per_thread"] == 65536 * 65536 // 128
    with pytest.raises(LayoutError, match="too large to draw"):
        viz.scene(v)
    big = unilayout.parse("memref<65536x65536xf32, #tpu.tiled<(8,128),[8192,1]>>")
    assert "not tabulated" in facts.describe(big)["note"]


def test_explorer_summarises_a_big_layout():
    from unilayout.explorer import views

    v = views.view_of(unilayout.read("plgpu.Layout.WGMMA", shape=(4096, 4096)))
    assert "summarised" in v["summary"]


def test_notebook_shows_a_mosaic_layout_as_a_picture():
    from unilayout import _notebook

    h = _notebook.html(mosaic.WGMMA)
    assert "<svg" in h and "T5:2" in h and "#mosaic_gpu.TiledLayout" in h
