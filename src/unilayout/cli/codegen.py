"""``unilayout codegen TEXT --to LANG``: the layout as index code you can paste (``unilayout.codegen``).

    unilayout codegen TEXT --to c|cuda|cute-cpp|triton|mlir-affine|numpy|python [--name NAME] [--inverse]
                      [--shape 8x8]

>>> from unilayout.cli import main
>>> main(["codegen", "(4,8):(8,1)", "--to", "python", "--name", "tile"])
def tile(i0, i1):
    \"\"\"(4,8):(8,1): coordinate -> offset\"\"\"
    return (i0 << 3) + i1
0
"""

from __future__ import annotations

import argparse

from ..codegen import LANGS, emit, emit_inverse
from ._common import add_context, add_text, box_shape, read_value

__all__ = ["EXAMPLES", "add_parser", "run"]

EXAMPLES = """examples:
  unilayout codegen 'Sw<3,3,3> o 0 o (8,64):(64,1)' --to c --name sw128
  unilayout codegen 'tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>' --to triton
  unilayout codegen '(d0, d1) -> (d0 * 32 + d1 floordiv 4)' --to mlir-affine --shape 4x128
  unilayout codegen '(4,8):(8,1)' --to cuda --inverse"""


def add_parser(sub):
    """Register ``codegen`` on ``sub`` (argparse subparsers)."""
    q = sub.add_parser("codegen", help="the layout as C, CUDA, CuTe C++, Triton, MLIR, numpy or Python code",
                       epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_text(q)
    q.add_argument("--to", required=True, choices=LANGS, metavar="LANG", help="one of " + ", ".join(LANGS))
    q.add_argument("--name", default=None, help="the function's name (default: layout, or layout_inverse)")
    q.add_argument("--inverse", action="store_true", help="the inverse (an invertible linear or CuTe layout)")
    add_context(q, "the box of an affine map, e.g. 8x8 (or a dynamic TSL's '?' values)")
    q.set_defaults(run=run)


def run(args) -> int:
    """Print the code of ``args.text`` in ``args.to``."""
    value = read_value(args)
    if args.inverse:
        print(emit_inverse(value, args.to, name=args.name or "layout_inverse"))
    else:
        print(emit(value, args.to, name=args.name or "layout", shape=box_shape(value, args)))
    return 0
