"""The explorer's only two contacts with the rest of unilayout's front end: reading text and drawing.

``parse_any(text)`` is ``unilayout.parse`` (the family is detected from the
text) with a check that the text is a non-empty string; ``picture(value,
shape)`` is ``unilayout.viz``'s SVG of the value with every cell drawn (no
summary, labels on metal shards), so the explorer shows the same picture
as ``unilayout render``.

>>> type(parse_any("(4,8):(8,1)")).__name__, type(parse_any("(d0) -> (d0 * 2)")).__name__
('Layout', 'AffineMap')
>>> parse_any("(4,8):(8,")
Traceback (most recent call last):
...
unilayout.errors.ParseError: ...
"""

from __future__ import annotations

from ..errors import LayoutError, ParseError

__all__ = ["parse_any", "picture"]


def parse_any(text: str):
    """The layout value that ``text`` describes, in whichever family it is written.

    Raises ``ParseError`` (with ``position``) for text that does not parse and
    ``LayoutError`` for text that parses into an invalid layout.

    >>> print(parse_any("#tsl.tsl<[2, 4] -> (32, 4)>"))
    #tsl.tsl<[2, 4] -> (32, 4)>
    >>> parse_any(42)
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: layout text must be a string, got int
    """
    if not isinstance(text, str):
        raise LayoutError(f"layout text must be a string, got {type(text).__name__}")
    if not text.strip():
        raise ParseError("expected layout text, got nothing", text, 0)
    import unilayout

    return unilayout.parse(text)


def picture(value, shape=None, max_cells=None, labels=True) -> str:
    """SVG text of ``value`` drawn by ``unilayout.viz``, every cell included (up to ``max_cells``).

    Cells are ``<g class="cell" data-index="i" ...>``; metal layouts label every
    data cell with its logical index unless ``labels`` is false (big pictures).

    >>> from unilayout import cute
    >>> picture(cute.Layout((2, 3), (3, 1))).count('class="cell"')
    6
    >>> from unilayout import tt
    >>> big = picture(tt.MetalLayout.from_collapse((64, 64), (1, 1)), max_cells=8192, labels=False)
    >>> big.count('class="cell"'), 'class="label"' in big
    (4096, False)
    """
    from .. import tt, viz
    from ..viz import tt as viz_tt
    from ..viz.svg import to_svg

    limit = max_cells or viz.DEFAULT_MAX_CELLS
    if isinstance(value, tt.MetalLayout):
        return to_svg(viz_tt.metal_scene(value, max_cells=limit, labels=bool(labels)))
    return viz.to_svg(value, shape=shape, max_cells=limit)
