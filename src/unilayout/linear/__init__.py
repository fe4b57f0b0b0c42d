"""Triton linear layouts over GF(2): ``from unilayout import linear``.

- :class:`LinearLayout` (``layout.py``): the value, its constructors
  (``empty, identity_1d, zeros_1d, strided_1d, from_bases,
  identity_standard_nd``) and queries; the module docstring teaches the model.
  ``_bases.py`` holds the constructor's checks.
- ``algebra/``: ``*``, compose, invert_and_compose, (pseudo)invert,
  ``divide_left/right``, quotient, sublayout, reshapes, masks.
- ``text/``: Triton's texts, read: ``parse`` / ``to_attr`` for ``#ttg.linear<{...}>``
  and ``toString``, the encoding attributes, TTGIR alias lines and tensor types.
- ``evaluate.py``: vectorised ``evaluate`` and ``index_map``.
- ``encodings/``: Triton's layouts (blocked, slice, MMA, MFMA, WMMA, their dot
  operands, swizzled/NVMMA/padded/linear shared, Blackwell tensor memory), printed
  as Triton prints them (``str(enc)``; ``encodings.parse``, ``parse_module``), and
  the layout of a tensor type (``encodings.types.layout``, ``tensor<..., #enc>``).
- ``ttgir.py``: the old name of those readers (an alias).
- ``analysis.py``: vectorisation, conversion levels, bank conflicts, swizzling.
- ``gf2.py``: the GF(2) engine (rank, RREF, solve).

>>> from unilayout import linear
>>> L = linear.identity_1d(4, "i", "o") * linear.zeros_1d(2, "i", "o")
>>> print(L)
<BLANKLINE>
 - i=1 -> (1)
   i=2 -> (2)
   i=4 -> (0)
where out dims are: [o (size 4)]
>>> linear.index_map(L)[:, 0].tolist()
[0, 1, 2, 3, 0, 1, 2, 3]
"""

from __future__ import annotations

from . import algebra, analysis, encodings, gf2
from .algebra import *  # noqa: F401,F403  (the algebra's public functions, listed in algebra.__all__)
from .evaluate import evaluate, index_map
from .layout import (
    LinearLayout,
    empty,
    from_bases,
    identity_1d,
    identity_standard_nd,
    strided_1d,
    zeros_1d,
)
from .text import parse, to_attr

__all__ = [
    "LinearLayout",
    "empty",
    "identity_1d",
    "zeros_1d",
    "strided_1d",
    "from_bases",
    "identity_standard_nd",
    *algebra.__all__,
    "evaluate",
    "index_map",
    "parse",
    "to_attr",
    "encodings",
    "analysis",
    "gf2",
]
