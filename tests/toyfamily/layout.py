"""The toy family's value: ``Times(n, k)``, the layout ``i -> i * k`` over ``[0, n)``, and its text ``toy<n, k>``."""

from unilayout._text import Scanner
from unilayout.errors import LayoutError


class Times:
    """``i -> i * k`` for ``i`` in ``[0, n)`` (immutable)."""

    __slots__ = ("n", "k")

    def __init__(self, n, k):
        if not isinstance(n, int) or n < 1 or not isinstance(k, int) or k < 0:
            raise LayoutError(f"toy: expected n >= 1 and k >= 0, got {n!r}, {k!r}")
        object.__setattr__(self, "n", n)
        object.__setattr__(self, "k", k)

    def __setattr__(self, name, value):
        raise AttributeError("Times is immutable")

    def __eq__(self, other):
        return isinstance(other, Times) and (self.n, self.k) == (other.n, other.k)

    def __hash__(self):
        return hash((self.n, self.k))

    def __repr__(self):
        return f"Times({self.n}, {self.k})"

    def __str__(self):
        return f"toy<{self.n}, {self.k}>"


def parse(text):
    """``toy<n, k>`` -> ``Times(n, k)``; a ParseError with the position otherwise."""
    s = Scanner(text)
    s.expect("toy<")
    n = s.integer()
    s.expect(",")
    k = s.integer()
    s.expect(">")
    s.expect_end()
    return Times(n, k)
