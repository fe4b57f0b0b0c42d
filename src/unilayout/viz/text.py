"""Terminal tables of layouts: what ``unilayout show`` prints under the facts.

``tables(value)`` gives ``[(title, text)]`` for any unilayout value, picked
by its family (``unilayout._families``):

==========  ==================================================================
family      tables
==========  ==================================================================
cute        ``cute.layout_table`` (CuTe's ``print_layout``); rank > 2: mode 0
            down, the other modes across in 1-D order
linear      Triton's bases; distributed layouts: Triton's hardware and tensor
            views; shared layouts (``offset``): Triton's shared views
tsl         addresses over the index box, last dim across
affine      values over the box ``shape`` (none without one)
metal       the grid of shards and the per-core table (``viz.tt``)
device      the chip of each logical core
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

import numpy as np

from .._families import family_of
from ..errors import LayoutError

__all__ = ["tables", "grid_text", "MAX_TABLE_CELLS"]

#: Cells at most in a printed table (``unilayout show --max-cells`` raises it).
MAX_TABLE_CELLS = 4096


def grid_text(values, shape) -> str:
    """``values`` in row-major order as a table: rows x the last dim of ``shape``, with row and column numbers.

    A value with several components (an ``(N, k)`` array) is written ``a,b``.

    >>> print(grid_text([0, 4, 1, 5], (2, 2)))
       0 1
    0  0 4
    1  1 5
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
    return _TABLES[family_of(value)](value, shape, max_cells)


def _cute(L, shape, max_cells):
    from .. import cute
    from .cute import swizzle_layout

    if isinstance(L, cute.Swizzle):
        L = swizzle_layout(L)
    if L.size > max_cells:
        return [("table", f"(not shown: {L.size:,} cells > {max_cells:,}; use --max-cells or render)")]
    if L.rank <= 2:
        return [("", cute.layout_table(L))]
    rows = cute.size(L[0])
    vals = cute.index_map(L).reshape(-1, rows).T
    return [(f"rank {L.rank}: rows = mode 0, columns = modes 1.. (1-D order)", grid_text(vals.reshape(-1), vals.shape))]


def _linear(L, shape, max_cells):
    from .linear import hardware_view, shared_hardware_view, shared_tensor_view, tensor_view

    out = [("bases (Triton)", str(L).strip("\n"))]
    hw = {"register", "lane", "warp", "block"}
    n = int(L.total_in_dim_size)
    if set(L.in_dim_names) <= hw and "lane" in L.in_dim_names:
        if n > max_cells:
            out.append(("views", f"(not shown: {n:,} inputs > {max_cells:,}; use --max-cells or render)"))
        else:
            out.append(("hardware view (Triton get_distributed_view(True))", hardware_view(L).rstrip("\n")))
            out.append(("tensor view (Triton get_distributed_view(False))", tensor_view(L).rstrip("\n")))
    elif "offset" in L.in_dim_names and set(L.in_dim_names) <= {"offset", "block"}:
        if int(L.total_out_dim_size) > max_cells:
            out.append(("views", f"(not shown: {int(L.total_out_dim_size):,} elements > {max_cells:,})"))
        else:
            try:
                out.append(("hardware view (Triton get_shared_view(True))", shared_hardware_view(L).rstrip("\n")))
                out.append(("tensor view (Triton get_shared_view(False))", shared_tensor_view(L).rstrip("\n")))
            except LayoutError as e:
                out.append(("views", f"(not shown: {e})"))
    return out


def _tsl(t, shape, max_cells):
    if t.is_dynamic or t.size > max_cells:
        return [("addresses", f"(not shown: {'dynamic' if t.is_dynamic else f'{t.size:,} points'})")]
    return [("addresses (row-major box; rows x last dim)", grid_text(t.index_map(), t.shape))]


def _affine(m, shape, max_cells):
    if shape is None or m.num_symbols or int(np.prod(shape)) > max_cells:
        return []
    return [("values (row-major box; rows x last dim)", grid_text(m.index_map(tuple(shape)), tuple(shape)))]


def _metal(ml, shape, max_cells):
    from .tt import shard_grid, shard_table

    return [("grid of shards (each core: data extent +padding per dim)", shard_grid(ml)), ("per core", shard_table(ml))]


def _device(dev, shape, max_cells):
    chips = dev.physical_cores()[..., 0]
    lines = [f"chip {cid}: {int((chips == cid).sum())} cores" for cid in np.unique(chips).tolist()]
    if chips.size <= max_cells:
        rows = chips.reshape(-1, tuple(dev.grid_shape)[-1])
        lines += ["", grid_text(rows.reshape(-1), rows.shape)]
    return [("chip of each logical core", "\n".join(lines))]


def _xla(x, shape, max_cells):
    size = int(np.prod(x.dims, dtype=np.int64))
    if size > max_cells:
        return [("buffer offsets", f"(not shown: {size:,} cells > {max_cells:,})")]
    return [("buffer offsets (row-major; rows x last dim)", grid_text(x.offsets().reshape(-1), x.dims))]


_TABLES = {"cute": _cute, "linear": _linear, "tsl": _tsl, "affine": _affine, "metal": _metal, "device": _device,
           "xla": _xla}
