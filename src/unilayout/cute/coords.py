"""A basis-stride layout as a table of coordinates: the numbers behind its picture, table and index map.

A layout with ``ScaledBasis`` strides (``(4,5):(1@0,1@1)``, ``8:2@0``, the
DSL's ``(128,32):(1@2,1@3)``) maps its 1-D coordinate to a *coordinate tuple*.
``coordinate_columns(L)`` gives, for every 1-D coordinate, the value along
each basis mode its strides name, one int64 column per mode: only the modes
that occur, so a stride ``1@100000000`` costs one column, not a hundred
million positions. ``coordinate_labels`` writes each row as CuTe prints the
coordinate, ``(1,2)`` (positions a stride never names are 0, as in
``L(i)``), or, when the modes are far apart, as the sum ``1@100000000+2@1``.

>>> from unilayout import cute
>>> paths, vals = coordinate_columns(cute.parse("(2,3):(1@1,2@0)"))
>>> paths, vals.tolist()
(((0,), (1,)), [[0, 0], [0, 1], [2, 0], [2, 1], [4, 0], [4, 1]])
>>> coordinate_labels(paths, vals).tolist()
['(0,0)', '(0,1)', '(2,0)', '(2,1)', '(4,0)', '(4,1)']
>>> coordinate_labels(*coordinate_columns(cute.parse("(2,2):(1@100000000,1@1)"))).tolist()
['0', '1@100000000', '1@1', '1@1+1@100000000']

Integer strides add nothing to a coordinate when their mode has size 1 or
stride 0; any other integer stride next to basis strides is refused, as CuTe
cannot add an integer to a coordinate.
"""

from __future__ import annotations

import numpy as np

from .._ints import check_table
from ..errors import LayoutError
from .basis import ScaledBasis

__all__ = ["coordinate_columns", "coordinate_labels", "DENSE_POSITIONS"]

#: Coordinates are written as full tuples when their positions number at most this many.
DENSE_POSITIONS = 16


def _text(path) -> str:
    return str(path[0]) if len(path) == 1 else "(" + ",".join(map(str, path)) + ")"


def coordinate_columns(layout, idx=None):
    """``(paths, values)``: the basis modes (sorted paths) and, per 1-D coordinate in ``idx`` (default all of
    them), its value along each, int64 ``(len(idx), len(paths))``.

    >>> from unilayout import cute
    >>> coordinate_columns(cute.parse("8:2@0"), [0, 3])[1].tolist()
    [[0], [6]]
    """
    shapes, strides, _ = layout.flat()
    paths = sorted({st.path for st in strides if type(st) is ScaledBasis})
    where = {p: k for k, p in enumerate(paths)}
    reach = [0] * len(paths)
    for s, st in zip(shapes, strides):
        if type(st) is ScaledBasis:
            reach[where[st.path]] += (s - 1) * abs(st.value)
        elif st != 0 and s > 1:
            raise LayoutError(f"layout {layout} mixes the integer stride {st} with basis strides: CuTe cannot add an "
                              "integer to a coordinate")
    if any(r >= 1 << 62 for r in reach):
        raise LayoutError(f"layout {layout}: its coordinates pass 2**62")
    if idx is None:
        idx = np.arange(check_table(int(layout.size), "the coordinates of a basis layout"), dtype=np.int64)
    idx = np.asarray(idx, dtype=np.int64).reshape(-1)
    values = np.zeros((idx.size, len(paths)), dtype=np.int64)
    inner = 1
    for s, st in zip(shapes, strides):
        if type(st) is ScaledBasis and s > 1:
            values[:, where[st.path]] += (idx // inner % s) * st.value
        inner *= s
    return tuple(paths), values


def _dense(paths, cols, n):
    """The nested tuple text of each row (positions no path names are 0), built column by column."""
    def build(prefix):
        here = [p for p in paths if p[:len(prefix)] == prefix]
        if prefix in cols:
            return cols[prefix]
        width = max(p[len(prefix)] for p in here) + 1
        parts = [build(prefix + (i,)) if any(p[len(prefix)] == i for p in here) else np.full(n, "0", dtype=object)
                 for i in range(width)]
        out = np.full(n, "(", dtype=object)
        for i, part in enumerate(parts):
            out = out + (part if i == 0 else "," + part)
        return out + ")"

    return build(())


def coordinate_labels(paths, values):
    """Each row of ``coordinate_columns`` as text: ``(1,2)``, ``((0,1),3)`` (nested modes), or ``1@9000+2@1``."""
    n = values.shape[0]
    if not paths:
        return np.full(n, "0", dtype=object)
    strs = {p: values[:, k].astype(str).astype(object) for k, p in enumerate(paths)}
    prefix_free = not any(p != q and q[:len(p)] == p for p in paths for q in paths)
    if prefix_free and all(max(p) < DENSE_POSITIONS for p in paths):
        return _dense(paths, strs, n)
    out = np.full(n, "", dtype=object)
    for k, p in enumerate(paths):
        nz = values[:, k] != 0
        term = strs[p] + ("@" + _text(p))
        out = np.where(nz, np.where(out == "", term, out + "+" + term), out)
    return np.where(out == "", "0", out)
