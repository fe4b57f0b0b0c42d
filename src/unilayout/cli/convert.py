"""``unilayout convert TEXT --to FAMILY``: the same layout in another family, exactly, or why not.

    unilayout convert TEXT --to cute|linear|affine|tsl|v1|v2|ttnn [--shape 8x8] [--json]
    unilayout convert SHARDING --to hlo|shardy|dtensor|jax|ttnn-mesh --shape 8x6 [--mesh MESH] [--mesh-shape 2x2]

``v1``, ``v2`` and ``ttnn`` are tt-mlir's text forms of one metal layout; a
metal layout converted to a layout family prints one line per core. A
sharding text (HLO, Shardy, DTensor or TTNN placements) converts to another
sharding vocabulary (``unilayout.sharding.command.convert``).

>>> from unilayout.cli import main
>>> main(["convert", "(4,2):(2,1)", "--to", "affine"])
(d0, d1) -> (d0 * 2 + d1)
0
>>> main(["convert", "(d0, d1) -> (d0 * 8 + d1)", "--to", "cute"])
2
"""

from __future__ import annotations

import argparse
import json

from .. import facts as F
from .._families import family_of
from ..errors import LayoutError
from ._common import JSON_SCHEMA, add_text, envelope, json_default, needs_tensor, read_text, read_value, sizes

__all__ = ["EXAMPLES", "add_parser", "run"]

EXAMPLES = """examples:
  unilayout convert '(4,8):(8,1)' --to linear
  unilayout convert '(d0, d1) -> (d0 * 8 + d1)' --to cute --shape 4x8
  unilayout convert '#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1)>' --to affine --json
  unilayout convert '{devices=[2,1,2]<=[4] last_tile_dim_replicate}' --to dtensor --shape 8x6   # a sharding
  unilayout convert 'tensor<64x128xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <2x4>, memref<32x32xf32, #tt.memory_space<l1>>>>' --to v2"""


def add_parser(sub):
    """Register ``convert`` on ``sub`` (argparse subparsers)."""
    q = sub.add_parser("convert", help="convert to another family (exact, or an error saying why not)",
                       epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_text(q)
    q.add_argument("--to", required=True, choices=["cute", "linear", "affine", "tsl", "v1", "v2", "ttnn", "hlo",
                                                    "shardy", "dtensor", "jax", "ttnn-mesh"],
                   help="a family, or (a metal layout) one of tt-mlir's forms: v1 #tt.metal_layout, v2 "
                        "#ttcore.metal_layout, ttnn #ttnn.ttnn_layout; or (a sharding text) hlo, shardy, dtensor, "
                        "jax, ttnn-mesh (TTNN mesh-mapper placements)")
    q.add_argument("--shape", help="box for an affine source, the shape resolving a dynamic TSL, or a sharding's "
                                   "tensor shape, e.g. 8x8")
    q.add_argument("--mesh", metavar="MESH", help="a Shardy sharding's mesh text (sdy.mesh @m = <[...]>)")
    q.add_argument("--mesh-shape", metavar="MxN", help="the mesh of DTensor/TTNN placements, read or written")
    q.add_argument("--json", action="store_true", help="print one JSON object")
    q.set_defaults(run=run)


def run(args) -> int:
    """Run ``unilayout convert`` for parsed ``args``; 0 on success (errors propagate to ``cli.main``)."""
    from ..convert import convert_to, metal_form  # lazy: the bridge loads every family (~0.6 s)
    from ..sharding import command as sharding_command  # lazy: the sharding family loads only for convert

    args.text = read_text(args.text)
    if sharding_command.is_sharding_text(args.text):  # HLO, Shardy, XLA layouts (and --to a sharding vocabulary)
        return _convert_sharding(args, sharding_command)
    if args.to in sharding_command.CONVERT_TARGETS:
        if sharding_command.is_placements(args.text):  # DTensor / TTNN placements have no layout family
            return _convert_sharding(args, sharding_command)
        raise LayoutError(f"--to {args.to} converts a sharding (HLO, Shardy, DTensor or TTNN placements), not a "
                          f"{family_of(read_value(args))} value")
    value = read_value(args)
    value = needs_tensor(value, "convert")
    if args.to in ("v1", "v2", "ttnn"):  # tt-mlir's text forms of one metal layout
        if family_of(value) != "metal":
            raise LayoutError(f"--to {args.to} is a tt metal layout form: it converts a metal layout, not a "
                              f"{family_of(value)} value")
        out = metal_form(value, args.to)
        if args.json:
            d = envelope("convert", value)
            d.update({"to": args.to, "result": F.canonical_text(out)})
            print(json.dumps(d, indent=2, default=json_default))
        else:
            print(F.canonical_text(out))
        return 0
    options = {}
    shape = sizes(args.shape) if family_of(value) != "tsl" else None
    if shape is not None:
        options["shape"] = shape
    elif family_of(value) == "affine" and args.to != "affine":
        raise LayoutError(f"an affine map has no box of its own: give --shape (one size per dim, e.g. --shape "
                          f"{'x'.join(['8'] * max(value.num_dims, 1))}) to convert it to {args.to}")
    out = convert_to(value, args.to, **options)
    if args.json:
        d = envelope("convert", value)
        d["to"] = args.to
        if isinstance(out, tuple):
            d["shards"] = [{"core": list(s.grid_coord), "origin": list(s.origin), "offset": s.offset,
                            "layout": F.canonical_text(s.layout)} for s in out]
        else:
            d["result"] = F.canonical_text(out)
        print(json.dumps(d, indent=2, default=json_default))
        return 0
    if isinstance(out, tuple):  # a metal layout's shards
        for s in out:
            print(f"core {s.grid_coord}: origin {s.origin}, offset {s.offset}: {s.layout}")
    else:
        print(F.canonical_text(out))
    return 0


def _convert_sharding(args, sharding_command):
    """``convert`` of a sharding text (``unilayout.sharding.command.convert``): one line, or why not (exit 2)."""
    out = sharding_command.convert(args.text, args.to, sizes(args.shape), args.mesh, sizes(args.mesh_shape))
    if args.json:
        print(json.dumps({"schema": JSON_SCHEMA, "command": "convert", "ok": True, "text": args.text.strip(),
                          "to": args.to, "result": out}, indent=2))
    else:
        print(out)
    return 0
