"""The named layouts of Pallas's ``plgpu.Layout``, as jax 0.10 defines them (``fragmented_array``, ``tcgen05``).

Constants for the fixed ones; functions for those that take arguments
(``tmem_native_layout(vector_length)``, ``tcgen05_m64_collective(columns)``,
``smem_gmem_copy(shape, bitwidth, swizzle)``, ...); ``layout(name, *args)``
answers by ``plgpu.Layout``'s member name, as ``plgpu.Layout.X(*args).to_mgpu()``.

>>> print(WGMMA)
#mosaic_gpu.TiledLayout<[[64, 8], [16, 8], [8, 8], [2]], warp_dims = [-7], lane_dims = [-3, -2], vector_dim = -1>
>>> layout("TCGEN05_TMEM_NATIVE", 4).vector_length
4
"""

from __future__ import annotations

from ..errors import LayoutError
from .frag import WGSplatFragLayout, WGStridedFragLayout
from .layout import WARP_SIZE, Replicated, TiledLayout, Tiling, _int, _ints

__all__ = ["WGMMA", "WGMMA_8BIT", "WGMMA_TRANSPOSED", "WGMMA_UPCAST_2X", "WGMMA_UPCAST_4X", "WGMMA_ACC_32BIT",
           "WGMMA_ROW", "WGMMA_COL", "TCGEN05", "TCGEN05_TRANSPOSED", "TCGEN05_ROW", "TCGEN05_COL",
           "TCGEN05_TMEM_NATIVE", "TMA_INDICES", "TMA_INDICES_4", "tmem_native_layout", "tcgen05_m64_collective",
           "tcgen05_m64_collective_native", "smem_gmem_copy", "layout", "NAMES"]

TMEM_ROWS = 128

WGMMA = TiledLayout(Tiling(((64, 8), (16, 8), (8, 8), (2,))), (-7,), (-3, -2), -1)
WGMMA_ACC_32BIT = TiledLayout(Tiling(((64, 8), (16, 8), (8, 8), (2,), (1,))), (-8,), (-4, -3), -1)
WGMMA_8BIT = TiledLayout(Tiling(((64, 16), (16, 16), (8, 16), (4,))), (-7,), (-3, -2), -1)
WGMMA_UPCAST_2X = TiledLayout(Tiling(((64, 16), (16, 16), (8, 16), (8,), (4,))), (-8,), (-4, -2, -3), -1)
WGMMA_UPCAST_4X = TiledLayout(Tiling(((64, 32), (16, 32), (8, 32), (8,))), (-7,), (-3, -2), -1)
WGMMA_TRANSPOSED = TiledLayout(Tiling(((64, 8), (16, 8), (8, 8), (2, 2), (2, 1))), (-10,), (-6, -3, -5), -2)
WGMMA_ROW = TiledLayout(Tiling(((64,), (16,), (8,), (1,))), (-4,), (-2, Replicated(4)), -1)
WGMMA_COL = TiledLayout(Tiling(((8,), (2,))), (Replicated(4),), (Replicated(8), -2), -1)
TCGEN05 = TiledLayout(Tiling(((128, 8), (32, 8), (8, 8), (2,))), (-7,), (-3, -2), -1)
TCGEN05_TRANSPOSED = TiledLayout(Tiling(((128, 8), (32, 8), (8, 8), (2, 2), (2, 1))), (-10,), (-6, -3, -5), -2)
TCGEN05_ROW = TiledLayout(Tiling(((128,), (32,), (8,), (1,))), (-4,), (-2, Replicated(4)), -1)
TCGEN05_COL = TiledLayout(Tiling(((8,), (2,))), (Replicated(4),), (Replicated(8), -2), -1)
TMA_INDICES = TiledLayout(Tiling(((16,), (4,))), (-2,), (Replicated(32),), -1)
TMA_INDICES_4 = TiledLayout(Tiling(((4,),)), (Replicated(4),), (Replicated(32),), -1)


def tmem_native_layout(vector_length: int) -> TiledLayout:
    """TMEM's own organisation in registers: the 128 rows of a tile on the 128 threads (jax's function).

    >>> print(tmem_native_layout(2))
    #mosaic_gpu.TiledLayout<[[128, 2], [32, 2]], warp_dims = [-4], lane_dims = [-2], vector_dim = -1>
    """
    v = _int(vector_length, "vector_length")
    return TiledLayout(Tiling(((128, v), (32, v))), (-4,), (-2,), -1)


TCGEN05_TMEM_NATIVE = tmem_native_layout(2)


def _columns(columns):
    if _int(columns, "columns") % 16:
        raise LayoutError(f"Columns must be a multiple of 16, got: {columns}")
    return int(columns)


def tcgen05_m64_collective(columns: int) -> TiledLayout:
    """The registers of a 2-CTA M=128 tcgen05 transfer (``plgpu.Layout.TCGEN05_M64_COLLECTIVE(columns)``).

    >>> tcgen05_m64_collective(32).base_tile_shape
    (64, 32)
    """
    c = _columns(columns)
    return TiledLayout(Tiling(((TMEM_ROWS // 2, c), (WARP_SIZE, c // 2), (8, 8), (2,))), (-6, -7), (-3, -2), -1)


def tcgen05_m64_collective_native(columns: int, packing: int = 1) -> TiledLayout:
    """The TMEM M64 collective layout read as registers (``TCGEN05_M64_COLLECTIVE_NATIVE(columns, packing)``).

    >>> tcgen05_m64_collective_native(16).vector_length
    1
    """
    packing = _int(packing, "packing")
    if packing > 8 or packing <= 0 or packing & (packing - 1):
        raise LayoutError(f"Packing must be <= 8 and a power of 2, got: {packing}")
    c = _columns(columns)
    return TiledLayout(Tiling(((TMEM_ROWS // 2, c), (WARP_SIZE, c // 2), (packing,))), (-4, -5), (-3,), -1)


def smem_gmem_copy(shape, bitwidth: int, swizzle: int) -> TiledLayout:
    """The layout Pallas copies a swizzled SMEM tile with (``plgpu.Layout.SMEM_GMEM_COPY(shape, dtype, swizzle)``).

    ``bitwidth`` is the dtype's bits; the SMEM is tiled ``(8, 8 * swizzle // bitwidth)``.

    >>> smem_gmem_copy((64, 64), 16, 128).vector_length
    8
    """
    bitwidth, swizzle = _int(bitwidth, "bitwidth"), _int(swizzle, "swizzle")
    if bitwidth <= 0 or swizzle <= 0:
        raise LayoutError(f"bitwidth and swizzle must be positive, got {bitwidth} and {swizzle}")
    elems = 8 * swizzle // bitwidth
    shape = _ints(shape, "shape")
    if len(shape) < 2 or shape[-2] % 8 or shape[-1] % elems:
        raise LayoutError(f"Non-divisible tiling: {shape} {(8, elems)}")
    rows, cols = shape[-2] // 8, shape[-1] // elems
    if rows % 4 == 0:
        wr, wc = 4, 1
    elif rows % 2 == 0:
        if cols % 2:
            raise LayoutError("Number of tiles is not a multiple of 4")
        wr, wc = 2, 2
    else:
        if cols % 4:
            raise LayoutError("Number of tiles is not a multiple of 4")
        wr, wc = 1, 4
    rows, cols = rows // wr, cols // wc
    per_thread = min(16, 8 * swizzle // WARP_SIZE)
    lr = lc = 1
    if per_thread < 16:  # spread several tiles over a warp, columns first
        scale = 16 // per_thread
        while scale > 1 and cols % 2 == 0:
            scale, lc, cols = scale // 2, lc * 2, cols // 2
        while scale > 1 and rows % 2 == 0:
            scale, lr, rows = scale // 2, lr * 2, rows // 2
        per_thread *= lr * lc
    if 8 * per_thread < bitwidth:
        raise LayoutError("Element types with bitwidth so large aren't supported")
    vec = per_thread * 8 // bitwidth
    steps = 1 if vec * WARP_SIZE > 8 * elems else 8 * elems // (vec * WARP_SIZE)
    tiles = ((wr * lr * 8, wc * lc * elems), (lr * 8, lc * elems), (8, elems), (8 // steps, elems), (vec,))
    return TiledLayout(Tiling(tiles), (-9, -8), (-7, -6, -3, -2), -1, check_canonical=False).canonicalize()


_FIXED = {"WGMMA": WGMMA, "WGMMA_8BIT": WGMMA_8BIT, "WGMMA_UPCAST_2X": WGMMA_UPCAST_2X,
          "WGMMA_UPCAST_4X": WGMMA_UPCAST_4X, "WGMMA_TRANSPOSED": WGMMA_TRANSPOSED, "TCGEN05": TCGEN05,
          "TCGEN05_TRANSPOSED": TCGEN05_TRANSPOSED, "TMA_INDICES": TMA_INDICES, "TMA_INDICES_4": TMA_INDICES_4,
          "_WGMMA_ACC_32BIT": WGMMA_ACC_32BIT}
_BUILT = {"WG_SPLAT": WGSplatFragLayout, "WG_STRIDED": WGStridedFragLayout, "TILED": TiledLayout,
          "TCGEN05_M64_COLLECTIVE": tcgen05_m64_collective,
          "TCGEN05_M64_COLLECTIVE_NATIVE": tcgen05_m64_collective_native, "SMEM_GMEM_COPY": smem_gmem_copy}
#: Every member name of ``plgpu.Layout`` (jax 0.10.2) that ``layout`` answers.
NAMES = (*_FIXED, "TCGEN05_TMEM_NATIVE", *_BUILT)


def layout(name: str, *args, **kwargs):
    """``plgpu.Layout.<name>(*args, **kwargs).to_mgpu()`` (``SMEM_GMEM_COPY`` takes the dtype's bitwidth).

    >>> layout("WGMMA") is WGMMA, str(layout("WG_STRIDED", (128,), 1))
    (True, '#mosaic_gpu.WGStridedFragLayout<[128], 1>')
    >>> layout("WGMMA", 2)
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: Can't instantiate Layout.WGMMA with arguments.
    """
    name = str(name).removeprefix("Layout.")
    if name in _FIXED:
        if args or kwargs:
            if name not in ("TMA_INDICES", "TMA_INDICES_4"):
                raise LayoutError(f"Can't instantiate Layout.{name} with arguments.")
        return _FIXED[name]
    if name == "TCGEN05_TMEM_NATIVE":
        return tmem_native_layout(*args, **kwargs) if args or kwargs else TCGEN05_TMEM_NATIVE
    if name in _BUILT:
        try:
            return _BUILT[name](*args, **kwargs)
        except TypeError as e:
            raise LayoutError(f"Layout.{name}: {e}") from None
    raise LayoutError(f"unknown plgpu.Layout {name!r}; choose one of {', '.join(NAMES)}")
