"""``unilayout lens FILE``: a whole TTGIR/TTIR or tt-mlir dump, every layout and every conversion priced.

    unilayout lens FILE [--json] [--values] [--function NAME]

FILE is the dump (``-`` for standard input). The table has one block per
function: each op that moves data between layouts, where it is, source ->
destination, the level it reaches, the bytes, the bank conflicts and vector
widths of its shared-memory accesses and the PTX instruction classes — as
Triton 3.9 lowers it (``unilayout.lens``). ``--values`` adds every
layout-carrying SSA value; ``--json`` prints one object (``lens`` added to
the envelope: the whole ``Dump.to_json()``).

>>> import pathlib, tempfile
>>> from unilayout.cli import lens as verb
>>> p = pathlib.Path(tempfile.mkdtemp()) / "k.ttgir"
>>> _ = p.write_text('''#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
... #b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
... module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
...   tt.func @k(%x: tensor<64x128xf16, #a>) {
...     %0 = ttg.convert_layout %x : tensor<64x128xf16, #a> -> tensor<64x128xf16, #b>
...     tt.return
...   }
... }''')
>>> import argparse
>>> verb.run(argparse.Namespace(file=str(p), json=False, values=False, function=None))  # doctest: +ELLIPSIS
triton dump: cuda:90, 4 warps x 32 threads, 1 CTA
@k: 1 move, 16384 B scratch
  op                  where   source -> destination ...
  ttg.convert_layout  line 5  64x128xf16 #a -> 64x128xf16 #b  shared-memory round trip  16384 ...
0
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys

from ..errors import LayoutError
from ._common import envelope

__all__ = ["EXAMPLES", "add_parser", "run"]

EXAMPLES = """examples:
  unilayout lens kernel.ttgir
  unilayout lens kernel.ttgir --json
  unilayout lens kernel.ttgir --values --function epilogue
  cat model.ttnn.mlir | unilayout lens -"""


def add_parser(sub):
    """Register ``lens`` on ``sub`` (argparse subparsers)."""
    q = sub.add_parser("lens", help="a whole IR dump: every layout, every conversion priced as the compiler lowers it",
                       epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    q.add_argument("file", metavar="FILE", help="the dump (TTGIR/TTIR or tt-mlir); - for standard input")
    q.add_argument("--json", action="store_true", help="print one JSON object")
    q.add_argument("--values", action="store_true", help="also list every layout-carrying SSA value")
    q.add_argument("--function", metavar="NAME", help="only this function")
    q.set_defaults(run=run)


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        return pathlib.Path(path).read_text()
    except UnicodeDecodeError as e:
        raise LayoutError(f"lens: {path} is not text ({e.reason})") from None


def run(args) -> int:
    """Read the dump of ``args.file`` and print its table (or JSON)."""
    from .. import lens  # lazy: the lens loads only for this verb

    dump = lens.read(_read(args.file))
    fn = getattr(args, "function", None)
    if fn is not None and fn not in dump.functions:
        raise LayoutError(f"lens: no function @{fn} in the dump (functions: {', '.join(dump.functions) or 'none'})")
    if args.json:
        d = envelope("lens")
        data = dump.to_json()
        if fn is not None:
            data["functions"] = [f for f in data["functions"] if f["name"] == fn]
        d["lens"] = data
        print(json.dumps(d, indent=2, default=str))
        return 0
    table = dump.table()
    if fn is not None:
        keep, on = [], True
        for line in table.splitlines():
            if line.startswith("@"):
                on = line.startswith(f"@{fn}:")
            if on or not line.startswith(("@", "  ")):
                keep.append(line)
        table = "\n".join(keep)
    print(table)
    if getattr(args, "values", False):
        print("layout values:")
        for v in dump.values:
            if fn is None or v.function == fn:
                print(f"  @{v.function} {v.name}  line {v.line}:{v.col + 1}  {v.type}")
    return 0
