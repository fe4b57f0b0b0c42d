"""Text of the tt dialect: ``tensor<..., #tt.metal_layout<...>>`` and ``#tt.device<...>``.

Grammar (whitespace and newlines free between tokens; ``ttcore`` accepted for ``tt``)::

    tensor-type  ::= 'tensor<' (INT 'x')* elem ',' metal-layout '>'
    metal-layout ::= '#tt.metal_layout<' map ',' oob ',' grid ',' memref '>'
    map          ::= '(' dims ')' '->' '(' results ')'  |  'affine_map<' ... '>'
    grid         ::= '<' INT ('x' INT)* '>'  |  '#tt.grid<' INT ('x' INT)* '>'
    memref       ::= 'memref<' (INT 'x')+ (elem | tile) ',' '#tt.memory_space<' space '>' '>'
    tile         ::= '!tt.tile<' INT 'x' INT ',' dtype '>'
    device       ::= '#tt.device<' 'workerGrid' '=' '#tt.grid<' INT ('x' INT)* ',' map '>' ','
                     'meshShape' '=' INT ('x' INT)* ',' 'chipIds' '=' '[' INT (',' INT)* ']'
                     [',' 'meshTopology' '=' '[' topology (',' topology)* ']'] '>'

Newer tt-mlir output is read too: ``l1Map = <map>, dramMap = <map>`` before
``meshShape`` are parsed and dropped (tt-mlir derives them from the system),
and an empty ``meshShape =`` means one chip (printed back as ``meshShape = 1``).

The seed's multi-core example:

>>> ml = parse(
...     "tensor<2x3x64x128xf32, #tt.metal_layout<(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3), "
...     "undef, <2x4>, memref<192x32xf32, #tt.memory_space<l1>>>>")
>>> ml.grid, ml.shard_shape
((2, 4), (192, 32))

Everything the value types check is checked here too, as a ``ParseError``
pointing at the field at fault:

>>> parse("tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
...       "memref<17x32xf32, #tt.memory_space<l1>>>>")
Traceback (most recent call last):
...
unilayout.errors.ParseError: memref 17x32 does not match 18x32 = ceilDiv(physical 53x63, grid 3x2) at position 71
  tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, memref<17x32xf32, #tt.memory_space<l1>>>>
                                                                          ^
"""

from __future__ import annotations

from ..affine import AffineMap
from ..errors import LayoutError, ParseError
from .device import TOPOLOGIES, Device
from .metal import MEMORY_SPACES, OOB_VALS, TILE_DTYPES, MetalLayout, is_scalar_type, xs

__all__ = ["parse", "parse_tensor", "parse_device"]

_DIALECTS = ("tt", "ttcore")


class _Parser:
    def __init__(self, text):
        if not isinstance(text, str):
            raise LayoutError(f"expected tt text (str), got {type(text).__name__}")
        self.text = text
        self.i = 0

    # --- lexing helpers ---------------------------------------------------------
    def ws(self):
        t, i = self.text, self.i
        while i < len(t) and t[i] in " \t\r\n":
            i += 1
        self.i = i
        return i

    def error(self, message, pos=None):
        return ParseError(message, self.text, self.i if pos is None else pos)

    def found(self):
        self.ws()
        if self.i >= len(self.text):
            return "end of text"
        j = self.i + 1
        while j < len(self.text) and (self.text[j].isalnum() or self.text[j] in "_.") and self.text[self.i].isalnum():
            j += 1
        return repr(self.text[self.i:j])

    def peek(self, s):
        self.ws()
        return self.text.startswith(s, self.i)

    def accept(self, s):
        if self.peek(s):
            self.i += len(s)
            return True
        return False

    def expect(self, s, what=None):
        if not self.accept(s):
            raise self.error(f"expected {what or repr(s)}, found {self.found()}")

    def expect_dialect(self, name, what=None):
        """'#tt.name<' or '#ttcore.name<' (or with '!' for types); returns the start position."""
        pos = self.ws()
        sigil = name[0]
        for d in _DIALECTS:
            tok = f"{sigil}{d}.{name[1:]}<"
            if self.text.startswith(tok, self.i):
                self.i += len(tok)
                return pos
        raise self.error(f"expected {what or repr(sigil + 'tt.' + name[1:] + '<')}, found {self.found()}")

    def integer(self, what="an integer"):
        pos = self.ws()
        t, j = self.text, self.i
        while j < len(t) and t[j].isascii() and t[j].isdigit():
            j += 1
        if j == self.i:
            raise self.error(f"expected {what}, found {self.found()}")
        self.i = j
        return int(t[pos:j]), pos

    def ident(self, what):
        pos = self.ws()
        t, j = self.text, self.i
        while j < len(t) and t[j].isascii() and (t[j].isalnum() or t[j] == "_"):
            j += 1
        if j == self.i or t[pos].isdigit():
            raise self.error(f"expected {what}, found {self.found()}")
        self.i = j
        return t[pos:j], pos

    def dims(self, what):
        """INT ('x' INT)*: e.g. 8x16 (spaces allowed around 'x')."""
        vals = [self.integer(what)[0]]
        while self.peek("x") and self._digit_after_x():
            self.i += 1
            vals.append(self.integer(what)[0])
        return tuple(vals)

    def _digit_after_x(self):
        j = self.i + 1
        while j < len(self.text) and self.text[j] in " \t\r\n":
            j += 1
        return j < len(self.text) and self.text[j].isdigit()

    def shape_and_type(self, what):
        """(INT 'x')* then an element: returns (dims, element start position)."""
        vals = []
        while True:
            self.ws()
            if self.i < len(self.text) and self.text[self.i].isdigit():
                v, p = self.integer(what)
                if v < 1:
                    raise self.error(f"{what} dims must be >= 1, got {v}", p)
                vals.append(v)
                self.expect("x", "'x' after a dim")
            else:
                return tuple(vals), self.ws()

    def affine_map(self):
        """An affine map embedded in the text; positions of errors inside it are mapped back."""
        start = self.ws()
        t = self.text
        if t.startswith("affine_map", start):
            j = t.find(">", start)
            while j >= 0 and t[j - 1] == "-":
                j = t.find(">", j + 1)
            if j < 0:
                raise self.error("expected '>' to close 'affine_map<'", len(t))
            end = j + 1
        else:
            end = self._balanced(start, "(", ")", "'(' to open the map's dims")
            k = self._skip_ws(end)
            if t.startswith("[", k):
                end = self._balanced(k, "[", "]", "'['")
                k = self._skip_ws(end)
            if not t.startswith("->", k):
                raise self.error("expected '->' in the affine map", k)
            end = self._balanced(self._skip_ws(k + 2), "(", ")", "'(' to open the map's results")
        try:
            m = AffineMap.parse(t[start:end])
        except ParseError as e:
            raise ParseError(e.message, t, start + e.position) from None
        self.i = end
        return m, start

    def _skip_ws(self, j):
        while j < len(self.text) and self.text[j] in " \t\r\n":
            j += 1
        return j

    def _balanced(self, j, open_, close, what):
        t = self.text
        if not t.startswith(open_, j):
            raise self.error(f"expected {what}", j)
        depth = 0
        for k in range(j, len(t)):
            if t[k] == open_:
                depth += 1
            elif t[k] == close:
                depth -= 1
                if depth == 0:
                    return k + 1
            elif t[k] in "<>" and not (t[k] == ">" and t[k - 1] == "-"):
                break
        raise self.error(f"expected {close!r} to close {open_!r}", j)

    def end(self):
        self.ws()
        if self.i != len(self.text):
            raise self.error(f"expected end of text, found {self.found()}")

    # --- metal layout --------------------------------------------------------------------
    def tensor(self):
        self.expect("tensor<", "'tensor<'")
        shape, pos = self.shape_and_type("tensor")
        if not shape:
            raise self.error("expected the tensor's dims before its element type (rank-0 tensors have no layout)", pos)
        elem, epos = self.ident("an element type (f32, bf16, ...)")
        if not is_scalar_type(elem):
            raise self.error(f"element type {elem!r} is not one of f16, bf16, f32, f64, iN, siN, uiN", epos)
        if self.accept(">"):
            raise self.error("tensor has no #tt.metal_layout encoding: expected ', #tt.metal_layout<...>'", self.i - 1)
        self.expect(",", "',' and a #tt.metal_layout")
        ml = self.metal_layout(shape, elem)
        self.expect(">", "'>' to close 'tensor<'")
        return ml

    def metal_layout(self, shape, elem):
        lpos = self.ws()
        for d in _DIALECTS:
            if self.text.startswith(f"#{d}.layout<", self.i):
                raise self.error("#tt.layout is the pre-2024-08 name: write #tt.metal_layout")
        self.expect_dialect("#metal_layout", "'#tt.metal_layout<'")
        if self.peek("logical_shape"):
            raise self.error("v2 metal_layout is not supported (only the v1 form <map, oob, grid, memref>)", lpos)
        linear, mpos = self.affine_map()
        if linear.num_symbols:
            raise self.error(f"affine map has {linear.num_symbols} symbol(s): a metal layout's map takes none", mpos)
        if linear.num_dims != len(shape):
            raise self.error(
                f"affine map has {linear.num_dims} dims but the tensor has rank {len(shape)}: "
                "give one dim per logical dim", mpos)
        self.expect(",", "',' after the affine map")
        oob, opos = self.ident("an oob_val (undef, zero, one, inf, neginf)")
        if oob not in OOB_VALS:
            raise self.error(f"oob_val {oob!r} is not one of {', '.join(OOB_VALS)}", opos)
        self.expect(",", "',' after the oob_val")
        gpos = self.ws()
        if self.text.startswith("<", self.i):
            self.i += 1
        else:
            self.expect_dialect("#grid", "a grid '<2x4>'")
        grid = self.dims("a grid dim")
        if any(g < 1 for g in grid):
            raise self.error(f"grid {xs(grid)}: every dim must be >= 1", gpos)
        self.expect(">", "'x' or '>' to close the grid")
        if linear.num_results != len(grid):
            raise self.error(
                f"affine map has {linear.num_results} results but the grid {xs(grid)} has rank {len(grid)}: "
                "they must agree", gpos)
        self.expect(",", "',' after the grid")
        rpos = self.ws()
        self.expect("memref<", "'memref<'")
        mshape, epos = self.shape_and_type("memref")
        tile = tile_dtype = None
        if self.peek("!"):
            self.expect_dialect("!tile", "'!tt.tile<'")
            th = self.integer("a tile height")[0]
            self.expect("x", "'x' in the tile shape")
            tw = self.integer("a tile width")[0]
            self.expect(",", "',' before the tile dtype")
            tile_dtype, dpos = self.ident("a tile dtype")
            if tile_dtype not in TILE_DTYPES:
                raise self.error(f"tile dtype {tile_dtype!r} is not one of {', '.join(TILE_DTYPES)}", dpos)
            if th < 1 or tw < 1:
                raise self.error(f"tile {th}x{tw}: dims must be >= 1", epos)
            self.expect(">", "'>' to close the tile")
            tile = (th, tw)
        else:
            melem, _ = self.ident("the memref element type or '!tt.tile<...>'")
            if melem != elem:
                raise self.error(f"memref element type {melem} does not match the tensor's {elem}", epos)
        if not mshape:
            raise self.error("expected the memref's dims", epos)
        if len(mshape) != len(grid):
            raise self.error(f"memref rank {len(mshape)} does not match grid rank {len(grid)} ({xs(grid)})", rpos)
        self.expect(",", "',' before the memory space")
        self.expect_dialect("#memory_space", "'#tt.memory_space<'")
        space, spos = self.ident("a memory space (system, mmio, dram, l1)")
        if space not in MEMORY_SPACES:
            raise self.error(f"memory space {space!r} is not one of {', '.join(MEMORY_SPACES)}", spos)
        self.expect(">", "'>' to close the memory space")
        self.expect(">", "'>' to close 'memref<'")
        self.expect(">", "'>' to close '#tt.metal_layout<'")
        try:
            ml = MetalLayout(shape, linear, grid, elem, space, oob, tile, tile_dtype)
        except LayoutError as e:
            pos = gpos if "tile" in str(e) and "grid" in str(e) else mpos
            raise self.error(str(e), pos) from None
        if ml.memref_shape != mshape:
            if tile:
                msg = (f"memref {xs(mshape)} does not match {xs(ml.memref_shape)} = shard {xs(ml.shard_shape)} "
                       f"in {th}x{tw} tiles (shard = ceilDiv(physical {xs(ml.physical_shape)}, grid {xs(grid)}))")
            else:
                msg = (f"memref {xs(mshape)} does not match {xs(ml.memref_shape)} = "
                       f"ceilDiv(physical {xs(ml.physical_shape)}, grid {xs(grid)})")
            raise self.error(msg, rpos)
        return ml

    # --- device ------------------------------------------------------------------------
    def device(self):
        self.expect_dialect("#device", "'#tt.device<' or 'tensor<'")
        self.expect("workerGrid", "'workerGrid'")
        self.expect("=", "'=' after 'workerGrid'")
        gpos = self.expect_dialect("#grid", "'#tt.grid<'")
        grid = self.dims("a grid dim")
        if any(g < 1 for g in grid):
            raise self.error(f"worker grid {xs(grid)}: every dim must be >= 1", gpos)
        self.expect(",", "',' before the worker grid map")
        gmap, mpos = self.affine_map()
        self.expect(">", "'>' to close '#tt.grid<'")
        self.expect(",", "',' after the worker grid")
        for name in ("l1Map", "dramMap"):  # newer tt-mlir prints these; derived from the system, so dropped
            if self.accept(name):
                self.expect("=", f"'=' after '{name}'")
                self.affine_map()
                self.expect(",", f"',' after the {name}")
        self.expect("meshShape", "'meshShape'")
        self.expect("=", "'=' after 'meshShape'")
        spos = self.ws()
        # newer tt-mlir prints an empty mesh shape for a single device
        mesh = (1,) if self.peek(",") else self.dims("a mesh dim")
        if any(m < 1 for m in mesh):
            raise self.error(f"mesh shape {xs(mesh)}: every dim must be >= 1", spos)
        self.expect(",", "',' after the mesh shape")
        self.expect("chipIds", "'chipIds'")
        self.expect("=", "'=' after 'chipIds'")
        cpos = self.ws()
        self.expect("[", "'['")
        ids = [self.integer("a chip id")[0]]
        while self.accept(","):
            ids.append(self.integer("a chip id")[0])
        self.expect("]", "',' or ']'")
        topo, tpos = None, None
        if self.accept(","):
            self.expect("meshTopology", "'meshTopology'")
            self.expect("=", "'=' after 'meshTopology'")
            tpos = self.ws()
            self.expect("[", "'['")
            topo = []
            while True:
                name, npos = self.ident("a topology (ring, linear, disabled)")
                if name not in TOPOLOGIES:
                    raise self.error(f"topology {name!r} is not one of {', '.join(TOPOLOGIES)}", npos)
                topo.append(name)
                if not self.accept(","):
                    break
            self.expect("]", "',' or ']'")
        self.expect(">", "'>' to close '#tt.device<'")
        try:
            return Device(grid, gmap, mesh, ids, topo)
        except LayoutError as e:
            msg = str(e)
            pos = mpos if "map" in msg else tpos if "Topology" in msg else cpos
            raise self.error(msg, pos) from None


def parse_tensor(text: str) -> MetalLayout:
    """Parse ``tensor<shape x elem, #tt.metal_layout<...>>`` into a ``MetalLayout``.

    >>> parse_tensor("tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
    ...              "memref<1x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>").tile_dtype
    'bfp_bf8'
    """
    p = _Parser(text)
    ml = p.tensor()
    p.end()
    return ml


def parse_device(text: str) -> Device:
    """Parse ``#tt.device<workerGrid = ..., meshShape = ..., chipIds = [...]>`` into a ``Device``.

    >>> parse_device("#tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1, chipIds = [0]>").grid_shape
    (8, 8)
    """
    p = _Parser(text)
    d = p.device()
    p.end()
    return d


def parse(text: str):
    """Parse tt text: a ``tensor<...>`` with a metal layout, or a ``#tt.device<...>``.

    >>> type(parse("#tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, "
    ...            "meshShape = 1x2, chipIds = [0, 1]>")).__name__
    'Device'
    >>> parse("#tt.metal_layout<(d0) -> (d0), undef, <1>, memref<4xf32, #tt.memory_space<l1>>>")
    Traceback (most recent call last):
    ...
    unilayout.errors.ParseError: a #tt.metal_layout needs its tensor: write tensor<...xf32, #tt.metal_layout<...>> at position 0
      #tt.metal_layout<(d0) -> (d0), undef, <1>, memref<4xf32, #tt.memory_space<l1>>>
      ^
    """
    p = _Parser(text)
    pos = p.ws()
    t = p.text
    if any(t.startswith(f"#{d}.metal_layout", pos) for d in _DIALECTS):
        if "logical_shape" in t[pos:pos + 60]:
            raise p.error("v2 metal_layout is not supported (only the v1 form inside a tensor<...>)", pos)
        raise p.error("a #tt.metal_layout needs its tensor: write tensor<...xf32, #tt.metal_layout<...>>", pos)
    if any(t.startswith(f"#{d}.device", pos) for d in _DIALECTS):
        return parse_device(text)
    if t.startswith("tensor", pos):
        return parse_tensor(text)
    raise p.error(f"expected 'tensor<' or '#tt.device<', found {p.found()}", pos)
