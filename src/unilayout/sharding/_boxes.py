"""Boxes of a tensor's indices, the geometry under ``Sharding``: checking, canonical form, overlap, connected parts.

A box is a tuple of half-open ``(start, stop)`` pairs, one per dim. A
device's share of a tensor is a list of boxes; ``Sharding`` keeps each list
in one **canonical form** (``_canonical``): cuts only where membership
changes, cells merged greedily along the last dim first, so the same set of
indices always gives the same boxes. ``_connected`` groups devices whose
boxes share an element (replicas, partial-sum peers).

>>> _canonical([((0, 2), (0, 4)), ((2, 4), (0, 4)), ((0, 0), (0, 1))], 2)   # two halves, one empty box
(((0, 4), (0, 4)),)
>>> _overlap(((0, 2),), ((1, 3),)), _overlap(((0, 2),), ((2, 3),))
(True, False)
>>> _connected([0, 1, 2], [[((0, 2),)], [((1, 3),)], [((3, 4),)]])
[(0, 1), (2,)]
"""

from __future__ import annotations

import numpy as np

from .._ints import as_nonneg
from ..errors import LayoutError


def _as_box(box, shape, where):
    try:
        items = tuple(box)
    except TypeError:
        raise LayoutError(f"{where} must be a tuple of (start, stop) per dim, got {box!r}") from None
    if len(items) != len(shape):
        raise LayoutError(f"{where} {box!r} has {len(items)} dims but the shape {shape} has {len(shape)}")
    out = []
    for i, (iv, n) in enumerate(zip(items, shape)):
        try:
            a, b = iv
        except (TypeError, ValueError):
            raise LayoutError(f"{where} dim {i} must be a (start, stop) pair, got {iv!r}") from None
        a = as_nonneg(a, f"{where} dim {i} start")
        b = as_nonneg(b, f"{where} dim {i} stop")
        if not a <= b <= n:
            raise LayoutError(f"{where} dim {i} is ({a}, {b}): needs 0 <= start <= stop <= {n}")
        out.append((a, b))
    return tuple(out)


def _canonical(boxes, rank):
    """The canonical box list of the union of ``boxes`` (non-empty boxes, any overlap).

    Cuts are kept only where membership changes; the cells between cuts are
    merged greedily: along the last dim first, then each earlier dim.
    """
    boxes = [b for b in boxes if all(a < z for a, z in b)]
    if len(boxes) <= 1:
        return tuple(boxes)
    cuts = [sorted({v for b in boxes for v in b[i]}) for i in range(rank)]
    grid = np.zeros(tuple(len(c) - 1 for c in cuts), dtype=bool)
    for b in boxes:
        grid[tuple(slice(c.index(a), c.index(z)) for c, (a, z) in zip(cuts, b))] = True
    # drop cuts across which nothing changes
    for i in range(rank):
        keep = [0]
        sl = np.moveaxis(grid, i, 0)
        rows = [0]
        for k in range(1, sl.shape[0]):
            if not np.array_equal(sl[k], sl[rows[-1]]):
                rows.append(k)
                keep.append(k)
        cuts[i] = [cuts[i][k] for k in keep] + [cuts[i][-1]]
        grid = np.moveaxis(sl[rows], 0, i)
    free = grid.copy()
    out = []
    for cell in zip(*np.nonzero(free)):
        if not free[cell]:
            continue
        lo = list(cell)
        hi = [c + 1 for c in cell]
        for i in reversed(range(rank)):
            while hi[i] < grid.shape[i]:
                sl = tuple(slice(l, h) if j != i else slice(hi[i], hi[i] + 1) for j, (l, h) in enumerate(zip(lo, hi)))
                if free[sl].all():
                    hi[i] += 1
                else:
                    break
        free[tuple(slice(l, h) for l, h in zip(lo, hi))] = False
        out.append(tuple((cuts[i][l], cuts[i][h]) for i, (l, h) in enumerate(zip(lo, hi))))
    return tuple(out)


def _overlap(a, b):
    return all(x0 < y1 and y0 < x1 for (x0, x1), (y0, y1) in zip(a, b))


def _connected(devices, boxes):
    """The parts of ``devices`` (each with its list of boxes) connected by shared elements, as sorted tuples."""
    n = len(devices)
    if n <= 1:
        return [tuple(devices)] if n else []
    label = list(range(n))

    def find(k):
        while label[k] != k:
            label[k] = label[label[k]]
            k = label[k]
        return k

    def union(a, b):
        ra, rb = find(a), find(b)
        if ra != rb:
            label[ra] = rb

    if all(len(b) <= 1 for b in boxes):  # boxes as arrays; identical ones join at once, distinct ones pairwise
        r = next((len(b[0]) for b in boxes if b), 0)
        lo = np.array([[a for a, _ in b[0]] if b else [0] * r for b in boxes], dtype=np.int64).reshape(n, r)
        hi = np.array([[z for _, z in b[0]] if b else [0] * r for b in boxes], dtype=np.int64).reshape(n, r)
        held = (hi > lo).all(axis=1) if r else np.array([bool(b) for b in boxes])
        uniq, first, inv = np.unique(np.concatenate([lo, hi], axis=1), axis=0, return_index=True, return_inverse=True)
        inv = inv.reshape(-1)
        for k in range(n):
            if held[k]:
                union(k, int(first[inv[k]]))
        reps = [int(f) for f in first if held[int(f)]]
        if len(reps) > 1:
            ulo, uhi = lo[reps], hi[reps]
            ov = ((ulo[:, None] < uhi[None]) & (ulo[None] < uhi[:, None])).all(axis=-1)
            for a, b in zip(*np.nonzero(np.triu(ov, 1))):
                union(reps[a], reps[b])
    else:
        for a in range(n):
            for b in range(a + 1, n):
                if any(_overlap(x, y) for x in boxes[a] for y in boxes[b]):
                    union(a, b)
    parts = {}
    for k, d in enumerate(devices):
        parts.setdefault(find(k), []).append(d)
    return [tuple(sorted(p)) for p in parts.values()]
