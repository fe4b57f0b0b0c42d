"""Mosaic GPU layouts (family ``mosaic``) as Triton linear layouts and CuTe (thread, value) layouts.

A Mosaic GPU register layout over an array ``shape`` is, for every thread of
the warpgroup (``32 * warp + lane``) and every value it holds (``register *
vector_length + element``), the element it holds. Every mode of it (a lane
dim, a warp dim, the vector, a register dim; ``TiledLayout.modes``) steps
one array dim by a fixed amount, so:

- ``mosaic_to_cute`` (the contract's ``to_cute_tv(shape)``): the CuTe layout
  ``(thread, value) -> column-major index of the element in shape`` (CuTe's
  own convention for MMA fragments: ``m + M * n``), always exact;
  replicated dims have stride 0;
- ``mosaic_to_linear`` (the contract's ``to_linear(shape)``): the linear layout with
  in-dims ``register`` (the value index), ``lane``, ``warp`` and out-dims
  ``dim0..`` (Triton's order), exact when every mode and dim is a power of
  two (else NotRepresentableError with the mode that is not);
- ``smem_to_cute``: a shared buffer as the CuTe layout "column-major
  coordinate -> offset", composed with the swizzle ``Sw<B, M, 3>`` on elements;
- ``tpu_to_xla`` / ``xla_to_tpu``: a Mosaic TPU tiled memref and the XLA layout
  of the same buffer, where the tile strides are row-major (a TPU memref's
  CuTe and linear forms go through its XLA layout).

The WGMMA accumulator is CuTe's SM90 GMMA ``CLayout_64xN`` exactly:

>>> from unilayout import mosaic
>>> str(mosaic_to_cute(mosaic.WGMMA, (64, 32)))
'((4,8,4),(2,2,4)):((128,1,16),(64,8,512))'
>>> mosaic_to_linear(mosaic.WGMMA, (64, 16)).bases[0]
('register', [[0, 1], [8, 0], [0, 8]])
"""

from __future__ import annotations

from ..cute import ComposedLayout, Layout, Swizzle
from ..errors import LayoutError, NotRepresentableError
from ..linear import LinearLayout
from ..mosaic import Fragmented, SmemLayout, TiledLayout, WGSplatFragLayout, WGStridedFragLayout
from ..mosaic.smem import BITS, SwizzleTransform, TileTransform, TransposeTransform
from ..mosaic.tpu import TpuTiledLayout, VectorLayout
from ..xla import XlaLayout, parse_xla_layout
from .cute_linear import cute_to_linear
from .xla import xla_to_cute

__all__ = ["mosaic_to_linear", "mosaic_to_cute", "smem_to_cute", "tpu_to_xla", "xla_to_tpu", "PAIRS"]


def _shape(v, shape):
    if shape is None:
        shape = v.base_tile_shape if isinstance(v, TiledLayout) else getattr(v, "shape", None)
    if shape is None:
        raise LayoutError(f"{v} needs a shape")
    return tuple(int(s) for s in shape)


def _register_layout(v):
    if isinstance(v, VectorLayout):
        raise NotRepresentableError(f"{v} places an array in TPU vregs (vreg, sublane, lane, packed): no thread "
                                    "or register to map; its table is index_map")
    if isinstance(v, (TileTransform, SwizzleTransform)):
        raise NotRepresentableError(f"{v} is a transform: it makes a layout of a shared buffer "
                                    "(mosaic.SmemLayout) once given the buffer's shape and element type")
    if isinstance(v, WGSplatFragLayout):
        raise NotRepresentableError("a WGSplatFragLayout holds one value for the whole array: every element is the "
                                    "same register of every thread, so no (thread, value) maps to one element")
    if not isinstance(v, (TiledLayout, WGStridedFragLayout)):
        raise LayoutError(f"expected a Mosaic GPU register layout, got {type(v).__name__}")


def mosaic_to_cute(v, shape=None) -> Layout:
    """The CuTe layout ``(thread, value) -> column-major index`` of ``v`` over ``shape`` (default: its base tile).

    >>> from unilayout import mosaic
    >>> str(mosaic_to_cute(mosaic.WGMMA_COL, (16,)))
    '((4,8,4),(2,2)):((2,0,0),(1,8))'
    """
    if isinstance(v, SmemLayout):
        return smem_to_cute(v)
    if isinstance(v, TpuTiledLayout):
        return xla_to_cute(tpu_to_xla(v))
    if isinstance(v, Fragmented):
        v, shape = v.layout, v.shape if shape is None else shape
    _register_layout(v)
    shape = _shape(v, shape)
    tmodes, vmodes = v.modes(shape)
    col = [1]
    for s in shape[:-1]:
        col.append(col[-1] * s)

    def part(modes):
        modes = modes or [(1, None, 0)]
        sizes = tuple(s for s, _, _ in modes)
        strides = tuple(0 if d is None else step * col[d] for _, d, step in modes)
        return (sizes[0], strides[0]) if len(sizes) == 1 else (sizes, strides)

    (ts, tt), (vs, vt) = part(tmodes), part(vmodes)
    return Layout((ts, vs), (tt, vt))


def _bits(n, what):
    if n <= 0 or n & (n - 1):
        raise NotRepresentableError(f"{what} has size {n}, not a power of two: a linear layout maps bits")
    return n.bit_length() - 1


def mosaic_to_linear(v, shape=None) -> LinearLayout:
    """The linear layout (in-dims ``register``, ``lane``, ``warp``; out-dims ``dim0..``) of ``v`` over ``shape``.

    >>> from unilayout import mosaic
    >>> L = mosaic_to_linear(mosaic.TMA_INDICES, (16,))
    >>> L.bases
    [('register', [[1], [2]]), ('lane', [[0], [0], [0], [0], [0]]), ('warp', [[4], [8]])]
    >>> mosaic_to_linear(mosaic.WGMMA, (64, 24))
    Traceback (most recent call last):
    ...
    unilayout.errors.NotRepresentableError: dim 1 has size 24, not a power of two: a linear layout maps bits
    """
    if isinstance(v, (SmemLayout, TpuTiledLayout)):
        return cute_to_linear(mosaic_to_cute(v))
    if isinstance(v, Fragmented):
        v, shape = v.layout, v.shape if shape is None else shape
    _register_layout(v)
    shape = _shape(v, shape)
    for i, s in enumerate(shape):
        _bits(s, f"dim {i}")
    tmodes, vmodes = v.modes(shape)
    n = len(shape)

    def bases(modes, what):
        out = []
        for size, d, step in modes:
            for b in range(_bits(size, f"a {what} mode")):
                vec = [0] * n
                if d is not None:
                    vec[d] = step << b
                out.append(vec)
        return out

    threads = bases(tmodes, "thread")
    return LinearLayout([("register", bases(vmodes, "value")), ("lane", threads[:5]), ("warp", threads[5:])],
                        [(f"dim{i}", s) for i, s in enumerate(shape)], require_surjective=False)


def smem_to_cute(s: SmemLayout):
    """A shared buffer as CuTe: ``Layout`` (column-major coordinate -> offset), swizzled: ``Sw<B,M,3> o 0 o Layout``.

    >>> from unilayout import mosaic
    >>> s = mosaic.SmemLayout((16, 64), [mosaic.TileTransform((8, 64)), mosaic.SwizzleTransform(128)], "f16")
    >>> str(smem_to_cute(s))
    'Sw<3,3,3> o 0 o ((8,2),64):((64,512),1)'
    """
    if not isinstance(s, SmemLayout):
        raise LayoutError(f"expected a mosaic.SmemLayout, got {type(s).__name__}")
    dims = [(d, 1, n) for d, n in enumerate(s.shape)]  # per buffer dim: (array dim, step in it, size)
    for t in s.transforms:
        if isinstance(t, TileTransform):
            k = len(t.tiling)
            t.transform_shape(s.shape if not dims else tuple(n for _, _, n in dims))
            head, tail = dims[:-k], dims[-k:]
            dims = head + [(d, st * tt, n // tt) for (d, st, n), tt in zip(tail, t.tiling)] + \
                [(d, st, tt) for (d, st, _), tt in zip(tail, t.tiling)]
        elif isinstance(t, TransposeTransform):
            dims = [dims[p] for p in t.permutation]
    stride, strides = 1, [0] * len(dims)
    for i in reversed(range(len(dims))):
        strides[i] = stride
        stride *= dims[i][2]
    modes = []
    for d in range(len(s.shape)):
        mine = sorted((st, n, strides[i]) for i, (dd, st, n) in enumerate(dims) if dd == d and n > 1)
        sizes, strs = tuple(n for _, n, _ in mine) or (1,), tuple(x for _, _, x in mine) or (0,)
        modes.append((sizes[0], strs[0]) if len(sizes) == 1 else (sizes, strs))
    lay = Layout(tuple(m[0] for m in modes), tuple(m[1] for m in modes))
    sw = s.swizzle
    if sw is None:
        return lay
    bits = BITS[s.dtype]
    if bits < 8:
        raise NotRepresentableError(f"a swizzle of {bits}-bit elements moves half bytes: CuTe swizzles whole elements")
    m = 4 - ((bits // 8).bit_length() - 1)
    return ComposedLayout(Swizzle((sw.swizzle // 16).bit_length() - 1, m, 3), 0, lay)


def tpu_to_xla(t: TpuTiledLayout) -> XlaLayout:
    """A Mosaic TPU tiled memref as the XLA layout of the same buffer (row-major tile strides only).

    >>> from unilayout import mosaic
    >>> str(tpu_to_xla(mosaic.parse("memref<16x256xbf16, #tpu.tiled<(16,128)(2,1),[2,1]>>")))
    'bf16[16,256]{1,0:T(16,128)(2,1)}'
    >>> tpu_to_xla(mosaic.parse("memref<16x256xf32, #tpu.tiled<(8,128),[1,2]>>"))
    Traceback (most recent call last):
    ...
    unilayout.errors.NotRepresentableError: tile strides [1, 2] are not the row-major ones [2, 1]: XLA's layouts have no such gaps
    """
    if not isinstance(t, TpuTiledLayout):
        raise NotRepresentableError(f"only a Mosaic TPU memref layout has an XLA form, not a {type(t).__name__}")
    try:
        return parse_xla_layout(t.xla_text())
    except NotRepresentableError:
        raise
    except LayoutError as e:
        raise NotRepresentableError(str(e)) from None


def xla_to_tpu(x: XlaLayout) -> TpuTiledLayout:
    """An XLA layout as the Mosaic TPU tiled memref of the same buffer (row-major dims only).

    >>> from unilayout import xla
    >>> str(xla_to_tpu(xla.parse("f32[16,256]{1,0:T(8,128)}")))
    'memref<16x256xf32, #tpu.tiled<(8,128),[2,1]>>'
    """
    n = len(x.dims)
    if tuple(x.minor_to_major) != tuple(range(n - 1, -1, -1)):
        raise NotRepresentableError(f"minor_to_major {list(x.minor_to_major)} is not row-major: a Mosaic TPU "
                                    "memref orders its dims row-major and steps tiles by tile_strides")
    first = tuple(x.tiles[0]) if x.tiles else ()
    k = len(first)
    counts = [-(-d // first[i - (n - k)]) if i >= n - k else d for i, d in enumerate(x.dims)]
    strides, acc = [0] * n, 1
    for i in reversed(range(n)):
        strides[i], acc = acc, acc * counts[i]
    t = TpuTiledLayout(x.tiles, strides, x.dims, x.element_type)
    if t.xla_text() != str(x).split(" ")[0]:
        raise NotRepresentableError(f"{x} has no Mosaic TPU memref form with the same buffer")
    return t


#: The pairs this file gives ``convert_to`` (a register layout on its own or base-tile shape).
PAIRS = {("mosaic", "linear"): mosaic_to_linear, ("mosaic", "cute"): mosaic_to_cute, ("mosaic", "xla"): tpu_to_xla,
         ("xla", "mosaic"): xla_to_tpu}
