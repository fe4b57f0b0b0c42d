"""Text of the tt dialects: metal layouts (v1 and v2), ``#tt.device<...>``, TTNN layouts and memory configs.

Grammar (whitespace and newlines free between tokens; ``ttcore`` accepted for ``tt``)::

    tensor-type  ::= 'tensor<' (INT 'x')* (elem | tile) ',' (metal-layout | v2-layout | ttnn-layout) '>'
    v2-layout    ::= '#ttcore.metal_layout<' 'logical_shape' '=' dims ',' 'dim_alignments' '=' dims ','
                     'collapsed_intervals' '=' 'dense<' ['[' pair (',' pair)* ']'] '>' ':' 'tensor<' N 'x2xi64>'
                     ',' [oob ','] space [',' ('sharded' | 'interleaved')] [',' 'index_map' '=' ('map(' INT ')' | map)] '>'
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
and an empty ``meshShape =`` means one chip (printed back as ``meshShape = 1``);
so are today's ``virt_to_physical_map = ..., physical_to_virt_map = ...`` grid
maps (the second is the first's inverse) and ``dramGrid = #ttcore.grid<..>``.
A v2 tensor is device-shaped (grid ++ shard, the shard in tiles for a tile
element; see ``tt.v2``); the v2 attribute alone reads with a 1x..x1 grid.
``#ttnn.*`` text is read by ``tt.ttnn.text``; ``parse_module`` reads a dump.

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

from .._ints import as_int
from .._text import Scanner, check_text
from ..affine.text import read_map
from ..errors import LayoutError, ParseError
from .device import TOPOLOGIES, Device
from ._mlir import xs
from .metal.alignment import normalize_and_flatten
from .metal.metal import MEMORY_SPACES, OOB_VALS, TILE_DTYPES, MetalLayout, is_scalar_type
from .metal.v2 import MEMORY_LAYOUTS, MetalLayoutV2, _read_index_map
from .ttnn.text import read_ttnn_attribute, read_ttnn_tensor

__all__ = ["parse", "parse_tensor", "parse_device", "parse_module"]

_DIALECTS = ("tt", "ttcore")


class _Parser:
    """The tt grammar over one shared ``Scanner`` (embedded affine maps are read by ``affine.text.read_map``)."""

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
        for d in _DIALECTS:
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

    # --- metal layout --------------------------------------------------------------------
    def tensor(self):
        tpos = self.ws()
        self.expect("tensor<", "'tensor<'")
        shape, pos = self.shape_and_type("tensor")
        if not shape:
            raise self.error("expected the tensor's dims before its element type (rank-0 tensors have no layout)", pos)
        tile = None
        if self.peek("!"):
            tile = self.tile_type()
            elem = None
        else:
            elem, epos = self.ident("an element type (f32, bf16, ...) or '!ttcore.tile<...>'")
            if not is_scalar_type(elem):
                raise self.error(f"element type {elem!r} is not one of f16, bf16, f32, f64, iN, siN, uiN", epos)
        if self.accept(">"):
            raise self.error("tensor has no layout encoding: expected ', #ttcore.metal_layout<...>' "
                             "(or '#tt.metal_layout<...>', '#ttnn.ttnn_layout<...>')", self.s.pos - 1)
        self.expect(",", "',' and a layout encoding")
        apos = self.ws()
        if self.s.text.startswith(("#ttcore.tensor_mesh<", "#tt.tensor_mesh<"), apos):
            raise self.error("this tensor's only encoding is #ttcore.tensor_mesh: it names the device mesh the "
                             "tensor lives on (one shard per device) and gives no layout; a TTNN tensor carries it "
                             "inside its layout: #ttnn.ttnn_layout<map, grid, mesh = <\"mesh\">, memref, ...>", apos)
        if self.s.text.startswith("#ttnn.", apos):
            value = read_ttnn_tensor(self, shape, elem, tile, pos)
        elif self.v2_ahead():
            value = self.metal_v2(shape=shape, elem=elem, tile=tile, tensor_pos=tpos)
        else:
            if tile is not None:
                raise self.error("a #tt.metal_layout (v1) tensor keeps its logical element type: "
                                 "the tile belongs in its memref", pos)
            value = self.metal_layout(shape, elem)
        self.expect(">", "'>' to close 'tensor<'")
        return value

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

    def memref_head(self, elem, v1=False):
        """'memref<' dims 'x' (element | tile) -> ``(rpos, mshape, epos, tile, tile_dtype)``.

        ``rpos``: where 'memref<' starts, ``epos``: where its element or tile is read; ``tile``
        and ``tile_dtype`` are None for a scalar memref, whose element must be ``elem``.
        ``v1``: the '!tt.tile<' spelling, a bad tile size reported at ``epos``.
        """
        rpos = self.ws()
        self.expect("memref<", "'memref<'")
        mshape, epos = self.shape_and_type("memref")
        dialect = "tt" if v1 else "ttcore"
        if self.peek("!"):
            th, tw, tile_dtype = self.tile_type(epos if v1 else None, f"'!{dialect}.tile<'")
            return rpos, mshape, epos, (th, tw), tile_dtype
        melem, _ = self.ident(f"the memref element type or '!{dialect}.tile<...>'")
        if melem != elem:
            raise self.error(f"memref element type {melem} does not match the tensor's {elem}", epos)
        return rpos, mshape, epos, None, None

    def v2_ahead(self):
        """True when a '#tt(core).metal_layout<logical_shape' starts here."""
        pos = self.ws()
        t = self.s.text
        for d in _DIALECTS:
            head = f"#{d}.metal_layout<"
            if t.startswith(head, pos):
                j = pos + len(head)
                while j < len(t) and t[j] in " \t\r\n":
                    j += 1
                return t.startswith("logical_shape", j)
        return False

    # --- v2 metal layout -------------------------------------------------------------------
    def metal_v2(self, shape=None, elem=None, tile=None, tensor_pos=None):
        """'#ttcore.metal_layout<logical_shape = ..., ...>'; with ``shape``, the device-shaped tensor's dims."""
        apos = self.expect_dialect("#metal_layout", "'#ttcore.metal_layout<'")
        self.expect("logical_shape", "'logical_shape'")
        self.expect("=", "'=' after 'logical_shape'")
        lpos = self.ws()
        logical = self.dims("a logical dim")
        self.expect(",", "','")
        self.expect("dim_alignments", "'dim_alignments'")
        self.expect("=", "'=' after 'dim_alignments'")
        dpos = self.ws()
        align = self.dims("an alignment")
        self.expect(",", "','")
        self.expect("collapsed_intervals", "'collapsed_intervals'")
        self.expect("=", "'=' after 'collapsed_intervals'")
        ipos = self.ws()
        intervals = self.dense_pairs()
        self.expect(",", "',' after the collapsed intervals")
        word, wpos = self.ident("an oob value or a memory space")
        show_oob, oob = word in OOB_VALS, "undef"
        if show_oob:
            oob = word
            self.expect(",", "',' after the oob value")
            word, wpos = self.ident("a memory space (system, mmio, dram, l1)")
        if word not in MEMORY_SPACES:
            raise self.error(f"memory space {word!r} is not one of {', '.join(MEMORY_SPACES)}", wpos)
        space, layout, index_map = word, None, None
        while self.accept(","):
            if self.peek("index_map"):
                self.expect("index_map")
                self.expect("=", "'=' after 'index_map'")
                mpos = self.ws()
                if self.accept("map"):
                    self.expect("(", "'(' after 'map'")
                    n = self.integer("the identity map's rank")[0]
                    self.expect(")", "')'")
                    index_map = _read_index_map(f"map({n})")
                else:
                    index_map, mpos = self.affine_map()
                continue
            word, wpos = self.ident("sharded, interleaved or index_map")
            if word not in MEMORY_LAYOUTS or layout is not None:
                raise self.error(f"expected the memory layout (sharded, interleaved) or 'index_map = ...', got {word!r}", wpos)
            layout = word
        self.expect(">", "'>' to close '#ttcore.metal_layout<'")
        if len(logical) < 2:
            raise self.error(f"logical_shape must have at least 2 dimensions, got {len(logical)}", lpos)
        if len(align) != len(logical):
            raise self.error(f"dim_alignments size ({len(align)}) must match logical_shape rank ({len(logical)})", dpos)
        try:
            norm = normalize_and_flatten(intervals, len(logical))
        except LayoutError as e:
            raise self.error(str(e), ipos) from None
        g = len(norm)
        if shape is None:
            grid, tile, elem = (1,) * g, None, "f32"
        else:
            if len(shape) != 2 * g:
                raise self.error(
                    f"tensor {xs(shape)} has rank {len(shape)} but the layout has {g} physical dims: a v2 tensor is "
                    f"device-shaped, grid ++ shard ({2 * g} dims)", tensor_pos)
            grid = shape[:g]
        try:
            ml = MetalLayoutV2(logical, grid, align, intervals, elem or "f32", space, oob,
                               tile[:2] if tile else None, tile[2] if tile else None, layout, index_map, show_oob)
            if shape is not None:
                ml.check_tensor_shape(shape)
        except LayoutError as e:
            raise self.error(str(e), tensor_pos if shape is not None else apos) from None
        return ml

    def _intervals_type(self):
        """':' 'tensor<' N 'x' M 'x' type '>' after a dense<...> -> (its position, N, M, type)."""
        self.expect(":", "':' and the intervals' tensor type")
        tpos = self.ws()
        self.expect("tensor<", "'tensor<'")
        n = self.integer("the number of intervals")[0]
        self.expect("x", "'x'")
        two = self.integer("2")[0]
        self.expect("x", "'x'")
        ty, _ = self.ident("the element type i64")
        self.expect(">", "'>'")
        return tpos, n, two, ty

    def dense_pairs(self):
        """'dense<[[a, b], ...]>' ':' 'tensor<Nx2xi64>' -> ((a, b), ...)."""
        self.expect("dense<", "'dense<'")
        pos = self.ws()
        pairs = []
        if self.accept(">"):  # dense<> : tensor<0x2xi64>: no interval, every dim its own
            tpos, n, two, _ = self._intervals_type()
            if (n, two) != (0, 2):
                raise self.error(f"dense<> is empty but its type is tensor<{n}x{two}x...>", tpos)
            return ()
        self.expect("[", "'['")
        if self.s.peek() != "[":
            raise self.error("collapsed_intervals must be a 2D array, got rank 1", pos)
        while True:
            ppos = self.ws()
            self.expect("[", "'['")
            vals = [self.s.integer(signs="-", what="an interval bound")]
            while self.accept(","):
                vals.append(self.s.integer(signs="-", what="an interval bound"))
            self.expect("]", "',' or ']'")
            if len(vals) != 2:
                raise self.error(f"collapsed_intervals must have pairs (second dim size 2), got {len(vals)}", ppos)
            pairs.append(tuple(vals))
            if not self.accept(","):
                break
        self.expect("]", "',' or ']'")
        self.expect(">", "'>' to close 'dense<'")
        tpos, n, two, ty = self._intervals_type()
        if (n, two) != (len(pairs), 2) or ty not in ("i64", "si64", "i32"):
            raise self.error(f"dense intervals {len(pairs)}x2 do not match their type tensor<{n}x{two}x{ty}>", tpos)
        return tuple(pairs)

    def metal_layout(self, shape, elem):
        lpos = self.ws()
        for d in _DIALECTS:
            if self.s.text.startswith(f"#{d}.layout<", self.s.pos):
                raise self.error("#tt.layout is the pre-2024-08 name: write #tt.metal_layout")
        self.expect_dialect("#metal_layout", "'#tt.metal_layout<'")
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
        if self.s.text.startswith("<", self.s.pos):
            self.s.pos += 1
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
        rpos, mshape, epos, tile, tile_dtype = self.memref_head(elem, v1=True)
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
                       f"in {xs(tile)} tiles (shard = ceilDiv(physical {xs(ml.physical_shape)}, grid {xs(grid)}))")
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
        if self.accept("virt_to_physical_map"):  # today's tt-mlir names both directions
            self.expect("=", "'=' after 'virt_to_physical_map'")
        gmap, mpos = self.affine_map()
        if self.accept(","):
            self.expect("physical_to_virt_map", "'physical_to_virt_map'")
            self.expect("=", "'=' after 'physical_to_virt_map'")
            self.affine_map()  # the inverse of the worker-grid map: derived, so dropped
        self.expect(">", "'>' to close '#tt.grid<'")
        self.expect(",", "',' after the worker grid")
        if self.accept("dramGrid"):  # the DRAM bank grid (1x12 on Wormhole): a property of the system, dropped
            self.expect("=", "'=' after 'dramGrid'")
            self.expect_dialect("#grid", "'#ttcore.grid<'")
            self.dims("a DRAM grid dim")
            self.expect(">", "'>' to close the DRAM grid")
            self.expect(",", "',' after the DRAM grid")
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
    t = p.s.text
    if any(t.startswith(f"#{d}.metal_layout", pos) for d in _DIALECTS):
        if p.v2_ahead():
            ml = p.metal_v2()
            p.end()
            return ml
        raise p.error("a #tt.metal_layout needs its tensor: write tensor<...xf32, #tt.metal_layout<...>>", pos)
    if t.startswith("#ttnn.", pos):
        value = read_ttnn_attribute(p)
        p.end()
        return value
    if any(t.startswith(f"#{d}.device", pos) for d in _DIALECTS):
        return parse_device(text)
    if t.startswith("tensor", pos):
        return parse_tensor(text)
    p.s.expected("'tensor<' or '#tt.device<'", pos)


_LAYOUT_HEADS = ("#ttcore.metal_layout<", "#tt.metal_layout<", "#ttnn.ttnn_layout<", "#ttnn.ttnn_nd_layout<",
                 "#ttnn.memory_config<", "#ttnn.nd_shard_spec<",
                 "#ttcore.device<", "#tt.device<")


def _close(text, start):
    """Index just past the '>' matching the '<' at ``start`` (arrows '->' and '>=' do not count)."""
    depth, i, n = 0, start, len(text)
    while i < n:
        c = text[i]
        if c == "<":
            depth += 1
        elif c == ">" and text[i - 1] != "-":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ParseError("unclosed '<'", text, start)


def parse_module(text: str) -> dict:
    """Every tt layout in an IR dump: ``{alias or tensor type text: value}``.

    Alias lines ``#name = #ttcore.metal_layout<...>`` (and ``#ttnn.memory_config``,
    ``#ttcore.device``) give ``"#name"`` entries; every ``tensor<...>`` whose
    encoding is a tt layout — written inline or as one of those aliases (a
    ``#ttnn.ttnn_layout`` alias included) — gives an entry keyed by its text
    as written. Each distinct text is parsed once. Tensors without a tt
    encoding are skipped; a bad layout raises its ``ParseError`` (positions
    in the text with aliases substituted).

    >>> m = parse_module('''
    ... #l = #ttcore.metal_layout<logical_shape = 64x64, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, undef, l1, sharded>
    ... %0 = d2m.empty() : tensor<2x2x32x32xf32, #l>
    ... %1 = "ttir.abs"(%a) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    ... ''')
    >>> sorted(m), m["tensor<2x2x32x32xf32, #l>"].grid
    (['#l', 'tensor<2x2x32x32xf32, #l>'], (2, 2))
    """
    import re

    check_text(text, "IR text")
    aliases, out = {}, {}
    for m in re.finditer(r"^[ \t]*(#[\w.$-]+)[ \t]*=[ \t]*", text, re.M):
        k = m.end()
        head = next((h for h in _LAYOUT_HEADS if text.startswith(h, k)), None)
        if head is not None:
            aliases[m.group(1)] = text[k:_close(text, k + len(head) - 1)]
    for name, body in aliases.items():
        if not body.startswith(("#ttnn.ttnn_layout", "#ttnn.ttnn_nd_layout")):
            out[name] = parse(body)
    cache = {}
    i = text.find("tensor<")
    while i >= 0:
        end = _close(text, i + len("tensor"))
        t = text[i:end]
        depth, comma = 0, -1
        for j in range(7, len(t) - 1):
            c = t[j]
            if c == "<":
                depth += 1
            elif c == ">" and t[j - 1] != "-":
                depth -= 1
            elif c == "," and depth == 0:
                comma = j
                break
        enc = t[comma + 1:-1].strip() if comma >= 0 else ""
        body = None
        if enc in aliases:
            body = t[:comma + 1] + " " + aliases[enc] + ">"
        elif enc.startswith(_LAYOUT_HEADS):
            body = t
        if body is not None and t not in out:
            if body not in cache:
                cache[body] = parse_tensor(body)
            out[t] = cache[body]
        i = text.find("tensor<", end if body is not None else i + 7)
    return out
