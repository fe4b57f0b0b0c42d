"""Terminal tables of layouts: what ``unilayout show`` prints under the facts.

``tables(value)`` gives ``[(title, text)]`` for any unilayout value: its
family record's ``tables`` hook (``unilayout._families``), whose default is
the values over the family's box (``draw.table.grid_text``). What each family
prints:

==========  ==================================================================
family      tables
==========  ==================================================================
cute        ``cute.layout_table`` (CuTe's ``print_layout``); rank > 2: mode 0
            down, the other modes across in 1-D order
linear      Triton's bases; distributed layouts: Triton's hardware and tensor
            views; shared layouts (``offset``): Triton's shared views
tsl         addresses over the index box, last dim across
affine      values over the box ``shape`` (none without one)
metal       the grid of shards and the per-core table
device      the chip of each logical core
xla         buffer offsets over the shape
==========  ==================================================================

A table of more than ``max_cells`` cells is replaced by a line saying so.

>>> from unilayout import tsl
>>> title, text = tables(tsl.parse("#tsl.tsl<[2] -> (1), [3] -> (2)>"))[0]
>>> print(text)
   0 1 2
0  0 2 4
1  1 3 5
"""

from __future__ import annotations

from .._families import record
from ..draw.table import MAX_TABLE_CELLS, grid_text

__all__ = ["tables", "grid_text", "MAX_TABLE_CELLS"]


def tables(value, shape=None, max_cells=MAX_TABLE_CELLS) -> list:
    """``[(title, text)]``: the readable tables of ``value`` (``shape``: an affine map's box).

    >>> from unilayout import cute
    >>> print(tables(cute.Layout((2, 2), (2, 1)))[0][1])
    (2,2):(2,1)
          0   1 
        +---+---+
     0  | 0 | 1 |
        +---+---+
     1  | 2 | 3 |
        +---+---+
    """
    return record(value).tables(value, shape, max_cells)
