"""PNG output with numpy and zlib only: rasterise a Scene, draw labels with a built-in 3x5 bitmap font.

Cells are painted in one vectorised step (each pixel looks up its row and
column), labels are blitted all at once from a glyph table, and the image is
encoded as an 8-bit RGB PNG (filter 0 per row, one zlib stream).

>>> from unilayout.viz.picture import grid_scene
>>> data = to_png(grid_scene("png", 2, 3, labels=[["0", "1", "2"], ["3", "4", "5"]]))
>>> data[:8] == PNG_SIGNATURE, png_size(data)
(True, (128, 104))
"""

from __future__ import annotations

import struct
import zlib

import numpy as np

from ..errors import LayoutError
from .colors import text_color

__all__ = ["to_png", "encode_png", "png_size", "PNG_SIGNATURE", "MAX_PIXELS"]

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: Largest picture written (width x height); bigger scenes raise LayoutError (crop with max_cells).
MAX_PIXELS = 64_000_000

# 3x5 glyphs: five rows of three bits (4 = left column), one octal digit per row.
_GLYPHS = {
    "0": "75557", "1": "26227", "2": "71747", "3": "71717", "4": "55711", "5": "74717", "6": "74757",
    "7": "71111", "8": "75757", "9": "75717", "A": "25755", "B": "65656", "C": "34443", "D": "65556",
    "E": "74647", "F": "74644", "G": "34553", "H": "55755", "I": "72227", "J": "11152", "K": "55655",
    "L": "44447", "M": "57755", "N": "65555", "O": "25552", "P": "65644", "Q": "25563", "R": "65655",
    "S": "34216", "T": "72222", "U": "55557", "V": "55552", "W": "55775", "X": "55255", "Y": "55222",
    "Z": "71247", " ": "00000", "(": "12221", ")": "42224", "[": "32223", "]": "62226", ",": "00024",
    ".": "00002", ":": "02020", "-": "00700", "+": "02720", "=": "07070", "x": "00525", "*": "05250",
    "/": "11244", "_": "00007", "<": "12421", ">": "42124", "#": "57575", "?": "61202", "!": "22202",
    "%": "51245", "|": "22222", ";": "02024", "'": "22000", '"': "55000", "{": "32623", "}": "62326",
    "@": "75747", "&": "25356", "^": "25000", "~": "03600", "$": "36736", "\\": "44211",
}
_ORDER = list(_GLYPHS)
_CODE = {ch: k for k, ch in enumerate(_ORDER)}
_UNKNOWN = _CODE["?"]
_BITMAPS = np.array(
    [[[(int(d, 8) >> (2 - b)) & 1 for b in range(3)] for d in _GLYPHS[ch]] for ch in _ORDER], dtype=bool
)  # (glyphs, 5, 3)


def _code(ch: str) -> int:
    k = _CODE.get(ch)
    if k is None:
        k = _CODE.get(ch.upper(), _UNKNOWN)
    return k


# ASCII code point -> glyph (lowercase drawn as uppercase, except 'x'); anything else is '?'.
_LUT = np.array([_code(chr(i)) for i in range(128)], dtype=np.int64)


def _blit(canvas, strings, xs, ys, anchors, colors, scale):
    """Draw texts (one line each) centred vertically on ys; anchors 'start'/'middle'/'end'."""
    if not strings:
        return
    n = len(strings)
    arr = np.asarray(strings, dtype=str)
    width = max(1, arr.dtype.itemsize // 4)
    arr = arr.astype(f"<U{width}")
    points = arr.view(np.uint32).reshape(n, width)
    lens = np.char.str_len(arr).astype(np.int64)
    codes = np.where(points < 128, _LUT[np.minimum(points, 127)], _UNKNOWN)
    codes[points == 0] = _CODE[" "]
    glyphs = np.zeros((n, width, 5, 4), dtype=bool)
    glyphs[..., :3] = _BITMAPS[codes]
    bitmap = glyphs.transpose(0, 2, 1, 3).reshape(n, 5, width * 4)
    if scale > 1:
        bitmap = bitmap.repeat(scale, axis=1).repeat(scale, axis=2)
    tw = (lens * 4 - 1) * scale
    xs = np.asarray(xs, dtype=np.float64)
    anchors = np.asarray(anchors)
    x0 = np.where(anchors == "middle", xs - tw / 2, np.where(anchors == "end", xs - tw, xs))
    y0 = np.asarray(ys, dtype=np.float64) - 5 * scale / 2
    k, yy, xx = np.nonzero(bitmap)
    X = np.rint(x0[k]).astype(np.int64) + xx
    Y = np.rint(y0[k]).astype(np.int64) + yy
    ok = (X >= 0) & (X < canvas.shape[1]) & (Y >= 0) & (Y < canvas.shape[0])
    canvas[Y[ok], X[ok]] = np.asarray(colors, dtype=np.uint8)[k[ok]]


def _axis_lookup(starts, size, n_px):
    """For each pixel centre: the cell it falls in (or -1) along one axis; a 1-px border is left."""
    px = np.arange(n_px, dtype=np.float64) + 0.5
    k = np.searchsorted(starts, px, side="right") - 1
    inside = (k >= 0) & (px < starts[np.maximum(k, 0)] + size - 1)
    return np.where(inside, k, -1)


def rasterise(scene) -> np.ndarray:
    """The scene as an ``(height, width, 3)`` uint8 image.

    >>> from unilayout.viz.picture import grid_scene
    >>> rasterise(grid_scene("r", 1, 1)).shape
    (82, 128, 3)
    """
    w, h = int(scene.width), int(scene.height)
    if w * h > MAX_PIXELS:
        raise LayoutError(f"picture of {w}x{h} pixels is too large for PNG (limit {MAX_PIXELS:,}): lower max_cells")
    if scene.drawn.size:
        rows = _axis_lookup(scene.row_y, scene.cell_h, h)
        cols = _axis_lookup(scene.col_x, scene.cell_w, w)
        R, C = scene.drawn.shape
        # One gather: index R / C (outside every cell) is the white background.
        fill = np.full((R + 1, C + 1, 3), 255, dtype=np.uint8)
        fill[:R, :C] = np.where(scene.drawn[..., None], scene.fill, np.uint8(255))
        canvas = fill[np.where(rows < 0, R, rows)[:, None], np.where(cols < 0, C, cols)[None, :]]
    else:
        canvas = np.full((h, w, 3), 255, dtype=np.uint8)
    for x, y, ww, hh, rgb, width, _cls in scene.outlines:
        t = max(1, int(round(width)))
        x0, y0 = int(round(x)), int(round(y))
        x1, y1 = int(round(x + ww)), int(round(y + hh))
        x0, y0 = max(x0, 0), max(y0, 0)
        canvas[y0 : y0 + t, x0:x1] = rgb
        canvas[max(y1 - t, 0) : y1, x0:x1] = rgb
        canvas[y0:y1, x0 : x0 + t] = rgb
        canvas[y0:y1, max(x1 - t, 0) : x1] = rgb
    # Labels: one blit for all lines of all cells.
    rr, cc = np.nonzero(scene.drawn & (scene.labels != ""))
    if rr.size:
        labels = scene.labels[rr, cc].tolist()
        inks = text_color(scene.fill[rr, cc])
        parts = [str(s).split("\n") for s in labels]
        longest = max(len(q) for p in parts for q in p)
        scale = 2 if longest * 8 <= scene.cell_w - 2 and scene.cell_h >= 12 * max(len(p) for p in parts) else 1
        cx = scene.col_x[cc] + scene.cell_w / 2
        cy = scene.row_y[rr] + scene.cell_h / 2
        step = 6 * scale
        if all(len(p) == 1 for p in parts):
            strings, xs, ys, cols = labels, cx, cy, inks
        else:
            strings, xs, ys, cols = [], [], [], []
            for k, p in enumerate(parts):
                top = cy[k] - step * (len(p) - 1) / 2
                for j, line in enumerate(p):
                    strings.append(line)
                    xs.append(cx[k])
                    ys.append(top + j * step)
                    cols.append(inks[k])
        _blit(canvas, strings, xs, ys, ["middle"] * len(strings), cols, scale)
    for scale in (1, 2):  # free texts, one blit per font scale
        group = [t for t in scene.texts if (2 if t[3] >= 2 else 1) == scale]
        if group:
            _blit(canvas, [t[2] for t in group], [t[0] for t in group], [t[1] for t in group], [t[4] for t in group],
                  [t[5] for t in group], scale)
    if scene.notes:
        _blit(canvas, list(scene.notes), [8.0] * len(scene.notes), [scene.note_y(k) for k in range(len(scene.notes))],
              ["start"] * len(scene.notes), [(51, 51, 51)] * len(scene.notes), 2)
    return canvas


def encode_png(image) -> bytes:
    """PNG bytes of an ``(h, w, 3)`` uint8 image.

    >>> import numpy as np
    >>> png_size(encode_png(np.zeros((2, 5, 3), dtype=np.uint8)))
    (5, 2)
    """
    image = np.ascontiguousarray(image, dtype=np.uint8)
    if image.ndim != 3 or image.shape[2] != 3:
        raise LayoutError(f"encode_png: expected an (h, w, 3) image, got shape {image.shape}")
    h, w, _ = image.shape
    raw = np.zeros((h, 1 + 3 * w), dtype=np.uint8)
    raw[:, 1:] = image.reshape(h, 3 * w)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return PNG_SIGNATURE + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw.tobytes(), 6)) + chunk(b"IEND", b"")


def to_png(scene) -> bytes:
    """PNG bytes of the scene.

    >>> from unilayout.viz.picture import grid_scene
    >>> to_png(grid_scene("p", 1, 1))[12:16]
    b'IHDR'
    """
    return encode_png(rasterise(scene))


def png_size(data: bytes):
    """``(width, height)`` read from a PNG's IHDR chunk.

    >>> png_size(encode_png(np.zeros((3, 4, 3), dtype=np.uint8)))
    (4, 3)
    """
    if data[:8] != PNG_SIGNATURE or data[12:16] != b"IHDR":
        raise LayoutError("not a PNG: bad signature or missing IHDR")
    return struct.unpack(">II", data[16:24])
