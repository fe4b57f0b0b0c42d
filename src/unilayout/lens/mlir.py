"""Read the text of a whole MLIR dump, one op at a time: what the lens needs and nothing more.

A dump as Triton (``MLIR_ENABLE_DUMP``, ``compiled.asm["ttgir"]``) or tt-mlir
(``ttmlir-opt``) prints it is line oriented: alias lines at the top
(``#blocked = #ttg.blocked<...>``, ``#loc3 = loc("k.py":12:5)``), a
``module attributes {...} {`` line, functions (``tt.func``, ``func.func``),
one op per line in the custom form MLIR prints, regions opened by a
trailing ``{`` and closed by a ``}`` line (a generic op's region closes with
``}) : (types) -> types``). ``read_module(text)`` walks it once and keeps:

- the alias lines (their text by name, multi-line ones joined) and the
  location aliases;
- the module's attributes (``{"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", ...}``);
- per function, every op: its name, result and operand names, the types
  its signature gives each result, its location, and the span (line,
  column range) of every ``tensor<...>`` / ``!ttg.memdesc<...>`` type on
  its line; block arguments (function arguments, ``scf.for`` induction
  variables and ``iter_args``, ``^bb`` arguments) get their types too.

Nothing here knows what a layout is: ``lens.triton`` and ``lens.ttmlir`` read
the types. A line it cannot split is kept as an op named by its first word;
a type whose brackets do not close is a ``ParseError`` naming the line and
column.

>>> m = read_module('''module attributes {"ttg.num-warps" = 4 : i32} {
...   tt.func @f(%arg0: tensor<16xf32, #b>) {
...     %0 = arith.addf %arg0, %arg0 : tensor<16xf32, #b> loc(#loc1)
...     tt.return
...   }
... }
... #loc1 = loc("k.py":3:9)''')
>>> m.attributes["ttg.num-warps"], [op.name for op in m.functions[0].ops]
(4, ['arith.addf', 'tt.return'])
>>> op = m.functions[0].ops[0]
>>> op.results, op.result_types, m.location(op.location)
(('%0',), ('tensor<16xf32, #b>',), 'k.py:3:9')
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..errors import LayoutError, ParseError

__all__ = ["Op", "Function", "Module", "TypeSpan", "read_module", "split_top", "types_in", "ALIAS_REF"]

#: An alias reference (``#blocked``, ``#ttnn_layout1``) inside a type or an attribute; group 1 is its name.
ALIAS_REF = re.compile(r"#([A-Za-z_][\w$.-]*)")

_ALIAS = re.compile(r"\s*#([A-Za-z_][\w$.-]*)\s*=\s*")
_RESULTS = re.compile(r"\s*((?:%[\w$.#-]+(?::\d+)?\s*,\s*)*%[\w$.#-]+(?::\d+)?)\s*=\s*")
_OPNAME = re.compile(r'"?([A-Za-z_][\w$]*(?:\.[\w$]+)+|[A-Za-z_][\w$]*)"?')
_VALUE = re.compile(r"%[\w$.#-]+")
_FUNC = re.compile(r"\s*(tt\.func|func\.func|llvm\.func|gpu\.func)\b[^@]*@([\w$.-]+|\"[^\"]*\")")
_LOC = re.compile(r"\s+loc\((.*)\)\s*\{?\s*$")
_TYPE_START = re.compile(r"tensor<|!ttg\.memdesc<|memref<")
_OPEN = {"<": ">", "(": ")", "[": "]", "{": "}"}
_CLOSE = {v: k for k, v in _OPEN.items()}


class TypeSpan(NamedTuple):
    """One ``tensor<...>`` / ``!ttg.memdesc<...>`` / ``memref<...>`` on a line: 1-based line, 0-based columns.

    >>> TypeSpan(3, 10, 28, "tensor<16xf32, #b>").text
    'tensor<16xf32, #b>'
    """

    line: int
    col: int
    end: int
    text: str


class Op(NamedTuple):
    """One op of a dump (see the module docstring); ``line`` is 1-based.

    >>> Op("tt.return", 5, (), (), (), (), None, (), "tt.return").name
    'tt.return'
    """

    name: str
    line: int
    results: tuple
    result_types: tuple
    operands: tuple
    operand_types: tuple
    location: object
    spans: tuple
    text: str


class Function(NamedTuple):
    """One function: its name, first line, ops in order, and ``{SSA name: type text}`` of every value.

    >>> Function("f", 1, [], {}).name
    'f'
    """

    name: str
    line: int
    ops: list
    types: dict


class Module(NamedTuple):
    """What :func:`read_module` keeps of a dump (see the module docstring).

    >>> read_module("module {\\n}").functions
    []
    """

    aliases: dict
    alias_lines: dict
    locations: dict
    attributes: dict
    functions: list
    text: str

    def with_aliases(self, type_text: str) -> str:
        """``type_text`` with the alias lines it needs above it, in the dump's order (what ``unilayout.parse`` reads).

        >>> read_module("#a = #x.y<#b>\\n#b = #x.z\\n#c = #x.w").with_aliases("tensor<4xf32, #a>")
        '#a = #x.y<#b>\\n#b = #x.z\\ntensor<4xf32, #a>'
        """
        need, todo = set(), ALIAS_REF.findall(type_text)
        while todo:
            name = todo.pop()
            if name in self.aliases and name not in need:
                need.add(name)
                todo.extend(ALIAS_REF.findall(self.aliases[name]))
        return "".join(f"#{n} = {a}\n" for n, a in self.aliases.items() if n in need) + type_text

    def location(self, loc) -> object:
        """A location as ``file:line:col`` (aliases followed, callsites and fused locations to their first
        part, a name location to the place it names), or None.

        >>> read_module('#loc = loc("/a/k.py":7:2)').location("#loc")
        'k.py:7:2'
        """
        seen = 0
        while loc is not None and seen < 32:
            seen += 1
            loc = loc.strip()
            if loc.startswith("#"):
                loc = self.locations.get(loc[1:])
                continue
            m = re.match(r'"([^"]*)":(\d+):(\d+)', loc)
            if m:
                return f"{m.group(1).rsplit('/', 1)[-1]}:{m.group(2)}:{m.group(3)}"
            m = re.match(r'(?:callsite\(|fused(?:<[^>]*>)?\[)\s*(#?[^\s,\]]+(?:\([^)]*\))?)', loc)
            if m:
                loc = m.group(1)
                continue
            m = re.match(r'"[^"]*"\((.*)\)$', loc)
            if m:
                loc = m.group(1)
                continue
            return None if loc == "unknown" else loc
        return None


def split_top(text: str, sep: str = ",") -> list:
    """Split ``text`` at top-level ``sep`` (not inside ``<>()[]{}`` or a string), pieces stripped.

    >>> split_top("tensor<2x4xf16, #a>, i32, !tt.ptr<f16, 1>")
    ['tensor<2x4xf16, #a>', 'i32', '!tt.ptr<f16, 1>']
    """
    out, depth, start, i, n, quote = [], 0, 0, 0, len(text), False
    while i < n:
        c = text[i]
        if quote:
            quote = c != '"' or text[i - 1] == "\\"
        elif c == '"':
            quote = True
        elif c in "<([{":
            depth += 1
        elif c in ">)]}" and not (c == ">" and text[i - 1] == "-"):
            depth -= 1
        elif depth == 0 and text.startswith(sep, i):
            out.append(text[start:i].strip())
            start = i + len(sep)
            i += len(sep)
            continue
        i += 1
    last = text[start:].strip()
    if last or out:
        out.append(last)
    return out


def _close(text: str, i: int) -> int:
    """The index just past the bracket that closes the one at ``text[i]``, or -1 (never closed, or closed by
    the wrong kind of bracket)."""
    stack, n, quote = [], len(text), False
    while i < n:
        c = text[i]
        if quote:
            quote = c != '"' or text[i - 1] == "\\"
        elif c == '"':
            quote = True
        elif c in _OPEN:
            stack.append(_OPEN[c])
        elif c in _CLOSE and not (c == ">" and text[i - 1] == "-"):
            if not stack or stack.pop() != c:
                return -1
            if not stack:
                return i + 1
        i += 1
    return -1


def types_in(line: str, lineno: int, text: str = "", offset: int = 0) -> list:
    """Every ``tensor<..>`` / ``!ttg.memdesc<..>`` / ``memref<..>`` on ``line`` as :class:`TypeSpan`.

    A type whose ``<`` never closes is a ``ParseError`` at its line and column
    (``text``/``offset`` place it in the whole dump).

    >>> [s.text for s in types_in("%1 = tt.load %0 : tensor<4x!tt.ptr<f16>, #b> -> tensor<4xf16, #b>", 1)]
    ['tensor<4x!tt.ptr<f16>, #b>', 'tensor<4xf16, #b>']
    """
    out = []
    pos = 0
    while True:
        m = _TYPE_START.search(line, pos)
        if not m:
            return out
        end = _close(line, m.end() - 1)
        if end < 0:
            raise ParseError(f"line {lineno}, column {m.start() + 1}: the type '{line[m.start():m.start() + 40]}' "
                             "never closes its '<'", text or line, offset + m.start())
        out.append(TypeSpan(lineno, m.start(), end, line[m.start():end]))
        pos = end


def _signature(body: str):
    """Split ``op operands... : sig [loc(..)]`` into (before, signature) at the last top-level ' : '."""
    depth, quote, cut = 0, False, -1
    for i, c in enumerate(body):
        if quote:
            quote = c != '"' or body[i - 1] == "\\"
        elif c == '"':
            quote = True
        elif c in "<([{":
            depth += 1
        elif c in ">)]}" and not (c == ">" and i and body[i - 1] == "-"):
            depth -= 1
        elif c == ":" and depth == 0 and i and body[i - 1] == " " and body[i + 1:i + 2] == " ":
            cut = i
    return (body, "") if cut < 0 else (body[:cut], body[cut + 1:].strip())


def _arrow(sig: str):
    """``(A, B) -> (C)`` / ``A -> C`` / ``A, B``: (inputs, outputs or None)."""
    parts = split_top(sig, "->")
    if len(parts) < 2:
        return split_top(sig), None
    lhs, rhs = parts[0], "->".join(parts[1:]).strip()

    def unwrap(s):
        s = s.strip()
        if s.startswith("(") and _close(s, 0) == len(s):
            return split_top(s[1:-1])
        return [s] if s else []
    return unwrap(lhs), unwrap(rhs)


def _names(results: str) -> list:
    out = []
    for r in split_top(results):
        name, _, count = r.partition(":")
        if count:
            out.extend(f"{name}#{k}" for k in range(int(count)))
        else:
            out.append(name)
    return out


def _block_args(text: str, types: dict) -> None:
    """``%a: T, %b: U {attrs}`` (function or ^bb arguments) into ``types``."""
    for arg in split_top(text):
        name, _, t = arg.partition(":")
        name = name.strip()
        if name.startswith("%") and t.strip():
            t = t.strip()
            brace = t.find(" {")
            types[name] = (t[:brace] if brace > 0 else t).split(" loc(")[0].strip()


def read_module(text: str) -> Module:
    """Read a dump's text (see the module docstring) -> :class:`Module`.

    >>> read_module("#a = #ttg.blocked<{sizePerThread = [1]}>\\nmodule {\\n}").alias_lines["a"]
    '#ttg.blocked<{sizePerThread = [1]}>'
    """
    if not isinstance(text, str):
        raise LayoutError(f"lens: expected the text of a dump, got {type(text).__name__}")
    aliases, locations, attributes, functions = {}, {}, {}, []
    lines = text.splitlines()
    offsets, at = [], 0
    for line in text.splitlines(keepends=True):
        offsets.append(at)
        at += len(line)
    func = None
    stack: list = []  # ops whose region is open: (op index in func.ops or None, depth marker)
    i = 0
    while i < len(lines):
        raw = lines[i]
        line = raw.split("//", 1)[0] if "//" in raw and '"' not in raw.split("//", 1)[0] else raw
        stripped = line.strip()
        lineno = i + 1
        i += 1
        if not stripped:
            continue
        m = _ALIAS.match(line)
        if m and stripped.startswith("#"):
            body = line[m.end():].strip()
            while body.count("<") > body.count(">") - body.count("->") and i < len(lines):  # continues below
                body += " " + lines[i].strip()
                i += 1
            if body.startswith("loc("):
                locations[m.group(1)] = body[4:-1] if body.endswith(")") else body[4:]
            else:
                aliases[m.group(1)] = body
            continue
        if stripped.startswith("module"):
            a = stripped.find("attributes")
            if a >= 0:
                b = stripped.find("{", a)
                e = _close(stripped, b) if b >= 0 else -1
                if e > 0:
                    for item in split_top(stripped[b + 1:e - 1]):
                        key, _, val = item.partition("=")
                        attributes[key.strip().strip('"')] = _attr_value(val.strip())
            continue
        fm = _FUNC.match(line)
        if fm:
            types_in(line, lineno, text, offsets[lineno - 1])  # a malformed argument type is an error here too
            func = Function(fm.group(2).strip('"'), lineno, [], {})
            functions.append(func)
            p = line.find("(", fm.end())
            if p >= 0:
                e = _close(line, p)
                if e > 0:
                    _block_args(line[p + 1:e - 1], func.types)
            stack = []
            continue
        if func is None:
            continue
        if stripped.startswith("}"):
            closing = stripped.lstrip("})").strip()
            op_index = stack.pop() if stack else None
            if closing.startswith(":") and op_index is not None:  # "}) : (types) -> types" of a generic op
                _, sig = _signature(" " + closing)
                _, outs = _arrow(sig)
                old = func.ops[op_index]
                rtypes = tuple(outs or ())
                func.ops[op_index] = old._replace(result_types=rtypes)
                for name, t in zip(old.results, rtypes):
                    func.types[name] = t
            continue
        if stripped.startswith("^"):
            types_in(line, lineno, text, offsets[lineno - 1])
            p = stripped.find("(")
            if p >= 0:
                e = _close(stripped, p)
                if e > 0:
                    _block_args(stripped[p + 1:e - 1], func.types)
            continue
        while i < len(lines) and lines[i].strip().startswith(("->", ": ", "into ")):  # the op continues below
            line = line.rstrip() + " " + lines[i].strip()
            i += 1
        op = _op(line, lineno, text, offsets[lineno - 1])
        func.ops.append(op)
        for name, t in zip(op.results, op.result_types):
            func.types[name] = t
        if op.name == "scf.for":
            _for_args(line, func.types)
        if stripped.endswith("{") or stripped.endswith("({"):
            stack.append(len(func.ops) - 1)
    return Module(aliases, dict(aliases), locations, attributes, functions, text)


def _for_args(line: str, types: dict) -> None:
    """``scf.for %i = %a to %b step %c iter_args(%x = %y, ..) -> (T, ..) : i32 {``: types of %i and the %x."""
    m = re.search(r"scf\.for\s+(%[\w$.-]+)\s*=", line)
    _, sig = _signature(line.rstrip().rstrip("{").rstrip())
    if m and sig:
        types[m.group(1)] = sig.split(" loc(")[0].strip()
    p = line.find("iter_args(")
    if p < 0:
        return
    e = _close(line, p + len("iter_args"))
    names = [a.split("=")[0].strip() for a in split_top(line[p + len("iter_args("):e - 1])]
    rest = line[e:]
    a = rest.find("->")
    if a >= 0:
        after = rest[a + 2:].strip()
        outs = split_top(after[1:_close(after, 0) - 1]) if after.startswith("(") else [split_top(after.split(" : ")[0])[0]]
        for n, t in zip(names, outs):
            types[n] = t


def _op(line: str, lineno: int, text: str, offset: int) -> Op:
    """One op line -> :class:`Op` (results, name, operands, types, location, type spans)."""
    spans = tuple(types_in(line, lineno, text, offset))
    body = line.strip()
    location = None
    lm = _LOC.search(body)
    if lm:
        location = lm.group(1)
        body = body[:lm.start()]
    body = body.rstrip().rstrip("{").rstrip()
    results = ()
    rm = _RESULTS.match(body)
    if rm:
        results = tuple(_names(rm.group(1)))
        body = body[rm.end():]
    nm = _OPNAME.match(body)
    name = nm.group(1) if nm else body.split(" ", 1)[0]
    rest = body[nm.end():] if nm else ""
    head, sig = _signature(" " + rest)
    operands = tuple(_VALUE.findall(head.split("{", 1)[0] if "iter_args" not in head else head))
    ins, outs = _arrow(sig) if sig else ([], None)
    if name == "scf.for":
        outs = None
        a = head.find("->")
        if a >= 0:
            after = head[a + 2:].strip()
            outs = split_top(after[1:-1]) if after.startswith("(") else [after]
        ins = []
    if outs is None:  # one type list: the results' types (tt.load prints its pointers: the result holds what they point to)
        if results and len(ins) >= len(results):
            rtypes = tuple(ins[:len(results)]) if len(results) > 1 else (ins[0],)
        else:
            rtypes = (ins[0],) * len(results) if results and ins else ()
        if name == "tt.load":
            rtypes = tuple(_pointee(t) for t in rtypes)
        otypes = tuple(ins)
    else:
        rtypes, otypes = tuple(outs), tuple(ins)
    return Op(name, lineno, results, rtypes[:len(results)] if results else (), operands, otypes, location, spans,
              line)


def _pointee(t: str) -> str:
    """``tensor<8x!tt.ptr<f16>, #b>`` -> ``tensor<8xf16, #b>`` (what a load of those pointers holds)."""
    m = re.match(r"(tensor<(?:\d+x)*)!tt\.ptr<([^,>]+)(?:,\s*\d+)?>", t)
    return m.group(1) + m.group(2) + t[m.end():] if m else t


def _attr_value(v: str):
    """A module attribute's value: ``4 : i32`` -> 4, ``"cuda:90"`` -> 'cuda:90', anything else as text."""
    m = re.fullmatch(r"(-?\d+)\s*(?::\s*\w+)?", v)
    if m:
        return int(m.group(1))
    if v.startswith('"') and v.endswith('"'):
        return v[1:-1]
    return v
