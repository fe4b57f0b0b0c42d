"""PNG output through Pillow: the same :class:`~unilayout.draw.scene.Scene` as the SVG, drawn with a real font.

Cells are painted in one vectorised numpy step (each pixel looks up its row
and column), outlines and texts are drawn by Pillow with its bundled scalable
FreeType font (``ImageFont.load_default(size=...)``), and Pillow encodes the
PNG. Sizes are the picture model's (``picture.LABEL_PX`` etc.), so a PNG at
``scale=1`` has the SVG's size, labels 12 px (11 px for labels of several
lines); ``scale=K`` draws everything K times larger.

>>> from unilayout.draw.scene import grid_scene
>>> s = grid_scene("png", 2, 3, labels=[["0", "1", "2"], ["3", "4", "5"]])
>>> data = to_png(s)
>>> data[:8] == PNG_SIGNATURE, png_size(data) == (int(s.width), int(s.height))
(True, True)
>>> png_size(to_png(s, scale=2)) == (2 * int(s.width), 2 * int(s.height))
True
"""

from __future__ import annotations

import functools
import io
import struct

import numpy as np

from ..errors import LayoutError
from .colors import text_color
from .scene import HEADER_PX, LABEL_PX, LINE_H, NOTE_PX, TITLE_PX

__all__ = ["to_png", "rasterise", "encode_png", "png_size", "font", "PNG_SIGNATURE", "MAX_PIXELS", "MAX_SCALE"]

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: Largest picture written (width x height, after scaling); bigger scenes raise LayoutError (crop with max_cells).
MAX_PIXELS = 64_000_000
#: Largest ``scale``.
MAX_SCALE = 16


@functools.lru_cache(maxsize=None)
def font(size_px: int):
    """Pillow's bundled scalable font at ``size_px`` pixels (cached).

    >>> font(12).size
    12
    """
    from PIL import ImageFont  # lazy: Pillow costs import time; loaded when a PNG is first drawn

    return ImageFont.load_default(size=int(size_px))


def _axis_lookup(starts, size, n_px, scale):
    """For each pixel centre: the cell it falls in (or -1) along one axis; a 1-px border (per scale) is left."""
    px = (np.arange(n_px, dtype=np.float64) + 0.5) / scale
    order = np.argsort(starts, kind="stable")
    sorted_starts = starts[order]
    k = np.searchsorted(sorted_starts, px, side="right") - 1
    inside = (k >= 0) & (px < sorted_starts[np.maximum(k, 0)] + size - 1.0 / scale)
    return np.where(inside, order[np.maximum(k, 0)], -1)


def _check_scale(scale):
    if isinstance(scale, bool) or not isinstance(scale, (int, np.integer)) or not 1 <= int(scale) <= MAX_SCALE:
        raise LayoutError(f"scale must be an integer from 1 to {MAX_SCALE}, got {scale!r}")
    return int(scale)


def rasterise(scene, scale=1) -> np.ndarray:
    """The scene as an ``(height, width, 3)`` uint8 image, ``scale`` times the picture's size.

    >>> from unilayout.draw.scene import grid_scene
    >>> s = grid_scene("r", 1, 1)
    >>> rasterise(s).shape == (int(s.height), int(s.width), 3)
    True
    """
    from PIL import Image, ImageDraw  # lazy: Pillow costs import time; loaded when a PNG is first drawn

    k = _check_scale(scale)
    pw, ph, notes = scene.measure(svg=False)  # one measurement of the texts and notes (no SvgOnly notes)
    w, h = int(pw) * k, int(ph) * k
    if w * h > MAX_PIXELS:
        raise LayoutError(f"picture of {w}x{h} pixels is too large for PNG (limit {MAX_PIXELS:,}): "
                          "lower max_cells or the scale")
    if scene.drawn.size:
        rows = _axis_lookup(scene.row_y, scene.cell_h, h, k)
        cols = _axis_lookup(scene.col_x, scene.cell_w, w, k)
        R, C = scene.drawn.shape
        # One gather: index R / C (outside every cell) is the white background.
        fill = np.full((R + 1, C + 1, 3), 255, dtype=np.uint8)
        fill[:R, :C] = np.where(scene.drawn[..., None], scene.fill, np.uint8(255))
        canvas = fill[np.where(rows < 0, R, rows)[:, None], np.where(cols < 0, C, cols)[None, :]]
    else:
        canvas = np.full((h, w, 3), 255, dtype=np.uint8)
    image = Image.fromarray(np.ascontiguousarray(canvas), "RGB")
    draw = ImageDraw.Draw(image)
    for x, y, ww, hh, rgb, width, _cls in scene.outlines:
        t = max(1, int(round(width * k)))
        x0, y0 = int(round(x * k)), int(round(y * k))
        x1, y1 = int(round((x + ww) * k)) - 1, int(round((y + hh) * k)) - 1
        if x1 >= x0 and y1 >= y0:
            draw.rectangle((x0, y0, x1, y1), outline=tuple(rgb), width=t)
    for x0, y0, x1, y1, rgb, width, _cls in scene.lines:
        draw.line((x0 * k, y0 * k, x1 * k, y1 * k), fill=tuple(rgb), width=max(1, int(round(width * k))))
    _labels(draw, scene, k)
    for x, y, s, size, anchor, rgb, _cls in scene.texts:
        f = font(int(round((TITLE_PX if size >= 2 else HEADER_PX) * k)))
        draw.text((x * k, y * k), s, fill=tuple(rgb), font=f, anchor={"start": "lm", "end": "rm"}.get(anchor, "mm"))
    f = font(int(round(NOTE_PX * k)))
    for j, line in enumerate(notes):
        draw.text((8.0 * k, scene.note_y(j) * k), line, fill=(51, 51, 51), font=f, anchor="lm")
    return np.asarray(image)


def _labels(draw, scene, k):
    """Every drawn cell's label, centred in its cell; several lines are spaced ``LINE_H`` apart."""
    rr, cc = np.nonzero(scene.drawn & (scene.labels != ""))
    if not rr.size:
        return
    labels = scene.labels[rr, cc].tolist()
    inks = [tuple(c) for c in text_color(scene.fill[rr, cc]).tolist()]
    cx = ((scene.col_x[cc] + scene.cell_w / 2) * k).tolist()
    cy = ((scene.row_y[rr] + scene.cell_h / 2) * k).tolist()
    multi = any("\n" in str(s) for s in labels)
    size = LABEL_PX - 1 if multi else LABEL_PX
    if scene.cell_h < size + 2:  # tiny cells (summaries of huge layouts): no room for text
        return
    f = font(int(round(size * k)))
    step = LINE_H * k
    for s, x, y, ink in zip(labels, cx, cy, inks):
        lines = str(s).split("\n")
        top = y - step * (len(lines) - 1) / 2
        for j, line in enumerate(lines):
            draw.text((x, top + j * step), line, fill=ink, font=f, anchor="mm")


def encode_png(image) -> bytes:
    """PNG bytes of an ``(h, w, 3)`` uint8 image.

    >>> import numpy as np
    >>> png_size(encode_png(np.zeros((2, 5, 3), dtype=np.uint8)))
    (5, 2)
    """
    from PIL import Image  # lazy: Pillow costs import time; loaded when a PNG is first drawn

    image = np.ascontiguousarray(image, dtype=np.uint8)
    if image.ndim != 3 or image.shape[2] != 3:
        raise LayoutError(f"encode_png: expected an (h, w, 3) image, got shape {image.shape}")
    buf = io.BytesIO()
    Image.fromarray(image, "RGB").save(buf, format="PNG", compress_level=6)
    return buf.getvalue()


def to_png(scene, scale=1) -> bytes:
    """PNG bytes of the scene (``scale``: an integer magnification, 1 to ``MAX_SCALE``).

    >>> from unilayout.draw.scene import grid_scene
    >>> to_png(grid_scene("p", 1, 1))[12:16]
    b'IHDR'
    """
    return encode_png(rasterise(scene, scale))


def png_size(data: bytes):
    """``(width, height)`` read from a PNG's IHDR chunk.

    >>> png_size(encode_png(np.zeros((3, 4, 3), dtype=np.uint8)))
    (4, 3)
    """
    if data[:8] != PNG_SIGNATURE or data[12:16] != b"IHDR":
        raise LayoutError("not a PNG: bad signature or missing IHDR")
    return struct.unpack(">II", data[16:24])
