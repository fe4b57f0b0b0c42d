"""``unilayout render TEXT -o FILE``: the layout's picture (.svg, .png), or the explorer's page (.html).

    unilayout render TEXT -o FILE.svg|png|html|- [--format svg|png|html] [--scale K] [--color MODE] [--tv MxN]
                          [--shape 8x8] [--place TENSOR [--blocks]] [--element-bytes B] [--max-cells N]

``-o -`` writes to standard output (``--format`` picks the format). A
TiledMMA or TiledCopy is drawn as CuTe's ``print_latex`` draws it, an HLO or
Shardy sharding as which device holds which block; a device with ``--place
TENSOR --blocks`` draws which device holds which block of that tensor.

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
from .._families import family_of
from ..draw.png import to_png
from ..draw.svg import to_svg
from ..errors import LayoutError
from ._common import Bar, add_text, needs_tensor, parse_text, placement_summary, progress, read_value, sizes, tiled_mma

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
    q.add_argument("--shape", help="box for an affine map, or the shape resolving a dynamic TSL, e.g. 8x8")
    q.add_argument("--place", metavar="TENSOR", help="with a device: a tensor<..., #tt.metal_layout> to place on it")
    q.add_argument("--blocks", action="store_true",
                   help="with a device and --place: draw which device holds which block of the tensor (.svg)")
    q.add_argument("--element-bytes", type=int, default=4, help="bytes per element for --color bank (default 4)")
    q.add_argument("--max-cells", type=int, default=16384, help="cells drawn before cropping or summarising")
    q.set_defaults(run=run)


def run(args) -> int:
    """Run ``unilayout render`` for parsed ``args``; 0 on success (errors propagate to ``cli.main``)."""
    mma = tiled_mma(args)
    if mma is not None:
        return _render_mma(mma, args)
    from ..sharding import command as sharding_command  # lazy: the sharding family loads only for render

    if sharding_command.is_sharding_text(args.text) and not sharding_command.is_xla(args.text):  # HLO, Shardy
        return _render_sharding(args, sharding_command)
    value = read_value(argparse.Namespace(text=args.text, shape=args.shape))
    drawn = needs_tensor(value, "draw")
    if drawn is not value:  # an ND-sharded TTNN tensor: drawn as its metal layout
        value, args.text = drawn, F.canonical_text(drawn)
    options = {"max_cells": args.max_cells, "element_bytes": args.element_bytes}
    if args.color:
        options["color"] = args.color
    if args.tv:
        options["tv"] = sizes(args.tv)
    if args.shape and family_of(value) != "tsl" and not F._ttnn_config(parse_text(args.text)):  # (a config: its tensor)
        options["shape"] = sizes(args.shape)
    if args.place:
        placed = parse_text(args.place)
        if family_of(placed) != "metal":
            raise LayoutError("--place takes a tensor<..., #tt.metal_layout<...>> to place on the device")
        options["layout"] = placed
    to_stdout = args.output == "-"
    ext = "." + (args.format or "svg") if to_stdout else os.path.splitext(args.output)[1].lower()
    if args.format and not to_stdout and ext != "." + args.format:
        raise LayoutError(f"--format {args.format} does not match the file name {args.output!r}")
    if ext == ".html":
        return _render_html(args)
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


def _picture_ext(args, what):
    """'.svg' or '.png': the picture's format from --output (or --format when writing to standard output).

    Another extension is a LayoutError naming ``what`` is drawn.
    """
    ext = "." + (args.format or "svg") if args.output == "-" else os.path.splitext(args.output)[1].lower()
    if ext not in viz.FORMATS:
        raise LayoutError(f"cannot write {args.output!r}: {what} picture is .svg or .png")
    return ext


def _write_scene(s, args, ext):
    """Write scene ``s`` as ``ext`` to --output ('-': standard output, bytes); exit status 0."""
    if args.output == "-":
        sys.stdout.buffer.write(to_png(s, args.scale) if ext == ".png" else to_svg(s).encode("utf-8"))
        sys.stdout.buffer.flush()
    else:
        viz.render(s, args.output, scale=args.scale)
        progress(f"wrote {args.output} ({os.path.getsize(args.output):,} bytes)")
    return 0


def _render_mma(mma, args):
    """``render`` of an MMA atom / tiled MMA: C, A left, B above (``cute.picture_tiled``)."""
    from ..cute import TiledCopy  # lazy: CuTe loads only for a TiledMMA/TiledCopy text
    from ..cute.picture_tiled import tiled_copy_scene, tiled_mma_scene  # lazy: as above

    scene = tiled_copy_scene if isinstance(mma, TiledCopy) else tiled_mma_scene  # source | destination
    s = scene(mma, max_cells=max(args.max_cells, 65536))
    return _write_scene(s, args, _picture_ext(args, "a TiledMMA or TiledCopy"))


def _render_sharding(args, sharding_command):
    """``render`` of an HLO or Shardy sharding (``--shape``): which device holds which block (``sharding.picture``)."""
    if (args.format if args.output == "-" else os.path.splitext(args.output)[1].lower().lstrip(".")) == "html":
        return _render_html(args)
    ext = _picture_ext(args, "a sharding")
    if args.color or args.tv or args.place or args.blocks:
        raise LayoutError("--color, --tv, --place and --blocks do not apply to a sharding picture")
    s = sharding_command.scene(args.text, sizes(args.shape), max_cells=args.max_cells)
    return _write_scene(s, args, ext)


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
    text = args.text
    from ..sharding import command as sharding_command  # lazy: the sharding family loads only for render

    if args.shape and not sharding_command.is_sharding_text(text):  # (a sharding's --shape is its tensor's)
        value = parse_text(text)
        if F._ttnn_config(value):  # a #ttnn.memory_config / nd_shard_spec: the layout it gives that tensor
            text, args.shape = F.canonical_text(value.to_metal(sizes(args.shape))), None
        elif family_of(value) == "tsl" and value.is_dynamic:
            text = str(value.resolve(sizes(args.shape)))
    html = explorer.render_html(text, shape=sizes(args.shape))
    if args.output == "-":
        sys.stdout.write(html)
        sys.stdout.flush()
        progress(f"wrote {len(html):,} characters to standard output ({time.perf_counter() - t0:.2f} s)")
        return 0
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(html)
    progress(f"wrote {args.output} ({os.path.getsize(args.output):,} bytes, {time.perf_counter() - t0:.2f} s)")
    return 0
