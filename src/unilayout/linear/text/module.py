"""Triton's texts of encodings, read: one attribute, the alias lines of a TTGIR dump, a tensor type.

Triton 3.9.0 prints every layout of a tensor (``tensor<128x64xf16, #enc>``) or a
shared/tensor-memory buffer (``!ttg.memdesc<64x64xf16, #enc, #smem, mutable>``)
as an attribute, usually through an alias line at the top of the module::

    #blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
    #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
    #dot = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>

``parse(text)`` reads one attribute into an encoding value of
:mod:`unilayout.linear.encodings` (the fast reader first, then the positioned
one, which reports errors); ``str(enc)`` prints it back byte for byte.
``parse_module(text)`` reads the ``#name = ...`` lines of a dump (memory-space
and location aliases are skipped) and ``parse_type`` a ``tensor<...>`` or
``!ttg.memdesc<...>`` type; a type's layout is ``linear.encodings.types.layout``.

>>> enc = parse("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>")
>>> enc.to_linear([32, 16]).bases[0]
('register', [[0, 1], [0, 2]])
>>> parse(str(enc)) == enc
True
"""

from __future__ import annotations

import re

from ..._text import Scanner
from ...errors import LayoutError
from .attr import _DIALECTS, KINDS, _attr, _Unread
from .fast import _fast_parse

__all__ = ["parse", "parse_module", "parse_type", "clear_caches"]

_ALIAS = re.compile(r"\s*#([A-Za-z_][\w$.-]*)\s*=")
_PARSED: dict = {}  # text -> encoding, for texts without aliases (bounded)


def clear_caches() -> None:
    """Forget the parsed texts kept for reuse (``encodings.clear_caches`` also forgets computed layouts).

    >>> clear_caches()
    """
    _PARSED.clear()


def parse(text: str, aliases: dict | None = None):
    """One encoding attribute (``#ttg.blocked<{...}>``, ...) -> its encoding value.

    ``aliases`` (from :func:`parse_module`) resolves ``#name`` references.
    Bad text raises ``ParseError`` with the position (missing field, wrong
    type, unknown encoding, unbalanced brackets).

    >>> from unilayout.linear import encodings as E
    >>> parse("#ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>", {"mma": E.NvidiaMma(2, [2, 2], [16, 8])})
    DotOperand(operand_index=1, parent=NvidiaMma(version=(2, 0), warps_per_cta=(2, 2), instr_shape=(16, 8), cga_layout=()), k_width=2)
    >>> parse("#ttg.blocked<{sizePerThread = [1]}>")
    Traceback (most recent call last):
    ...
    unilayout.errors.ParseError: #ttg.blocked needs the field 'threadsPerWarp' at position 34
      #ttg.blocked<{sizePerThread = [1]}>
                                        ^
    """
    if not isinstance(text, str):
        raise LayoutError(f"parse: expected text, got {type(text).__name__}")
    if not aliases:
        got = _PARSED.get(text)
        if got is not None:
            return got
    enc = _fast_parse(text, aliases)
    if enc is None:
        s = Scanner(text)
        enc = _attr(s, aliases)
        s.expect_end()
    if not aliases:
        if len(_PARSED) >= 4096:
            _PARSED.clear()
        _PARSED[text] = enc  # encodings are immutable: one text, one value (as MLIR uniques attributes)
    return enc


def parse_module(text: str) -> dict:
    """The ``#name = <encoding>`` lines of a TTGIR dump -> ``{name: encoding}``, in order.

    Aliases of other attributes (``#smem = #ttg.shared_memory``, ``#loc = loc(...)``)
    and every other line are skipped; an alias may use the ones above it.

    >>> m = parse_module('''
    ... #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
    ... #smem = #ttg.shared_memory
    ... #dot = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>''')
    >>> list(m), m["dot"].parent == m["mma"]
    (['mma', 'dot'], True)
    """
    if not isinstance(text, str):
        raise LayoutError(f"parse_module: expected text, got {type(text).__name__}")
    return {k: v for k, v in _module(text).items() if not isinstance(v, _Unread)}


def _module(text: str, spans: list | None = None) -> dict:
    """The aliases of ``text``; ``spans`` (when given) gets ``(start, end)`` of every attribute read, so a
    caller can skip the lines an attribute continues on (MLIR lets one span several lines)."""
    aliases: dict = {}
    spans = [] if spans is None else spans
    pos = 0
    for line in text.splitlines(keepends=True):
        end = pos + len(line)
        if spans and spans[-1][1] > pos:  # this line continues the attribute above
            pos = end
            continue
        m = _ALIAS.match(text, pos, end)
        while m:  # one or more '#name = attribute' definitions on this line (MLIR: whitespace between them)
            s = Scanner(text, m.end())
            at = s.skip()
            body = text[at:end].rstrip("\r\n")
            if not body.strip() or body.lstrip().startswith("//"):
                s.expected(f"an attribute after '#{m.group(1)} ='", min(at, end - len(line) + len(line.rstrip())))
            if not (body.startswith(_DIALECTS) and _known(body)):
                break  # #smem = #ttg.shared_memory, #loc = loc(...): not a layout
            kind = body.split("<", 1)[0].strip()
            dialect = "ttng." if kind.startswith("#ttng.") else "ttg."
            if dialect + kind.split(".", 1)[1] not in KINDS:
                aliases[m.group(1)] = _Unread(kind)  # an encoding of a later Triton
                break
            aliases[m.group(1)] = _attr(s, aliases)
            spans.append((at, s.pos))
            after = s.skip()
            if after >= end or not text[after:end].strip() or text.startswith("//", after):
                break
            m = _ALIAS.match(text, after, end)
            if not m:
                s.expected("the end of the line or another alias '#name = ...'", after)
        pos = end
    return aliases


def _known(body: str) -> bool:
    """Whether an alias body is an encoding (not ``#ttg.shared_memory`` and other plain attributes)."""
    return "<" in body.split()[0] or body.split("<", 1)[0].strip() in ("#ttg.linear",)


_TYPE = re.compile(r"\s*(tensor|!ttg\.memdesc)\s*<")
_ELEM = re.compile(r"!?[A-Za-z_][\w.]*")


def parse_type(text: str, aliases: dict | None = None):
    """``tensor<SHAPExT, #enc>`` or ``!ttg.memdesc<SHAPExT, #enc, #smem[, mutable]>`` -> (shape, element type, encoding).

    >>> shape, elem, enc = parse_type("tensor<16x8xf16, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>>")
    >>> shape, elem, type(enc).__name__
    ((16, 8), 'f16', 'Blocked')
    """
    s = Scanner(text)
    start = s.skip()
    if not _TYPE.match(text, 0):
        s.expected("tensor<...> or !ttg.memdesc<...>")
    memdesc = s.accept("!ttg.memdesc")
    if not memdesc:
        s.expect("tensor")
    s.expect("<")
    dims = []
    while True:
        s.skip()
        if not (s.peek().isdigit()):
            break
        dims.append(s.integer())
        if not s.accept("x"):
            s.expected("'x' after a dimension")
    epos = s.skip()
    m = _ELEM.match(s.text, epos)
    if not m:
        s.expected("an element type such as f16 or !tt.ptr<f16>", epos)
    s.pos = m.end()
    if s.text.startswith("<", s.pos):  # a parameterised type: !tt.ptr<f16>, !tt.ptr<f16, 1>
        depth = 0
        while s.pos < len(s.text):
            depth += {"<": 1, ">": -1}.get(s.text[s.pos], 0)
            s.pos += 1
            if depth == 0:
                break
        if depth:
            s.expected("'>' to close the element type", epos)
    elem = s.text[epos:s.pos]
    if not dims:
        s.fail("a tensor type needs a shape like 128x64xf16", start)
    s.expect(",", "',' and the layout encoding after the element type")
    enc = _attr(s, aliases)
    if memdesc:
        depth = 0
        while not s.end():  # memory space, mutable, alloc shape: not part of the layout
            c = s.text[s.pos]
            if c == ">" and depth == 0:
                break
            depth += c == "<"
            depth -= c == ">"
            s.pos += 1
    s.expect(">", "'>' to close the type")
    s.expect_end()
    return tuple(dims), elem, enc
