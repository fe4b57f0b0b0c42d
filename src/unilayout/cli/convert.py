"""``unilayout convert TEXT --to FAMILY``: the same layout in another family, exactly, or why not.

    unilayout convert TEXT --to cute|linear|affine|tsl|v1|v2|ttnn [--shape 8x8] [--json]
    unilayout convert SHARDING --to hlo|shardy|dtensor|jax|ttnn-mesh --shape 8x6 [--mesh MESH] [--mesh-shape 2x2]

``--to`` names a family (``unilayout.convert.convert_to``) or one of a
family's own text forms (its record's ``forms``: ``v1``, ``v2`` and ``ttnn``
are tt-mlir's forms of one metal layout; ``hlo``, ``shardy``, ``dtensor``,
``jax`` and ``ttnn-mesh`` a sharding's vocabularies). A value of another
family is converted to the form's family first. A metal layout converted to
a layout family prints one line per core.

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
from .._families import families, record
from ..errors import LayoutError, NotRepresentableError
from ._common import add_context, add_text, box_shape, envelope, json_default, read_value, sizes

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
    q.add_argument("--to", required=True,
                   help="a family, or (a metal layout) one of tt-mlir's forms: v1 #tt.metal_layout, v2 "
                        "#ttcore.metal_layout, ttnn #ttnn.ttnn_layout; or (a sharding text) hlo, shardy, dtensor, "
                        "jax, ttnn-mesh (TTNN mesh-mapper placements)")
    add_context(q, "box for an affine source, the shape resolving a dynamic TSL, or the tensor of a memory config "
                   "or a sharding, e.g. 8x8")
    q.add_argument("--json", action="store_true", help="print one JSON object")
    q.set_defaults(run=run)


def run(args) -> int:
    """Run ``unilayout convert`` for parsed ``args``; 0 on success (errors propagate to ``cli.main``)."""
    from ..convert import convert_to  # lazy: the bridge loads every family (~0.6 s)

    value = read_value(args)
    value = record(value).concrete(value)  # what a placement stands for (an ND-sharded TTNN tensor: its layout)
    fam = record(value)
    owner = _form_owner(args.to)
    if owner is not None:  # one of a family's own text forms
        if owner is not fam:
            try:
                value, fam = convert_to(value, owner.name), owner
            except NotRepresentableError:
                raise
            except LayoutError:  # no conversion between the two families at all
                raise LayoutError(f"--to {args.to} is a {owner.name} form: it converts a {owner.name} value, not a "
                                  f"{fam.name} value") from None
        out = fam.form(value, args.to, mesh_shape=sizes(args.mesh_shape, "--mesh-shape", devices=True))
    else:
        options = {}
        shape = box_shape(value, args)
        if shape is not None:
            options["shape"] = shape
        try:
            out = convert_to(value, args.to, **options)
        except NotRepresentableError:
            raise
        except LayoutError:
            if shape is None and fam.box(value) is None and args.to != fam.name:  # it needed the box it has not
                raise LayoutError(f"a {fam.name} value has no box of its own: give --shape (one size per dim, e.g. "
                                  f"--shape 8x8) to convert it to {args.to}") from None
            raise
    if args.json:
        d = envelope("convert", value)
        d["to"] = args.to
        if isinstance(out, tuple):
            d["shards"] = [{"core": list(s.grid_coord), "origin": list(s.origin), "offset": s.offset,
                            "layout": F.canonical_text(s.layout)} for s in out]
        else:
            d["result"] = out if isinstance(out, str) else F.canonical_text(out)
        print(json.dumps(d, indent=2, default=json_default))
        return 0
    if isinstance(out, tuple):  # a metal layout's shards
        for s in out:
            print(f"core {s.grid_coord}: origin {s.origin}, offset {s.offset}: {s.layout}")
    else:
        print(out if isinstance(out, str) else F.canonical_text(out))
    return 0


def _form_owner(name):
    """The record of the family whose own text form ``name`` is, or None (a family name, or unknown)."""
    for fam in map(record, families()):
        if name in fam.forms:
            return fam
    return None
