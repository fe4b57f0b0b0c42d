"""Mosaic TPU layouts: vector layouts ``#tpu.vpad<"...">`` (array -> vreg, sublane, lane) and tiled memrefs ``#tpu.tiled``.

A TPU vector register (vreg) is 8 sublanes x 128 lanes of 32-bit words; a
word packs ``32 // bitwidth`` narrower values. jaxlib's ``VectorLayout``
(``bitwidth,{sublane offset,lane offset},(tile rows,tile cols)[,implicit]``)
places the last two dims of an array (after inserting its implicit dims,
``-1`` a trailing 1, ``-2`` a 1 before the last dim, ``-2,-1`` both):

- the data starts at ``offsets`` (``*``: replicated, the value is the same
  along that axis, and the dim is 1);
- a vreg holds a slice of ``tile rows`` x ``tiles_per_vreg * tile cols``;
  every leading dim and every slice is its own vreg (``tile_array_shape``);
- inside a vreg, tile ``k`` takes sublanes ``[k * s, (k + 1) * s)``; inside a
  tile, element ``e`` (row-major in the tile) sits at lane ``e % 128``,
  packed position ``(e // 128) % packing`` and sublane ``e // (128 *
  packing)`` (rows packed into words for 2-D tiles, jaxlib's "1D packing"
  for one-row tiles).

>>> v = VectorLayout.parse('32,{0,0},(8,128)')
>>> v.tile_array_shape((16, 256)), str(v)
((2, 2), '#tpu.vpad<"32,{0,0},(8,128)">')
>>> o = VectorLayout.parse('16,{0,0},(16,128)').owners((16, 128))
>>> [int(o[k][3 * 128 + 5]) for k in ("vreg", "sublane", "lane", "packed")]
[0, 1, 5, 1]

``TpuTiledLayout`` (``#tpu.tiled<(8,128)(2,1),[2,1]>`` on a memref shape) is
the memref's buffer: the first tile cuts the trailing dims, the tile indices
step by ``tile_strides`` (in whole tiles), the later tiles order a tile's
elements as XLA's tiling does; with row-major tile strides it is XLA's
``{..:T(8,128)(2,1)}`` layout of the same shape.
"""

from __future__ import annotations

import math
import re

import numpy as np

from ..errors import LayoutError, ParseError
from .layout import _int, _ints, _num, _seq

__all__ = ["VectorLayout", "TpuTiledLayout", "SUBLANES", "LANES", "REPLICATED"]

SUBLANES, LANES = 8, 128
#: The spelling of a replicated offset.
REPLICATED = "*"
_IMPLICIT = {None: "", -1: ",-1", -2: ",-2", -3: ",-2,-1"}
_VPAD = re.compile(r"(\d+),\{(\*|\d+),(\*|\d+)\},\((\d+),(\d+)\)(,-2,-1|,-1|,-2)?")


class VectorLayout:
    """jaxlib's Mosaic TPU ``VectorLayout`` (see the module docstring); ``str`` is its ``#tpu.vpad`` attribute.

    >>> VectorLayout(32, (None, 0), (8, 128)).offsets
    ('*', 0)
    >>> VectorLayout(32, (9, 0), (8, 128))
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: Check failed: offsets_[0].value_or(0) < tiling_[0] (9 vs. 8)
    """

    __slots__ = ("bitwidth", "offsets", "tiling", "implicit_dim")

    def __init__(self, bitwidth, offsets, tiling, implicit_dim=None):
        bitwidth = _int(bitwidth, "bitwidth")
        if bitwidth <= 0 or bitwidth > 32 or bitwidth & (bitwidth - 1):
            raise LayoutError(f"bitwidth is a power of two up to 32, got {bitwidth}")
        offs = tuple(REPLICATED if o is None or (isinstance(o, str) and o == REPLICATED) else _int(o, "an offset")
                     for o in _seq(offsets, "offsets"))
        tiling = _ints(tiling, "tiling")
        if len(offs) != 2 or len(tiling) != 2 or min(tiling) <= 0 or any(o != REPLICATED and o < 0 for o in offs):
            raise LayoutError(f"a vector layout has two offsets and two positive tile sizes, got {offsets}, {tiling}")
        if offs[0] != REPLICATED and offs[0] >= tiling[0]:
            raise LayoutError(f"Check failed: offsets_[0].value_or(0) < tiling_[0] ({offs[0]} vs. {tiling[0]})")
        if implicit_dim not in _IMPLICIT:
            raise LayoutError(f"implicit_dim is None, -1, -2 or -3 (both), got {implicit_dim!r}")
        for name, value in (("bitwidth", bitwidth), ("offsets", offs), ("tiling", tiling),
                            ("implicit_dim", implicit_dim)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name, value):
        raise AttributeError("VectorLayout is immutable")

    def __eq__(self, other):
        return isinstance(other, VectorLayout) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def _key(self):
        return ("vpad", self.bitwidth, self.offsets, self.tiling, self.implicit_dim)

    def body(self) -> str:
        """The text inside the quotes, as jaxlib's ``VectorLayout::print`` writes it."""
        return (f"{self.bitwidth},{{{self.offsets[0]},{self.offsets[1]}}},({self.tiling[0]},{self.tiling[1]})"
                f"{_IMPLICIT[self.implicit_dim]}")

    def __str__(self):
        return f'#tpu.vpad<"{self.body()}">'

    def __repr__(self):
        return f"<mosaic {self}>"

    @classmethod
    def parse(cls, body, text=None, at=0):
        """The layout of the quoted body ``32,{0,0},(8,128)`` (ParseError at ``at`` in ``text`` otherwise)."""
        m = _VPAD.fullmatch(body)
        if not m:
            raise ParseError("expected a vector layout 'BITWIDTH,{OFFSET,OFFSET},(ROWS,COLS)[,-1|,-2|,-2,-1]'",
                             body if text is None else text, at)
        implicit = {None: None, ",-1": -1, ",-2": -2, ",-2,-1": -3}[m.group(6)]
        try:
            return cls(_num(m.group(1)), tuple(None if g == REPLICATED else _num(g) for g in m.group(2, 3)),
                       (_num(m.group(4)), _num(m.group(5))), implicit)
        except LayoutError as e:
            raise ParseError(str(e), body if text is None else text, at) from None

    # -- jaxlib's derived sizes ---------------------------------------------------------------------------
    @property
    def packing(self) -> int:
        """Values per 32-bit word."""
        return 32 // self.bitwidth

    @property
    def tiles_per_vreg(self) -> int:
        """Tiles in one vreg (LayoutError when a tile does not divide the vreg's capacity)."""
        cap, elems = self.packing * SUBLANES * LANES, self.tiling[0] * self.tiling[1]
        if cap % elems or elems % (self.packing * LANES):
            raise LayoutError(f"tile {self.tiling} of {self.bitwidth}-bit values does not divide a vreg "
                              f"({SUBLANES}x{LANES} words of {self.packing})")
        return cap // elems

    @property
    def vreg_slice(self) -> tuple:
        """The ``(rows, cols)`` of the array one vreg holds."""
        return self.tiling[0], self.tiles_per_vreg * self.tiling[1]

    def implicit_shape(self, shape) -> tuple:
        """``shape`` with the implicit dims inserted."""
        shape = tuple(int(s) for s in shape)
        if self.implicit_dim is None:
            if len(shape) < 2:
                raise LayoutError(f"a layout without implicit dims needs rank >= 2, got {shape}")
            return shape
        if not shape:
            raise LayoutError("a vector layout needs rank >= 1")
        return {-1: (*shape, 1), -2: (*shape[:-1], 1, shape[-1]), -3: (*shape, 1, 1)}[self.implicit_dim]

    def tile_array_shape(self, shape) -> tuple:
        """The shape of the array of vregs that holds an array of ``shape`` (jaxlib's ``tileArrayShape``)."""
        full = self.implicit_shape(shape)
        vs = self.vreg_slice
        tiles = (*full[:-2], *(-(-(self._off(i) + full[i - 2]) // vs[i]) for i in range(2)))
        if self.implicit_dim is None:
            return tiles
        return {-1: tiles[:-1], -2: (*tiles[:-2], tiles[-1]), -3: tiles[:-2]}[self.implicit_dim]

    def _off(self, i):
        return 0 if self.offsets[i] == REPLICATED else self.offsets[i]

    def owners(self, shape) -> dict:
        """Where each element of ``shape`` (row-major) lives: ``vreg`` (row-major over ``tile_array_shape``),
        ``sublane``, ``lane`` and ``packed`` (the value's place in its 32-bit word), int64 arrays.

        A replicated offset stores the element at every sublane (lane) of
        its tile; the first is given.

        >>> o = VectorLayout(32, (0, 0), (1, 128), -2).owners((300,))
        >>> int(o["vreg"][299]), int(o["sublane"][299]), int(o["lane"][299])
        (0, 2, 43)
        """
        shape = tuple(int(s) for s in shape)
        full = self.implicit_shape(shape)
        for i in (0, 1):
            if self.offsets[i] == REPLICATED and full[i - 2] != 1:
                raise LayoutError(f"a replicated {('sublane', 'lane')[i]} offset holds one value along dim "
                                  f"{len(full) - 2 + i} of the (implicit) shape {full}, which has size {full[i - 2]}")
        n = math.prod(shape)
        idx = np.unravel_index(np.arange(n, dtype=np.int64), full)
        vs = self.vreg_slice
        r, c = idx[-2] + self._off(0), idx[-1] + self._off(1)
        grid = (*full[:-2], *(-(-(self._off(i) + full[i - 2]) // vs[i]) for i in range(2)))
        vreg = np.ravel_multi_index((*idx[:-2], r // vs[0], c // vs[1]), grid)
        rr, cc = r % vs[0], c % vs[1]
        tile, col = cc // self.tiling[1], cc % self.tiling[1]
        e = rr * self.tiling[1] + col
        per_tile = SUBLANES // self.tiles_per_vreg
        words = LANES * self.packing
        return {"vreg": np.asarray(vreg, dtype=np.int64), "sublane": tile * per_tile + e // words,
                "lane": e % LANES, "packed": (e // LANES) % self.packing}


_TILED = re.compile(r"#tpu\.tiled<((?:\(\d+(?:,\d+)*\))*),\[(\d+(?:,\d+)*)?\]>")


class TpuTiledLayout:
    """A Mosaic TPU memref layout ``#tpu.tiled<TILES,[TILE_STRIDES]>`` on a memref ``shape`` of ``bitwidth`` values.

    >>> t = TpuTiledLayout(((8, 128),), (2, 1), (16, 256))
    >>> t.offsets()[8, :3].tolist(), str(t)
    ([2048, 2049, 2050], 'memref<16x256xf32, #tpu.tiled<(8,128),[2,1]>>')
    """

    __slots__ = ("tiles", "tile_strides", "shape", "dtype")

    def __init__(self, tiles, tile_strides, shape=None, dtype="f32"):
        tiles = tuple(_ints(t, "a tile") for t in _seq(tiles, "tiles"))
        strides = _ints(tile_strides, "tile_strides")
        if any(not t or min(t) <= 0 for t in tiles):
            raise LayoutError(f"tiles must be non-empty and positive, got {tiles}")
        if shape is not None:
            shape = tuple(int(s) for s in shape)
            if len(strides) != len(shape):
                raise LayoutError(f"tile_strides {list(strides)} must have one stride per memref dim {shape}")
            if tiles and len(tiles[0]) > len(shape):
                raise LayoutError(f"tile {tiles[0]} has more dims than the memref {shape}")
        for name, value in (("tiles", tiles), ("tile_strides", strides), ("shape", shape), ("dtype", str(dtype))):
            object.__setattr__(self, name, value)

    def __setattr__(self, name, value):
        raise AttributeError("TpuTiledLayout is immutable")

    def __eq__(self, other):
        return isinstance(other, TpuTiledLayout) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def _key(self):
        return ("tpu.tiled", self.tiles, self.tile_strides, self.shape, self.dtype)

    def attr(self) -> str:
        """The ``#tpu.tiled`` attribute as the tpu dialect prints it."""
        tiles = "".join("(" + ",".join(map(str, t)) + ")" for t in self.tiles)
        return f"#tpu.tiled<{tiles},[{','.join(map(str, self.tile_strides))}]>"

    def __str__(self):
        if self.shape is None:
            return self.attr()
        return f"memref<{''.join(f'{d}x' for d in self.shape)}{self.dtype}, {self.attr()}>"

    def __repr__(self):
        return f"<mosaic {self}>"

    def with_shape(self, shape, dtype=None):
        """The layout on a memref of ``shape``."""
        return TpuTiledLayout(self.tiles, self.tile_strides, shape, dtype or self.dtype)

    @classmethod
    def parse(cls, text, shape=None, dtype="f32", at=0):
        """The layout of ``#tpu.tiled<...>`` on ``shape`` (ParseError at ``at`` otherwise).

        >>> str(TpuTiledLayout.parse("#tpu.tiled<(8,128)(2,1),[1,1]>", (8, 128), "bf16"))
        'memref<8x128xbf16, #tpu.tiled<(8,128)(2,1),[1,1]>>'
        """
        m = _TILED.fullmatch(text.replace(" ", ""))
        if not m:
            raise ParseError("expected '#tpu.tiled<(ROWS,COLS)...,[STRIDES]>'", text, at)
        try:
            tiles = [tuple(_num(x) for x in t.split(",")) for t in re.findall(r"\(([^)]*)\)", m.group(1))]
            strides = [_num(s) for s in m.group(2).split(",")] if m.group(2) else []
            return cls(tiles, strides, shape, dtype)
        except LayoutError as e:
            raise ParseError(str(e), text, at) from None

    @property
    def tile_elems(self) -> int:
        """Elements in one (first-level) tile."""
        return math.prod(self.tiles[0]) if self.tiles else 1

    def offsets(self) -> np.ndarray:
        """The buffer offset of every element, int64 array of ``shape``."""
        if self.shape is None:
            raise LayoutError(f"{self.attr()} needs the memref's shape: read 'memref<8x128xf32, {self.attr()}>'")
        idx = tuple(np.indices(self.shape, dtype=np.int64)) if self.shape else ()
        if not self.tiles:
            off = np.zeros(self.shape, dtype=np.int64)
            for i, s in zip(idx, self.tile_strides):
                off = off + i * s
            return off
        first, k = self.tiles[0], len(self.tiles[0])
        off = np.zeros(self.shape, dtype=np.int64)
        for d, i in enumerate(idx):
            t = first[d - (len(idx) - k)] if d >= len(idx) - k else 1
            off = off + (i // t) * self.tile_strides[d] * self.tile_elems
        inner = tuple(i % t for i, t in zip(idx[len(idx) - k:], first))
        box = first
        for tile in self.tiles[1:]:  # XLA's tiling of one tile, row-major
            m = len(tile)
            inner = (*inner[:-m], *(i // t for i, t in zip(inner[-m:], tile)), *(i % t for i, t in zip(inner[-m:], tile)))
            box = (*box[:-m], *(-(-b // t) for b, t in zip(box[-m:], tile)), *tile)
        pos = np.zeros(self.shape, dtype=np.int64)
        for i, b in zip(inner, box):
            pos = pos * b + i
        return off + pos

    def xla_text(self, element_type=None) -> str:
        """The XLA layout of the same buffer, when the tile strides are the row-major ones (else LayoutError).

        >>> TpuTiledLayout(((8, 128),), (2, 1), (16, 256)).xla_text()
        'f32[16,256]{1,0:T(8,128)}'
        """
        element_type = element_type or self.dtype
        if self.shape is None:
            raise LayoutError(f"{self.attr()} needs the memref's shape for an XLA layout")
        k = len(self.tiles[0]) if self.tiles else 0
        counts = [(-(-s // (self.tiles[0][d - (len(self.shape) - k)])) if d >= len(self.shape) - k else s)
                  for d, s in enumerate(self.shape)]
        want, acc = [], 1
        for c in reversed(counts):
            want.append(acc)
            acc *= c
        if tuple(reversed(want)) != self.tile_strides:
            raise LayoutError(f"tile strides {list(self.tile_strides)} are not the row-major ones "
                              f"{list(reversed(want))}: XLA's layouts have no such gaps")
        if any(self.tile_elems % math.prod(t) for t in self.tiles[1:]):
            raise LayoutError("a later tile that pads the first one has no XLA form here")
        dims = ",".join(map(str, self.shape))
        order = ",".join(map(str, reversed(range(len(self.shape)))))
        tiles = "".join("(" + ",".join(map(str, t)) + ")" for t in self.tiles)
        return f"{element_type}[{dims}]{{{order}{':T' + tiles if tiles else ''}}}"
