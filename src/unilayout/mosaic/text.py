"""Reading the attribute text jax prints for Mosaic GPU layouts (``str`` of a value prints it back, byte for byte).

jax's MLIR dialect ``mosaic_gpu`` prints a register layout as

- ``#mosaic_gpu.TiledLayout<[[64, 8], [16, 8], [8, 8], [2]], warp_dims = [-7], lane_dims = [-3, -2], vector_dim = -1>``
  (a replicated dim inside ``warp_dims``/``lane_dims``: ``#mosaic_gpu.Replicated<times = 4>``);
- ``#mosaic_gpu.WGSplatFragLayout<[4, 8]>``, ``#mosaic_gpu.WGStridedFragLayout<[128, 8], 8>``;

and the shared-memory transforms as ``#mosaic_gpu.tile<[8, 64]>`` and
``#mosaic_gpu.swizzle<128 : i32>``. A shared buffer (``SmemLayout``) is
written ``memref<16x64xf16> [#mosaic_gpu.tile<[8, 64]>, transpose<[1, 0]>,
...]``: the block's memref type, then its transforms in order (unilayout's
own spelling: jax keeps the transforms beside the type, and prints no
``transpose`` attribute). ``plgpu.Layout.WGMMA`` (and the other
member names, ``Layout.X`` too) reads to the named layout. Spaces between
tokens are free, as for MLIR's parser.

>>> L = parse_mosaic("#mosaic_gpu.TiledLayout<[[8], [2]], warp_dims = [#mosaic_gpu.Replicated<times = 4>], "
...                  "lane_dims = [#mosaic_gpu.Replicated<times = 8>, -2], vector_dim = -1>")
>>> L.replication_factor, str(parse_mosaic(str(L))) == str(L), parse_mosaic("plgpu.Layout.TCGEN05").vector_length
(32, True, 2)
>>> parse_mosaic("#mosaic_gpu.TiledLayout<[[64, 8]], warp_dims = [-7, lane_dims = [], vector_dim = -1>")
Traceback (most recent call last):
...
unilayout.errors.ParseError: expected an integer at position 52
  #mosaic_gpu.TiledLayout<[[64, 8]], warp_dims = [-7, lane_dims = [], vector_dim = -1>
                                                      ^
"""

from __future__ import annotations

import re

from ..errors import LayoutError, ParseError
from .frag import WGSplatFragLayout, WGStridedFragLayout
from .layout import Replicated, TiledLayout, _num
from .named import NAMES, layout
from .smem import SmemLayout, SwizzleTransform, TileTransform, TransposeTransform, memref_shape
from .tpu import TpuTiledLayout, VectorLayout

__all__ = ["parse_mosaic"]

_INT = re.compile(r"-?\d+")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class _Reader:
    """A cursor over ``text`` that raises ParseError at the position of what it does not find."""

    def __init__(self, text):
        self.text, self.at = text, 0

    def fail(self, what, at=None):
        raise ParseError(f"expected {what}", self.text, self.at if at is None else at)

    def space(self):
        while self.at < len(self.text) and self.text[self.at].isspace():
            self.at += 1

    def peek(self, lit):
        self.space()
        return self.text.startswith(lit, self.at)

    def eat(self, lit):
        if not self.peek(lit):
            self.fail(repr(lit))
        self.at += len(lit)

    def int(self):
        self.space()
        m = _INT.match(self.text, self.at)
        if not m:
            self.fail("an integer")
        if len(m.group().lstrip("+-").lstrip("0")) > 19:
            self.fail("an integer within int64")
        self.at = m.end()
        return int(m.group())

    def word(self):
        self.space()
        m = _WORD.match(self.text, self.at)
        if not m:
            self.fail("a name")
        self.at = m.end()
        return m.group()

    def items(self, item):
        """``[item, item, ...]``."""
        self.eat("[")
        out = []
        if self.peek("]"):
            self.at += 1
            return out
        while True:
            out.append(item())
            if self.peek(","):
                self.at += 1
            elif self.peek("]"):
                self.at += 1
                return out
            else:
                self.fail("',' or ']'")

    def end(self):
        self.space()
        if self.at != len(self.text):
            self.fail("the end of the text")


def _dim(r):
    if r.peek("#mosaic_gpu.Replicated"):
        r.eat("#mosaic_gpu.Replicated")
        r.eat("<")
        r.eat("times")
        r.eat("=")
        times = r.int()
        r.eat(">")
        return Replicated(times)
    return r.int()


def _checked(r, at, build):
    """``build()``, a jax rule it breaks as ParseError at ``at`` (the value's first character)."""
    try:
        return build()
    except ParseError:
        raise
    except LayoutError as e:
        raise ParseError(str(e), r.text, at) from None


def parse_mosaic(text: str):
    """The Mosaic GPU value ``text`` spells (see the module docstring); ParseError with the position otherwise.

    >>> parse_mosaic("#mosaic_gpu.WGStridedFragLayout<[128, 8], 8>").registers_shape((128, 8))
    (1,)
    >>> str(parse_mosaic("#mosaic_gpu.swizzle<128 : i32>"))
    '#mosaic_gpu.swizzle<128 : i32>'
    """
    if not isinstance(text, str):
        raise LayoutError(f"parse: expected text, got {type(text).__name__}")
    r = _Reader(text)
    r.space()
    start = r.at
    if r.peek("plgpu.Layout.") or r.peek("Layout."):
        r.eat("plgpu.Layout." if r.peek("plgpu.") else "Layout.")
        at = r.at
        name = r.word()
        r.end()
        if name not in NAMES:
            raise ParseError(f"unknown plgpu.Layout member {name!r}; choose one of {', '.join(NAMES)}", text, at)
        return _checked(r, at, lambda: layout(name))
    if r.peek("#tpu."):
        return _tpu(r, start)
    if r.peek("memref<"):
        got = memref_shape(text, r.at)
        if got is None:
            return _tpu_memref(r, start)
        r.at = got[2]
        transforms = r.items(lambda: _transform(r))
        r.end()
        return _checked(r, start, lambda: SmemLayout(got[0], transforms, got[1]))
    value = _attribute(r, start)
    r.end()
    return value


def _tpu(r, start):
    """``#tpu.vpad<"...">`` or a bare ``#tpu.tiled<...>``."""
    text = r.text
    if r.peek('#tpu.vpad<"'):
        r.eat('#tpu.vpad<"')
        at = r.at
        end = text.find('"', at)
        if end < 0:
            r.fail("the closing '\"'")
        layout = VectorLayout.parse(text[at:end], text, at)
        r.at = end + 1
        r.eat(">")
        r.end()
        return layout
    if r.peek("#tpu.tiled<"):
        end = _closing(r, r.at + len("#tpu.tiled"))
        value = TpuTiledLayout.parse(text[r.at:end], None, at=r.at)
        r.at = end
        r.end()
        return value
    raise ParseError("expected '#tpu.vpad<\"...\">' or '#tpu.tiled<...>'", text, r.at)


def _closing(r, at):
    """The position after the ``>`` that closes the ``<`` at ``at``."""
    depth = 0
    for i in range(at, len(r.text)):
        depth += {"<": 1, ">": -1}.get(r.text[i], 0)
        if depth == 0:
            return i + 1
    raise ParseError("expected '>'", r.text, len(r.text))


_TPU_MEMREF = re.compile(r"memref<((?:\d+x)*)([A-Za-z0-9]+)\s*,\s*")


def _tpu_memref(r, start):
    """``memref<16x256xf32, #tpu.tiled<...>[, #tpu.memory_space<...>]>``."""
    text = r.text
    m = _TPU_MEMREF.match(text, r.at)
    if not m or not text.startswith("#tpu.tiled<", m.end()):
        r.fail("a memref type 'memref<64x128xf16>' or 'memref<16x256xf32, #tpu.tiled<(8,128),[2,1]>>'")
    shape = tuple(_num(s, "a dim") for s in m.group(1).split("x")[:-1])
    end = _closing(r, m.end() + len("#tpu.tiled"))
    value = TpuTiledLayout.parse(text[m.end():end], shape, m.group(2), at=m.end())
    r.at = end
    if r.peek(","):
        r.eat(",")
        r.eat("#tpu.memory_space<")
        r.word()
        r.eat(">")
    r.eat(">")
    r.end()
    return value


def _transform(r):
    if r.peek("transpose"):
        r.eat("transpose")
        r.eat("<")
        perm = r.items(r.int)
        r.eat(">")
        return TransposeTransform(perm)
    at = r.at
    t = _attribute(r, at)
    if not isinstance(t, (TileTransform, SwizzleTransform)):
        r.fail("a transform (#mosaic_gpu.tile, #mosaic_gpu.swizzle or transpose)", at)
    return t


def _attribute(r, start):
    """One ``#mosaic_gpu.X<...>`` attribute at the cursor."""
    text = r.text
    r.eat("#mosaic_gpu.")
    at = r.at
    kind = r.word()
    r.eat("<")
    if kind == "TiledLayout":
        tiles = r.items(lambda: tuple(r.items(r.int)))
        r.eat(",")
        r.eat("warp_dims")
        r.eat("=")
        warps = r.items(lambda: _dim(r))
        r.eat(",")
        r.eat("lane_dims")
        r.eat("=")
        lanes = r.items(lambda: _dim(r))
        r.eat(",")
        r.eat("vector_dim")
        r.eat("=")
        vec = r.int()
        r.eat(">")
        return _checked(r, start, lambda: TiledLayout(tiles, warps, lanes, vec))
    if kind == "WGSplatFragLayout":
        shape = r.items(r.int)
        r.eat(">")
        return _checked(r, start, lambda: WGSplatFragLayout(shape))
    if kind == "WGStridedFragLayout":
        shape = r.items(r.int)
        r.eat(",")
        vec = r.int()
        r.eat(">")
        return _checked(r, start, lambda: WGStridedFragLayout(shape, vec))
    if kind == "tile":
        tiling = r.items(r.int)
        r.eat(">")
        return _checked(r, start, lambda: TileTransform(tiling))
    if kind == "swizzle":
        swizzle = r.int()
        r.eat(":")
        r.eat("i32")
        r.eat(">")
        return _checked(r, start, lambda: SwizzleTransform(swizzle))
    raise ParseError("expected TiledLayout, WGSplatFragLayout, WGStridedFragLayout, tile or swizzle after "
                     "'#mosaic_gpu.'", text, at)
