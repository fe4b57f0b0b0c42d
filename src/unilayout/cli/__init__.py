"""The ``unilayout`` command: show, convert, check and render any layout text, and a guided tour.

    unilayout show TEXT [--json] [--shape 8x8]
    unilayout convert TEXT --to cute|linear|affine|tsl|v1|v2|ttnn [--shape 8x8] [--json]
    unilayout check TEXT [--json]
    unilayout render TEXT -o FILE.svg|png|html|- [--scale K] [--color ...] [--tv MxN] [--place TENSOR] [--shape 8x8]
    unilayout serve [--port N]
    unilayout tour [-o DIR]
    unilayout plan grids|reshard|chain|convert ...   (see unilayout.cli.plan)
    unilayout sharding TEXT ...                      (see unilayout.cli.sharding)
    unilayout codegen TEXT --to c|cuda|cute-cpp|triton|mlir-affine|numpy|python [--inverse]
    unilayout rosetta INSTRUCTION | --all [--json]
    unilayout lens FILE [--json]                     (a whole TTGIR/TTIR or tt-mlir dump, every conversion priced)

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

Each verb is one module of this package (``show``, ``convert``, ``check``,
``render``, ``serve``, ``tour``, ``plan``, ``sharding``, ``codegen``, ``rosetta``, ``lens``) with its
``add_parser(sub)`` and ``run(args)``; ``_common`` holds what they share.
This module only builds the parser from them and runs the verb.

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
import sys

from .._version import __version__
from ..errors import LayoutError
from . import check, codegen, convert, lens, plan, render, rosetta, serve, sharding, show, tour
from ._common import JSON_SCHEMA, SCREEN_CHARS, envelope, error_dict, print_error  # noqa: F401 (SCREEN_CHARS: re-exported)

__all__ = ["main", "JSON_SCHEMA"]

#: The examples ending each ``--help`` (None: the command's own), by verb; a test runs every line.
_EXAMPLES = {
    None: """examples:
  unilayout show '(4,2):(2,1)'
  unilayout render '#ttg.linear<{register = [[1, 0]], lane = [[0, 1], [0, 2]], warp = [], block = []}>' -o L.png
  unilayout convert '#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1)>' --to cute
  python -m unilayout tour -o tour
run 'unilayout COMMAND --help' for the examples of each command.""",
    "show": show.EXAMPLES,
    "convert": convert.EXAMPLES,
    "check": check.EXAMPLES,
    "render": render.EXAMPLES,
    "serve": serve.EXAMPLES,
    "tour": tour.EXAMPLES,
    "codegen": codegen.EXAMPLES,
    "rosetta": rosetta.EXAMPLES,
    "lens": lens.EXAMPLES,
}

#: The verbs in the order ``--help`` lists them.
VERBS = (show, convert, check, render, serve, tour, plan, sharding, codegen, rosetta, lens)


def _parser():
    """The whole command's parser: each verb module adds its own subparser."""
    p = argparse.ArgumentParser(prog="unilayout", description="Exact tensor layouts: CuTe, linear, affine, TSL, metal.",
                                epilog=_EXAMPLES[None], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="store_true", help="print the version and exit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for verb in VERBS:
        verb.add_parser(sub)
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
        print_error(e)
        if getattr(args, "json", False):  # the JSON reader gets the error too, in the one schema
            d = envelope(args.command, ok=False)
            d["error"] = error_dict(e)
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

