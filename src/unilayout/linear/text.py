"""Triton's ``#ttg.linear<{...}>`` attribute: parse and print.

The attribute lists the bases of the four hardware in-dims, always in the
order ``register, lane, warp, block``; out-dims are ``dim0 .. dim{r-1}``
with sizes inferred from the bases (Triton's rule), so the layout must be
surjective::

    #ttg.linear<{register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]],
                 warp = [[16, 0], [32, 0]], block = []}>

Differences from Triton's parser: unknown keys and repeated keys are errors
(Triton ignores them), and every error is a ``ParseError`` with the position.

>>> L = parse("#ttg.linear<{register = [[0, 1]], lane = [[1, 0], [2, 0]], warp = [], block = []}>")
>>> L.out_dims
[('dim0', 4), ('dim1', 2)]
>>> to_attr(L)
'#ttg.linear<{register = [[0, 1]], lane = [[1, 0], [2, 0]], warp = [], block = []}>'
"""

from __future__ import annotations

from ..errors import LayoutError, ParseError
from .layout import LinearLayout

__all__ = ["parse", "to_attr", "IN_DIMS"]

#: The in-dims of a ``#ttg.linear`` attribute, in order.
IN_DIMS = ("register", "lane", "warp", "block")
_PREFIX = "#ttg.linear"


class _Reader:
    __slots__ = ("text", "pos")

    def __init__(self, text: str):
        self.text = text
        self.pos = 0

    def skip(self) -> None:
        t = self.text
        n = len(t)
        p = self.pos
        while p < n and t[p] in " \t\r\n":
            p += 1
        self.pos = p

    def peek(self) -> str:
        self.skip()
        return self.text[self.pos:self.pos + 1]

    def expect(self, ch: str, what: str) -> None:
        self.skip()
        if not self.text.startswith(ch, self.pos):
            got = self.text[self.pos:self.pos + 1] or "end of text"
            raise ParseError(f"expected {what + ' ' if what else ''}{ch!r}, got {got!r}", self.text, self.pos)
        self.pos += len(ch)

    def ident(self) -> tuple[str, int]:
        self.skip()
        t = self.text
        start = p = self.pos
        while p < len(t) and (t[p].isalnum() or t[p] in "_$."):
            p += 1
        if p == start:
            got = t[p:p + 1] or "end of text"
            raise ParseError(f"expected an in-dim name (register, lane, warp or block), got {got!r}", t, p)
        self.pos = p
        return t[start:p], start

    def integer(self) -> tuple[int, int]:
        self.skip()
        t = self.text
        start = p = self.pos
        if p < len(t) and t[p] in "+-":
            p += 1
        digits = p
        while p < len(t) and "0" <= t[p] <= "9":
            p += 1
        if p == digits:
            got = t[start:start + 1] or "end of text"
            raise ParseError(f"expected an integer basis entry, got {got!r}", t, start)
        self.pos = p
        return int(t[start:p]), start


def parse(text: str) -> LinearLayout:
    """Parse ``#ttg.linear<{register = [...], lane = [...], warp = [...], block = [...]}>``.

    The ``#ttg.linear`` prefix may be omitted (``<{...}>`` or ``{...}``).
    All four in-dims are required; out-dims are ``dim0..`` with inferred
    sizes; the layout must be surjective. Errors are ``ParseError`` with the
    position of the problem.

    >>> parse("{register = [[1]], lane = [], warp = [], block = []}").bases
    [('register', [[1]]), ('lane', []), ('warp', []), ('block', [])]
    >>> parse("#ttg.linear<{register = [[1]], lane = [[1, 0]], warp = [], block = []}>")
    Traceback (most recent call last):
    ...
    unilayout.errors.ParseError: basis lane=1 has 2 entries but earlier bases have 1: every basis needs one entry per tensor dim at position 39
      #ttg.linear<{register = [[1]], lane = [[1, 0]], warp = [], block = []}>
                                             ^
    """
    if not isinstance(text, str):
        raise LayoutError(f"parse: expected a string, got {type(text).__name__}")
    r = _Reader(text)
    r.skip()
    closing = False
    if text.startswith(_PREFIX, r.pos):
        r.pos += len(_PREFIX)
        r.expect("<", "")
        closing = True
    elif r.peek() == "<":
        r.expect("<", "")
        closing = True
    open_pos = r.pos
    r.expect("{", "")
    found: dict[str, list] = {}
    rank = None
    if r.peek() != "}":
        while True:
            name, npos = r.ident()
            if name not in IN_DIMS:
                raise ParseError(
                    f"unknown key {name!r}: #ttg.linear takes exactly register, lane, warp and block", text, npos
                )
            if name in found:
                raise ParseError(f"key {name!r} appears twice", text, npos)
            r.expect("=", "")
            r.expect("[", "a list of bases")
            vecs = []
            if r.peek() != "]":
                while True:
                    bpos = r.pos
                    r.skip()
                    bpos = r.pos
                    r.expect("[", "a basis")
                    vec = []
                    if r.peek() != "]":
                        while True:
                            val, vpos = r.integer()
                            if val < 0:
                                raise ParseError(
                                    f"basis entry {val} is negative: entries are tensor coordinates", text, vpos
                                )
                            vec.append(val)
                            if r.peek() == ",":
                                r.expect(",", "")
                                continue
                            break
                    r.expect("]", "the end of a basis")
                    if rank is None:
                        rank = len(vec)
                    elif len(vec) != rank:
                        raise ParseError(
                            f"basis {name}={1 << len(vecs)} has {len(vec)} entries but earlier bases have "
                            f"{rank}: every basis needs one entry per tensor dim",
                            text,
                            bpos,
                        )
                    vecs.append(vec)
                    if r.peek() == ",":
                        r.expect(",", "")
                        continue
                    break
            r.expect("]", "the end of the list of bases")
            found[name] = vecs
            if r.peek() == ",":
                r.expect(",", "")
                continue
            break
    end_pos = r.pos
    r.expect("}", "")
    if closing:
        r.expect(">", "")
    r.skip()
    if r.pos != len(text):
        raise ParseError("unexpected text after the attribute", text, r.pos)
    missing = [d for d in IN_DIMS if d not in found]
    if missing:
        raise ParseError(f"missing in-dims {missing}: #ttg.linear needs register, lane, warp and block", text, end_pos)
    if not rank:
        raise ParseError("a #ttg.linear layout needs at least one tensor dim (every basis is empty)", text, open_pos)
    try:
        return LinearLayout([(d, found[d]) for d in IN_DIMS], [f"dim{i}" for i in range(rank)])
    except LayoutError as e:
        raise ParseError(str(e), text, open_pos) from None


def to_attr(layout: LinearLayout) -> str:
    """The ``#ttg.linear<{...}>`` text of a layout with in-dims register, lane, warp, block.

    **Pre-conditions:** in-dims exactly ``register, lane, warp, block`` (in
    order), out-dims ``dim0..dim{r-1}`` (r >= 1) whose sizes are the ones the
    bases imply (the attribute does not carry sizes).

    **Post-conditions:** ``parse(to_attr(L)) == L``.

    >>> from unilayout.linear import identity_1d, zeros_1d
    >>> L = identity_1d(4, "register", "dim0") * zeros_1d(1, "lane", "dim0")
    >>> to_attr(L * zeros_1d(1, "warp", "dim0") * zeros_1d(1, "block", "dim0"))
    '#ttg.linear<{register = [[1], [2]], lane = [], warp = [], block = []}>'
    """
    if not isinstance(layout, LinearLayout):
        raise LayoutError(f"to_attr: expected a LinearLayout, got {type(layout).__name__}")
    names = layout.in_dim_names
    if tuple(names) != IN_DIMS:
        raise LayoutError(
            f"#ttg.linear needs exactly the in-dims {list(IN_DIMS)} in that order, got {names}"
        )
    outs = layout.out_dim_names
    if not outs or outs != [f"dim{i}" for i in range(len(outs))]:
        raise LayoutError(f"#ttg.linear needs out-dims dim0, dim1, ... in order, got {outs}")
    body = ", ".join(
        f"{name} = [" + ", ".join("[" + ", ".join(str(e) for e in v) + "]" for v in vecs) + "]"
        for name, vecs in layout._bases
    )
    text = "#ttg.linear<{" + body + "}>"
    try:
        back = parse(text)
    except LayoutError:
        back = None
    if back != layout:
        raise LayoutError(
            f"#ttg.linear cannot carry this layout: its out-dims {layout.out_dims} are not the sizes Triton "
            "infers from the bases, or it is not surjective"
        )
    return text
