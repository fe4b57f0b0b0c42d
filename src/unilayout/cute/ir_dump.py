"""Every CuTe IR type in an MLIR dump: what a CuTe DSL kernel's layouts are, read from its IR.

A dump (``CUTE_DSL_KEEP_IR=1``, or the ``.mlir`` files the DSL's examples
keep) names its types inline (``-> !cute.layout<"(2,?):(1,2)">``) and in
alias lines (``!memref_gmem_f16_ = !cute.memref<f16, gmem, ...>``).
``ir_types(text)`` finds each ``!cute.layout``, ``!cute.composed_layout``,
``!cute.swizzle``, ``!cute.shape``, ``!cute.stride``, ``!cute.int_tuple``,
``!cute.coord``, ``!cute.tile``, ``!cute.memref`` and ``!cute.coord_tensor``
and reads it; other
types (``!cute.ptr``, ``!cute.tiled_copy``, ``!cute_nvgpu.*``) are passed
over. A type that repeats is read once (dumps repeat their types a lot).

>>> dump = '''
... !memref_gmem_f16_ = !cute.memref<f16, gmem, align<16>, "(?,?):(?{i64},1)">
...   %1 = "cute.get_layout"(%arg0) : (!memref_gmem_f16_) -> !cute.layout<"(?,?):(?{i64},1)">
...   %2 = "cute.get_iter"(%arg0) : (!memref_gmem_f16_) -> !cute.ptr<f16, gmem, align<16>>
... '''
>>> [(pos, cute_type) for pos, cute_type, _ in ir_types(dump)]
[(21, '!cute.memref<f16, gmem, align<16>, "(?,?):(?{i64},1)">'), (133, '!cute.layout<"(?,?):(?{i64},1)">')]
>>> ir_types(dump)[1][2]
Layout((Dyn(), Dyn()), (Dyn(bits=64), 1))

A malformed type is a ParseError at its position in the dump. A valid type
that unilayout's values cannot hold (a counting tensor that does not start
at zero, a dynamic basis stride) has its ``NotRepresentableError`` in place
of the value, saying why.
"""

from __future__ import annotations

import re

from .._text import check_text
from ..errors import NotRepresentableError, ParseError
from .ir_text import parse_ir

__all__ = ["ir_types"]

_START = re.compile(r"!cute\.(layout|composed_layout|swizzle|shape|stride|int_tuple|coord|tile|memref|coord_tensor)<")
_SCAN = re.compile(r'[<>"]')


def _end(text: str, at: int) -> int:
    """The index just past the ``>`` closing the type whose ``<`` is at ``at`` (quotes skipped), or -1."""
    depth, pos = 0, at
    while True:
        m = _SCAN.search(text, pos)
        if m is None:
            return -1
        c, pos = m.group(), m.end()
        if c == '"':
            close = text.find('"', pos)
            if close < 0:
                return -1
            pos = close + 1
        elif c == "<":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return pos


def ir_types(text: str) -> list:
    """``[(position, type text, value)]`` for every CuTe IR type in ``text`` that unilayout reads, in order.

    >>> [v for _, _, v in ir_types('%t = cute.make_tile() : () -> !cute.tile<"[8:1;_]">')]
    [Tile(Layout(8, 1), None)]
    """
    text = check_text(text, "an MLIR dump")
    out, seen = [], {}
    for m in _START.finditer(text):
        start = m.start()
        end = _end(text, m.end() - 1)
        if end < 0:
            raise ParseError(f"the !cute.{m.group(1)} type is not closed", text, start)
        body = text[start:end]
        value = seen.get(body)
        if value is None:
            try:
                value = parse_ir(body)
            except ParseError as e:
                raise ParseError(e.message, text, start + e.position) from None
            except NotRepresentableError as e:  # a valid type unilayout cannot hold: the reason stands in its place
                value = e
            seen[body] = value
        out.append((start, body, value))
    return out
