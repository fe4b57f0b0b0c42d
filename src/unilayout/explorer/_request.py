"""What the explorer accepts in a request: the checks of its fields, and the errors it answers with.

Every request body is one JSON object; these helpers read its fields or
refuse them with a ``RequestError`` (a ``LayoutError`` with the HTTP status
and the field to point at). ``error_payload`` is the JSON of any refusal:
``{"error": {"message", "position", "field", "text", "detail"}}``, with the
position in the text of ``field`` for text that does not parse.

>>> body = {"text": "(2,2):(1,2)", "shape": "53x63"}
>>> text_of(body, "text"), ints_of(body["shape"], "shape")
('(2,2):(1,2)', [53, 63])
>>> ints_of("3, 0", "grid")
Traceback (most recent call last):
...
unilayout.explorer._request.RequestError: 'grid' entries must be >= 1, got [3, 0]
>>> error_payload(RequestError("no such request", 404))["error"]["message"]
'no such request'
"""

from __future__ import annotations

from .._families import record
from ..errors import LayoutError, ParseError

__all__ = ["RequestError", "MAX_REQUEST_BYTES", "MAX_TEXT", "MAX_RANK", "error_payload", "text_of", "ints_of",
           "with_field", "check_rank"]

#: Largest request body accepted (bytes); larger ones get 413.
MAX_REQUEST_BYTES = 64 * 1024
#: Longest layout text accepted (characters).
MAX_TEXT = 8192
#: Most modes (CuTe flat modes, linear in+out dims, affine dims+symbols+results, ...) a drawn layout may have:
#: with at most ``views.MAX_CELLS`` cells, an answer is bounded by cells x rank as well as by cells.
MAX_RANK = 64


class RequestError(LayoutError):
    """A request the explorer refuses; ``status`` is the HTTP status to answer with.

    >>> RequestError("no such request", 404).status
    404
    """

    def __init__(self, message, status=400, field=None):
        super().__init__(message)
        self.status = status
        self.field = field


def error_payload(exc, field=None) -> dict:
    """The JSON answer of the error ``exc`` (a ``ParseError`` gives its position and text)."""
    position = None
    message = str(exc)
    text = None
    if isinstance(exc, ParseError):
        position, message, text = exc.position, exc.message, exc.text
    return {"error": {"message": message, "position": position, "field": getattr(exc, "field", None) or field,
                      "text": text, "detail": str(exc)}}


def text_of(body, key, required=True):
    """The layout text in field ``key`` (at most ``MAX_TEXT`` characters; None when absent and not ``required``)."""
    value = body.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise RequestError(f"'{key}' must be a string of layout text, got {type(value).__name__}", field=key)
    if len(value) > MAX_TEXT:
        raise RequestError(f"'{key}' is {len(value)} characters long; at most {MAX_TEXT} are accepted", 413, key)
    return value


def ints_of(value, key, *, allow_none=False, negative=False):
    """A list of at most 16 integers from a JSON list or a text like ``53x63`` / ``3, 2`` (>= 1 unless ``negative``)."""
    if value is None and allow_none:
        return None
    if isinstance(value, str):  # "53x63", "3, 2"
        parts = [p for p in value.replace("x", ",").replace(" ", ",").split(",") if p]
        try:
            value = [int(p) for p in parts]
        except ValueError:
            raise RequestError(f"'{key}' must be integers like 53x63, got {value!r}", field=key) from None
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise RequestError(f"'{key}' must be a list of integers, got {value!r}", field=key)
    if len(value) > 16:
        raise RequestError(f"'{key}' has {len(value)} entries; at most 16 are accepted", field=key)
    if not negative and any(v < 1 for v in value):
        raise RequestError(f"'{key}' entries must be >= 1, got {value}", field=key)
    if any(abs(v) > 1 << 40 for v in value):
        raise RequestError(f"'{key}' entries are too large: {value}", field=key)
    return value


def with_field(fn, field):
    """``fn()``, its ``LayoutError`` (if any) pointed at ``field`` unless it names one already."""
    try:
        return fn()
    except LayoutError as exc:
        if not getattr(exc, "field", None):
            exc.field = field
        raise


def check_rank(value, key):
    """``value`` if its family's ``rank`` (numbers per cell) is at most ``MAX_RANK``, else 413 on field ``key``.

    >>> from unilayout import cute
    >>> check_rank(cute.Layout((2,) * 65, (1,) * 65), "a")
    Traceback (most recent call last):
    ...
    unilayout.explorer._request.RequestError: 'a' has 65 modes/dims; the explorer draws layouts of at most 64
    """
    r = record(value).rank(value)
    if r > MAX_RANK:
        raise RequestError(f"'{key}' has {r} modes/dims; the explorer draws layouts of at most {MAX_RANK}", 413, key)
    return value
