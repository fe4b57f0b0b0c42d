"""``unilayout show TEXT``: the facts of any layout text and its tables of values.

    unilayout show TEXT [--json] [--shape 8x8] [--place TENSOR] [--max-cells N]

A TiledMMA or TiledCopy text shows its atom and (thread, value) layouts; an
HLO, Shardy or XLA layout text goes to the ``sharding`` verb; a device with
``--place TENSOR`` adds the per-device shards of that tensor.

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
from .._families import family_of
from ..viz.text import MAX_TABLE_CELLS, tables
from . import sharding as sharding_verb
from ._common import JSON_SCHEMA, add_text, envelope, json_default, placement_summary, read_value, sizes, tiled_mma

__all__ = ["EXAMPLES", "add_parser", "run"]

EXAMPLES = """examples:
  unilayout show '((2,2),2):((4,1),2)'
  unilayout show 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (2,2,1), (32,32,_))'   # an MMA atom or tiled MMA
  unilayout render 'make_tiled_copy(Copy_Atom<SM75_U32x4_LDSM_N, half_t>, (32,1), (1,8))' -o copy.svg   # a TiledCopy
  unilayout show '(d0, d1) -> (d1, d0)' --shape 4x4
  unilayout show '#tsl.tsl<[?, 4] -> (32, 4), [?, 4] -> (?, 1)>' --shape 64x64   # resolve a dynamic TSL
  unilayout show 'tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, memref<18x32xf32, #tt.memory_space<l1>>>>' --json
  echo '8:2' | unilayout show -"""


def add_parser(sub):
    """Register ``show`` on ``sub`` (argparse subparsers)."""
    q = sub.add_parser("show", help="facts and a table of values", epilog=EXAMPLES,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_text(q)
    q.add_argument("--json", action="store_true", help="print one JSON object")
    q.add_argument("--place", metavar="TENSOR",
                   help="with a device: a tensor<..., #tt.metal_layout> whose per-device shards to summarise")
    q.add_argument("--shape", help="box for an affine map, or the shape resolving a dynamic TSL, e.g. 8x8")
    q.add_argument("--max-cells", type=int, default=MAX_TABLE_CELLS, help="largest table printed (default %(default)s)")
    q.set_defaults(run=run)


def run(args) -> int:
    """Run ``unilayout show`` for parsed ``args``; 0 on success (errors propagate to ``cli.main``)."""
    mma = tiled_mma(args)
    if mma is not None:
        return _show_mma(mma, args)
    from ..sharding.command import is_sharding_text  # lazy: the sharding family loads only for sharding texts

    if is_sharding_text(args.text):  # HLO, Shardy, XLA layout texts
        return sharding_verb.show(args.text, sizes(args.shape), args.json)
    value = read_value(args)
    shape = sizes(args.shape)
    if F._ttnn_config(value) or family_of(value) in ("tsl", "metal"):
        shape = None  # --shape resolved the TSL (or gave a TTNN config its tensor); its facts need no box
    facts = F.describe(value, shape)
    parts = [] if facts["family"] == "ttnn" else tables(value, shape, args.max_cells)  # a bare TTNN config: fields
    if args.place:
        placed, summary = placement_summary(value, args.place)
        facts["placed"] = F.canonical_text(placed)
        facts["devices"] = [d._asdict() for d in summary.devices]
        parts.append(("per-device shards", summary.text().rstrip("\n")))
    if args.json:
        out = envelope("show", value)
        out.update(facts)
        out["tables"] = {t or "table": body for t, body in parts}
        print(json.dumps(out, indent=2, default=json_default))
        return 0
    print(F.format_facts(facts))
    _print_tables(parts)
    return 0


def _print_tables(parts):
    for title, body in parts:
        print()
        if title:
            print(title + ":")
        print(body)


def _show_mma(mma, args):
    """``show`` of an MMA atom / tiled MMA: the atom's layouts and the tiled TV layouts (same for a TiledCopy)."""
    from ..cute import TiledCopy  # lazy: CuTe loads only for a TiledMMA/TiledCopy text

    if isinstance(mma, TiledCopy):
        tc = mma
        facts = {"family": "cute.TiledCopy", "atom": tc.atom.name, "element_bits": tc.atom.element_bits,
                 "tiler_mn": list(tc.tiler_mn), "threads": tc.size, "layout_tv": str(tc.layout_tv),
                 "layoutS_TV": str(tc.get_layoutS_TV()), "layoutD_TV": str(tc.get_layoutD_TV())}
        if args.json:
            print(json.dumps({"schema": JSON_SCHEMA, "command": "show", "ok": True, **facts}, indent=2))
            return 0
        print(str(tc))
        print(f"  LayoutS_TV:     {facts['layoutS_TV']}\n  LayoutD_TV:     {facts['layoutD_TV']}")
        return 0
    m, n, k = mma.tile_size_mnk()
    facts = {"family": "cute.TiledMMA", "atom": mma.atom.name, "thr_layout_vmnk": str(mma.thr_layout_vmnk),
             "tile_mnk": [m, n, k], "threads": mma.size, "layoutA_TV": str(mma.get_layoutA_TV()),
             "layoutB_TV": str(mma.get_layoutB_TV()), "layoutC_TV": str(mma.get_layoutC_TV())}
    if args.json:
        out = {"schema": JSON_SCHEMA, "command": "show", "ok": True}
        out.update(facts)
        print(json.dumps(out, indent=2))
        return 0
    print(str(mma))
    print(f"  Tile_MNK:       {m}x{n}x{k}\n  LayoutA_TV:     {facts['layoutA_TV']}\n"
          f"  LayoutB_TV:     {facts['layoutB_TV']}\n  LayoutC_TV:     {facts['layoutC_TV']}")
    return 0
