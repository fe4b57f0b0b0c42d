"""CuTe's ``print_layout``: a rank-2 layout as a text table (rank 1 as one row).

>>> from unilayout.cute import Layout
>>> print(layout_table(Layout((2, (2, 2)), (4, (2, 1)))))
(2,(2,2)):(4,(2,1))
      0   1   2   3
    +---+---+---+---+
 0  | 0 | 2 | 1 | 3 |
    +---+---+---+---+
 1  | 4 | 6 | 5 | 7 |
    +---+---+---+---+

A CuTe IR memref (or the DSL's ``tensor<ptr<..>> o L>``) prints as its
function of element offsets; a layout with dynamic leaves needs their values
first (``cute.bind``).

Rows are mode 0, columns mode 1, cell (m, n) holds ``L(m, n)``; the format is
C++ CuTe's byte for byte (each header line ends with one space). A layout with
basis strides holds coordinates, each cell as CuTe prints it (``(1,2)``), the
cells as wide as the widest:

>>> print(layout_table(Layout((2, 2), (E(0), E(1)))))
(2,2):(1@0,1@1)
          0       1
    +-------+-------+
 0  | (0,0) | (0,1) |
    +-------+-------+
 1  | (1,0) | (1,1) |
    +-------+-------+
"""

from __future__ import annotations

from ..errors import LayoutError
from .basis import (
    E,  # noqa: F401  (used by the examples)
    has_basis,
)
from .coords import coordinate_columns, coordinate_labels
from .evaluate import index_map
from .inttuple import product
from .ir_values import MemRef
from .layout import Layout  # noqa: F401  (used by the examples)

__all__ = ["layout_table", "print_layout"]


def layout_table(layout) -> str:
    """The text ``print_layout`` prints, without the final newline.

    >>> print(layout_table(Layout(3, 2)))
    3:2
          0   1   2
        +---+---+---+
     0  | 0 | 2 | 4 |
        +---+---+---+
    """
    if isinstance(layout, MemRef):  # a CuTe IR memref (the DSL's tensor): its function of element offsets
        layout = layout.function()
    if not hasattr(layout, "rank") or not hasattr(layout, "shape"):
        raise LayoutError(f"print_layout: expected a CuTe layout, got {type(layout).__name__} {layout!r:.60}")
    if layout.rank > 2:
        raise LayoutError(f"print_layout: layout {layout} has rank {layout.rank}; it prints rank 1 or 2")
    if layout.rank == 2:
        rows, cols = product(layout.shape[0]), product(layout.shape[1])
    else:
        rows, cols = 1, layout.size
    if has_basis(getattr(layout, "stride", 0)):  # coordinates: each cell as CuTe prints it, (1,2)
        values = coordinate_labels(*coordinate_columns(layout)).reshape(cols, rows).T
        w = max((len(t) for t in values.reshape(-1)), default=1) + 2
    else:
        values = index_map(layout).reshape(cols, rows).T
        low = int(values.min()) if values.size else 0  # a negative stride's offsets are wider than cosize
        w = max(len(str(layout.cosize)), len(str(low))) + 2
    rule = "    " + ("+" + "-" * w) * cols + "+"
    lines = [str(layout), "    " + "".join(f"  {n:>{w - 2}} " for n in range(cols))]
    for m in range(rows):
        lines.append(rule)
        lines.append(f"{m:>2}  " + "".join(f"| {v!s:>{w - 2}} " for v in values[m]) + "|")
    lines.append(rule)
    return "\n".join(lines)


def print_layout(layout) -> None:
    """Print ``layout_table(layout)`` (C++ ``print_layout``).

    >>> print_layout(Layout((1, 2), (0, 1)))
    (1,2):(0,1)
          0   1
        +---+---+
     0  | 0 | 1 |
        +---+---+
    """
    print(layout_table(layout))
