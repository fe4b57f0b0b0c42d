"""The errors every unilayout family raises.

One hierarchy for all families, so a caller catches one type::

    >>> from unilayout import cute, LayoutError
    >>> try:
    ...     cute.Layout((2, 3), (1,))
    ... except LayoutError as e:
    ...     print("rejected")
    rejected

- ``LayoutError`` (a ``ValueError``): an invalid layout, argument or operation
  whose preconditions fail. The message says what was expected and what was given.
- ``ParseError`` (a ``LayoutError``): bad text, with the 0-based ``position``
  of the problem; ``str()`` shows the text with a caret under that position.
- ``NotRepresentableError`` (a ``LayoutError``): a conversion that cannot be
  exact; the message says why.
"""

from __future__ import annotations

__all__ = ["LayoutError", "ParseError", "NotRepresentableError"]

#: A line longer than twice this is shown as this many characters either side of the position.
_WINDOW = 120


class LayoutError(ValueError):
    """An invalid layout, argument, or operation whose preconditions fail.

    >>> str(LayoutError("shape (2,3) and stride (1,) are not congruent"))
    'shape (2,3) and stride (1,) are not congruent'
    """


class ParseError(LayoutError):
    """Text that does not parse; ``position`` is the 0-based offset of the problem.

    >>> e = ParseError("expected ':'", "(2,3)x(1,2)", 5)
    >>> e.position
    5
    >>> print(e)
    expected ':' at position 5
      (2,3)x(1,2)
           ^
    """

    def __init__(self, message: str, text: str, position: int):
        self.message = str(message)
        self.text = text if isinstance(text, str) else repr(text)
        try:
            position = int(position)
        except (TypeError, ValueError, OverflowError):
            position = 0
        self.position = max(0, min(position, len(self.text)))
        super().__init__(message)

    def __str__(self) -> str:
        # Show one line of context: the line holding the position.
        start = self.text.rfind("\n", 0, self.position) + 1
        end = self.text.find("\n", self.position)
        end = len(self.text) if end < 0 else end
        # A long line is shown as a window of _WINDOW characters either side of the position.
        lo, hi = start, end
        if end - start > 2 * _WINDOW:
            lo, hi = max(start, self.position - _WINDOW), min(end, self.position + _WINDOW)
        line = ("..." if lo > start else "") + self.text[lo:hi] + ("..." if hi < end else "")
        caret = self.position - lo + (3 if lo > start else 0)
        return f"{self.message} at position {self.position}\n  {line}\n  {' ' * caret}^"

    def __reduce__(self):
        return (type(self), (self.message, self.text, self.position))


class NotRepresentableError(LayoutError):
    """A conversion that cannot be exact; the message says why.

    >>> isinstance(NotRepresentableError("size 12 is not a power of two"), LayoutError)
    True
    """
