"""Colours for pictures: a categorical palette, a gradient, and readable text on any fill.

All functions take and return numpy arrays, so colouring every cell of a
picture is one vectorised step.

>>> categorical([0, 1, 12]).tolist()
[[141, 211, 199], [255, 255, 179], [141, 211, 199]]
>>> hex_color((255, 128, 0))
'#ff8000'
"""

from __future__ import annotations

import numpy as np

__all__ = ["PALETTE", "PADDING", "EMPTY", "categorical", "gradient", "text_color", "hex_color"]

# ColorBrewer "Set3" (12 light, distinct colours): dark text stays readable on every one.
PALETTE = np.array(
    [
        (141, 211, 199), (255, 255, 179), (190, 186, 218), (251, 128, 114), (128, 177, 211), (253, 180, 98),
        (179, 222, 105), (252, 205, 229), (217, 217, 217), (188, 128, 189), (204, 235, 197), (255, 237, 111),
    ],
    dtype=np.uint8,
)
#: Fill of padding cells (metal layouts): a dark grey that no palette colour is close to.
PADDING = np.array((96, 96, 96), dtype=np.uint8)
#: Fill of places that hold nothing (an element no hardware unit holds, an unused core).
EMPTY = np.array((245, 245, 245), dtype=np.uint8)

# Anchors of a light-to-dark blue ramp (readable labels need the light end light).
_RAMP = np.array([(240, 249, 255), (189, 215, 238), (107, 174, 214), (49, 130, 189), (8, 69, 148)], dtype=np.float64)


def categorical(keys) -> np.ndarray:
    """``(N, 3)`` uint8: colour ``PALETTE[key % 12]`` for each integer key (threads, banks, chips).

    >>> categorical([3]).tolist()
    [[251, 128, 114]]
    """
    keys = np.asarray(keys, dtype=np.int64)
    return PALETTE[np.mod(keys, len(PALETTE))]


def gradient(values, lo=None, hi=None) -> np.ndarray:
    """``(N, 3)`` uint8: each value's place on a light-to-dark blue ramp between ``lo`` and ``hi``.

    ``lo``/``hi`` default to the values' min and max; a constant input gets the light end.

    >>> gradient([0, 4]).tolist()
    [[240, 249, 255], [8, 69, 148]]
    """
    v = np.asarray(values, dtype=np.float64)
    if v.size == 0:
        return np.zeros(v.shape + (3,), dtype=np.uint8)
    lo = float(v.min()) if lo is None else float(lo)
    hi = float(v.max()) if hi is None else float(hi)
    t = np.zeros_like(v) if hi <= lo else np.clip((v - lo) / (hi - lo), 0.0, 1.0)
    pos = t * (len(_RAMP) - 1)
    k = np.minimum(pos.astype(np.int64), len(_RAMP) - 2)
    f = (pos - k)[..., None]
    rgb = _RAMP[k] * (1 - f) + _RAMP[k + 1] * f
    return np.rint(rgb).astype(np.uint8)


def text_color(fill) -> np.ndarray:
    """``(N, 3)`` uint8: black or white text, whichever reads better on each fill (by luminance).

    >>> text_color([(8, 69, 148), (255, 255, 179)]).tolist()
    [[255, 255, 255], [0, 0, 0]]
    """
    f = np.asarray(fill, dtype=np.float64)
    lum = f[..., 0] * 0.299 + f[..., 1] * 0.587 + f[..., 2] * 0.114
    return np.where((lum < 128)[..., None], np.uint8(255), np.uint8(0)).astype(np.uint8) * np.ones(3, dtype=np.uint8)


def hex_color(rgb) -> str:
    """``#rrggbb`` of one colour.

    >>> hex_color(PADDING)
    '#606060'
    """
    r, g, b = (int(c) for c in rgb)
    return f"#{r:02x}{g:02x}{b:02x}"
