"""The ``unilayout`` command: show, convert, check and render any layout text, and a guided tour.

    unilayout show TEXT [--json] [--shape 8x8]
    unilayout convert TEXT --to cute|linear|affine|tsl [--shape 8x8]
    unilayout check TEXT [--json]
    unilayout render TEXT -o FILE.svg|png|html [--color index|thread|bank|warp|register] [--tv MxN] [--place TENSOR]
    unilayout serve [--port N]
    unilayout tour [-o DIR]

TEXT is any text form unilayout reads (CuTe ``(4,2):(2,1)``, ``#ttg.linear<{...}>``,
``#tsl.tsl<...>``, an affine map, ``tensor<..., #tt.metal_layout<...>>``,
``#tt.device<...>``), or ``-`` for standard input. Bad input exits with
status 2 and a short message pointing at the problem, never a traceback.

>>> main(["--version"])  # doctest: +ELLIPSIS
unilayout ...
0
>>> main(["show", "(2,2):(1,2)"])
family:         cute
text:           (2,2):(1,2)
shape:          (2,2)
stride:         (1,2)
size:           4
cosize:         4
rank:           2
depth:          1
injective:      yes
surjective:     yes (onto 0..3)
bijective:      yes
contiguity:     4 (vectorisation width: aligned runs of 4 points hold 4 consecutive values)
longest_run:    4 (longest run of consecutive points holding consecutive values)
<BLANKLINE>
(2,2):(1,2)
      0   1 
    +---+---+
 0  | 0 | 2 |
    +---+---+
 1  | 1 | 3 |
    +---+---+
0
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

from . import __version__
from . import facts as F
from ._families import family_of
from .errors import LayoutError, ParseError
from .viz.text import MAX_TABLE_CELLS, tables

__all__ = ["main"]


def _parse(text):
    """``unilayout.parse``, with the command's hint about ``-`` added to the error for empty text."""
    import unilayout

    try:
        return unilayout.parse(text)
    except ParseError as e:
        if text.strip():
            raise
        raise ParseError(e.message + " (give TEXT, or '-' to read standard input)", e.text, e.position) from None


def _dims(text):
    """``"8x8"`` or ``"8,8"`` -> (8, 8)."""
    if text is None:
        return None
    parts = [p for p in text.replace(",", "x").lower().split("x") if p.strip()]
    try:
        dims = tuple(int(p) for p in parts)
    except ValueError:
        raise LayoutError(f"expected sizes like 8x8, got {text!r}") from None
    if not dims or any(d < 1 for d in dims):
        raise LayoutError(f"expected positive sizes like 8x8, got {text!r}")
    return dims


def _read_text(text):
    return sys.stdin.read() if text == "-" else text


def _json_default(x):
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, np.ndarray):
        return x.tolist()
    return str(x)


def _progress(msg):
    print(msg, file=sys.stderr, flush=True)


# ------------------------------------------------------------------------------------------------
# Subcommands
# ------------------------------------------------------------------------------------------------


def _print_tables(parts):
    for title, body in parts:
        print()
        if title:
            print(title + ":")
        print(body)


def _cmd_show(args):
    value = _parse(_read_text(args.text))
    shape = _dims(args.shape)
    facts = F.describe(value, shape)
    parts = tables(value, shape, args.max_cells)
    if args.place:
        placed, summary = _placement_summary(value, args.place)
        facts["placed"] = F.canonical_text(placed)
        facts["devices"] = [d._asdict() for d in summary.devices]
        parts.append(("per-device shards", summary.text().rstrip("\n")))
    if args.json:
        facts["tables"] = {t or "table": body for t, body in parts}
        print(json.dumps(facts, indent=2, default=_json_default))
        return 0
    print(F.format_facts(facts))
    _print_tables(parts)
    return 0


def _placement_summary(device, tensor_text):
    """``(metal layout, distributed.ShardSummary)`` of the tensor ``tensor_text`` placed on ``device``."""
    from . import distributed

    placed = _parse(tensor_text)
    if family_of(device) != "device" or family_of(placed) != "metal":
        raise LayoutError("--place goes with a #tt.device<...> and takes a tensor<..., #tt.metal_layout<...>>")
    return placed, distributed.shard_summary(placed, device)


def _cmd_convert(args):
    from .convert import convert_to

    value = _parse(_read_text(args.text))
    options = {}
    shape = _dims(args.shape)
    if shape is not None:
        options["shape"] = shape
    elif family_of(value) == "affine" and args.to != "affine":
        raise LayoutError(f"an affine map has no box of its own: give --shape (one size per dim, e.g. --shape "
                          f"{'x'.join(['8'] * max(value.num_dims, 1))}) to convert it to {args.to}")
    out = convert_to(value, args.to, **options)
    if isinstance(out, tuple):  # a metal layout's shards
        for s in out:
            print(f"core {s.grid_coord}: origin {s.origin}, offset {s.offset}: {s.layout}")
    else:
        print(F.canonical_text(out))
    return 0


def _cmd_check(args):
    text = _read_text(args.text)
    try:
        value = _parse(text)
    except LayoutError as e:
        if not args.json:
            raise
        print(json.dumps({"valid": False, "error": _error_dict(e)}, indent=2))
        return 2
    checks = F.checks(value)
    valid = all(c["ok"] for c in checks)
    fam, canonical = family_of(value), checks[0]["detail"]
    if args.json:
        print(json.dumps({"valid": valid, "family": fam, "text": canonical, "checks": checks}, indent=2,
                         default=_json_default))
        return 0 if valid else 2
    print(f"{'valid' if valid else 'INVALID'}: {fam} {canonical}")
    for c in checks:
        print(f"  [{'ok ' if c['ok'] else 'BAD'}] {c['check']}" + (f": {c['detail']}" if c["detail"] else ""))
    return 0 if valid else 2


def _cmd_render(args):
    from . import viz

    args.text = _read_text(args.text)
    value = _parse(args.text)
    options = {"max_cells": args.max_cells, "element_bytes": args.element_bytes}
    if args.color:
        options["color"] = args.color
    if args.tv:
        options["tv"] = _dims(args.tv)
    if args.shape:
        options["shape"] = _dims(args.shape)
    if args.place:
        placed = _parse(args.place)
        if family_of(placed) != "metal":
            raise LayoutError("--place takes a tensor<..., #tt.metal_layout<...>> to place on the device")
        options["layout"] = placed
    ext = os.path.splitext(args.output)[1].lower()
    if ext == ".html":
        return _render_html(args)
    if args.blocks:
        return _render_blocks(value, args, ext)
    if ext not in viz.FORMATS:
        raise LayoutError(f"cannot write {args.output!r}: the file name must end in .svg, .png or .html")
    t0 = time.perf_counter()
    _progress(f"rendering {family_of(value)} {F.canonical_text(value)[:60]} ...")
    s = viz.scene(value, **options)
    _progress(f"  {s.count_cells():,} {s.cell_class}s, {int(s.width)}x{int(s.height)} px; writing {ext[1:].upper()} ...")
    viz.render(s, args.output)
    _progress(f"wrote {args.output} ({os.path.getsize(args.output):,} bytes, {time.perf_counter() - t0:.2f} s)")
    for note in s.notes:
        if note.startswith(("showing", "summary")):
            _progress("note: " + note)
    return 0


def _render_blocks(device, args, ext):
    """``render DEVICE --place TENSOR --blocks -o FILE.svg``: which device holds which block."""
    from . import distributed

    if not args.place or ext != ".svg":
        raise LayoutError("--blocks needs --place TENSOR and an .svg output file")
    placed, _ = _placement_summary(device, args.place)
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(distributed.shard_svg(placed, device))
    _progress(f"wrote {args.output} ({os.path.getsize(args.output):,} bytes)")
    return 0


def _render_html(args):
    """``render -o FILE.html``: the explorer's page for the layout, as one offline file."""
    from . import explorer

    if args.color or args.tv or args.place:
        raise LayoutError("--color, --tv and --place apply to .svg and .png pictures; the .html page has its own view")
    t0 = time.perf_counter()
    _progress("rendering the explorer page ...")
    html = explorer.render_html(args.text, shape=_dims(args.shape))
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(html)
    _progress(f"wrote {args.output} ({os.path.getsize(args.output):,} bytes, {time.perf_counter() - t0:.2f} s)")
    return 0


def _cmd_serve(args):
    """``serve``: run the browser explorer on 127.0.0.1 until interrupted."""
    from . import explorer

    srv = explorer.serve(port=args.port)
    print(f"unilayout explorer: {srv.url}", flush=True)
    _progress("press Ctrl-C to stop")
    try:
        while srv.running:
            time.sleep(0.2)
    except KeyboardInterrupt:
        _progress("stopping")
    finally:
        srv.shutdown()
    return 0


def _progress(msg):
    print(msg, file=sys.stderr, flush=True)


def _cmd_tour(args):
    from ._tour import write_tour

    formats = [".svg", ".png"] if args.format == "both" else ["." + args.format]
    written = write_tour(args.output, formats, progress=_progress)
    _progress(f"wrote {len(written)} pictures to {args.output}")
    return 0


# ------------------------------------------------------------------------------------------------
# Errors and the entry point
# ------------------------------------------------------------------------------------------------


def _error_dict(e):
    d = {"type": type(e).__name__, "message": getattr(e, "message", str(e))}
    if isinstance(e, ParseError):
        d["position"] = e.position
    return d


#: Longest line of an error message printed whole (about a screen); a longer one (quoting a huge text) keeps its ends.
SCREEN_CHARS = 2400


def _print_error(e):
    """The whole message on stderr; a long text of a ParseError is cut to 100 characters around the position.

    Only a line longer than a screen (``SCREEN_CHARS``, a message quoting a huge
    input) is cut, in its middle, so its start and end both show.
    """
    lines = str(e).splitlines() or [""]
    if isinstance(e, ParseError) and len(e.text) > 100:
        p = e.position
        a = max(0, p - 50)
        snippet = e.text[a : a + 100].replace("\n", " ")
        lines = [f"{e.message} at position {p}", f"  {'...' if a else ''}{snippet}",
                 f"  {' ' * ((3 if a else 0) + p - a)}^"]
    half = SCREEN_CHARS // 2
    lines = [ln if len(ln) <= SCREEN_CHARS else ln[:half] + " ... " + ln[-half:] for ln in lines[:40]]
    print(f"unilayout: error: {lines[0]}", file=sys.stderr)
    for ln in lines[1:]:
        print(ln, file=sys.stderr)


def _parser():
    p = argparse.ArgumentParser(prog="unilayout", description="Exact tensor layouts: CuTe, linear, affine, TSL, metal.")
    p.add_argument("--version", action="store_true", help="print the version and exit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    def add_text(q):
        q.add_argument("text", metavar="TEXT", help="layout text (CuTe, #ttg.linear, #tsl.tsl, affine map, tensor<...>, "
                                                 "#tt.device), or - for standard input")

    q = sub.add_parser("show", help="facts and a table of values")
    add_text(q)
    q.add_argument("--json", action="store_true", help="print one JSON object")
    q.add_argument("--place", metavar="TENSOR",
                   help="with a device: a tensor<..., #tt.metal_layout> whose per-device shards to summarise")
    q.add_argument("--shape", help="box for an affine map, e.g. 8x8")
    q.add_argument("--max-cells", type=int, default=MAX_TABLE_CELLS, help="largest table printed (default %(default)s)")
    q.set_defaults(run=_cmd_show)

    q = sub.add_parser("convert", help="convert to another family (exact, or an error saying why not)")
    add_text(q)
    q.add_argument("--to", required=True, choices=["cute", "linear", "affine", "tsl"])
    q.add_argument("--shape", help="box for an affine source, e.g. 8x8")
    q.set_defaults(run=_cmd_convert)

    q = sub.add_parser("check", help="validate, with the reasons")
    add_text(q)
    q.add_argument("--json", action="store_true", help="print one JSON object")
    q.set_defaults(run=_cmd_check)

    q = sub.add_parser("render", help="write a picture (.svg or .png)")
    add_text(q)
    q.add_argument("-o", "--output", required=True, help="FILE.svg, FILE.png, or FILE.html (the explorer page, offline)")
    q.add_argument("--color", choices=["index", "thread", "bank", "warp", "register", "block"],
                   help="cell colours (CuTe: index, thread, bank; linear: thread, warp, register, block, index)")
    q.add_argument("--tv", metavar="MxN", help="draw a CuTe (thread, value) layout over an M x N tile")
    q.add_argument("--shape", help="box for an affine map, e.g. 8x8")
    q.add_argument("--place", metavar="TENSOR", help="with a device: a tensor<..., #tt.metal_layout> to place on it")
    q.add_argument("--blocks", action="store_true",
                   help="with a device and --place: draw which device holds which block of the tensor (.svg)")
    q.add_argument("--element-bytes", type=int, default=4, help="bytes per element for --color bank (default 4)")
    q.add_argument("--max-cells", type=int, default=16384, help="cells drawn before cropping or summarising")
    q.set_defaults(run=_cmd_render)

    q = sub.add_parser("serve", help="run the browser explorer on 127.0.0.1 and print its URL")
    q.add_argument("--port", type=int, default=8000, help="port (default %(default)s; 0 = any free port)")
    q.set_defaults(run=_cmd_serve)

    q = sub.add_parser("tour", help="one example of each family, with pictures")
    q.add_argument("-o", "--output", default="unilayout-tour", help="folder for the pictures (default %(default)s)")
    q.add_argument("--format", choices=["svg", "png", "both"], default="both")
    q.set_defaults(run=_cmd_tour)
    return p


def main(argv=None) -> int:
    """Entry point of the ``unilayout`` console script; returns the exit status (2 on bad input).

    >>> main(["show", "(2,3):(1"])
    2
    """
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse reports usage errors with status 2
        return int(e.code or 0)
    if args.version:
        print(f"unilayout {__version__}")
        return 0
    if not getattr(args, "command", None):
        parser.print_help()
        return 0
    try:
        return args.run(args)
    except LayoutError as e:
        _print_error(e)
        return 2
    except BrokenPipeError:  # the reader went away (| head): stop quietly, as Unix tools do
        sys.stderr.close()
        return 141
    except OSError as e:
        print(f"unilayout: error: {e.strerror or e}: {e.filename or ''}".rstrip(": "), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("unilayout: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # a bug: say so in one line rather than a traceback
        print(f"unilayout: internal error ({type(e).__name__}: {e}); please report it with the command line",
              file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
