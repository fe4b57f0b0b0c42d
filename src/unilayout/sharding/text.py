"""The texts a sharding is read from: HLO, Shardy, DTensor and TTNN placements (each needs the tensor's shape).

- HLO ``{devices=[2,1,4]<=[8] last_tile_dim_replicate}`` (a ``sharding=`` prefix allowed);
- Shardy ``#sdy.sharding<@mesh, [{"x"}, {}]>`` with the mesh text ``sdy.mesh @mesh = <["x"=2]>``
  (``mesh``), or both in one text, the mesh first;
- DTensor placements ``Shard(0), Replicate()`` (torch's repr ``(Shard(dim=0), Replicate())`` too) or TTNN
  ``PlacementShard(0), PlacementReplicate()`` over a mesh of ``mesh_shape``;
- the sharding as it is held (``held.py``): an HLO line ``%p = f32[8,16]{1,0} parameter(0),
  sharding={...}`` or an MLIR attribute ``mhlo.sharding = "..."`` / ``xla.sdy.sharding = "..."`` /
  ``sdy.sharding = #sdy.sharding<...>`` (shape and mesh read from the text around it), a JAX
  ``PartitionSpec`` / ``P(...)`` repr over ``mesh`` (a JAX ``Mesh`` repr or Shardy mesh) or a
  ``NamedSharding`` repr.

>>> s = parse("{devices=[2,1,2]<=[4] last_tile_dim_replicate}", (8, 6))
>>> s.num_devices, s.device_boxes[2]
(4, [((4, 8), (0, 6))])
"""

from __future__ import annotations

import re

from .._text import check_text
from ..errors import LayoutError, ParseError
from .dtensor import from_dtensor
from .held import jax_mesh, spec_sharding, unwrap
from .hlo import _parse as _parse_hlo_syntax
from .hlo import parse_hlo
from .shardy import parse_mesh, parse_shardy
from .ttnn import from_ttnn
from .value import Sharding

__all__ = ["parse", "is_placements"]

_PLACEMENT = re.compile(r"^\s*\[?\s*(Shard|Replicate|Partial|_StridedShard|_S|S\(|R\b|P\b|Placement)")


def _placements(text):
    body = text.strip()
    if body.startswith("[") and body.endswith("]"):
        body = body[1:-1]
    out, depth, cur = [], 0, ""
    for ch in body:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def parse(text, shape=None, mesh=None, mesh_shape=None) -> Sharding:
    """The ``Sharding`` of an HLO, Shardy, DTensor or TTNN placement text over a tensor of ``shape``.

    The sharding may be held as people paste it (``held.unwrap``): an HLO
    instruction line or an MLIR attribute (the shape, and Shardy's mesh, read
    from the text around it), torch's tuple of placements, or a JAX
    ``PartitionSpec``/``NamedSharding`` repr (``mesh`` may be a JAX ``Mesh`` repr).

    >>> parse("Shard(0), Replicate()", (4, 2), mesh_shape=(2, 2)).device_boxes[3]
    [((2, 4), (0, 2))]
    >>> parse("x.1 = f32[8,16]{1,0} parameter(0), sharding={devices=[2,1]<=[2]}").device_boxes[1]
    [((4, 8), (0, 16))]
    >>> parse("P(None, 'y')", (4, 8), mesh="Mesh('x': 2, 'y': 4)").device_boxes[5]
    [((0, 4), (2, 4))]
    """
    check_text(text, "a sharding text")
    core, held_shape, held_mesh, offset, spec = unwrap(text)
    if held_shape is not None:
        if shape is not None and tuple(int(n) for n in shape) != held_shape:
            raise LayoutError(f"the text says the tensor is {'x'.join(map(str, held_shape)) or 'a scalar'}, "
                              f"not of shape {tuple(shape)!r}")
        shape = held_shape
    if held_mesh is not None:
        if mesh is not None:
            raise LayoutError("the text holds its mesh already: give --mesh only with a bare sharding")
        mesh = held_mesh
    if isinstance(mesh, str) and mesh.lstrip().startswith(("Mesh(", "AbstractMesh(")):
        mesh = jax_mesh(mesh.strip())
    if spec is not None:
        if mesh is None:
            raise LayoutError("a PartitionSpec needs its mesh: give --mesh \"Mesh('x': 2, 'y': 4)\" (or the "
                              "NamedSharding repr, which holds it)")
        if shape is None:
            raise LayoutError("a sharding text needs the tensor's shape: give --shape, e.g. --shape 8x6")
        m = parse_mesh(mesh)
        return parse_shardy(spec_sharding(spec, len(shape), m.axes), m, shape)
    try:
        return _parse(core, shape, mesh, mesh_shape)
    except ParseError as e:
        if core is text or offset is None or e.text != core:
            raise
        raise ParseError(e.message, text, offset + e.position) from None


def _parse(text, shape, mesh, mesh_shape) -> Sharding:
    body = text.strip()
    if shape is None:
        if body.startswith(("{", "sharding")):
            _parse_hlo_syntax(text)  # a ParseError at its position, before asking for the shape
        raise LayoutError("a sharding text needs the tensor's shape: give --shape, e.g. --shape 8x6 (the explorer: "
                          "the shape field)")
    if body.startswith("{") or body.startswith("sharding"):
        return parse_hlo(body, shape)
    if body.startswith("#sdy.sharding"):
        return parse_shardy(body, mesh, shape)
    if _PLACEMENT.match(body):
        if mesh_shape is None:
            raise LayoutError("placements need the mesh: give --mesh-shape, e.g. --mesh-shape 2x4")
        pl = _placements(body)
        if any(p.startswith("Placement") for p in pl):
            return from_ttnn(pl, mesh_shape, shape)
        return from_dtensor(pl, mesh_shape, shape)
    raise LayoutError("expected an HLO sharding '{devices=[...]...}', a Shardy '#sdy.sharding<...>', DTensor or TTNN "
                      "placements 'Shard(0), Replicate()', an HLO line with sharding={...}, an mhlo.sharding / "
                      "sdy.sharding attribute, or a JAX PartitionSpec / NamedSharding")


def is_placements(text) -> bool:
    """Whether ``text`` is DTensor or TTNN placements (``Shard(0), Replicate()``, ``PlacementShard(1)``).

    >>> is_placements("[Shard(0), R]"), is_placements("PlacementReplicate()"), is_placements("8:1")
    (True, True, False)
    """
    return isinstance(text, str) and bool(_PLACEMENT.match(text))
