"""TTNN mesh mappers (``ShardTensor2dMesh``, ``PlacementShard``/``PlacementReplicate``) <-> ``Sharding``.

A TTNN mesh mapper gives one placement per mesh dim, applied in order like
DTensor's: ``PlacementShard(d)`` cuts tensor dim ``d`` among the devices of
that mesh dim, ``PlacementReplicate()`` copies. The cut is TTNN's
``xtensor::chunk``: chunks of ``ceil(L / k)`` — the same sizes as
``torch.chunk`` — but TTNN needs ``k <= L`` and stops once the dim is used
up, so ``L = 5`` over ``k = 4`` gives only 3 chunks (2, 2, 1) for 4
devices: such a split is refused here with that reason (a padded tt grid
gives 2, 2, 1 and an empty 4th shard instead). Devices are numbered in
row-major mesh order (TTNN's ``MeshCoordinate`` order).

``ShardTensor2dMesh(mesh_device, mesh_shape, dims=(r, c))`` is
``[PlacementShard(r), PlacementShard(c)]`` (``None`` replicates);
``shard_tensor_2d_mesh`` spells it:

>>> from_ttnn(shard_tensor_2d_mesh((0, None)), (2, 4), (8, 16)).device_boxes[5]
[((4, 8), (0, 16))]
>>> to_ttnn(from_ttnn(["PlacementShard(1)", "PlacementShard(0)"], (2, 2), (4, 4)), (2, 2))
('PlacementShard(1)', 'PlacementShard(0)')
>>> from_ttnn(["PlacementShard(0)"], (4,), (5,))
Traceback (most recent call last):
...
unilayout.errors.NotRepresentableError: TTNN's chunk cuts dim 0 (size 5) into 3 pieces (2+2+1) for the 4 devices of mesh dim 0: it needs one piece per device
"""

from __future__ import annotations

import numpy as np

from .._ints import as_shape
from .._text import Scanner
from ..errors import LayoutError, NotRepresentableError
from ._grid import check_mesh_shape
from .dtensor import _build, _places, _search
from .value import Sharding

__all__ = ["from_ttnn", "to_ttnn", "shard_tensor_2d_mesh"]


def shard_tensor_2d_mesh(dims):
    """The placements of ``ShardTensor2dMesh(..., dims=(row_dim, col_dim))`` (``None``: replicate).

    >>> shard_tensor_2d_mesh((None, 1))
    ('PlacementReplicate()', 'PlacementShard(1)')
    """
    try:
        dims = tuple(dims)
    except TypeError:
        raise LayoutError(f"dims must be a (row_dim, col_dim) pair, got {dims!r}") from None
    if len(dims) != 2:
        raise LayoutError(f"ShardTensor2dMesh takes dims=(row_dim, col_dim), got {dims!r}")
    return tuple("PlacementReplicate()" if d is None else f"PlacementShard({int(d)})" for d in dims)


def _placement(p, rank, where):
    if isinstance(p, str):
        sc = Scanner(p)
        start = sc.skip()
        name = sc.identifier("PlacementShard(d) or PlacementReplicate()")
        if name in ("PlacementShard", "Shard"):
            sc.expect("(")
            d = sc.integer(signs="-", what="a tensor dim")
            sc.expect(")")
            out = ("S", d)
        elif name in ("PlacementReplicate", "Replicate"):
            sc.expect("(")
            sc.expect(")")
            out = ("R",)
        else:
            sc.fail(f"unknown TTNN placement {name!r} (PlacementShard(d) or PlacementReplicate())", start)
        sc.expect_end()
    else:
        cls = type(p).__name__
        if cls == "PlacementShard":
            out = ("S", int(p.dim))
        elif cls == "PlacementReplicate":
            out = ("R",)
        else:
            raise LayoutError(f"{where}: expected a TTNN placement or its text, got {cls} {p!r}")
    if out[0] == "S":
        d = out[1] + rank if out[1] < 0 else out[1]
        if not 0 <= d < rank:
            raise LayoutError(f"{where}: PlacementShard dim {out[1]} is out of range for a tensor of rank {rank}")
        out = ("S", d)
    return out


def _check_chunks(places, sizes, shape):
    """TTNN's chunk: k <= L and one piece per device, at every step (the local sizes are known per step)."""
    L = {d: {n} for d, n in enumerate(shape)}
    for j, p in enumerate(places):
        if p[0] != "S":
            continue
        d, k = p[1], sizes[j]
        new = set()
        for n in sorted(L[d]):
            c = -(-n // k)
            pieces = [min(c, n - i * c) for i in range(k) if i * c < n]
            if k > n or len(pieces) < k:
                why = (f"into {len(pieces)} pieces ({'+'.join(map(str, pieces))})" if k <= n
                       else f"into at most {n} pieces")
                raise NotRepresentableError(
                    f"TTNN's chunk cuts dim {d} (size {n}) {why} for the {k} devices of mesh dim {j}: it needs one "
                    "piece per device")
            new.update(pieces)
        L[d] = new


def from_ttnn(placements, mesh_shape, shape) -> Sharding:
    """The ``Sharding`` a TTNN mesh mapper with ``placements`` gives a tensor of ``shape`` (keys: row-major devices).

    **Post-condition**: equals ``from_dtensor`` of the same placements
    (``Shard``/``Replicate``) wherever TTNN accepts the split.

    >>> from_ttnn(["PlacementReplicate()", "PlacementShard(1)"], (2, 2), (2, 6)).device_boxes[3]
    [((0, 2), (3, 6))]
    """
    shape = as_shape(shape, "shape")
    sizes = check_mesh_shape(mesh_shape)
    places = _places(placements, sizes, len(shape), _placement)
    _check_chunks(places, sizes, shape)
    return _build(places, sizes, np.arange(int(np.prod(sizes)), dtype=np.int64), shape)


def to_ttnn(sharding, mesh_shape):
    """TTNN placements (text, one per mesh dim) giving every device what ``sharding`` gives it.

    Raises ``NotRepresentableError`` naming the difference: partial sums
    (TTNN mappers copy or cut), several boxes per device, splits TTNN's
    chunk does not make, or a device order needing an explicit transpose.

    >>> from unilayout.sharding import parse_hlo
    >>> to_ttnn(parse_hlo("{devices=[1,2,2]<=[4] last_tile_dim_replicate}", (4, 6)), (2, 2))
    ('PlacementShard(1)', 'PlacementReplicate()')
    """
    if not isinstance(sharding, Sharding):
        raise LayoutError(f"expected a unilayout.sharding.Sharding, got {type(sharding).__name__}")
    sharding._global("TTNN placements (a mesh mapper cuts or copies one host tensor)")
    sizes = check_mesh_shape(mesh_shape)
    ids = np.arange(int(np.prod(sizes)), dtype=np.int64)
    places = _search(sharding, sizes, ids, "TTNN", allow_partial=False, allow_strided=False, fmt=_text,
                     cutter="TTNN's chunk")
    _check_chunks(places, sizes, sharding.shape)
    return tuple(_text(p) for p in places)


def _text(p) -> str:
    return "PlacementReplicate()" if p[0] == "R" else f"PlacementShard({p[1]})"
