"""What every verb of the ``unilayout`` command shares: reading TEXT, sizes, the JSON envelope, progress, errors.

- **TEXT**: ``add_text`` declares the argument, ``read_text`` turns ``-`` into
  standard input, ``parse_text`` parses it (any family), ``read_value`` also
  applies ``--shape`` where a value takes one (a dynamic TSL, a TTNN config).
- **Sizes**: ``sizes("8x8")`` is ``_text.parse_sizes`` with None kept.
- **JSON**: every ``--json`` object starts with ``envelope(...)`` (the schema
  ``JSON_SCHEMA``); ``json_default`` writes numpy values.
- **Progress and errors** go to standard error: ``progress`` (one line),
  ``Bar`` (only on a terminal), ``print_error`` (short, never a traceback).

>>> sizes("4x8"), sizes(None)
((4, 8), None)
>>> envelope("show", parse_text("8:2"))
{'schema': 'unilayout/1', 'command': 'show', 'ok': True, 'family': 'cute', 'text': '8:2'}
>>> error_dict(ParseError("expected ')'", "(2,3", 4))
{'type': 'ParseError', 'message': "expected ')'", 'position': 4}

The family special cases (a TiledMMA/TiledCopy text, a TTNN config, a
dynamic TSL) live in ``read_value``, ``tiled_mma``, ``needs_tensor`` and
``envelope`` until the registry's ``read`` takes them over.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from .. import facts as F
from .._families import family_of
from .._families import parse as _parse_any
from .._text import parse_sizes
from ..errors import LayoutError, ParseError

__all__ = ["JSON_SCHEMA", "SCREEN_CHARS", "add_text", "read_text", "parse_text", "sizes", "read_value", "envelope",
           "json_default", "progress", "Bar", "error_dict", "print_error", "tiled_mma", "needs_tensor",
           "placement_summary"]

#: The ``schema`` field of every ``--json`` object. Common fields: ``schema``, ``command``, ``ok`` (bool),
#: and, when the text parsed, ``family`` and ``text`` (the canonical text); on bad input ``ok`` is false and
#: ``error`` = ``{type, message[, position]}`` (exit status 2). Per command: ``show`` adds the facts
#: (``unilayout.facts.describe``) and ``tables``; ``check`` adds ``valid`` and ``checks``; ``convert`` adds
#: ``to``, ``result`` (the converted text) or ``shards`` (a metal layout's per-core layouts).
JSON_SCHEMA = "unilayout/1"

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


def parse_text(text):
    """``unilayout.parse``, with the command's hint about ``-`` added to the error for empty text.

    >>> try:
    ...     parse_text("  ")
    ... except ParseError as e:
    ...     print(e.message.endswith("(give TEXT, or '-' to read standard input)"), e.position)
    True 2
    """
    try:
        return _parse_any(text)
    except ParseError as e:
        if text.strip():
            raise
        raise ParseError(e.message + " (give TEXT, or '-' to read standard input)", e.text, e.position) from None


def sizes(text):
    """``"8x8"`` or ``"8,8"`` -> (8, 8) (``_text.parse_sizes``); None stays None."""
    return None if text is None else parse_sizes(text)


def read_value(args):
    """The value of ``args.text`` (``-``: standard input); a dynamic TSL resolved for ``--shape``.

    >>> import argparse
    >>> print(read_value(argparse.Namespace(text="#tsl.tsl<[?] -> (1)>", shape="8")))
    #tsl.tsl<[8] -> (1)>
    """
    value = parse_text(read_text(args.text))
    shape = sizes(getattr(args, "shape", None))
    if shape is not None and F._ttnn_config(value):  # a #ttnn.memory_config / nd_shard_spec on a tensor of that shape
        value = value.to_metal(shape)
    if shape is not None and family_of(value) == "tsl" and value.is_dynamic:
        value = value.resolve(shape)
    return value


def tiled_mma(args):
    """The TiledMMA TEXT describes (``SM80_16x8x16_F32F16F16F32_TN (2,2,1)``, ``make_tiled_mma(...)``), else None.

    ``args.text`` is read (``-``: standard input) and kept for the caller.
    """
    from ..cute.tiled import parse_tiled_mma  # lazy: CuTe's atoms load only for show and render
    from ..cute.tiled_copy import parse_tiled_copy  # lazy: as above

    args.text = read_text(args.text)
    mma = parse_tiled_mma(args.text)
    return mma if mma is not None else parse_tiled_copy(args.text)  # or a TiledCopy: make_tiled_copy(Copy_Atom<..>, ..)


def needs_tensor(value, what):
    """A TTNN ND-sharded tensor as its metal layout (or why none); a bare config (no tensor shape): refused, saying why."""
    if F._ttnn_config(value) and hasattr(value, "logical_shape"):  # tensor<..., #ttnn.ttnn_nd_layout<...>>
        return value.to_metal()
    if F._ttnn_config(value):
        raise LayoutError(f"{str(value).split('<', 1)[0]} has no tensor shape to {what}: give --shape (e.g. --shape "
                          f"64x256) to {what} the layout it gives a tensor of that shape")
    return value


def placement_summary(device, tensor_text):
    """``(metal layout, distributed.ShardSummary)`` of the tensor ``tensor_text`` placed on ``device``."""
    from .. import distributed  # lazy: the planner and JAX's vocabulary load only for --place

    placed = parse_text(tensor_text)
    if family_of(device) != "device" or family_of(placed) != "metal":
        raise LayoutError("--place goes with a #tt.device<...> and takes a tensor<..., #tt.metal_layout<...>>")
    return placed, distributed.shard_summary(placed, device)


# ------------------------------------------------------------------------------------------------
# JSON
# ------------------------------------------------------------------------------------------------


def envelope(command, value=None, ok=True):
    """The fields every ``--json`` object starts with (``JSON_SCHEMA``)."""
    d = {"schema": JSON_SCHEMA, "command": command, "ok": ok}
    if value is not None:
        d["family"] = "ttnn" if F._ttnn_config(value) else family_of(value)
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
