"""``unilayout show TEXT``: the facts of any layout text and its tables of values.

    unilayout show TEXT [--json] [--shape 8x8] [--mesh M] [--mesh-shape MxN] [--place TENSOR] [--max-cells N]
                   [--code [LANG]]

Every family the same way: the facts its record gives (``unilayout.facts``)
and its tables (``record.tables``). ``--shape`` is the box of a value that
has none (an affine map), or what the value needs to be a layout (a dynamic
TSL, a TTNN memory config, a sharding's tensor); a device with ``--place
TENSOR`` adds the per-device shards of that tensor. ``--code`` adds the
layout's index code (``unilayout.codegen``; C unless a language is named).

>>> from unilayout.cli import main
>>> main(["show", "8:2", "--json"])  # doctest: +ELLIPSIS
{
  "schema": "unilayout/1",
  "command": "show",
  "ok": true,
  "family": "cute",
  "text": "8:2",
...
0
"""

from __future__ import annotations

import argparse
import json

from .. import facts as F
from .._families import record
from ..codegen import LANGS, emit
from ..draw.table import MAX_TABLE_CELLS
from ._common import add_context, add_text, box_shape, envelope, json_default, placement_summary, read_value

__all__ = ["EXAMPLES", "add_parser", "run"]

EXAMPLES = """examples:
  unilayout show '((2,2),2):((4,1),2)'
  unilayout show 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (2,2,1), (32,32,_))'   # an MMA atom or tiled MMA
  unilayout render 'make_tiled_copy(Copy_Atom<SM75_U32x4_LDSM_N, half_t>, (32,1), (1,8))' -o copy.svg   # a TiledCopy
  unilayout show '(d0, d1) -> (d1, d0)' --shape 4x4
  unilayout show '#tsl.tsl<[?, 4] -> (32, 4), [?, 4] -> (?, 1)>' --shape 64x64   # resolve a dynamic TSL
  unilayout show 'tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, memref<18x32xf32, #tt.memory_space<l1>>>>' --json
  unilayout show 'Sw<3,3,3> o 0 o (8,64):(64,1)' --code        # with its C index code
  echo '8:2' | unilayout show -"""


def add_parser(sub):
    """Register ``show`` on ``sub`` (argparse subparsers)."""
    q = sub.add_parser("show", help="facts and a table of values", epilog=EXAMPLES,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_text(q)
    q.add_argument("--json", action="store_true", help="print one JSON object")
    q.add_argument("--place", metavar="TENSOR",
                   help="with a device: a tensor<..., #tt.metal_layout> whose per-device shards to summarise")
    add_context(q, "box for an affine map, the shape resolving a dynamic TSL, or the tensor of a memory config or "
                   "a sharding, e.g. 8x8")
    q.add_argument("--max-cells", type=int, default=MAX_TABLE_CELLS, help="largest table printed (default %(default)s)")
    q.add_argument("--code", nargs="?", const="c", metavar="LANG", choices=LANGS,
                   help="add the index code (default c; one of " + ", ".join(LANGS) + ")")
    q.set_defaults(run=run)


def run(args) -> int:
    """Run ``unilayout show`` for parsed ``args``; 0 on success (errors propagate to ``cli.main``)."""
    value = read_value(args)
    shape = box_shape(value, args)
    facts = F.describe(value, shape)
    parts = record(value).tables(value, shape, args.max_cells)
    if args.place:
        placed, summary = placement_summary(value, args.place)
        facts["placed"] = F.canonical_text(placed)
        facts["devices"] = [d._asdict() for d in summary.devices]
        parts.append(("per-device shards", summary.text().rstrip("\n")))
    if args.code:
        parts.append((f"code ({args.code})", emit(value, args.code, shape=shape)))
    if args.json:
        out = envelope("show", value)
        out.update(facts)
        out["tables"] = {t or "table": body for t, body in parts}
        print(json.dumps(out, indent=2, default=json_default))
        return 0
    print(F.format_facts(facts))
    for title, body in parts:
        print()
        if title:
            print(title + ":")
        print(body)
    return 0
