"""The one place where the explorer reads layout text: ``parse_any(text)``.

It hands the text to ``unilayout.parse`` (the top-level parser that detects
the family) when that exists, and otherwise picks the family by the text's
first characters, exactly as design.md lists them: ``#ttg.linear<`` (linear),
``#tsl.tsl<`` or ``[`` (TSL), ``tensor<`` / ``#tt.`` (tt), ``affine_map<`` or
``(...) -> (...)`` (affine), anything else CuTe (``Sw<..> o ..`` included).

>>> type(parse_any("(4,8):(8,1)")).__name__, type(parse_any("(d0) -> (d0 * 2)")).__name__
('Layout', 'AffineMap')
>>> parse_any("(4,8):(8,")
Traceback (most recent call last):
...
unilayout.errors.ParseError: ...
"""

from __future__ import annotations

from ..errors import LayoutError, ParseError

__all__ = ["parse_any", "family_of"]


def _fallback(text: str):
    from .. import affine, cute, linear, tsl, tt

    s = text.strip()
    if s.startswith("#ttg.") or s.startswith("#triton_gpu."):
        return linear.parse(text)
    if s.startswith("#tsl") or s.startswith("["):
        return tsl.parse(text)
    if s.startswith("tensor<") or s.startswith("#tt."):
        return tt.parse(text)
    if s.startswith("affine_map<") or s.startswith("#map") or "->" in s:
        return affine.parse(text)
    return cute.parse(text)


def parse_any(text: str):
    """The layout value that ``text`` describes, in whichever family it is written.

    Raises ``ParseError`` (with ``position``) for text that does not parse and
    ``LayoutError`` for text that parses into an invalid layout.

    >>> print(parse_any("#tsl.tsl<[2, 4] -> (32, 4)>"))
    #tsl.tsl<[2, 4] -> (32, 4)>
    >>> parse_any(42)
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: layout text must be a string, got int
    """
    if not isinstance(text, str):
        raise LayoutError(f"layout text must be a string, got {type(text).__name__}")
    if not text.strip():
        raise ParseError("expected layout text, got nothing", text, 0)
    import unilayout

    top = getattr(unilayout, "parse", None)
    if callable(top):
        return top(text)
    return _fallback(text)


def family_of(value) -> str:
    """The family name of a layout value: ``cute``, ``linear``, ``affine``, ``tsl`` or ``tt``.

    >>> text = "#ttg.linear<{register = [[1]], lane = [], warp = [], block = []}>"
    >>> family_of(parse_any("8:1")), family_of(parse_any(text))
    ('cute', 'linear')
    """
    module = type(value).__module__.split(".")
    if len(module) >= 2 and module[0] == "unilayout" and module[1] in ("cute", "linear", "affine", "tsl", "tt"):
        return module[1]
    raise LayoutError(f"not a unilayout layout value: {type(value).__name__}")
