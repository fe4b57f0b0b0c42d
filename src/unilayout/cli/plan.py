"""``unilayout plan``: the planner (``unilayout.plan``) on the command line.

    unilayout plan grids SHAPE [--device DEVICE | --mesh MxN] [--tile 32x32] [--dtype f32] [--collapse 0:-1,...]
                               [--memory l1|dram] [--physical] [--top N] [--from TENSOR] [--json] [-o PICTURE]
    unilayout plan reshard SRC DST [--device DEVICE | --mesh MxN] [--no-reinterpret] [--json] [-o PICTURE]
    unilayout plan chain --op "TENSOR[; TENSOR ...]" --op ... [--device DEVICE | --mesh MxN] [--json]
    unilayout plan convert SRC DST [--bits 16] [--json]

``SHAPE`` is ``53x63``; ``SRC``/``DST``/``TENSOR`` are
``tensor<..., #tt.metal_layout<...>>`` texts (``convert``: two Triton
linear layouts or two CuTe layouts). The device defaults to one Wormhole
8x8 chip; ``--mesh 1x2`` builds ``Device.from_mesh`` over Wormhole chips.
``-o`` writes the chosen grid over the device (``grids``) or the traffic
heat map (``reshard``) as .svg or .png. ``grids --from TENSOR`` adds, for
each grid shown, the bytes resharding a producer's layout into it moves —
the seed's "keep exploring if producers/consumers end up with nasty
reblocking", measured.

>>> main_for_tests(["grids", "53x63", "--top", "2"])
rank  grid       placement   collapse  cores  padding  pad %  bytes/core  L1
   1  2x32       row_major   []           64      117   3.4%         216  yes
   2  8x8        physical    []           64      245   6.8%         224  yes
... 110 more (--top 0 lists all)
0
"""

from __future__ import annotations

import argparse
import json

from .._families import family_of
from .._families import parse as parse_any
from ..errors import LayoutError
from ._common import JSON_SCHEMA, sizes
from ._plan_inputs import collapse_intervals, device, metal, write_picture

__all__ = ["EXAMPLES", "add_parser", "run", "main_for_tests"]

EXAMPLES = """examples:
  unilayout plan grids 53x63                           # ranked grids on one 8x8 chip
  unilayout plan grids 16x3x64x128 --mesh 2x1x1 --collapse 1:-1 --top 3
  unilayout plan reshard "tensor<256x256xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <8x8>, memref<32x32xf32, #tt.memory_space<l1>>>>" \\
                         "tensor<256x256xf32, #tt.metal_layout<(d0, d1) -> (d1, d0), undef, <8x8>, memref<32x32xf32, #tt.memory_space<l1>>>>"
  unilayout plan convert "(8,8):(8,1)" "(8,8):(1,8)" --bits 16"""


def add_parser(sub):
    """Register the ``plan`` subcommand (and its own subcommands) on ``sub`` (argparse subparsers).

    >>> import argparse
    >>> p = argparse.ArgumentParser(prog="unilayout")
    >>> add_parser(p.add_subparsers(dest="command"))
    >>> p.parse_args(["plan", "grids", "4x4"]).what
    'grids'
    """
    p = sub.add_parser("plan", help="choose grids, price reshards, chains and conversions (unilayout.plan)",
                       epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    ps = p.add_subparsers(dest="what", metavar="WHAT")

    def device_opts(q):
        q.add_argument("--device", metavar="DEVICE", help="a #tt.device<...> text (default: one Wormhole 8x8 chip)")
        q.add_argument("--mesh", metavar="MxN", help="Device.from_mesh over Wormhole chips, e.g. 1x2 or 2x1x1")

    q = ps.add_parser("grids", help="every legal grid of a tensor, ranked: fits L1, max the grid, least padding")
    q.add_argument("shape", metavar="SHAPE", help="logical shape, e.g. 53x63")
    device_opts(q)
    q.add_argument("--tile", metavar="HxW", help="tilize, e.g. 32x32")
    q.add_argument("--dtype", default="f32", help="element type (default f32)")
    q.add_argument("--collapse", metavar="B:E,...", help="collapse intervals, e.g. 0:3,-3:-1 (default: every cut)")
    q.add_argument("--memory", choices=["l1", "dram"], default="l1")
    q.add_argument("--physical", action="store_true", help="physical grids only (no virtual grids)")
    q.add_argument("--top", type=int, default=10, help="rows printed (default %(default)s; 0 = all)")
    q.add_argument("--json", action="store_true", help="print one JSON object")
    q.add_argument("-o", "--output", help="draw the best grid over the device: FILE.svg or FILE.png")
    q.add_argument("--from", dest="producer", metavar="TENSOR",
                   help="a producer's tensor<..., #tt.metal_layout>: add the bytes resharding it into each grid moves")

    q = ps.add_parser("reshard", help="bytes a reshard moves: local, on chip, chip to chip, per core, transfers")
    q.add_argument("src", metavar="SRC", help="tensor<..., #tt.metal_layout<...>>")
    q.add_argument("dst", metavar="DST", help="tensor<..., #tt.metal_layout<...>>")
    device_opts(q)
    q.add_argument("--no-reinterpret", action="store_true", help="do not try the grid reinterpretations")
    q.add_argument("--json", action="store_true", help="print one JSON object")
    q.add_argument("-o", "--output", help="the core-to-core heat map: FILE.svg or FILE.png")

    q = ps.add_parser("chain", help="least total reshard bytes along a chain of ops (dynamic programming)")
    q.add_argument("--op", action="append", required=True, metavar="TENSORS",
                   help="one op's candidate layouts, tensor<...> texts separated by ';' (repeat per op, in order)")
    device_opts(q)
    q.add_argument("--no-reinterpret", action="store_true", help="do not read layouts through reinterpreted grids")
    q.add_argument("--json", action="store_true", help="print one JSON object")

    q = ps.add_parser("convert", help="price a Triton layout conversion or a CuTe copy")
    q.add_argument("src", metavar="SRC", help="a Triton linear layout / encoding on a tensor, or a CuTe layout")
    q.add_argument("dst", metavar="DST", help="the same kind as SRC")
    q.add_argument("--bits", type=int, default=None,
                   help="element bits (default: the tensor type's element, as f16 -> 16, else 32)")
    q.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def _envelope(what):
    return {"schema": JSON_SCHEMA, "command": "plan", "ok": True, "what": what}


def _grids(args):
    from ..plan import grids  # lazy: the planner loads tt-metal's family (~0.2 s)
    from ..plan.panel import _row  # lazy: as above (the panel draws through the planner)

    dev = device(args)
    tile = sizes(args.tile, "--tile") if args.tile else None
    g = grids(sizes(args.shape, "SHAPE"), dev, tile=tile, element_type=args.dtype, memory_space=args.memory,
              collapse=collapse_intervals(args.collapse), virtual=not args.physical)
    shown = g if args.top <= 0 else g[:args.top]
    moved = None
    if args.producer:
        from ..plan import reshard_cost  # lazy: as above

        src = metal(args.producer, "--from")
        moved = [reshard_cost(src, c.layout, dev, dst_device=None if c.placement == "physical" else c.device).moved_bytes
                 for c in shown]
    if args.json:
        d = _envelope("grids")
        d["count"] = len(g)
        d["grids"] = [_row(c) | {"layout": c.layout.tensor_type()}
                      | ({} if moved is None else {"moved_from_producer": moved[k]})
                      for k, c in enumerate(shown)]
        print(json.dumps(d, indent=2))
    else:
        print(f"{'rank':>4}  {'grid':10} {'placement':11} {'collapse':9} {'cores':>5}  {'padding':>7}  {'pad %':>5}  "
              f"{'bytes/core':>10}  L1" + ("" if moved is None else f"  {'moved from producer':>19}"))
        for k, c in enumerate(shown, 1):
            col = ",".join(f"{b}:{e}" for b, e in c.collapse) or "[]"
            line = (f"{k:>4}  {'x'.join(map(str, c.grid)):10} {c.placement:11} {col:9} {c.cores_used:>5}  "
                    f"{c.padding_slots:>7}  {100 * c.padding_fraction:>4.1f}%  {c.bytes_per_core:>10}  "
                    f"{'yes' if c.fits_l1 else 'no':3}" + ("" if moved is None else f"  {moved[k - 1]:>19}"))
            print(line.rstrip())
        if len(shown) < len(g):
            print(f"... {len(g) - len(shown)} more (--top 0 lists all)")
    if args.output and g:
        from ..plan.picture import grid_choice_scene  # lazy: as above

        write_picture(grid_choice_scene(g[0]), args.output)
    return 0


def _reshard(args):
    from ..plan import reshard_cost  # lazy: the planner loads tt-metal's family (~0.2 s)
    from ..plan.panel import _cost_dict  # lazy: as above (the panel draws through the planner)

    dev = device(args)
    c = reshard_cost(metal(args.src, "SRC"), metal(args.dst, "DST"), dev, reinterpret=not args.no_reinterpret)
    if args.json:
        d = _envelope("reshard")
        d.update(_cost_dict(c))
        print(json.dumps(d, indent=2))
    else:
        for k, v in _cost_dict(c).items():
            print(f"{k + ':':20}{v if v is not None else '-'}")
        if c.reinterpretation is not None:
            print(f"{'device:':20}{c.reinterpretation.device}")
    if args.output:
        from ..plan.picture import traffic_scene  # lazy: as above

        write_picture(traffic_scene(c), args.output)
    return 0


def _chain(args):
    from ..plan import chain  # lazy: the planner loads tt-metal's family (~0.2 s)
    from ..plan.panel import _cost_dict  # lazy: as above (the panel draws through the planner)

    dev = device(args)
    ops = [[metal(t.strip(), f"--op {j}") for t in op.split(";") if t.strip()] for j, op in enumerate(args.op)]
    p = chain(ops, dev, reinterpret=not args.no_reinterpret)
    if args.json:
        d = _envelope("chain")
        d.update(choices=list(p.choices), views=[str(v) for v in p.views], total_bytes=p.total_bytes,
                 edges=[_cost_dict(e) for e in p.edges], edge_costs=[m.tolist() for m in p.edge_costs],
                 states=[[list(s) for s in op] for op in p.states])
        print(json.dumps(d, indent=2))
    else:
        print(p.table())
    return 0


def _convert(args):
    a, b = parse_any(args.src), parse_any(args.dst)
    fa, fb = family_of(a), family_of(b)
    bits = args.bits
    if bits is None:
        from ..plan import element_bits  # lazy: the planner loads only for plan convert

        ea, eb = element_bits(args.src), element_bits(args.dst)
        if ea is not None and eb is not None and ea != eb:
            raise LayoutError(f"plan convert: SRC holds {ea}-bit and DST {eb}-bit elements; a conversion keeps the "
                              "element type (give --bits to price one anyway)")
        bits = ea or eb or 32
    if fa == fb == "linear":
        from ..plan import triton_conversion  # lazy: Triton's conversion model loads only for plan convert

        c = triton_conversion(a, b, bitwidth=bits)
        d = dict(level=c.level, levels=list(c.levels), shuffle_rounds=c.shuffle_rounds, shared_bytes=c.shared_bytes,
                 store_conflicts=c.store_conflicts, load_conflicts=c.load_conflicts, store_vector=c.store_vector,
                 load_vector=c.load_vector, scratch_bytes=c.scratch_bytes, path=c.path)
    elif fa == fb == "cute":
        from ..plan import cute_copy  # lazy: CuTe's copy model loads only for plan convert

        d = cute_copy(a, b, element_bits=bits)._asdict()
    else:
        raise LayoutError(f"plan convert prices two Triton linear layouts or two CuTe layouts, got {fa} and {fb}")
    if args.json:
        e = _envelope("convert")
        e.update(d)
        print(json.dumps(e, indent=2))
    else:
        for k, v in d.items():
            print(f"{k + ':':17}{v if v is not None else '-'}")
    return 0


def run(args) -> int:
    """Run ``unilayout plan WHAT ...`` from parsed arguments (errors propagate to the command's handler).

    >>> import argparse
    >>> p = argparse.ArgumentParser(prog="unilayout")
    >>> add_parser(p.add_subparsers(dest="command"))
    >>> run(p.parse_args(["plan", "convert", "(8,8):(8,1)", "(8,8):(1,8)", "--bits", "16"]))
    vector:          1
    vector_bits:     16
    transactions:    64
    bytes:           128
    0
    """
    what = getattr(args, "what", None)
    if what is None:
        raise LayoutError("plan needs what to plan: grids, reshard, chain or convert (unilayout plan --help)")
    return {"grids": _grids, "reshard": _reshard, "chain": _chain, "convert": _convert}[what](args)


def main_for_tests(argv) -> int:
    """``unilayout plan ARGV`` without the rest of the command (for examples and tests).

    >>> main_for_tests(["reshard", "tensor<8x8xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <1x1>, memref<8x8xf32, #tt.memory_space<l1>>>>",
    ...                 "tensor<8x8xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <1x1>, memref<8x8xf32, #tt.memory_space<l1>>>>"])
    local_bytes:        256
    on_chip_bytes:      0
    chip_to_chip_bytes: 0
    max_send_bytes:     0
    max_receive_bytes:  0
    transfers:          0
    padding_bytes:      0
    reinterpretation:   -
    in_place_bytes:     256
    element_bytes:      4
    moved_bytes:        0
    0
    """
    p = argparse.ArgumentParser(prog="unilayout")
    add_parser(p.add_subparsers(dest="command"))
    return run(p.parse_args(["plan", *argv]))
