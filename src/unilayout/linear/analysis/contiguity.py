"""Contiguity: how many consecutive elements along the layout's fastest dim one thread (or one
shared-memory run) holds in consecutive slots (Triton ``getContigPerThread`` / ``getNumConsecutiveInOut``).

Triton vectorises global loads and stores along the *fastest* dim of a tensor
layout, ``getOrder()[0]``, not along ``dim0``. For a linear encoding that order
is read off the register bases (``orderPerDim``): each dim in the order its
first basis moves it, then the dims no register basis moves, last dim first.

- Distributed layouts (first in-dim ``register``): Triton's
  ``getContigPerThread()[order[0]]``: the run of leading register bases equal
  to 1, 2, 4, ... along the fastest dim (0 on every other dim).
- Any other layout (shared ``offset``, tensor-memory ``row``): Triton's
  ``getNumConsecutiveInOut`` with the fastest dim (the dim the first in-dim's
  first non-zero basis moves) taken as the first out-dim, so a swizzle that
  XORs other bits into the low bits of that dim caps the run.

The row-major blocked layout of the README holds 8 consecutive elements of
dim1 per thread; its column-major mirror 8 of dim0:

>>> from unilayout.linear import encodings as E
>>> contiguity(E.blocked([32, 64], [1, 8], [4, 8], [4, 1], [1, 0]))
8
>>> contiguity(E.blocked([64, 32], [8, 1], [8, 4], [1, 4], [0, 1]))
8
>>> fastest_dim(E.blocked([32, 64], [1, 8], [4, 8], [4, 1], [1, 0]))
'dim1'
"""

from __future__ import annotations

from ..algebra import num_consecutive_in_out
from ..layout import LinearLayout
from ._common import _bases_of, _check

__all__ = ["contiguity", "fastest_dim"]


def fastest_dim(layout: LinearLayout) -> str | None:
    """The out-dim that the first in-dim's bases move first (Triton ``orderPerDim(..)[0]``, default
    the last out-dim); None for a layout without in- or out-dims.

    >>> from unilayout.linear import LinearLayout
    >>> fastest_dim(LinearLayout({"register": [[0, 0], [1, 0]]}, {"dim0": 2, "dim1": 1}))
    'dim0'
    >>> fastest_dim(LinearLayout({"register": []}, {"dim0": 1, "dim1": 1}))
    'dim1'
    """
    _check(layout, "fastest_dim")
    outs = layout.out_dim_names
    if not outs or not layout.in_dim_names:
        return None
    for vec in _bases_of(layout, layout.in_dim_names[0]):
        for name, v in zip(outs, vec):
            if v:
                return name
    return outs[-1]


def contiguity(layout: LinearLayout) -> int:
    """How many consecutive elements along :func:`fastest_dim` the first in-dim's first values hold
    (1 without dims); see the module docstring for the two cases.

    >>> from unilayout.linear import LinearLayout
    >>> contiguity(LinearLayout({"register": [[0, 1], [0, 2], [1, 0]]}, {"dim0": 2, "dim1": 4}))
    4
    >>> contiguity(LinearLayout({"offset": [[0, 1], [0, 2], [1, 2]]}, {"dim0": 2, "dim1": 4}))
    2
    """
    dim = fastest_dim(layout)
    if dim is None:
        return 1
    first = layout.in_dim_names[0]
    if first != "register":
        outs = [dim] + [d for d in layout.out_dim_names if d != dim]
        return num_consecutive_in_out(layout.transpose_outs(outs))
    j = layout.out_dim_names.index(dim)
    run = 1
    for vec in _bases_of(layout, first):
        if vec[j] != run or any(v for i, v in enumerate(vec) if i != j):
            break
        run *= 2
    return run
