"""What the explorer shows: a layout as cells on a grid, each with its details and groups.

``layout_view(value)`` turns any layout value into a JSON-ready dict, from
its family's record alone (``unilayout._families.record``): the record's
``cells`` hook gives the data of every drawn cell (``_family.Cells``), its
``picture`` the drawing, ``facts`` what ``unilayout show`` says. No family is
named here; a new family's values are drawn as soon as it is registered.

Up to ``canvas.SVG_CELLS`` (4096) cells the picture is one ``<svg>`` with
per-cell markup and details (below); above, ``svg`` is empty,
``details``/``groups`` are empty and ``canvas`` carries the same picture as
compact typed arrays (``unilayout.explorer.canvas``; every cell's
``data-index`` and attributes, so hovering shows the same data), drawn by the
page on a ``<canvas id="layout-canvas">`` with zoom, pan and fit. Up to
``MAX_CANVAS_CELLS`` cells are drawn; bigger layouts are cropped to their
top-left block or summarised (metal layouts per core, distributed linear
layouts per warp; a note says so), never refused for their size. A family
whose cells are always few (``Family.canvas`` false: a sharding's blocks, a
TiledMMA's operand cells) is always drawn cell by cell. The keys:

- ``svg``: the family's picture, one ``<svg>`` in which every drawn cell is
  ``<g class="cell" data-index=".." ... data-cell="k">`` (``padding`` added
  for padding slots of a metal layout); ``data-index`` is the cell's
  position in the domain order of ``unilayout.index_map`` (-1 for padding),
  ``data-cell`` its row in ``details``;
- ``columns`` / ``details``: one row of strings per drawn cell (logical index,
  offset, coordinates, thread/value or register/lane/warp, core, padding ...);
- ``groups``: for each way of grouping (same offset, same thread, same shard,
  same bank ...) one integer per cell; cells with equal numbers belong together;
- ``keys``: values that tie a cell to cells of another view (CuTe: ``index``
  and ``offset``; linear: ``element``, the tensor element's row-major
  position), used by the side-by-side panels;
- ``family`` (as ``unilayout.family_of``; a TiledMMA: ``cute.TiledMMA``),
  ``title``, ``text`` (the canonical text of the value; the text read when it
  has none), ``summary``, ``facts``, ``count`` (drawn cells), ``total`` (every
  cell of the layout), ``padding`` (padding cells drawn);
- ``note``: what a big picture leaves out, else ``""`` (the page shows it
  next to the summary): more than ``LABELLED_CELLS`` cells are drawn without
  labels; a layout of more than ``MAX_CELLS`` cells is drawn cropped to its
  top-left ``CROP_CELLS`` or so (as ``unilayout.viz`` crops), and ``count`` /
  ``details`` cover the drawn cells only;
- what a family adds (``Cells.extras``): ``cores`` for metal layouts (one row
  per core: grid coordinate, chip and core, data extent, padding per dim,
  padding slots), ``thread_cells`` for a TiledMMA/TiledCopy.

What a cell is in each family is said where the family draws:
``cute.picture``, ``linear.picture``, ``affine.picture``, ``tsl.picture``,
``tt.picture`` (metal layouts, devices), ``xla.picture``,
``sharding.picture``; a family without a ``cells`` hook of its own shows
each point of its box, its coordinate and its value (``Family.cells``).

>>> from unilayout import cute
>>> v = layout_view(cute.Layout((2, 3), (3, 1)))
>>> v["family"], v["count"], v["svg"].count('class="cell"')
('cute', 6, 6)
>>> dict(zip(v["columns"], v["details"][1]))["offset"]
'3'
"""

from __future__ import annotations

import logging

import numpy as np

from .. import facts
from .._families import read, record
from ..draw.cells import CROP_CELLS, LABELLED_CELLS, MAX_CANVAS_CELLS, MAX_CELLS, MAX_DOMAIN, ints, rows, strs
from ..draw.svg import to_svg
from ..errors import LayoutError
from .adapter import picture
from .canvas import MAX_LABELS, SVG_CELLS, payload

_log = logging.getLogger(__name__)

__all__ = ["layout_view", "text_view", "view_of", "svg_view", "tiled_view", "MAX_CELLS", "LABELLED_CELLS",
           "CROP_CELLS", "MAX_DOMAIN", "MAX_CANVAS_CELLS", "DEFAULT_AFFINE_EXTENT"]  # noqa: F822 (from __getattr__)


def __getattr__(name):
    """``DEFAULT_AFFINE_EXTENT``, the affine family's default box extent, read from ``affine.picture`` when asked."""
    if name == "DEFAULT_AFFINE_EXTENT":
        from ..affine.picture import DEFAULT_AFFINE_EXTENT  # lazy: the explorer loads no family until one is asked

        return DEFAULT_AFFINE_EXTENT
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _cell_numbers(scene, cells):
    """``data-cell`` of every cell of ``scene`` (its row in ``details``; -1 where nothing is drawn).

    A cell's row is found as ``cells.match`` says: from the scene's own
    ``index`` (the domain position listed in ``cells.index``), from a scene
    attribute holding the row (metal shards: ``slot``), or in the order the
    cells are drawn (``"drawn"``). Every row must be drawn exactly once.
    """
    drawn = scene.drawn
    n = cells.rows
    if cells.match == "drawn":
        found = np.arange(int(np.count_nonzero(drawn)), dtype=np.int64)
    elif cells.match == "index":
        index = np.asarray(cells.index, dtype=np.int64)
        order = np.argsort(index, kind="stable")
        known = index[order]
        at = scene.index[drawn]
        pos = np.minimum(np.searchsorted(known, at), max(known.size - 1, 0))
        if known.size == 0 or not (known[pos] == at).all():
            if at.size:
                bad = at[known[pos] != at][0] if known.size else at[0]
                raise LayoutError(f"the picture has a cell with data-index {int(bad)} that the explorer does not know")
        found = order[pos] if known.size else pos
    else:
        found = scene.attrs[cells.match][drawn]
    if not np.array_equal(np.sort(found), np.arange(n)):
        raise LayoutError(f"the picture draws {found.size} cells but the explorer describes {n}")
    cell = np.full(drawn.shape, -1, dtype=np.int64)
    cell[drawn] = found
    return cell


def _column(values) -> list:
    return strs(values) if isinstance(values, np.ndarray) else values


def _finish(c, source=None) -> dict:
    """The per-cell (``<svg>``) view of the ``Cells`` ``c``; ``source``: the text read, if any."""
    n = c.rows
    scene = c.scene
    note = c.note
    if scene is None:
        scene = picture(c.value, c.shape, max_cells=CROP_CELLS if c.note else MAX_CELLS, labels=n <= LABELLED_CELLS)
        if not note and n > LABELLED_CELLS:
            note = f"large picture: all {n:,} cells are drawn without labels; hover or click a cell for its details"
    if c.note:
        note += "; hover or click a drawn cell for its details"
    scene.attrs["cell"] = _cell_numbers(scene, c)
    if c.facts is None:
        d = facts.describe(c.value, c.shape)
        fact_rows, summary = [[k, v] for k, v in facts.fact_lines(d)], f"{c.summary}; {facts.summary(d)}"
    else:
        fact_rows, summary = c.facts, c.summary
    view = {
        "note": note,
        "total": n if c.total is None else int(c.total),
        "keys": {name: ints(vals) for name, vals in c.keys.items()},
        "family": c.family or record(c.value).name,
        "title": c.title,
        "text": c.text if c.text is not None else source,
        "count": n,
        "summary": summary,
        "facts": fact_rows,
        "columns": list(c.columns),
        "details": rows(*map(_column, c.columns.values())),
        "groups": {name: ints(vals) for name, vals in c.groups.items()},
        "padding": 0 if c.padding is None else int(np.count_nonzero(c.padding)),
        "svg": to_svg(scene),
    }
    view.update(c.extras)
    return view


def _canvas_view(c, total) -> dict:
    """The view of a layout of more than ``SVG_CELLS`` cells: its picture as a canvas payload, details per cell
    from the payload's arrays (``canvas.payload``), no per-cell markup."""
    scene = c.scene
    if scene is None:
        scene = picture(c.value, c.shape, max_cells=MAX_CANVAS_CELLS, labels=total <= MAX_LABELS)
    d = facts.describe(c.value, c.shape)
    family = c.family or record(c.value).name
    drawn = scene.count_cells()
    what = scene.cell_class if scene.cell_class in ("core", "warp") else "cell"
    note = (f"large picture: {drawn:,} {what}s drawn on a canvas (wheel or buttons: zoom, drag: pan, Fit: whole "
            f"picture); hover or click a {what} for its details")
    crop = [n for n in scene.notes if n.startswith(("showing", "summary"))][:1]
    if crop:
        note += "; " + crop[0]
    view = {
        "note": note, "total": int(total), "keys": {}, "family": family, "title": scene.title,
        "text": facts.canonical_text(c.value), "count": drawn,
        "summary": f"{family} layout, {int(total):,} cells" +
                   (f" (summarised per {what})" if scene.cell_class != "cell" else "") +
                   f"; {facts.summary(d)}",
        "facts": [[k, v] for k, v in facts.fact_lines(d)], "columns": [], "details": [], "groups": {},
        "padding": int(np.count_nonzero(scene.padding)), "svg": "", "canvas": payload(scene),
    }
    view.update(c.extras)
    return view


def _summary_facts(value, shape, total) -> list:
    """The facts of a layout too big to tabulate here: what its record says without evaluating it."""
    rec = record(value)
    box = rec.box(value)
    if box is None:
        box = shape if shape is not None else rec.default_shape(value)
    rows = [["family", rec.name], ["text", facts.canonical_text(value)], ["size", f"{int(total):,}"]]
    if box is not None:
        rows.append(["shape", "x".join(str(int(b)) for b in box) or "a point"])
    rows.append(["note", f"{int(total):,} cells are more than the {MAX_CANVAS_CELLS:,} the explorer tabulates: "
                         "injectivity and contiguity not computed here (unilayout show computes them)"])
    return rows


def _no_picture_svg(message) -> str:
    """A one-line ``<svg>`` standing for the picture of a layout too big to draw even in part."""
    from xml.sax.saxutils import escape  # lazy: only a layout too big to draw needs it

    width = 16 + 7 * len(message)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="summary-only" width="{width}" height="40" '
            f'viewBox="0 0 {width} 40"><text x="8" y="25" font-family="sans-serif" font-size="12">'
            f"{escape(message)}</text></svg>")


def _summary_view(value, shape, total) -> dict:
    """The view of a layout of more than ``MAX_CANVAS_CELLS`` cells: a summary, bounded in time and memory.

    Its top-left block of about ``CROP_CELLS`` cells is drawn (on the canvas),
    as the family's picture crops (a metal layout: per core); the facts are
    the record's own, not tabulated. A layout whose family cannot draw even a
    block of it (a box past int64 positions) gets no picture: the summary
    says its size and why.
    """
    rec = record(value)
    family = rec.name
    what = f"{family} layout, {int(total):,} cells"
    scene, extras = None, {}
    try:
        c = rec.cells(value, shape, details=False)  # a family may summarise a big value its own way (per warp)
        family, extras = c.family or family, c.extras
        box = shape if shape is not None or rec.box(value) is not None else rec.default_shape(value)
        scene = c.scene if c.scene is not None else picture(value, box, max_cells=CROP_CELLS, labels=True)
        why = ""
    except LayoutError as exc:  # the family cannot draw even a block of it: say why, keep the summary
        why = f"no picture: {exc}"
    except (ValueError, OverflowError, MemoryError) as exc:  # a box past int64 in the family's drawing: no picture
        _log.info("the %s picture of a %s-cell layout failed: %r", family, total, exc)
        why = f"no picture: {int(total):,} cells are past what a picture can index (int64 positions)"
    view = {"total": int(total), "total_text": f"{int(total):,}", "keys": {}, "family": family, "text": facts.canonical_text(value),
            "facts": _summary_facts(value, shape, total), "columns": [], "details": [], "groups": {}, "padding": 0}
    if scene is None:
        view.update(note=f"summary: {why}", title=what, count=0, summary=f"{what} (summarised)",
                    svg=_no_picture_svg(f"{what}: too many to draw; the facts say what it is"))
        return view
    drawn = scene.count_cells()
    cell = scene.cell_class if scene.cell_class in ("core", "warp") else "cell"
    crop = [n for n in scene.notes if n.startswith(("showing", "summary"))][:1]
    per = f" per {cell}" if cell != "cell" else ""
    view.update(
        note=(f"summary: {int(total):,} cells are more than the {MAX_CANVAS_CELLS:,} the explorer draws; "
              f"{drawn:,} {cell}s drawn" + (f" ({crop[0]})" if crop else "") + f"; hover or click a {cell} for its "
              "details"),
        title=scene.title, count=drawn, summary=f"{what} (summarised{per})",
        padding=int(np.count_nonzero(scene.padding)), svg="", canvas=payload(scene))
    view.update(extras)
    return view


def view_of(value, shape=None, source=None) -> dict:
    """The view of ``value`` as it is (``shape``: the box of a value with none of its own, e.g. an affine map's).

    ``source`` is the text ``value`` was read from, shown when the value has
    no canonical text. Above ``canvas.SVG_CELLS`` cells (and when its family
    allows), the picture goes on a canvas; above ``MAX_CANVAS_CELLS`` the
    layout is summarised (``_summary_view``: a block of it drawn, its size
    stated), in bounded time and memory whatever its size.

    >>> from unilayout import tsl
    >>> v = view_of(tsl.parse("#tsl.tsl<[4611686018427387904] -> (1)>"))
    >>> v["summary"], v["count"] <= CROP_CELLS
    ('tsl layout, 4,611,686,018,427,387,904 cells (summarised)', True)
    """
    rec = record(value)
    total = rec.size(value, shape) if rec.canvas else 0
    if total > MAX_CANVAS_CELLS:
        return _summary_view(value, shape, total)
    big = total > SVG_CELLS
    c = rec.cells(value, shape, details=not big)
    return _canvas_view(c, total) if big else _finish(c, source)


def svg_view(value, shape=None) -> dict:
    """The per-cell (``<svg>``) view of ``value`` at any size (up to ``MAX_CELLS``; bigger boxes cropped).

    >>> from unilayout import cute
    >>> svg_view(cute.Layout(8192, 1))["count"]
    8192
    """
    return _finish(record(value).cells(value, shape))


def layout_view(value, shape=None):
    """The explorer's view of a layout value (see the module docstring for the keys).

    ``shape`` is what the family's ``with_shape`` makes of the value (the
    tensor shape that resolves a dynamic TSL's ``?`` values, a TTNN memory
    config's tensor) and the box an affine map is drawn on (default
    ``DEFAULT_AFFINE_EXTENT`` per dim); families with a box of their own
    ignore it. Above ``canvas.SVG_CELLS`` cells the view carries a ``canvas``
    payload instead of ``svg`` and per-cell ``details`` (the page draws it on
    a ``<canvas>``).

    >>> from unilayout import tt
    >>> v = layout_view(tt.MetalLayout.from_collapse((53, 63), (3, 2)))
    >>> v["count"], v["padding"], v["svg"].count('class="cell padding"')
    (3456, 117, 117)
    >>> layout_view("not a layout")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: the explorer draws layout values; read text with text_view, got 'not a layout'
    """
    if isinstance(value, str):
        raise LayoutError(f"the explorer draws layout values; read text with text_view, got {value[:40]!r}")
    if shape is not None:
        value = record(value).with_shape(value, tuple(int(s) for s in shape))
    return view_of(value, shape)


def text_view(text, shape=None, *, mesh=None, mesh_shape=None):
    """Read ``text`` (any family, through ``unilayout._families.read``) and return its view; errors are unilayout's.

    ``shape`` is given to the reader (a sharding's tensor, a TTNN memory
    config's, a dynamic TSL's) and is the box of a value without one (an
    affine map); ``mesh``/``mesh_shape`` name a sharding's mesh.

    >>> v = text_view("#ttg.linear<{register = [[1, 0]], lane = [[0, 1], [0, 0]], warp = [], block = []}>")
    >>> v["family"], v["count"], v["columns"][:2]
    ('linear', 4, ['tensor coordinate', 'input index'])
    >>> text_view("{devices=[2,1,2]<=[4] last_tile_dim_replicate}", (8, 6))["details"][1]
    ['[4:8, 0:6]', '2, 3', 'no']
    """
    value = read(text, shape=shape, mesh=mesh, mesh_shape=mesh_shape)
    return view_of(value, shape, source=text.strip())


def tiled_view(tiled):
    """The view of a ``cute.TiledMMA`` or ``cute.TiledCopy``: ``layout_view`` (kept as an alias).

    Its cells come from ``cute.picture.tiled_cells``: every operand cell, the
    first grouping ``thread``, ``thread_cells[t]`` every row thread t holds.

    >>> from unilayout import cute
    >>> v = tiled_view(cute.make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN"))
    >>> v["family"], v["count"], list(v["groups"])[0], v["columns"][:3]
    ('cute.TiledMMA', 320, 'thread', ['operand', 'coordinate', 'thread'])
    """
    return layout_view(tiled)
