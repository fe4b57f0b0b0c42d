"""Reading TTNN's text: ``#ttnn.ttnn_layout<...>`` / ``#ttnn.ttnn_nd_layout<...>`` (on a tensor), ``#ttnn.memory_config<...>``.

Grammar (whitespace free between tokens; read on the tt parser's ``Scanner``)::

    ttnn-layout   ::= '#ttnn.ttnn_layout<' map ',' grid ',' ['mesh' '=' tensor-mesh ','] memref [',' '<' mem-layout '>']
                      (',' 'core_ranges' '=' core-range-set | ',' 'exactGrid' '=' ('true'|'false'))* '>'
    grid          ::= '<' INT ('x' INT)* [',' map | ',' 'virt_to_physical_map' '=' map
                      [',' 'physical_to_virt_map' '=' map]] '>'
    memref        ::= 'memref<' (INT 'x')+ (elem | tile) ',' buffer '>'
    buffer        ::= '#ttnn.buffer_type<' NAME '>' | '#dram' | '#l1' | '#system_memory' | '#l1_small'
    tensor-mesh   ::= ['#ttcore.tensor_mesh'] '<' '"' NAME '"' '>'
    nd-layout     ::= '#ttnn.ttnn_nd_layout<' '<' INT 'x' INT '>' ',' memref ',' '<' mem-layout '>' ','
                      '<' orientation '>' ',' '<' ('round_robin_1d' | 'grid_2d') '>' '>'
    memory-config ::= '#ttnn.memory_config<' buffer [',' '<' mem-layout '>'] [',' (shard-spec | nd-shard-spec)] '>'
    nd-shard-spec ::= '#ttnn.nd_shard_spec<' '<' ranges '>' ',' '<' INT ('x' INT)* '>' ',' '<' orientation '>' ','
                      '<' ('round_robin_1d' | 'grid_2d') '>' '>'
    shard-spec    ::= '#ttnn.shard_spec<' ('<' ranges '>' | core-range-set) ',' '<' INT 'x' INT '>' ','
                      '<' ('row_major' | 'col_major') '>' [',' '<' ('physical' | 'logical') '>'] '>'
    core-range-set ::= '#ttnn.core_range_set<' ranges '>'
    ranges        ::= '[' core-range (',' core-range)* ']'
    core-range    ::= '#ttnn.core_range<(' INT ',' INT '),' '(' INT ',' INT ')>'

The buffer aliases are the names tt-mlir gives ``#ttnn.buffer_type<..>`` at the
top of a module; any other alias (``#core_range``, ``#ttnn_layout3``) is not
defined in a pasted attribute and is a ``ParseError`` naming it. The
physical-to-virtual grid map is the inverse of the other, derived, so dropped.

>>> from unilayout import tt
>>> c = tt.parse("#ttnn.memory_config<#dram, <interleaved>>")
>>> c.buffer_type, c.memory_layout, c.shard_spec
('dram', 'interleaved', None)
"""

from __future__ import annotations

from ...errors import LayoutError
from .._mlir import xs
from ..metal.metal import is_scalar_type
from ..ttnn_view import CoreRange, ShardSpec
from .attr import TTNNLayoutAttr
from .layout import TTNNTensorLayout
from .memory_config import MemoryConfig
from .nd import TTNNNDTensorLayout
from .ndshard import NdShardSpec
from .placement import BUFFER_TYPES, TTNN_MEMORY_LAYOUTS

__all__ = ["read_ttnn_tensor", "read_ttnn_attribute", "read_ttnn_layout_attribute", "read_memory_config", "read_nd_shard_spec"]

_ALIASES = {f"#{b}": b for b in BUFFER_TYPES}


def _buffer(p):
    pos = p.ws()
    if p.accept("#ttnn.buffer_type<"):
        name, npos = p.ident("a buffer type")
        if name not in BUFFER_TYPES:
            raise p.error(f"buffer type {name!r} is not one of {', '.join(BUFFER_TYPES)}", npos)
        p.expect(">", "'>' to close the buffer type")
        return name
    t = p.s.text
    j = pos + 1
    while j < len(t) and (t[j].isalnum() or t[j] in "_."):
        j += 1
    alias = t[pos:j]
    if alias in _ALIASES:
        p.s.pos = j
        return _ALIASES[alias]
    raise p.error(f"expected a buffer type ('#ttnn.buffer_type<l1>', '#l1', '#dram', '#system_memory'), "
                  f"found {alias or t[pos:pos + 1]!r}", pos)


def _angle_word(p, choices, what):
    pos = p.ws()
    p.expect("<", f"'<' and {what}")
    word, wpos = p.ident(what)
    if word not in choices:
        raise p.error(f"{what} {word!r} is not one of {', '.join(choices)}", wpos)
    p.expect(">", f"'>' after the {what}")
    return word, pos


def _core_range(p):
    pos = p.ws()
    if not p.accept("#ttnn.core_range<"):
        t = p.s.text
        if t.startswith("#", pos):
            name = t[pos:].split(",")[0].split("]")[0].strip()
            raise p.error(f"alias {name} is defined elsewhere in the module: paste its #ttnn.core_range<...>", pos)
        p.s.expected("'#ttnn.core_range<'")
    vals = []
    for k in range(2):
        if k:
            p.expect(",", "',' between the corners")
        p.expect("(", "'('")
        x = p.integer("an x coordinate")[0]
        p.expect(",", "','")
        y = p.integer("a y coordinate")[0]
        p.expect(")", "')'")
        vals.append((x, y))
    p.expect(">", "'>' to close the core range")
    if vals[1][0] < vals[0][0] or vals[1][1] < vals[0][1]:
        raise p.error(f"core range {vals[0]} .. {vals[1]} ends before it starts", pos)
    return CoreRange(vals[0], vals[1])


def _ranges(p):
    p.expect("[", "'['")
    out = [_core_range(p)]
    while p.accept(","):
        out.append(_core_range(p))
    p.expect("]", "',' or ']'")
    return tuple(out)


def _core_range_set(p):
    p.expect("#ttnn.core_range_set<", "'#ttnn.core_range_set<'")
    r = _ranges(p)
    p.expect(">", "'>' to close the core range set")
    return r


def _spec_ranges(p):
    """A shard spec's core ranges: '#ttnn.core_range_set<...>' or '<' ranges '>'."""
    if p.peek("#ttnn.core_range_set"):
        return _core_range_set(p)
    p.expect("<", "'<' and the core ranges")
    ranges = _ranges(p)
    p.expect(">", "'>' after the core ranges")
    return ranges


def read_nd_shard_spec(p):
    """'#ttnn.nd_shard_spec<' '<' ranges '>' ',' '<' dims '>' ',' '<' orientation '>' ',' '<' distribution '>' '>'."""
    start = p.ws()
    p.expect("#ttnn.nd_shard_spec<", "'#ttnn.nd_shard_spec<'")
    ranges = _spec_ranges(p)
    p.expect(",", "',' before the shard shape")
    p.expect("<", "'<' and the shard shape")
    shape = p.dims("a shard dim")
    p.expect(">", "'>' after the shard shape")
    p.expect(",", "',' before the orientation")
    orient, _ = _angle_word(p, ("row_major", "col_major"), "orientation")
    p.expect(",", "',' before the distribution strategy")
    dist, _ = _angle_word(p, ("round_robin_1d", "grid_2d"), "distribution strategy")
    p.expect(">", "'>' to close '#ttnn.nd_shard_spec<'")
    try:
        return NdShardSpec(shape, ranges, orient, dist.upper())
    except LayoutError as e:
        raise p.error(str(e), start) from None


def read_memory_config(p):
    """'#ttnn.memory_config<...>' -> ``MemoryConfig`` (the scanner at the '#')."""
    start = p.ws()
    p.expect("#ttnn.memory_config<", "'#ttnn.memory_config<'")
    buffer = _buffer(p)
    layout = spec = mode = None
    if p.accept(","):
        if p.peek("<"):
            layout, _ = _angle_word(p, TTNN_MEMORY_LAYOUTS, "memory layout")
        if layout is None or p.accept(","):
            spec, mode = (read_nd_shard_spec(p), None) if p.peek("#ttnn.nd_shard_spec") else _shard_spec(p)
    p.expect(">", "'>' to close '#ttnn.memory_config<'")
    try:
        return MemoryConfig(buffer, layout, spec, mode)
    except LayoutError as e:
        raise p.error(str(e), start) from None


def _shard_spec(p):
    p.expect("#ttnn.shard_spec<", "'#ttnn.shard_spec<'")
    ranges = _spec_ranges(p)
    p.expect(",", "',' before the shard shape")
    spos = p.ws()
    p.expect("<", "'<' and the shard shape")
    shape = p.dims("a shard dim")
    p.expect(">", "'>' after the shard shape")
    if len(shape) != 2 or min(shape) < 1:
        raise p.error(f"shard shape {xs(shape)} must be two sizes >= 1", spos)
    p.expect(",", "',' before the orientation")
    orient, _ = _angle_word(p, ("row_major", "col_major"), "orientation")
    mode = None
    if p.accept(","):
        mode, _ = _angle_word(p, ("physical", "logical"), "shard mode")
    p.expect(">", "'>' to close '#ttnn.shard_spec<'")
    return ShardSpec(ranges, shape, orient.upper()), mode


def _tensor_mesh(p):
    """``<"name">`` or ``#ttcore.tensor_mesh<"name">`` -> the mesh name."""
    p.ws()
    if not p.accept("#ttcore.tensor_mesh"):
        p.accept("#tt.tensor_mesh")
    p.expect("<", "'<' and the mesh name in quotes")
    p.expect('"', "the mesh name in quotes")
    t = p.s.text
    start = p.s.pos
    end = t.find('"', start)
    if end < 0 or end == start or "\n" in t[start:end] or ">" in t[start:end]:
        raise p.error("expected the mesh name and its closing '\"'", start)
    p.s.pos = end + 1
    p.expect(">", "'>' to close the tensor mesh")
    return t[start:end]


def _layout_fields(p, elem, apos):
    """The fields of a '#ttnn.ttnn_layout<' (read up to its '>'), with the positions errors point at."""
    linear, mpos = p.affine_map()
    p.expect(",", "',' after the affine map")
    gpos = p.ws()
    if not p.accept("<"):
        p.expect_dialect("#grid", "a grid '<1x6>'")
    grid = p.dims("a grid dim")
    grid_map = None
    if p.accept(","):
        if p.accept("virt_to_physical_map"):
            p.expect("=", "'=' after 'virt_to_physical_map'")
        grid_map, _ = p.affine_map()
        if p.accept(","):
            p.expect("physical_to_virt_map", "'physical_to_virt_map'")
            p.expect("=", "'='")
            p.affine_map()
    p.expect(">", "'>' to close the grid")
    p.expect(",", "',' after the grid")
    mesh = None
    if p.accept("mesh"):
        p.expect("=", "'=' after 'mesh'")
        mesh = _tensor_mesh(p)
        p.expect(",", "',' after the tensor mesh")
    rpos, mshape, _, ttile, tdtype = p.memref_head(elem, signed_ok=True)
    p.expect(",", "',' before the buffer type")
    buffer = _buffer(p)
    p.expect(">", "'>' to close 'memref<'")
    layout = ranges = exact = None
    lpos = cpos = apos
    while p.accept(","):
        if p.peek("<"):
            layout, lpos = _angle_word(p, TTNN_MEMORY_LAYOUTS, "memory layout")
        elif p.accept("core_ranges"):
            p.expect("=", "'=' after 'core_ranges'")
            cpos = p.ws()
            ranges = _spec_ranges(p)   # "<[...]>" as tt-mlir prints it, or "#ttnn.core_range_set<[...]>"
        elif p.accept("exactGrid"):
            p.expect("=", "'=' after 'exactGrid'")
            word, wpos = p.ident("true or false")
            if word not in ("true", "false"):
                raise p.error(f"exactGrid must be true or false, got {word!r}", wpos)
            exact = word == "true"
        else:
            p.s.expected("'<memory_layout>', 'core_ranges = ...' or 'exactGrid = ...'")
    p.expect(">", "'>' to close '#ttnn.ttnn_layout<'")
    return dict(linear=linear, grid=grid, grid_map=grid_map, mesh=mesh, mshape=mshape, ttile=ttile, tdtype=tdtype,
                buffer=buffer, layout=layout, ranges=ranges, exact=exact, mpos=mpos, gpos=gpos, rpos=rpos, lpos=lpos,
                cpos=cpos, melem=getattr(p, "memref_element", None) if ttile is None else None)


def _where(f, msg, apos):
    """Where a ``LayoutError`` from the layout's rules points: the field it names."""
    if "core_range_set" in msg:
        return f["cpos"] if f["ranges"] is not None else f["lpos"]
    if "layout" in msg and "grid" not in msg:
        return f["lpos"]
    return f["mpos"] if "map" in msg else f["gpos"] if "grid" in msg else f["rpos"] if "memref" in msg else apos


def read_ttnn_tensor(p, shape, elem, tile, pos):
    """The '#ttnn.ttnn_layout<...>' of ``tensor<shape x elem, ...>`` -> ``TTNNTensorLayout``."""
    apos = p.ws()
    if tile is not None or elem is None:
        raise p.error("a #ttnn.ttnn_layout tensor keeps its logical element type: the tile belongs in its memref", pos)
    if p.peek("#ttnn.ttnn_nd_layout<"):
        return read_nd_tensor(p, shape, elem, pos)
    if not p.accept("#ttnn.ttnn_layout<"):
        name = p.s.text[apos:].split(">")[0].split(",")[0]
        raise p.error(f"expected '#ttnn.ttnn_layout<' on a tensor, found {name!r}", apos)
    f = _layout_fields(p, elem, apos)
    if not is_scalar_type(elem):
        raise p.error(f"element type {elem!r} is not one of f16, bf16, f32, f64, iN, siN, uiN", pos)
    grid, mshape, ttile = f["grid"], f["mshape"], f["ttile"]
    try:
        L = TTNNTensorLayout(shape, f["linear"], grid, elem, f["buffer"], f["layout"], ttile, f["tdtype"],
                             f["grid_map"], f["ranges"], f["exact"], f["mesh"])
    except LayoutError as e:
        raise p.error(str(e), _where(f, str(e), apos)) from None
    if L.memref_shape != tuple(mshape):
        over = grid if L.interleaved_pages or L._pages() is None else L._pages().virtual
        rule = "pages per bank" if L.interleaved_pages else f"ceilDiv(physical {xs(L.physical_shape)}, grid {xs(over)})"
        if over != grid:
            rule += f" ({L.memory_layout} over the {xs(grid)} cores)"
        unit = f" in {xs(ttile)} tiles" if ttile else ""
        raise p.error(f"memref {xs(mshape)} does not match {xs(L.memref_shape)}{unit} = {rule}", f["rpos"])
    return L


def read_ttnn_layout_attribute(p):
    """A bare '#ttnn.ttnn_layout<...>' (no tensor) -> ``TTNNLayoutAttr``; the verifier's rules apply, no memref check."""
    apos = p.ws()
    p.expect("#ttnn.ttnn_layout<", "'#ttnn.ttnn_layout<'")
    f = _layout_fields(p, None, apos)
    try:
        return TTNNLayoutAttr(f["linear"], f["grid"], f["mshape"], f["melem"], f["buffer"], f["layout"], f["ttile"],
                              f["tdtype"], f["ranges"], f["grid_map"], f["exact"], f["mesh"])
    except LayoutError as e:
        raise p.error(str(e), _where(f, str(e), apos)) from None


def read_nd_tensor(p, shape, elem, pos):
    """The '#ttnn.ttnn_nd_layout<...>' of ``tensor<shape x elem, ...>`` -> ``TTNNNDTensorLayout``."""
    apos = p.ws()
    p.expect("#ttnn.ttnn_nd_layout<", "'#ttnn.ttnn_nd_layout<'")
    gpos = p.ws()
    if not p.accept("<"):
        p.expect_dialect("#grid", "a grid '<1x1>'")
    grid = p.dims("a grid dim")
    p.expect(">", "'>' to close the grid")
    if len(grid) != 2:
        raise p.error(f"an ND layout's core grid is 2-D (rows x columns), got {xs(grid)}", gpos)
    p.expect(",", "',' after the grid")
    rpos, mshape, _, ttile, tdtype = p.memref_head(elem)
    if not mshape:
        raise p.error("expected the shard's dims before the memref's element type", rpos)
    p.expect(",", "',' before the buffer type")
    buffer = _buffer(p)
    p.expect(">", "'>' to close 'memref<'")
    p.expect(",", "',' before the memory layout")
    layout, _ = _angle_word(p, TTNN_MEMORY_LAYOUTS, "memory layout")
    p.expect(",", "',' before the orientation")
    orient, _ = _angle_word(p, ("row_major", "col_major"), "orientation")
    p.expect(",", "',' before the distribution strategy")
    dist, _ = _angle_word(p, ("round_robin_1d", "grid_2d"), "distribution strategy")
    p.expect(">", "'>' to close '#ttnn.ttnn_nd_layout<'")
    if not is_scalar_type(elem or ""):
        raise p.error("a #ttnn.ttnn_nd_layout tensor keeps its logical element type: the tile belongs in its memref",
                      pos)
    try:
        return TTNNNDTensorLayout(shape, grid, mshape, elem, buffer, layout, orient, dist, ttile, tdtype)
    except LayoutError as e:
        raise p.error(str(e), rpos if "shard" in str(e) or "tile" in str(e) else apos) from None


def read_ttnn_attribute(p):
    """A bare '#ttnn.*' attribute: a memory config; a ttnn_layout needs its tensor."""
    pos = p.ws()
    t = p.s.text
    if t.startswith("#ttnn.memory_config", pos):
        return read_memory_config(p)
    if t.startswith("#ttnn.nd_shard_spec", pos):
        return read_nd_shard_spec(p)
    if t.startswith("#ttnn.ttnn_nd_layout", pos):
        raise p.error("a #ttnn.ttnn_nd_layout needs its tensor (it has no logical shape): write "
                      "tensor<...xbf16, #ttnn.ttnn_nd_layout<...>>", pos)
    if t.startswith("#ttnn.ttnn_layout<", pos):
        return read_ttnn_layout_attribute(p)
    name = t[pos:].split("<")[0]
    raise p.error(f"{name} is not read here: expected '#ttnn.memory_config<...>' or a tensor with a "
                  "#ttnn.ttnn_layout", pos)
