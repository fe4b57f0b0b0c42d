"""A sharding in each vocabulary that can say it: HLO, Shardy, DTensor and TTNN placements, JAX.

``to_text(s, form, mesh_shape)`` writes one (``NotRepresentableError`` with
the reason when the vocabulary cannot say ``s``); ``conversions`` writes all
of them, or why not, as ``show`` lists them.

>>> from unilayout.sharding import parse_hlo
>>> s = parse_hlo("{devices=[2,1,2]<=[4] last_tile_dim_replicate}", (8, 6))
>>> to_text(s, "dtensor", None), to_text(s, "hlo", None)
('Shard(0), Replicate()  on mesh 2x2', '{devices=[2,1,2]<=[4] last_tile_dim_replicate}')
"""

from __future__ import annotations

import numpy as np

from ..errors import LayoutError, NotRepresentableError
from ._meshes import candidate_meshes, plain
from .dtensor import to_dtensor
from .hlo import tile_assignment, to_hlo
from .jax import _spec_for, _split_sums
from .shardy import parse_mesh, to_shardy
from .ttnn import to_ttnn

__all__ = ["FORMS", "to_text", "conversions", "jax_text"]

#: The vocabularies ``unilayout convert --to`` writes a sharding in (``ttnn-mesh``: TTNN mesh-mapper placements;
#: ``ttnn`` alone is tt-mlir's ``#ttnn.ttnn_layout`` form of a metal layout).
FORMS = ("hlo", "shardy", "dtensor", "jax", "ttnn-mesh")


def _mesh_for(s, mesh_shape):
    """The mesh to print placements on: --mesh-shape, else the HLO tile assignment's shape."""
    if mesh_shape is not None:
        return mesh_shape
    T, R, _ = tile_assignment(plain(s), "HLO")
    dims = tuple(t for t in T if t > 1) + ((R,) if R > 1 else ())
    return dims or (1,)


def conversions(s, mesh_shape, only=None):
    """``{vocabulary: text or 'not representable: why'}`` for ``show`` (every vocabulary, or ``only`` one)."""
    out = {}
    for name in [only] if only else ["hlo", "shardy", "dtensor", "ttnn", "jax"]:
        try:
            out[name] = to_text(s, name, mesh_shape)
        except (NotRepresentableError, LayoutError) as e:
            out[name] = f"not representable: {e}"
    return out


def to_text(s, to, mesh_shape):
    """One line of ``s`` in vocabulary ``to`` (``ttnn``/``ttnn-mesh``: TTNN mesh-mapper placements), or raise why not."""
    if to == "jax":
        return jax_text(s, mesh_shape)
    if to == "hlo":
        return to_hlo(s)
    if to == "shardy":
        st, mt = to_shardy(s)
        return f"{st}  over  {mt}"
    s._global(f"{'DTensor' if to == 'dtensor' else 'TTNN'} placements (they cut or copy one global tensor)")
    if s.devices != tuple(range(s.num_devices)):
        err = NotRepresentableError(f"device ids {list(s.devices)} are not ranks 0..{s.num_devices - 1}: "
                                    f"{to} places by rank on a mesh of shape {mesh_shape or 'MxN'}")
        meshes = []
    else:  # without --mesh-shape: the mesh the tile assignment is an iota of (ranks row-major), then the tile counts'
        err, meshes = None, [mesh_shape] if mesh_shape is not None else candidate_meshes(s, _mesh_for(s, None))
    for m in meshes:
        try:
            pl = to_dtensor(s, m, as_text=True) if to == "dtensor" else to_ttnn(s, m)
        except NotRepresentableError as e:
            err = err or e
            continue
        return f"{', '.join(pl)}  on mesh {'x'.join(map(str, m))}"
    if to == "dtensor" and mesh_shape is None:  # a DeviceMesh may order its ranks as the tile assignment does
        line = _on_device_mesh(s)
        if line:
            return line
    raise err


class _DeviceMesh:
    """What ``to_dtensor`` reads of a ``torch.distributed.DeviceMesh``: its ``mesh`` array of ranks and ``shape``."""

    def __init__(self, ranks):
        self.mesh, self.shape = ranks, ranks.shape


def _on_device_mesh(s):
    """Placements on a ``DeviceMesh`` whose rank array is ``s``'s tile assignment (its copies last), or None.

    >>> from unilayout.sharding import parse_hlo
    >>> _on_device_mesh(parse_hlo("{devices=[2,2]0,3,2,1}", (4, 4)))
    "Shard(0), Shard(1)  on DeviceMesh('cpu', [[0, 3], [2, 1]])"
    """
    try:
        _, _, assign = tile_assignment(plain(s), "DTensor")
    except (NotRepresentableError, LayoutError):
        return None
    ranks = assign.reshape([k for k in assign.shape if k > 1] or [1])
    try:
        pl = to_dtensor(s, _DeviceMesh(ranks), as_text=True)
    except NotRepresentableError:
        return None
    return f"{', '.join(pl)}  on DeviceMesh('cpu', {ranks.tolist()})"


def jax_text(s, mesh_shape=None) -> str:
    """The JAX ``PartitionSpec`` of ``s`` and the mesh it names, as text (JAX itself is not needed).

    The mesh is ``mesh_shape`` (axes ``m0, m1, ..``, devices in rank order) or,
    without one, the mesh ``to_shardy`` prints (axes ``d<i>`` per tiled dim,
    ``r`` for copies, its device order). ``NotRepresentableError`` says why no
    spec over that mesh holds ``s`` (``to_jax``'s reasons).

    >>> from unilayout.sharding import parse_hlo
    >>> jax_text(parse_hlo("{devices=[2,1,2]<=[4] last_tile_dim_replicate}", (8, 6)))
    "PartitionSpec('d0',)  on mesh ('d0', 'r') of shape (2, 2)"
    >>> jax_text(parse_hlo("{devices=[2,2]<=[2,2]T(1,0)}", (8, 8)), (2, 2))
    "PartitionSpec('m1', 'm0')  on mesh ('m0', 'm1') of shape (2, 2)"
    """
    s._global("a PartitionSpec (JAX's NamedSharding has no manual axes; shard_map makes them)")
    if mesh_shape is None:
        m = parse_mesh(to_shardy(s)[1])
        names, sizes = [a for a, _ in m.axes], [k for _, k in m.axes]
        ids = list(m.device_ids) or list(range(s.num_devices))
        if not names:  # one device: a mesh of one axis (JAX meshes have at least one)
            names, sizes, ids = ["r"], [s.num_devices], list(s.devices)
    else:
        names, sizes = [f"m{i}" for i in range(len(mesh_shape))], list(mesh_shape)
        ids = list(range(int(np.prod(sizes, dtype=np.int64))))
    names, sizes, idv = tuple(names), tuple(sizes), np.asarray(ids, dtype=np.int64)
    unreduced = ()
    if s.has_partial:  # JAX >= 0.7: PartitionSpec(..., unreduced={axes}) says which axes the sums add up along
        s, unreduced = _split_sums(s, names, sizes, idv)
    spec = _spec_for(s, names, sizes, idv)
    order = "" if ids == list(range(len(ids))) else f", device ids {ids} in mesh order"
    entries = [repr(e) for e in spec] + ([f"unreduced={set(unreduced)!r}"] if unreduced else [])
    return (f"PartitionSpec({', '.join(entries)}{',' if len(spec) == 1 and not unreduced else ''})  on mesh "
            f"{names!r} of shape {sizes!r}{order}")
