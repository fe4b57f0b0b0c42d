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

__all__ = ["PALETTE", "PADDING", "EMPTY", "categorical", "distinct", "gradient", "text_color", "hex_color"]

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


def _ramp_table(steps=1024):
    pos = np.linspace(0.0, len(_RAMP) - 1, steps)
    k = np.minimum(pos.astype(np.int64), len(_RAMP) - 2)
    f = (pos - k)[:, None]
    return np.rint(_RAMP[k] * (1 - f) + _RAMP[k + 1] * f).astype(np.uint8)


_LUT = _ramp_table()


def categorical(keys) -> np.ndarray:
    """``(N, 3)`` uint8: colour ``PALETTE[key % 12]`` for each integer key (threads, banks, chips).

    >>> categorical([3]).tolist()
    [[251, 128, 114]]
    """
    keys = np.asarray(keys, dtype=np.int64)
    return PALETTE[np.mod(keys, len(PALETTE))]


def distinct(keys, n) -> np.ndarray:
    """``(N, 3)`` uint8: one of ``n`` distinct light colours for each key ``0 <= key < n`` (keys wrap mod ``n``).

    For ``n <= 12`` this is ``categorical``. Above, hues step by the golden
    angle (neighbouring keys, such as lanes 5 and 6, get far-apart hues) with
    two alternating lightness levels, all light enough for black labels:
    every lane of a 64-lane warp has its own colour.

    >>> c = distinct(np.arange(64), 64)
    >>> len({tuple(x) for x in c.tolist()}), int(text_color(c).max())
    (64, 0)
    >>> distinct([3], 8).tolist() == categorical([3]).tolist()
    True
    """
    keys = np.mod(np.asarray(keys, dtype=np.int64), max(int(n), 1))
    if n <= len(PALETTE):
        return PALETTE[keys]
    k = np.arange(int(n), dtype=np.float64)
    hue = np.mod(k * 0.618033988749895, 1.0)
    light = np.where(np.arange(int(n)) % 2 == 0, 0.80, 0.70)
    sat = np.where(np.arange(int(n)) % 3 == 0, 0.55, 0.75)
    table = _hsl_to_rgb(hue, sat, light)
    return table[keys]


def _hsl_to_rgb(h, s, l):
    c = (1 - np.abs(2 * l - 1)) * s
    hp = h * 6.0
    x = c * (1 - np.abs(np.mod(hp, 2) - 1))
    z = np.zeros_like(h)
    sector = np.minimum(hp.astype(np.int64), 5)
    r = np.choose(sector, [c, x, z, z, x, c])
    g = np.choose(sector, [x, c, c, x, z, z])
    b = np.choose(sector, [z, z, x, c, c, x])
    m = l - c / 2
    return np.rint(np.stack([r + m, g + m, b + m], axis=-1) * 255).astype(np.uint8)


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
    if hi <= lo:
        return np.broadcast_to(_LUT[0], v.shape + (3,)).copy()
    # 1024 steps of the ramp looked up by table: one multiply and one gather per value.
    k = np.clip(np.rint((v - lo) * ((len(_LUT) - 1) / (hi - lo))), 0, len(_LUT) - 1).astype(np.intp)
    return _LUT[k]


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
