"""Jupyter display: every unilayout value shows as its picture in a notebook.

The values themselves do not import ``unilayout.viz`` (a family folder stays
free of drawing code); instead this module registers IPython display
formatters *by type name* (``for_type_by_name``), so no family is imported
to register it and a value's picture is drawn only when it is displayed.
``import unilayout`` registers them by itself inside a running IPython
kernel; ``%load_ext unilayout._notebook`` or ``register()`` does it by hand.

For each value, ``image/svg+xml`` is its ``viz`` picture (the SVG of
``unilayout render``) and ``text/html`` the same picture under its canonical
text. Pictures are bounded (``MAX_CELLS``: bigger layouts are cropped or
summarised as ``render`` does); an affine map, which has no box of its own,
is drawn over ``default_box(m)``; a value that cannot be drawn (a TSL with
``?`` values) falls back to its text.

``explorer_widget(text)`` is the browser explorer inside a notebook (the
optional ``anywidget`` extra, ``pip install unilayout[widget]``): the same
page ``unilayout render TEXT -o FILE.html`` writes, hover, zoom and all, in
the output cell; setting the widget's ``text`` redraws it.

>>> from unilayout import cute
>>> svg(cute.Layout((2, 2))).startswith("<svg")
True
>>> from unilayout import tsl
>>> svg(tsl.parse("#tsl.tsl<[?, 4] -> (?, 1)>")) is None
True
"""

from __future__ import annotations

from html import escape

__all__ = ["TYPES", "MAX_CELLS", "svg", "html", "default_box", "register", "load_ipython_extension", "explorer_widget"]

#: The value classes of every family, as ``(module, class name)`` (the registry's ``types()``; a test checks).
TYPES = (
    ("unilayout.cute.layout", "Layout"),
    ("unilayout.cute.swizzle", "ComposedLayout"),
    ("unilayout.cute.swizzle", "Swizzle"),
    ("unilayout.linear.layout", "LinearLayout"),
    ("unilayout.affine.map", "AffineMap"),
    ("unilayout.tsl.layout", "TiledStridedLayout"),
    ("unilayout.tt.metal", "MetalLayout"),
    ("unilayout.tt.device", "Device"),
    ("unilayout.sharding.xla_layout", "XlaLayout"),
)
#: Cells drawn at most in a notebook picture.
MAX_CELLS = 4096


def default_box(m):
    """The box an affine map is drawn over in a notebook: 8 per dim for up to 2 dims, else 4.

    >>> from unilayout import affine
    >>> default_box(affine.parse("(d0, d1) -> (d1, d0)")), default_box(affine.parse("(d0, d1, d2) -> (d0)"))
    ((8, 8), (4, 4, 4))
    """
    return (8,) * m.num_dims if m.num_dims <= 2 else (4,) * m.num_dims


def _scene(value):
    from . import viz
    from ._families import family_of
    from .errors import LayoutError

    options = {"max_cells": MAX_CELLS}
    try:
        if family_of(value) == "affine":
            if value.num_symbols:
                return None
            options["shape"] = default_box(value)
        return viz.scene(value, **options)
    except LayoutError:
        return None


def svg(value):
    """The SVG picture of ``value`` for a notebook, or None when it has none (IPython then shows the text).

    >>> from unilayout import affine
    >>> svg(affine.parse("(d0) -> (d0 * 2)")).count('class="cell"')
    8
    """
    from .viz.svg import to_svg

    s = _scene(value)
    return None if s is None else to_svg(s)


def html(value):
    """The picture under the value's canonical text, as HTML (None when there is no picture).

    >>> from unilayout import cute
    >>> h = html(cute.Layout(4, 2))
    >>> h.startswith("<div") and "<code>4:2</code>" in h and "<svg" in h
    True
    """
    from .facts import canonical_text

    picture = svg(value)
    if picture is None:
        return None
    return f'<div class="unilayout"><code>{escape(canonical_text(value))}</code><br>{picture}</div>'


def register(ip=None) -> bool:
    """Register the SVG and HTML formatters on IPython shell ``ip`` (default: the running one).

    Returns False when there is no IPython shell (plain Python).

    >>> import types
    >>> seen = []
    >>> fmt = types.SimpleNamespace(for_type_by_name=lambda module, name, fn: seen.append((module, name, fn)))
    >>> shell = types.SimpleNamespace(display_formatter=types.SimpleNamespace(
    ...     formatters={"image/svg+xml": fmt, "text/html": fmt}))
    >>> register(shell), len(seen) == 2 * len(TYPES), seen[0][2] is svg
    (True, True, True)
    """
    if ip is None:
        try:
            from IPython import get_ipython
        except ImportError:
            return False
        ip = get_ipython()
        if ip is None:
            return False
    formatters = ip.display_formatter.formatters
    for mime, fn in (("image/svg+xml", svg), ("text/html", html)):
        for module, name in TYPES:
            formatters[mime].for_type_by_name(module, name, fn)
    return True


def load_ipython_extension(ip):
    """``%load_ext unilayout._notebook``."""
    register(ip)


_WIDGET_ESM = """
export default {
  render({ model, el }) {
    const frame = document.createElement("iframe");
    frame.style.width = "100%";
    frame.style.border = "1px solid #d8dee6";
    const show = () => { frame.srcdoc = model.get("html"); frame.style.height = model.get("height") + "px"; };
    show();
    model.on("change:html", show);
    model.on("change:height", show);
    el.appendChild(frame);
  }
};
"""

_WIDGET_CLASS = None


def _widget_class():
    global _WIDGET_CLASS
    if _WIDGET_CLASS is None:
        try:
            import anywidget
            import traitlets
        except ImportError:
            from .errors import LayoutError

            raise LayoutError("the explorer widget needs anywidget: pip install 'unilayout[widget]'") from None

        class ExplorerWidget(anywidget.AnyWidget):
            """The unilayout explorer page for ``text`` (and ``shape``) in a notebook cell."""

            _esm = _WIDGET_ESM
            text = traitlets.Unicode("").tag(sync=True)
            shape = traitlets.Unicode("").tag(sync=True)
            height = traitlets.Int(760).tag(sync=True)
            html = traitlets.Unicode("").tag(sync=True)

            @traitlets.observe("text", "shape")
            def _redraw(self, change):
                from .cli import _dims
                from .explorer import render_html

                self.html = render_html(self.text, shape=_dims(self.shape) if self.shape else None)

        _WIDGET_CLASS = ExplorerWidget
    return _WIDGET_CLASS


def explorer_widget(text, shape=None, height=760):
    """An ``anywidget`` showing the explorer page for ``text`` (any layout text, or a value); needs ``anywidget``.

    The page is ``explorer.render_html(text, shape)`` — the offline explorer,
    its script and the view embedded — in an iframe; bad text raises the
    unilayout error at once.

    >>> from unilayout.errors import LayoutError
    >>> try:
    ...     w = explorer_widget("(4,8):(8,1)")
    ... except LayoutError:  # anywidget is not installed
    ...     w = None
    >>> w is None or w.html.count('class="cell"') == 32
    True
    """
    from .facts import canonical_text

    if not isinstance(text, str):
        text = canonical_text(text)
    shape_text = "x".join(str(int(v)) for v in shape) if shape else ""
    return _widget_class()(text=text, shape=shape_text, height=int(height))
