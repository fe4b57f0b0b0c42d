"""``unilayout check TEXT``: is the layout valid, and the reason for each check (exit status 2 when not).

    unilayout check TEXT [--json]

>>> from unilayout.cli import main
>>> main(["check", "(4,2):(2,1)"])
valid: cute (4,2):(2,1)
  [ok ] parses: (4,2):(2,1)
  [ok ] injective: yes (a property, not an error)
  [ok ] surjective: yes (a property, not an error)
0
"""

from __future__ import annotations

import argparse
import json

from .. import facts as F
from .._families import family_of
from ..errors import LayoutError
from ._common import add_context, add_text, envelope, error_dict, json_default, read_value

__all__ = ["EXAMPLES", "add_parser", "run"]

EXAMPLES = """examples:
  unilayout check '(4,2):(2,1)'
  unilayout check '#tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1, chipIds = [0]>' --json"""


def add_parser(sub):
    """Register ``check`` on ``sub`` (argparse subparsers)."""
    q = sub.add_parser("check", help="validate, with the reasons", epilog=EXAMPLES,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_text(q)
    add_context(q, "the shape resolving a dynamic TSL, or the tensor of a memory config or a sharding, e.g. 8x8")
    q.add_argument("--json", action="store_true", help="print one JSON object")
    q.set_defaults(run=run)


def run(args) -> int:
    """Run ``unilayout check`` for parsed ``args``; 0 when valid, 2 when not (or the text does not parse)."""
    try:
        value = read_value(args)
    except LayoutError as e:
        if not args.json:
            raise
        d = envelope("check", ok=False)
        d.update({"valid": False, "error": error_dict(e)})
        print(json.dumps(d, indent=2))
        return 2
    checks = F.checks(value)
    valid = all(c["ok"] for c in checks)
    fam, canonical = family_of(value), checks[0]["detail"]
    if args.json:
        d = envelope("check", ok=valid)
        d.update({"valid": valid, "family": fam, "text": canonical, "checks": checks})
        print(json.dumps(d, indent=2, default=json_default))
        return 0 if valid else 2
    print(f"{'valid' if valid else 'INVALID'}: {fam} {canonical}")
    for c in checks:
        print(f"  [{'ok ' if c['ok'] else 'BAD'}] {c['check']}" + (f": {c['detail']}" if c["detail"] else ""))
    return 0 if valid else 2
