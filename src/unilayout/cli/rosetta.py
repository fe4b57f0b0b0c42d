"""``unilayout rosetta INSTRUCTION``: one instruction's fragments as each system spells them, with verdicts.

    unilayout rosetta INSTRUCTION [--json]
    unilayout rosetta --all [--json | --markdown]
    unilayout rosetta --list

>>> from unilayout.cli import main
>>> main(["rosetta", "mma.sync.m16n8k8.f32.tf32"])  # doctest: +ELLIPSIS
mma.sync.m16n8k8.f32.tf32 (reference: cute)
operand  system          verdict    spelling
A        cute            reference  SM80_16x8x8_F32TF32TF32F32_TN LayoutA_TV = ...
...
0
"""

from __future__ import annotations

import argparse
import json

from ..errors import LayoutError
from ._common import envelope

__all__ = ["EXAMPLES", "add_parser", "run", "markdown"]

EXAMPLES = """examples:
  unilayout rosetta mma.sync.m16n8k16.f32.f16
  unilayout rosetta wgmma.m64n128k16.f32.f16 --json
  unilayout rosetta --all
  unilayout rosetta --list"""


def add_parser(sub):
    """Register ``rosetta`` on ``sub`` (argparse subparsers)."""
    q = sub.add_parser("rosetta", help="an instruction's fragments in every system, checked against each other",
                       epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    q.add_argument("instruction", nargs="?", metavar="INSTRUCTION", help="e.g. mma.sync.m16n8k16.f32.f16")
    q.add_argument("--all", action="store_true", help="the whole verdict matrix")
    q.add_argument("--list", action="store_true", help="the instruction names")
    q.add_argument("--json", action="store_true", help="print one JSON object")
    q.add_argument("--markdown", action="store_true", help="with --all: the matrix as docs/rosetta.md shows it")
    q.set_defaults(run=run)


def _short(text, width=70):
    return text if len(text) <= width else text[: width - 3] + "..."


def _print_table(name, rows, reference):
    print(f"{name} (reference: {reference})")
    print(f"{'operand':8} {'system':15} {'verdict':10} spelling")
    for r in rows:
        print(f"{r.operand:8} {r.system:15} {r.verdict:10} {_short(r.spelling)}")
        if r.detail:
            print(f"{'':35}{r.detail}")


def markdown(rows) -> str:
    """The verdict matrix as a Markdown table: one line per instruction and operand, one column per system.

    >>> from unilayout import rosetta
    >>> print(markdown(rosetta.table("mma.sync.m16n8k8.f32.tf32")).splitlines()[2])
    | mma.sync.m16n8k8.f32.tf32 | A | reference | same | same | same |
    """
    systems = ["cute", "triton", "tensor-layouts"]
    systems += sorted({r.system for r in rows} - set(systems))
    cells: dict = {}
    for r in rows:
        cell = r.verdict if r.verdict != "permuted" else f"permuted {r.detail}"
        cells.setdefault((r.instruction, r.operand), {})[r.system] = cell
    lines = ["| instruction | operand | " + " | ".join(systems) + " |", "|---|---|" + "---|" * len(systems)]
    for (ins, op), by in cells.items():
        lines.append(f"| {ins} | {op} | " + " | ".join(by.get(s, "-") for s in systems) + " |")
    return "\n".join(lines)


def run(args) -> int:
    """Print the table of ``args.instruction`` (or the whole matrix, or the names)."""
    from .. import rosetta  # lazy: the instruction table loads only for this verb

    if args.list:
        print("\n".join(rosetta.instruction_names()))
        return 0
    if args.all == bool(args.instruction):
        raise LayoutError("rosetta: give an INSTRUCTION or --all (--list shows the names)")
    names = rosetta.instruction_names() if args.all else [args.instruction]
    rows = [r for n in names for r in rosetta.table(n)]
    if args.json:
        d = envelope("rosetta")
        d["rows"] = [r._asdict() for r in rows]
        print(json.dumps(d, indent=2))
    elif args.markdown:
        print(markdown(rows))
    else:
        for n in names:
            _print_table(n, [r for r in rows if r.instruction == n], rosetta.INSTRUCTIONS[n].reference)
    return 0
