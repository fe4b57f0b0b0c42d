"""Pictures and explorer cells of Mosaic GPU register layouts: which thread and register hold each element.

``mosaic_scene(v, shape)`` draws the array (leading dims folded into rows,
last dim across) with each element labelled ``T<thread>:<value>`` (thread
``32 * warp + lane``, value ``register * vector_length + element``), as
Triton's tensor view labels ``T<thread>:<register>``; colours as for Triton:
``"thread"`` (each lane its own colour), ``"warp"``, ``"register"`` or
``"index"`` (the element's row-major position). A shared buffer
(``SmemLayout``) is drawn with each element's buffer offset.

>>> from unilayout import mosaic
>>> s = mosaic_scene(mosaic.WGMMA, (64, 8))
>>> s.shape, s.labels[0, 0], s.labels[9, 2]
((64, 8), 'T0:0', 'T5:2')

What a cell is in the explorer (``mosaic_cells``): one element, its
coordinate, warp, lane, thread, register, vector element and every thread
that holds it (replicas).

>>> c = mosaic_cells(mosaic.WGMMA, (64, 8))
>>> c.columns["holders"][0], int(c.columns["register"][72])
('T0:0', 1)
"""

from __future__ import annotations

import math

import numpy as np

from .._family import Cells
from ..draw.cells import box_block, fmts, same
from ..draw.colors import distinct, gradient
from ..draw.grid import box_scene, crop
from ..draw.scene import DEFAULT_MAX_CELLS, grid_scene
from ..errors import LayoutError
from .smem import SmemLayout

__all__ = ["mosaic_scene", "mosaic_cells", "COLOR_MODES"]

COLOR_MODES = ("thread", "warp", "register", "index")
#: Largest array a picture or the explorer evaluates whole (every element's holder is found).
MAX_ELEMENTS = 1 << 24


def _check_size(shape):
    n = math.prod(shape)
    if n > MAX_ELEMENTS:
        raise LayoutError(f"an array of {n:,} elements is too large to draw (limit {MAX_ELEMENTS:,}): "
                          "give a smaller shape")


def _grid(shape):
    box = tuple(shape) or (1,)
    return (math.prod(box[:-1]) if len(box) > 1 else 1), box[-1]


def mosaic_scene(v, shape, color=None, *, max_cells=DEFAULT_MAX_CELLS, labels=True):
    """The picture of ``v`` over ``shape`` (see the module docstring)."""
    _check_size(shape)
    if isinstance(v, SmemLayout):
        if color is not None:
            raise LayoutError("colour modes apply to register layouts, not to a shared buffer")
        scene = box_scene(f"Mosaic GPU shared buffer {v}: offset of each element", v.offsets().reshape(-1),
                          v.shape, max_cells=max_cells, labels=labels is not False)
        scene.kind = "mosaic"
        return scene
    color = color or "thread"
    if color not in COLOR_MODES:
        raise LayoutError(f"unknown colour mode {color!r}: expected one of {', '.join(COLOR_MODES)}")
    o = v.owners(shape)
    rows, cols = _grid(shape)
    r, c, note = crop(rows, cols, int(max_cells))

    def cut(a):
        return np.asarray(a).reshape(rows, cols)[:r, :c]

    thread, value = cut(o["thread"]), cut(o["value"])
    text = np.char.add(np.char.add("T", thread.astype(str)), np.char.add(":", value.astype(str))).astype(object)
    scene = grid_scene(f"Mosaic GPU {type(v).__name__} over {'x'.join(map(str, shape))}: thread:value of each "
                       "element", r, c, labels=text if labels is not False else None)
    scene.kind = "mosaic"
    scene.index = np.arange(rows * cols, dtype=np.int64).reshape(rows, cols)[:r, :c]
    for name in ("warp", "lane", "register", "element"):
        scene.attrs[name] = cut(o[name])
    if color == "thread":
        scene.fill = distinct(cut(o["lane"]).reshape(-1), 32).reshape(r, c, 3)
        what = "lane (32 colours, one per lane of a warp)"
    elif color == "warp":
        scene.fill = distinct(cut(o["warp"]).reshape(-1), 4).reshape(r, c, 3)
        what = "warp"
    elif color == "register":
        scene.fill = gradient(cut(o["register"]).reshape(-1)).reshape(r, c, 3)
        what = "register"
    else:
        scene.fill = gradient(scene.index.reshape(-1)).reshape(r, c, 3)
        what = "row-major element index"
    notes = [f"colour: {what}; label T<thread>:<value>, thread = lane + 32 * warp, value = register * "
             f"{v.vector_length} + vector element"]
    if v.replication_factor > 1:
        notes.append(f"replicated: every element is held by {v.replication_factor} threads (the first is shown)")
    if note:
        notes.append(note)
    scene.notes = notes
    return scene


def mosaic_cells(v, shape, *, details=True) -> Cells:
    """The explorer's cells of ``v`` over ``shape``: each element (row-major) and who holds it."""
    shape = tuple(int(s) for s in shape)
    shown = "x".join(map(str, shape))
    c = Cells(v, shape=shape, title=f"Mosaic GPU {v} over {shown}", text=str(v), total=math.prod(shape),
              summary=f"mosaic layout over {shown}")
    if not details:
        return c
    _check_size(shape)
    idx, c.note = box_block(shape, f"the array {shown}")
    crds = np.unravel_index(idx, shape) if shape else ()
    c.index = idx
    if isinstance(v, SmemLayout):
        offs = v.offsets().reshape(-1)[idx]
        c.columns = {"index": idx, "coordinate": fmts(crds, idx.size), "buffer offset": offs}
        c.groups = {"value": same(offs)}
        return c
    o = {k: a[idx] for k, a in v.owners(shape).items()}
    reps = v.replica_threads()
    holders = [" ".join(f"T{t + r}:{val}" for r in reps) for t, val in zip(o["thread"].tolist(), o["value"].tolist())]
    c.columns = {"index": idx, "coordinate": fmts(crds, idx.size), "warp": o["warp"], "lane": o["lane"],
                 "thread": o["thread"], "register": o["register"], "element": o["element"], "holders": holders}
    c.groups = {"thread": o["thread"], "warp": o["warp"], "value": same(np.stack([o["thread"], o["value"]], 1))}
    c.keys = {"element": idx}
    return c
