"""Index code you can paste: every layout as a C, CUDA, CuTe C++, Triton, MLIR, numpy or Python function.

After understanding a layout, a kernel author writes its index arithmetic by
hand — the shifts, masks and XORs of a swizzle, the div/mod of a tiled or
padded layout — and that is where off-by-one bugs live. ``codegen`` writes
that code from the exact value, the way an expert would, and the tests prove
it: they compile the C, run the Python, numpy and Triton (interpreter) code,
and compile the CuTe C++ against the CUTLASS headers, over the whole domain
of random layouts of every family, against ``unilayout.index_map``.

How (a service over the families, ``docs/codegen.md``):

1. ``lower.kernel(x)`` turns the value into a ``Kernel``: named inputs with
   their extents, named outputs, one expression each (``ir``), folded with the
   inputs' ranges (``(i // 8) % 4`` of an ``i < 32`` is ``i // 8``);
2. ``ir.reduce_strength`` writes powers of two as shifts and masks;
3. ``printers.print_kernel`` spells it per language (shared sub-expressions
   become locals; floor-division helpers only where an operand may be
   negative); ``cute_cpp`` prints a CuTe value as its C++ type.

A Triton blocked layout, (register, lane, warp) -> (dim0, dim1):

>>> import unilayout
>>> blocked = unilayout.parse("tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], "
...                           "warpsPerCTA = [4, 1], order = [1, 0]}>>")
>>> print(emit(blocked, "c", name="blocked"))  # doctest: +NORMALIZE_WHITESPACE
#include <stdint.h>
/* register, lane, warp -> dim0, dim1 */
static inline void blocked(int64_t register_, int64_t lane, int64_t warp, int64_t *dim0, int64_t *dim1) {
    *dim0 = ((register_ >> 3) << 4) | (lane >> 3) | (warp << 2);
    *dim1 = (register_ & 7) | ((lane & 7) << 3);
}

A swizzled CuTe layout, and its CuTe C++:

>>> sw = unilayout.parse("Sw<3,3,3> o 0 o (8,64):(64,1)")
>>> print(emit(sw, "python", name="sw128"))
def sw128(i0, i1):
    \"\"\"Sw<3,3,3> o 0 o (8,64):(64,1): coordinate -> offset\"\"\"
    t0 = (i0 << 6) + i1
    return t0 ^ ((t0 & 448) >> 3)
>>> emit(sw, "cute-cpp", name="sw128").splitlines()[-1]
'CUTE_HOST_DEVICE constexpr auto sw128() { return make_composed_layout(Swizzle<3,3,3>{}, Int<0>{}, Layout<Shape<Int<8>,Int<64>>,Stride<Int<64>,Int<1>>>{}); }'

Errors: a language that cannot write the layout (an XOR of overlapping bits
into ``mlir-affine``, ``cute-cpp`` of a non-CuTe value) is
``NotRepresentableError`` with the reason; an unknown language is a
``LayoutError``.
"""

from __future__ import annotations

from .api import emit, emit_inverse
from .cute_cpp import cute_cpp
from .lower import Kernel, inverse_kernel, kernel
from .printers import LANGS, print_kernel

__all__ = ["emit", "emit_inverse", "LANGS", "Kernel", "kernel", "inverse_kernel", "print_kernel", "cute_cpp"]
