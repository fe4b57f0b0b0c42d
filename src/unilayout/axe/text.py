"""Reading and writing TIRx layouts: the paper's ``S[..] + R[..] + offset`` text and what TIRx prints.

The paper (Axe) and TIRx's Python builders write a layout as a sum:
``S[(8,2):(4@laneid,1@m)] + R[4:1@warpid] + 3@m + 2@laneid``. ``S[..]`` holds
the shard iters as CuTe-like ``extents:strides`` (``stride@axis``; a bare
stride is on ``m``; ``S[8, 4, 2]`` gives extents only, row-major strides on
``m``), ``R[..]`` the replica iters, and each ``value@axis`` (a bare value:
``m``) adds to the offsets. TIRx prints
``T.TileLayout.from_iters(shard=[T.Iter(8, 4, "laneid"), ..], replica=[..],
offset={"laneid": 2, "m": 3})`` (offsets sorted by name, left out when there
are none) and ``T.ComposeLayout(0, 2, 3, <tile>[, swizzle_inner=False])``.
``parse`` reads all of these (``T.`` optional, ``TileLayout(<sum>)`` too);
``str()`` writes the paper's text, ``to_tirx()`` TIRx's, byte for byte.

>>> L = parse("S[(8,2):(4@laneid,1@m)] + R[(4,):(1@warpid,)] + 3@m + 2@laneid")
>>> str(L)
'S[(8,2):(4@laneid,1@m)] + R[4:1@warpid] + 2@laneid + 3@m'
>>> L.to_tirx()
'T.TileLayout.from_iters(shard=[T.Iter(8, 4, "laneid"), T.Iter(2, 1, "m")], replica=[T.Iter(4, 1, "warpid")], offset={"laneid": 2, "m": 3})'
>>> parse(L.to_tirx()) == L
True
>>> parse("S[(8,2):(4@laneid)]")
Traceback (most recent call last):
...
unilayout.errors.ParseError: S[..]: 2 extents but 1 strides at position 1
  S[(8,2):(4@laneid)]
   ^
"""

from __future__ import annotations

import re

from ..errors import LayoutError, ParseError
from .layout import ComposeLayout, Iter, TileLayout, paper_text, tirx_text

__all__ = ["parse", "paper_text", "tirx_text"]

_TOKEN = re.compile(r"\s*(?:(?P<int>-?\d+)|(?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)|"
                    r"(?P<str>\"[^\"]*\"|'[^']*')|(?P<p>[()\[\]{}:,@+=]))")


class _Reader:
    def __init__(self, text):
        self.text, self.toks, pos = text, [], 0
        while True:
            m = _TOKEN.match(text, pos)
            if m is None or m.end() == pos:
                rest = text[pos:].strip()
                if rest:
                    raise ParseError(f"unexpected character {rest[0]!r}", text, len(text) - len(text[pos:].lstrip()))
                break
            kind = m.lastgroup
            self.toks.append((kind, m.group(kind), m.start(kind)))
            pos = m.end()
        self.toks.append(("end", "", len(text)))
        self.k = 0

    def peek(self):
        return self.toks[self.k]

    def next(self):
        t = self.toks[self.k]
        self.k += 1
        return t

    def fail(self, msg, tok=None):
        raise ParseError(msg, self.text, (tok or self.peek())[2])

    def take(self, value):
        t = self.peek()
        if t[1] != value or t[0] in ("str", "int"):
            self.fail(f"expected {value!r}, got {t[1]!r}" if t[0] != "end" else f"expected {value!r} at the end")
        return self.next()

    def maybe(self, value):
        if self.peek()[1] == value and self.peek()[0] == "p":
            self.next()
            return True
        return False

    def int(self):
        t = self.next()
        if t[0] != "int":
            self.fail(f"expected an integer, got {t[1]!r}" if t[0] != "end" else "expected an integer", t)
        if len(t[1].lstrip("+-").lstrip("0")) > 19:
            self.fail("an integer past int64", t)
        return int(t[1])

    def axis(self):
        t = self.next()
        if t[0] == "str":
            return t[1][1:-1], t
        if t[0] == "name":
            return t[1].rsplit(".", 1)[-1], t
        self.fail(f"expected an axis name, got {t[1]!r}" if t[0] != "end" else "expected an axis name", t)

    def keyword(self, name):
        """Skip ``name=`` when it is next."""
        t = self.peek()
        if t[0] == "name" and t[1] == name and self.toks[self.k + 1][1] == "=":
            self.k += 2


def _ctor(name):
    return name.rsplit(".", 1)[-1] if name.split(".")[0] in ("T", "tirx", "axe", "L") or "." not in name else name


def parse(text):
    """A ``TileLayout`` or ``ComposeLayout`` from the paper's text or TIRx's print (module docstring).

    >>> parse("S[8, 4]").shard
    (Iter(8, 4, 'm'), Iter(4, 1, 'm'))
    """
    if not isinstance(text, str):
        raise LayoutError(f"axe.parse: expected text, got {type(text).__name__}")
    r = _Reader(text)
    value = _layout(r)
    if r.peek()[0] != "end":
        r.fail(f"unexpected {r.peek()[1]!r} after the layout")
    return value


def _layout(r):
    t = r.peek()
    name = t[1] if t[0] == "name" else ""
    head = _ctor(name)
    if head == "ComposeLayout":
        r.next()
        r.take("(")
        nums = []
        for key in ("per_element", "swizzle_len", "atom_len"):
            r.keyword(key)
            nums.append(r.int())
            r.take(",")
        r.keyword("tile_layout")
        tile = _layout(r)
        if not isinstance(tile, TileLayout):
            r.fail("ComposeLayout: the fourth argument is a TileLayout", t)
        inner = True
        if r.maybe(","):
            r.keyword("swizzle_inner")
            b = r.next()
            if b[1] not in ("True", "False", "1", "0"):
                r.fail(f"swizzle_inner is True or False, got {b[1]!r}", b)
            inner = b[1] in ("True", "1")
        r.take(")")
        return _build(r, t, lambda: ComposeLayout(*nums, tile, inner))
    if head == "from_iters" or name.endswith("TileLayout.from_iters"):
        return _from_iters(r)
    if head == "TileLayout":
        r.next()
        r.take("(")
        value = _sum(r)
        r.take(")")
        return value
    if head in ("S", "R"):
        return _sum(r)
    r.fail("expected a TIRx layout: S[..], T.TileLayout.from_iters(..) or T.ComposeLayout(..)")


def _build(r, tok, make):
    try:
        return make()
    except ParseError:
        raise
    except LayoutError as e:
        r.fail(str(e), tok)


def _from_iters(r):
    t = r.next()
    r.take("(")
    parts = {"shard": [], "replica": [], "offset": {}}
    order, seen = ["shard", "replica", "offset"], set()
    while not r.maybe(")"):
        if seen:
            r.take(",")
            if r.maybe(")"):
                break
        tok = r.peek()
        key = tok[1] if tok[0] == "name" and r.toks[r.k + 1][1] == "=" else None
        if key is None:
            if len(seen) >= 3 or any(k in seen for k in order[len(seen):]):
                r.fail("from_iters takes shard, replica and offset")
            key = order[len(seen)]
        elif key not in order:
            r.fail(f"from_iters takes shard, replica and offset, not {key!r}")
        else:
            r.k += 2
        if key in seen:
            r.fail(f"{key} given twice", tok)
        seen.add(key)
        if key == "offset":
            r.take("{")
            while not r.maybe("}"):
                a, at = r.axis()
                r.take(":")
                if a in parts["offset"]:
                    r.fail(f"offset: axis {a!r} given twice", at)
                parts["offset"][a] = r.int()
                if not r.maybe(","):
                    r.take("}")
                    break
        else:
            r.take("[")
            while not r.maybe("]"):
                it = r.next()
                if it[0] != "name" or _ctor(it[1]) != "Iter":
                    r.fail(f"expected T.Iter(extent, stride, axis), got {it[1]!r}", it)
                r.take("(")
                e = r.int()
                r.take(",")
                s = r.int()
                r.take(",")
                a, at = r.axis()
                r.take(")")
                parts[key].append(_build(r, at, lambda: Iter.of((e, s, a))))
                if not r.maybe(","):
                    r.take("]")
                    break
    return _build(r, t, lambda: TileLayout(parts["shard"], parts["replica"], parts["offset"]))


def _sum(r):
    start = r.peek()
    shard = replica = None
    offset = {}
    while True:
        t = r.peek()
        head = _ctor(t[1]) if t[0] == "name" else ""
        if head in ("S", "R"):
            r.next()
            its = _bracket(r, head)
            if head == "S":
                if shard is not None:
                    r.fail("a layout has one S[..]", t)
                shard = its
            else:
                if replica is not None:
                    r.fail("a layout has one R[..]", t)
                replica = its
        elif t[0] == "int":
            v = r.int()
            a = r.axis()[0] if r.maybe("@") else "m"
            offset[a] = offset.get(a, 0) + v
        else:
            r.fail("expected S[..], R[..] or an offset value@axis" if t[0] != "end" else "expected a term after '+'")
        if not r.maybe("+"):
            break
    return _build(r, start, lambda: TileLayout(shard or [], replica or [], offset))


def _group(r, item):
    if r.maybe("("):
        out = []
        while not r.maybe(")"):
            out.append(item())
            if not r.maybe(","):
                r.take(")")
                break
        return out
    return [item()]


def _stride(r):
    v = r.int()
    return (v, r.axis()[0]) if r.maybe("@") else (v, "m")


def _bracket(r, kind):
    open_ = r.take("[")
    extents = _group(r, r.int)
    if r.maybe(":"):
        strides = _group(r, lambda: _stride(r))
        if len(strides) != len(extents):
            r.fail(f"{kind}[..]: {len(extents)} extents but {len(strides)} strides", open_)
    else:
        while r.maybe(","):
            extents.append(r.int())
        strides, acc = [], 1
        for e in reversed(extents):  # row-major on m, as TIRx's default strides
            strides.append((acc, "m"))
            acc *= e
        strides.reverse()
    r.take("]")
    return [_build(r, open_, lambda e=e, s=s: Iter.of((e, s[0], s[1]))) for e, s in zip(extents, strides)]
