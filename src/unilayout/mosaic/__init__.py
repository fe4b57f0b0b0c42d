"""Mosaic GPU layouts (JAX Pallas on NVIDIA GPUs): which thread and register hold each element of an array.

A Pallas kernel on a GPU keeps arrays in the registers of a warpgroup (128
threads) with one of Mosaic GPU's layouts, jax's
``jax.experimental.mosaic.gpu.fragmented_array``: a ``TiledLayout`` (tile the
array, then spread named tiled dims over warps, lanes and a register's
vector), or a ``WGStridedFragLayout`` / ``WGSplatFragLayout``. Pallas names
the common ones ``plgpu.Layout.WGMMA``, ``TCGEN05``, ... (``mosaic.WGMMA``,
``mosaic.layout("TCGEN05")``). jax prints them as MLIR attributes, which
``mosaic.parse`` reads and ``str`` prints back byte for byte:

>>> from unilayout import mosaic
>>> L = mosaic.parse("#mosaic_gpu.TiledLayout<[[64, 8], [16, 8], [8, 8], [2]], warp_dims = [-7], "
...                  "lane_dims = [-3, -2], vector_dim = -1>")
>>> L == mosaic.WGMMA, L.registers_shape((128, 16))
(True, (2, 2, 1, 1, 2, 1, 1, 1, 1))

Who holds an element, and what a (thread, value) holds:

>>> o = L.owners((64, 8)); int(o["thread"][8 * 8 + 3]), int(o["value"][8 * 8 + 3])
(1, 3)
>>> L.coordinates((64, 8))[1].tolist()
[[0, 2], [0, 3], [8, 2], [8, 3]]

Shared buffers (``SmemLayout``) are what the transforms ``#mosaic_gpu.tile``,
``#mosaic_gpu.swizzle`` and ``transpose`` make of a block of global memory.
On TPUs, Mosaic's vector layouts place an array in vregs and its tiled
memrefs lay out a buffer:

>>> mosaic.parse('#tpu.vpad<"32,{0,0},(8,128)">').tile_array_shape((16, 256))
(2, 2)
>>> mosaic.parse("memref<16x256xf32, #tpu.tiled<(8,128),[2,1]>>").xla_text()
'f32[16,256]{1,0:T(8,128)}'

| module | names |
|---|---|
| ``layout`` | ``Tiling``, ``Replicated``, ``TiledLayout`` (``registers_shape``, ``owners``, ``coordinates``, ``modes``) |
| ``frag`` | ``WGStridedFragLayout``, ``WGSplatFragLayout``, ``Fragmented`` (a layout on a shape) |
| ``named`` | ``WGMMA``, ``WGMMA_8BIT``, ``TCGEN05``, ..., ``layout(name, *args)`` (``plgpu.Layout``) |
| ``smem`` | ``TileTransform``, ``TransposeTransform``, ``SwizzleTransform``, ``SmemLayout`` |
| ``tpu`` | Mosaic TPU: ``VectorLayout`` (``#tpu.vpad``), ``TpuTiledLayout`` (``#tpu.tiled`` memrefs) |
| ``text`` | ``parse_mosaic`` (also ``mosaic.parse``) |
| ``family`` | ``MOSAIC``, the family's record |

Conversions live in ``unilayout.convert.mosaic`` (to Triton linear layouts
with in-dims ``register``, ``lane``, ``warp``, and to CuTe (thread, value)
layouts): ``mosaic_to_linear(layout, shape)`` and ``mosaic_to_cute(layout,
shape)``, and ``unilayout.convert_to(layout, "linear")`` on the layout's own
(or base-tile) shape. A family never imports another, so the values carry no
``to_linear``/``to_cute_tv`` methods of their own.
"""

from .frag import Fragmented, WGSplatFragLayout, WGStridedFragLayout
from .layout import WARP_SIZE, WARPGROUP_SIZE, WARPS_IN_WARPGROUP, Replicated, TiledLayout, Tiling
from .named import (
    NAMES,
    TCGEN05,
    TCGEN05_COL,
    TCGEN05_ROW,
    TCGEN05_TMEM_NATIVE,
    TCGEN05_TRANSPOSED,
    TMA_INDICES,
    TMA_INDICES_4,
    WGMMA,
    WGMMA_8BIT,
    WGMMA_ACC_32BIT,
    WGMMA_COL,
    WGMMA_ROW,
    WGMMA_TRANSPOSED,
    WGMMA_UPCAST_2X,
    WGMMA_UPCAST_4X,
    layout,
    smem_gmem_copy,
    tcgen05_m64_collective,
    tcgen05_m64_collective_native,
    tmem_native_layout,
)
from .smem import SmemLayout, SwizzleTransform, TileTransform, TransposeTransform
from .text import parse_mosaic
from .tpu import TpuTiledLayout, VectorLayout

#: ``mosaic.parse(text)``, as every family's package offers it.
parse = parse_mosaic

__all__ = ["Tiling", "Replicated", "TiledLayout", "WGStridedFragLayout", "WGSplatFragLayout", "Fragmented", "WGMMA", "WGMMA_8BIT",
           "WGMMA_TRANSPOSED", "WGMMA_UPCAST_2X", "WGMMA_UPCAST_4X", "WGMMA_ACC_32BIT", "WGMMA_ROW", "WGMMA_COL",
           "TCGEN05", "TCGEN05_TRANSPOSED", "TCGEN05_ROW", "TCGEN05_COL", "TCGEN05_TMEM_NATIVE", "TMA_INDICES",
           "TMA_INDICES_4", "tmem_native_layout", "tcgen05_m64_collective", "tcgen05_m64_collective_native",
           "smem_gmem_copy", "layout", "NAMES", "SmemLayout", "TileTransform", "TransposeTransform",
           "SwizzleTransform", "VectorLayout", "TpuTiledLayout", "parse", "parse_mosaic", "WARP_SIZE", "WARPS_IN_WARPGROUP", "WARPGROUP_SIZE"]
