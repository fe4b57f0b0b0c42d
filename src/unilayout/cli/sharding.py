"""``unilayout sharding``: read any sharding text, say who holds what, convert it to every other vocabulary.

    unilayout sharding TEXT [--shape 8x6] [--mesh MESH] [--mesh-shape 2x4] [--to hlo|shardy|dtensor|ttnn|jax]
                            [--json] [-o PICTURE.svg|.png]

``TEXT`` is one of (recognised by its start):

- HLO ``{devices=[2,1,4]<=[8] last_tile_dim_replicate}`` (``sharding=`` prefix allowed; needs ``--shape``);
- Shardy ``#sdy.sharding<@mesh, [{"x"}, {}]>`` (needs ``--shape`` and ``--mesh 'sdy.mesh @mesh = <["x"=2]>'``
  unless the mesh is inline);
- DTensor placements ``Shard(0), Replicate()`` or TTNN ``PlacementShard(0), PlacementReplicate()`` (needs
  ``--shape`` and ``--mesh-shape``);
- an XLA tiled layout ``f32[128,256]{1,0:T(8,128)(2,1)}`` (its own shape): buffer, affine map, CuTe and
  metal layouts.

For a sharding it prints who holds what, then the same sharding in every
other vocabulary (or why that one cannot say it); ``-o`` draws which device
holds which block. The texts are read through the registry (the sharding
family's ``sharding.text``, its vocabularies in ``sharding.forms``); any
other layout text (an XLA layout) gets what ``show`` says of it.

>>> main_for_tests(["{devices=[2,1,2]<=[4] last_tile_dim_replicate}", "--shape", "8x6"])
sharding of 8x6 over 4 devices
  [0:4, 0:6]  devices 0, 1
  [4:8, 0:6]  devices 2, 3
hlo:     {devices=[2,1,2]<=[4] last_tile_dim_replicate}
shardy:  #sdy.sharding<@mesh, [{"d0"}, {}]>  over  sdy.mesh @mesh = <["d0"=2, "r"=2]>
dtensor: Shard(0), Replicate()  on mesh 2x2
ttnn:    PlacementShard(0), PlacementReplicate()  on mesh 2x2
jax:     PartitionSpec('d0',)  on mesh ('d0', 'r') of shape (2, 2)
0
"""

from __future__ import annotations

import argparse
import json

from .. import viz
from .._families import detect, family_of
from ..draw.table import MAX_TABLE_CELLS
from ..errors import LayoutError
from . import show as show_verb
from ._common import JSON_SCHEMA, parse_text, read_text, sizes

__all__ = ["EXAMPLES", "add_parser", "run", "show", "main_for_tests"]

EXAMPLES = """examples:
  unilayout sharding "{devices=[2,1,4]<=[8] last_tile_dim_replicate}" --shape 8x6
  unilayout sharding '#sdy.sharding<@mesh, [{"x"}, {}]>' --mesh 'sdy.mesh @mesh = <["x"=2, "y"=4]>' --shape 8x6
  unilayout sharding "Shard(0), Shard(0)" --mesh-shape 2x2 --shape 5x3 --to hlo
  unilayout sharding "bf16[128,256]{1,0:T(8,128)(2,1)}"
  unilayout sharding "{devices=[2,2]<=[2,2]T(1,0)}" --shape 8x8 -o who.svg"""


def add_parser(sub):
    """Register ``sharding`` on ``sub`` (argparse subparsers).

    >>> p = argparse.ArgumentParser(prog="unilayout")
    >>> add_parser(p.add_subparsers(dest="command"))
    >>> p.parse_args(["sharding", "{replicated}", "--shape", "4"]).shape
    '4'
    """
    q = sub.add_parser("sharding", help="who holds what, in every sharding vocabulary (unilayout.sharding)",
                       epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    q.add_argument("text", metavar="TEXT", help="HLO or Shardy sharding, DTensor/TTNN placements, or an XLA tiled layout")
    q.add_argument("--shape", help="the global tensor's shape, e.g. 8x6 (not for an XLA layout)")
    q.add_argument("--mesh", metavar="MESH", help="the Shardy mesh text (sdy.mesh @m = <[...]>)")
    q.add_argument("--mesh-shape", metavar="MxN", help="the mesh of DTensor/TTNN placements (and of --to dtensor/ttnn)")
    q.add_argument("--to", choices=["hlo", "shardy", "dtensor", "ttnn", "jax"], help="print only this vocabulary")
    q.add_argument("--json", action="store_true", help="print one JSON object")
    q.add_argument("-o", "--output", metavar="PICTURE", help="write which device holds which block (.svg or .png)")
    q.set_defaults(run=run)


def _dims(text, what):
    """``--shape``/``--mesh-shape`` sizes (a tensor dim may be 0); None stays None."""
    return sizes(text, what, least=0, devices=what == "--mesh-shape")


def run(args) -> int:
    """Run ``unilayout sharding`` for parsed ``args``; 0 on success."""
    from ..sharding.forms import conversions  # lazy: the sharding family (~0.1 s) loads only for this verb
    from ..sharding.text import parse as parse_sharding  # lazy: as above
    from ..sharding.value import Sharding  # lazy: as above

    args.text = read_text(args.text)
    mesh_shape = _dims(args.mesh_shape, "--mesh-shape")
    if detect(args.text) is None:  # no family's text: the sharding reader says what it expected
        parse_sharding(args.text, _dims(args.shape, "--shape"), args.mesh, mesh_shape)
    value = parse_text(args.text, shape=_dims(args.shape, "--shape"), mesh=args.mesh, mesh_shape=mesh_shape)
    if not isinstance(value, Sharding):  # an XLA layout (or any other layout): what show says of it
        if args.output:
            raise LayoutError(f"-o draws shardings; for a {family_of(value)} value use unilayout render TEXT -o FILE")
        return show_verb.run(argparse.Namespace(text=args.text, shape=None, mesh=None, mesh_shape=None,
                                                json=args.json, place=None, max_cells=MAX_TABLE_CELLS, code=None))
    conv = conversions(value, mesh_shape, args.to)
    if args.output:
        viz.render(value, args.output)
    if args.json:
        d = {"schema": JSON_SCHEMA, "command": "sharding", "ok": True, "kind": "sharding",
             "shape": list(value.shape), "devices": {str(k): [list(map(list, b)) for b in v]
                                                     for k, v in value.device_boxes.items()},
             "partial": [k for k, v in value.partial.items() if v], "sum_groups": [list(g) for g in value.sum_groups],
             "conversions": conv}
        print(json.dumps(d, indent=2))
        return 0
    if not args.to:
        print(value)
    for name, text in conv.items():
        print(f"{name + ':':9s}{text}")
    return 0


def show(text, shape=None, as_json=False) -> int:
    """What ``unilayout show TEXT [--shape S] [--json]`` prints for a sharding or XLA layout text.

    >>> show("{devices=[2]0,1}", (4,))
    sharding of 4 over 2 devices
      [0:2]  device 0
      [2:4]  device 1
    hlo:     {devices=[2]<=[2]}
    shardy:  #sdy.sharding<@mesh, [{"d0"}]>  over  sdy.mesh @mesh = <["d0"=2]>
    dtensor: Shard(0)  on mesh 2
    ttnn:    PlacementShard(0)  on mesh 2
    jax:     PartitionSpec('d0',)  on mesh ('d0',) of shape (2,)
    0
    """
    args = argparse.Namespace(text=text, shape=None if shape is None else "x".join(map(str, shape)), mesh=None,
                              mesh_shape=None, to=None, json=as_json, output=None)
    return run(args)


def main_for_tests(argv) -> int:
    """``unilayout sharding ARGV`` without the rest of the command (for examples and tests).

    >>> main_for_tests(["f32[3,5]{1,0:T(2,2)}"])  # an XLA layout: what show says of it
    family:         xla
    text:           f32[3,5]{1,0:T(2,2)}
    shape:          3x5
    element_type:   f32
    minor_to_major: [1, 0]
    tiles:          [[2, 2]]
    buffer_shape:   2x3x2x2
    size:           15
    cosize:         24
    padded:         yes
    affine:         (d0, d1) -> ((d0 floordiv 2) * 12 + (d1 floordiv 2) * 4 + (d0 mod 2) * 2 + d1 mod 2)
    injective:      yes
    surjective:     no
    bijective:      no
    contiguity:     1 (vectorisation width: aligned runs of 1 points hold 1 consecutive values)
    longest_run:    2 (longest run of consecutive points holding consecutive values)
    cute:           not representable: tile (2, 2) pads dim 0 (size 3) to 4: a CuTe layout has no padding (to_affine is exact)
    metal:          tensor<3x5xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <1x1>, memref<2x3x!tt.tile<2x2, f32>, #tt.memory_space<l1>>>>
    <BLANKLINE>
    buffer offsets (row-major; rows x last dim):
        0  1  2  3  4
    0   0  1  4  5  8
    1   2  3  6  7 10
    2  12 13 16 17 20
    0
    """
    p = argparse.ArgumentParser(prog="unilayout")
    add_parser(p.add_subparsers(dest="command"))
    return run(p.parse_args(["sharding", *argv]))
