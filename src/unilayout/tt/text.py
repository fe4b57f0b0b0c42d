"""Text of the tt dialects, the front door: ``parse`` reads a metal layout (v1 or v2), a TTNN layout or config, a device.

``parse(text)`` looks at the first token and hands the text to the reader of
its dialect, each on the one shared ``Reader`` (``_reader.py``):

==================================================  ======================================
text starts with                                    read by
==================================================  ======================================
``tensor<`` + ``#tt.metal_layout<`` (v1)            ``metal.text.read_v1``
``tensor<`` + ``#ttcore.metal_layout<logical_...``  ``metal.text.read_v2`` (device-shaped)
``#ttcore.metal_layout<logical_shape ...`` alone    ``metal.text.read_v2`` (a 1x..x1 grid)
``tensor<`` + ``#ttnn.ttnn_layout<`` / ``nd_...``   ``ttnn.text.read_ttnn_tensor``
``#ttnn.memory_config<``, ``#ttnn.nd_shard_spec<``  ``ttnn.text.read_ttnn_attribute``
``#tt.device<``, ``#ttcore.device<``                ``device_text.read_device``
==================================================  ======================================

Grammar of the tensor type (whitespace and newlines free between tokens;
``ttcore`` accepted for ``tt``; the layouts' grammars are in their readers)::

    tensor-type  ::= 'tensor<' (INT 'x')* (elem | tile) ',' (metal-layout | v2-layout | ttnn-layout) '>'

``parse_module`` reads every tt layout of an IR dump (aliases included).

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

import re

from .._text import check_text
from ..errors import ParseError
from ._reader import DIALECTS, Reader
from .device_text import parse_device
from .metal.metal import MetalLayout, is_scalar_type
from .metal.text import read_v1, read_v2, v2_ahead
from .ttnn.text import read_ttnn_attribute, read_ttnn_tensor

__all__ = ["parse", "parse_tensor", "parse_device", "parse_module"]


def read_tensor(p):
    """'tensor<' dims element ',' encoding '>': a v1, v2 or TTNN layout on its tensor (the reader at 'tensor')."""
    tpos = p.ws()
    p.expect("tensor<", "'tensor<'")
    shape, pos = p.shape_and_type("tensor")
    if not shape:
        raise p.error("expected the tensor's dims before its element type (rank-0 tensors have no layout)", pos)
    tile = None
    if p.peek("!"):
        tile = p.tile_type()
        elem = None
    else:
        elem, epos = p.ident("an element type (f32, bf16, ...) or '!ttcore.tile<...>'")
        if not is_scalar_type(elem):
            raise p.error(f"element type {elem!r} is not one of f16, bf16, f32, f64, iN, siN, uiN", epos)
    if p.accept(">"):
        raise p.error("tensor has no layout encoding: expected ', #ttcore.metal_layout<...>' "
                      "(or '#tt.metal_layout<...>', '#ttnn.ttnn_layout<...>')", p.s.pos - 1)
    p.expect(",", "',' and a layout encoding")
    apos = p.ws()
    if p.s.text.startswith(("#ttcore.tensor_mesh<", "#tt.tensor_mesh<"), apos):
        raise p.error("this tensor's only encoding is #ttcore.tensor_mesh: it names the device mesh the "
                      "tensor lives on (one shard per device) and gives no layout; a TTNN tensor carries it "
                         "inside its layout: #ttnn.ttnn_layout<map, grid, mesh = <\"mesh\">, memref, ...>", apos)
    if p.s.text.startswith("#ttnn.", apos):
        value = read_ttnn_tensor(p, shape, elem, tile, pos)
    elif v2_ahead(p):
        value = read_v2(p, shape=shape, elem=elem, tile=tile, tensor_pos=tpos)
    else:
        if tile is not None:
            raise p.error("a #tt.metal_layout (v1) tensor keeps its logical element type: "
                          "the tile belongs in its memref", pos)
        value = read_v1(p, shape, elem)
    p.expect(">", "'>' to close 'tensor<'")
    return value


def parse_tensor(text: str) -> MetalLayout:
    """Parse ``tensor<shape x elem, #tt.metal_layout<...>>`` into a ``MetalLayout``.

    >>> parse_tensor("tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
    ...              "memref<1x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>").tile_dtype
    'bfp_bf8'
    """
    p = Reader(text)
    ml = read_tensor(p)
    p.end()
    return ml


_ALIAS_DEF = re.compile(r"[ \t]*(#[\w.$-]+)[ \t]*=[ \t]*")
_ALIAS_USE = re.compile(r"#[\w$-]+(?:\.[\w$-]+)*(?![\w.$<-])")


def _alias_value(text, k):
    """End of the alias value starting at ``k``: its balanced '<...>' (or the end of its line)."""
    eol = text.find("\n", k)
    eol = len(text) if eol < 0 else eol
    lt = text.find("<", k, eol)
    return _close(text, lt) if lt >= 0 else eol


def _expand_aliases(text):
    """``(expanded, spans)`` of a text that opens with alias lines, or None when it does not.

    ``#name = value`` lines (as an IR dump prints them above the code) define
    aliases; what follows them is the value, its aliases replaced by their
    values (which may use earlier aliases). Nothing after the definitions: the
    last one's value is the value. ``spans`` maps expanded positions back
    (``(exp_start, orig_start)`` per piece) for positioned errors.
    """
    defs, pos = {}, 0
    while True:
        m = _ALIAS_DEF.match(text, pos)
        if m is None:
            break
        k = m.end()
        end = _alias_value(text, k)
        if not text[k:end].strip():
            raise ParseError(f"alias {m.group(1)} has no value after '='", text, k)
        defs[m.group(1)] = _substitute(text[k:end], k, defs, text)
        nl = text.find("\n", end)
        rest = text[end:nl if nl >= 0 else len(text)]
        if rest.strip():
            raise ParseError(f"expected a new line after the alias {m.group(1)}, found {rest.strip()[:20]!r}", text,
                             end + len(rest) - len(rest.lstrip()))
        pos = len(text) if nl < 0 else nl + 1
        while pos < len(text) and text[pos] in " \t\r\n":
            nxt = text.find("\n", pos)
            if text[pos:nxt if nxt >= 0 else len(text)].strip():
                break
            pos = len(text) if nxt < 0 else nxt + 1
        if pos >= len(text):
            break
    if not defs:
        return None
    if not text[pos:].strip():
        return defs[next(reversed(defs))]
    return _substitute(text[pos:], pos, defs, text)


#: Characters the aliases of one text may expand to (aliases using aliases could otherwise double at each line).
MAX_EXPANDED = 1 << 22


def _substitute(body, at, defs, text=None):
    """``body`` (at ``at`` in ``text``) with each defined alias replaced: ``(expanded, spans)``."""
    out, spans, n, last = [], [], 0, 0
    for m in _ALIAS_USE.finditer(body):
        name = m.group(0)
        if name not in defs:
            continue
        piece = body[last:m.start()]
        spans.append((n, at + last))
        out.append(piece)
        n += len(piece)
        sub, sub_spans = defs[name]
        if n + len(sub) > MAX_EXPANDED:
            raise ParseError(f"aliases expand to more than {MAX_EXPANDED:,} characters (an alias used in an alias "
                             "used in ...): write the attributes out", text if text is not None else body,
                             at + m.start() if text is not None else m.start())
        spans.extend((n + e, o) for e, o in sub_spans)
        out.append(sub)
        n += len(sub)
        last = m.end()
    spans.append((n, at + last))
    out.append(body[last:])
    return "".join(out), spans


def _original_position(spans, p):
    start, orig = spans[0]
    for e, o in spans:
        if e > p:
            break
        start, orig = e, o
    return orig + (p - start)


def parse(text: str):
    """Parse tt text: a ``tensor<...>`` with a metal layout, or a ``#tt.device<...>``.

    The text may open with alias lines, as a dump prints them: each
    ``#name = <attribute>`` defines ``#name`` for what follows (errors point
    into the text as given):

    >>> L = parse('''#l1 = #ttnn.buffer_type<l1>
    ... #ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x2>, memref<1x1x!ttcore.tile<32x32, f32>, #l1>, <width_sharded>>
    ... tensor<32x64xf32, #ttnn_layout>''')
    >>> L.grid, L.buffer_type, L.memory_layout
    ((1, 2), 'l1', 'width_sharded')

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
    check_text(text, "tt text")
    if _ALIAS_DEF.match(text):
        expanded = _expand_aliases(text)
        if expanded is not None:
            body, spans = expanded
            try:
                return parse(body)
            except ParseError as e:
                raise ParseError(e.message, text, _original_position(spans, e.position)) from None
    p = Reader(text)
    pos = p.ws()
    t = p.s.text
    if any(t.startswith(f"#{d}.metal_layout", pos) for d in DIALECTS):
        if v2_ahead(p):
            ml = read_v2(p)
            p.end()
            return ml
        raise p.error("a #tt.metal_layout needs its tensor: write tensor<...xf32, #tt.metal_layout<...>>", pos)
    if t.startswith("#ttnn.", pos):
        value = read_ttnn_attribute(p)
        p.end()
        return value
    if any(t.startswith(f"#{d}.device", pos) for d in DIALECTS):
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
