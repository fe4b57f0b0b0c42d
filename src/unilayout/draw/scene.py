"""The picture model every renderer fills and every writer (SVG, PNG) reads.

A :class:`Scene` is a grid of equally sized cells whose rows and columns may
have gaps between groups (shards, chips), plus outlines (tiles, cores, chips)
and free texts (title, headers, notes). Per-cell data are numpy arrays of the
grid's shape, so building and rasterising a picture is vectorised.

>>> s = grid_scene("demo", 2, 3, labels=[["0", "1", "2"], ["3", "4", "5"]])
>>> s.shape, s.count_cells(), round(s.cell_w)
((2, 3), 6, 26)
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

import numpy as np

from ..errors import LayoutError

__all__ = ["Scene", "SvgOnly", "grid_scene", "positions", "band_width", "wrap_bands", "WRAP_COLUMNS", "BAND_GAP", "label_bands", "panel_height", "wrap_panels", "panel_gap",
           "label_panels", "CHAR_W", "LINE_H",
           "DEFAULT_MAX_CELLS", "LABEL_PX", "HEADER_PX", "TITLE_PX", "NOTE_PX", "NOTE_CHARS"]

#: Horizontal room given to one label character, in picture units (= PNG pixels at scale 1; the widest
#: glyph of the 12 px font, ``W``, advances 11 px, digits 7 px).
CHAR_W = 8.0
#: Height of one label line.
LINE_H = 12.0
#: Font sizes in picture units, the same in SVG and PNG: cell labels (one line; 11 for several lines),
#: row/column headers and core names, the title, notes.
LABEL_PX = 12.0
HEADER_PX = 11.0
TITLE_PX = 15.0
NOTE_PX = 12.0
#: Notes wrap at the picture's width, but never narrower than this many characters.
NOTE_CHARS = 72
#: Average advance of a note character (12 px proportional font), used to wrap notes.
_NOTE_ADVANCE = 6.6
#: Cells drawn at most before a renderer crops or summarises (``max_cells=`` raises it).
DEFAULT_MAX_CELLS = 16384

_MARGIN = 8.0
_TITLE_H = 26.0
_HEADER = 14.0


class SvgOnly(str):
    """A note that only the SVG carries: it speaks of what only the SVG has (``data-*`` attributes, hover).

    The PNG writer leaves it out (``Scene.measure(svg=False)``), so a raster
    caption never mentions attributes it does not have.

    >>> s = grid_scene("t", 1, 1)
    >>> s.notes = ["colour: value", SvgOnly("cells carry data-value")]
    >>> s.measure()[2], s.measure(svg=False)[2]
    (['colour: value', 'cells carry data-value'], ['colour: value'])
    """


@dataclass
class Scene:
    """A picture: cells on a grid with gaps, outlines and texts (all in picture units = PNG pixels).

    Per-cell arrays have shape ``(rows, cols)``: ``fill`` (plus a trailing 3 for
    RGB), ``index`` (the cell's position in the domain order of
    ``unilayout.index_map``, -1 where the cell has none), ``drawn`` (draw the
    cell), ``padding`` (a padding slot of a metal layout), ``labels`` (str,
    lines split by ``\\n``), and ``attrs`` (extra ``data-NAME`` integers).

    >>> s = grid_scene("t", 1, 2)
    >>> s.index.tolist(), s.drawn.tolist()
    ([[0, 1]], [[True, True]])
    """

    title: str
    row_y: np.ndarray
    col_x: np.ndarray
    cell_w: float
    cell_h: float
    fill: np.ndarray
    index: np.ndarray
    drawn: np.ndarray
    padding: np.ndarray
    labels: np.ndarray
    attrs: dict = field(default_factory=dict)
    outlines: list = field(default_factory=list)  # (x, y, w, h, rgb, width, cls)
    texts: list = field(default_factory=list)  # (x, y, text, size, anchor, rgb, cls)
    notes: list = field(default_factory=list)
    kind: str = "layout"
    cell_class: str = "cell"
    lines: list = field(default_factory=list)  # (x0, y0, x1, y1, rgb, width, cls): boundaries (warps)
    labels_of: str = ""  # "index" or an attrs name when every label is that array's decimal number, as the picture knows

    @property
    def shape(self):
        """``(rows, cols)`` of the cell grid.

        >>> grid_scene("t", 3, 4).shape
        (3, 4)
        """
        return self.drawn.shape

    def count_cells(self) -> int:
        """Number of drawn cells.

        >>> grid_scene("t", 3, 4).count_cells()
        12
        """
        return int(self.drawn.sum())

    def add_outline(self, x, y, w, h, rgb=(0, 0, 0), width=1.0, cls="outline"):
        """Add a rectangle outline (tiles, cores, chips)."""
        self.outlines.append((float(x), float(y), float(w), float(h), tuple(int(c) for c in rgb), float(width), cls))

    def add_line(self, x0, y0, x1, y1, rgb=(0, 0, 0), width=1.0, cls="line"):
        """Add a straight line (a boundary between cells, e.g. between two warps).

        >>> s = grid_scene("t", 1, 2)
        >>> s.add_line(0, 0, 0, 10, width=2, cls="warp")
        >>> s.lines
        [(0.0, 0.0, 0.0, 10.0, (0, 0, 0), 2.0, 'warp')]
        """
        self.lines.append((float(x0), float(y0), float(x1), float(y1), tuple(int(c) for c in rgb), float(width), cls))

    def add_text(self, x, y, text, size=1, anchor="start", rgb=(0, 0, 0), cls="text"):
        """Add a free text; ``y`` is its vertical centre, ``size`` 1 (headers) or 2 (titles, notes)."""
        self.texts.append((float(x), float(y), str(text), int(size), anchor, tuple(int(c) for c in rgb), cls))

    def cell_box(self, r0, c0, r1, c1):
        """``(x, y, w, h)`` around cells ``r0..r1-1`` x ``c0..c1-1``.

        >>> grid_scene("t", 2, 2).cell_box(0, 0, 2, 2)[2:]
        (52.0, 44.0)
        """
        x0, y0 = self.col_x[c0], self.row_y[r0]
        return float(x0), float(y0), float(self.col_x[c1 - 1] + self.cell_w - x0), float(self.row_y[r1 - 1] + self.cell_h - y0)

    def _right(self) -> float:
        right = float(self.col_x.max() + self.cell_w) if self.col_x.size else 0.0
        texts = [t[0] + len(t[2]) * 4 * (t[3] + 0.5) for t in self.texts if t[4] == "start"]
        return max([right, *texts, 120.0])

    def note_lines(self) -> list:
        """The notes wrapped to the picture's width (at least ``NOTE_CHARS`` characters a line), one str per line.

        >>> s = grid_scene("t", 1, 1)
        >>> s.notes = ["word " * 40]
        >>> lines = s.note_lines()
        >>> len(lines) > 1 and max(map(len, lines)) <= max(NOTE_CHARS, s.width / 6.6)
        True
        """
        return self._wrap(self._right())

    def _wrap(self, right: float, svg: bool = True) -> list:
        chars = max(NOTE_CHARS, int((right - _MARGIN) / _NOTE_ADVANCE))
        out = []
        for note in self.notes:
            if not svg and isinstance(note, SvgOnly):
                continue
            out.extend(textwrap.wrap(str(note), chars, break_on_hyphens=False) or [""])
        return out

    def measure(self, svg: bool = True):
        """``(width, height, note_lines())`` measured at once: writers that need all three call this once.

        ``svg=False`` (the PNG writer) leaves out the ``SvgOnly`` notes.

        >>> s = grid_scene("t", 2, 3)
        >>> s.notes = ["a note"]
        >>> s.measure() == (s.width, s.height, s.note_lines())
        True
        """
        right = self._right()
        notes = self._wrap(right, svg)
        width = float(np.ceil(max([right, *[_MARGIN + len(n) * _NOTE_ADVANCE for n in notes]]) + _MARGIN))
        return width, float(np.ceil(self._bottom() + _MARGIN + LINE_H * 1.5 * len(notes) + _MARGIN)), notes

    def _bottom(self) -> float:
        return float(self.row_y.max() + self.cell_h) if self.row_y.size else _TITLE_H

    @property
    def width(self) -> float:
        """Width of the picture: its cells and texts, and the wrapped notes.

        >>> grid_scene("t", 1, 40).width > 40 * 26
        True
        """
        return self.measure()[0]

    @property
    def height(self) -> float:
        """Height of the picture (wrapped notes included).

        >>> s = grid_scene("t", 1, 1)
        >>> h = s.height
        >>> s.notes = ["a note"]
        >>> s.height - h
        18.0
        """
        return self.measure()[1]

    def note_y(self, k: int) -> float:
        """Vertical centre of (wrapped) note line ``k``: below the cells, one and a half lines apart.

        >>> s = grid_scene("t", 1, 1)
        >>> s.note_y(1) - s.note_y(0) == 1.5 * LINE_H, bool(s.note_y(0) > s.row_y.max() + s.cell_h)
        (True, True)
        """
        return float(self._bottom() + _MARGIN + LINE_H * 1.5 * k + LINE_H * 0.75)


#: Columns of a picture at most before its rows wrap into bands (a readable aspect).
WRAP_COLUMNS = 32


#: Columns of a one-row picture at least after it is folded into rows.
FOLD_COLUMNS = 8


def band_width(rows, cols, cell_w, cell_h):
    """Columns per band of a ``rows x cols`` grid: halve a long row while the picture is over twice as wide as tall.

    A grid of one row (a 1-D layout) folds further, down to ``FOLD_COLUMNS``
    columns: its bands are plain rows (``label_bands`` numbers them by their
    first column), so 2**14 cells become 256 rows of 64 instead of one row
    of 16,384.

    >>> band_width(32, 64, 46, 22), band_width(8, 128, 34, 26), band_width(4, 20, 26, 22), band_width(1, 16384, 48, 22)
    (32, 32, 20, 64)
    """
    w, least = cols, (FOLD_COLUMNS if rows == 1 else WRAP_COLUMNS)
    while w > least and w % 2 == 0 and w * cell_w > 2 * rows * (cols // w) * cell_h:
        w //= 2
    return w


def wrap_bands(a, width):
    """``(R, C, ...)`` -> ``(R * C // width, width, ...)``: band ``b`` holds columns ``b*width .. (b+1)*width - 1``.

    >>> wrap_bands(np.arange(8).reshape(2, 4), 2).tolist()
    [[0, 1], [4, 5], [2, 3], [6, 7]]
    """
    a = np.asarray(a)
    R, C = a.shape[:2]
    if width >= C:
        return a
    bands = C // width
    return a.reshape((R, bands, width) + a.shape[2:]).swapaxes(0, 1).reshape((bands * R, width) + a.shape[2:])


#: Room above each band after the first of a wrapped picture: its label line and its own column headers.
BAND_GAP = LINE_H + 6.0 + _HEADER


def label_bands(scene, rows, width, axis):
    """Space the bands of a wrapped scene apart and head each one: ``axis 32..63`` and its column numbers.

    Pre-condition: ``scene`` was just built by ``grid_scene`` over ``rows * bands``
    rows of ``width`` columns in ``wrap_bands`` order (band ``b`` = rows
    ``b*rows .. (b+1)*rows - 1`` = columns ``b*width ..`` of the unwrapped
    picture), before any outline or line was added. Post-condition: every band
    after the first starts ``BAND_GAP`` lower, under a label naming the
    columns it holds and a header row numbering them (the first band keeps the
    scene's own headers); row headers move with their rows. With ``rows == 1``
    (a folded 1-D picture) the bands stay packed and each row header names
    the band's first column instead.

    >>> s = grid_scene("t", 4, 2)
    >>> label_bands(s, 2, 2, "dim1")
    >>> [t[2] for t in s.texts if t[6] == "band"], [t[2] for t in s.texts if t[6] == "header" and t[4] == "middle"]
    (['dim1 2..3'], ['0', '1', '2', '3'])
    """
    n = scene.shape[0]
    bands = n // rows
    if bands <= 1:
        return
    if rows == 1:  # a folded 1-D picture: each band is one row, named by its first column
        heads = iter(str(b * width) for b in range(bands))
        scene.texts = [t[:2] + (next(heads),) + t[3:] if t[6] == "header" and t[4] == "end" else t
                       for t in scene.texts]
        return
    old = scene.row_y
    band_of = np.arange(n) // rows
    scene.row_y = old + band_of * BAND_GAP
    moved = []
    for t in scene.texts:
        if t[1] > old[0]:  # a text beside a row (its header): moves with its band
            r = min(n - 1, max(0, int(np.searchsorted(old, t[1], side="right")) - 1))
            t = (t[0], t[1] + band_of[r] * BAND_GAP) + t[2:]
        moved.append(t)
    scene.texts = moved
    for b in range(1, bands):
        top = float(scene.row_y[b * rows])
        scene.add_text(scene.col_x[0], top - _HEADER - LINE_H / 2 - 2, f"{axis} {b * width}..{(b + 1) * width - 1}",
                       size=2, rgb=(60, 60, 60), cls="band")
        for c in range(width):
            scene.add_text(scene.col_x[c] + scene.cell_w / 2, top - _HEADER / 2, str(b * width + c),
                           anchor="middle", rgb=(90, 90, 90), cls="header")


def panel_height(rows, cols, cell_w, cell_h):
    """Rows per panel of a tall ``rows x cols`` grid: halve it into side-by-side panels while over twice as tall as wide.

    The counterpart of ``band_width`` for tall pictures (a 3-D layout's
    ``dim0 x dim1`` rows): 512 rows of 32 columns become 2 panels of 256.

    >>> panel_height(512, 32, 46, 22), panel_height(16, 16, 26, 22), panel_height(96, 4, 26, 22)
    (256, 16, 24)
    """
    h = rows
    while h > WRAP_COLUMNS and h % 2 == 0 and h * cell_h > 2 * cols * (rows // h) * cell_w:
        h //= 2
    return h


def wrap_panels(a, height):
    """``(R, C, ...)`` -> ``(height, R // height * C, ...)``: panel ``p`` holds rows ``p*height .. (p+1)*height - 1``.

    >>> wrap_panels(np.arange(8).reshape(4, 2), 2).tolist()
    [[0, 1, 4, 5], [2, 3, 6, 7]]
    """
    a = np.asarray(a)
    R, C = a.shape[:2]
    if height >= R:
        return a
    k = R // height
    return a.reshape((k, height, C) + a.shape[2:]).swapaxes(0, 1).reshape((height, k * C) + a.shape[2:])


def panel_gap(rows):
    """Room between two panels: the row numbers (up to ``rows - 1``) of the panel on the right.

    >>> panel_gap(512) > panel_gap(8)
    True
    """
    return _HEADER * 0.6 * (len(str(max(rows - 1, 0))) + 1) + 6.0


def label_panels(scene, height, cols, names=None):
    """Number the rows of every panel after the first (``grid_scene`` numbered the first one's).

    Pre-condition: ``scene`` was built by ``grid_scene`` over ``height`` rows
    of ``k * cols`` columns in ``wrap_panels`` order, with ``col_group=cols``
    and ``gap=panel_gap(k * height)``. Row ``i`` of panel ``p`` is row
    ``p * height + i`` of the unwrapped picture; ``names`` (a sequence of all
    ``k * height`` names) overrides the numbers.

    >>> s = grid_scene("t", 2, 4, col_group=2, gap=panel_gap(4))
    >>> label_panels(s, 2, 2)
    >>> [t[2] for t in s.texts if t[6] == "header" and t[4] == "end"]
    ['0', '1', '2', '3']
    """
    k = scene.shape[1] // max(cols, 1)
    for p in range(1, k):
        x = float(scene.col_x[p * cols]) - 4
        for i in range(height):
            name = str(p * height + i) if names is None else names[p * height + i]
            scene.add_text(x, scene.row_y[i] + scene.cell_h / 2, name, anchor="end", rgb=(90, 90, 90), cls="header")


def positions(n: int, size: float, origin: float, group: int = 0, gap: float = 0.0) -> np.ndarray:
    """Start of each of ``n`` cells of ``size``, with ``gap`` extra after every ``group`` cells.

    >>> positions(4, 10, 0, group=2, gap=5).tolist()
    [0.0, 10.0, 25.0, 35.0]
    """
    i = np.arange(n, dtype=np.float64)
    extra = (np.arange(n) // group) * gap if group else 0.0
    return origin + i * size + extra


def grid_scene(title, rows, cols, *, labels=None, row_group=0, col_group=0, gap=6.0, headers=True,
               row_names=None, col_names=None, cell_h=None, min_cell_w=26.0, origin=(0.0, 0.0),
               axes=None) -> Scene:
    """A ``rows x cols`` grid of cells under a title, sized so that every label fits.

    ``labels``: array-like of str of shape ``(rows, cols)``; cells default to
    ``index`` = row-major position, drawn, light grey. ``row_group`` /
    ``col_group`` put a ``gap`` after every that many rows / columns.
    ``axes=(row title, column title)`` names the axes: the column title
    above the column numbers, the row title at the corner above the row
    numbers (texts of class ``"axis"``).

    >>> [t[2] for t in grid_scene("t", 2, 2, axes=("m", "n (mode 1)")).texts if t[6] == "axis"]
    ['n (mode 1)', 'm']

    >>> s = grid_scene("t", 2, 2, labels=[["T0\\nV0", "T1\\nV0"], ["T0\\nV1", "T1\\nV1"]])
    >>> s.cell_h
    30.0
    """
    rows, cols = int(rows), int(cols)
    if rows < 0 or cols < 0:
        raise LayoutError(f"a picture needs a non-negative number of rows and columns, got {rows}x{cols}")
    given = labels is not None
    if labels is None:
        labels = np.full((rows, cols), "", dtype=object)
    else:
        labels = np.asarray(labels, dtype=object).reshape(rows, cols)
    lines = 1
    chars = 1
    any_label = given and labels.size and (labels != "").any()
    if any_label:
        strs = labels.astype(str)
        lens = np.char.str_len(strs)
        if (np.char.count(strs, "\n") > 0).any():
            parts = [s.split("\n") for s in strs.reshape(-1).tolist()]
            lines = max(len(p) for p in parts)
            chars = max(len(q) for p in parts for q in p)
        else:
            chars = int(lens.max()) if lens.size else 1
    cell_w = max(float(min_cell_w), CHAR_W * chars + 8.0) if any_label else float(min_cell_w)
    if cell_h is None:
        cell_h = 22.0 if lines <= 1 else 6.0 + LINE_H * lines
    left = _MARGIN + origin[0] + (_HEADER * 0.6 * (len(str(max(rows - 1, 0))) + 1) if headers else 0.0)
    top = _MARGIN + origin[1] + _TITLE_H + (_HEADER if headers else 0.0) + (_HEADER + 2 if axes else 0.0)
    row_y = positions(rows, cell_h, top, row_group, gap)
    col_x = positions(cols, cell_w, left, col_group, gap)
    scene = Scene(
        title=str(title), row_y=row_y, col_x=col_x, cell_w=cell_w, cell_h=float(cell_h),
        fill=np.full((rows, cols, 3), 230, dtype=np.uint8),
        index=np.arange(rows * cols, dtype=np.int64).reshape(rows, cols),
        drawn=np.ones((rows, cols), dtype=bool), padding=np.zeros((rows, cols), dtype=bool), labels=labels,
    )
    scene.add_text(_MARGIN, _MARGIN + _TITLE_H / 2 - 2, title, size=2, cls="title")
    if headers:
        rn = range(rows) if row_names is None else row_names
        cn = range(cols) if col_names is None else col_names
        for r, name in zip(range(rows), rn):
            scene.add_text(left - 4, row_y[r] + cell_h / 2, name, anchor="end", rgb=(90, 90, 90), cls="header")
        for c, name in zip(range(cols), cn):
            scene.add_text(col_x[c] + cell_w / 2, top - _HEADER / 2, name, anchor="middle", rgb=(90, 90, 90), cls="header")
    if axes:
        y = top - (_HEADER if headers else 0.0) - _HEADER / 2 - 2
        mid = (col_x[0] + col_x[-1] + cell_w) / 2 if cols else left
        scene.add_text(mid, y, axes[1], anchor="middle", rgb=(40, 40, 40), cls="axis")
        scene.add_text(left - 4, y, axes[0], anchor="end", rgb=(40, 40, 40), cls="axis")
    return scene
