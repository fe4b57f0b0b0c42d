"""Analyses that linear layouts make one-liners: vectorisation, conversion levels,
shared-memory bank conflicts, and a search for a conflict-free swizzle.

One module each: ``vectorise``, ``conversion``, ``banks``, ``swizzle``; this
package lists them all.

All of them start from a *conversion layout*: for a register (distributed)
layout R and a shared layout S over the same tensor,
``cvt = R.invert_and_compose(S)`` maps each (register, lane, warp, block)
to the shared ``offset`` that holds its element; for two distributed layouts,
``dst.invert_and_compose(src)`` maps each destination slot to the source slot.

>>> from unilayout.linear import encodings as E
>>> reg = E.blocked([32, 32], [1, 4], [8, 4], [1, 1], [1, 0])
>>> shared = E.swizzled_shared([32, 32], 1, 1, 1, [1, 0])
>>> largest_vectorisation(reg.invert_and_compose(shared), bitwidth=16).width
4
>>> conversion_level(reg, reg)
'none'
"""

from __future__ import annotations

from .banks import bank_conflicts, bank_conflicts_formula
from .contiguity import contiguity, fastest_dim
from .conversion import HARDWARE_LEVELS, conversion_level, conversion_levels, minimal_conversion
from .swizzle import SwizzleChoice, optimal_shared_layout, optimal_swizzle
from .vectorise import Vectorisation, largest_vectorisation, register_permutation_for_divide

__all__ = [
    "contiguity",
    "fastest_dim",
    "Vectorisation",
    "register_permutation_for_divide",
    "largest_vectorisation",
    "minimal_conversion",
    "conversion_levels",
    "conversion_level",
    "bank_conflicts",
    "bank_conflicts_formula",
    "SwizzleChoice",
    "optimal_swizzle",
    "optimal_shared_layout",
    "HARDWARE_LEVELS",
]
