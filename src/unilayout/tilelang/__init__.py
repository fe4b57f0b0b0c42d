"""TileLang's layouts (``tilelang.layout``): index and thread maps written as expressions.

TileLang (``tilelang``, DeepSeek's kernels) writes a shared-memory layout as
``Layout((64, 64) -> (1, 8, 512), transform: (_i, _j) -> (0, _i // 8, ...))``
and a register layout as ``Fragment((16, 16) -> (32,), replicate: 1,
thread: 8, forward_thread: _i // 8 * 4 + _j // 4, forward_index: (_i % 8 * 4 +
_j % 4,))``; its layout inference prints them when it fails. This family reads
and prints both (``layout``), evaluates them exactly (``expr``: TVM's floor
division and modulo, bit calls, vectorised), derives output shapes and thread
extents as TileLang's analyzer does, and names TileLang's swizzled layouts
(``swizzle``). The bridge ``unilayout.convert.tilelang`` proves a layout a
CuTe or linear layout over its whole domain, or says which element breaks it.

>>> from unilayout import tilelang
>>> F = tilelang.parse("Fragment((8, 8) -> (2,), replicate: 1, thread: 32, forward_thread: _i * 4 + _j // 2, "
...                    "forward_index: (_j % 2,))")
>>> F.thread_extent, F.output_shape, str(F) == F.__str__()
(32, (2,), True)
"""

from .expr import evaluate as evaluate_expr
from .layout import MAX_POINTS, Fragment, Layout, parse, placeholders
from .swizzle import (
    make_full_bank_swizzled_layout,
    make_half_bank_swizzled_layout,
    make_linear_layout,
    make_quarter_bank_swizzled_layout,
    make_swizzled_layout,
)

__all__ = ["Layout", "Fragment", "parse", "placeholders", "evaluate_expr", "MAX_POINTS", "make_swizzled_layout",
           "make_full_bank_swizzled_layout", "make_half_bank_swizzled_layout", "make_quarter_bank_swizzled_layout",
           "make_linear_layout"]
