"""The XLA layout value ``XlaLayout``: an array shape with a (tiled) layout, its buffer offsets and affine map.

An XLA shape with a layout says where each element of an array lives in
one linear buffer. ``{1,0}`` is ``minor_to_major``: dim 1 varies fastest.
Laid out major-to-minor, the dims are ``(d[mtm[-1]], ..., d[mtm[0]])``.
A tile ``T(t1,...,tk)`` tiles the ``k`` most minor of them: a dim ``e`` of
size ``d`` tiled by ``t`` becomes two, ``e floordiv t`` (size ``ceil(d/t)``)
among the tile indices and ``e mod t`` (size ``t``) inside the tile:

    linear_index_with_tile(e, d, t) = linear_index((e // t, e % t), (ceil(d/t), t))

(tile indices first, then in-tile offsets, all row-major). A second tile
``(2,1)`` tiles the result again (its two most minor dims, here the
``8 x 128`` inside each tile: pairs of rows interleave, as bf16 packs two
rows in a 32-bit word). Where a tile does not divide a dim, the buffer is
padded (the elements past the array are never read).

``f32[3,5]{1,0:T(2,2)}`` (XLA's own example): 2x3 tiles of 2x2, 24 slots.

>>> L = XlaLayout("f32", (3, 5), (1, 0), ((2, 2),))
>>> L.buffer_shape, L.storage_size
((2, 3, 2, 2), 24)
>>> L.offsets().tolist()
[[0, 1, 4, 5, 8], [2, 3, 6, 7, 10], [12, 13, 16, 17, 20]]
>>> print(L.to_affine())
(d0, d1) -> ((d0 floordiv 2) * 12 + (d1 floordiv 2) * 4 + (d0 mod 2) * 2 + d1 mod 2)

Reading the text is ``xla.text.parse_xla_layout``; the forms in other
families (a CuTe layout where no tile pads a dim, a tt metal layout) are
``unilayout.convert.xla``'s ``xla_to_cute`` and ``xla_to_metal``.
"""

from __future__ import annotations

import numpy as np

from .._ints import INT64_MAX, as_nonneg, as_positive, as_shape, check_table, product
from ..errors import LayoutError, NotRepresentableError

__all__ = ["XlaLayout"]


class XlaLayout:
    """An XLA array shape with a (tiled) layout: element type, dims, ``minor_to_major``, tiles, memory space.

    ``XlaLayout(element_type, dims, minor_to_major=None, tiles=(), memory_space=None)``;
    ``minor_to_major`` defaults to row-major (``n-1, ..., 0``).

    **Post-condition**: ``parse_xla_layout(str(L)) == L``.

    >>> L = XlaLayout("bf16", (128, 256), (1, 0), ((8, 128), (2, 1)))
    >>> L
    XlaLayout('bf16', (128, 256), (1, 0), ((8, 128), (2, 1)))
    >>> str(L), L(1, 0), L(2, 0)
    ('bf16[128,256]{1,0:T(8,128)(2,1)}', 1, 256)
    """

    __slots__ = ("element_type", "dims", "minor_to_major", "tiles", "memory_space", "_items")

    def __init__(self, element_type, dims, minor_to_major=None, tiles=(), memory_space=None):
        if not isinstance(element_type, str) or not element_type.isidentifier():
            raise LayoutError(f"element type must be a name such as f32 or bf16, got {element_type!r}")
        dims = as_shape(dims, "XLA dims")
        n = len(dims)
        mtm = tuple(range(n - 1, -1, -1)) if minor_to_major is None else as_shape(minor_to_major, "minor_to_major")
        if sorted(mtm) != list(range(n)):
            raise LayoutError(f"minor_to_major {list(mtm)} is not a permutation of the {n} dims")
        tl = []
        for k, t in enumerate(tiles):
            t = as_shape(t, f"tile {k}")
            if not t:
                raise LayoutError(f"tile {k} is empty")
            tl.append(tuple(as_positive(v, f"tile {k} dim {j}") for j, v in enumerate(t)))
        object.__setattr__(self, "element_type", element_type)
        object.__setattr__(self, "dims", dims)
        object.__setattr__(self, "minor_to_major", mtm)
        object.__setattr__(self, "tiles", tuple(tl))
        object.__setattr__(self, "memory_space", None if memory_space is None else as_nonneg(memory_space, "memory space"))
        # the buffer's dims as (logical dim, ops, size): the value is x[dim] put through ops, a tuple of
        # ("div", k) / ("mod", k) (a mod that cannot change the value is left out), in [0, size)
        items = [(i, (), dims[i]) for i in reversed(mtm)]
        for k, t in enumerate(self.tiles):
            if len(t) > len(items):
                raise LayoutError(f"tile {k} {t} has {len(t)} dims but the shape it tiles has {len(items)}")
            tail = items[len(items) - len(t):]
            outer, inner = [], []
            for (i, ops, size), tt in zip(tail, t):
                outer.append((i, ops + ((("div", tt),) if tt > 1 else ()), -(-size // tt)))
                inner.append((i, ops + ((("mod", tt),) if size > tt else ()), tt))
            items[len(items) - len(t):] = outer + inner  # in place: each tile costs its own dims, not the buffer's
        storage = product(size for _, _, size in items)
        if storage - 1 > INT64_MAX:  # offsets are int64 (offsets(), numpy): the last must fit, as __call__ gives it
            shown = [size for _, _, size in items] if len(items) <= 16 else f"of {len(items)} dims"
            raise NotRepresentableError(
                f"the buffer {shown} holds {storage} elements: offsets past {INT64_MAX} (int64) are not modelled")
        object.__setattr__(self, "_items", tuple(items))

    def __setattr__(self, name, value):
        raise AttributeError("XlaLayout is immutable")

    @property
    def buffer_shape(self) -> tuple:
        """The tiled buffer's dims, major to minor (tile indices, then in-tile offsets, per tiling).

        >>> XlaLayout("f32", (128, 256), (1, 0), ((8, 128), (2, 1))).buffer_shape
        (16, 2, 4, 128, 2, 1)
        """
        return tuple(size for _, _, size in self._items)

    @property
    def storage_size(self) -> int:
        """Elements of the buffer, padding included.

        >>> XlaLayout("f32", (3, 5), (1, 0), ((2, 2),)).storage_size
        24
        """
        return product(self.buffer_shape)

    @property
    def padded(self) -> bool:
        """Whether the buffer is larger than the array (some tile does not divide its dim).

        >>> XlaLayout("f32", (3, 5), (1, 0), ((2, 2),)).padded, XlaLayout("f32", (4, 4), (1, 0), ((2, 2),)).padded
        (True, False)
        """
        return self.storage_size != product(self.dims)

    @property
    def buffer_dims(self) -> tuple:
        """The buffer's dims, major to minor, as ``(logical dim, ops, size)``.

        Along such a dim the buffer index is the element's index ``x[dim]`` put
        through ``ops``, a tuple of ``("div", k)`` / ``("mod", k)`` (a mod that
        cannot change the value is left out), in ``[0, size)``.

        >>> XlaLayout("f32", (3, 5), (1, 0), ((2, 2),)).buffer_dims
        ((0, (('div', 2),), 2), (1, (('div', 2),), 3), (0, (('mod', 2),), 2), (1, (('mod', 2),), 2))
        """
        return self._items

    @property
    def buffer_strides(self) -> tuple:
        """The element stride of each buffer dim (row-major over ``buffer_shape``).

        >>> XlaLayout("f32", (3, 5), (1, 0), ((2, 2),)).buffer_strides
        (12, 4, 2, 1)
        """
        out, acc = [], 1
        for size in reversed(self.buffer_shape):
            out.append(acc)
            acc *= size
        return tuple(reversed(out))

    def __call__(self, *index) -> int:
        """The buffer offset of one element.

        >>> XlaLayout("f32", (3, 5), (1, 0), ((2, 2),))(2, 4)
        20
        """
        if len(index) == 1 and isinstance(index[0], tuple):
            index = index[0]
        if len(index) != len(self.dims) or any(not (isinstance(v, (int, np.integer)) and 0 <= v < n)
                                                 for v, n in zip(index, self.dims)):
            raise LayoutError(f"index {index} is outside the array {list(self.dims)}")
        return sum(_apply(int(index[i]), ops) * s for (i, ops, size), s in zip(self._items, self.buffer_strides))

    def offsets(self) -> np.ndarray:
        """int64 array of ``dims``: each element's buffer offset (vectorised).

        >>> XlaLayout("f32", (2, 3), (0, 1)).offsets().tolist()
        [[0, 2, 4], [1, 3, 5]]
        """
        if check_table(product(self.dims), "XlaLayout.offsets") == 0:  # no element (its strides may pass int64)
            try:
                return np.zeros(self.dims, dtype=np.int64)
            except ValueError:  # numpy bounds the other dims' product even when one is 0
                raise NotRepresentableError(f"dims {list(self.dims)}: numpy has no array of this shape") from None
        r = len(self.dims)
        idx = [np.arange(n, dtype=np.int64).reshape((-1,) + (1,) * (r - 1 - i)) for i, n in enumerate(self.dims)]
        out = np.zeros(self.dims, dtype=np.int64)
        for (i, ops, size), s in zip(self._items, self.buffer_strides):
            if size > 1:  # a dim of size 1 adds 0; its stride may be the whole 2**63-slot buffer, past int64
                out += _apply(idx[i], ops) * s
        return out

    def to_affine(self):
        """The offset as an MLIR affine map of the logical index (always exact).

        >>> print(XlaLayout("f32", (8, 8), (0, 1)).to_affine())
        (d0, d1) -> (d1 * 8 + d0)
        """
        from ..affine import AffineMap, constant, dim  # lazy: import time (xla loads without affine)

        total = None
        for (i, ops, size), s in zip(self._items, self.buffer_strides):
            if size == 1:
                continue
            e = dim(i)
            for op, k in ops:
                e = e.floordiv(k) if op == "div" else e % k
            if s != 1:
                e = e * s
            total = e if total is None else total + e
        return AffineMap(len(self.dims), 0, (constant(0) if total is None else total,))

    def to_cute(self):
        """Deprecated (a conversion, now ``unilayout.convert.xla_to_cute``): the CuTe layout, where no tile pads.

        >>> print(XlaLayout("f32", (4, 4), (1, 0), ((2, 2),)).to_cute())
        ((2,2),(2,2)):((2,8),(1,4))
        """
        from ..convert.xla import xla_to_cute  # lazy: deprecated delegate, moved to convert.xla

        return xla_to_cute(self)

    def to_metal(self, oob_val="undef"):
        """Deprecated (a conversion, now ``unilayout.convert.xla_to_metal``): the one-shard tt ``MetalLayout``.

        >>> print(XlaLayout("f32", (3, 5), (1, 0), ((2, 2),)).to_metal())
        tensor<3x5xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <1x1>, memref<2x3x!tt.tile<2x2, f32>, #tt.memory_space<l1>>>>
        """
        from ..convert.xla import xla_to_metal  # lazy: deprecated delegate, moved to convert.xla

        return xla_to_metal(self, oob_val)

    # --- JAX ----------------------------------------------------------------------------------
    @staticmethod
    def from_jax(layout, shape, dtype="float32") -> "XlaLayout":
        """From a ``jax.experimental.layout.Layout`` (``major_to_minor``, ``tiling``) of an array of ``shape``.

        ``dtype`` is a numpy/JAX dtype (its XLA name: float32 -> f32, bfloat16 -> bf16, int8 -> s8, bool -> pred).

        >>> from jax.experimental.layout import Layout
        >>> str(XlaLayout.from_jax(Layout((0, 1), ((8, 128), (2, 1))), (128, 256), "bfloat16"))
        'bf16[128,256]{1,0:T(8,128)(2,1)}'
        """
        mtm = getattr(layout, "major_to_minor", None)
        if mtm is None:
            raise LayoutError(f"expected a jax.experimental.layout.Layout, got {type(layout).__name__}")
        if getattr(layout, "sub_byte_element_size_in_bits", 0):
            raise NotRepresentableError("sub-byte element sizes are not modelled")
        return XlaLayout(_xla_type(dtype), shape, tuple(reversed(tuple(mtm))), tuple(layout.tiling or ()))

    def to_jax(self):
        """The ``jax.experimental.layout.Layout`` of this layout (memory space dropped).

        >>> XlaLayout("f32", (8, 256), (0, 1), ((8, 128),)).to_jax()
        Layout(major_to_minor=(1, 0), tiling=((8, 128),), sub_byte_element_size_in_bits=0)
        """
        from jax.experimental.layout import Layout  # lazy: jax is optional

        return Layout(tuple(reversed(self.minor_to_major)), self.tiles)

    # --- value ------------------------------------------------------------------------------
    def _key(self):
        return (self.element_type, self.dims, self.minor_to_major, self.tiles, self.memory_space)

    def __eq__(self, other):
        return isinstance(other, XlaLayout) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        extra = f", memory_space={self.memory_space}" if self.memory_space is not None else ""
        return (f"XlaLayout({self.element_type!r}, {self.dims!r}, {self.minor_to_major!r}, {self.tiles!r}{extra})")

    def __str__(self):
        tiles = "".join("(" + ",".join(map(str, t)) + ")" for t in self.tiles)
        layout = ",".join(map(str, self.minor_to_major))
        if tiles or self.memory_space is not None:
            layout += ":" + (("T" + tiles) if tiles else "") + (f"S({self.memory_space})" if self.memory_space is not None else "")
        return f"{self.element_type}[{','.join(map(str, self.dims))}]{{{layout}}}"


_XLA_TYPES = {"bool": "pred", "bfloat16": "bf16", "float16": "f16", "float32": "f32", "float64": "f64",
              "int8": "s8", "int16": "s16", "int32": "s32", "int64": "s64", "uint8": "u8", "uint16": "u16",
              "uint32": "u32", "uint64": "u64", "complex64": "c64", "complex128": "c128"}


def _xla_type(dtype) -> str:
    name = getattr(dtype, "name", None) or str(dtype)
    name = getattr(np.dtype(name), "name", name) if name in np.sctypeDict else name
    if name not in _XLA_TYPES:
        raise LayoutError(f"dtype {dtype!r} has no XLA element type here (one of {', '.join(_XLA_TYPES)})")
    return _XLA_TYPES[name]


def _apply(v, ops):
    for op, k in ops:
        v = v // k if op == "div" else v % k
    return v
