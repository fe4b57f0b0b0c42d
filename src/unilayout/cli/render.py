"""``unilayout render TEXT -o FILE``: the layout's picture (.svg, .png), or the explorer's page (.html).

    unilayout render TEXT -o FILE.svg|png|html|- [--format svg|png|html] [--scale K] [--color MODE] [--tv MxN]
                          [--shape 8x8] [--place TENSOR [--blocks]] [--element-bytes B] [--max-cells N]

``-o -`` writes to standard output (``--format`` picks the format). Every
value is drawn by its family's record (``viz.scene``: a TiledMMA as CuTe's
``print_latex`` draws it, a sharding as which device holds which block ...);
a device with ``--place TENSOR --blocks`` draws which device holds which block
of that tensor.

>>> import os, tempfile
>>> from unilayout.cli import main
>>> path = os.path.join(tempfile.mkdtemp(), "L.svg")
>>> main(["render", "(4,2):(2,1)", "-o", path]), open(path).read().count('class="cell"')
(0, 8)
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from .. import facts as F
from .. import viz
from .._families import family_of, record
from ..draw.png import to_png
from ..draw.svg import to_svg
from ..errors import LayoutError
from ._common import Bar, add_context, add_text, box_shape, parse_text, placement_summary, progress, read_value, sizes

__all__ = ["EXAMPLES", "add_parser", "run"]

EXAMPLES = """examples:
  unilayout render 'Sw<3,4,3> o 0 o (8,64):(64,1)' -o swizzle.png --color bank --scale 2
  unilayout render '(32,4):(1,32)' --tv 16x8 -o tv.svg
  unilayout render '(8,8):(8,1)' -o - --format svg > L.svg
  unilayout render 'SM80_16x8x16_F32F16F16F32_TN (2,2,1)' -o mma.png      # a TiledMMA as print_latex draws it
  unilayout render 'tensor<300x300xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <4x4>, memref<75x75xf32, #tt.memory_space<l1>>>>' -o metal.html"""


def add_parser(sub):
    """Register ``render`` on ``sub`` (argparse subparsers)."""
    q = sub.add_parser("render", help="write a picture (.svg or .png)", epilog=EXAMPLES,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_text(q)
    q.add_argument("-o", "--output", required=True,
                   help="FILE.svg, FILE.png, FILE.html (the explorer page, offline), or - for standard output")
    q.add_argument("--format", choices=["svg", "png", "html"],
                   help="format written to standard output with -o - (default svg)")
    q.add_argument("--scale", type=int, default=1, help="PNG magnification, an integer 1..16 (default 1)")
    q.add_argument("--color", choices=["index", "swizzle", "thread", "bank", "warp", "register", "block"],
                   help="cell colours (CuTe: index, swizzle, thread, bank; linear: thread, warp, register, block, index)")
    q.add_argument("--tv", metavar="MxN", help="draw a CuTe (thread, value) layout over an M x N tile")
    add_context(q, "box for an affine map, the shape resolving a dynamic TSL, or the tensor of a memory config or "
                   "a sharding, e.g. 8x8")
    q.add_argument("--place", metavar="TENSOR", help="with a device: a tensor<..., #tt.metal_layout> to place on it")
    q.add_argument("--blocks", action="store_true",
                   help="with a device and --place: draw which device holds which block of the tensor (.svg)")
    q.add_argument("--element-bytes", type=int, default=4, help="bytes per element for --color bank (default 4)")
    q.add_argument("--max-cells", type=int, default=16384, help="cells drawn before cropping or summarising")
    q.set_defaults(run=run)


def run(args) -> int:
    """Run ``unilayout render`` for parsed ``args``; 0 on success (errors propagate to ``cli.main``)."""
    value = read_value(args)
    options = {"max_cells": args.max_cells, "element_bytes": args.element_bytes}
    if args.color:
        options["color"] = args.color
    if args.tv:
        options["tv"] = sizes(args.tv, "--tv")
    shape = box_shape(value, args)
    if shape is not None:
        options["shape"] = shape
    if args.place:
        options["layout"] = parse_text(args.place)
    to_stdout = args.output == "-"
    ext = "." + (args.format or "svg") if to_stdout else os.path.splitext(args.output)[1].lower()
    if args.format and not to_stdout and ext != "." + args.format:
        raise LayoutError(f"--format {args.format} does not match the file name {args.output!r}")
    if ext == ".html":
        return _render_html(args)
    value = record(value).concrete(value)  # what a placement stands for (an ND-sharded TTNN tensor: its layout)
    if args.blocks:
        return _render_blocks(value, args, ext)
    if ext not in viz.FORMATS:
        raise LayoutError(f"cannot write {args.output!r}: the file name must end in .svg, .png or .html")
    if args.scale != 1 and ext != ".png":
        raise LayoutError("--scale applies to .png pictures (an SVG scales by itself)")
    t0 = time.perf_counter()
    bar = Bar(3, "render")
    progress(f"rendering {family_of(value)} {F.canonical_text(value)[:60]} ...")
    s = viz.scene(value, **options)
    bar.step("drawn")
    progress(f"  {s.count_cells():,} {s.cell_class}s, {int(s.width) * args.scale}x{int(s.height) * args.scale} px; "
             f"writing {ext[1:].upper()} ...")
    if to_stdout:
        data = to_png(s, args.scale) if ext == ".png" else to_svg(s).encode("utf-8")
        bar.step("encoded")
        bar.done()
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        progress(f"wrote {len(data):,} bytes to standard output ({time.perf_counter() - t0:.2f} s)")
    else:
        viz.render(s, args.output, scale=args.scale)
        bar.step("written")
        bar.done()
        progress(f"wrote {args.output} ({os.path.getsize(args.output):,} bytes, {time.perf_counter() - t0:.2f} s)")
    for note in s.notes:
        if note.startswith(("showing", "summary")):
            progress("note: " + note)
    return 0


def _render_blocks(device, args, ext):
    """``render DEVICE --place TENSOR --blocks -o FILE.svg``: which device holds which block."""
    from .. import distributed  # lazy: the planner and JAX's vocabulary load only for --blocks

    if not args.place or ext != ".svg":
        raise LayoutError("--blocks needs --place TENSOR and an .svg output file")
    placed, _ = placement_summary(device, args.place)
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(distributed.shard_svg(placed, device))
    progress(f"wrote {args.output} ({os.path.getsize(args.output):,} bytes)")
    return 0


def _render_html(args):
    """``render -o FILE.html``: the explorer's page for the layout, as one offline file."""
    from .. import explorer  # lazy: the explorer loads every family (~0.4 s)

    if args.color or args.tv or args.place:
        raise LayoutError("--color, --tv and --place apply to .svg and .png pictures; the .html page has its own view")
    t0 = time.perf_counter()
    progress("rendering the explorer page ...")
    html = explorer.render_html(args.text, shape=sizes(args.shape, "--shape"))
    if args.output == "-":
        sys.stdout.write(html)
        sys.stdout.flush()
        progress(f"wrote {len(html):,} characters to standard output ({time.perf_counter() - t0:.2f} s)")
        return 0
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(html)
    progress(f"wrote {args.output} ({os.path.getsize(args.output):,} bytes, {time.perf_counter() - t0:.2f} s)")
    return 0
