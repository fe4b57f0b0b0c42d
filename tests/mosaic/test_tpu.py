"""Mosaic TPU layouts: #tpu.vpad vector layouts and #tpu.tiled memrefs, read and printed as jaxlib's tpu dialect does."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import unilayout
from unilayout import LayoutError, ParseError, mosaic, xla
from unilayout.convert import convert_to
from unilayout.convert.mosaic import tpu_to_xla, xla_to_tpu
from unilayout.mosaic.tpu import TpuTiledLayout, VectorLayout

#: Texts and what jaxlib 0.10.2's tpu dialect prints back for each (``_tpu_reprint``; stored so CI without jax checks).
PRINTED = {
    '#tpu.vpad<"32,{*,128},(8,128)">': '#tpu.vpad<"32,{*,128},(8,128)">',
    '#tpu.vpad<"32,{0,0},(8,128)">': '#tpu.vpad<"32,{0,0},(8,128)">',
    '#tpu.vpad<"16,{0,0},(16,128)">': '#tpu.vpad<"16,{0,0},(16,128)">',
    '#tpu.vpad<"16,{0,*},(16,128),-1">': '#tpu.vpad<"16,{0,*},(16,128),-1">',
    '#tpu.vpad<"32,{0,0},(1,128),-2">': '#tpu.vpad<"32,{0,0},(1,128),-2">',
    '#tpu.vpad<"32,{0,0},(8,128),-2,-1">': '#tpu.vpad<"32,{0,0},(8,128),-2,-1">',
    '#tpu.vpad<"32,{0,300},(8,128)">': '#tpu.vpad<"32,{0,300},(8,128)">',
    '#tpu.tiled<(8,128)(2,1),[1,1]>': '#tpu.tiled<(8,128)(2,1),[1,1]>',
    '#tpu.tiled<(8,128),[2,1]>': '#tpu.tiled<(8,128),[2,1]>',
}


def _tpu_reprint(texts):
    code = ("import json, sys\nfrom jax._src.lib.mlir import ir\nfrom jax._src.lib import tpu\n"
            "ctx = ir.Context(); tpu.register_dialect(ctx)\nout = {}\n"
            "with ctx:\n    for t in json.loads(sys.argv[1]):\n        out[t] = str(ir.Attribute.parse(t))\n"
            "print(json.dumps(out))")
    run = subprocess.run([sys.executable, "-c", code, json.dumps(texts)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout)


@pytest.mark.parametrize("text", sorted(PRINTED))
def test_tpu_texts_read_and_print_as_the_tpu_dialect(text):
    v = unilayout.parse(text)
    assert unilayout.family_of(v) == "mosaic"
    got = v.attr() if isinstance(v, TpuTiledLayout) else str(v)
    assert got == PRINTED[text]


def test_stored_reprints_are_what_jaxlib_prints_now():
    pytest.importorskip("jaxlib.mosaic.python.tpu", reason="jaxlib's tpu dialect is the oracle of the #tpu texts")
    assert _tpu_reprint(sorted(PRINTED)) == PRINTED


def test_sublane_offset_past_the_tile_is_jaxlib_check():
    with pytest.raises(ParseError, match=r"offsets_\[0\]\.value_or\(0\) < tiling_\[0\] \(9 vs\. 8\)"):
        unilayout.parse('#tpu.vpad<"32,{9,0},(8,128)">')


def test_bad_vpad_text_is_a_parse_error_at_the_body():
    with pytest.raises(ParseError) as e:
        unilayout.parse('#tpu.vpad<"16, {0,0},(16,128)">')
    assert e.value.position == 11


def test_natural_f32_layout_is_rows_on_sublanes_and_columns_on_lanes():
    o = VectorLayout(32, (0, 0), (8, 128)).owners((16, 256))
    r, c = np.divmod(np.arange(16 * 256), 256)
    assert np.array_equal(o["sublane"], r % 8) and np.array_equal(o["lane"], c % 128)
    assert np.array_equal(o["vreg"], (r // 8) * 2 + c // 128) and not o["packed"].any()


def test_bf16_native_tiling_packs_row_pairs_into_a_word():
    o = VectorLayout(16, (0, 0), (16, 128)).owners((16, 128))
    r, c = np.divmod(np.arange(16 * 128), 128)
    assert np.array_equal(o["sublane"], r // 2) and np.array_equal(o["packed"], r % 2)


def test_one_row_tiles_fill_every_sublane_of_a_vreg():
    v = VectorLayout(32, (0, 0), (1, 128), -2)
    assert v.tiles_per_vreg == 8 and v.vreg_slice == (1, 1024) and v.tile_array_shape((3000,)) == (3,)
    o = v.owners((1024,))
    assert np.array_equal(o["sublane"] * 128 + o["lane"], np.arange(1024))


def test_offsets_shift_the_data_and_grow_the_vreg_array():
    v = VectorLayout(32, (3, 100), (8, 128))
    assert v.tile_array_shape((8, 128)) == (2, 2)
    o = v.owners((8, 128))
    assert (int(o["sublane"][0]), int(o["lane"][0])) == (3, 100)
    assert (int(o["vreg"][27]), int(o["lane"][27])) == (0, 127)
    assert (int(o["vreg"][28]), int(o["lane"][28])) == (1, 0)


def test_positions_are_distinct():
    for text, shape in (('16,{0,0},(8,128)', (16, 256)), ('8,{0,0},(32,128)', (64, 128)), ('16,{0,0},(1,256),-2', (512,))):
        o = VectorLayout.parse(text).owners(shape)
        key = ((o["vreg"] * 8 + o["sublane"]) * 128 + o["lane"]) * 4 + o["packed"]
        assert np.unique(key).size == key.size, text


def test_replicated_offset_needs_a_dim_of_one():
    v = unilayout.parse('#tpu.vpad<"32,{*,0},(8,128)">')
    assert v.tile_array_shape((1, 256)) == (1, 2)
    with pytest.raises(LayoutError, match="replicated sublane offset"):
        v.owners((8, 128))


def test_tile_that_does_not_divide_a_vreg_is_refused():
    with pytest.raises(LayoutError, match="does not divide a vreg"):
        assert VectorLayout(16, (0, 0), (1, 128)).tiles_per_vreg


@pytest.mark.parametrize("memref, xla_text", [
    ("memref<16x256xf32, #tpu.tiled<(8,128),[2,1]>>", "f32[16,256]{1,0:T(8,128)}"),
    ("memref<32x128xbf16, #tpu.tiled<(16,128)(2,1),[1,1]>>", "bf16[32,128]{1,0:T(16,128)(2,1)}"),
    ("memref<4x20x300xf32, #tpu.tiled<(8,128),[9,3,1]>, #tpu.memory_space<vmem>>", "f32[4,20,300]{2,1,0:T(8,128)}"),
])
def test_tpu_memref_is_the_xla_tiled_layout_of_the_same_tiles(memref, xla_text):
    t = unilayout.parse(memref)
    x = xla.parse(xla_text)
    assert np.array_equal(t.offsets(), x.offsets())
    assert str(convert_to(t, "xla")) == xla_text and tpu_to_xla(t) == x
    assert xla_to_tpu(x).offsets().tolist() == t.offsets().tolist()


def test_tile_strides_with_gaps_have_no_xla_form():
    t = unilayout.parse("memref<16x256xf32, #tpu.tiled<(8,128),[4,1]>>")
    assert int(t.offsets()[8, 0]) == 4 * 1024
    with pytest.raises(unilayout.NotRepresentableError, match="not the row-major ones"):
        tpu_to_xla(t)


def test_column_major_xla_layout_has_no_tpu_form():
    with pytest.raises(unilayout.NotRepresentableError, match="not row-major"):
        xla_to_tpu(xla.parse("f32[16,256]{0,1}"))


def test_show_and_render_a_vector_layout(tmp_path):
    from unilayout import facts, viz

    v = mosaic.parse('#tpu.vpad<"16,{0,0},(16,128)">')
    assert facts.describe(v)["vregs"] == [1, 1]
    assert viz.scene(v).shape == (16, 128)
