"""Moved to ``unilayout.cli.plan`` (the ``unilayout plan`` verb lives with the command); kept as an alias.

>>> from unilayout.plan.command import main_for_tests
>>> main_for_tests(["convert", "(8,8):(8,1)", "(8,8):(8,1)", "--bits", "16"])  # doctest: +ELLIPSIS
vector: ...
0
"""

from ..cli.plan import EXAMPLES as _EXAMPLES  # noqa: F401
from ..cli.plan import add_parser, main_for_tests, run

__all__ = ["add_parser", "run", "main_for_tests"]
