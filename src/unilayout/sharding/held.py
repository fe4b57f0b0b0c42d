"""Shardings as people hold them: the text around a sharding (an HLO line, an MLIR attribute, a Python repr).

``unwrap(text)`` finds the sharding inside what a user pastes and what the
surrounding text says of it (the tensor's shape, the Shardy mesh), and gives
the bare sharding text the readers of ``text.py`` take:

| pasted | found |
|---|---|
| ``%p = f32[8,16]{1,0} parameter(0), sharding={devices=[2,1]<=[2]}`` | HLO ``{..}``, shape 8x16 |
| ``%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,1]<=[2]}"}`` | HLO ``{..}``, shape 8x16 |
| ``... {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\\22x\\22}, {}]>"}`` + ``xla.sdy.meshes = "{mesh = #sdy.mesh<..>}"`` | Shardy + its mesh |
| ``sdy.mesh @mesh = <["x"=2]>`` + ``%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}`` | Shardy + its mesh, shape 8 |
| an op: ``%0 = stablehlo.add %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [..]>]>} : tensor<8xf32>`` | its one result's sharding, shape 8 |
| ``%2 = sdy.sharding_constraint %1 <@mesh, [{"y"}, {"x"}]> : tensor<8x16xf32>`` (with its ``sdy.mesh``) | Shardy, shape 8x16 |
| ``(Shard(dim=0), Replicate())`` (torch's repr of a DTensor's placements) | placements |
| ``P('x', None)``, ``PartitionSpec(('x', 'y'),)`` + a mesh, ``NamedSharding(mesh=Mesh('x': 2, 'y': 4, ..), spec=P(..), ..)`` | Shardy over that mesh |

JAX's spec over a mesh is written as the Shardy sharding JAX lowers it to
(``P('x', None)`` on ``Mesh('x': 2, 'y': 4)`` is ``#sdy.sharding<@mesh,
[{"x"}, {}]>`` on ``<["x"=2, "y"=4]>``); a ``Mesh`` repr names no devices, so
they are taken in order ``0..n-1`` (``jax.make_mesh`` may order real TPUs
otherwise: give the ``sdy.mesh`` with ``device_ids`` then).

>>> unwrap("%p = f32[8,16]{1,0} parameter(0), sharding={devices=[2,1]<=[2]}")
('{devices=[2,1]<=[2]}', (8, 16), None, 43, None)
>>> unwrap("NamedSharding(mesh=Mesh('x': 2, 'y': 4, axis_types=(Explicit, Explicit)), spec=P('x', None))")[2:]
('sdy.mesh @mesh = <["x"=2, "y"=4]>', None, ([['x'], []], []))
"""

from __future__ import annotations

import re

from .._text import check_text
from ..errors import LayoutError, ParseError

__all__ = ["unwrap", "is_held", "jax_spec", "jax_mesh", "spec_sharding"]

_HLO_ATTR = re.compile(r"(?<![\w.])sharding=\{")
_MLIR_ATTR = re.compile(r"\b(mhlo|xla\.sdy|sdy)\.sharding\s*=\s*")
_HLO_TYPE = re.compile(r"=\s*(?:[a-z][a-z0-9]*)\[([^\]]*)\]")
_TENSOR = re.compile(r"tensor<([^<>]*?)>")
_SDY_MESH = re.compile(r"sdy\.mesh\s+@([\w.$-]+)\s*=\s*<")
_SDY_MESHES = re.compile(r"xla\.sdy\.meshes\s*=\s*")
_SDY_OP = re.compile(r"\bsdy\.(?:sharding_constraint|reshard)\s+%[\w#.$-]+\s*(?=<)")
_TORCH_TUPLE = re.compile(r"^\(\s*(?:Shard|Replicate|Partial|_StridedShard|_S)\(")
# ``P()`` alone stays DTensor's Partial shorthand; JAX's empty spec is written ``PartitionSpec()``
_JAX = re.compile(r"^(?:NamedSharding\(|PartitionSpec\(|P\(\s*(?:['\"(]|None\b|unreduced|reduced))")


def is_held(text) -> bool:
    """Whether ``text`` is a sharding held in an HLO line, an MLIR attribute or a torch/JAX repr.

    >>> is_held("x.1 = f32[8]{0} parameter(0), sharding={replicated}"), is_held("P('x')"), is_held("{replicated}")
    (True, True, False)
    """
    if not isinstance(text, str):
        return False
    body = text.strip()
    if body.startswith(("{", "#sdy", "sharding=")) and not _MLIR_ATTR.search(body):
        return False
    return bool(_HLO_ATTR.search(body) or _MLIR_ATTR.search(body) or _SDY_OP.search(body) or _TORCH_TUPLE.match(body)
                or _JAX.match(body))


def _balanced(text, at, open_, close, what):
    """The end (exclusive) of the bracketed group opening at ``text[at] == open_`` (quotes skipped)."""
    depth, p, quote = 0, at, None
    while p < len(text):
        ch = text[p]
        if quote:
            if ch == "\\":
                p += 1
            elif ch == quote:
                quote = None
        elif ch in "\"'" and open_ != "<":
            quote = ch
        elif ch == open_:
            depth += 1
        elif ch == close:
            depth -= 1
            if depth == 0:
                return p + 1
        p += 1
    raise ParseError(f"unbalanced '{open_}' in {what}", text, at)


def _string(text, at):
    """``(value, end)`` of the MLIR/HLO string literal at ``text[at] == '"'`` (``\\22``, ``\\"`` unescaped)."""
    p, out = at + 1, []
    while p < len(text):
        ch = text[p]
        if ch == "\\":
            if text[p + 1:p + 3] == "22":
                out.append('"')
                p += 3
                continue
            out.append(text[p + 1:p + 2])
            p += 2
            continue
        if ch == '"':
            return "".join(out), p + 1
        out.append(ch)
        p += 1
    raise ParseError("unterminated string", text, at)


def _dims(body, sep, text, at, what):
    """A shape from the dims of an HLO type (``8,16``) or a tensor type (``8x16xf32``)."""
    parts = [p.strip() for p in body.split(sep)] if body.strip() else []
    if sep == "x":
        parts = parts[:-1]  # the element type
    if not all(p.isdigit() for p in parts):
        raise ParseError(f"{what} {body!r} has a dim that is not a number (dynamic dims name no shape)", text, at)
    if any(len(p.lstrip("0")) > 18 for p in parts):  # past int64 (and past numpy's box arithmetic)
        raise ParseError(f"{what} has a dim past int64", text, at)
    return tuple(int(p) for p in parts)


def _tensor_before(text, at):
    """The shape of the value an attribute at ``at`` is on, or None.

    A function argument or result writes its type just before its attribute
    dictionary (``%arg0: tensor<8xf32> {..}``); an op writes its result type
    after (``%0 = stablehlo.add %a, %b {..} : tensor<8xf32>``, or ``.. ->
    tensor<8xf32>`` after its operand types).
    """
    found = None
    for m in _TENSOR.finditer(text, 0, at):
        found = m
    if found is not None and re.fullmatch(r"\s*\{[^{}]*", text[found.end():at]):
        return _dims(found.group(1), "x", text, found.start(1), "tensor type")
    line_end = text.find("\n", at)
    line_end = len(text) if line_end < 0 else line_end
    brace = text.rfind("{", 0, at)
    close = _balanced(text, brace, "{", "}", "the attribute dictionary") if brace >= 0 else at
    rest = text[close:line_end]
    colon = re.match(r"\s*:", rest)
    if colon is None:
        return None
    arrow = rest.find("->")
    m = _TENSOR.search(rest, arrow if arrow >= 0 else colon.end())
    return None if m is None else _dims(m.group(1), "x", text, close + m.start(1), "tensor type")


def _one_value(core, text, at):
    """``#sdy.sharding<..>`` of an op's ``#sdy.sharding_per_value<[<..>]>`` with one result (else a LayoutError)."""
    if not core.startswith("#sdy.sharding_per_value"):
        return core
    lo, hi = core.find("["), core.rfind("]")
    if lo < 0 or hi < lo:
        raise ParseError("expected '[' with the results' shardings", text, at)
    inner = core[lo + 1:hi].strip()
    if not inner.startswith("<"):
        raise ParseError("expected '<' opening a result's sharding", text, at)
    end = _balanced(inner, 0, "<", ">", "a result's sharding")
    if inner[end:].strip():
        raise LayoutError("the op has a sharding per result: paste one result's #sdy.sharding<..>")
    return "#sdy.sharding" + inner[:end]


def _mesh_in(text, name):
    """The text of mesh ``@name`` written in ``text`` (an ``sdy.mesh`` op or ``xla.sdy.meshes``), or None."""
    for m in _SDY_MESH.finditer(text):
        if m.group(1) == name:
            return f"sdy.mesh @{name} = " + text[m.end() - 1:_balanced(text, m.end() - 1, "<", ">", "sdy.mesh")]
    m = _SDY_MESHES.search(text)
    if m:
        p = m.end()
        body = _string(text, p)[0] if text[p:p + 1] == '"' else text[p:_balanced(text, p, "{", "}", "xla.sdy.meshes")]
        k = re.search(r"(?:^|[{,\s])" + re.escape(name) + r"\s*=\s*#sdy\.mesh<", body)
        if k:
            at = k.end() - 1
            return f"sdy.mesh @{name} = " + body[at:_balanced(body, at, "<", ">", "xla.sdy.meshes")]
    return None


def _sdy(text, core, shape):
    """``(sharding, shape, mesh text or None)`` of a Shardy sharding found in ``text``."""
    m = re.match(r"#sdy\.sharding\s*<\s*@([\w.$-]+)", core)
    mesh = _mesh_in(text, m.group(1)) if m else None
    return core, shape, mesh


def unwrap(text):
    """``(sharding text, shape, mesh text, offset, spec)`` of the sharding held in ``text`` (None: not said).

    ``offset`` is where the sharding text starts in ``text`` (errors point
    there), or None when it was rewritten (an escaped string, a Python repr).
    ``spec`` is a JAX spec's ``(dims, unreduced)`` (then the sharding text
    is None: ``spec_sharding`` writes it). Text holding no sharding this
    module knows is returned as it is.

    >>> unwrap('%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[4,2]<=[2,4]T(1,0)}"}')
    ('{devices=[4,2]<=[2,4]T(1,0)}', (8, 16), None, 42, None)
    >>> unwrap("(Shard(dim=0), Replicate())")
    ('Shard(dim=0), Replicate()', None, None, 1, None)
    """
    check_text(text, "a sharding text")
    body = text.strip()
    lead = len(text) - len(text.lstrip())
    if body.startswith(("{", "#sdy", "sharding=")) and not _MLIR_ATTR.search(body):  # a bare sharding
        return text, None, None, 0, None
    if _TORCH_TUPLE.match(body):
        end = _balanced(body, 0, "(", ")", "torch placements")
        if body[end:].strip():
            raise ParseError("text after the placements' ')'", text, lead + end)
        return body[1:end - 1], None, None, lead + 1, None
    if _JAX.match(body):
        spec, mesh = jax_spec(body, lead, text)
        return None, None, mesh, None, spec
    m = _HLO_ATTR.search(text)
    if m:
        at = m.end() - 1
        core = text[at:_balanced(text, at, "{", "}", "the HLO sharding")]
        t = _HLO_TYPE.search(text, 0, m.start())
        shape = _dims(t.group(1), ",", text, t.start(1), "HLO type") if t else None
        return core, shape, None, at, None
    m = _MLIR_ATTR.search(text)
    if m:
        at = m.end()
        shape = _tensor_before(text, m.start())
        if text[at:at + 1] == '"':
            core, _ = _string(text, at)
            if m.group(1) == "mhlo":
                return core, shape, None, (at + 1 if core == text[at + 1:at + 1 + len(core)] else None), None
            return _sdy(text, core, shape) + (None, None)
        if text.startswith("#sdy.sharding", at):
            k = at + len("#sdy.sharding") + (len("_per_value") if text.startswith("_per_value", at + 13) else 0)
            if text[k:k + 1] != "<":
                raise ParseError("expected '<' after #sdy.sharding", text, k)
            core = text[at:_balanced(text, k, "<", ">", "the Shardy sharding")]
            one = _one_value(core, text, at)
            return _sdy(text, one, shape) + ((at if one is core else None), None)
        raise ParseError(f"expected a sharding after {m.group(0).strip()}", text, at)
    m = _SDY_OP.search(text)
    if m:  # sdy.sharding_constraint %x <@mesh, [..]> : tensor<..>: the sharding is written bare
        at = m.end()
        core = "#sdy.sharding" + text[at:_balanced(text, at, "<", ">", "the Shardy sharding")]
        end = at + len(core) - len("#sdy.sharding")
        t = re.match(r"\s*:\s*" + _TENSOR.pattern, text[end:])
        shape = _dims(t.group(1), "x", text, end + t.start(1), "tensor type") if t else None
        return _sdy(text, core, shape) + (None, None)
    if "#sdy.sharding" in text and _SDY_MESH.search(text):  # an sdy.mesh op pasted with the sharding
        at = text.index("#sdy.sharding")
        k = text.find("<", at)
        if k < 0:
            raise ParseError("expected '<' after #sdy.sharding", text, at)
        core = text[at:_balanced(text, k, "<", ">", "the Shardy sharding")]
        return _sdy(text, core, _tensor_before(text, at)) + (at, None)
    return text, None, None, 0, None


# ---- JAX reprs: PartitionSpec, NamedSharding, Mesh ----

_NAME = r"'([^']*)'|\"([^\"]*)\""


def _py_names(s):
    return [a or b for a, b in re.findall(_NAME, s)]


def jax_mesh(text, where=0, whole=None):
    """``sdy.mesh @mesh = <[...]>`` of a JAX mesh repr (``Mesh('x': 2, ..)``, ``Mesh(axis_sizes=.., axis_names=..)``).

    >>> jax_mesh("Mesh(axis_sizes=(2, 4), axis_names=('x', 'y'), axis_types=(Auto, Auto))")
    'sdy.mesh @mesh = <["x"=2, "y"=4]>'
    """
    whole = text if whole is None else whole
    pairs = re.findall(r"(?:'([^']*)'|\"([^\"]*)\")\s*:\s*(\d+)", text)
    if pairs:
        axes = [(a or b, int(n)) for a, b, n in pairs]
    else:
        sizes = re.search(r"axis_sizes\s*=\s*\(([^)]*)\)", text)
        names = re.search(r"axis_names\s*=\s*\(([^)]*)\)", text)
        if not (sizes and names):
            raise ParseError("expected a JAX mesh: Mesh('x': 2, 'y': 4) or Mesh(axis_sizes=(2, 4), "
                             "axis_names=('x', 'y'))", whole, where)
        ns = [int(v) for v in re.findall(r"\d+", sizes.group(1))]
        axes = list(zip(_py_names(names.group(1)), ns))
        if len(axes) != len(ns):
            raise ParseError("axis_sizes and axis_names differ in length", whole, where)
    return "sdy.mesh @mesh = <[" + ", ".join(f'"{a}"={n}' for a, n in axes) + "]>"


def _spec_entries(body, whole, where):
    """The entries of ``P(...)``'s arguments: per dim a list of axis names; and the unreduced axes."""
    dims, unreduced, p = [], [], 0
    while p < len(body):
        ch = body[p]
        if ch in " ,":
            p += 1
        elif ch in "'\"":
            end = body.find(ch, p + 1)
            if end < 0:
                raise ParseError("unterminated axis name", whole, where + p)
            dims.append([body[p + 1:end]])
            p = end + 1
        elif body.startswith("None", p):
            dims.append([])
            p += 4
        elif ch == "(":
            end = _balanced(body, p, "(", ")", "a PartitionSpec entry")
            dims.append(_py_names(body[p:end]))
            p = end
        elif body.startswith("unreduced", p) or body.startswith("reduced", p):
            key = "unreduced" if body.startswith("unreduced", p) else "reduced"
            q = body.find("=", p) + 1
            while 0 < q < len(body) and body[q] == " ":
                q += 1
            if q <= 0 or q >= len(body) or body[q] not in "{([":
                raise ParseError(f"expected {key}={{'axis', ..}}", whole, where + p)
            end = _balanced(body, q, body[q], {"{": "}", "(": ")", "[": "]"}.get(body[q], ")"), key)
            names = _py_names(body[q:end])
            if key == "reduced" and names:
                raise LayoutError(f"PartitionSpec(reduced={set(names)}): reduced axes are not modelled")
            unreduced += names if key == "unreduced" else []
            p = end
        else:
            raise ParseError("expected an axis name, None or a tuple of names in the PartitionSpec", whole, where + p)
    return dims, unreduced


def jax_spec(body, lead=0, whole=None, mesh=None):
    """``((dims, unreduced), mesh text or None)`` of a ``PartitionSpec``/``P``/``NamedSharding`` repr.

    ``dims`` holds each spec entry's axis names (None: none); ``spec_sharding``
    writes the Shardy sharding once the tensor's rank and the mesh are known.

    >>> jax_spec("P(('x', 'y'), None, unreduced={'z'})")
    (([['x', 'y'], []], ['z']), None)
    """
    whole = body if whole is None else whole
    if body.startswith("NamedSharding"):
        m = re.search(r"mesh\s*=\s*((?:Abstract)?Mesh\()", body)
        if not m:
            raise ParseError("expected mesh=Mesh(...) in the NamedSharding", whole, lead)
        at = m.start(1) + len(m.group(1)) - 1
        mesh = jax_mesh(body[at:_balanced(body, at, "(", ")", "the Mesh")], lead + at, whole)
        s = re.search(r"spec\s*=\s*((?:PartitionSpec|P)\()", body)
        if not s:
            raise ParseError("expected spec=P(...) in the NamedSharding", whole, lead)
        k = s.start(1)
        body, lead = body[k:], lead + k
    k = body.index("(")
    end = _balanced(body, k, "(", ")", "the PartitionSpec")
    if whole is body and body[end:].strip():
        raise ParseError("text after the PartitionSpec's ')'", whole, lead + end)
    dims, unreduced = _spec_entries(body[k + 1:end - 1], whole, lead + k + 1)
    return (dims, unreduced), mesh


def spec_sharding(spec, rank, axes) -> str:
    """The Shardy sharding JAX lowers ``spec`` (``jax_spec``'s dims, unreduced) to, over mesh ``axes`` (name, size).

    The spec is padded with ``{}`` to the tensor's ``rank`` (as JAX pads it
    with None); unreduced axes are listed in mesh order, as Shardy wants them.

    >>> spec_sharding(([["y", "x"]], ["z"]), 2, [("x", 2), ("y", 2), ("z", 2)])
    '#sdy.sharding<@mesh, [{"y", "x"}, {}], unreduced={"z"}>'
    """
    dims, unreduced = spec
    if len(dims) > rank:
        raise LayoutError(f"the PartitionSpec names {len(dims)} dims but the tensor has rank {rank}")
    order = {a: j for j, (a, _) in enumerate(axes)}
    for a in [a for d in dims for a in d] + list(unreduced):
        if a not in order:
            raise LayoutError(f"the PartitionSpec names axis {a!r}, not an axis of the mesh ({', '.join(order)})")
    dims = list(dims) + [[]] * (rank - len(dims))
    text = "#sdy.sharding<@mesh, [" + ", ".join("{" + ", ".join(f'"{a}"' for a in d) + "}" for d in dims) + "]"
    if unreduced:
        text += ", unreduced={" + ", ".join(f'"{a}"' for a in sorted(unreduced, key=order.get)) + "}"
    return text + ">"
