"""Triton linear layouts over GF(2): ``from unilayout import linear``.

- :class:`LinearLayout` (``layout.py``): the value, its constructors
  (``empty, identity_1d, zeros_1d, strided_1d, from_bases,
  identity_standard_nd``) and queries; the module docstring teaches the model.
- ``algebra.py``: ``*``, compose, invert_and_compose, (pseudo)invert,
  ``divide_left/right``, quotient, sublayout, reshapes, masks.
- ``text.py``: ``parse`` / ``to_attr`` for ``#ttg.linear<{...}>``.
- ``evaluate.py``: vectorised ``evaluate`` and ``index_map``.
- ``encodings.py``: Triton's layouts (blocked, slice, MMA, MFMA, WMMA, shared).
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

from .layout import (
    LinearLayout,
    empty,
    from_bases,
    identity_1d,
    identity_standard_nd,
    strided_1d,
    zeros_1d,
)
from .algebra import (
    compose,
    concat_ins,
    concat_outs,
    divide_left,
    divide_right,
    flatten_ins,
    flatten_outs,
    free_variable_masks,
    invert,
    invert_and_compose,
    is_trivial_over,
    num_consecutive_in_out,
    product,
    pseudoinvert,
    quotient,
    remove_zero_bases_along_dim,
    rename_in_dim,
    reshape_ins,
    reshape_outs,
    resize_in_dim,
    resize_out_dim,
    sublayout,
    sublayout_is_zero,
    supremum,
    transpose_ins,
    transpose_outs,
)
from .evaluate import evaluate, index_map
from .text import parse, to_attr
from . import analysis, encodings, gf2

__all__ = [
    "LinearLayout",
    "empty",
    "identity_1d",
    "zeros_1d",
    "strided_1d",
    "from_bases",
    "identity_standard_nd",
    "product",
    "compose",
    "invert_and_compose",
    "invert",
    "pseudoinvert",
    "divide_left",
    "divide_right",
    "is_trivial_over",
    "quotient",
    "sublayout",
    "sublayout_is_zero",
    "transpose_ins",
    "transpose_outs",
    "reshape_ins",
    "reshape_outs",
    "flatten_ins",
    "flatten_outs",
    "concat_ins",
    "concat_outs",
    "resize_in_dim",
    "resize_out_dim",
    "rename_in_dim",
    "remove_zero_bases_along_dim",
    "free_variable_masks",
    "num_consecutive_in_out",
    "supremum",
    "evaluate",
    "index_map",
    "parse",
    "to_attr",
    "encodings",
    "analysis",
    "gf2",
]
