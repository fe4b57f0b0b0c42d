"""Moved to ``unilayout.convert.cute_triton``; kept as an alias (a deprecated module path).

Comparing CuTe's MMA fragments with Triton's ``nvidia_mma`` / ``dot_op``
encodings needs both families, so it lives on the bridge floor. Old imports
keep working:

>>> from unilayout.cute.vs_triton import compare_fragment
>>> compare_fragment("SM80_16x8x16_F32F16F16F32_TN", "C")
'same'
"""

# deprecated alias: re-exports convert.cute_triton (an import upward, from the cute family to the bridge floor)
from ..convert.cute_triton import FRAGMENT_ROWS, compare_fragment, fragment_table, triton_fragment

__all__ = ["compare_fragment", "triton_fragment", "fragment_table", "FRAGMENT_ROWS"]
