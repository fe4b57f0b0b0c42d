"""Reading metal layouts: the v1 ``#tt.metal_layout<...>`` and the v2 ``#ttcore.metal_layout<logical_shape = ...>``.

Grammar (whitespace and newlines free between tokens; ``ttcore`` accepted for ``tt``)::

    v2-layout    ::= '#ttcore.metal_layout<' 'logical_shape' '=' dims ',' 'dim_alignments' '=' dims ','
                     'collapsed_intervals' '=' 'dense<' ['[' pair (',' pair)* ']'] '>' ':' 'tensor<' N 'x2xi64>'
                     ',' [oob ','] space [',' ('sharded' | 'interleaved')] [',' 'index_map' '=' ('map(' INT ')' | map)] '>'
    metal-layout ::= '#tt.metal_layout<' map ',' oob ',' grid ',' memref '>'
    map          ::= '(' dims ')' '->' '(' results ')'  |  'affine_map<' ... '>'
    grid         ::= '<' INT ('x' INT)* '>'  |  '#tt.grid<' INT ('x' INT)* '>'
    memref       ::= 'memref<' (INT 'x')+ (elem | tile) ',' '#tt.memory_space<' space '>' '>'
    tile         ::= '!tt.tile<' INT 'x' INT ',' dtype '>'

A v1 layout needs its tensor (the logical shape is the tensor's); a v2
tensor is device-shaped (grid ++ shard, the shard in tiles for a tile
element; see ``v2``), and the v2 attribute alone reads with a 1x..x1 grid.
Each function takes the shared ``Reader`` positioned at the attribute;
``unilayout.tt.parse`` is the front door:

>>> from unilayout.tt._reader import Reader
>>> p = Reader("#ttcore.metal_layout<logical_shape = 64x64, dim_alignments = 32x32, "
...            "collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, undef, l1, sharded>")
>>> v2_ahead(p), read_v2(p).physical_shape
(True, (64, 64))
"""

from __future__ import annotations

from ...errors import LayoutError
from .._mlir import xs
from .._reader import DIALECTS
from .alignment import normalize_and_flatten
from .metal import MEMORY_SPACES, OOB_VALS, MetalLayout
from .v2 import _RANK1, MEMORY_LAYOUTS, MetalLayoutV2, _read_index_map

__all__ = ["v2_ahead", "read_v2", "read_v1", "dense_pairs"]


def v2_ahead(p):
    """True when a '#tt(core).metal_layout<logical_shape' starts here."""
    pos = p.ws()
    t = p.s.text
    for d in DIALECTS:
        head = f"#{d}.metal_layout<"
        if t.startswith(head, pos):
            j = pos + len(head)
            while j < len(t) and t[j] in " \t\r\n":
                j += 1
            return t.startswith("logical_shape", j)
    return False


def read_v2(p, shape=None, elem=None, tile=None, tensor_pos=None):
    """'#ttcore.metal_layout<logical_shape = ..., ...>'; with ``shape``, the device-shaped tensor's dims."""
    apos = p.expect_dialect("#metal_layout", "'#ttcore.metal_layout<'")
    p.expect("logical_shape", "'logical_shape'")
    p.expect("=", "'=' after 'logical_shape'")
    lpos = p.ws()
    logical = p.dims("a logical dim")
    p.expect(",", "','")
    p.expect("dim_alignments", "'dim_alignments'")
    p.expect("=", "'=' after 'dim_alignments'")
    dpos = p.ws()
    align = p.dims("an alignment")
    p.expect(",", "','")
    p.expect("collapsed_intervals", "'collapsed_intervals'")
    p.expect("=", "'=' after 'collapsed_intervals'")
    ipos = p.ws()
    intervals = dense_pairs(p)
    p.expect(",", "',' after the collapsed intervals")
    word, wpos = p.ident("an oob value or a memory space")
    show_oob, oob = word in OOB_VALS, "undef"
    if show_oob:
        oob = word
        p.expect(",", "',' after the oob value")
        word, wpos = p.ident("a memory space (system, mmio, dram, l1)")
    if word not in MEMORY_SPACES:
        raise p.error(f"memory space {word!r} is not one of {', '.join(MEMORY_SPACES)}", wpos)
    space, layout, index_map = word, None, None
    while p.accept(","):
        if p.peek("index_map"):
            p.expect("index_map")
            p.expect("=", "'=' after 'index_map'")
            mpos = p.ws()
            if p.accept("map"):
                p.expect("(", "'(' after 'map'")
                n, npos = p.integer("the identity map's rank")
                p.expect(")", "')'")
                try:
                    index_map = _read_index_map(f"map({n})")
                except LayoutError as e:
                    raise p.error(str(e), npos) from None
            else:
                index_map, mpos = p.affine_map()
            continue
        word, wpos = p.ident("sharded, interleaved or index_map")
        if word not in MEMORY_LAYOUTS or layout is not None:
            raise p.error(f"expected the memory layout (sharded, interleaved) or 'index_map = ...', got {word!r}", wpos)
        layout = word
    p.expect(">", "'>' to close '#ttcore.metal_layout<'")
    if len(align) != len(logical):
        raise p.error(f"dim_alignments size ({len(align)}) must match logical_shape rank ({len(logical)})", dpos)
    try:
        norm = normalize_and_flatten(intervals, len(logical), keep_empty=True)
    except LayoutError as e:
        raise p.error(str(e), ipos) from None
    if len(logical) < 2 and len(norm) < 2:
        raise p.error(_RANK1, lpos)
    g = len(norm)
    if shape is None:
        grid, tile, elem = (1,) * g, None, "f32"
    else:
        if len(shape) != 2 * g:
            raise p.error(
                f"tensor {xs(shape)} has rank {len(shape)} but the layout has {g} physical dims: a v2 tensor is "
                f"device-shaped, grid ++ shard ({2 * g} dims)", tensor_pos)
        grid = shape[:g]
    try:
        ml = MetalLayoutV2(logical, grid, align, intervals, elem or "f32", space, oob,
                           tile[:2] if tile else None, tile[2] if tile else None, layout, index_map, show_oob)
        if shape is not None:
            ml.check_tensor_shape(shape)
    except LayoutError as e:
        raise p.error(str(e), tensor_pos if shape is not None else apos) from None
    return ml


def _intervals_type(p):
    """':' 'tensor<' N 'x' M 'x' type '>' after a dense<...> -> (its position, N, M, type)."""
    p.expect(":", "':' and the intervals' tensor type")
    tpos = p.ws()
    p.expect("tensor<", "'tensor<'")
    n = p.integer("the number of intervals")[0]
    p.expect("x", "'x'")
    two = p.integer("2")[0]
    p.expect("x", "'x'")
    ty, _ = p.ident("the element type i64")
    p.expect(">", "'>'")
    return tpos, n, two, ty


def dense_pairs(p):
    """'dense<[[a, b], ...]>' ':' 'tensor<Nx2xi64>' -> ((a, b), ...)."""
    p.expect("dense<", "'dense<'")
    pos = p.ws()
    pairs = []
    if p.accept(">"):  # dense<> : tensor<0x2xi64>: no interval, every dim its own
        tpos, n, two, _ = _intervals_type(p)
        if (n, two) != (0, 2):
            raise p.error(f"dense<> is empty but its type is tensor<{n}x{two}x...>", tpos)
        return ()
    p.expect("[", "'['")
    if p.s.peek() != "[":
        raise p.error("collapsed_intervals must be a 2D array, got rank 1", pos)
    while True:
        ppos = p.ws()
        p.expect("[", "'['")
        vals = [p.s.integer(signs="-", what="an interval bound")]
        while p.accept(","):
            vals.append(p.s.integer(signs="-", what="an interval bound"))
        p.expect("]", "',' or ']'")
        if len(vals) != 2:
            raise p.error(f"collapsed_intervals must have pairs (second dim size 2), got {len(vals)}", ppos)
        pairs.append(tuple(vals))
        if not p.accept(","):
            break
    p.expect("]", "',' or ']'")
    p.expect(">", "'>' to close 'dense<'")
    tpos, n, two, ty = _intervals_type(p)
    if (n, two) != (len(pairs), 2) or ty not in ("i64", "si64", "i32"):
        raise p.error(f"dense intervals {len(pairs)}x2 do not match their type tensor<{n}x{two}x{ty}>", tpos)
    return tuple(pairs)


def read_v1(p, shape, elem):
    """'#tt.metal_layout<' map ',' oob ',' grid ',' memref '>' of ``tensor<shape x elem, ...>`` -> ``MetalLayout``."""
    p.ws()
    for d in DIALECTS:
        if p.s.text.startswith(f"#{d}.layout<", p.s.pos):
            raise p.error("#tt.layout is the pre-2024-08 name: write #tt.metal_layout")
    p.expect_dialect("#metal_layout", "'#tt.metal_layout<'")
    linear, mpos = p.affine_map()
    if linear.num_symbols:
        raise p.error(f"affine map has {linear.num_symbols} symbol(s): a metal layout's map takes none", mpos)
    if linear.num_dims != len(shape):
        raise p.error(
            f"affine map has {linear.num_dims} dims but the tensor has rank {len(shape)}: "
            "give one dim per logical dim", mpos)
    p.expect(",", "',' after the affine map")
    oob, opos = p.ident("an oob_val (undef, zero, one, inf, neginf)")
    if oob not in OOB_VALS:
        raise p.error(f"oob_val {oob!r} is not one of {', '.join(OOB_VALS)}", opos)
    p.expect(",", "',' after the oob_val")
    gpos = p.ws()
    if p.s.text.startswith("<", p.s.pos):
        p.s.pos += 1
    else:
        p.expect_dialect("#grid", "a grid '<2x4>'")
    grid = p.dims("a grid dim")
    if any(g < 1 for g in grid):
        raise p.error(f"grid {xs(grid)}: every dim must be >= 1", gpos)
    p.expect(">", "'x' or '>' to close the grid")
    if linear.num_results != len(grid):
        raise p.error(
            f"affine map has {linear.num_results} results but the grid {xs(grid)} has rank {len(grid)}: "
            "they must agree", gpos)
    p.expect(",", "',' after the grid")
    rpos, mshape, epos, tile, tile_dtype = p.memref_head(elem, v1=True)
    if not mshape:
        raise p.error("expected the memref's dims", epos)
    if len(mshape) != len(grid):
        raise p.error(f"memref rank {len(mshape)} does not match grid rank {len(grid)} ({xs(grid)})", rpos)
    p.expect(",", "',' before the memory space")
    p.expect_dialect("#memory_space", "'#tt.memory_space<'")
    space, spos = p.ident("a memory space (system, mmio, dram, l1)")
    if space not in MEMORY_SPACES:
        raise p.error(f"memory space {space!r} is not one of {', '.join(MEMORY_SPACES)}", spos)
    p.expect(">", "'>' to close the memory space")
    p.expect(">", "'>' to close 'memref<'")
    p.expect(">", "'>' to close '#tt.metal_layout<'")
    try:
        ml = MetalLayout(shape, linear, grid, elem, space, oob, tile, tile_dtype)
    except LayoutError as e:
        pos = gpos if "tile" in str(e) and "grid" in str(e) else mpos
        raise p.error(str(e), pos) from None
    if ml.memref_shape != mshape:
        if tile:
            msg = (f"memref {xs(mshape)} does not match {xs(ml.memref_shape)} = shard {xs(ml.shard_shape)} "
                   f"in {xs(tile)} tiles (shard = ceilDiv(physical {xs(ml.physical_shape)}, grid {xs(grid)}))")
        else:
            msg = (f"memref {xs(mshape)} does not match {xs(ml.memref_shape)} = "
                   f"ceilDiv(physical {xs(ml.physical_shape)}, grid {xs(grid)})")
        raise p.error(msg, rpos)
    return ml
