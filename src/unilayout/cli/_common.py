"""What every verb of the ``unilayout`` command shares: reading TEXT, sizes, the JSON envelope, progress, errors.

- **TEXT**: ``add_text`` declares the argument, ``read_text`` turns ``-`` into
  standard input, ``parse_text`` parses it (any family), ``read_value`` reads
  it through the registry's one front door with ``--shape`` / ``--mesh`` /
  ``--mesh-shape`` (a dynamic TSL resolved, a TTNN config or a sharding given
  its tensor) and ``add_context`` declares those options.
- **Sizes**: ``sizes("8x8")`` is ``_text.parse_sizes`` with None kept, and bounded: at most
  ``MAX_RANK`` sizes, each below ``MAX_SIZE``, their product below ``MAX_SIZE`` too (a mesh: at most
  ``MAX_DEVICES``), so that an oversized argument is a usage error (status 2), never an overflow or an
  allocation deep inside a verb.
- **JSON**: every ``--json`` object starts with ``envelope(...)`` (the schema
  ``JSON_SCHEMA``); ``json_default`` writes numpy values.
- **Progress and errors** go to standard error: ``progress`` (one line),
  ``Bar`` (only on a terminal), ``print_error`` (short, never a traceback).

>>> sizes("4x8"), sizes(None)
((4, 8), None)
>>> sizes("9223372036854775808", "SHAPE")
Traceback (most recent call last):
...
unilayout.errors.LayoutError: SHAPE: sizes must be below 2**40 each and together, got 9223372036854775808
>>> envelope("show", parse_text("8:2"))
{'schema': 'unilayout/1', 'command': 'show', 'ok': True, 'family': 'cute', 'text': '8:2'}
>>> error_dict(ParseError("expected ')'", "(2,3", 4))
{'type': 'ParseError', 'message': "expected ')'", 'position': 4}

No verb branches on a family: what a family needs is asked of its record
(``unilayout._families.record``).
"""

from __future__ import annotations

import sys
import time

import numpy as np

from .. import facts as F
from .._families import family_of, record
from .._families import read as _read
from .._text import parse_sizes
from ..errors import LayoutError, NotRepresentableError, ParseError

__all__ = ["JSON_SCHEMA", "SCREEN_CHARS", "MAX_RANK", "MAX_SIZE", "MAX_DEVICES", "add_text", "read_text", "parse_text", "sizes", "read_value", "envelope",
           "json_default", "progress", "Bar", "error_dict", "print_error", "add_context", "box_shape",
           "placement_summary"]

#: The ``schema`` field of every ``--json`` object. Common fields: ``schema``, ``command``, ``ok`` (bool),
#: and, when the text parsed, ``family`` and ``text`` (the canonical text); on bad input ``ok`` is false and
#: ``error`` = ``{type, message[, position]}`` (exit status 2). Per command: ``show`` adds the facts
#: (``unilayout.facts.describe``) and ``tables``; ``check`` adds ``valid`` and ``checks``; ``convert`` adds
#: ``to``, ``result`` (the converted text) or ``shards`` (a metal layout's per-core layouts).
JSON_SCHEMA = "unilayout/1"

#: The most sizes a command-line shape, tile or mesh may have (numpy's arrays stop at 64 dims).
MAX_RANK = 16
#: A size, and a product of sizes, on the command line is below 2**40 (a tensor of a trillion elements).
MAX_SIZE = 1 << 40
#: The most devices a command-line mesh (``--mesh``, ``--mesh-shape``) may have: a 256x256 mesh.
MAX_DEVICES = 1 << 16

#: Longest line of an error message printed whole (about a screen); a longer one (quoting a huge text) keeps its ends.
SCREEN_CHARS = 2400


# ------------------------------------------------------------------------------------------------
# TEXT and sizes
# ------------------------------------------------------------------------------------------------


def add_text(q):
    """Declare the TEXT argument of a verb's parser ``q``."""
    q.add_argument("text", metavar="TEXT", help="layout text (CuTe, #ttg.linear, #tsl.tsl, affine map, tensor<...>, "
                                             "#tt.device), or - for standard input")


def read_text(text):
    """TEXT itself, or standard input's whole text for ``-``."""
    return sys.stdin.read() if text == "-" else text


def add_context(q, shape_help):
    """Declare ``--shape`` (``shape_help`` says what it is for), ``--mesh`` and ``--mesh-shape`` on parser ``q``."""
    q.add_argument("--shape", help=shape_help)
    q.add_argument("--mesh", metavar="MESH", help="a Shardy sharding's mesh text (sdy.mesh @m = <[...]>)")
    q.add_argument("--mesh-shape", metavar="MxN", help="the mesh of DTensor/TTNN placements, read or written")


def parse_text(text, **context):
    """``unilayout.parse``, with the command's hint about ``-`` added to the error for empty text.

    >>> try:
    ...     parse_text("  ")
    ... except ParseError as e:
    ...     print(e.message.endswith("(give TEXT, or '-' to read standard input)"), e.position)
    True 2
    """
    try:
        return _read(text, **context)
    except ParseError as e:
        if text.strip():
            raise
        raise ParseError(e.message + " (give TEXT, or '-' to read standard input)", e.text, e.position) from None


def sizes(text, what=None, least=1, devices=False):
    """``"8x8"`` or ``"8,8"`` -> (8, 8) (``_text.parse_sizes``, each at least ``least``); None stays None.

    Bounded: at most ``MAX_RANK`` sizes whose product is below ``MAX_SIZE``, or at most ``MAX_DEVICES``
    when they are a mesh (``devices``); ``what`` names the option in the error.

    >>> sizes("2x" * 63 + "2", "--mesh", devices=True)
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: --mesh: at most 16 sizes, got 64
    >>> sizes("1048576x1048576", "--mesh-shape", devices=True)
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: --mesh-shape: a mesh of at most 65536 devices, got 1048576x1048576
    """
    if text is None:
        return None
    dims = parse_sizes(text, what, least=least)
    head = f"{what}: " if what else ""
    if len(dims) > MAX_RANK:
        raise LayoutError(f"{head}at most {MAX_RANK} sizes, got {len(dims)}")
    total = 1
    for d in dims:
        total *= max(d, 1)
        if devices and total > MAX_DEVICES:
            raise LayoutError(f"{head}a mesh of at most {MAX_DEVICES} devices, got {'x'.join(map(str, dims))}")
        if d >= MAX_SIZE or total >= MAX_SIZE:
            shown = text if len(text) <= 60 else text[:57] + "..."
            raise LayoutError(f"{head}sizes must be below 2**40 each and together, got {shown}")
    return dims


def read_value(args):
    """The value of ``args.text`` (``-``: standard input), read with ``--shape``, ``--mesh`` and ``--mesh-shape``.

    >>> import argparse
    >>> print(read_value(argparse.Namespace(text="#tsl.tsl<[?] -> (1)>", shape="8")))
    #tsl.tsl<[8] -> (1)>
    """
    args.text = read_text(args.text)
    return parse_text(args.text, shape=sizes(getattr(args, "shape", None), "--shape"),
                      mesh=getattr(args, "mesh", None),
                      mesh_shape=sizes(getattr(args, "mesh_shape", None), "--mesh-shape", devices=True))


def box_shape(value, args):
    """``--shape`` as the box of a value that has none of its own (an affine map), else None (it was used already)."""
    return sizes(getattr(args, "shape", None), "--shape") if record(value).box(value) is None else None


def placement_summary(device, tensor_text):
    """``(metal layout, distributed.ShardSummary)`` of the tensor ``tensor_text`` placed on ``device``."""
    from .. import distributed  # lazy: the planner and JAX's vocabulary load only for --place

    placed = parse_text(tensor_text)
    try:
        return placed, distributed.shard_summary(placed, device)
    except NotRepresentableError:
        raise
    except LayoutError as e:
        raise LayoutError(f"--place (a tensor<..., #tt.metal_layout> on a #tt.device): {e}") from None


# ------------------------------------------------------------------------------------------------
# JSON
# ------------------------------------------------------------------------------------------------


def envelope(command, value=None, ok=True):
    """The fields every ``--json`` object starts with (``JSON_SCHEMA``)."""
    d = {"schema": JSON_SCHEMA, "command": command, "ok": ok}
    if value is not None:
        d["family"] = family_of(value)
        d["text"] = F.canonical_text(value)
    return d


def json_default(x):
    """``json.dumps``'s ``default``: numpy integers and arrays as Python ones, anything else as its text."""
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, np.ndarray):
        return x.tolist()
    return str(x)


# ------------------------------------------------------------------------------------------------
# Progress and errors (standard error)
# ------------------------------------------------------------------------------------------------


def progress(msg):
    """One line of progress on standard error."""
    print(msg, file=sys.stderr, flush=True)


class Bar:
    """A progress bar on standard error, drawn only when it is a terminal and the work has run ~1 s.

    Off a terminal nothing is drawn (logs and pipes stay clean).

    >>> import io
    >>> b = Bar(3, "render", stream=io.StringIO(), after=0.0)
    >>> b.step("drawn"); b.done(); b.k, b.shown
    (1, False)
    """

    def __init__(self, total, label, stream=None, after=1.0):
        self.total, self.label, self.k = max(int(total), 1), label, 0
        self.stream = sys.stderr if stream is None else stream
        self.t0, self.after, self.shown = time.perf_counter(), after, False
        isatty = getattr(self.stream, "isatty", None)
        self.tty = bool(isatty and isatty())

    def step(self, what=""):
        self.k += 1
        if not self.tty or time.perf_counter() - self.t0 < self.after:
            return
        filled = 24 * self.k // self.total
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (24 - filled)}] {self.k}/{self.total} {what[:40]:<40}")
        self.stream.flush()
        self.shown = True

    def done(self):
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()


def error_dict(e):
    """The ``error`` field of a ``--json`` object: the error's type, message and (a ParseError) position."""
    d = {"type": type(e).__name__, "message": getattr(e, "message", str(e))}
    if isinstance(e, ParseError):
        d["position"] = e.position
    return d


def print_error(e):
    """The whole message on stderr; a long text of a ParseError is cut to 100 characters around the position.

    Only a line longer than a screen (``SCREEN_CHARS``, a message quoting a huge
    input) is cut, in its middle, so its start and end both show.
    """
    lines = str(e).splitlines() or [""]
    if isinstance(e, ParseError) and len(e.text) > 100:
        p = e.position
        a = max(0, p - 50)
        snippet = e.text[a : a + 100].replace("\n", " ")
        lines = [f"{e.message} at position {p}", f"  {'...' if a else ''}{snippet}",
                 f"  {' ' * ((3 if a else 0) + p - a)}^"]
    half = SCREEN_CHARS // 2
    lines = [ln if len(ln) <= SCREEN_CHARS else ln[:half] + " ... " + ln[-half:] for ln in lines[:40]]
    print(f"unilayout: error: {lines[0]}", file=sys.stderr)
    for ln in lines[1:]:
        print(ln, file=sys.stderr)
