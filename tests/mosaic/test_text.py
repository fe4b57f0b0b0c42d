"""Reading and printing the attribute text jax prints for Mosaic GPU layouts (byte for byte)."""

from __future__ import annotations

import pytest
from mosaic_facts import FACTS, need_jax

import unilayout
from unilayout import LayoutError, ParseError, mosaic

TEXTS = sorted({f["attr"] for f in FACTS["tiled"]} | {f["attr"] for f in FACTS["strided"]} |
               {f["attr"] for f in FACTS["splat"]})


@pytest.mark.parametrize("text", TEXTS)
def test_every_attribute_jax_prints_reads_and_prints_back(text):
    v = unilayout.parse(text)
    assert unilayout.family_of(v) == "mosaic" and str(v) == text


@pytest.mark.parametrize("text", TEXTS)
def test_jax_reads_what_we_print_to_the_same_layout(text):
    need_jax()
    from jax._src.lib import mosaic_gpu_dialect as mgpu
    from jax._src.lib.mlir import ir
    from jax.experimental.mosaic.gpu import layouts

    v = mosaic.parse(text)
    ctx = ir.Context()
    mgpu.register_dialect(ctx)
    with ctx, ir.Location.unknown():
        back = layouts.from_layout_attr(ir.Attribute.parse(str(v)))
        assert str(layouts.to_layout_attr(back)) == str(v)


def test_spaces_between_tokens_are_free():
    v = mosaic.parse("#mosaic_gpu.TiledLayout<[[64,8],[16,8],[8,8],[2]],warp_dims=[-7],lane_dims=[-3,-2],"
                     "vector_dim=-1>")
    assert v == mosaic.WGMMA


@pytest.mark.parametrize("name", ["WGMMA", "WGMMA_8BIT", "WGMMA_TRANSPOSED", "WGMMA_UPCAST_2X", "WGMMA_UPCAST_4X",
                                  "TCGEN05", "TCGEN05_TRANSPOSED", "TCGEN05_TMEM_NATIVE", "TMA_INDICES"])
def test_plgpu_layout_names_read_to_the_named_layouts(name):
    assert unilayout.parse(f"plgpu.Layout.{name}") is mosaic.layout(name)
    assert mosaic.parse(f"Layout.{name}") is mosaic.layout(name)


def test_plgpu_layout_names_match_jax_to_mgpu():
    need_jax()
    from jax.experimental.pallas import mosaic_gpu as plgpu

    fixed = ["WGMMA", "WGMMA_8BIT", "WGMMA_TRANSPOSED", "WGMMA_UPCAST_2X", "WGMMA_UPCAST_4X", "TCGEN05",
             "TCGEN05_TRANSPOSED", "TCGEN05_TMEM_NATIVE", "TMA_INDICES", "TMA_INDICES_4", "_WGMMA_ACC_32BIT"]
    for name in fixed:
        j = getattr(plgpu.Layout, name).to_mgpu()
        assert mosaic.layout(name).jax_repr() == repr(j), name
    assert mosaic.layout("TCGEN05_M64_COLLECTIVE", 32).jax_repr() == repr(
        plgpu.Layout.TCGEN05_M64_COLLECTIVE(32).to_mgpu())
    assert mosaic.layout("TCGEN05_M64_COLLECTIVE_NATIVE", 64, 4).jax_repr() == repr(
        plgpu.Layout.TCGEN05_M64_COLLECTIVE_NATIVE(64, 4).to_mgpu())
    assert mosaic.layout("TCGEN05_TMEM_NATIVE", 8).jax_repr() == repr(plgpu.Layout.TCGEN05_TMEM_NATIVE(8).to_mgpu())
    import jax.numpy as jnp

    for shape, dtype, bits, swizzle in (((64, 64), jnp.float16, 16, 128), ((16, 64), jnp.float32, 32, 32),
                                         ((8, 256), jnp.int8, 8, 64)):
        j = plgpu.Layout.SMEM_GMEM_COPY(shape, dtype, swizzle).to_mgpu()
        assert mosaic.layout("SMEM_GMEM_COPY", shape, bits, swizzle).jax_repr() == repr(j)
    with pytest.raises(NotImplementedError) as want:
        plgpu.Layout.SMEM_GMEM_COPY((8, 128), jnp.int8, 64).to_mgpu()
    with pytest.raises(LayoutError) as got:
        mosaic.layout("SMEM_GMEM_COPY", (8, 128), 8, 64)
    assert str(got.value) == str(want.value)


def test_every_plgpu_member_is_named():
    need_jax()
    from jax.experimental.pallas import mosaic_gpu as plgpu

    assert {m.name for m in plgpu.Layout} == set(mosaic.NAMES)


def test_transforms_print_as_jax_does():
    need_jax()
    from jax._src.lib import mosaic_gpu_dialect as mgpu
    from jax._src.lib.mlir import ir
    from jax.experimental.mosaic.gpu import launch_context, layouts

    ctx = ir.Context()
    mgpu.register_dialect(ctx)
    with ctx, ir.Location.unknown():
        assert str(mosaic.TileTransform((8, 64))) == str(layouts.to_transform_attr(launch_context.TileTransform((8, 64))))
        for s in (32, 64, 128):
            mode = mgpu.SwizzlingMode(s)
            assert str(mosaic.SwizzleTransform(s)) == str(layouts.to_transform_attr(mode))


def test_transform_texts_read_back():
    for text in ("#mosaic_gpu.tile<[8, 64]>", "#mosaic_gpu.swizzle<128 : i32>",
                 "memref<16x64xf16> [#mosaic_gpu.tile<[8, 64]>, #mosaic_gpu.swizzle<128 : i32>]",
                 "memref<8x4xf32> [transpose<[1, 0]>]"):
        assert str(unilayout.parse(text)) == text


@pytest.mark.parametrize("text, at, message", [
    ("#mosaic_gpu.TiledLayout<[[64, 8]], warp_dims = [-7, lane_dims = [], vector_dim = -1>", 52, "an integer"),
    ("#mosaic_gpu.TiledLayout<[[64, 8], [16, 8], [8, 8], [2]], warp_dims = [-7], lane_dims = [-3, -2]>", 95,
     "','"),
    ("#mosaic_gpu.Tiled<[4]>", 12, "expected TiledLayout"),
    ("#mosaic_gpu.WGStridedFragLayout<[128, 8] 8>", 41, "','"),
    ("plgpu.Layout.WGMMMA", 13, "unknown plgpu.Layout member"),
    ("#mosaic_gpu.WGSplatFragLayout<[4, 8]> x", 38, "the end of the text"),
])
def test_bad_text_is_a_parse_error_at_its_position(text, at, message):
    with pytest.raises(ParseError) as e:
        unilayout.parse(text)
    assert e.value.position == at and message in str(e.value)


def test_an_invalid_layout_in_text_is_a_parse_error_with_jax_reason():
    with pytest.raises(ParseError, match="Dimension out of range"):
        mosaic.parse("#mosaic_gpu.TiledLayout<[[64, 8], [16, 8], [8, 8], [2]], warp_dims = [-9], "
                     "lane_dims = [-3, -2], vector_dim = -1>")


def test_layout_by_unknown_name_is_a_layout_error():
    with pytest.raises(LayoutError, match="unknown plgpu.Layout"):
        mosaic.layout("WGMMA_9BIT")
