"""The lens: open a whole kernel dump and see every layout and every conversion, priced as the compiler lowers it.

Counting ``ttg.convert_layout`` ops by hand in a TTGIR dump tells you how
many there are, not what they cost. ``lens.read(text)`` reads the whole dump
— alias lines, ``module attributes {"ttg.num-warps" = ..}``, every function
and op, the type of every SSA value, locations — and returns a
:class:`Dump`: every layout by SSA value, and every op that moves data
between layouts with its source and destination layouts, the level it
reaches (register permutation, warp shuffle, shared-memory round trip), the
scratch bytes, bank-conflict wavefronts, vector widths and the PTX
instruction classes (``shfl.sync``, ``st.shared``/``ld.shared``,
``stmatrix``/``ldmatrix``) — Triton 3.9's own lowering of that dump, checked
against what Triton compiles (``bench/lens_facts.py``, ``tests/lens``).
tt-mlir dumps (TTIR/TTNN/D2M) list their ``#ttcore.metal_layout`` /
``#ttnn.ttnn_layout`` values and price each layout change with
``plan.reshard_cost``. ``unilayout lens FILE`` prints the table.

>>> from unilayout import lens
>>> d = lens.read('''#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 2], instrShape = [16, 8]}>
... #b = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 1], order = [0, 1]}>
... module attributes {"ttg.num-warps" = 2 : i32, ttg.target = "cuda:90"} {
...   tt.func @epilogue(%acc: tensor<128x64xf16, #mma>) {
...     %0 = ttg.convert_layout %acc : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #b> loc(#loc1)
...     tt.return
...   }
... }
... #loc1 = loc("matmul.py":41:12)''')
>>> m = d.moves[0]
>>> m.location, m.level, m.scratch_bytes, m.instructions
('matmul.py:41:12', 'shared-memory round trip', 8192, ('st.shared.v4.b32', 'ld.shared.v4.b32', 'bar.sync'))
"""

from __future__ import annotations

from .dump import KNOWN_DIALECTS, Dump, LayoutValue, read
from .triton import MOVING_OPS, Move

__all__ = ["read", "Dump", "LayoutValue", "Move", "MOVING_OPS", "KNOWN_DIALECTS"]
