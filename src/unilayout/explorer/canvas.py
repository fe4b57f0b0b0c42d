"""A picture for the explorer's ``<canvas>``: a ``viz.Scene`` as compact typed arrays instead of per-cell markup.

Above ``SVG_CELLS`` cells the explorer draws on a canvas (zoom, pan, fit,
hover details) from ``payload(scene)``: the grid geometry (``row_y``,
``col_x``, cell size), the outlines, lines and texts of the scene, and one
array per cell property — ``color`` (index into ``palette``, 0 = not drawn),
``index`` (the cell's position in the domain order of ``index_map``, as
``data-index`` in the SVG), ``padding`` and every ``scene.attrs`` entry
(``data-NAME`` in the SVG); cell labels, up to ``MAX_LABELS`` cells, as
``labels`` (one string per cell) or, when they are just the numbers of an
array, ``labels_from`` (``"index"`` or ``"value"``). Each array is row-major over the grid, stored in
the smallest integer type that holds it, zlib-compressed and base64-encoded:
``{"dtype": "u1"|"u2"|"i4"|"f8", "z": "<base64>", "delta": bool}`` (``f8`` for
values beyond int32; with ``delta`` the array holds the differences of
consecutive values, which compress far better for positions and indices; the
page decompresses with the browser's ``DecompressionStream`` and sums them).

>>> from unilayout import tt
>>> from unilayout.tt.picture import metal_scene
>>> p = payload(metal_scene(tt.MetalLayout.from_collapse((300, 300), (4, 4)), max_cells=1 << 20))
>>> p["rows"], p["cols"], p["palette"][0], sorted(p["arrays"])[:4]
(300, 300, '#ffffff', ['color', 'core', 'index', 'padding'])
>>> int(decode(p["arrays"]["index"])[299 * 300 + 299])
89999
"""

from __future__ import annotations

import base64
import zlib

import numpy as np

from ..draw.colors import hex_color

__all__ = ["payload", "decode", "encode", "SVG_CELLS", "MAX_LABELS", "MAX_SHAPES"]

#: Up to this many cells the explorer draws one ``<svg>`` (the design.md hooks); above, a canvas.
SVG_CELLS = 4096
#: Cell labels are sent (and drawn when zoomed in) up to this many cells.
MAX_LABELS = 1 << 17
#: Outlines, lines and texts sent at most (each kind).
MAX_SHAPES = 1 << 17


def encode(a) -> dict:
    """``{"dtype", "z", "delta"}``: an integer array in its smallest type (or its differences), zlib-compressed, base64.

    >>> encode(np.array([0, 3, 255]))["dtype"], encode(np.array([-1, 70000]))["dtype"]
    ('u1', 'i4')
    >>> decode(encode(np.array([1 << 40, -5]))).tolist()
    [1099511627776.0, -5.0]
    >>> e = encode(np.arange(100000))
    >>> e["delta"], len(e["z"]) < 1000, int(decode(e)[-1])
    (True, True, 99999)
    """
    a = np.asarray(a).reshape(-1)
    if a.dtype == bool:
        a = a.astype(np.uint8)
    if a.size > 1 and a.dtype.kind in "iu" and (int(a.max()) > 255 or int(a.min()) < 0):
        d = np.diff(a.astype(np.int64), prepend=0)
        if int(d.min()) >= -(1 << 31) and int(d.max()) < (1 << 31):
            out = _plain(d)
            out["delta"] = True
            return out
    return _plain(a)


def _plain(a):
    lo = int(a.min()) if a.size else 0
    hi = int(a.max()) if a.size else 0
    if lo >= 0 and hi < 256:
        dtype, out = "u1", a.astype("<u1")
    elif lo >= 0 and hi < 65536:
        dtype, out = "u2", a.astype("<u2")
    elif lo >= -(1 << 31) and hi < (1 << 31):
        dtype, out = "i4", a.astype("<i4")
    else:
        dtype, out = "f8", a.astype("<f8")
    return {"dtype": dtype, "z": base64.b64encode(zlib.compress(out.tobytes(), 1)).decode("ascii"), "delta": False}


def decode(d) -> np.ndarray:
    """The array of ``encode``'s dict (what the page does in JavaScript).

    >>> decode(encode(np.arange(5))).tolist()
    [0, 1, 2, 3, 4]
    """
    raw = zlib.decompress(base64.b64decode(d["z"]))
    a = np.frombuffer(raw, dtype={"u1": "<u1", "u2": "<u2", "i4": "<i4", "f8": "<f8"}[d["dtype"]])
    return np.cumsum(a.astype(np.int64)) if d.get("delta") else a


def _num(x):
    return round(float(x), 2)


def _labels_source(scene):
    """The array whose numbers are the labels of every labelled cell (``"index"``, ``"value"``), or None.

    Labels that are just a number the payload already carries are not sent twice. A picture that wrote
    its labels as the decimal numbers of one of these arrays says so in ``scene.labels_of`` (then no
    label is read back: 65,536 of them cost 10 ms to compare).
    """
    if scene.labels_of in ("index", "value"):
        return scene.labels_of
    lab = scene.labels
    shown = lab != ""
    if not (shown == scene.drawn).all():
        return None
    text = lab[shown].astype(str)
    for name in ("index", "value"):
        a = scene.index if name == "index" else scene.attrs.get("value")
        if a is None or np.asarray(a).shape != lab.shape:
            continue
        nums = np.asarray(a)[shown]
        if not (nums[:256].astype(str) == text[:256]).all():  # the first labels tell most candidates apart cheaply
            continue
        if (nums.astype(str) == text).all():
            return name
    return None


def payload(scene) -> dict:
    """The JSON-ready canvas picture of ``scene`` (see the module docstring).

    >>> from unilayout.draw.scene import grid_scene
    >>> p = payload(grid_scene("t", 2, 3))
    >>> p["rows"], p["cols"], decode(p["arrays"]["color"]).tolist()
    (2, 3, [1, 1, 1, 1, 1, 1])
    """
    R, C = scene.shape
    drawn = scene.drawn.reshape(-1)
    fill = scene.fill.reshape(-1, 3).astype(np.uint32)
    code = (fill[:, 0] << 16) | (fill[:, 1] << 8) | fill[:, 2]
    colors, inverse = np.unique(code[drawn], return_inverse=True)
    color = np.zeros(R * C, dtype=np.int64)
    color[drawn] = inverse + 1
    palette = ["#ffffff"] + [f"#{int(c):06x}" for c in colors.tolist()]
    arrays = {"color": encode(color), "index": encode(scene.index), "padding": encode(scene.padding)}
    for name, a in scene.attrs.items():
        arrays[name] = encode(np.asarray(a, dtype=np.int64))
    labels = None
    labels_from = None
    if R * C <= MAX_LABELS and scene.labels.size and (scene.labels != "").any():
        labels_from = _labels_source(scene)
        if labels_from is None:
            labels = [str(s) for s in scene.labels.reshape(-1).tolist()]
    width, height, notes = scene.measure()
    return {
        "kind": scene.kind, "title": scene.title, "cell_class": scene.cell_class,
        "rows": int(R), "cols": int(C), "cell_w": _num(scene.cell_w), "cell_h": _num(scene.cell_h),
        "width": _num(width), "height": _num(height),
        "row_y": [_num(v) for v in scene.row_y.tolist()], "col_x": [_num(v) for v in scene.col_x.tolist()],
        "palette": palette, "arrays": arrays, "labels": labels, "labels_from": labels_from,
        "outlines": [[_num(x), _num(y), _num(w), _num(h), hex_color(rgb), _num(wd), cls]
                     for x, y, w, h, rgb, wd, cls in scene.outlines[:MAX_SHAPES]],
        "lines": [[_num(a), _num(b), _num(c), _num(d), hex_color(rgb), _num(wd), cls]
                  for a, b, c, d, rgb, wd, cls in scene.lines[:MAX_SHAPES]],
        "texts": [[_num(x), _num(y), t, size, anchor, hex_color(rgb), cls]
                  for x, y, t, size, anchor, rgb, cls in scene.texts[:MAX_SHAPES]],
        "notes": notes,
    }
