"""The algebra of linear layouts: pure functions with Triton 3.9.0 semantics.

One module per kind of operation: ``product`` (``*``, ``supremum``, concat),
``compose`` (compose, invert_and_compose, (pseudo)inverses), ``divide``
(divisions, sublayout, quotient) and ``reshape`` (transpose, reshape, flatten,
resize, rename; free-variable masks, consecutive runs); this package lists
them all.

Each function takes and returns immutable :class:`LinearLayout` values; the
methods of ``LinearLayout`` (``a * b``, ``a.compose(b)``, ...) delegate here.

Where Triton 3.9.0 aborts the process (an ``assert`` or a fatal error), these
functions raise ``LayoutError`` with the reason, or return ``None`` for the
operations whose result is optional (``divide_left``, ``divide_right``,
``quotient``). Where Triton has no defined answer or a cap:

- ``a * b`` with in- or out-dims common to both in conflicting orders
  (``[x, y]`` and ``[y, x]``) raises (the release build returns an
  arbitrary order).
- ``invert_and_compose`` has no 64-column solver cap.

>>> from unilayout.linear import identity_1d, zeros_1d, divide_left
>>> a = identity_1d(8, "i", "o") * zeros_1d(16, "i", "o")
>>> divide_left(a, identity_1d(8, "i", "o")) == zeros_1d(16, "i", "o")
True
"""

from __future__ import annotations

from .compose import compose, invert, invert_and_compose, pseudoinvert
from .divide import divide_left, divide_right, is_trivial_over, quotient, sublayout, sublayout_is_zero
from .product import concat_ins, concat_outs, product, supremum
from .reshape import (
    flatten_ins,
    flatten_outs,
    free_variable_masks,
    num_consecutive_in_out,
    remove_zero_bases_along_dim,
    rename_in_dim,
    reshape_ins,
    reshape_outs,
    resize_in_dim,
    resize_out_dim,
    transpose_ins,
    transpose_outs,
)

__all__ = [
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
]
