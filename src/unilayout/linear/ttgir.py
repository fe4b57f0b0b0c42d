"""Triton's encoding attributes as text: read what a TTGIR dump prints, and print it back byte for byte.

Triton 3.9.0 prints every layout of a tensor (``tensor<128x64xf16, #enc>``) or a
shared/tensor-memory buffer (``!ttg.memdesc<64x64xf16, #enc, #smem, mutable>``)
as an attribute, usually through an alias line at the top of the module::

    #blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
    #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
    #dot = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>

``parse(text)`` reads one attribute into an encoding value of
:mod:`unilayout.linear.encodings` (``Blocked``, ``Slice``, ``NvidiaMma``,
``DotOperand``, ``AmdMfma``, ``AmdWmma``, ``LinearEncoding``,
``SwizzledShared``, ``NvmmaShared``, ``PaddedShared``, ``SharedLinear``,
``TensorMemory``, ``TensorMemoryScales``); ``str(enc)`` (:func:`to_text`) is
Triton's printed attribute (printed by each class from its ``FIELDS``). ``parse_module(text)`` reads the ``#name = ...``
lines of a dump (memory-space and location aliases are skipped) and
``layout(text)`` turns ``tensor<SHAPExT, #enc>`` (the encoding inline or an
alias defined by lines above it) into its :class:`LinearLayout`.

Grammar (a subset of MLIR attribute syntax, as Triton prints it)::

    attr   ::= '#' ('ttg' | 'triton_gpu' | 'ttng') '.' KIND '<' [item (',' item)*] '>'  |  '#' ALIAS
    item   ::= '{' [field (',' field)*] '}'  |  field  |  '[' INT ':+' INT (',' INT ':+' INT)* ']'
    field  ::= NAME '=' value
    value  ::= INT | 'true' | 'false' | '[' [value (',' value)*] ']' | '{' [field (',' field)*] '}' | attr

Departures from Triton's parser: unknown and repeated fields are errors
(Triton ignores some), and a field of the wrong type names the field.

>>> enc = parse("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>")
>>> enc.to_linear([32, 16]).bases[0]
('register', [[0, 1], [0, 2]])
>>> parse(str(enc)) == enc
True
"""

from __future__ import annotations

import re

from .._text import Scanner
from ..errors import LayoutError, NotRepresentableError, ParseError
from . import encodings as E
from .encodings._base import KINDS as _KINDS
from .encodings._base import to_text
from .layout import LinearLayout

__all__ = ["parse", "parse_module", "to_text", "layout", "parse_type"]

_DIALECTS = ("#ttg.", "#triton_gpu.", "#ttng.")
_ALIAS = re.compile(r"\s*#([A-Za-z_][\w$.-]*)\s*=")
_PARSED: dict = {}  # text -> encoding, for texts without aliases (bounded)


# ------------------------------------------------------------------------------------- reading
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
        if not isinstance(v, E._Encoding):
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


def _small(body: str) -> bool:
    """Whether every integer in ``body`` fits in 32 bits (the length is checked before ``int``)."""
    return all(len(x) <= 11 and abs(int(x)) <= _U32 for x in _NUMBER.findall(body))


def _value(s: Scanner, aliases):
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
        s.expect("[")
        out = []
        if not s.accept("]"):
            while True:
                out.append(_value(s, aliases)[0])
                if s.accept("]"):
                    break
                s.expect(",", "',' or ']'")
        return out, pos
    if c == "{":
        return _dict(s, aliases), pos
    if c == "#":
        return _attr(s, aliases), pos
    if c == "-" or c.isdigit():
        return s.integer(signs="-", limit=_U32), pos  # Triton's attribute integers are 32-bit
    if s.keyword("true"):
        return True, pos
    if s.keyword("false"):
        return False, pos
    s.expected("a value (an integer, true/false, [...], {...} or #attribute)")


def _dict(s: Scanner, aliases) -> dict:
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
        out[name] = _value(s, aliases)
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


def _attr(s: Scanner, aliases):
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
                   f"{', '.join('#' + k for k in sorted(_KINDS))}", start)
        return aliases[name]
    s.pos += len(dialect)
    kpos = s.pos
    kind = s.identifier("an encoding name")
    full = dialect + kind
    key = ("ttng." if dialect == "ttng." else "ttg.") + kind
    cls = _KINDS.get(key)
    if cls is None:
        s.fail(f"unknown encoding #{full}: unilayout reads {', '.join('#' + k for k in sorted(_KINDS))}", kpos)
    if kind == "linear":
        from .text import _attr as linear_attr

        s.pos = kpos + len(kind)
        return E.LinearEncoding(linear_attr(s, nested=True))
    s.expect("<", f"'<' after #{full}")
    fields = _Fields(s, full, s.pos)
    if not s.at(">"):
        while True:
            pos = s.skip()
            c = s.peek()
            if c == "{":
                for name, (v, vpos) in _dict(s, aliases).items():
                    fields.add(name, v, vpos)
            elif c == "[":
                if fields.pairs is not None:
                    s.fail("the [interval:+padding] list appears twice", pos)
                fields.pairs = (_pairs(s), pos)
            else:
                name = s.identifier("a field name, '{' or '>'")
                s.expect("=", "'=' after the field name")
                v, vpos = _value(s, aliases)
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


# --- the fast reader: one regex pass into tokens, then the same grammar over them ---------------
# It gives the same values as the positioned reader above for every text that reader accepts; on
# anything unusual (an error, a sign, a number past 32 bits, an unknown alias) it gives up
# (``_Slow``) and the positioned reader runs, so errors and their positions are unchanged.
_TOKENS = re.compile(r"[ \t\r\n]*(\[[ \t\r\n]*[0-9]+(?:[ \t\r\n]*,[ \t\r\n]*[0-9]+)*[ \t\r\n]*\]"  # [1, 8]
                     r"|#?[A-Za-z_][A-Za-z0-9_$.]*|[0-9]+|:\+|[^ \t\r\n])")


_FAST_DIALECTS = {d[1:] for d in _DIALECTS}
_LINEAR_DIMS = ("register", "lane", "warp", "block")  # linear.text.IN_DIMS, in that order


class _Slow(Exception):
    """The fast reader gives up; the positioned one reads the text (and reports any error)."""


def _fast_value(toks, i, aliases):
    t = toks[i]
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
            v, i = _fast_value(toks, i, aliases)
            out.append(v)
            t = toks[i]
            i += 1
            if t == "]":
                return out, i
            if t != ",":
                raise _Slow
    if t == "{":
        return _fast_dict(toks, i, aliases)
    if t[0] == "#":
        return _fast_attr(toks, i, aliases)
    if t.isdigit():
        if len(t) > 10 or int(t) > _U32:
            raise _Slow
        return int(t), i + 1
    if t == "true":
        return True, i + 1
    if t == "false":
        return False, i + 1
    raise _Slow


def _fast_dict(toks, i, aliases):
    out = {}
    i += 1  # '{'
    if toks[i] == "}":
        return out, i + 1
    while True:
        name = toks[i]
        if not (name[0].isalpha() or name[0] == "_") or name in out or toks[i + 1] != "=":
            raise _Slow
        v, i = _fast_value(toks, i + 2, aliases)
        out[name] = (v, 0)  # as _dict: (value, position)
        t = toks[i]
        i += 1
        if t == "}":
            return out, i
        if t != ",":
            raise _Slow


def _fast_attr(toks, i, aliases):
    head = toks[i][1:]
    dialect = head[:head.find(".") + 1]
    if dialect not in _FAST_DIALECTS:
        got = aliases.get(head) if aliases else None
        if got is None or isinstance(got, _Unread):
            raise _Slow
        return got, i + 1
    kind = head[len(dialect):]
    key = ("ttng." if dialect == "ttng." else "ttg.") + kind
    cls = _KINDS.get(key)
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
        return E.LinearEncoding(LinearLayout([(d, found[d]) for d in _LINEAR_DIMS],
                                             [f"dim{k}" for k in range(rank)])), i + 1
    if toks[i] != ">":
        while True:
            t = toks[i]
            if t == "{":
                d, i = _fast_dict(toks, i, aliases)
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
                items[t], i = _fast_value(toks, i + 2, aliases)
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
    toks = _TOKENS.findall(text)
    toks.append("")  # end marker: no rule accepts it
    try:
        got, i = _fast_attr(toks, 0, aliases) if toks[0][:1] == "#" else (None, 0)
        return got if i == len(toks) - 1 else None
    except Exception:  # noqa: BLE001 - any doubt: the positioned reader reads it and reports errors
        return None


def parse(text: str, aliases: dict | None = None):
    """One encoding attribute (``#ttg.blocked<{...}>``, ...) -> its encoding value.

    ``aliases`` (from :func:`parse_module`) resolves ``#name`` references.
    Bad text raises ``ParseError`` with the position (missing field, wrong
    type, unknown encoding, unbalanced brackets).

    >>> parse("#ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>", {"mma": E.NvidiaMma(2, [2, 2], [16, 8])})
    DotOperand(operand_index=1, parent=NvidiaMma(version=(2, 0), warps_per_cta=(2, 2), instr_shape=(16, 8), cga_layout=()), k_width=2)
    >>> parse("#ttg.blocked<{sizePerThread = [1]}>")
    Traceback (most recent call last):
    ...
    unilayout.errors.ParseError: #ttg.blocked needs the field 'threadsPerWarp' at position 34
      #ttg.blocked<{sizePerThread = [1]}>
                                        ^
    """
    if not isinstance(text, str):
        raise LayoutError(f"parse: expected text, got {type(text).__name__}")
    if not aliases:
        got = _PARSED.get(text)
        if got is not None:
            return got
    enc = _fast_parse(text, aliases)
    if enc is None:
        s = Scanner(text)
        enc = _attr(s, aliases)
        s.expect_end()
    if not aliases:
        if len(_PARSED) >= 4096:
            _PARSED.clear()
        _PARSED[text] = enc  # encodings are immutable: one text, one value (as MLIR uniques attributes)
    return enc


def parse_module(text: str) -> dict:
    """The ``#name = <encoding>`` lines of a TTGIR dump -> ``{name: encoding}``, in order.

    Aliases of other attributes (``#smem = #ttg.shared_memory``, ``#loc = loc(...)``)
    and every other line are skipped; an alias may use the ones above it.

    >>> m = parse_module('''
    ... #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
    ... #smem = #ttg.shared_memory
    ... #dot = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>''')
    >>> list(m), m["dot"].parent == m["mma"]
    (['mma', 'dot'], True)
    """
    if not isinstance(text, str):
        raise LayoutError(f"parse_module: expected text, got {type(text).__name__}")
    return {k: v for k, v in _module(text).items() if not isinstance(v, _Unread)}


class _Unread:
    """An alias of an encoding unilayout does not model: an error only where it is used."""

    def __init__(self, kind):
        self.kind = kind


def _module(text: str) -> dict:
    aliases: dict = {}
    pos = 0
    for line in text.splitlines(keepends=True):
        m = _ALIAS.match(line)
        if m:
            body = line[m.end():].lstrip()
            if body.startswith(_DIALECTS) and _known(body):
                s = Scanner(text, pos + len(line) - len(line[m.end():].lstrip()))
                kind = body.split("<", 1)[0].strip()
                dialect = "ttng." if kind.startswith("#ttng.") else "ttg."
                if dialect + kind.split(".", 1)[1] not in _KINDS:
                    aliases[m.group(1)] = _Unread(kind)  # e.g. #ttg.amd_rotating_shared
                else:
                    aliases[m.group(1)] = _attr(s, aliases)
                    if s.text[s.pos:pos + len(line)].strip():
                        s.expected("the end of the line")
        pos += len(line)
    return aliases


def _known(body: str) -> bool:
    """Whether an alias body is an encoding (not ``#ttg.shared_memory`` and other plain attributes)."""
    return "<" in body.split()[0] or body.split("<", 1)[0].strip() in ("#ttg.linear",)


_TYPE = re.compile(r"\s*(tensor|!ttg\.memdesc)\s*<")
_ELEM = re.compile(r"!?[A-Za-z_][\w.]*")


def parse_type(text: str, aliases: dict | None = None):
    """``tensor<SHAPExT, #enc>`` or ``!ttg.memdesc<SHAPExT, #enc, #smem[, mutable]>`` -> (shape, element type, encoding).

    >>> shape, elem, enc = parse_type("tensor<16x8xf16, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>>")
    >>> shape, elem, type(enc).__name__
    ((16, 8), 'f16', 'Blocked')
    """
    s = Scanner(text)
    start = s.skip()
    if not _TYPE.match(text, 0):
        s.expected("tensor<...> or !ttg.memdesc<...>")
    memdesc = s.accept("!ttg.memdesc")
    if not memdesc:
        s.expect("tensor")
    s.expect("<")
    dims = []
    while True:
        s.skip()
        if not (s.peek().isdigit()):
            break
        dims.append(s.integer())
        if not s.accept("x"):
            s.expected("'x' after a dimension")
    epos = s.skip()
    m = _ELEM.match(s.text, epos)
    if not m:
        s.expected("an element type such as f16 or !tt.ptr<f16>", epos)
    s.pos = m.end()
    if s.text.startswith("<", s.pos):  # a parameterised type: !tt.ptr<f16>, !tt.ptr<f16, 1>
        depth = 0
        while s.pos < len(s.text):
            depth += {"<": 1, ">": -1}.get(s.text[s.pos], 0)
            s.pos += 1
            if depth == 0:
                break
        if depth:
            s.expected("'>' to close the element type", epos)
    elem = s.text[epos:s.pos]
    if not dims:
        s.fail("a tensor type needs a shape like 128x64xf16", start)
    s.expect(",", "',' and the layout encoding after the element type")
    enc = _attr(s, aliases)
    if memdesc:
        depth = 0
        while not s.end():  # memory space, mutable, alloc shape: not part of the layout
            c = s.text[s.pos]
            if c == ">" and depth == 0:
                break
            depth += c == "<"
            depth -= c == ">"
            s.pos += 1
    s.expect(">", "'>' to close the type")
    s.expect_end()
    return tuple(dims), elem, enc


def layout(text: str) -> LinearLayout:
    """A tensor type (inline encoding, or an alias defined by lines above it) -> its LinearLayout.

    What ``unilayout.parse`` does for such text. Shared layouts give
    ``offset, block`` -> tensor (a multi-buffered ``!ttg.memdesc<NxSHAPE, ..>`` whose
    encoding is written for SHAPE: N buffers one after another, the buffer index
    the highest offset bits); tensor memory ``row, col, block``;
    ``padded_shared`` gives the affine map of each element's padded address
    (``PaddedShared.address_map``; padding is not linear over GF(2)).

    >>> L = layout('''#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
    ... tensor<64xf32, #b>''')
    >>> L.bases[2]
    ('warp', [[32]])
    """
    if not isinstance(text, str):
        raise LayoutError(f"layout: expected text, got {type(text).__name__}")
    lines = text.splitlines(keepends=True)
    head = 0
    for i, line in enumerate(lines):
        if _TYPE.match(line):
            head = i
            break
        if line.strip() and not _ALIAS.match(line) and not line.strip().startswith("//"):
            s = Scanner(text, sum(len(x) for x in lines[:i]))
            if line.lstrip().startswith(_DIALECTS):
                start = sum(len(x) for x in lines[:i])
                aliases = _module(text[:start]) if i else {}
                try:
                    enc = parse(text[start:], aliases)
                except ParseError as e:
                    raise ParseError(e.message, text, e.position + start) from None
                if isinstance(enc, (E.SharedLinear, E.LinearEncoding)):
                    return enc.to_linear()  # the bases fix the shape
                s.skip()
                kind = line.strip().split("<", 1)[0]
                s.fail(f"{kind} needs a tensor shape: write tensor<SHAPExT, {kind}<...>>")
            s.skip()
            s.expected("tensor<...> or an alias line '#name = ...'")
    else:
        s = Scanner(text, len(text))
        s.expected("a tensor type tensor<SHAPExT, #encoding> after the alias lines")
    offset = sum(len(x) for x in lines[:head])
    aliases = _module(text[:offset]) if head else {}
    try:
        shape, _, enc = parse_type(text[offset:], aliases)
    except ParseError as e:
        raise ParseError(e.message, text, e.position + offset) from None
    buffers, rank = None, _shared_rank(enc)
    if rank is not None and len(shape) == rank + 1:
        # a multi-buffered !ttg.memdesc<NxSHAPE, ...>: N buffers of SHAPE, one after another in memory
        buffers, shape = shape[0], shape[1:]
    if isinstance(enc, E.PaddedShared):
        if buffers is not None:
            raise NotRepresentableError(f"a {buffers}-buffer padded_shared memdesc: the address of one buffer is "
                                        f"PaddedShared.address_map({list(shape)}); the buffers' spacing is not "
                                        "in the type")
        return enc.address_map(shape)  # padding is affine, not linear: the affine family carries it
    L = enc.to_linear(shape)
    if buffers is None:
        return L
    if buffers & (buffers - 1):
        raise NotRepresentableError(f"a {buffers}-buffer memdesc: the buffer index is not a power of two, so offset -> "
                                    f"element is not linear over GF(2); one buffer's layout is "
                                    f"{type(enc).__name__}.to_linear({list(shape)})")
    rename = {f"dim{i}": f"dim{i + 1}" for i in range(len(shape))}
    per = LinearLayout._make(tuple((n, v) for n, v in L._bases if n == "offset"),
                             tuple((rename[n], sz) for n, sz in L._outs))
    stacked = per * LinearLayout.identity_1d(buffers, "offset", "dim0")  # out-dims dim1.., dim0
    blocks = tuple((n, tuple(tuple(x) + (0,) for x in v)) for n, v in L._bases if n != "offset")
    out = LinearLayout._make(stacked._bases + blocks, stacked._outs)
    return out.transpose_outs([f"dim{i}" for i in range(len(shape) + 1)])


def _shared_rank(enc):
    """The tensor rank a shared encoding is written for, or None when any rank fits."""
    if isinstance(enc, E.SwizzledShared):
        return len(enc.order)
    if isinstance(enc, E.NvmmaShared):
        return enc.rank or (len(enc.cga_layout[0]) if enc.cga_layout else 2)
    if isinstance(enc, E.PaddedShared):
        return len(enc.shape) if enc.shape is not None else len(enc.offset_bases[0]) if enc.offset_bases else None
    if isinstance(enc, E.SharedLinear):
        return len(enc.offset_bases[0]) if enc.offset_bases else None
    return None
