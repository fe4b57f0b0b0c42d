"""The explorer's "open a dump" view (``/api/lens``): a whole IR dump with every layout clickable and every move priced.

The request is ``{"text": DUMP}`` (a TTGIR/TTIR or tt-mlir dump, as
``unilayout lens`` reads it). The answer holds what ``static/lens.js`` draws:

- ``lines``: the dump, one string per line;
- ``types``: every ``tensor<..>`` / ``!ttg.memdesc<..>`` on a line, as
  ``{line, col, end, layout, value}`` (1-based line, 0-based columns; ``value``
  the SSA name the type belongs to where the type is a result's or an
  argument's) — ``layout`` indexes ``layouts``;
- ``layouts``: one entry per distinct layout-carrying type: ``text`` (the type
  with the alias lines it needs: what ``/api/view`` reads to draw it), ``link``
  (the explorer URL of that view) and ``short`` (``64x128xf16 #blocked``);
- ``moves``: each data-moving op (``lens.Move`` as plain data) with a one-line
  ``label`` to annotate its line;
- ``table`` (the text table), ``kind``, ``attributes``, ``unknown_ops``.

>>> a = lens_view({"text": '''#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
... #b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
... module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
...   tt.func @k(%x: tensor<64x128xf16, #a>) {
...     %0 = ttg.convert_layout %x : tensor<64x128xf16, #a> -> tensor<64x128xf16, #b>
...     tt.return
...   }
... }'''})
>>> [(t["line"], t["col"], t["value"], a["layouts"][t["layout"]]["short"]) for t in a["types"]]
[(4, 17, '%x', '64x128xf16 #a'), (5, 33, None, '64x128xf16 #a'), (5, 59, '%0', '64x128xf16 #b')]
>>> a["moves"][0]["label"]
'shared-memory round trip: 16384 B scratch, conflicts 0/0, vector 8/8, st.shared.v4.b32 ld.shared.v4.b32 bar.sync'
"""

from __future__ import annotations

import urllib.parse

from ... import lens
from ...errors import LayoutError
from ...lens import mlir
from ...lens.table import short_type
from .._request import RequestError

__all__ = ["lens_view", "MAX_DUMP"]

#: Largest dump the view reads (characters).
MAX_DUMP = 4 * 1024 * 1024


def _label(mv) -> str:
    if hasattr(mv, "scratch_bytes"):  # a Triton move
        parts = [mv.level]
        if mv.scratch_bytes:
            parts.append(f"{mv.scratch_bytes} B " + ("scratch" if mv.op == "ttg.convert_layout" else "buffer"))
        if mv.store_conflicts is not None or mv.load_conflicts is not None:
            parts.append(f"conflicts {_s(mv.store_conflicts)}/{_s(mv.load_conflicts)}")
        if mv.store_vector is not None or mv.load_vector is not None:
            parts.append(f"vector {_s(mv.store_vector)}/{_s(mv.load_vector)}")
        if mv.instructions:
            parts.append(" ".join(mv.instructions))
    else:
        parts = [mv.level]
        if mv.moved_bytes is not None:
            parts.append(f"{mv.moved_bytes} B moved")
        if mv.on_chip_bytes:
            parts.append(f"{mv.on_chip_bytes} B over the NoC")
        if mv.chip_to_chip_bytes:
            parts.append(f"{mv.chip_to_chip_bytes} B chip to chip")
    if mv.note:
        parts.append(mv.note)
    return parts[0] + (": " + ", ".join(parts[1:]) if len(parts) > 1 else "")


def _s(x) -> str:
    return "-" if x is None else str(x)


def lens_view(body) -> dict:
    """The answer to one ``/api/lens`` request (see the module docstring)."""
    if not isinstance(body, dict):
        raise RequestError("the request body must be a JSON object")
    text = body.get("text")
    if not isinstance(text, str) or not text.strip():
        raise RequestError("'text' must be the text of a dump", field="text")
    if len(text) > MAX_DUMP:
        raise RequestError(f"the dump has {len(text):,} characters; the view reads at most {MAX_DUMP:,}", 413, "text")
    try:
        dump = lens.read(text)
    except LayoutError as e:  # a ParseError keeps its position in the dump; say which field it is
        e.field = "text"
        raise
    owner = {(v.line, v.col): v.name for v in dump.values}
    layouts, index, types = [], {}, []
    for lineno, line in enumerate(text.splitlines(), 1):
        if "<" not in line or line.lstrip().startswith(("#", "//")):
            continue
        for span in mlir.types_in(line, lineno, text):
            if "#" not in span.text:
                continue
            key = span.text
            if key not in index:
                resolved = dump.module.with_aliases(key)
                index[key] = len(layouts)
                layouts.append({"text": resolved, "short": short_type(key),
                                "link": "?" + urllib.parse.urlencode({"layout": resolved})})
            types.append({"line": lineno, "col": span.col, "end": span.end, "layout": index[key],
                          "value": owner.get((lineno, span.col))})
    moves = []
    for mv in dump.moves:
        d = {k: (list(v) if isinstance(v, tuple) else v) for k, v in mv._asdict().items()}
        d["label"] = _label(mv)
        moves.append(d)
    return {"kind": dump.kind, "attributes": dump.attributes, "lines": text.splitlines(), "types": types,
            "layouts": layouts, "moves": moves, "unknown_ops": list(dump.unknown_ops), "table": dump.table()}
