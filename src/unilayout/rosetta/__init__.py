"""The atom Rosetta: one instruction's fragments as each system spells them, with a checked verdict.

Whether two systems describe the same fragment is the question users of every
kernel DSL ask most and get wrong on hardware. ``rosetta`` answers it
exhaustively: every spelling becomes a ``Fragment`` — (thread, value) ->
(row, col) of the operand tile — and ``compare`` says ``same``, the register
permutation under which they are the same, or the first (thread, value) where
they differ (``verdict``). ``fragments(instruction)`` gives one instruction's
spellings (``instructions``: CuTe atoms, Triton encodings, TileLang fragments,
Mosaic GPU layouts, TIRx's tile patterns, the ``tensor-layouts`` package where installed), ``table(instruction)`` the
verdicts against the instruction's reference system.

>>> from unilayout import rosetta
>>> [(r.system, r.operand, r.verdict) for r in rosetta.table("mma.sync.m16n8k16.f32.f16") if r.operand == "C"]
[('cute', 'C', 'reference'), ('tensor-layouts', 'C', 'same'), ('tilelang', 'C', 'same'), ('tirx', 'C', 'same'),
 ('triton', 'C', 'same')]
"""

from __future__ import annotations

from .fragment import Fragment, fragment, from_cute_tv, from_linear
from .instructions import INSTRUCTIONS, Row, fragments, instruction_names, matrix, table
from .verdict import Verdict, assert_same_fragment, compare

__all__ = ["Fragment", "fragment", "from_cute_tv", "from_linear", "Verdict", "compare", "assert_same_fragment",
           "INSTRUCTIONS", "Row", "fragments", "instruction_names", "table", "matrix"]
