"""The explorer's only two contacts with the rest of unilayout's front end: reading text and drawing.

Both go through the family registry (``unilayout._families``):
``parse_any(text)`` is ``unilayout.parse`` (the family is detected from the
text; empty text is the same ``ParseError`` everywhere); ``picture(value,
shape)`` is the family's ``draw.Scene`` of the value with every cell drawn (no
summary, labels on metal shards), so the explorer shows the same picture as
``unilayout render``. The explorer adds its own per-cell data to the scene
(``scene.attrs``) and writes it with ``unilayout.draw.svg.to_svg``.

>>> from unilayout import family_of
>>> family_of(parse_any("(4,8):(8,1)")), family_of(parse_any("(d0) -> (d0 * 2)"))
('cute', 'affine')
>>> parse_any("(4,8):(8,")
Traceback (most recent call last):
...
unilayout.errors.ParseError: ...
"""

from __future__ import annotations

from .._families import parse, record
from ..draw.scene import DEFAULT_MAX_CELLS

__all__ = ["parse_any", "picture"]


def parse_any(text: str):
    """The layout value that ``text`` describes, in whichever family it is written (``unilayout.parse``).

    Raises ``ParseError`` (with ``position``) for text that does not parse and
    ``LayoutError`` for text that parses into an invalid layout, or for a non-string.

    >>> print(parse_any("#tsl.tsl<[2, 4] -> (32, 4)>"))
    #tsl.tsl<[2, 4] -> (32, 4)>
    >>> parse_any(42)
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: parse: expected text, got int
    """
    return parse(text)


def picture(value, shape=None, max_cells=None, labels=True):
    """The ``draw.Scene`` of ``value``, from its family's record, every cell included (up to ``max_cells``).

    ``shape`` is the box of a value with none of its own (an affine map's), else None.
    Metal layouts label every data cell with its logical index unless
    ``labels`` is false (big pictures).

    >>> from unilayout import cute, tt
    >>> picture(cute.Layout((2, 3), (3, 1))).count_cells()
    6
    >>> from unilayout.draw.svg import to_svg
    >>> big = to_svg(picture(tt.MetalLayout.from_collapse((64, 64), (1, 1)), max_cells=8192, labels=False))
    >>> big.count('class="cell"'), 'class="label"' in big
    (4096, False)
    """
    return record(value).picture(value, shape=shape, max_cells=max_cells or DEFAULT_MAX_CELLS, labels=bool(labels))
