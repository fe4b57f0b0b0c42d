"""Pictures of layouts: SVG written directly (scalable, no LaTeX) and PNG (Pillow, its scalable font), plus text views.

``scene(x)`` builds the picture of any unilayout value; ``to_svg`` /
``to_png`` write it; ``render(x, path)`` picks the format from the suffix.
Every drawn cell is an SVG element with class ``cell`` and ``data-index`` =
its position in the domain order of ``unilayout.index_map``; padding cells of
metal layouts also have class ``padding``.

>>> from unilayout import cute, viz
>>> svg = viz.to_svg(cute.Layout((2, 3), (3, 1)))
>>> svg.count('class="cell"'), 'data-index="5"' in svg
(6, True)
>>> viz.to_png(cute.Layout(4, 1))[:4]
b'\\x89PNG'

This is the value-level face of the pictures (a service above the families):
``scene`` asks the value's family record (``unilayout._families``) for its
picture, which the family draws in its own ``picture.py`` with the neutral
kit ``unilayout.draw`` (the ``Scene`` model, ``svg``, ``png``, ``colors``).
``text`` holds the terminal tables of ``unilayout show`` and ``plan`` the
pictures of reshard plans. The old per-family modules (``viz.cute``,
``viz.linear``, ``viz.box``, ``viz.tt``, ``viz.sharding``, ``viz.cute_mma``) and
the kit's old homes (``viz.picture``, ``viz.svg``, ``viz.png``, ``viz.colors``)
are kept as aliases.
"""

from __future__ import annotations

from .._families import record
from ..draw import FORMATS, picture_format, write
from ..draw.png import to_png as _scene_png
from ..draw.scene import DEFAULT_MAX_CELLS, Scene
from ..draw.svg import to_svg as _scene_svg
from ..errors import LayoutError

__all__ = ["scene", "to_svg", "to_png", "render", "Scene", "DEFAULT_MAX_CELLS", "FORMATS"]

def scene(x, *, color=None, tv=None, shape=None, layout=None, element_bytes=4, max_cells=DEFAULT_MAX_CELLS,
          labels=None) -> Scene:
    """The picture of a unilayout value (or a ``Scene``, returned as is): its family's ``picture``.

    The family comes from ``unilayout._families`` (``record(x).picture``);
    options that do not apply to it raise ``LayoutError``:

    - CuTe ``Layout``/``ComposedLayout`` (a bare ``Swizzle`` as ``viz.cute.swizzle_layout``): ``color``
      ``"index"`` (default), ``"thread"`` or ``"bank"`` (``element_bytes`` per element); with ``tv=(M, N)``
      the layout is a thread-value layout over an M x N tile.
    - ``LinearLayout``: ``color`` ``"thread"`` (default), ``"warp"``, ``"register"``, ``"block"``, ``"index"``.
    - ``TiledStridedLayout``; ``AffineMap`` (needs ``shape``).
    - ``MetalLayout`` (``labels``: label every data cell, default only small pictures); ``Device``
      (optionally with a metal ``layout`` placed on it).

    >>> from unilayout import cute, tsl
    >>> scene(cute.Layout((4, 8), (8, 1)), color="bank").kind
    'layout'
    >>> scene(tsl.parse("#tsl.tsl<[4] -> (1)>"), color="bank")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: colour modes apply to CuTe and linear layouts, not to a tsl value
    """
    if isinstance(x, Scene):
        return x
    if isinstance(x, str):  # record() would read it as a family name
        raise LayoutError(f"no picture for text {x[:40]!r}: read it with unilayout.parse first")
    return record(x).picture(x, color=color, tv=tv, shape=shape, layout=layout, element_bytes=element_bytes,
                             max_cells=max_cells, labels=labels)


def to_svg(x, **options) -> str:
    """SVG text of ``scene(x, **options)``.

    >>> from unilayout import cute
    >>> to_svg(cute.Layout(2, 1)).count("<text class=\\"label\\"")
    2
    """
    return _scene_svg(scene(x, **options))


def to_png(x, *, scale=1, **options) -> bytes:
    """PNG bytes of ``scene(x, **options)``, ``scale`` times the SVG's size (an integer, 1 by default).

    >>> from unilayout import cute
    >>> from unilayout.viz.png import png_size
    >>> w, h = png_size(to_png(cute.Layout(2, 1)))
    >>> png_size(to_png(cute.Layout(2, 1), scale=2)) == (2 * w, 2 * h)
    True
    """
    return _scene_png(scene(x, **options), scale)


def render(x, path, *, scale=1, **options) -> str:
    """Write the picture of ``x`` to ``path`` (``.svg`` or ``.png``, ``scale`` times larger) and return the path.

    >>> import os, tempfile
    >>> from unilayout import cute
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = render(cute.Layout((2, 2)), os.path.join(d, "L.svg"))
    ...     open(p).read().startswith("<svg")
    True
    """
    picture_format(path)  # a bad file name is refused before anything is drawn
    return write(scene(x, **options), path, scale=scale)
