"""The ``unilayout`` command: show, convert, check and render any layout text, and a guided tour.

    unilayout show TEXT [--json] [--shape 8x8]
    unilayout convert TEXT --to cute|linear|affine|tsl|v1|v2|ttnn [--shape 8x8] [--json]
    unilayout check TEXT [--json]
    unilayout render TEXT -o FILE.svg|png|html|- [--scale K] [--color ...] [--tv MxN] [--place TENSOR] [--shape 8x8]
    unilayout serve [--port N]
    unilayout tour [-o DIR]
    unilayout plan grids|reshard|chain|convert ...   (see unilayout.plan.command)

``python -m unilayout`` is the same command. ``--shape`` gives an affine
map its box and fills in a dynamic TSL's ``?`` values (``TiledStridedLayout.resolve``).
``-o -`` writes the picture to standard output (``--format`` picks svg, png
or html). Every ``--json`` output is one object of the schema ``JSON_SCHEMA``
(documented in docs/cli.md). Progress of slow work is drawn as a bar on
standard error, only when it is a terminal.

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
from ._text import parse_sizes
from .errors import LayoutError, ParseError
from .viz.text import MAX_TABLE_CELLS, tables

__all__ = ["main", "JSON_SCHEMA"]

#: The ``schema`` field of every ``--json`` object. Common fields: ``schema``, ``command``, ``ok`` (bool),
#: and, when the text parsed, ``family`` and ``text`` (the canonical text); on bad input ``ok`` is false and
#: ``error`` = ``{type, message[, position]}`` (exit status 2). Per command: ``show`` adds the facts
#: (``unilayout.facts.describe``) and ``tables``; ``check`` adds ``valid`` and ``checks``; ``convert`` adds
#: ``to``, ``result`` (the converted text) or ``shards`` (a metal layout's per-core layouts).
JSON_SCHEMA = "unilayout/1"


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
    """``"8x8"`` or ``"8,8"`` -> (8, 8) (``_text.parse_sizes``); None stays None."""
    return None if text is None else parse_sizes(text)


def _read_text(text):
    return sys.stdin.read() if text == "-" else text


def _value(args):
    """The value of ``args.text`` (``-``: standard input); a dynamic TSL resolved for ``--shape``."""
    value = _parse(_read_text(args.text))
    shape = _dims(getattr(args, "shape", None))
    if shape is not None and F._ttnn_config(value):  # a #ttnn.memory_config / nd_shard_spec on a tensor of that shape
        value = value.to_metal(shape)
    if shape is not None and family_of(value) == "tsl" and value.is_dynamic:
        value = value.resolve(shape)
    return value


def _envelope(command, value=None, ok=True):
    """The fields every ``--json`` object starts with (``JSON_SCHEMA``)."""
    d = {"schema": JSON_SCHEMA, "command": command, "ok": ok}
    if value is not None:
        d["family"] = "ttnn" if F._ttnn_config(value) else family_of(value)
        d["text"] = F.canonical_text(value)
    return d


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


def _tiled_mma(args):
    """The TiledMMA TEXT describes (``SM80_16x8x16_F32F16F16F32_TN (2,2,1)``, ``make_tiled_mma(...)``), else None."""
    from .cute.tiled import parse_tiled_mma
    from .cute.tiled_copy import parse_tiled_copy

    args.text = _read_text(args.text)
    mma = parse_tiled_mma(args.text)
    return mma if mma is not None else parse_tiled_copy(args.text)  # or a TiledCopy: make_tiled_copy(Copy_Atom<..>, ..)


def _show_mma(mma, args):
    """``show`` of an MMA atom / tiled MMA: the atom's layouts and the tiled TV layouts (same for a TiledCopy)."""
    from .cute import TiledCopy

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


def _render_mma(mma, args):
    """``render`` of an MMA atom / tiled MMA: C, A left, B above (``viz.cute_mma``)."""
    from .cute import TiledCopy
    from .viz.cute_mma import tiled_copy_scene, tiled_mma_scene

    scene = tiled_copy_scene if isinstance(mma, TiledCopy) else tiled_mma_scene  # source | destination
    s = scene(mma, max_cells=max(args.max_cells, 65536))
    return _write_scene(s, args, _picture_ext(args, "a TiledMMA or TiledCopy"))


def _picture_ext(args, what):
    """'.svg' or '.png': the picture's format from --output (or --format when writing to standard output).

    Another extension is a LayoutError naming ``what`` is drawn.
    """
    from . import viz

    ext = "." + (args.format or "svg") if args.output == "-" else os.path.splitext(args.output)[1].lower()
    if ext not in viz.FORMATS:
        raise LayoutError(f"cannot write {args.output!r}: {what} picture is .svg or .png")
    return ext


def _write_scene(s, args, ext):
    """Write scene ``s`` as ``ext`` to --output ('-': standard output, bytes); exit status 0."""
    from . import viz

    if args.output == "-":
        from .viz.png import to_png
        from .viz.svg import to_svg

        sys.stdout.buffer.write(to_png(s, args.scale) if ext == ".png" else to_svg(s).encode("utf-8"))
        sys.stdout.buffer.flush()
    else:
        viz.render(s, args.output, scale=args.scale)
        _progress(f"wrote {args.output} ({os.path.getsize(args.output):,} bytes)")
    return 0


def _cmd_show(args):
    mma = _tiled_mma(args)
    if mma is not None:
        return _show_mma(mma, args)
    from .sharding.command import is_sharding_text, show as _show_sharding  # HLO, Shardy, XLA layout texts

    if is_sharding_text(args.text):
        return _show_sharding(args.text, _dims(args.shape), args.json)
    value = _value(args)
    shape = _dims(args.shape)
    if F._ttnn_config(value) or family_of(value) in ("tsl", "metal"):
        shape = None  # --shape resolved the TSL (or gave a TTNN config its tensor); its facts need no box
    facts = F.describe(value, shape)
    parts = [] if facts["family"] == "ttnn" else tables(value, shape, args.max_cells)  # a bare TTNN config: fields
    if args.place:
        placed, summary = _placement_summary(value, args.place)
        facts["placed"] = F.canonical_text(placed)
        facts["devices"] = [d._asdict() for d in summary.devices]
        parts.append(("per-device shards", summary.text().rstrip("\n")))
    if args.json:
        out = _envelope("show", value)
        out.update(facts)
        out["tables"] = {t or "table": body for t, body in parts}
        print(json.dumps(out, indent=2, default=_json_default))
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


def _needs_tensor(value, what):
    """A TTNN ND-sharded tensor as its metal layout (or why none); a bare config (no tensor shape): refused, saying why."""
    if F._ttnn_config(value) and hasattr(value, "logical_shape"):  # tensor<..., #ttnn.ttnn_nd_layout<...>>
        return value.to_metal()
    if F._ttnn_config(value):
        raise LayoutError(f"{str(value).split('<', 1)[0]} has no tensor shape to {what}: give --shape (e.g. --shape "
                          f"64x256) to {what} the layout it gives a tensor of that shape")
    return value


def _cmd_convert(args):
    from .convert import convert_to, metal_form
    from .sharding import command as sharding_command

    args.text = _read_text(args.text)
    if sharding_command.is_sharding_text(args.text):  # HLO, Shardy, XLA layouts (and --to a sharding vocabulary)
        return _convert_sharding(args, sharding_command)
    if args.to in sharding_command.CONVERT_TARGETS:
        if sharding_command.is_placements(args.text):  # DTensor / TTNN placements have no layout family
            return _convert_sharding(args, sharding_command)
        raise LayoutError(f"--to {args.to} converts a sharding (HLO, Shardy, DTensor or TTNN placements), not a "
                          f"{family_of(_value(args))} value")
    value = _value(args)
    value = _needs_tensor(value, "convert")
    if args.to in ("v1", "v2", "ttnn"):  # tt-mlir's text forms of one metal layout
        if family_of(value) != "metal":
            raise LayoutError(f"--to {args.to} is a tt metal layout form: it converts a metal layout, not a "
                              f"{family_of(value)} value")
        out = metal_form(value, args.to)
        if args.json:
            d = _envelope("convert", value)
            d.update({"to": args.to, "result": F.canonical_text(out)})
            print(json.dumps(d, indent=2, default=_json_default))
        else:
            print(F.canonical_text(out))
        return 0
    options = {}
    shape = _dims(args.shape) if family_of(value) != "tsl" else None
    if shape is not None:
        options["shape"] = shape
    elif family_of(value) == "affine" and args.to != "affine":
        raise LayoutError(f"an affine map has no box of its own: give --shape (one size per dim, e.g. --shape "
                          f"{'x'.join(['8'] * max(value.num_dims, 1))}) to convert it to {args.to}")
    out = convert_to(value, args.to, **options)
    if args.json:
        d = _envelope("convert", value)
        d["to"] = args.to
        if isinstance(out, tuple):
            d["shards"] = [{"core": list(s.grid_coord), "origin": list(s.origin), "offset": s.offset,
                            "layout": F.canonical_text(s.layout)} for s in out]
        else:
            d["result"] = F.canonical_text(out)
        print(json.dumps(d, indent=2, default=_json_default))
        return 0
    if isinstance(out, tuple):  # a metal layout's shards
        for s in out:
            print(f"core {s.grid_coord}: origin {s.origin}, offset {s.offset}: {s.layout}")
    else:
        print(F.canonical_text(out))
    return 0


def _convert_sharding(args, sharding_command):
    """``convert`` of a sharding text (``unilayout.sharding.command.convert``): one line, or why not (exit 2)."""
    out = sharding_command.convert(args.text, args.to, _dims(args.shape), args.mesh, _dims(args.mesh_shape))
    if args.json:
        print(json.dumps({"schema": JSON_SCHEMA, "command": "convert", "ok": True, "text": args.text.strip(),
                          "to": args.to, "result": out}, indent=2))
    else:
        print(out)
    return 0


def _cmd_check(args):
    text = _read_text(args.text)
    try:
        value = _parse(text)
    except LayoutError as e:
        if not args.json:
            raise
        d = _envelope("check", ok=False)
        d.update({"valid": False, "error": _error_dict(e)})
        print(json.dumps(d, indent=2))
        return 2
    checks = F.checks(value)
    valid = all(c["ok"] for c in checks)
    fam, canonical = ("ttnn" if F._ttnn_config(value) else family_of(value)), checks[0]["detail"]
    if args.json:
        d = _envelope("check", ok=valid)
        d.update({"valid": valid, "family": fam, "text": canonical, "checks": checks})
        print(json.dumps(d, indent=2, default=_json_default))
        return 0 if valid else 2
    print(f"{'valid' if valid else 'INVALID'}: {fam} {canonical}")
    for c in checks:
        print(f"  [{'ok ' if c['ok'] else 'BAD'}] {c['check']}" + (f": {c['detail']}" if c["detail"] else ""))
    return 0 if valid else 2


def _cmd_render(args):
    from . import viz

    mma = _tiled_mma(args)
    if mma is not None:
        return _render_mma(mma, args)
    from .sharding import command as sharding_command

    if sharding_command.is_sharding_text(args.text) and not sharding_command.is_xla(args.text):  # HLO, Shardy
        return _render_sharding(args, sharding_command)
    value = _value(argparse.Namespace(text=args.text, shape=args.shape))
    drawn = _needs_tensor(value, "draw")
    if drawn is not value:  # an ND-sharded TTNN tensor: drawn as its metal layout
        value, args.text = drawn, F.canonical_text(drawn)
    options = {"max_cells": args.max_cells, "element_bytes": args.element_bytes}
    if args.color:
        options["color"] = args.color
    if args.tv:
        options["tv"] = _dims(args.tv)
    if args.shape and family_of(value) != "tsl" and not F._ttnn_config(_parse(args.text)):  # (a config: its tensor)
        options["shape"] = _dims(args.shape)
    if args.place:
        placed = _parse(args.place)
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
    bar = _Bar(3, "render")
    _progress(f"rendering {family_of(value)} {F.canonical_text(value)[:60]} ...")
    s = viz.scene(value, **options)
    bar.step("drawn")
    _progress(f"  {s.count_cells():,} {s.cell_class}s, {int(s.width) * args.scale}x{int(s.height) * args.scale} px; "
              f"writing {ext[1:].upper()} ...")
    if to_stdout:
        from .viz.png import to_png
        from .viz.svg import to_svg

        data = to_png(s, args.scale) if ext == ".png" else to_svg(s).encode("utf-8")
        bar.step("encoded")
        bar.done()
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        _progress(f"wrote {len(data):,} bytes to standard output ({time.perf_counter() - t0:.2f} s)")
    else:
        viz.render(s, args.output, scale=args.scale)
        bar.step("written")
        bar.done()
        _progress(f"wrote {args.output} ({os.path.getsize(args.output):,} bytes, {time.perf_counter() - t0:.2f} s)")
    for note in s.notes:
        if note.startswith(("showing", "summary")):
            _progress("note: " + note)
    return 0


def _render_sharding(args, sharding_command):
    """``render`` of an HLO or Shardy sharding (``--shape``): which device holds which block (``viz.sharding``)."""
    if (args.format if args.output == "-" else os.path.splitext(args.output)[1].lower().lstrip(".")) == "html":
        return _render_html(args)
    ext = _picture_ext(args, "a sharding")
    if args.color or args.tv or args.place or args.blocks:
        raise LayoutError("--color, --tv, --place and --blocks do not apply to a sharding picture")
    s = sharding_command.scene(args.text, _dims(args.shape), max_cells=args.max_cells)
    return _write_scene(s, args, ext)


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
    text = args.text
    from .sharding import command as sharding_command

    if args.shape and not sharding_command.is_sharding_text(text):  # (a sharding's --shape is its tensor's)
        value = _parse(text)
        if F._ttnn_config(value):  # a #ttnn.memory_config / nd_shard_spec: the layout it gives that tensor
            text, args.shape = F.canonical_text(value.to_metal(_dims(args.shape))), None
        elif family_of(value) == "tsl" and value.is_dynamic:
            text = str(value.resolve(_dims(args.shape)))
    html = explorer.render_html(text, shape=_dims(args.shape))
    if args.output == "-":
        sys.stdout.write(html)
        sys.stdout.flush()
        _progress(f"wrote {len(html):,} characters to standard output ({time.perf_counter() - t0:.2f} s)")
        return 0
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(html)
    _progress(f"wrote {args.output} ({os.path.getsize(args.output):,} bytes, {time.perf_counter() - t0:.2f} s)")
    return 0


def _cmd_serve(args):
    """``serve``: run the browser explorer on 127.0.0.1 until interrupted (Ctrl-C or SIGINT)."""
    import signal

    from . import explorer

    # A background job starts with SIGINT ignored, and Python then raises no KeyboardInterrupt: stop on SIGINT anyway.
    signal.signal(signal.SIGINT, signal.default_int_handler)
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


class _Bar:
    """A progress bar on standard error, drawn only when it is a terminal and the work has run ~1 s.

    Off a terminal nothing is drawn (logs and pipes stay clean).
    """

    def __init__(self, total, label, stream=None, after=1.0):
        self.total, self.label, self.k = max(int(total), 1), label, 0
        self.stream = sys.stderr if stream is None else stream
        self.t0, self.after, self.shown = time.perf_counter(), after, False
        isatty = getattr(self.stream, "isatty", None)
        self.tty = bool(isatty and isatty())

    def step(self, what=""):
        self.k += 1
        if not self.tty or time.perf_counter() - self.t0 < self.after:
            return
        filled = 24 * self.k // self.total
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (24 - filled)}] {self.k}/{self.total} {what[:40]:<40}")
        self.stream.flush()
        self.shown = True

    def done(self):
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()


def _cmd_tour(args):
    from ._tour import write_tour

    formats = [".svg", ".png"] if args.format == "both" else ["." + args.format]
    from ._tour import TOUR

    bar = _Bar(len(TOUR), "tour", after=0.0)
    written = write_tour(args.output, formats, progress=lambda k, n: bar.step(f"[{k}/{n}]"),
                         scale=args.scale)
    bar.done()
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


_EXAMPLES = {
    None: """examples:
  unilayout show '(4,2):(2,1)'
  unilayout render '#ttg.linear<{register = [[1, 0]], lane = [[0, 1], [0, 2]], warp = [], block = []}>' -o L.png
  unilayout convert '#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1)>' --to cute
  python -m unilayout tour -o tour
run 'unilayout COMMAND --help' for the examples of each command.""",
    "show": """examples:
  unilayout show '((2,2),2):((4,1),2)'
  unilayout show 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (2,2,1), (32,32,_))'   # an MMA atom or tiled MMA
  unilayout render 'make_tiled_copy(Copy_Atom<SM75_U32x4_LDSM_N, half_t>, (32,1), (1,8))' -o copy.svg   # a TiledCopy
  unilayout show '(d0, d1) -> (d1, d0)' --shape 4x4
  unilayout show '#tsl.tsl<[?, 4] -> (32, 4), [?, 4] -> (?, 1)>' --shape 64x64   # resolve a dynamic TSL
  unilayout show 'tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, memref<18x32xf32, #tt.memory_space<l1>>>>' --json
  echo '8:2' | unilayout show -""",
    "convert": """examples:
  unilayout convert '(4,8):(8,1)' --to linear
  unilayout convert '(d0, d1) -> (d0 * 8 + d1)' --to cute --shape 4x8
  unilayout convert '#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1)>' --to affine --json
  unilayout convert '{devices=[2,1,2]<=[4] last_tile_dim_replicate}' --to dtensor --shape 8x6   # a sharding
  unilayout convert 'tensor<64x128xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <2x4>, memref<32x32xf32, #tt.memory_space<l1>>>>' --to v2""",
    "check": """examples:
  unilayout check '(4,2):(2,1)'
  unilayout check '#tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1, chipIds = [0]>' --json""",
    "render": """examples:
  unilayout render 'Sw<3,4,3> o 0 o (8,64):(64,1)' -o swizzle.png --color bank --scale 2
  unilayout render '(32,4):(1,32)' --tv 16x8 -o tv.svg
  unilayout render '(8,8):(8,1)' -o - --format svg > L.svg
  unilayout render 'SM80_16x8x16_F32F16F16F32_TN (2,2,1)' -o mma.png      # a TiledMMA as print_latex draws it
  unilayout render 'tensor<300x300xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <4x4>, memref<75x75xf32, #tt.memory_space<l1>>>>' -o metal.html""",
    "serve": """examples:
  unilayout serve                # http://127.0.0.1:<a free port>/
  unilayout serve --port 8000    # a fixed port""",
    "tour": """examples:
  unilayout tour                 # pictures in ./unilayout-tour
  unilayout tour -o tour-png --format png --scale 2""",
}


def _parser():
    p = argparse.ArgumentParser(prog="unilayout", description="Exact tensor layouts: CuTe, linear, affine, TSL, metal.",
                                epilog=_EXAMPLES[None], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="store_true", help="print the version and exit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    def add_text(q):
        q.add_argument("text", metavar="TEXT", help="layout text (CuTe, #ttg.linear, #tsl.tsl, affine map, tensor<...>, "
                                                 "#tt.device), or - for standard input")

    q = sub.add_parser("show", help="facts and a table of values", epilog=_EXAMPLES["show"],
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_text(q)
    q.add_argument("--json", action="store_true", help="print one JSON object")
    q.add_argument("--place", metavar="TENSOR",
                   help="with a device: a tensor<..., #tt.metal_layout> whose per-device shards to summarise")
    q.add_argument("--shape", help="box for an affine map, or the shape resolving a dynamic TSL, e.g. 8x8")
    q.add_argument("--max-cells", type=int, default=MAX_TABLE_CELLS, help="largest table printed (default %(default)s)")
    q.set_defaults(run=_cmd_show)

    q = sub.add_parser("convert", help="convert to another family (exact, or an error saying why not)",
                       epilog=_EXAMPLES["convert"], formatter_class=argparse.RawDescriptionHelpFormatter)
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
    q.set_defaults(run=_cmd_convert)

    q = sub.add_parser("check", help="validate, with the reasons", epilog=_EXAMPLES["check"],
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_text(q)
    q.add_argument("--json", action="store_true", help="print one JSON object")
    q.set_defaults(run=_cmd_check)

    q = sub.add_parser("render", help="write a picture (.svg or .png)", epilog=_EXAMPLES["render"],
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
    q.set_defaults(run=_cmd_render)

    q = sub.add_parser("serve", help="run the browser explorer on 127.0.0.1 and print its URL",
                       epilog=_EXAMPLES["serve"], formatter_class=argparse.RawDescriptionHelpFormatter)
    q.add_argument("--port", type=int, default=0, help="port (default: 0 = a free port, printed at start)")
    q.set_defaults(run=_cmd_serve)

    q = sub.add_parser("tour", help="one example of each family, with pictures", epilog=_EXAMPLES["tour"],
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    q.add_argument("-o", "--output", default="unilayout-tour", help="folder for the pictures (default %(default)s)")
    q.add_argument("--format", choices=["svg", "png", "both"], default="both")
    q.add_argument("--scale", type=int, default=1, help="PNG magnification, an integer 1..16 (default 1)")
    q.set_defaults(run=_cmd_tour)

    from .plan import command as _plan_command  # `unilayout plan ...`: lives with the planner (unilayout.plan)

    _plan_command.add_parser(sub)

    from .sharding import command as _sharding_command  # `unilayout sharding ...`: lives with unilayout.sharding

    _sharding_command.add_parser(sub)
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
        if getattr(args, "json", False):  # the JSON reader gets the error too, in the one schema
            d = _envelope(args.command, ok=False)
            d["error"] = _error_dict(e)
            print(json.dumps(d, indent=2))
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
