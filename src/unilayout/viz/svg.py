"""A tiny SVG writer: a :class:`~unilayout.viz.picture.Scene` as one standalone, scalable ``<svg>``.

Each drawn cell is a ``<g class="cell" data-index="i">`` holding its ``<rect>``
and, when it has one, a ``<text class="label">``; padding cells have class
``"cell padding"``. ``data-index`` is the cell's position in the domain order
of ``unilayout.index_map`` (the browser explorer relies on these hooks).

>>> from unilayout.viz.picture import grid_scene
>>> svg = to_svg(grid_scene("two cells", 1, 2, labels=[["0", "1"]]))
>>> svg.count('class="cell"'), svg.startswith("<svg")
(2, True)
"""

from __future__ import annotations

from xml.sax.saxutils import escape

import numpy as np

from .colors import hex_color, text_color
from .picture import HEADER_PX, LABEL_PX, LINE_H, NOTE_PX, TITLE_PX

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


def to_svg(scene) -> str:
    """The scene as SVG text (UTF-8, no external resources, no LaTeX).

    >>> from unilayout.viz.picture import grid_scene
    >>> s = grid_scene("pad", 1, 1)
    >>> s.padding[0, 0] = True
    >>> 'class="cell padding"' in to_svg(s)
    True
    """
    w, h = scene.width, scene.height
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(w)}" height="{_num(h)}" '
        f'viewBox="0 0 {_num(w)} {_num(h)}" font-family="{_FONT}" data-kind="{scene.kind}">',
        f"<title>{escape(scene.title)}</title>",
        f'<rect class="background" x="0" y="0" width="{_num(w)}" height="{_num(h)}" fill="#ffffff"/>',
    ]
    rr, cc = np.nonzero(scene.drawn)
    if rr.size:
        xs = scene.col_x[cc]
        ys = scene.row_y[rr]
        fills = scene.fill[rr, cc]
        inks = text_color(fills)
        idx = scene.index[rr, cc].tolist()
        pad = scene.padding[rr, cc].tolist()
        labels = scene.labels[rr, cc].tolist()
        extra = [(name, a[rr, cc].tolist()) for name, a in scene.attrs.items()]
        cw, ch = _num(scene.cell_w), _num(scene.cell_h)
        multi = any("\n" in str(lab) for lab in labels)
        font = LABEL_PX - 1 if multi else LABEL_PX
        if scene.cell_h < font + 2:  # tiny cells (big pictures): no room for text, as in the PNG
            labels = [""] * len(labels)
        hexes = {}
        base = scene.cell_class
        for k in range(rr.size):
            x, y = xs[k], ys[k]
            f = tuple(fills[k].tolist())
            fhex = hexes.get(f) or hexes.setdefault(f, hex_color(f))
            cls = base + " padding" if pad[k] else base
            data = "".join(f' data-{name}="{vals[k]}"' for name, vals in extra)
            part = (
                f'<g class="{cls}" data-index="{idx[k]}"{data}>'
                f'<rect x="{_num(x)}" y="{_num(y)}" width="{cw}" height="{ch}" fill="{fhex}" stroke="#ffffff" stroke-width="1"/>'
            )
            lab = labels[k]
            if lab:
                ink = "#ffffff" if inks[k, 0] else "#000000"
                part += _text(x + scene.cell_w / 2, y + scene.cell_h / 2, str(lab), font, fill=ink)
            out.append(part + "</g>")
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
    for k, note in enumerate(scene.note_lines()):
        out.append(_text(8.0, scene.note_y(k), note, NOTE_PX, "start", "#333333", "note"))
    out.append("</svg>")
    return "\n".join(out) + "\n"


