"""Pictures of a ``sharding.Sharding``: which device holds which block of the tensor.

``sharding_scene(s)`` cuts the tensor at every box boundary of every
device, so each cell is one *block* that a fixed set of devices holds. The
last dim runs along the columns; the other dims are folded into the rows
(row-major), their ranges written as row headers. A cell is coloured by
the lowest device holding it and labelled with all its holders (``0-3``
for a run, ``x64``: that many devices, when more than six runs); ``p:`` marks partial sums (``p:0,2|1,3``:
devices 0 and 2 sum, 1 and 3 sum, the two sums are copies); a
block nobody holds is pale. ``data-device`` is the lowest holder (-1:
none), ``data-holders`` how many devices hold the block.

Any vocabulary draws the same way once it is a ``Sharding``:

>>> from unilayout import sharding
>>> s = sharding.parse_hlo("{devices=[2,1,2]<=[4] last_tile_dim_replicate}", (8, 6))
>>> sc = sharding_scene(s)
>>> sc.shape, sc.labels[1, 0], sc.attrs["holders"].tolist()
((2, 1), '2-3', [[2], [2]])

What a cell is in the explorer (``sharding_cells``, the record's ``cells``
hook): a block of the tensor, its details the block's ranges, its holders and
whether they hold partial sums; grouped by lowest holder and by number of
holders. Its facts are the sharding's (the record adds its text in every
other vocabulary, as ``unilayout sharding`` prints them).

>>> c = sharding_cells(s)
>>> c.columns["block"], c.columns["devices"], dict(c.facts)["covers the tensor"]
(['[0:4, 0:6]', '[4:8, 0:6]'], ['0, 1', '2, 3'], 'yes')
"""

from __future__ import annotations

import numpy as np

from .._family import Cells
from ..draw.cells import MAX_CELLS
from ..draw.colors import EMPTY, categorical
from ..draw.scene import DEFAULT_MAX_CELLS, grid_scene
from ..errors import LayoutError
from .value import Sharding

__all__ = ["sharding_scene", "holders_text", "block_holders", "sharding_cells", "MAX_PAIRS"]


def holders_text(devices, partial=False) -> str:
    """Device ids as runs: ``[0, 1, 2, 5]`` -> ``'0-2,5'`` (``'xN'`` past six runs; ``p:`` for partial sums).

    >>> holders_text([0, 1, 2, 5]), holders_text(range(0, 64, 2)), holders_text([3], partial=True)
    ('0-2,5', 'x32', 'p:3')
    """
    ds = sorted(int(d) for d in devices)
    runs = []
    for d in ds:
        if runs and d == runs[-1][1] + 1:
            runs[-1][1] = d
        else:
            runs.append([d, d])
    text = ",".join(f"{a}" if a == b else f"{a}-{b}" for a, b in runs) if len(runs) <= 6 else f"x{len(ds)}"
    return ("p:" if partial else "") + text


#: Most (device, block) pairs ``block_holders`` lists (each device's boxes cut at every boundary).
MAX_PAIRS = 1 << 22


def block_holders(s, max_cells=DEFAULT_MAX_CELLS):
    """``(cuts, holders)``: per dim the sorted box boundaries, and for each block between them its holders.

    ``holders`` is an object array of shape ``(len(cuts[i]) - 1, ...)`` whose
    entries are sorted lists of device ids. Raises ``LayoutError`` when the
    blocks are more than ``max_cells``, or the (device, block) pairs more than
    ``MAX_PAIRS``, before listing them.

    >>> from unilayout.sharding import parse_hlo
    >>> cuts, h = block_holders(parse_hlo("{devices=[2,1,2]<=[4] last_tile_dim_replicate}", (8, 6)))
    >>> cuts, h.tolist()
    ([[0, 4, 8], [0, 6]], [[[0, 1]], [[2, 3]]])
    """
    s._global("a picture of blocks (one global array's blocks, coloured by their holders)")
    shape = s.shape
    r = len(shape)
    boxes = s.device_boxes
    cuts = [sorted({0, n} | {v for bs in boxes.values() for b in bs for v in b[i]}) for i, n in enumerate(shape)]
    nblocks = tuple(len(c) - 1 for c in cuts)
    total = int(np.prod(nblocks)) if r else 1
    if total > max_cells:
        raise LayoutError(f"sharding_scene: {total} blocks are more than max_cells={max_cells}")
    at = [{v: k for k, v in enumerate(c)} for c in cuts]
    spans = [(d, tuple(slice(at[i][a], at[i][z]) for i, (a, z) in enumerate(b))) for d in s.devices for b in boxes[d]]
    pairs = sum(int(np.prod([sl.stop - sl.start for sl in sls])) if r else 1 for _, sls in spans)
    if pairs > MAX_PAIRS:
        raise LayoutError(f"sharding_scene: the devices hold {pairs} (device, block) pairs, more than {MAX_PAIRS}")
    holders = np.empty(nblocks if r else (), dtype=object)
    for k in np.ndindex(*nblocks):
        holders[k] = []
    for d, sls in spans:
        sub = holders[sls] if r else holders
        for k in np.ndindex(*(sub.shape if r else ())):
            (sub[k] if r else sub.item()).append(d)
    return cuts, holders


def sharding_scene(s, title=None, max_cells=DEFAULT_MAX_CELLS):
    """The ``viz.Scene`` of ``s``: one cell per block, coloured and labelled by the devices holding it.

    Raises ``LayoutError`` when the blocks are more than ``max_cells``.

    >>> from unilayout.sharding import Sharding
    >>> sc = sharding_scene(Sharding((4, 4), {0: [((0, 2), (0, 4))], 1: [((2, 4), (0, 2))]}))
    >>> sc.labels.tolist(), sc.attrs["device"].tolist()
    ([['0', '0'], ['1', '']], [[0, 0], [1, -1]])
    """
    if not isinstance(s, Sharding):
        raise LayoutError(f"sharding_scene: expected a unilayout.sharding.Sharding, got {type(s).__name__}")
    shape = s.shape
    r = len(shape)
    cuts, holders = block_holders(s, max_cells)
    nblocks = holders.shape
    partial = s.partial
    rows = int(np.prod(nblocks[:-1])) if r > 1 else 1
    cols = nblocks[-1] if r else 1
    flat = holders.reshape(rows, cols) if r else np.array([[holders.item()]], dtype=object)
    labels = np.full((rows, cols), "", dtype=object)
    device = np.full((rows, cols), -1, dtype=np.int64)
    count = np.zeros((rows, cols), dtype=np.int64)
    group_of = {d: k for k, g in enumerate(s.sum_groups) for d in g}
    for i in range(rows):
        for j in range(cols):
            hs = flat[i, j]
            if hs:
                labels[i, j] = holders_text(hs, any(partial[d] for d in hs))
                parts = sorted({group_of[d] for d in hs if d in group_of})
                if len(parts) > 1:  # the holders sum in several groups (copies of each other): 'p:0,2|1,3'
                    labels[i, j] = "p:" + "|".join(holders_text([d for d in hs if group_of.get(d) == g])
                                                   for g in parts)
                device[i, j] = min(hs)
                count[i, j] = len(hs)

    def rng(c, k):
        return f"{c[k]}:{c[k + 1]}"

    row_names = [",".join(rng(cuts[i], k) for i, k in enumerate(idx)) for idx in np.ndindex(*nblocks[:-1])] \
        if r > 1 else [""]
    col_names = [rng(cuts[-1], k) for k in range(cols)] if r else [""]
    name = "x".join(map(str, shape)) or "scalar"
    title = title or f"which device holds which block: {name} over {s.num_devices} devices"
    row_axis = f"dims 0-{r - 2}" if r > 2 else "dim 0" if r == 2 else ""
    widest = max([len(n) for n in row_names] + [len(row_axis)])
    sc = grid_scene(title, rows, cols, labels=labels, row_names=row_names, col_names=col_names,
                    axes=(row_axis, f"dim {r - 1}" if r else ""), origin=(7.0 * widest, 0.0))
    sc.fill[:] = EMPTY
    has = device >= 0
    sc.fill[has] = categorical(device[has])
    sc.index = np.where(has, np.arange(rows * cols).reshape(rows, cols), -1)
    sc.attrs["device"] = device
    sc.attrs["holders"] = count
    sc.kind = "sharding"
    sc.notes.append("cell = a block of the tensor between box boundaries; label = the devices holding it "
                    "(a-b: a run of ids, p: partial sums, | between groups that sum separately); "
                    "colour = the lowest holder")
    return sc


def sharding_cells(s) -> Cells:
    """The explorer's cells of a sharding: every block (row-major), who holds it; the sharding's facts.

    Always every block (the blocks are few); more than ``MAX_CELLS`` devices
    is a ``LayoutError``.
    """
    if s.num_devices > MAX_CELLS:
        raise LayoutError(f"{s.num_devices} devices: the explorer draws shardings of at most {MAX_CELLS}")
    sc = sharding_scene(s, max_cells=MAX_CELLS)
    drawn = sc.drawn
    n = int(np.count_nonzero(drawn))
    cuts, holders = block_holders(s, MAX_CELLS)
    partial, block, devices, sums = s.partial, [], [], []
    flat = holders.reshape(-1) if s.rank else [holders.item()]
    for k in np.flatnonzero(drawn.reshape(-1)):  # the scene's cells are the blocks, row-major
        crd = np.unravel_index(int(k), holders.shape) if s.rank else ()
        who = flat[int(k)]
        block.append("[" + ", ".join(f"{cuts[i][j]}:{cuts[i][j + 1]}" for i, j in enumerate(crd)) + "]")
        devices.append(", ".join(map(str, who)))
        sums.append("yes" if any(partial[d] for d in who) else "no")
    facts = [["shape", "x".join(map(str, s.shape)) or "scalar"], ["devices", str(s.num_devices)],
             ["replicated", "yes" if any(s.replicated.values()) else "no"],
             ["partial sums", "no" if not s.has_partial else "yes, added up within " + ", ".join(
                 "{" + ", ".join(map(str, g)) + "}" for g in s.sum_groups)],
             ["covers the tensor", "yes" if s.covers() else "no"]]
    name = "x".join(map(str, s.shape)) or "scalar"
    return Cells(s, match="drawn", scene=sc, title=sc.title, facts=facts,
                 summary=f"sharding of {name} over {s.num_devices} devices, {n} blocks",
                 columns={"block": block, "devices": devices, "partial sums": sums},
                 groups={"lowest holder": sc.attrs["device"][drawn], "holders": sc.attrs["holders"][drawn]})
