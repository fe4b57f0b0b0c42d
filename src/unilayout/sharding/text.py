"""The texts a sharding is read from: HLO, Shardy, DTensor and TTNN placements (each needs the tensor's shape).

- HLO ``{devices=[2,1,4]<=[8] last_tile_dim_replicate}`` (a ``sharding=`` prefix allowed);
- Shardy ``#sdy.sharding<@mesh, [{"x"}, {}]>`` with the mesh text ``sdy.mesh @mesh = <["x"=2]>``
  (``mesh``), or both in one text, the mesh first;
- DTensor placements ``Shard(0), Replicate()`` or TTNN ``PlacementShard(0), PlacementReplicate()``
  over a mesh of ``mesh_shape``.

>>> s = parse("{devices=[2,1,2]<=[4] last_tile_dim_replicate}", (8, 6))
>>> s.num_devices, s.device_boxes[2]
(4, [((4, 8), (0, 6))])
"""

from __future__ import annotations

import re

from .._text import check_text
from ..errors import LayoutError
from .dtensor import from_dtensor
from .hlo import _parse as _parse_hlo_syntax
from .hlo import parse_hlo
from .shardy import parse_shardy
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

    >>> parse("Shard(0), Replicate()", (4, 2), mesh_shape=(2, 2)).device_boxes[3]
    [((2, 4), (0, 2))]
    """
    check_text(text, "a sharding text")
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
    if body.startswith("sdy.mesh") and "#sdy.sharding" in body:  # 'sdy.mesh @m = <[..]>' then '#sdy.sharding<@m, ..>'
        at = body.index("#sdy.sharding")
        if mesh is not None:
            raise LayoutError("the text holds its sdy.mesh already: give --mesh only with a bare #sdy.sharding")
        return parse_shardy(body[at:], body[:at].strip(), shape)
    if _PLACEMENT.match(body):
        if mesh_shape is None:
            raise LayoutError("placements need the mesh: give --mesh-shape, e.g. --mesh-shape 2x4")
        pl = _placements(body)
        if any(p.startswith("Placement") for p in pl):
            return from_ttnn(pl, mesh_shape, shape)
        return from_dtensor(pl, mesh_shape, shape)
    raise LayoutError("expected an HLO sharding '{devices=[...]...}', a Shardy '#sdy.sharding<...>', DTensor or TTNN "
                      "placements 'Shard(0), Replicate()'")


def is_placements(text) -> bool:
    """Whether ``text`` is DTensor or TTNN placements (``Shard(0), Replicate()``, ``PlacementShard(1)``).

    >>> is_placements("[Shard(0), R]"), is_placements("PlacementReplicate()"), is_placements("8:1")
    (True, True, False)
    """
    return isinstance(text, str) and bool(_PLACEMENT.match(text))
