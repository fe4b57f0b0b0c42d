"""Mosaic GPU's shared-memory transforms, and the layout of a shared buffer they make.

A Pallas kernel on a GPU copies a block of global memory into shared memory
through a list of transforms (``plgpu.TilingTransform``,
``plgpu.SwizzleTransform``, ``plgpu.TransposeTransform``), which jax prints
as ``#mosaic_gpu.tile<[8, 64]>`` and ``#mosaic_gpu.swizzle<128 : i32>``:

- ``tile<[t0, t1]>``: the trailing dims cut into tiles, tile indices first,
  then the position inside the tile (jax's ``TileTransform``; each dim a
  multiple of its tile);
- ``transpose``: the dims permuted (``TransposeTransform(permutation)``);
- ``swizzle<S>``: the buffer's bytes swizzled as the TMA unit and WGMMA read
  them: in every 128-byte row, the 16-byte chunk ``c`` of ``S // 16`` is
  stored at ``c XOR (row mod S // 16)`` (CuTe's ``Sw<log2(S/16), 4, 3>`` on
  bytes).

``SmemLayout(shape, transforms, dtype)`` is the function "element of the
logical block -> offset (in elements) in the shared buffer".

>>> s = SmemLayout((16, 64), [TileTransform((8, 64)), SwizzleTransform(128)], "f16")
>>> s.offsets()[1, :10].tolist()
[72, 73, 74, 75, 76, 77, 78, 79, 64, 65]
>>> str(s)
'memref<16x64xf16> [#mosaic_gpu.tile<[8, 64]>, #mosaic_gpu.swizzle<128 : i32>]'
"""

from __future__ import annotations

import math
import re

import numpy as np

from ..errors import LayoutError
from .layout import _int, _ints, _num, _seq

__all__ = ["TileTransform", "SwizzleTransform", "TransposeTransform", "SmemLayout", "BITS"]

#: Bits of the element types a shared buffer may hold.
BITS = {"f64": 64, "i64": 64, "f32": 32, "i32": 32, "tf32": 32, "f16": 16, "bf16": 16, "i16": 16, "f8E4M3FN": 8,
        "f8E5M2": 8, "i8": 8, "i4": 4, "f4E2M1FN": 4}


class TileTransform:
    """Tiles the trailing dims (jax's ``TileTransform``; ``#mosaic_gpu.tile<[..]>``).

    >>> TileTransform((64, 32)).transform_shape((5, 128, 128))
    (5, 2, 4, 64, 32)
    """

    __slots__ = ("tiling",)

    def __init__(self, tiling):
        tiling = _ints(tiling, "tiling")
        if not tiling or any(t <= 0 for t in tiling):
            raise LayoutError(f"a tile transform needs positive tile sizes, got {tiling}")
        object.__setattr__(self, "tiling", tiling)

    def __setattr__(self, name, value):
        raise AttributeError("TileTransform is immutable")

    def __eq__(self, other):
        return isinstance(other, TileTransform) and self.tiling == other.tiling

    def __hash__(self):
        return hash(("tile", self.tiling))

    def __str__(self):
        return f"#mosaic_gpu.tile<[{', '.join(map(str, self.tiling))}]>"

    __repr__ = __str__

    def transform_shape(self, shape):
        """The shape after tiling (jax's message when a dim is no multiple of its tile)."""
        k, shape = len(self.tiling), _ints(shape, "shape")
        if k > len(shape) or any(s % t for s, t in zip(shape[-k:], self.tiling)):
            raise LayoutError(f"Expected GMEM slice shape {shape} suffix to be a multiple of tiling {self.tiling}.")
        return (*shape[:-k], *(s // t for s, t in zip(shape[-k:], self.tiling)), *self.tiling)

    def transform_index(self, idx):
        """Each element's index after tiling (vectorised)."""
        k = len(self.tiling)
        idx = _seq(idx, "the index")
        if len(idx) < k:
            raise LayoutError(f"an index of {len(idx)} dims cannot take the tiling {self.tiling}")
        return (*idx[:-k], *(i // t for i, t in zip(idx[-k:], self.tiling)),
                *(i % t for i, t in zip(idx[-k:], self.tiling)))


class TransposeTransform:
    """Permutes the dims (jax's ``TransposeTransform``): dim ``i`` of the result is dim ``permutation[i]``.

    >>> TransposeTransform((1, 0)).transform_shape((4, 8))
    (8, 4)
    """

    __slots__ = ("permutation",)

    def __init__(self, permutation):
        p = _ints(permutation, "permutation")
        if len(p) != len(set(p)):
            raise LayoutError("All elements of `permutation` must be unique")
        object.__setattr__(self, "permutation", p)

    def __setattr__(self, name, value):
        raise AttributeError("TransposeTransform is immutable")

    def __eq__(self, other):
        return isinstance(other, TransposeTransform) and self.permutation == other.permutation

    def __hash__(self):
        return hash(("transpose", self.permutation))

    def __str__(self):
        return f"transpose<[{', '.join(map(str, self.permutation))}]>"

    __repr__ = __str__

    def transform_shape(self, shape):
        """The permuted shape."""
        if sorted(self.permutation) != list(range(len(shape))):
            raise LayoutError(f"permutation {self.permutation} does not permute the {len(shape)} dims of {tuple(shape)}")
        return tuple(shape[p] for p in self.permutation)

    def transform_index(self, idx):
        """The permuted index."""
        return tuple(idx[p] for p in self.permutation)


class SwizzleTransform:
    """The TMA/WGMMA byte swizzle of ``swizzle`` bytes (16, 32, 64 or 128; ``#mosaic_gpu.swizzle<S : i32>``).

    >>> SwizzleTransform(64).swizzle_bytes(np.array([0, 16, 128, 144, 256])).tolist()
    [0, 16, 144, 128, 288]
    """

    __slots__ = ("swizzle",)

    def __init__(self, swizzle):
        s = _int(swizzle, "swizzle")
        if s not in (16, 32, 64, 128):
            raise LayoutError(f"swizzle is 16, 32, 64 or 128 bytes, got {swizzle}")
        object.__setattr__(self, "swizzle", s)

    def __setattr__(self, name, value):
        raise AttributeError("SwizzleTransform is immutable")

    def __eq__(self, other):
        return isinstance(other, SwizzleTransform) and self.swizzle == other.swizzle

    def __hash__(self):
        return hash(("swizzle", self.swizzle))

    def __str__(self):
        return f"#mosaic_gpu.swizzle<{self.swizzle} : i32>"

    __repr__ = __str__

    def swizzle_bytes(self, b):
        """Where byte offset ``b`` lands: the 16-byte chunk XOR the 128-byte row (mod ``swizzle // 16``)."""
        m = self.swizzle // 16 - 1
        return b ^ (((b >> 7) & m) << 4)


class SmemLayout:
    """The shared buffer a list of transforms makes of a ``shape`` block of ``dtype`` (offsets in elements).

    >>> SmemLayout((8, 4), [TransposeTransform((1, 0))], "f32").offsets()[1].tolist()
    [1, 9, 17, 25]
    """

    __slots__ = ("shape", "transforms", "dtype")

    def __init__(self, shape, transforms, dtype="f16"):
        shape = _ints(shape, "shape")
        transforms = _seq(transforms, "the transforms")
        if dtype not in BITS:
            raise LayoutError(f"unknown element type {dtype!r}; choose one of {', '.join(BITS)}")
        for t in transforms:
            if not isinstance(t, (TileTransform, TransposeTransform, SwizzleTransform)):
                raise LayoutError(f"a shared-memory transform is a tile, transpose or swizzle, got {t!r}")
        for t in transforms[:-1]:
            if isinstance(t, SwizzleTransform):
                raise LayoutError("the swizzle is the last transform (it applies to the buffer's bytes)")
        object.__setattr__(self, "shape", shape)
        object.__setattr__(self, "transforms", transforms)
        object.__setattr__(self, "dtype", dtype)
        buf = self.buffer_shape
        sw = self.swizzle
        if sw is not None:
            row_bytes = buf[-1] * BITS[dtype] // 8 if buf else 0
            if row_bytes != sw.swizzle:
                raise LayoutError(f"a {sw.swizzle}-byte swizzle needs the minor dim to hold {sw.swizzle} bytes, "
                                  f"got {buf[-1] if buf else 0} x {BITS[dtype]} bits")

    def __setattr__(self, name, value):
        raise AttributeError("SmemLayout is immutable")

    def __eq__(self, other):
        return isinstance(other, SmemLayout) and (self.shape, self.transforms, self.dtype) == \
            (other.shape, other.transforms, other.dtype)

    def __hash__(self):
        return hash(("SmemLayout", self.shape, self.transforms, self.dtype))

    def __str__(self):
        return (f"memref<{''.join(f'{s}x' for s in self.shape)}{self.dtype}> "
                f"[{', '.join(map(str, self.transforms))}]")

    def __repr__(self):
        return f"<mosaic {self}>"

    @property
    def swizzle(self):
        """The swizzle transform, or None."""
        last = self.transforms[-1] if self.transforms else None
        return last if isinstance(last, SwizzleTransform) else None

    @property
    def buffer_shape(self) -> tuple:
        """The shared buffer's shape after the tile and transpose transforms."""
        shape = self.shape
        for t in self.transforms:
            if not isinstance(t, SwizzleTransform):
                shape = t.transform_shape(shape)
        return shape

    def offsets(self) -> np.ndarray:
        """The buffer offset (in elements) of every element of the block: int64 array of ``shape``."""
        idx = np.indices(self.shape, dtype=np.int64) if self.shape else np.zeros((0,), np.int64)
        idx = tuple(idx)
        for t in self.transforms:
            if not isinstance(t, SwizzleTransform):
                idx = t.transform_index(idx)
        buf = self.buffer_shape
        off = np.zeros(self.shape, dtype=np.int64)
        for i, s in zip(idx, buf):
            off = off * s + i
        sw = self.swizzle
        if sw is not None:
            bits = BITS[self.dtype]
            off = sw.swizzle_bytes(off * bits // 8) * 8 // bits + off % max(1, 8 // bits)
        return off

    @property
    def size(self) -> int:
        """Elements in the block (and in the buffer: the transforms pad nothing)."""
        return math.prod(self.shape)


_MEMREF = re.compile(r"memref<((?:\d+x)*)([A-Za-z0-9]+)>")



def memref_shape(text, at=0):
    """``(shape, dtype, end)`` of the ``memref<64x128xf16>`` at ``at`` in ``text``, or None.

    >>> memref_shape("memref<64x128xf16> [..]")
    ((64, 128), 'f16', 18)
    """
    m = _MEMREF.match(text, at)
    if not m:
        return None
    return tuple(_num(s, "a dim") for s in m.group(1).split("x")[:-1]), m.group(2), m.end()
