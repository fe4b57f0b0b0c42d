"""TIRx layouts drawn over their logical box, coloured by any one axis.

Each cell is one logical element (row-major over the shard extents, drawn
as rows x columns split where the picture comes closest to square: ``view``)
and reads its coordinates on the layout's axes, in
``layout.axes`` order, joined by ``:``. The colour is one axis's value:
``color="laneid"`` (any axis of the layout), ``"thread"`` (its first thread
axis), ``"warp"`` (``warpid``), ``"register"`` (``m``); by default the first
thread axis, else the first axis. Replicas are noted, replica 0 drawn.

>>> from unilayout import axe
>>> s = axe_scene(axe.parse("S[(2,4):(1@warpid,1@laneid)]"), color="laneid")
>>> s.labels[1, 2], s.attrs["laneid"][1].tolist()
('1:2', [0, 1, 2, 3])
"""

from __future__ import annotations

import math

import numpy as np

from .._family import Cells
from ..draw.cells import box_block, fmts, same
from ..draw.colors import distinct
from ..draw.grid import crop
from ..draw.scene import DEFAULT_MAX_CELLS, grid_scene
from ..errors import LayoutError
from .axes import AXES

__all__ = ["axe_scene", "axe_cells", "colour_axis", "view"]

_MODES = {"warp": "warpid", "register": "m", "lane": "laneid"}


def colour_axis(x, color=None) -> str | None:
    """The axis a picture of ``x`` is coloured by (``color``: an axis name or a mode; module docstring).

    >>> from unilayout import axe
    >>> colour_axis(axe.parse("S[(2,4):(1@m,1@laneid)]")), colour_axis(axe.parse("S[4]"), "register")
    ('laneid', 'm')
    """
    axes = x.axes
    if color in (None, "thread", "index"):
        threads = [a for a in axes if a in AXES and AXES[a].thread]
        if color == "thread" and not threads:
            raise LayoutError(f"color='thread': the layout has no thread axis (its axes: {', '.join(axes)})")
        return threads[0] if threads else (axes[0] if axes else None)
    want = _MODES.get(color, color)
    if want not in axes:
        raise LayoutError(f"color={color!r}: choose one of the layout's axes ({', '.join(axes) or 'none'}) or "
                          "thread, warp, lane, register")
    return want


def view(x) -> tuple:
    """``(rows, cols)`` a picture of ``x`` is drawn in: the shard extents split where the rows come closest to
    the square root of the size (the logical index row-major, as TIRx's default shape).

    >>> from unilayout import axe
    >>> view(axe.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1@m)]")), view(axe.parse("S[8]"))
    ((8, 16), (1, 8))
    """
    box = tuple(x.box) or (1,)
    best = (abs(math.prod(box[:-1]) - math.sqrt(math.prod(box))), len(box) - 1)
    for k in range(1, len(box)):
        best = min(best, (abs(math.prod(box[:k]) - math.sqrt(math.prod(box))), k))
    k = best[1]
    return math.prod(box[:k]), math.prod(box[k:])


def axe_scene(x, *, color=None, max_cells=DEFAULT_MAX_CELLS, labels=True):
    """The picture of a ``TileLayout``/``ComposeLayout``: coordinates per element, coloured by one axis."""
    by = colour_axis(x, color)
    rows, cols = view(x)
    r, c, note = crop(rows, cols, int(max_cells))
    idx = (np.arange(r, dtype=np.int64)[:, None] * cols + np.arange(c, dtype=np.int64)[None, :])
    ev = x.evaluate(idx) if x.size else {}
    text = None
    if labels and ev:
        text = ev[x.axes[0]].astype(str)
        for a in x.axes[1:]:
            text = np.char.add(np.char.add(text, ":"), ev[a].astype(str))
        text = text.astype(object)
    scene = grid_scene(f"TIRx {x}", r, c, labels=text)
    scene.index = idx
    key = ev[by] if by is not None and ev else np.zeros((r, c), np.int64)
    scene.fill = distinct(key - key.min() if key.size else key, max(1, min(int(np.ptp(key)) + 1 if key.size else 1,
                                                                           64)))
    for a, v in ev.items():
        scene.attrs[a] = v
    scene.notes = [f"label {':'.join(x.axes) or '(no axes)'}; colour: {by or 'none'}"]
    if x.replicas > 1:
        scene.notes.append(f"{x.replicas} replicas of each element, replica 0 shown")
    if note:
        scene.notes.append(note)
    scene.kind = "axe"
    return scene


def axe_cells(x, *, details=True) -> Cells:
    """The explorer's cells: each logical element (row-major) with its coordinate on every axis."""
    box = tuple(x.box)
    c = Cells(x, title=f"TIRx {type(x).__name__}", text=str(x), summary="tirx layout", total=x.size)
    if not details:
        return c
    idx, c.note = box_block(view(x), "the box " + "x".join(map(str, box)))
    if not x.size:
        idx = idx[:0]
    c.index = idx
    ev = x.evaluate(idx)
    crds = np.unravel_index(idx, box) if box else (idx,)
    c.columns = {"index": idx, "element": fmts(crds, idx.size), **{a: ev[a] for a in x.axes}}
    c.groups = {a: same(ev[a]) for a in x.axes}
    return c
