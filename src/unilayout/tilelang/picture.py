"""TileLang layouts drawn: a ``Layout``'s buffer offset over its input box, a ``Fragment``'s thread per element.

A fragment is coloured by thread (a distinct colour per thread, as Triton's
lanes) and each cell reads ``T<thread>:<index>``; a layout is coloured by
its offset. The explorer's cells list the same per element.

>>> from unilayout import tilelang
>>> s = tilelang_scene(tilelang.parse("Fragment((2, 4) -> (2,), replicate: 1, thread: 4, "
...                                   "forward_thread: _j, forward_index: (_i,))"))
>>> s.labels[1, 2], s.shape
('T2:1', (2, 4))
"""

from __future__ import annotations

import math

import numpy as np

from .._family import Cells
from ..draw.cells import box_block, fmts, same
from ..draw.colors import distinct
from ..draw.grid import box_scene, crop
from ..draw.scene import DEFAULT_MAX_CELLS, grid_scene
from .layout import Fragment

__all__ = ["tilelang_scene", "tilelang_cells"]


def tilelang_scene(x, *, max_cells=DEFAULT_MAX_CELLS, labels=True):
    """The picture of a TileLang ``Layout`` (offset per input point) or ``Fragment`` (thread per element)."""
    if not isinstance(x, Fragment):
        offs = x.offsets() if x.size <= max_cells * 64 else None
        values = offs if offs is not None else (lambda *crd: _offsets_at(x, crd))
        scene = box_scene(f"TileLang {x}", values, x.input_shape, max_cells=max_cells, labels=labels)
        scene.kind = "tilelang"
        return scene
    m = x.index_map()
    dims = tuple(x.input_shape)
    cols = dims[-1]
    rows = math.prod(dims[:-1]) if len(dims) > 1 else 1
    r, c, note = crop(rows, cols, int(max_cells))
    shown = m.reshape(rows, cols, 2)[:r, :c]
    text = None
    if labels:
        text = np.char.add(np.char.add("T", shown[..., 0].astype(str)),
                           np.char.add(":", shown[..., 1].astype(str))).astype(object)
    scene = grid_scene(f"TileLang {x}", r, c, labels=text)
    scene.index = np.arange(r, dtype=np.int64)[:, None] * cols + np.arange(c, dtype=np.int64)[None, :]
    scene.fill = distinct(np.maximum(shown[..., 0], 0), max(1, min(x.thread_extent or 64, 64)))
    scene.attrs["thread"] = shown[..., 0]
    scene.attrs["value"] = shown[..., 1]
    scene.notes = [f"colour: thread; label T<thread>:<index in its buffer>; {x.replicate} replica(s), the first shown"]
    if note:
        scene.notes.append(note)
    scene.kind = "tilelang"
    return scene


def _offsets_at(x, crd):
    from .expr import evaluate  # lazy: only a cropped huge layout evaluates at its shown points

    env = dict(zip([f"_{c}" for c in "ijklmnopqrstuvwxyzabcdefgh"], crd))
    cols = [np.broadcast_to(evaluate(e, env), np.shape(crd[0])) for e in x.index]
    flat = np.zeros(np.shape(crd[0]), dtype=np.int64)
    for col, s in zip(cols, x.output_shape):
        flat = flat * (s or 1) + col
    return flat


def tilelang_cells(x, *, details=True) -> Cells:
    """The explorer's cells: each input element (row-major) with its offset, or its thread and index."""
    dims = tuple(x.input_shape)
    c = Cells(x, title=f"TileLang {type(x).__name__}", text=str(x), summary=f"tilelang {type(x).__name__.lower()}",
              total=math.prod(dims))
    if not details:
        return c
    idx, c.note = box_block(dims, "the box " + "x".join(map(str, dims)))
    crds = np.unravel_index(idx, dims)
    c.index = idx
    name = "element (" + ", ".join(f"_{ch}" for ch in "ijklmnopqrstuvwxyzabcdefgh"[:len(dims)]) + ")"
    if isinstance(x, Fragment):
        m = x.index_map()[idx]
        c.columns = {"index": idx, name: fmts(crds, idx.size), "thread": m[:, 0], "local index": m[:, 1]}
        c.groups = {"thread": same(m[:, 0]), "value": same(m[:, 1])}
    else:
        offs = x.offsets()[idx]
        c.columns = {"index": idx, name: fmts(crds, idx.size), "buffer offset": offs}
        c.groups = {"value": same(offs)}
    return c
