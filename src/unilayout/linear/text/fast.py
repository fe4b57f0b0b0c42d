"""The fast reader of encoding attributes: one regex pass into tokens, then the same grammar over them.

It gives the same values as the positioned reader (:mod:`.attr`) for every text
that reader accepts; on anything unusual (an error, a sign, a number past 32
bits, an unknown alias) it gives up (``_Slow``) and the positioned reader runs,
so errors and their positions are unchanged. :func:`_fast_parse` is the entry.

>>> enc = _fast_parse("#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>", None)
>>> type(enc).__name__, enc.vec
('SwizzledShared', 2)
>>> _fast_parse("#ttg.swizzled_shared<{vec = -2}>", None) is None
True
"""

from __future__ import annotations

import re

from ..layout import LinearLayout
from .attr import _DIALECTS, _U32, KINDS, MAX_DEPTH, _Fields, _Unread

# The tokens: a whole list of integers, a name (or #alias / #dialect.kind), a number, ':+', or one character.
_TOKENS = re.compile(r"[ \t\r\n]*(\[[ \t\r\n]*[0-9]+(?:[ \t\r\n]*,[ \t\r\n]*[0-9]+)*[ \t\r\n]*\]"  # [1, 8]
                     r"|#?[A-Za-z_][A-Za-z0-9_$.]*|[0-9]+|:\+|[^ \t\r\n])")
_FAST_DIALECTS = {d[1:] for d in _DIALECTS}
_LINEAR_DIMS = ("register", "lane", "warp", "block")  # linear_attr.IN_DIMS, in that order


class _Slow(Exception):
    """The fast reader gives up; the positioned one reads the text (and reports any error)."""


def _fast_value(toks, i, aliases, depth=0):
    t = toks[i]
    if depth >= MAX_DEPTH and (t in ("[", "{") or t[:1] == "#"):
        raise _Slow  # one level past MAX_DEPTH: the positioned reader points at it
    if t[0] == "[" and len(t) > 1:  # a list of integers, one token
        out = list(map(int, t[1:-1].split(",")))  # int() skips the spaces around each number
        if max(out) > _U32:
            raise _Slow
        return out, i + 1
    if t == "[":
        out = []
        i += 1
        if toks[i] == "]":
            return out, i + 1
        while True:
            v, i = _fast_value(toks, i, aliases, depth + 1)
            out.append(v)
            t = toks[i]
            i += 1
            if t == "]":
                return out, i
            if t != ",":
                raise _Slow
    if t == "{":
        return _fast_dict(toks, i, aliases, depth + 1)
    if t[0] == "#":
        return _fast_attr(toks, i, aliases, depth + 1)
    if t.isdigit():
        if len(t) > 10 or int(t) > _U32:
            raise _Slow
        return int(t), i + 1
    if t == "true":
        return True, i + 1
    if t == "false":
        return False, i + 1
    raise _Slow


def _fast_dict(toks, i, aliases, depth=0):
    out = {}
    i += 1  # '{'
    if toks[i] == "}":
        return out, i + 1
    while True:
        name = toks[i]
        if not (name[0].isalpha() or name[0] == "_") or name in out or toks[i + 1] != "=":
            raise _Slow
        v, i = _fast_value(toks, i + 2, aliases, depth)
        out[name] = (v, 0)  # as _dict: (value, position)
        t = toks[i]
        i += 1
        if t == "}":
            return out, i
        if t != ",":
            raise _Slow


def _fast_attr(toks, i, aliases, depth=0):
    head = toks[i][1:]
    dialect = head[:head.find(".") + 1]
    if dialect not in _FAST_DIALECTS:
        got = aliases.get(head) if aliases else None
        if got is None or isinstance(got, _Unread):
            raise _Slow
        return got, i + 1
    kind = head[len(dialect):]
    key = ("ttng." if dialect == "ttng." else "ttg.") + kind
    cls = KINDS.get(key)
    if cls is None or toks[i + 1] != "<":
        raise _Slow
    i += 2
    items, pairs = {}, None
    if kind == "linear":
        if toks[i] != "{":
            raise _Slow
        found, i = _fast_dict(toks, i, None)
        if toks[i] != ">" or set(found) != set(_LINEAR_DIMS) or len(found) != 4:
            raise _Slow
        found = {d: v for d, (v, _) in found.items()}
        vecs = [v for d in _LINEAR_DIMS for v in found[d]]
        if not vecs or not all(type(v) is list and v and set(map(type, v)) == {int} for v in vecs):
            raise _Slow
        rank = len(vecs[0])
        if any(len(v) != rank for v in vecs):
            raise _Slow
        return cls(LinearLayout([(d, found[d]) for d in _LINEAR_DIMS], [f"dim{k}" for k in range(rank)])), i + 1
    if toks[i] != ">":
        while True:
            t = toks[i]
            if t == "{":
                d, i = _fast_dict(toks, i, aliases, depth)
                for name, v in d.items():
                    if name in items:
                        raise _Slow
                    items[name] = v
            elif t == "[":
                if pairs is not None:
                    raise _Slow
                i += 1
                pairs = []
                while True:  # INT ':+' INT (',' INT ':+' INT)* ']'
                    a, b = toks[i], toks[i + 2]
                    if not (a.isdigit() and b.isdigit() and toks[i + 1] == ":+") or len(a) > 10 or len(b) > 10:
                        raise _Slow
                    pairs.append([int(a), int(b)])
                    if pairs[-1][0] < 1 or pairs[-1][0] > _U32 or pairs[-1][1] > _U32:
                        raise _Slow
                    t = toks[i + 3]
                    i += 4
                    if t == "]":
                        break
                    if t != ",":
                        raise _Slow
                pairs = (pairs, 0)
            else:
                if not (t[0].isalpha() or t[0] == "_") or t in items or toks[i + 1] != "=":
                    raise _Slow
                items[t], i = _fast_value(toks, i + 2, aliases, depth)
                items[t] = (items[t], 0)
            t = toks[i]
            if t == ",":
                i += 1
                continue
            if t == ">":
                break
            if t in "{[":
                continue
            raise _Slow
    fields = _Fields(_GIVE_UP, dialect + kind, 0)
    fields.items, fields.pairs = items, pairs
    enc = cls._read(fields)
    fields.done()
    return enc, i + 1


class _GiveUp:
    """The scanner of the fast reader's fields: any failure hands the text to the positioned reader."""

    def fail(self, *args):
        raise _Slow


_GIVE_UP = _GiveUp()


def _fast_parse(text: str, aliases):
    """The encoding of ``text`` by the fast reader, or ``None`` (the positioned reader decides)."""
    toks = _TOKENS.findall(text.rstrip(" \t\r\n"))  # trailing blanks would cost a scan from each one
    toks.append("")  # end marker: no rule accepts it
    try:
        got, i = _fast_attr(toks, 0, aliases) if toks[0][:1] == "#" else (None, 0)
        return got if i == len(toks) - 1 else None
    except Exception:  # noqa: BLE001 - any doubt: the positioned reader reads it and reports errors
        return None
