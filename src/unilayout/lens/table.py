"""The lens's two outputs: a text table per function, and plain JSON data.

One row per data-moving op: the op, where it is (``file:line:col`` from its
``loc``, else ``line N`` of the dump), ``source -> destination`` (each type
as ``shape·element #encoding``), the level, the bytes (a convert's scratch, an
allocation's buffer, else the bytes moved), the bank conflicts of the store
and the load (extra wavefronts, ``-`` when there is no such access), the
vector widths and the instruction classes.

>>> from unilayout import lens
>>> d = lens.read('''#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
... #b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
... module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
...   tt.func @k(%x: tensor<64x128xf16, #a>) {
...     %0 = ttg.convert_layout %x : tensor<64x128xf16, #a> -> tensor<64x128xf16, #b>
...     tt.return
...   }
... }''')
>>> print(format_table(d))
triton dump: cuda:90, 4 warps x 32 threads, 1 CTA
@k: 1 move, 16384 B scratch
  op                  where   source -> destination           level                     bytes  conflicts st/ld  vector st/ld  instructions
  ttg.convert_layout  line 5  64x128xf16 #a -> 64x128xf16 #b  shared-memory round trip  16384  0/0              8/8           st.shared.v4.b32 ld.shared.v4.b32 bar.sync
"""

from __future__ import annotations

import re

__all__ = ["format_table", "to_json", "short_type"]

_HEAD = ("op", "where", "source -> destination", "level", "bytes", "conflicts st/ld", "vector st/ld", "instructions")


def short_type(t: str) -> str:
    """``tensor<64x128xf16, #blocked>`` -> ``64x128xf16 #blocked`` (an inline encoding shortened to its kind).

    >>> short_type("!ttg.memdesc<64x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, #smem>")
    'smem 64x64xf16 #ttg.swizzled_shared<..>'
    """
    m = re.match(r"(tensor|!ttg\.memdesc|memref)<([^,]*),\s*(#[\w.$-]+)(<)?", t)
    if not m:
        return t
    enc = m.group(3) + ("<..>" if m.group(4) else "")
    return ("smem " if "memdesc" in m.group(1) else "") + m.group(2) + " " + enc


def _fmt(x) -> str:
    return "-" if x is None else str(x)


def _rows(dump, fn):
    rows = []
    for mv in dump.moves:
        if mv.function != fn:
            continue
        where = mv.location or f"line {mv.line}"
        if dump.kind == "tt-mlir":
            rows.append((mv.op, where, f"{short_type(mv.source)} -> {short_type(mv.destination)}", mv.level,
                         _fmt(mv.moved_bytes), _fmt(mv.chip_to_chip_bytes), _fmt(mv.transfers), mv.note or ""))
            continue
        scratchy = mv.op in ("ttg.convert_layout", "ttg.local_alloc") and mv.scratch_bytes is not None
        bytes_ = mv.scratch_bytes if scratchy else mv.moved_bytes
        rows.append((mv.op, where, f"{short_type(mv.source)} -> {short_type(mv.destination)}", mv.level,
                     _fmt(bytes_), f"{_fmt(mv.store_conflicts)}/{_fmt(mv.load_conflicts)}",
                     f"{_fmt(mv.store_vector)}/{_fmt(mv.load_vector)}",
                     " ".join(mv.instructions) or (mv.note or "")))
    return rows


def format_table(dump) -> str:
    """The text table (see the module docstring): a header line, then per function a summary and its rows."""
    if dump.kind == "triton":
        head = (f"triton dump: {dump.target or 'no target'}, {_fmt(dump.num_warps)} warps x "
                f"{_fmt(dump.threads_per_warp)} threads, {_fmt(dump.num_ctas)} CTA" + ("s" if (dump.num_ctas or 1) > 1 else ""))
        cols = _HEAD
    elif dump.kind == "tt-mlir":
        head = f"tt-mlir dump: {len(dump.values)} layout values"
        cols = ("op", "where", "source -> destination", "level", "moved bytes", "chip-to-chip", "transfers", "note")
    else:
        head = "mlir dump: no Triton or tt-mlir layouts"
        cols = _HEAD
    out = [head]
    for fn in dump.functions:
        rows = _rows(dump, fn)
        if dump.kind == "triton":
            scratch = sum(m.scratch_bytes or 0 for m in dump.moves if m.function == fn and m.op == "ttg.convert_layout")
            out.append(f"@{fn}: {len(rows)} move{'s' if len(rows) != 1 else ''}, {scratch} B scratch")
        else:
            out.append(f"@{fn}: {len(rows)} move{'s' if len(rows) != 1 else ''}")
        if not rows:
            continue
        width = [max(len(r[i]) for r in rows + [cols]) for i in range(len(cols))]
        for r in [cols] + rows:
            out.append("  " + "  ".join(c.ljust(w) for c, w in zip(r, width)).rstrip())
    if dump.unknown_ops:
        out.append("ops of unknown dialects (read, not priced): " + ", ".join(dump.unknown_ops))
    return "\n".join(out)


def to_json(dump) -> dict:
    """Plain data: the module's facts, each function's layout values and moves, the unknown ops.

    >>> from unilayout import lens
    >>> sorted(to_json(lens.read("module {\\n}")))
    ['aliases', 'attributes', 'functions', 'kind', 'num_ctas', 'num_warps', 'target', 'threads_per_warp', 'unknown_ops']
    """
    fns = []
    for fn in dump.functions:
        fns.append({
            "name": fn,
            "values": [v._asdict() for v in dump.values if v.function == fn],
            "moves": [{k: (list(v) if isinstance(v, tuple) else v) for k, v in m._asdict().items()}
                      for m in dump.moves if m.function == fn],
        })
    return {"kind": dump.kind, "attributes": dump.attributes, "num_warps": dump.num_warps,
            "threads_per_warp": dump.threads_per_warp, "num_ctas": dump.num_ctas, "target": dump.target,
            "aliases": dump.aliases, "functions": fns, "unknown_ops": list(dump.unknown_ops)}
