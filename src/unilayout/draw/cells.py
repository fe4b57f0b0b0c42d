"""The cell kit (ground floor): how many cells a per-cell view draws, which block it crops to, and its strings.

A family's ``cells`` hook (``_family.Family.cells``) describes its value cell
by cell for the browser explorer: one row of details per drawn cell (an
index, a coordinate, the value there ...), groups of cells that belong
together, keys that tie a cell to another view. The hook gives data; this
module holds what several families need to give it, and names no family:

- the limits of a per-cell picture: ``MAX_CELLS`` drawn in full, the
  ``CROP_CELLS`` block drawn above that (``block``, ``box_block``), at most
  ``MAX_DOMAIN`` cells of domain, ``LABELLED_CELLS`` with labels,
  ``MAX_CANVAS_CELLS`` on a canvas;
- vectorised strings of integer columns: ``strs`` (one number per cell),
  ``fmts`` (a tuple per cell, ``(1, 2)``), ``crd_strs`` (a nested coordinate
  per cell, ``(1,(0,2))``), ``take`` (strings made once per distinct key);
- ``same(values)``: one group number per cell, equal for equal values.

A worked example, the cells of a 2x3 box whose value is ``2 * (row-major position)``:

>>> import numpy as np
>>> idx, note = box_block((2, 3), "the box 2x3")
>>> crd = np.unravel_index(idx, (2, 3))
>>> strs(idx), fmts(crd, idx.size)[:2], strs(2 * idx)[-1], note
(['0', '1', '2', '3', '4', '5'], ['(0, 0)', '(0, 1)'], '10', '')
>>> same([7, 3, 7]).tolist()
[1, 0, 1]
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import LayoutError
from .grid import crop

__all__ = ["MAX_CELLS", "LABELLED_CELLS", "CROP_CELLS", "MAX_DOMAIN", "MAX_CANVAS_CELLS", "fmt", "strs", "fmts",
           "crd_strs", "take", "ints", "rows", "same", "check_count", "block", "box_block"]

#: Most cells one per-cell picture draws in full. Larger CuTe layouts, TSLs and affine boxes are drawn cropped
#: (``CROP_CELLS``); larger linear, metal and device layouts get a LayoutError (before anything is evaluated).
#: Measured in headless Chromium (tests/explorer): 65,536 cells show in about 4 s (answer about 26 MB),
#: 131,072 in about 9 s, so 2**16 keeps every picture within a few seconds.
MAX_CELLS = 1 << 16
#: Pictures with more cells than this are drawn without labels (the details still give every index).
LABELLED_CELLS = 1 << 14
#: About how many cells the cropped picture of a layout with more than ``MAX_CELLS`` cells draws (its top-left block).
CROP_CELLS = 1 << 14
#: Most cells a layout that is drawn cropped may have (domain positions stay exact int64); more is a LayoutError.
MAX_DOMAIN = 1 << 48
#: Most cells a canvas picture draws; bigger layouts are cropped or summarised, as ``unilayout.viz`` does with
#: ``max_cells``.
MAX_CANVAS_CELLS = 1 << 21


def fmt(t) -> str:
    """A tuple of integers as ``(a, b)``.

    >>> fmt([1, 2]), fmt(np.array([3]))
    ('(1, 2)', '(3)')
    """
    return "(" + ", ".join(str(int(v)) for v in t) + ")"


def strs(a) -> list:
    """``str`` of each integer of ``a`` (a 1-D array or sequence), as a list.

    >>> strs(np.array([3, -1]))
    ['3', '-1']
    """
    return list(map(str, np.asarray(a, dtype=np.int64).reshape(-1).tolist()))


def fmts(columns, n: int) -> list:
    """``fmt`` of every row of the integer ``columns`` (one array of ``n`` values per tuple entry), vectorised.

    >>> fmts([np.array([0, 1]), np.array([5, 6])], 2), fmts([np.array([3])], 1), fmts([], 2)
    (['(0, 5)', '(1, 6)'], ['(3)'], ['()', '()'])
    """
    if not len(columns):
        return ["()"] * n
    ints_ = [np.asarray(c, dtype=np.int64).reshape(-1).tolist() for c in columns]
    if len(ints_) == 1:
        return ["(%d)" % v for v in ints_[0]]
    template = "(" + ", ".join(["%d"] * len(ints_)) + ")"  # one C-level format per row
    return [template % t for t in zip(*ints_)]


def _crd_template(shape):
    """``(template, leaf sizes)``: the %-template that prints a coordinate of ``shape`` as ``str(crd)`` without
    spaces (``(1,(0,2))``, ``(3,)``, ``5``), and the sizes of its leaves, first to last."""
    if not isinstance(shape, tuple):
        return "%d", [int(shape)]
    parts, leaves = [], []
    for mode in shape:
        t, sizes = _crd_template(mode)
        parts.append(t)
        leaves += sizes
    return "(" + ",".join(parts) + ("," if len(parts) == 1 else "") + ")", leaves


def crd_strs(idx, shape) -> list:
    """The colexicographic coordinate of each index ``0 <= i < size(shape)`` of ``idx`` in the nested ``shape``,
    printed like Python's tuple without spaces, vectorised (each leaf is ``(i // product of the leaves before it) %
    its size``; the last leaf is not reduced).

    >>> crd_strs(np.arange(6), ((2, 3),))[:4], crd_strs(np.arange(3), (3, (1, 2)))
    (['((0,0),)', '((1,0),)', '((0,1),)', '((1,1),)'], ['(0,(0,0))', '(1,(0,0))', '(2,(0,0))'])
    >>> crd_strs(np.arange(2), ()), crd_strs(np.arange(2), 2)
    (['()', '()'], ['0', '1'])
    """
    template, sizes = _crd_template(shape)
    idx = np.asarray(idx, dtype=np.int64).reshape(-1)
    if not sizes:
        return [template] * idx.size
    leaves, prefix = [], 1
    for k, size in enumerate(sizes):
        leaf = idx // prefix
        leaves.append((leaf if k == len(sizes) - 1 else leaf % max(size, 1)).tolist())
        prefix *= max(size, 1)
    if len(leaves) == 1:
        return [template % v for v in leaves[0]]
    return [template % t for t in zip(*leaves)]


def take(names, keys) -> list:
    """``names[k]`` for each integer ``k`` of ``keys``: per-cell strings from strings formatted once per distinct value.

    >>> take(["a", "b"], np.array([1, 1, 0]))
    ['b', 'b', 'a']
    """
    return [names[k] for k in np.asarray(keys, dtype=np.int64).reshape(-1).tolist()]


def ints(values) -> list:
    """The integers of ``values`` (an array or sequence) as a list of Python ints (``int`` of each), vectorised.

    >>> ints(np.array([3, 1])), ints([2.0, True])
    ([3, 1], [2, 1])
    """
    a = np.asarray(values)
    if a.dtype.kind in "iub":
        return a.astype(np.int64, copy=False).reshape(-1).tolist()
    return [int(v) for v in values]


def rows(*columns) -> list:
    """Details rows (lists of str) from columns of str, one list per column.

    >>> rows(["0", "1"], ["a", "b"])
    [['0', 'a'], ['1', 'b']]
    """
    return list(map(list, zip(*columns)))


def same(values):
    """One group number per cell (int64), equal where the values are equal (rows of a 2-D ``values`` compared whole).

    >>> same(np.array([[0, 1], [2, 3], [0, 1]])).tolist()
    [0, 1, 0]
    """
    a = np.asarray(values)
    if not a.size:
        return np.zeros(len(a), np.int64)
    _, inverse = np.unique(a, axis=0 if a.ndim > 1 else None, return_inverse=True)
    return np.asarray(inverse, dtype=np.int64).reshape(-1)


def check_count(n: int, what: str) -> None:
    """Refuse a picture of more than ``MAX_CELLS`` cells that cannot be cropped (a ``LayoutError`` naming ``what``).

    >>> check_count(MAX_CELLS + 1, "linear layout")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: linear layout has 65537 cells; the explorer draws at most 65536: choose a smaller shape or grid
    """
    if n > MAX_CELLS:
        raise LayoutError(
            f"{what} has {n} cells; the explorer draws at most {MAX_CELLS}: choose a smaller shape or grid"
        )


def block(nrows: int, ncols: int, what: str = "the layout"):
    """``(r, c, note)``: the top-left block of a ``nrows x ncols`` grid that a per-cell picture draws.

    The whole grid up to ``MAX_CELLS`` cells (note ``""``), else the block
    ``draw.crop`` gives with ``max_cells=CROP_CELLS`` and its note.

    >>> block(4, 8)
    (4, 8, '')
    >>> block(1024, 1024)[:2]
    (128, 128)
    >>> block(1 << 30, 1 << 30, "CuTe layout X")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: CuTe layout X has 1152921504606846976 cells; the explorer draws at most 281474976710656 (cropped to its top-left corner above 65536): choose a smaller shape
    """
    if nrows * ncols <= MAX_CELLS:
        return nrows, ncols, ""
    if nrows * ncols > MAX_DOMAIN:
        raise LayoutError(f"{what} has {nrows * ncols} cells; the explorer draws at most {MAX_DOMAIN} (cropped to "
                          f"its top-left corner above {MAX_CELLS}): choose a smaller shape")
    r, c, note = crop(nrows, ncols, CROP_CELLS)
    return r, c, "cropped: " + note


def box_block(shape, what: str):
    """``(idx, note)``: row-major positions of the drawn cells of the box ``shape`` (rows x last dim) and the crop note.

    >>> box_block((2, 3), "b")[0].tolist(), box_block((), "a point")[0].tolist()
    ([0, 1, 2, 3, 4, 5], [0])
    """
    box = tuple(shape) or (1,)
    ncols = box[-1]
    nrows = math.prod(box[:-1]) if len(box) > 1 else 1
    r, c, note = block(nrows, ncols, what)
    idx = (np.arange(r, dtype=np.int64)[:, None] * ncols + np.arange(c, dtype=np.int64)[None, :]).reshape(-1)
    return idx, note
