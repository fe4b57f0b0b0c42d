"""The neutral picture kit (ground floor): scenes of coloured, labelled cells and their SVG and PNG writers.

No family is named here. A family's ``picture.py`` builds a ``Scene`` with
``grid_scene`` (or ``box_scene`` for a function over a box) and this kit
writes it: ``to_svg`` (standalone, scalable, no LaTeX), ``to_png`` (Pillow,
its scalable font), ``write(scene, path)`` by suffix. ``unilayout.viz`` is the
value-level face above the families that picks each value's picture.

>>> from unilayout import draw
>>> s = draw.box_scene("squares", [0, 1, 4, 9], (2, 2))
>>> draw.to_svg(s).count('class="cell"'), draw.to_png(s)[:4]
(4, b'\\x89PNG')
"""

from __future__ import annotations

import os

from ..errors import LayoutError
from .grid import box_scene, crop
from .png import to_png
from .scene import DEFAULT_MAX_CELLS, Scene, SvgOnly, grid_scene
from .svg import to_svg

__all__ = ["Scene", "SvgOnly", "grid_scene", "box_scene", "crop", "to_svg", "to_png", "write", "picture_format", "DEFAULT_MAX_CELLS", "FORMATS"]

#: The picture formats ``write`` knows, by file suffix.
FORMATS = (".svg", ".png")


def picture_format(path) -> str:
    """``".svg"`` or ``".png"``: the format the file name ``path`` asks for (else a ``LayoutError``).

    >>> picture_format("out/L.PNG")
    '.png'
    """
    path = os.fspath(path)
    ext = os.path.splitext(path)[1].lower()
    if ext not in FORMATS:
        raise LayoutError(f"cannot write {path!r}: the file name must end in .svg or .png")
    return ext


def write(scene, path, *, scale=1) -> str:
    """Write ``scene`` to ``path`` (``.svg`` or ``.png``, ``scale`` times larger) and return the path.

    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = write(box_scene("b", [0, 1], (2,)), os.path.join(d, "b.svg"))
    ...     open(p).read().startswith("<svg")
    True
    """
    path = os.fspath(path)
    if picture_format(path) == ".svg":
        with open(path, "w", encoding="utf-8") as f:
            f.write(to_svg(scene))
    else:
        data = to_png(scene, scale)
        with open(path, "wb") as f:
            f.write(data)
    return path
