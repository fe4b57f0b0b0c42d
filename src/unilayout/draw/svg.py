"""A tiny SVG writer: a :class:`~unilayout.draw.scene.Scene` as one standalone, scalable ``<svg>``.

Each drawn cell is a ``<g class="cell" data-index="i">`` holding its ``<rect>``
and, when it has one, a ``<text class="label">``; padding cells have class
``"cell padding"``. ``data-index`` is the cell's position in the domain order
of ``unilayout.index_map`` (the browser explorer relies on these hooks).

The markup is lean, because the explorer sends pictures of thousands of
cells: the cells sit in one ``<g>`` that gives their labels' font size and
centring once, a cell says only what differs from cell to cell (position,
fill, white ink on a dark fill) and leaves SVG's defaults (stroke width 1,
black text) unsaid, and each distinct row, column and colour is formatted
once. The picture is the same as with every attribute on every cell.

>>> from unilayout.draw.scene import grid_scene
>>> svg = to_svg(grid_scene("two cells", 1, 2, labels=[["0", "1"]]))
>>> svg.count('class="cell"'), svg.startswith("<svg")
(2, True)
"""

from __future__ import annotations

from functools import partial
from html import escape as _escape

import numpy as np

from .colors import hex_color, text_color
from .scene import HEADER_PX, LABEL_PX, LINE_H, NOTE_PX, TITLE_PX

#: Text content escaped for XML (&, <, >): html's escape, since xml.sax.saxutils imports urllib (~35 ms).
escape = partial(_escape, quote=False)

__all__ = ["to_svg"]

_FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"


def _num(x) -> str:
    return f"{float(x):.1f}".rstrip("0").rstrip(".")


def _text(x, y, s, size_px, anchor="middle", fill="#000", cls="label", lines=None):
    lines = s.split("\n") if lines is None else lines
    attrs = f'class="{cls}" x="{_num(x)}" text-anchor="{anchor}" font-size="{_num(size_px)}" fill="{fill}"'
    if len(lines) == 1:
        return f'<text {attrs} y="{_num(y + size_px * 0.35)}">{escape(lines[0])}</text>'
    step = LINE_H if cls == "label" else size_px * 1.1
    y0 = y - step * (len(lines) - 1) / 2 + size_px * 0.35
    spans = "".join(
        f'<tspan x="{_num(x)}" y="{_num(y0 + k * step)}">{escape(line)}</tspan>' for k, line in enumerate(lines)
    )
    return f"<text {attrs}>{spans}</text>"


def _nums(values) -> list:
    """``_num`` of each value, each distinct value formatted once (a picture has few distinct rows and columns)."""
    values = np.asarray(values, dtype=np.float64)
    uniq, inverse = np.unique(values, return_inverse=True)
    strs = [_num(v) for v in uniq.tolist()]
    return [strs[i] for i in inverse.reshape(-1).tolist()]


def _hexes(fills) -> list:
    """``#rrggbb`` of each ``(N, 3)`` uint8 fill, each distinct colour formatted once."""
    f = np.asarray(fills, dtype=np.int64).reshape(-1, 3)
    packed = (f[:, 0] << 16) | (f[:, 1] << 8) | f[:, 2]
    uniq, inverse = np.unique(packed, return_inverse=True)
    strs = [f"#{v:06x}" for v in uniq.tolist()]
    return [strs[i] for i in inverse.reshape(-1).tolist()]


def _cells(scene) -> list:
    """The ``<g>`` of every drawn cell, row-major, inside one ``<g>`` that sets the labels' font size and anchor.

    Every cell is ``<g class="cell" data-index=".." data-NAME=".."><rect x y
    width height fill stroke="#fff"/><text class="label" x y>..</text></g>``:
    what is the same for every cell (the labels' font size and centring) is
    said once on the enclosing group, what defaults to the right value
    (stroke width 1, black text) is not said, and each distinct row, column
    and colour is formatted once (numpy), so a cell costs one string format.

    >>> from unilayout.draw.scene import grid_scene
    >>> group, cell, end = _cells(grid_scene("t", 1, 1, labels=[["7"]]))
    >>> group, end
    ('<g font-size="12" text-anchor="middle">', '</g>')
    >>> cell.startswith('<g class="cell" data-index="0"><rect x='), cell.endswith('">7</text></g>')
    (True, True)
    """
    rr, cc = np.nonzero(scene.drawn)
    if not rr.size:
        return []
    n = rr.size
    fills = scene.fill[rr, cc]
    labels = [str(v) for v in scene.labels[rr, cc].tolist()]
    joined = "".join(labels)  # one scan for newlines and markup instead of one per label
    multi = "\n" in joined
    font = LABEL_PX - 1 if multi else LABEL_PX
    if scene.cell_h < font + 2:  # tiny cells (big pictures): no room for text, as in the PNG
        labels = [""] * n
    base = scene.cell_class
    pad = scene.padding[rr, cc]
    classes = np.where(pad, base + " padding", base).tolist() if pad.any() else [base] * n
    data = "".join(f' data-{name}="%s"' for name in scene.attrs)
    cell = f'<g class="%s" data-index="%s"{data}><rect x="%s" y="%s" width="{_num(scene.cell_w)}" ' \
        f'height="{_num(scene.cell_h)}" fill="%s" stroke="#fff"/>%s</g>'
    rl, cl = rr.tolist(), cc.tolist()
    xs = _nums(scene.col_x)
    ys = _nums(scene.row_y)
    if any(labels):
        cx = _nums(scene.col_x + scene.cell_w / 2)
        cy = _nums(scene.row_y + scene.cell_h / 2 + font * 0.35)
        inks = np.where(text_color(fills)[:, 0] > 0, ' fill="#fff"', "").tolist()
        if "&" in joined or "<" in joined or ">" in joined:
            labels = [escape(lab) for lab in labels]
        texts = [f'<text class="label" x="{cx[c]}" y="{cy[r]}"{ink}>{lab}</text>' if lab else ""
                 for lab, r, c, ink in zip(labels, rl, cl, inks)]
        if multi:
            for k, lab in enumerate(labels):
                if "\n" in lab:
                    texts[k] = _multiline(scene.col_x[cl[k]] + scene.cell_w / 2, scene.row_y[rl[k]] + scene.cell_h / 2,
                                          lab.split("\n"), font, inks[k])
    else:
        texts = [""] * n
    cols = [classes, scene.index[rr, cc].tolist(), *(a[rr, cc].tolist() for a in scene.attrs.values()),
            [xs[c] for c in cl], [ys[r] for r in rl], _hexes(fills), texts]
    return [f'<g font-size="{_num(font)}" text-anchor="middle">', *[cell % t for t in zip(*cols)], "</g>"]


def _multiline(x, y, lines, size_px, ink):
    """A label of several (already escaped) lines, centred on ``(x, y)``: one ``<tspan>`` per line."""
    y0 = y - LINE_H * (len(lines) - 1) / 2 + size_px * 0.35
    spans = "".join(f'<tspan x="{_num(x)}" y="{_num(y0 + k * LINE_H)}">{line}</tspan>' for k, line in enumerate(lines))
    return f'<text class="label"{ink}>{spans}</text>'


def to_svg(scene) -> str:
    """The scene as SVG text (UTF-8, no external resources, no LaTeX).

    >>> from unilayout.draw.scene import grid_scene
    >>> s = grid_scene("pad", 1, 1)
    >>> s.padding[0, 0] = True
    >>> 'class="cell padding"' in to_svg(s)
    True
    """
    w, h, notes = scene.measure()  # one measurement of the texts and notes, not one per use
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(w)}" height="{_num(h)}" '
        f'viewBox="0 0 {_num(w)} {_num(h)}" font-family="{_FONT}" data-kind="{scene.kind}">',
        f"<title>{escape(scene.title)}</title>",
        f'<rect class="background" x="0" y="0" width="{_num(w)}" height="{_num(h)}" fill="#ffffff"/>',
    ]
    out.extend(_cells(scene))
    for x, y, ww, hh, rgb, width, cls in scene.outlines:
        out.append(
            f'<rect class="{cls}" x="{_num(x)}" y="{_num(y)}" width="{_num(ww)}" height="{_num(hh)}" '
            f'fill="none" stroke="{hex_color(rgb)}" stroke-width="{_num(width)}"/>'
        )
    for x0, y0, x1, y1, rgb, width, cls in scene.lines:
        out.append(f'<line class="{cls}" x1="{_num(x0)}" y1="{_num(y0)}" x2="{_num(x1)}" y2="{_num(y1)}" '
                   f'stroke="{hex_color(rgb)}" stroke-width="{_num(width)}"/>')
    for x, y, s, size, anchor, rgb, cls in scene.texts:
        out.append(_text(x, y, s, HEADER_PX if size == 1 else TITLE_PX, anchor, hex_color(rgb), cls))
    for k, note in enumerate(notes):
        out.append(_text(8.0, scene.note_y(k), note, NOTE_PX, "start", "#333333", "note"))
    out.append("</svg>")
    return "\n".join(out) + "\n"


