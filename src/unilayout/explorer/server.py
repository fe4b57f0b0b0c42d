"""The explorer's local web server (stdlib only) and its offline, single-file HTML form.

``serve(port=0)`` starts a ``ThreadingHTTPServer`` on 127.0.0.1 in a
background thread and returns an :class:`ExplorerServer` (``.url``,
``.shutdown()``, ``.wait()``, usable as a context manager). It answers:

- ``GET /`` (also ``/index.html``), ``/app.js``, ``/plan.js``, ``/rosetta.js``, ``/lens.js``, ``/style.css``: the page,
  read from the package (no other file is ever served);
- ``POST /api/view | /api/metal | /api/algebra | /api/encodings | /api/plan``: JSON, see
  ``unilayout.explorer.api.handle``.

Anything else gets 404 or 405, oversized bodies 413, bodies without a
length 411 — always with a JSON ``{"error": {"message": ...}}``. Errors of the
layout text are 4xx answers from ``api.handle``; only a bug in unilayout
answers 500 (a one-line message), its traceback logged once on the
``unilayout.explorer.server`` logger.

Safe to leave running (the explorer is a local tool; a web page the user
visits must not be able to drive it):

- every request's ``Host`` must name the loopback (``127.0.0.1``,
  ``localhost`` or ``[::1]``, with the server's port), so DNS rebinding
  cannot read answers: else 403;
- an ``/api/*`` POST must be ``Content-Type: application/json`` (a cross-origin
  "simple" request — ``text/plain``, form types — cannot be), else 415, and an
  ``Origin`` header, when sent, must be the server's own, else 403;
- every answer carries a ``Content-Security-Policy`` (scripts and styles from
  the page only, ``frame-ancestors 'none'``) and ``X-Frame-Options: DENY``;
- a connection must send each whole request (request line, headers, body)
  within ``READ_TIMEOUT`` seconds of the server starting to wait for it (an
  idle keep-alive wait included), else it is closed: a slow client
  (slowloris) holds a connection for seconds, never a request slot;
- at most ``MAX_CONNECTIONS`` connections are held at once and at most
  ``MAX_THREADS`` requests are answered at once, counted only once a request
  has been read: slow or idle connections do not starve fast clients (the
  others wait up to ``TIMEOUT`` seconds, then get 503); each connection
  also has a ``TIMEOUT``-second socket timeout;
- a request with two ``Host`` (or ``Content-Length``) headers is refused (400);
- a client that drops its connection is not an error: nothing is printed;
- the answers of recent requests are kept (``_answers.Answers``, 32 MB): the
  same path and body is answered again at once.

>>> html = render_html("(2,2):(1,2)")
>>> html.count("<script"), 'id="layout-input"' in html, 'src="' in html, 'href="' in html
(2, True, False, False)
"""

from __future__ import annotations

import json
import logging
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from xml.sax.saxutils import escape

from ..errors import LayoutError
from ._answers import Answers
from ._warm import warm
from .api import body_limit, handle
from .views import text_view

_log = logging.getLogger(__name__)

__all__ = ["serve", "render_html", "ExplorerServer", "page_file", "ALLOWED_HOSTS"]

#: Hosts the server may bind to: the loopback interface only.
ALLOWED_HOSTS = ("127.0.0.1", "localhost")
#: Names a request's Host (and Origin) header may give: the loopback only.
_LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
#: Seconds a connection may stay silent (idle keep-alive, a slow body) before it is closed.
TIMEOUT = 10
#: Most requests answered at once (counted once read); more wait up to ``TIMEOUT`` seconds for a slot, then get 503.
#: Two, not one per connection: answering is Python work under one interpreter lock, so sixteen answers at once
#: each take sixteen times as long (a 40 ms canvas took 370 ms at p99 under bench/explorer.py's load), while two
#: at a time keep numpy's lock-free work overlapping and let each answer finish in its own time (p99 under 200 ms).
MAX_THREADS = 2
#: Most connections held at once (a thread each); more wait up to ``TIMEOUT`` seconds, then get 503.
MAX_CONNECTIONS = 128
#: Seconds a connection has to send a whole request (its wait for the request line included), else it is closed.
READ_TIMEOUT = 5
#: The page loads its script, style and data from itself only, and may not be framed.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")

_JSON = "application/json; charset=utf-8"

_STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/index.html": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/plan.js": ("plan.js", "text/javascript; charset=utf-8"),
    "/rosetta.js": ("rosetta.js", "text/javascript; charset=utf-8"),
    "/lens.js": ("lens.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
}
#: The page's files (served by name from the package's ``static`` folder; no other file is ever read).
PAGE_FILES = ("index.html", "app.js", "plan.js", "rosetta.js", "lens.js", "style.css")
#: Panels whose script needs the server (left out of the offline single-file page).
_SERVER_PANELS = ("plan.js", "rosetta.js", "lens.js")


def page_file(name: str) -> str:
    """The text of one of the page's files in the package (``PAGE_FILES``).

    >>> page_file("index.html").lstrip().startswith("<!DOCTYPE html>")
    True
    >>> page_file("../cli.py")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: no page file '../cli.py': use index.html, app.js, plan.js, rosetta.js, lens.js or style.css
    """
    if name not in PAGE_FILES:
        raise LayoutError(f"no page file {name!r}: use {', '.join(PAGE_FILES[:-1])} or {PAGE_FILES[-1]}")
    return resources.files(__package__).joinpath("static", name).read_text(encoding="utf-8")


class _Handler(BaseHTTPRequestHandler):
    server_version = "unilayout-explorer"
    sys_version = ""
    protocol_version = "HTTP/1.1"
    timeout = TIMEOUT  # the socket timeout of each connection (StreamRequestHandler applies it)
    disable_nagle_algorithm = True  # headers and body leave at once: no 40 ms delayed-ACK stall per answer

    def log_message(self, format, *args):  # quiet: the CLI prints the URL, tests read the answers
        pass

    def _send(self, status, body: bytes, ctype: str):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Frame-Options", "DENY")
        self.send_header("Referrer-Policy", "no-referrer")
        if self.close_connection:  # a refused request: say so, so that the client reconnects for the next one
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status, payload):
        # compact separators: a big view is tens of thousands of list items, each a ", " shorter
        self._send(status, json.dumps(payload, separators=(",", ":")).encode("utf-8"), _JSON)

    def _fail(self, status, message):
        self._json(status, {"error": {"message": message, "position": None, "field": None, "detail": message}})

    def handle_one_request(self):
        # the whole request must arrive within READ_TIMEOUT (the server's reaper closes the socket otherwise);
        # do_GET / do_POST stop the clock once it is read, so answering is not counted
        self.server.watch(self.connection, READ_TIMEOUT)
        try:
            super().handle_one_request()
        finally:
            self.server.unwatch(self.connection)

    def parse_request(self) -> bool:
        if not super().parse_request():
            return False
        for name in ("Host", "Content-Length"):
            if len(self.headers.get_all(name) or ()) > 1:
                self.close_connection = True
                self._fail(400, f"a request must have at most one {name} header")
                return False
        return True

    def _host_ok(self) -> bool:
        """Whether the Host header names the loopback with this server's port (else 403 sent)."""
        host = (self.headers.get("Host") or "").strip().lower()
        if _loopback(host, self.server.server_address[1]):
            return True
        self.close_connection = True
        self._fail(403, f"Host {host!r} is not this explorer: open it as http://127.0.0.1:{self.server.server_address[1]}/")
        return False

    def do_GET(self):
        self.server.unwatch(self.connection)  # read: the page is answered at once
        if not self._host_ok():
            return
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        entry = _STATIC.get(path)
        if path == "/favicon.ico":
            self._send(204, b"", "image/x-icon")
            return
        if entry is None:
            self._fail(404, f"no such page {path!r}: the explorer is at /")
            return
        name, ctype = entry
        self._send(200, page_file(name).encode("utf-8"), ctype)

    do_HEAD = do_GET

    def do_POST(self):
        path = self.path.split("?", 1)[0]
        length = self.headers.get("Content-Length")
        if length is None:
            self.close_connection = True
            self._fail(411, "a POST needs a Content-Length header")
            return
        try:
            n = int(length) if len(length) < 20 else -1
        except ValueError:
            self.close_connection = True
            self._fail(400, f"bad Content-Length {length!r}")
            return
        if n < 0 or n > body_limit(path):
            self.close_connection = True
            self._fail(413, f"request body of {n} bytes is larger than {body_limit(path)}")
            return
        if not self._host_ok():
            return
        origin = self.headers.get("Origin")
        if origin is not None and not _loopback(_origin_host(origin), self.server.server_address[1]):
            self.close_connection = True
            self._fail(403, f"Origin {origin!r} may not use this explorer: only its own page may")
            return
        ctype = (self.headers.get("Content-Type") or "").split(";", 1)[0].strip().lower()
        if ctype != "application/json":
            self.close_connection = True
            self._fail(415, f"a POST must be Content-Type: application/json, got {ctype or 'none'!r}")
            return
        body = self.rfile.read(n)
        if len(body) < n:  # the client went away mid-body (or was too slow and was closed)
            self.close_connection = True
            return
        self.server.unwatch(self.connection)  # read in time: answering it is not counted
        hit = self.server.answers.get((path, body))
        if hit is not None:  # asked before: the same answer (every request is a pure function of its body)
            self._send(hit[0], hit[1], _JSON)
            return
        if not self.server.slots.acquire(timeout=TIMEOUT):
            self.close_connection = True
            self._fail(503, f"the explorer is answering {MAX_THREADS} requests already: try again")
            return
        try:
            status, payload = handle(path, body)  # answers every unilayout error itself (4xx)
            data = json.dumps(payload, separators=(",", ":")).encode("utf-8")  # in the slot: a canvas is big
        except Exception as exc:  # noqa: BLE001 -- the request boundary: a bug in unilayout, not bad input
            _log.exception("internal error answering POST %s", path)  # the traceback, once, on the server's log
            status, data = 500, json.dumps({"error": {"message": f"internal error: {type(exc).__name__}: {exc}",
                                                      "position": None, "field": None, "detail": ""}}).encode()
        finally:
            self.server.slots.release()
        if status < 500:
            self.server.answers.put((path, body), status, data)
        self._send(status, data, _JSON)

    def _not_allowed(self):
        self.close_connection = True
        self._fail(405, f"method {self.command} is not allowed: use GET for the page and POST for /api/...")

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = _not_allowed


def _loopback(host: str, port: int) -> bool:
    """Whether ``host`` (a Host header: name[:port]) is the loopback at ``port``."""
    name, sep, p = host.rpartition(":") if not host.endswith("]") else (host, "", "")
    if not sep:
        name, p = host, ""
    return name in _LOOPBACK_NAMES and p in ("", str(port))


def _origin_host(origin: str) -> str:
    """The ``host[:port]`` of an Origin header (``"null"`` and other schemes give ``""``)."""
    origin = origin.strip().lower()
    return origin[len("http://"):].rstrip("/") if origin.startswith("http://") else ""


_DROPPED = (ConnectionError, TimeoutError, OSError)


class _Server(ThreadingHTTPServer):
    """A ThreadingHTTPServer with at most ``MAX_CONNECTIONS`` connections and ``MAX_THREADS`` requests answered at
    once, a reaper that closes connections too slow to send their request, and no traceback for dropped clients."""

    daemon_threads = True
    # socketserver's default listen backlog is 5: clients that reconnect together (after refused requests close
    # their connections) overflow it and wait for a SYN retransmit, a full second
    request_queue_size = 128

    def __init__(self, address, handler):
        self.slots = threading.BoundedSemaphore(MAX_THREADS)  # requests being answered
        self.answers = Answers()  # recent answers by (path, body)
        self._connections = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self._deadlines = {}  # socket -> time.monotonic() by which its request must have been read
        self._deadlines_lock = threading.Lock()
        self._closing = threading.Event()
        super().__init__(address, handler)  # binds (a busy port raises here, after server_close)
        self._reaper = threading.Thread(target=self._reap, name="unilayout-explorer-reaper", daemon=True)
        self._reaper.start()

    def watch(self, sock, seconds):
        """Close ``sock`` unless ``unwatch`` is called within ``seconds``."""
        with self._deadlines_lock:
            self._deadlines[sock] = time.monotonic() + seconds

    def unwatch(self, sock):
        with self._deadlines_lock:
            self._deadlines.pop(sock, None)

    def _reap(self):
        """Every 0.1 s, shut down the sockets past their deadline: their reads end, their threads finish."""
        while not self._closing.wait(0.1):
            now = time.monotonic()
            with self._deadlines_lock:
                late = [s for s, t in self._deadlines.items() if t <= now]
                for s in late:
                    del self._deadlines[s]
            for s in late:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:  # closed already
                    pass

    def server_close(self):
        self._closing.set()
        super().server_close()

    def process_request(self, request, client_address):
        if not self._connections.acquire(timeout=TIMEOUT):
            try:
                request.sendall(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            except OSError:
                pass
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._connections.release()
            raise

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._connections.release()

    def handle_error(self, request, client_address):
        exc = sys.exc_info()[1]
        if isinstance(exc, _DROPPED):  # the client closed, reset or went silent: nothing to report
            _log.debug("connection from %s dropped: %s", client_address, exc)
            return
        _log.exception("error serving %s", client_address)


class ExplorerServer:
    """A running explorer: ``url``, ``host``, ``port``; ``shutdown()`` stops it and frees the port.

    >>> with serve() as srv:
    ...     srv.url.startswith("http://127.0.0.1:"), srv.running
    (True, True)
    >>> srv.running
    False
    """

    def __init__(self, httpd: ThreadingHTTPServer):
        self._httpd = httpd
        self.host, self.port = httpd.server_address[:2]
        self.url = f"http://{self.host}:{self.port}/"
        self._thread = threading.Thread(target=httpd.serve_forever, name="unilayout-explorer", daemon=True)
        self._stopped = threading.Event()
        self._thread.start()

    @property
    def running(self) -> bool:
        """True until ``shutdown()`` has stopped the server."""
        return not self._stopped.is_set()

    def shutdown(self) -> None:
        """Stop serving, close the socket and join the server thread (idempotent)."""
        if self._stopped.is_set():
            return
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=10)
        self._stopped.set()

    def wait(self, timeout=None) -> bool:
        """Block until the server is shut down (or ``timeout`` seconds pass); True if it stopped.

        ``unilayout serve`` calls this and shuts down on Ctrl-C.
        """
        return self._stopped.wait(timeout)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.shutdown()

    def __repr__(self):
        return f"ExplorerServer({self.url!r}, running={self.running})"


def serve(port: int = 0, host: str = "127.0.0.1") -> ExplorerServer:
    """Start the explorer on ``host:port`` (port 0: any free port) and return the running server.

    Only the loopback interface is allowed: the explorer is a local tool.

    >>> srv = serve(port=0)
    >>> srv.port > 0
    True
    >>> srv.shutdown()
    >>> serve(host="0.0.0.0")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: the explorer binds to 127.0.0.1 only, got host '0.0.0.0'
    """
    if host not in ALLOWED_HOSTS:
        raise LayoutError(f"the explorer binds to 127.0.0.1 only, got host {host!r}")
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise LayoutError(f"port must be an integer in [0, 65535], got {port!r}")
    warm()  # every module a request may import, imported now: concurrent first requests race no import
    try:
        httpd = _Server(("127.0.0.1", port), _Handler)
    except OSError as exc:
        raise LayoutError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}") from None
    httpd.daemon_threads = True
    return ExplorerServer(httpd)


def _embed(obj) -> str:
    return json.dumps(obj).replace("</", "<\\/").replace("<!--", "<\\!--")


def render_html(text, shape=None) -> str:
    """The explorer page showing ``text``'s layout as one self-contained HTML file that works offline.

    Script, style and the rendered view are embedded; hovering cells shows
    their details as in the served page. Bad text raises the unilayout error.

    >>> html = render_html("tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
    ...                    "memref<18x32xf32, #tt.memory_space<l1>>>>")
    >>> html.count('class="cell padding"')
    117
    >>> render_html("(2,2):(1,")
    Traceback (most recent call last):
    ...
    unilayout.errors.ParseError: ...
    """
    view = text_view(text, shape)
    page = page_file("index.html")
    css = page_file("style.css")
    js = page_file("app.js")
    data = {"text": text, "shape": list(shape) if shape else None, "view": view}
    page = page.replace('<link rel="stylesheet" href="style.css">', f"<style>\n{css}\n</style>")
    page = page.replace(
        '<script src="app.js"></script>',
        f'<script id="embedded-view" type="application/json">{_embed(data)}</script>\n<script>\n{js}\n</script>',
    )
    for script in _SERVER_PANELS:  # the planner, the Rosetta and the lens need the server
        page = page.replace(f'<script src="{script}"></script>\n', "")
    # The picture is in the file itself, so it shows even before the script runs.
    page = page.replace('<div id="layout-view"></div>', f'<div id="layout-view">{view["svg"]}</div>')
    at = page.index("</textarea>", page.index('<textarea id="layout-input"'))  # the layout box holds the text
    page = page[:at] + escape(text) + page[at:]
    return page
