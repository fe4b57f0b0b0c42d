"""Pictures of layouts: SVG written directly (scalable, no LaTeX) and PNG (numpy + zlib), plus text views.

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

Modules: ``picture`` (the ``Scene`` model), ``svg``, ``png``, ``colors``, and one
per family: ``cute`` (layouts, TV layouts, bank colouring), ``linear``
(holders of each element; Triton's tensor and hardware views), ``box`` (TSL
and affine maps over a box), ``tt`` (metal layouts, devices, the shard table).
"""

from __future__ import annotations

import os

from ..errors import LayoutError
from .png import to_png as _scene_png
from .picture import DEFAULT_MAX_CELLS, Scene
from .svg import to_svg as _scene_svg

__all__ = ["scene", "to_svg", "to_png", "render", "Scene", "DEFAULT_MAX_CELLS", "FORMATS"]

FORMATS = (".svg", ".png")


def scene(x, *, color=None, tv=None, shape=None, layout=None, element_bytes=4, max_cells=DEFAULT_MAX_CELLS) -> Scene:
    """The picture of a unilayout value (or a ``Scene``, returned as is).

    - CuTe ``Layout``/``ComposedLayout`` (a bare ``Swizzle`` as ``viz.cute.swizzle_layout``): ``color`` ``"index"`` (default), ``"thread"`` or
      ``"bank"`` (``element_bytes`` per element); with ``tv=(M, N)`` the layout is a
      thread-value layout over an M x N tile.
    - ``LinearLayout``: ``color`` ``"thread"`` (default), ``"warp"``, ``"register"``, ``"block"``, ``"index"``.
    - ``TiledStridedLayout``; ``AffineMap`` (needs ``shape``).
    - ``MetalLayout``; ``Device`` (optionally with a metal ``layout`` placed on it).

    >>> from unilayout import cute
    >>> scene(cute.Layout((4, 8), (8, 1)), color="bank").kind
    'layout'
    """
    from .. import affine, cute, linear, tsl, tt
    from . import box as _box
    from . import cute as _cute
    from . import linear as _linear
    from . import tt as _tt

    if isinstance(x, Scene):
        return x
    if isinstance(x, cute.Swizzle):
        x = _cute.swizzle_layout(x)
    if isinstance(x, (cute.Layout, cute.ComposedLayout)):
        if tv is not None:
            if color not in (None, "thread"):
                raise LayoutError("a thread-value picture is coloured by thread")
            return _cute.tv_scene(x, tuple(tv), max_cells=max_cells)
        return _cute.layout_scene(x, color or "index", element_bytes=element_bytes, max_cells=max_cells)
    if tv is not None:
        raise LayoutError("tv= (a thread-value tile) applies to CuTe layouts only")
    if isinstance(x, linear.LinearLayout):
        return _linear.linear_scene(x, color or "thread", max_cells=max_cells)
    if color is not None:
        raise LayoutError(f"colour modes apply to CuTe and linear layouts, not to {type(x).__name__}")
    if isinstance(x, tsl.TiledStridedLayout):
        return _box.tsl_scene(x, max_cells=max_cells)
    if isinstance(x, affine.AffineMap):
        return _box.affine_scene(x, shape, max_cells=max_cells)
    if isinstance(x, tt.MetalLayout):
        return _tt.metal_scene(x, max_cells=max_cells)
    if isinstance(x, tt.Device):
        return _tt.device_scene(x, layout, max_cells=max_cells)
    raise LayoutError(f"no picture for {type(x).__name__}: expected a unilayout layout, map or device")


def to_svg(x, **options) -> str:
    """SVG text of ``scene(x, **options)``.

    >>> from unilayout import cute
    >>> to_svg(cute.Layout(2, 1)).count("<text class=\\"label\\"")
    2
    """
    return _scene_svg(scene(x, **options))


def to_png(x, **options) -> bytes:
    """PNG bytes of ``scene(x, **options)``.

    >>> from unilayout import cute
    >>> len(to_png(cute.Layout(2, 1))) > 100
    True
    """
    return _scene_png(scene(x, **options))


def render(x, path, **options) -> str:
    """Write the picture of ``x`` to ``path`` (``.svg`` or ``.png``) and return the path.

    >>> import os, tempfile
    >>> from unilayout import cute
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = render(cute.Layout((2, 2)), os.path.join(d, "L.svg"))
    ...     open(p).read().startswith("<svg")
    True
    """
    path = os.fspath(path)
    ext = os.path.splitext(path)[1].lower()
    if ext not in FORMATS:
        raise LayoutError(f"cannot write {path!r}: the file name must end in .svg or .png")
    s = scene(x, **options)
    if ext == ".svg":
        with open(path, "w", encoding="utf-8") as f:
            f.write(_scene_svg(s))
    else:
        data = _scene_png(s)
        with open(path, "wb") as f:
            f.write(data)
    return path
