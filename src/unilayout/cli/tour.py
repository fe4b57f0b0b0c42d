"""``unilayout tour``: one example of each family, printed, with its pictures written to a folder.

    unilayout tour [-o DIR] [--format svg|png|both] [--scale K]

The stops are ``unilayout._tour.TOUR``; a progress bar shows on a terminal.

>>> import argparse
>>> p = argparse.ArgumentParser(prog="unilayout")
>>> add_parser(p.add_subparsers(dest="command"))
>>> p.parse_args(["tour"]).output
'unilayout-tour'
"""

from __future__ import annotations

import argparse

from .._tour import TOUR, write_tour
from ._common import Bar, progress

__all__ = ["EXAMPLES", "add_parser", "run"]

EXAMPLES = """examples:
  unilayout tour                 # pictures in ./unilayout-tour
  unilayout tour -o tour-png --format png --scale 2"""


def add_parser(sub):
    """Register ``tour`` on ``sub`` (argparse subparsers)."""
    q = sub.add_parser("tour", help="one example of each family, with pictures", epilog=EXAMPLES,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    q.add_argument("-o", "--output", default="unilayout-tour", help="folder for the pictures (default %(default)s)")
    q.add_argument("--format", choices=["svg", "png", "both"], default="both")
    q.add_argument("--scale", type=int, default=1, help="PNG magnification, an integer 1..16 (default 1)")
    q.set_defaults(run=run)


def run(args) -> int:
    """Run ``unilayout tour`` for parsed ``args``: write the pictures, print each stop; 0."""
    formats = [".svg", ".png"] if args.format == "both" else ["." + args.format]
    bar = Bar(len(TOUR), "tour", after=0.0)
    written = write_tour(args.output, formats, progress=lambda k, n: bar.step(f"[{k}/{n}]"),
                         scale=args.scale)
    bar.done()
    progress(f"wrote {len(written)} pictures to {args.output}")
    return 0
