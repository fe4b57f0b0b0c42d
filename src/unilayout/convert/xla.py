"""XLA tiled layouts (``xla.XlaLayout``, family ``xla``) to the layout families and to a tt metal layout.

An XLA layout is the function "element index -> buffer offset" over its
dims. Its affine map is always exact (floordiv/mod per tile level, the
family's own ``XlaLayout.to_affine``); a CuTe layout exists where no tile
pads its dim (``xla_to_cute``), and linear / TSL forms go through that CuTe
layout (exact, or ``NotRepresentableError`` with the reason). A one-shard
tt metal layout holds the buffer as XLA lays it out where XLA's tiling is
one level of 2-D tiles (``xla_to_metal``).

CuTe's 1-D coordinate runs over the dims colexicographically (dim 0
fastest), as for every box family; the value at element ``(i, j)`` is XLA's
linear index of that element:

>>> from unilayout import xla
>>> x = xla.parse("f32[4,8]{0,1}")
>>> str(xla_to_cute(x)), str(xla_to_affine(x))
('(4,8):(1,4)', '(d0, d1) -> (d1 * 4 + d0)')
"""

from __future__ import annotations

from ..affine import AffineMap, dim
from ..cute import Layout
from ..errors import LayoutError, NotRepresentableError
from ..tt import MetalLayout
from .cute_linear import cute_to_linear
from .to_tsl import cute_to_tsl

__all__ = ["xla_to_affine", "xla_to_cute", "xla_to_linear", "xla_to_tsl", "xla_to_metal"]


def xla_to_affine(x):
    """XLA's tiled linear index as an affine map over the dims (always exact): ``x.to_affine()``.

    >>> from unilayout import xla
    >>> print(xla_to_affine(xla.parse("f32[3,5]{1,0:T(2,2)}")))
    (d0, d1) -> ((d0 floordiv 2) * 12 + (d1 floordiv 2) * 4 + (d0 mod 2) * 2 + d1 mod 2)
    """
    return x.to_affine()


def _check_exact(x):
    """``NotRepresentableError`` naming the first tile that pads its dim (the buffer is then no CuTe layout)."""
    items = [(i, x.dims[i]) for i in reversed(x.minor_to_major)]
    sizes = [n for _, n in items]
    owners = [i for i, _ in items]
    for t in x.tiles:
        k = len(t)
        head_s, tail_s = sizes[:len(sizes) - k], sizes[len(sizes) - k:]
        head_o, tail_o = owners[:len(owners) - k], owners[len(owners) - k:]
        for n, tt, i in zip(tail_s, t, tail_o):
            if n % tt:
                raise NotRepresentableError(
                    f"tile {t} pads dim {i} (size {n}) to {-(-n // tt) * tt}: a CuTe layout has no padding "
                    "(to_affine is exact)")
        sizes = head_s + [n // tt for n, tt in zip(tail_s, t)] + list(t)
        owners = head_o + tail_o + tail_o


def _digit(ops) -> int:
    """The divisor ``A`` of a digit ``(x // A) mod M`` (``ops`` already checked to divide exactly)."""
    a = 1
    for op, k in ops:
        if op == "div":
            a *= k
    return a


def xla_to_cute(x):
    """The CuTe layout ``logical coordinate -> offset`` of ``x`` when no tile pads its dim; else NotRepresentableError.

    Each logical dim becomes a mode of its digits (the buffer dims it owns),
    least significant first.

    >>> from unilayout import xla
    >>> str(xla_to_cute(xla.parse("f32[4,4]{1,0:T(2,2)}")))
    '((2,2),(2,2)):((2,8),(1,4))'
    >>> xla_to_cute(xla.parse("f32[3,5]{1,0:T(2,2)}"))
    Traceback (most recent call last):
    ...
    unilayout.errors.NotRepresentableError: tile (2, 2) pads dim 0 (size 3) to 4: a CuTe layout has no padding (to_affine is exact)
    """
    _check_exact(x)
    items = tuple(zip(x.buffer_dims, x.buffer_strides))
    modes_s, modes_d = [], []
    for i in range(len(x.dims)):
        digits = sorted((_digit(ops), size, s) for (j, ops, size), s in items if j == i and size > 1)
        if not digits:
            modes_s.append(1)
            modes_d.append(0)
        elif len(digits) == 1:
            modes_s.append(digits[0][1])
            modes_d.append(digits[0][2])
        else:
            modes_s.append(tuple(size for _, size, _ in digits))
            modes_d.append(tuple(s for _, _, s in digits))
    return Layout(tuple(modes_s), tuple(modes_d))


def xla_to_linear(x, in_dims=None, out_dims=None):
    """The linear layout of ``x``'s CuTe layout (exact where it is GF(2)-linear, else ``NotRepresentableError``).

    >>> from unilayout import xla
    >>> xla_to_linear(xla.parse("f32[2,2]{0,1}")).bases
    [('dim0', [[1]]), ('dim1', [[2]])]
    """
    options = {k: v for k, v in (("in_dims", in_dims), ("out_dims", out_dims)) if v is not None}
    return cute_to_linear(xla_to_cute(x), **options)


def xla_to_tsl(x):
    """The TSL of ``x``'s CuTe layout (exact where no tile pads a dim).

    >>> from unilayout import xla
    >>> print(xla_to_tsl(xla.parse("f32[2,4]{1,0}")))
    #tsl.tsl<[2] -> (4), [4] -> (1)>
    """
    return cute_to_tsl(xla_to_cute(x))


def xla_to_metal(x, oob_val="undef"):
    """The one-shard tt ``MetalLayout`` holding the buffer exactly as XLA lays it out, where one exists.

    The metal layout's map is the ``minor_to_major`` permutation (no
    collapse: a tt tile pads every 2-D slice as XLA's tile does), grid
    1 x ... x 1, and the one XLA tile, if any, is its ``tilize`` tile.
    ``NotRepresentableError`` for a second tile level (``(8,128)(2,1)``
    packs pairs of rows: a metal layout has one tile level), a tile that
    is not 2-D, or an element type tt does not have.

    **Post-condition**: the metal layout's shards in tile-major order
    (``to_tiles``) put element ``e`` at ``x(e)``.

    >>> from unilayout import xla
    >>> print(xla_to_metal(xla.parse("f32[3,5]{1,0:T(2,2)}")))
    tensor<3x5xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <1x1>, memref<2x3x!tt.tile<2x2, f32>, #tt.memory_space<l1>>>>
    >>> xla_to_metal(xla.parse("bf16[128,256]{1,0:T(8,128)(2,1)}"))
    Traceback (most recent call last):
    ...
    unilayout.errors.NotRepresentableError: 2 tile levels (8, 128)(2, 1): a metal layout has one tile level
    """
    if len(x.tiles) > 1:
        raise NotRepresentableError(
            f"{len(x.tiles)} tile levels {''.join(map(str, x.tiles))}: a metal layout has one tile level")
    if x.tiles and (len(x.tiles[0]) != 2 or len(x.dims) < 2):
        raise NotRepresentableError(f"tile {x.tiles[0]} is not 2-D over 2 dims: tt tiles are 2-D")
    r = len(x.dims)
    if r == 0:
        raise NotRepresentableError("a scalar has no metal layout")
    linear = AffineMap(r, 0, tuple(dim(i) for i in reversed(x.minor_to_major)))
    try:
        return MetalLayout(x.dims, linear, (1,) * r, x.element_type, oob_val=oob_val,
                           tile=x.tiles[0] if x.tiles else None)
    except LayoutError as e:
        raise NotRepresentableError(f"no metal layout: {e}") from None


#: This file's pairs for ``convert_to``'s table.
PAIRS = {("xla", "affine"): xla_to_affine, ("xla", "cute"): xla_to_cute, ("xla", "linear"): xla_to_linear,
         ("xla", "tsl"): xla_to_tsl, ("xla", "metal"): xla_to_metal}
