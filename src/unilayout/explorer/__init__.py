"""The browser explorer: a local page that draws any layout text and explains every cell.

``serve(port=0)`` runs it on 127.0.0.1 (the ``unilayout serve`` command);
``render_html(text)`` writes one layout's view as a single offline HTML file
(``unilayout render TEXT -o FILE.html``). The page's hooks — ``#layout-input``,
``#layout-view`` with one ``<svg>`` of ``.cell[data-index]`` elements,
``#layout-error``, ``#cell-details``, ``?layout=`` — are described in
docs/explorer.md. The server only parses, builds and renders layouts.

>>> from unilayout import explorer
>>> view = explorer.text_view("(4,8):(8,1)")
>>> view["count"], view["svg"].count('class="cell"')
(32, 32)
>>> with explorer.serve() as srv:
...     srv.url.startswith("http://127.0.0.1:")
True
"""

from .adapter import parse_any
from .api import handle
from .server import ExplorerServer, render_html, serve
from .views import MAX_CELLS, layout_view, text_view

__all__ = ["serve", "render_html", "ExplorerServer", "handle", "layout_view", "text_view", "parse_any", "MAX_CELLS"]
