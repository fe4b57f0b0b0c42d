"""The tt dialects' shared reader (private): one ``Scanner`` and the moves every tt grammar uses.

``Reader`` names the scanner's moves as the tt grammars use them (``accept``,
``expect``, ``expect_dialect`` for ``#tt.``/``#ttcore.`` spellings, ``dims``
for ``8x16``) and reads the pieces the metal and TTNN grammars share: shapes
with their element type, ``!ttcore.tile<..>`` and the head of a
``memref<..>``. Embedded affine maps are read in place by
``affine.text.read_map``, so errors point into the pasted text:

>>> p = Reader("memref<2x1x!ttcore.tile<32x32, bf16>, #l1>")
>>> p.memref_head("bf16")
(0, (2, 1), 11, (32, 32), 'bf16')
"""

from __future__ import annotations

from .._ints import as_int
from .._text import Scanner, check_text
from ..affine.text import read_map
from ..errors import ParseError
from ._mlir import TILE_DTYPES

__all__ = ["Reader", "DIALECTS"]

#: ``#tt.x`` and ``#ttcore.x`` name the same attribute (tt-mlir renamed the dialect).
DIALECTS = ("tt", "ttcore")


class Reader:
    """The tt grammar's shared moves over one ``Scanner``: literals, dialect names, dims, tiles, memrefs.

    Each dialect's reader (``metal.text``, ``ttnn.text``, ``device_text``) is a
    set of functions taking this reader; errors are ``ParseError`` values
    pointing into the text (``error`` returns one, the caller raises it).

    >>> p = Reader("tensor<2x3xf32, ...")
    >>> p.expect("tensor<"), p.shape_and_type("tensor")
    (None, ((2, 3), 11))
    """

    def __init__(self, text):
        self.s = Scanner(check_text(text, "tt text"))

    # --- the scanner's moves, named as this grammar uses them -------------------------------
    def ws(self):
        return self.s.skip()

    def error(self, message, pos=None):
        try:
            self.s.fail(message, pos)
        except ParseError as e:
            return e

    def peek(self, lit):
        return self.s.at(lit)

    def accept(self, lit):
        return self.s.accept(lit)

    def expect(self, lit, what=None):
        self.s.expect(lit, what)

    def expect_dialect(self, name, what=None):
        """'#tt.name<' or '#ttcore.name<' (or with '!' for types); returns the start position."""
        pos = self.ws()
        sigil = name[0]
        for d in DIALECTS:
            if self.accept(f"{sigil}{d}.{name[1:]}<"):
                return pos
        self.s.expected(what or repr(sigil + "tt." + name[1:] + "<"))

    def integer(self, what="an integer"):
        pos = self.ws()
        return as_int(self.s.integer(what=what), what), pos

    def ident(self, what):
        pos = self.ws()
        return self.s.identifier(what), pos

    def dims(self, what):
        """INT ('x' INT)*: e.g. 8x16 (spaces allowed around 'x')."""
        vals = [self.integer(what)[0]]
        while self.peek("x") and self._digit_after_x():
            self.s.pos += 1
            vals.append(self.integer(what)[0])
        return tuple(vals)

    def _digit_after_x(self):
        t, j = self.s.text, self.s.pos + 1
        while j < len(t) and t[j] in " \t\r\n":
            j += 1
        return t[j:j + 1].isascii() and t[j:j + 1].isdigit()

    def shape_and_type(self, what):
        """(INT 'x')* then an element: returns (dims, element start position)."""
        vals = []
        while True:
            c = self.s.peek()
            if not (c.isascii() and c.isdigit()):
                return tuple(vals), self.ws()
            v, p = self.integer(what)
            if v < 1:
                raise self.error(f"{what} dims must be >= 1, got {v}", p)
            vals.append(v)
            self.expect("x", "'x' after a dim")

    def affine_map(self):
        """An affine map embedded in the text, read in place: errors point into this text."""
        start = self.ws()
        return read_map(self.s), start

    def end(self):
        self.s.expect_end()

    def tile_type(self, size_pos=None, what="'!ttcore.tile<'"):
        """'!tt.tile<' INT 'x' INT ',' dtype '>' -> (th, tw, dtype).

        A tile dim below 1 is reported at ``size_pos`` (default: the tile's start).
        """
        epos = self.expect_dialect("!tile", what)
        if size_pos is not None:
            epos = size_pos
        th = self.integer("a tile height")[0]
        self.expect("x", "'x' in the tile shape")
        tw = self.integer("a tile width")[0]
        self.expect(",", "',' before the tile dtype")
        dtype, dpos = self.ident("a tile dtype")
        if dtype not in TILE_DTYPES:
            raise self.error(f"tile dtype {dtype!r} is not one of {', '.join(TILE_DTYPES)}", dpos)
        if th < 1 or tw < 1:
            raise self.error(f"tile {th}x{tw}: dims must be >= 1", epos)
        self.expect(">", "'>' to close the tile")
        return th, tw, dtype

    def memref_head(self, elem, v1=False, signed_ok=False):
        """'memref<' dims 'x' (element | tile) -> ``(rpos, mshape, epos, tile, tile_dtype)``.

        ``rpos``: where 'memref<' starts, ``epos``: where its element or tile is read; ``tile``
        and ``tile_dtype`` are None for a scalar memref, whose element must be ``elem``.
        ``v1``: the '!tt.tile<' spelling, a bad tile size reported at ``epos``.
        ``signed_ok``: a signless ``iN`` tensor may store ``siN`` (TTNN keeps integer
        data as its signed ``DataType``: an ``i32`` tensor's memref is ``si32``).
        """
        rpos = self.ws()
        self.expect("memref<", "'memref<'")
        mshape, epos = self.shape_and_type("memref")
        dialect = "tt" if v1 else "ttcore"
        if self.peek("!"):
            th, tw, tile_dtype = self.tile_type(epos if v1 else None, f"'!{dialect}.tile<'")
            return rpos, mshape, epos, (th, tw), tile_dtype
        melem, _ = self.ident(f"the memref element type or '!{dialect}.tile<...>'")
        self.memref_element = melem  # a bare TTNN layout (elem None) keeps its memref's own element type
        if elem is not None and melem != elem and not (signed_ok and elem and elem[0] == "i" and melem == "s" + elem):
            raise self.error(f"memref element type {melem} does not match the tensor's {elem}", epos)
        return rpos, mshape, epos, None, None
