"""Pictures of a function over a row-major box, cropped to a budget of cells: the default picture of a family.

``crop(rows, cols, max_cells)`` chooses the top-left rectangle a picture of
``rows x cols`` cells shows; ``box_scene(title, values, shape)`` draws any
table (or function of coordinates) over a box as a ``Scene``, coloured by its
first value. A family whose value is "a box of integers" needs nothing more
for its picture (``Family.picture``'s default).

>>> s = box_scene("doubling", np.arange(6) * 2, (2, 3))
>>> s.labels.tolist(), s.index.tolist()
([['0', '2', '4'], ['6', '8', '10']], [[0, 1, 2], [3, 4, 5]])
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import LayoutError
from .colors import gradient
from .scene import CHAR_W, DEFAULT_MAX_CELLS, band_width, grid_scene, label_bands, wrap_bands

__all__ = ["crop", "box_scene"]


def crop(rows, cols, max_cells):
    """``(r, c, note)``: the top-left ``r x c`` of a ``rows x cols`` picture within ``max_cells`` (note None if whole).

    >>> crop(4, 8, 64)
    (4, 8, None)
    >>> crop(100, 100, 100)[:2]
    (10, 10)
    """
    if max_cells < 1:
        raise LayoutError(f"max_cells must be >= 1, got {max_cells}")
    if rows * cols <= max_cells:
        return rows, cols, None
    r = min(rows, max(1, int(np.sqrt(max_cells))))
    c = min(cols, max(1, max_cells // r))
    return r, c, (f"showing rows 0..{r - 1} and columns 0..{c - 1} of {rows}x{cols} ({rows * cols:,} cells; "
                  f"max_cells={max_cells:,})")


def box_scene(title, values, shape, *, max_cells=DEFAULT_MAX_CELLS, row_group=0, col_group=0, labels=True):
    """Cells of a row-major box: ``values`` ``(N,)`` or ``(N, k)`` over ``shape``, or a function.

    ``values`` may be a callable taking the int64 coordinate arrays of the
    cells shown (one per dim) and returning ``(n,)`` or ``(n, k)`` values, so
    a cropped picture of a huge box evaluates only what it draws.
    ``labels=False`` leaves the cells unlabelled (huge pictures).

    >>> box_scene("b", np.arange(6), (2, 3)).index.tolist()
    [[0, 1, 2], [3, 4, 5]]
    """
    shape = tuple(int(s) for s in shape) or (1,)
    if math.prod(shape) >= 1 << 63:  # positions would overflow int64 (numpy's index arithmetic)
        raise LayoutError(f"box {'x'.join(map(str, shape))} has {math.prod(shape):,} points: its positions do not fit "
                          "int64; draw a smaller box")
    cols = shape[-1]
    rows = math.prod(shape[:-1]) if len(shape) > 1 else 1
    r, c, note = crop(rows, cols, int(max_cells))
    index = np.arange(r, dtype=np.int64)[:, None] * cols + np.arange(c, dtype=np.int64)[None, :]
    if callable(values):
        coords = np.unravel_index(index.reshape(-1), shape)
        flat = np.asarray(values(*[np.asarray(x, dtype=np.int64) for x in coords]), dtype=np.int64)
        flat = flat.reshape(r, c, -1)
    else:
        flat = np.asarray(values, dtype=np.int64).reshape(rows, cols, -1)[:r, :c]
    text = None
    if labels:
        text = flat[..., 0].astype(str)
        for k in range(1, flat.shape[2]):
            text = np.char.add(np.char.add(text, ","), flat[..., k].astype(str))
        text = text.astype(object)
    key = flat[..., 0]
    width = c
    if r == 1:  # a 1-D box: fold its one long row into rows numbered by their first index
        chars = int(np.char.str_len(text.astype(str)).max()) if labels and text.size else 1
        width = band_width(1, c, max(26.0, CHAR_W * chars + 8.0), 22.0)
    if width < c:
        folds = c // width
        scene = grid_scene(title, folds, width, labels=None if text is None else wrap_bands(text, width),
                           row_names=[0] * folds)
        label_bands(scene, 1, width, "")
        index, key = wrap_bands(index, width), wrap_bands(key, width)
    else:
        scene = grid_scene(title, r, c, labels=text, row_group=row_group, col_group=col_group)
    scene.index = index
    scene.fill = gradient(key) if key.size else scene.fill
    scene.attrs["value"] = key
    scene.notes = ["rows: " + ("x".join(str(s) for s in shape[:-1]) or "1") + f" (row-major), columns: {cols}; "
                   "colour: " + ("value" if flat.shape[2] == 1 else "first result")]
    if width < c:
        scene.notes.append(f"one row folded into rows of {width}: each row is numbered by its first index")
    if note:
        scene.notes.append(note)
    return scene
