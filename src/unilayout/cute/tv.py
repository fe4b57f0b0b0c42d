"""Thread-value (TV) layouts: which thread and value of a CTA own which element of a tile.

A TV layout maps ``(thread, value)`` to the position ``m + M*n`` of an element
in an ``M x N`` tile. ``make_layout_tv(thr, val)`` builds it the way CuTe's
``make_tiled_copy`` does: ``thr`` lays threads out over the tile, ``val``
lays each thread's values out over its block, and the pair is raked together.

>>> from unilayout.cute import Layout
>>> tiler, tv = make_layout_tv(Layout((4, 32), (32, 1)), Layout((4, 1), (1, 1)))
>>> tiler, str(tv)
((16, 32), '((32,4),4):((16,4),1)')
>>> tv_owner(tv, tiler, (5, 3))
(35, 1)
"""

from __future__ import annotations

import numpy as np

from .._ints import check_table
from ..errors import LayoutError
from .algebra import composition, raked_product, right_inverse
from .evaluate import index_map
from .inttuple import crd2idx, normalize, product, product_each
from .layout import Layout, make_layout

__all__ = ["make_layout_tv", "tv_owner", "tv_table"]


def make_layout_tv(thr_layout: Layout, val_layout: Layout):
    """``(tiler, tv)``: the tile shape and the ``(thread, value) -> m + M*n`` layout.

    ``mn = raked_product(thr, val)``; ``tv = right_inverse(mn) o (size(thr), size(val))``;
    ``tiler = product_each(shape(mn))``.

    **Post-condition:** for every thread t and value v, ``tv(t, v)`` is the
    position of an element of the tile, and every position is owned once when
    ``thr`` and ``val`` are compact.

    >>> make_layout_tv(Layout((2, 2)), Layout((1, 2)))
    ((2, 4), Layout(((2, 2), 2), ((1, 4), 2)))
    """
    if not isinstance(thr_layout, Layout) or not isinstance(val_layout, Layout):
        raise LayoutError("make_layout_tv: expected a thread Layout and a value Layout")
    mn = raked_product(thr_layout, val_layout)
    tv = composition(right_inverse(mn), make_layout((thr_layout.size, val_layout.size)))
    return product_each(mn.shape), tv


def tv_table(tv: Layout, tiler):
    """Per element of the ``tiler``-shaped tile: ``(thread, value)`` arrays of its first owner.

    "First" is in thread-major order (thread outer, value inner), as CuTe's
    ``print_latex_tv`` labels cells; elements that no thread owns get -1.

    >>> thr, val = tv_table(Layout((2, 2), (2, 1)), (2, 2))
    >>> thr.tolist(), val.tolist()
    ([[0, 1], [0, 1]], [[0, 0], [1, 1]])
    """
    tiler = normalize(tiler, "tiler")
    shape = product_each(tiler) if isinstance(tiler, tuple) else (tiler,)
    n_elem = product(shape)
    if tv.rank != 2:
        raise LayoutError(f"tv_table: expected a rank-2 (thread, value) layout, got {tv}")
    nt, nv = tv[0].size, tv[1].size
    pos = index_map(tv).reshape(nv, nt).T.reshape(-1)  # thread-major
    if pos.size and (pos.min() < 0 or pos.max() >= n_elem):
        raise LayoutError(f"tv_table: layout {tv} reaches positions outside the {shape} tile")
    check_table(2 * n_elem, f"tv_table: a tile of {n_elem} elements")  # before allocating
    thr = np.full(n_elem, -1, dtype=np.int64)
    val = np.full(n_elem, -1, dtype=np.int64)
    t = np.repeat(np.arange(nt, dtype=np.int64), nv)
    v = np.tile(np.arange(nv, dtype=np.int64), nt)
    # Assign in reverse so that the first owner is written last and wins.
    thr[pos[::-1]] = t[::-1]
    val[pos[::-1]] = v[::-1]
    return thr.reshape(shape, order="F"), val.reshape(shape, order="F")


def tv_owner(tv: Layout, tiler, coord):
    """``(thread, value)`` that owns element ``coord = (m, n)`` of the tile (the first owner).

    >>> tv_owner(Layout((4, 2), (1, 4)), (2, 4), (1, 3))
    (3, 1)
    """
    tiler = normalize(tiler, "tiler")
    shape = product_each(tiler) if isinstance(tiler, tuple) else tiler
    coord = normalize(coord, "coordinate")
    ranks_ok = isinstance(coord, tuple) == isinstance(shape, tuple) and (
        not isinstance(coord, tuple) or len(coord) == len(shape)
    )
    if not ranks_ok or any(c < 0 or c >= s for c, s in zip(np.atleast_1d(coord), np.atleast_1d(shape))):
        raise LayoutError(f"tv_owner: coordinate {coord} is outside the tile {shape}")
    thr, val = tv_table(tv, tiler)
    pos = crd2idx(coord, shape)
    t, v = int(thr.reshape(-1, order="F")[pos]), int(val.reshape(-1, order="F")[pos])
    if t < 0:
        raise LayoutError(f"tv_owner: no thread owns element {coord}")
    return t, v
