"""Moved to ``unilayout.convert.cute_triton``; kept as an alias (a deprecated module path).

The shared-memory swizzle atoms are checked against Triton's ``nvmma_shared``
(a linear-layout encoding), so they live on the bridge floor with the other
CuTe <-> Triton checks. Old imports keep working:

>>> from unilayout.cute.smem import smem_atom
>>> str(smem_atom("K_SW128", 16))
'Sw<3,3,3> o 0 o (8,64):(64,1)'
"""

# deprecated alias: re-exports convert.cute_triton (an import upward, from the cute family to the bridge floor)
from ..convert.cute_triton import (
    SMEM_KINDS,
    check_equivalents,
    smem_atom,
    smem_atom_bits,
    smem_equivalents,
    smem_table,
)

__all__ = ["SMEM_KINDS", "smem_atom", "smem_atom_bits", "smem_equivalents", "check_equivalents", "smem_table"]
