"""Triton's two texts of a linear layout, read with the shared scanner: the attribute and ``toString``.

``linear.parse`` (:mod:`unilayout.linear.text`) reads either; this module holds their readers
(``_attr``, ``_tostring``) and :func:`to_attr`.

1. The ``#ttg.linear<{...}>`` attribute (``L.to_attr()``): the bases of the
   four hardware in-dims, always ``register, lane, warp, block``; out-dims are
   ``dim0 .. dim{r-1}`` with sizes inferred from the bases (Triton's rule), so
   the layout must be surjective::

       attr  ::= ['#ttg.linear'] ['<'] '{' [entry (',' entry)*] '}' ['>']   ('<' and '>' together)
       entry ::= ('register' | 'lane' | 'warp' | 'block') '=' '[' [basis (',' basis)*] ']'
       basis ::= '[' [INT (',' INT)*] ']'

   Departures from Triton's parser: unknown and repeated keys are errors
   (Triton ignores them).

2. ``LinearLayout::toString`` (``str(L)``): any in-dims and out-dims, sizes
   explicit, surjective or not::

       tostring ::= line+ 'where out dims are:' outs
                  | '(empty layout' ['with out-dims' outs] ')'
       line     ::= '-' name 'is a size 1 dimension'
                  | '-' name '=' 1 '->' vec (name '=' 2**k '->' vec)*
       vec      ::= '(' [INT (',' INT)*] ')'
       outs     ::= '[' [name '(' 'size' INT ')' (',' name '(' 'size' INT ')')*] ']'
       name     ::= identifier | '"' chars '"'       (quoted with \\\\ and \\" escapes)

   Departure from Triton (which only prints): a name that is not an
   identifier prints in double quotes, so every layout's text reads back.

>>> from unilayout.linear import parse
>>> L = parse("#ttg.linear<{register = [[0, 1]], lane = [[1, 0], [2, 0]], warp = [], block = []}>")
>>> L.out_dims
[('dim0', 4), ('dim1', 2)]
>>> to_attr(L)
'#ttg.linear<{register = [[0, 1]], lane = [[1, 0], [2, 0]], warp = [], block = []}>'
>>> parse(str(L)) == L
True
"""

from __future__ import annotations

from ..._ints import as_int, as_pow2
from ..._text import Scanner
from ...errors import LayoutError
from ..layout import ATTR_IN_DIMS as IN_DIMS
from ..layout import LinearLayout

__all__ = ["to_attr", "IN_DIMS"]


_PREFIX = "#ttg.linear"


#: The bound on numbers in a layout's text: sizes and indices print as 2**k, so the reader takes what str()
#: writes for any layout (2**64 lanes included), and still refuses 5,000-digit numbers as it reads them.
_LARGE = 1 << 1024
_WHERE = "where out dims are:"


def to_attr(layout: LinearLayout) -> str:
    """The ``#ttg.linear<{...}>`` text of a layout (``layout.to_attr()``); ``parse(to_attr(L)) == L``.

    >>> from unilayout.linear import identity_1d, zeros_1d
    >>> L = identity_1d(4, "register", "dim0") * zeros_1d(1, "lane", "dim0")
    >>> to_attr(L * zeros_1d(1, "warp", "dim0") * zeros_1d(1, "block", "dim0"))
    '#ttg.linear<{register = [[1], [2]], lane = [], warp = [], block = []}>'
    """
    if not isinstance(layout, LinearLayout):
        raise LayoutError(f"to_attr: expected a LinearLayout, got {type(layout).__name__}")
    return layout.to_attr()


def _ints(s: Scanner, open_: str, close: str, what: str) -> list:
    """``open_ [INT (',' INT)*] close`` of non-negative ints."""
    s.expect(open_, what)
    vec = []
    if not s.accept(close):
        while True:
            at = s.skip()
            v = s.integer(signs="-", limit=_LARGE)
            if v < 0:
                s.fail(f"basis entry {v} is negative: entries are tensor coordinates", at)
            vec.append(as_int(v, "basis entry"))
            if s.accept(close):
                break
            s.expect(",", f"',' or {close!r}")
    return vec


# --- the #ttg.linear attribute ------------------------------------------------------------------
def _attr(s: Scanner, nested: bool = False) -> LinearLayout:
    """The attribute; ``nested``: inside another attribute (text may follow)."""
    closing = s.accept(_PREFIX)
    if closing:
        s.expect("<")
    else:
        closing = s.accept("<")
    open_pos = s.expect("{")
    found: dict[str, list] = {}
    rank = None
    if not s.at("}"):
        while True:
            npos = s.skip()
            name = s.identifier("an in-dim name (register, lane, warp or block)")
            if name not in IN_DIMS:
                s.fail(f"unknown key {name!r}: #ttg.linear takes exactly register, lane, warp and block", npos)
            if name in found:
                s.fail(f"key {name!r} appears twice", npos)
            s.expect("=")
            s.expect("[", "'[' to open the list of bases")
            vecs = []
            if not s.accept("]"):
                while True:
                    bpos = s.skip()
                    vec = _ints(s, "[", "]", "'[' to open a basis")
                    if rank is None:
                        rank = len(vec)
                    elif len(vec) != rank:
                        s.fail(f"basis {name}={1 << len(vecs)} has {len(vec)} entries but earlier bases have "
                               f"{rank}: every basis needs one entry per tensor dim", bpos)
                    vecs.append(vec)
                    if s.accept("]"):
                        break
                    s.expect(",", "',' or ']'")
            found[name] = vecs
            if not s.accept(","):
                break
    end_pos = s.expect("}", "',' or '}'")
    if closing:
        s.expect(">")
    if not nested:
        s.expect_end()
    missing = [d for d in IN_DIMS if d not in found]
    if missing:
        s.fail(f"missing in-dims {missing}: #ttg.linear needs register, lane, warp and block", end_pos)
    if not rank:
        s.fail("a #ttg.linear layout needs at least one tensor dim (every basis is empty)", open_pos)
    try:
        return LinearLayout([(d, found[d]) for d in IN_DIMS], [f"dim{i}" for i in range(rank)])
    except LayoutError as e:
        s.fail(str(e), open_pos)


# --- Triton's toString -----------------------------------------------------------------------------
def _name(s: Scanner, what: str) -> str:
    """An identifier, or a double-quoted name with ``\\`` escapes."""
    t, at = s.text, s.skip()
    if not t.startswith('"', at):
        return s.identifier(what)
    out, p = [], at + 1
    while p < len(t) and t[p] != '"':
        if t[p] == "\\" and p + 1 < len(t):
            p += 1
        out.append(t[p])
        p += 1
    if p >= len(t):
        s.fail("expected '\"' to close the name, found end of text", at)
    s.pos = p + 1
    return "".join(out)


def _outs(s: Scanner) -> list:
    s.expect("[", "'[' to open the out-dims")
    outs = []
    if not s.accept("]"):
        while True:
            name = _name(s, "an out-dim name")
            s.expect("(")
            s.expect("size", "'size'")
            at = s.skip()
            try:
                outs.append((name, as_pow2(s.integer(limit=_LARGE), f"size of out-dim {name!r}")))
            except LayoutError as e:
                s.fail(str(e), at)
            s.expect(")")
            if s.accept("]"):
                break
            s.expect(",", "',' or ']'")
    return outs


def _tostring(s: Scanner) -> LinearLayout:
    start = s.skip()
    bases = []
    if s.accept("(empty layout"):
        outs = []
        if s.keyword("with"):
            s.expect("out-dims", "'out-dims'")
            outs = _outs(s)
        s.expect(")")
    else:
        while s.accept("-"):
            name = _name(s, "an in-dim name")
            vecs = []
            if s.keyword("is"):
                for word in ("a", "size", "1", "dimension"):
                    s.expect(word, "'is a size 1 dimension'")
            else:
                while True:
                    s.expect("=")
                    at = s.skip()
                    if s.integer(limit=_LARGE) != 1 << len(vecs):
                        s.expected(f"'{1 << len(vecs)}' (the bases of {name} are listed for 1, 2, 4, ...)", at)
                    s.expect("->")
                    vecs.append(_ints(s, "(", ")", "'(' to open a basis"))
                    back = s.pos
                    if s.at("-") or s.at(_WHERE) or s.end():
                        break
                    if _name(s, "an in-dim name") != name:
                        s.pos = back
                        break
            bases.append((name, vecs))
        if not bases:
            s.expected("'- ' and an in-dim, or '(empty layout'")
        s.expect(_WHERE, repr(_WHERE))
        outs = _outs(s)
    s.expect_end()
    try:
        return LinearLayout(bases, outs, require_surjective=False)
    except LayoutError as e:
        s.fail(str(e), start)
