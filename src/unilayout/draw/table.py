"""Terminal tables of integer values over a row-major box: what ``unilayout show`` prints under the facts.

``grid_text(values, shape)`` folds a box to rows x its last dim and writes it
with row and column numbers; a value of several components (``(N, k)``) is
written ``a,b``. Families build their ``tables`` hook from it; no family is
named here.

>>> print(grid_text([0, 2, 4, 1, 3, 5], (2, 3)))
   0 1 2
0  0 2 4
1  1 3 5
"""

from __future__ import annotations

import numpy as np

__all__ = ["grid_text", "MAX_TABLE_CELLS", "too_big"]

#: Cells at most in a printed table (``unilayout show --max-cells`` raises it).
MAX_TABLE_CELLS = 4096


def grid_text(values, shape) -> str:
    """``values`` in row-major order as a table: rows x the last dim of ``shape``, with row and column numbers.

    A value with several components (an ``(N, k)`` array) is written ``a,b``.

    >>> print(grid_text([0, 4, 1, 5], (2, 2)))
       0 1
    0  0 4
    1  1 5
    >>> print(grid_text([[0, 1], [1, 0]], (2,)))
         0   1
    0  0,1 1,0
    """
    v = np.asarray(values)
    shape = tuple(shape) or (1,)
    cols = shape[-1]
    if v.ndim == 2 and v.shape[1] > 1:
        cells = [",".join(str(x) for x in row) for row in v.tolist()]
    else:
        cells = [str(x) for x in v.reshape(-1).tolist()]
    w = max([len(c) for c in cells] + [len(str(cols - 1))])
    rows = [cells[i : i + cols] for i in range(0, len(cells), cols)]
    hw = len(str(len(rows) - 1))
    head = " " * (hw + 2) + " ".join(f"{j:>{w}}" for j in range(cols))
    return "\n".join([head] + [f"{i:>{hw}}  " + " ".join(f"{c:>{w}}" for c in r) for i, r in enumerate(rows)])


def too_big(title, count, max_cells, what="cells"):
    """The ``(title, text)`` row that stands for a table of ``count`` cells over ``max_cells``.

    >>> too_big("table", 5000, 4096)
    ('table', '(not shown: 5,000 cells > 4,096; use --max-cells or render)')
    """
    return (title, f"(not shown: {count:,} {what} > {max_cells:,}; use --max-cells or render)")
