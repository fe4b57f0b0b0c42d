"""The positioned reader of Triton's encoding attributes: ``#ttg.KIND<...>`` text -> an encoding value.

Grammar (a subset of MLIR attribute syntax, as Triton prints it)::

    attr   ::= '#' ('ttg' | 'triton_gpu' | 'ttng') '.' KIND '<' [item (',' item)*] '>'  |  '#' ALIAS
    item   ::= '{' [field (',' field)*] '}'  |  field  |  '[' INT ':+' INT (',' INT ':+' INT)* ']'
    field  ::= NAME '=' value
    value  ::= INT | 'true' | 'false' | '[' [value (',' value)*] ']' | '{' [field (',' field)*] '}' | attr

The reader names no encoding: it collects an attribute's fields (:class:`_Fields`,
each with its position) and hands them to the class registered for the kind in
:data:`KINDS` (``cls._read(fields)``, driven by the class's ``FIELDS``; the
encodings register themselves as they are defined, ``linear.encodings._base``).
``#ttg.linear`` has its own grammar (``linear_attr``). Every error names the
field and points at it.

Departures from Triton's parser: unknown and repeated fields are errors
(Triton ignores some), and a field of the wrong type names the field.

>>> from unilayout._text import Scanner
>>> from unilayout.linear import encodings
>>> _attr(Scanner("#ttg.slice<{dim = 0, parent = #b}>"), {"b": encodings.Blocked([1], [32], [4], [0])}).dim
0
>>> _attr(Scanner("#ttg.blocked<{sizePerThread = true}>"), None)
Traceback (most recent call last):
...
unilayout.errors.ParseError: field 'sizePerThread' of #ttg.blocked must be a list of integers at position 30
  #ttg.blocked<{sizePerThread = true}>
                                ^
"""

from __future__ import annotations

import re

from ..._text import Scanner
from .linear_attr import _attr as linear_attr

#: The encoding classes the readers build, by kind (``"ttg.blocked"`` -> ``Blocked``), in the order they
#: were defined: each encoding class registers itself here (``linear.encodings._base``).
KINDS: dict = {}

_DIALECTS = ("#ttg.", "#triton_gpu.", "#ttng.")
_INT_ONLY = {int}


class _Fields:
    """The fields of one attribute: name -> (value, position); each taken once, the rest refused."""

    def __init__(self, s: Scanner, kind: str, end: int):
        self.s, self.kind, self.end, self.items, self.pairs = s, kind, end, {}, None

    def add(self, name, value, pos):
        if name in self.items:
            self.s.fail(f"field {name!r} appears twice in #{self.kind}", pos)
        self.items[name] = (value, pos)

    def _take(self, name, required):
        if name not in self.items:
            if required:
                self.s.fail(f"#{self.kind} needs the field {name!r}", self.end)
            return None, None
        return self.items.pop(name)

    def int(self, name, required=True, default=None):
        v, pos = self._take(name, required)
        if pos is None:
            return default
        if isinstance(v, bool) or not isinstance(v, int):
            self.s.fail(f"field {name!r} of #{self.kind} must be an integer", pos)
        return v

    def bool(self, name, required=True, default=False):
        v, pos = self._take(name, required)
        if pos is None:
            return default
        if not isinstance(v, bool):
            self.s.fail(f"field {name!r} of #{self.kind} must be true or false", pos)
        return v

    def ints(self, name, required=True, default=None):
        v, pos = self._take(name, required)
        if pos is None:
            return default
        if type(v) is list and set(map(type, v)) <= _INT_ONLY:
            return v
        if not isinstance(v, list) or any(isinstance(x, bool) or not isinstance(x, int) for x in v):
            self.s.fail(f"field {name!r} of #{self.kind} must be a list of integers", pos)
        return v

    def bases(self, name, required=True, default=None):
        v, pos = self._take(name, required)
        if pos is None:
            return default
        ok = isinstance(v, list) and all(
            isinstance(b, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in b) for b in v)
        if not ok:
            self.s.fail(f"field {name!r} of #{self.kind} must be a list of bases like [[0, 1], [1, 0]]", pos)
        if v and len({len(b) for b in v}) != 1:
            self.s.fail(f"the bases of field {name!r} of #{self.kind} have different lengths", pos)
        return v

    def enc(self, name, required=True, default=None):
        v, pos = self._take(name, True)
        if getattr(type(v), "MNEMONIC", None) not in KINDS:
            self.s.fail(f"field {name!r} of #{self.kind} must be an encoding attribute", pos)
        return v

    def dict(self, name, required=True):
        v, pos = self._take(name, required)
        if pos is None:
            return {}, None
        if not isinstance(v, dict):
            self.s.fail(f"field {name!r} of #{self.kind} must be a {{...}} of fields", pos)
        return v, pos

    def done(self):
        for name, (_, pos) in self.items.items():
            self.s.fail(f"unknown field {name!r} in #{self.kind}", pos)
        if self.pairs is not None:
            self.s.fail(f"#{self.kind} takes no [interval:+padding] list", self.pairs[1])


_INT = r"\s*-?\d+\s*"
_FLAT = rf"\[(?:{_INT}(?:,{_INT})*)?\]"
_LISTS = re.compile(rf"\s*({_FLAT}|\[\s*(?:{_FLAT}\s*(?:,\s*{_FLAT}\s*)*)?\])")
_NUMBER = re.compile(r"-?\d+")
_U32 = (1 << 32) - 1  # the largest integer an attribute holds (Triton's are int32 / unsigned)
#: the deepest nesting of lists, {...} and attributes one text may hold (Triton's go 3 or 4 deep)
MAX_DEPTH = 64


def _small(body: str) -> bool:
    """Whether every integer in ``body`` fits in 32 bits (the length is checked before ``int``)."""
    return all(len(x) <= 11 and abs(int(x)) <= _U32 for x in _NUMBER.findall(body))


def _deeper(s: Scanner, depth: int, pos: int) -> int:
    """``depth + 1``, or a ``ParseError`` at ``pos`` when that is past ``MAX_DEPTH``."""
    if depth >= MAX_DEPTH:
        s.fail(f"values nest more than MAX_DEPTH = {MAX_DEPTH} deep", pos)
    return depth + 1


def _value(s: Scanner, aliases, depth=0):
    pos = s.skip()
    c = s.peek()
    if c == "[":
        m = _LISTS.match(s.text, pos)  # fast path: a list of ints, or of lists of ints
        if m and not _small(m.group(1)):
            m = None  # a number past 32 bits: the slow path reads it and points at it
        if m:
            body = m.group(1)
            s.pos = m.end()
            if body[1:].lstrip().startswith("["):
                return [[int(x) for x in _NUMBER.findall(inner)] for inner in re.findall(r"\[[^\[\]]*\]", body[1:-1])], pos
            return [int(x) for x in _NUMBER.findall(body)], pos
        inner = _deeper(s, depth, pos)
        s.expect("[")
        out = []
        if not s.accept("]"):
            while True:
                out.append(_value(s, aliases, inner)[0])
                if s.accept("]"):
                    break
                s.expect(",", "',' or ']'")
        return out, pos
    if c == "{":
        return _dict(s, aliases, _deeper(s, depth, pos)), pos
    if c == "#":
        return _attr(s, aliases, _deeper(s, depth, pos)), pos
    if c == "-" or c.isdigit():
        return s.integer(signs="-", limit=_U32), pos  # Triton's attribute integers are 32-bit
    if s.keyword("true"):
        return True, pos
    if s.keyword("false"):
        return False, pos
    s.expected("a value (an integer, true/false, [...], {...} or #attribute)")


def _dict(s: Scanner, aliases, depth=0) -> dict:
    s.expect("{")
    out = {}
    if s.accept("}"):
        return out
    while True:
        npos = s.skip()
        name = s.identifier("a field name")
        if name in out:
            s.fail(f"field {name!r} appears twice", npos)
        s.expect("=", "'=' after the field name")
        out[name] = _value(s, aliases, depth)
        if s.accept("}"):
            return out
        s.expect(",", "',' or '}'")


def _pairs(s: Scanner):
    s.expect("[")
    pairs = []
    while True:
        ipos = s.skip()
        interval = s.integer()
        s.expect(":+", "':+' between an interval and its padding (like 32:+4)")
        pairs.append([interval, s.integer()])
        if interval < 1:
            s.fail("a padding interval must be positive", ipos)
        if s.accept("]"):
            return pairs
        s.expect(",", "',' or ']'")


def _attr(s: Scanner, aliases, depth=0):
    start = s.skip()
    s.expect("#", "'#' to start an attribute")
    rest = s.text[s.pos:]
    dialect = next((d[1:] for d in _DIALECTS if rest.startswith(d[1:])), None)
    if dialect is None:
        name = s.identifier("an attribute alias or #ttg.<kind>")
        if aliases is None or name not in aliases:
            s.fail(f"unknown alias #{name}: define it on a line '#{name} = ...' above", start)
        if isinstance(aliases[name], _Unread):
            s.fail(f"#{name} is {aliases[name].kind}, an encoding unilayout does not read: unilayout reads "
                   f"{', '.join('#' + k for k in sorted(KINDS))}", start)
        return aliases[name]
    s.pos += len(dialect)
    kpos = s.pos
    kind = s.identifier("an encoding name")
    full = dialect + kind
    key = ("ttng." if dialect == "ttng." else "ttg.") + kind
    cls = KINDS.get(key)
    if cls is None:
        s.fail(f"unknown encoding #{full}: unilayout reads {', '.join('#' + k for k in sorted(KINDS))}", kpos)
    if kind == "linear":  # its own grammar (linear_attr), the value in the registered class
        s.pos = kpos + len(kind)
        return cls(linear_attr(s, nested=True))
    s.expect("<", f"'<' after #{full}")
    fields = _Fields(s, full, s.pos)
    if not s.at(">"):
        while True:
            pos = s.skip()
            c = s.peek()
            if c == "{":
                for name, (v, vpos) in _dict(s, aliases, depth).items():
                    fields.add(name, v, vpos)
            elif c == "[":
                if fields.pairs is not None:
                    s.fail("the [interval:+padding] list appears twice", pos)
                fields.pairs = (_pairs(s), pos)
            else:
                name = s.identifier("a field name, '{' or '>'")
                s.expect("=", "'=' after the field name")
                v, vpos = _value(s, aliases, depth)
                fields.add(name, v, vpos)
            if s.accept(","):
                continue
            if s.at(">"):
                break
            if s.peek() and s.peek() in "{[":
                continue  # padded_shared: '[pairs] {fields}' has no comma
            s.expected("',' or '>'")
    fields.end = s.expect(">", "'>' to close the attribute")
    enc = cls._read(fields)
    fields.done()
    return enc


class _Unread:
    """An alias of an encoding unilayout does not model: an error only where it is used."""

    def __init__(self, kind):
        self.kind = kind
