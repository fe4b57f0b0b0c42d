"""Jupyter display: every unilayout value shows as its picture in a notebook.

The values themselves know nothing of IPython; this module registers IPython
display formatters for the value types of every registered family (read from
the family records, ``unilayout._families``), so a family added as a plug-in
shows as a picture too, and a value's picture is drawn only when it is
displayed. ``import unilayout`` registers them by itself inside a running
IPython kernel; ``%load_ext unilayout._notebook`` or ``register()`` does it by
hand (again after registering a plug-in family).

For each value, one picture goes into the notebook: ``image/svg+xml``, its
``viz`` picture (the SVG of ``unilayout render``, titled with the value's
text), beside ``text/plain``. No ``text/html`` copy of the same picture is
registered (a notebook would store every picture twice); ``html(value)``
gives the picture under its canonical text for callers that want HTML. Pictures are bounded (``MAX_CELLS``: bigger layouts are cropped or
summarised as ``render`` does); a value with no box of its own (an affine
map) is drawn over its family's ``default_shape``; a value that cannot be drawn (a TSL with
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

from . import _families
from ._text import parse_sizes
from .errors import LayoutError

__all__ = ["MAX_CELLS", "value_types", "svg", "html", "register", "load_ipython_extension", "explorer_widget"]

#: Cells drawn at most in a notebook picture.
MAX_CELLS = 4096


def value_types() -> tuple:
    """The value classes of every registered family (each family's record ``types``), in registry order.

    >>> [t.__name__ for t in value_types()][:3]
    ['Sharding', 'TiledStridedLayout', 'LinearLayout']
    """
    return tuple(t for name in _families.families() for t in _families.record(name).types)


def _scene(value):
    from . import viz  # lazy: viz loads numpy and the drawing kit; only a displayed value needs them

    try:
        fam = _families.record(value)
        options = {"max_cells": MAX_CELLS}
        if fam.box(value) is None and fam.default_shape(value) is not None:
            options["shape"] = fam.default_shape(value)
        return viz.scene(value, **options)
    except LayoutError:
        return None


def svg(value):
    """The SVG picture of ``value`` for a notebook, or None when it has none (IPython then shows the text).

    >>> from unilayout import affine
    >>> svg(affine.parse("(d0) -> (d0 * 2)")).count('class="cell"')
    8
    """
    from .draw.svg import to_svg  # lazy: numpy, kept out of `import unilayout`

    s = _scene(value)
    return None if s is None else to_svg(s)


def html(value):
    """The picture under the value's canonical text, as HTML (None when there is no picture).

    >>> from unilayout import cute
    >>> h = html(cute.Layout(4, 2))
    >>> h.startswith("<div") and "<code>4:2</code>" in h and "<svg" in h
    True
    """
    picture = svg(value)
    if picture is None:
        return None
    return f'<div class="unilayout"><code>{escape(_families.record(value).canonical(value))}</code><br>{picture}</div>'


def register(ip=None) -> bool:
    """Register the SVG formatter on IPython shell ``ip`` (default: the running one), one picture per value.

    Returns False when there is no IPython shell (plain Python).

    >>> import types
    >>> seen = []
    >>> fmt = types.SimpleNamespace(for_type=lambda cls, fn: seen.append((cls, fn)))
    >>> shell = types.SimpleNamespace(display_formatter=types.SimpleNamespace(formatters={"image/svg+xml": fmt}))
    >>> register(shell), len(seen) == len(value_types()), seen[0][1] is svg
    (True, True, True)
    """
    if ip is None:
        try:
            from IPython import get_ipython  # lazy: optional dependency
        except ImportError:
            return False
        ip = get_ipython()
        if ip is None:
            return False
    formatter = ip.display_formatter.formatters["image/svg+xml"]
    for cls in value_types():
        formatter.for_type(cls, svg)
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
            import anywidget  # lazy: optional dependency
            import traitlets  # lazy: optional dependency (comes with anywidget)
        except ImportError:
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
                from .explorer import render_html  # lazy: the explorer loads every family

                self.html = render_html(self.text, shape=parse_sizes(self.shape) if self.shape else None)

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
    if not isinstance(text, str):
        text = _families.record(text).canonical(text)
    shape_text = "x".join(str(int(v)) for v in shape) if shape else ""
    return _widget_class()(text=text, shape=shape_text, height=int(height))
