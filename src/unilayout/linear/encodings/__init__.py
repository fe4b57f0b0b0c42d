"""Triton's layout encodings as linear layouts, for a given tensor shape.

Each encoding is a small frozen value (``Blocked``, ``NvidiaMma``,
``DotOperand``, ``AmdMfma``, ``AmdWmma``, ``Slice``, ``SwizzledShared``)
with Triton's parameter names in snake_case and a ``to_linear(shape)``
method; the functions ``blocked(shape, ...)``, ``nvidia_mma(shape, ...)``,
``dot_operand``, ``amd_mfma``, ``amd_wmma``, ``slice_layout`` (alias
``slice``) and ``swizzled_shared`` build one and convert it in a single call. The results agree with
Triton 3.9.0's own conversion (``toLinearLayout``, reached from Python
through Gluon); the tests check that on many parameter combinations.

Distributed encodings map ``register, lane, warp, block`` to
``dim0 .. dim{r-1}``; shared ones map ``offset, block``. Out sizes equal the
shape. Every encoding first builds the layout of one CTA (its "tile" plus
warps), then *fits it to the shape* (Triton's ``combineCtaCgaWithShape``):

1. grow each out-dim that is too small by repeating the tile along the first
   in-dim (``register`` or ``offset``), out-dims in the CTA layout's order;
2. shrink each out-dim that is too large by zeroing its largest basis entry
   (one per halving), so surplus lanes/warps broadcast;
3. multiply by the CGA layout (``block`` bases in units of the CTA tile;
   default: one CTA) and list out-dims as ``dim0, dim1, ...``.

The seed's MFMA example:

>>> L = amd_mfma([32, 64], version=3, instr_shape=[16, 16, 16], is_transposed=False, warps_per_cta=[2, 2])
>>> print(L)
<BLANKLINE>
 - register=1 -> (1, 0)
   register=2 -> (2, 0)
   register=4 -> (0, 32)
 - lane=1 -> (0, 1)
   lane=2 -> (0, 2)
   lane=4 -> (0, 4)
   lane=8 -> (0, 8)
   lane=16 -> (4, 0)
   lane=32 -> (8, 0)
 - warp=1 -> (0, 16)
   warp=2 -> (16, 0)
 - block is a size 1 dimension
where out dims are: [dim0 (size 32), dim1 (size 64)]

The shared encodings ``NvmmaShared`` (with Triton's default swizzle rule,
``NvmmaShared.default_for``), AMD's ``AmdRotatingShared`` (``amd_rotating_shared``) and
``SharedLinear``, Blackwell's
``TensorMemory`` (with ``reg_layout``, the 32x32b tmem load/store register
layout) and ``TensorMemoryScales``, and ``LinearEncoding`` (``#ttg.linear``)
complete Triton 3.9.0's set. ``PaddedShared`` is not linear over GF(2)
(``to_linear`` raises ``NotRepresentableError``): its padded addresses are
affine (``to_affine``, ``address_map``) and ``analysis.bank_conflicts``
counts them. ``parse(text)`` / ``str(enc)`` read and print Triton's
attributes (:mod:`unilayout.linear.text`); encodings are frozen, hashable
values, and computed layouts are kept per (encoding, shape).

One module per family of encodings: ``blocked`` (``Blocked``, ``Slice``,
``LinearEncoding``), ``nvidia`` (``NvidiaMma``, ``DotOperand``), ``amd``
(``AmdMfma``, ``AmdWmma`` and their operands), ``shared`` (``SwizzledShared``,
``AmdRotatingShared``, ``NvmmaShared``, ``SharedLinear``), ``padded`` (``PaddedShared``), ``tmem``
(``TensorMemory``, ``TensorMemoryScales``); ``_base`` holds the base class
(frozen fields, the layout cache, ``str()`` from each class's ``MNEMONIC`` and
``FIELDS``), ``_fit`` the fitting of a CTA layout to a shape, ``types`` the
layout of a ``tensor<...>`` / ``!ttg.memdesc<...>`` type.
"""

from __future__ import annotations

from ..text import module as _text
from . import types  # noqa: F401  (encodings.types.layout: a tensor type's layout)
from ._base import DISTRIBUTED_IN_DIMS, Field, _Encoding  # noqa: F401  (the base of every encoding and its field record)
from ._base import clear_caches as _clear_layouts
from ._fit import fit_to_shape
from .amd import AmdMfma, AmdWmma, amd_mfma, amd_wmma
from .blocked import Blocked, LinearEncoding, Slice, blocked, slice, slice_layout
from .nvidia import DotOperand, NvidiaMma, dot_operand, nvidia_mma
from .padded import PaddedShared
from .shared import (
    AmdRotatingShared,
    NvmmaShared,
    SharedLinear,
    SwizzledShared,
    amd_rotating_shared,
    nvmma_shared,
    swizzled_shared,
)
from .tmem import TensorMemory, TensorMemoryScales

__all__ = [
    "Blocked",
    "NvidiaMma",
    "DotOperand",
    "AmdMfma",
    "AmdWmma",
    "Slice",
    "SwizzledShared",
    "AmdRotatingShared",
    "PaddedShared",
    "NvmmaShared",
    "SharedLinear",
    "nvmma_shared",
    "TensorMemory",
    "TensorMemoryScales",
    "LinearEncoding",
    "parse",
    "parse_module",
    "blocked",
    "nvidia_mma",
    "dot_operand",
    "amd_mfma",
    "amd_wmma",
    "slice_layout",
    "slice",
    "swizzled_shared",
    "amd_rotating_shared",
    "fit_to_shape",
    "DISTRIBUTED_IN_DIMS",
]


def clear_caches() -> None:
    """Forget the layouts and parsed texts kept for reuse (for timing cold calls).

    >>> clear_caches()
    """
    _clear_layouts()
    _text.clear_caches()


def parse(text: str, aliases: dict | None = None):
    """Triton's printed encoding attribute -> its encoding value (see :mod:`unilayout.linear.text`).

    >>> enc = parse("#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 4, order = [1, 0]}>")
    >>> enc, str(enc) == "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 4, order = [1, 0]}>"
    (SwizzledShared(vec=1, per_phase=1, max_phase=4, order=(1, 0), cga_layout=()), True)
    """
    return _text.parse(text, aliases)


def parse_module(text: str) -> dict:
    """The ``#name = ...`` encoding lines of a TTGIR dump -> ``{name: encoding}``.

    >>> parse_module("#s = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>")
    {'s': NvmmaShared(swizzle_byte_width=64, element_bitwidth=16, transposed=False, fp4_padded=False, cga_layout=(), rank=None)}
    """
    return _text.parse_module(text)
