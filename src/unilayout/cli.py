"""The ``unilayout`` command.

>>> main(["--version"])  # doctest: +ELLIPSIS
unilayout ...
0
"""

from __future__ import annotations

import argparse
import sys

from . import __version__


def main(argv=None) -> int:
    """Entry point of the ``unilayout`` console script; returns the exit status."""
    parser = argparse.ArgumentParser(prog="unilayout", description="Exact tensor layouts: CuTe, linear, affine, TSL, metal.")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    args = parser.parse_args(argv)
    if args.version:
        print(f"unilayout {__version__}")
        return 0
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
