"""PyTorch DTensor placements on a device mesh <-> ``Sharding`` (a model of DTensor's semantics; torch optional).

A DTensor's placements give one entry per mesh dim, applied **left to
right**, each cutting the local piece the previous ones left:

- ``Shard(d)``: cut tensor dim ``d`` as ``torch.chunk`` does: chunks of
  ``ceil(L / k)``, so the last ranks get less, possibly nothing;
- ``Replicate()``: every rank along the mesh dim holds the same piece;
- ``Partial()``: every rank holds a partial sum of the piece (the tensor is
  their sum); the ``Sharding`` marks every device partial, and ranks that
  differ only along the Partial mesh dims add up together
  (``Sharding.sum_groups``: ``Partial(), Replicate()`` on 2x2 sums ranks
  {0, 2} and {1, 3}; ``Partial(), Partial()`` sums all four);
- ``_StridedShard(d, split_factor=f)`` (FSDP2 + TP, "right-to-left"): the
  piece is first cut into ``f`` chunks, each chunk into ``k`` chunks, and
  rank ``r`` takes chunk ``r`` of each (so it holds ``f`` separate boxes).

Rank ``r`` is the mesh position of ``r`` (``arange`` for a mesh shape; a
``DeviceMesh``'s own ``mesh`` tensor otherwise). ``torch.chunk``'s uneven
cut, for a 5-row tensor:

| mesh | placements | rows of ranks 0, 1, 2, 3 |
|---|---|---|
| (2,) | Shard(0) | 0:3, 3:5 |
| (4,) | Shard(0) | 0:2, 2:4, 4:5, none |
| (2, 2) | Shard(0), Shard(0) | 0:2, 2:3, 3:4, 4:5 |

>>> s = from_dtensor(["Shard(0)", "Shard(0)"], (2, 2), (5, 3))
>>> [s.device_boxes[r][0][0] for r in range(4)]
[(0, 2), (2, 3), (3, 4), (4, 5)]
>>> to_dtensor(s, (2, 2), as_text=True)
('Shard(0)', 'Shard(0)')
>>> from_dtensor(["_StridedShard(0, split_factor=2)"], (2,), (8,)).device_boxes[0]
[((0, 2),), ((4, 6),)]

Placements may be torch objects or their text (``Shard(0)``, ``S(0)``,
``Replicate()``, ``R``, ``Partial()``, ``P``, ``_StridedShard(0,
split_factor=2)``, ``_S(0, 2)``); torch is imported only to build torch
objects (``to_dtensor(..., as_text=False)``).
"""

from __future__ import annotations

import itertools

import numpy as np

from .._ints import as_shape, check_table, product
from .._text import Scanner
from ..errors import LayoutError, NotRepresentableError
from ._grid import check_mesh_shape, chunk
from .value import Sharding

__all__ = ["from_dtensor", "to_dtensor"]


def _open_dim(sc: Scanner) -> int:
    """After a Shard's name: '(' [dim '='] INT -> the tensor dim (may be negative)."""
    sc.expect("(")
    sc.skip()
    if sc.keyword("dim"):
        sc.expect("=")
    return sc.integer(signs="-", what="a tensor dim")


def _placement_text(sc: Scanner):
    start = sc.skip()
    name = sc.identifier("a placement (Shard(d), Replicate(), Partial(), _StridedShard(d, split_factor=f))")
    if name in ("R", "Replicate"):
        if name == "Replicate":
            sc.expect("(")
            sc.expect(")")
        elif sc.accept("("):
            sc.expect(")")
        return ("R",)
    if name in ("P", "Partial"):
        if sc.accept("("):
            sc.skip()
            if not sc.at(")"):
                op = sc.identifier("a reduce op")
                if op != "sum":
                    sc.fail(f"Partial({op}): only sums are modelled (a partial {op} is not a sum of pieces)", start)
            sc.expect(")")
        return ("P",)
    if name in ("S", "Shard"):
        d = _open_dim(sc)
        sc.expect(")")
        return ("S", d)
    if name in ("_S", "_StridedShard"):
        d = _open_dim(sc)
        sc.expect(",")
        sc.skip()
        if sc.keyword("split_factor") or sc.keyword("sf"):
            sc.expect("=")
        f = sc.integer(what="a split factor")
        if f < 1:
            sc.fail(f"split_factor must be >= 1, got {f}", start)
        sc.expect(")")
        return ("SS", d, f)
    sc.fail(f"unknown placement {name!r}", start)


def _places(placements, sizes, rank, read):
    """One place per mesh dim of ``sizes``: ``read(p, rank, where)`` of each placement (one alone: a list of it).

    A count other than the mesh's rank is a ``LayoutError``; ``read`` (dtensor's or ttnn's
    ``_placement``) says what a single placement may be.
    """
    if isinstance(placements, (str, bytes)) or not hasattr(placements, "__iter__"):
        placements = (placements,)
    placements = list(placements)
    if len(placements) != len(sizes):
        raise LayoutError(f"{len(placements)} placements for a mesh of {len(sizes)} dims {sizes}: give one per mesh dim")
    return [read(p, rank, f"placement {j}") for j, p in enumerate(placements)]


def _placement(p, rank, where):
    """One placement as ('S', d) / ('SS', d, f) / ('R',) / ('P',)."""
    if isinstance(p, str):
        sc = Scanner(p)
        out = _placement_text(sc)
        sc.expect_end()
    else:
        cls = type(p).__name__
        if cls == "_StridedShard":
            out = ("SS", int(p.dim), int(p.split_factor))
        elif cls == "Shard":
            out = ("S", int(p.dim))
        elif cls == "Replicate":
            out = ("R",)
        elif cls == "Partial":
            op = getattr(p, "reduce_op", "sum")
            if op != "sum":
                raise NotRepresentableError(f"{where}: Partial({op}) is not a partial sum (only sums are modelled)")
            out = ("P",)
        else:
            raise LayoutError(f"{where}: expected a DTensor placement or its text, got {cls} {p!r}")
    if out[0] in ("S", "SS"):
        d = out[1] + rank if out[1] < 0 else out[1]
        if not 0 <= d < rank:
            raise LayoutError(f"{where}: Shard dim {out[1]} is out of range for a tensor of rank {rank}")
        out = (out[0], d) + out[2:]
    return out


def _text(p) -> str:
    return {"R": "Replicate()", "P": "Partial()"}.get(p[0]) or (
        f"Shard({p[1]})" if p[0] == "S" else f"_StridedShard({p[1]}, split_factor={p[2]})")


def _mesh(mesh_shape):
    """(sizes, ranks in row-major mesh order) of a mesh shape or a torch DeviceMesh."""
    if hasattr(mesh_shape, "mesh") and hasattr(mesh_shape, "shape") and not isinstance(mesh_shape, (tuple, list)):
        m = mesh_shape.mesh
        sizes = tuple(int(v) for v in m.shape)
        return sizes, np.asarray(m.reshape(-1).tolist(), dtype=np.int64)
    sizes = check_mesh_shape(mesh_shape)
    return sizes, np.arange(int(np.prod(sizes)), dtype=np.int64)


def _strided(L, k, r, f):
    """Positions in ``[0, L)`` that rank ``r`` of ``k`` holds under ``_StridedShard(split_factor=f)``."""
    first = -(-L // f)
    out = []
    for s in range(min(f, -(-L // first)) if L else 0):  # chunks past the last non-empty one hold nothing
        fs, fe = min(first * s, L), min(first * (s + 1), L)
        n = fe - fs
        c = -(-n // k)
        out.append(np.arange(fs + min(c * r, n), fs + min(c * (r + 1), n), dtype=np.int64))
    return np.concatenate(out) if out else np.zeros(0, np.int64)


def _intervals(idx):
    if idx.size == 0:
        return []
    breaks = np.flatnonzero(np.diff(idx) != 1) + 1
    starts = np.concatenate([[0], breaks])
    stops = np.concatenate([breaks, [idx.size]])
    return [(int(idx[a]), int(idx[b - 1]) + 1) for a, b in zip(starts, stops)]


def _build(places, sizes, ids, shape) -> Sharding:
    n_dev = ids.size
    coords = np.indices(sizes, dtype=np.int64).reshape(len(sizes), -1)
    partial = ids.tolist() if any(p[0] == "P" for p in places) else ()
    groups = None
    if partial and any(p[0] != "P" for p in places):  # ranks differing only along Partial mesh dims sum together
        keep = [j for j, p in enumerate(places) if p[0] != "P"]
        key = np.ravel_multi_index(coords[keep], [sizes[j] for j in keep]) if keep else np.zeros(n_dev, np.int64)
        order = np.argsort(key, kind="stable")
        cuts = np.flatnonzero(np.diff(key[order])) + 1
        groups = [ids[g].tolist() for g in np.split(order, cuts)]
    r = len(shape)
    if not any(p[0] == "SS" for p in places):
        lo = np.zeros((n_dev, r), dtype=np.int64)
        hi = np.tile(np.asarray(shape, dtype=np.int64), (n_dev, 1)) if r else np.zeros((n_dev, 0), np.int64)
        for j, p in enumerate(places):
            if p[0] == "S":
                d = p[1]
                lo[:, d], hi[:, d] = chunk(lo[:, d], hi[:, d], sizes[j], coords[j])
        return Sharding._from_arrays(shape, ids, lo, hi, partial, groups)
    # per device: an index list per dim, then its boxes (one per run of each list): bounded before building
    check_table(n_dev * max(1, sum(shape)), "from_dtensor: per-device index lists of a _StridedShard placement")
    boxes = {}
    for k in range(n_dev):
        idx = [np.arange(n, dtype=np.int64) for n in shape]
        for j, p in enumerate(places):
            if p[0] == "S":
                L = idx[p[1]].size
                c = -(-L // sizes[j])
                idx[p[1]] = idx[p[1]][min(c * coords[j][k], L):min(c * (coords[j][k] + 1), L)]
            elif p[0] == "SS":
                idx[p[1]] = idx[p[1]][_strided(idx[p[1]].size, sizes[j], int(coords[j][k]), p[2])]
        runs = [_intervals(i) for i in idx]
        check_table(product(len(r) for r in runs), f"from_dtensor: boxes of rank {int(ids[k])}")
        boxes[int(ids[k])] = [tuple(b) for b in itertools.product(*runs)]
    return Sharding(shape, boxes, partial, groups)


def from_dtensor(placements, mesh_shape, shape) -> Sharding:
    """The ``Sharding`` of a DTensor of global ``shape`` with ``placements`` on a mesh (keys: ranks).

    ``mesh_shape`` is a tuple of mesh dim sizes (rank = row-major position)
    or a ``torch.distributed.DeviceMesh`` (its ``mesh`` tensor gives the ranks).

    **Post-condition**: rank ``r``'s boxes are the global indices of
    ``distribute_tensor(x, mesh, placements).to_local()`` on ``r``
    (DTensor's ``compute_local_shape_and_global_offset`` for ``Shard``).

    >>> from_dtensor(["Shard(1)", "Replicate()"], (2, 2), (4, 5)).device_boxes[2]
    [((0, 4), (3, 5))]
    >>> from_dtensor(["Partial()"], (2,), (3,)).partial
    {0: True, 1: True}
    """
    shape = as_shape(shape, "shape")
    sizes, ids = _mesh(mesh_shape)
    places = _places(placements, sizes, len(shape), _placement)
    return _build(places, sizes, ids, shape)


def to_dtensor(sharding, mesh_shape, as_text=False):
    """DTensor placements (one per mesh dim) that give every rank what ``sharding`` gives it.

    Device ids of ``sharding`` must be the mesh's ranks. Returns torch
    placement objects, or their text with ``as_text=True`` (no torch
    needed). Raises ``NotRepresentableError`` naming the difference: a
    mesh dim moving the data along two tensor dims, partial sums on only
    some ranks, or splits ``torch.chunk`` does not make (e.g. XLA's ceil
    tiles of a 5-row dim over 2x2: 2+2+1+0, where nested chunks give
    2+1+1+1), or an order only an explicit mesh transpose gives.

    **Post-condition**: ``from_dtensor(to_dtensor(s, m), m, s.shape) == s``.

    >>> from unilayout.sharding import parse_hlo
    >>> to_dtensor(parse_hlo("{devices=[2,1,2]<=[4] last_tile_dim_replicate}", (4, 6)), (2, 2), as_text=True)
    ('Shard(0)', 'Replicate()')
    >>> to_dtensor(parse_hlo("{devices=[4]<=[4]}", (5,)), (2, 2), as_text=True)
    Traceback (most recent call last):
    ...
    unilayout.errors.NotRepresentableError: no DTensor placements on mesh (2, 2) give this sharding: dim 0 of size 5 is held as 2+2+1+0 by ranks 0, 1, 2, 3; the nearest placements (Shard(0), Shard(0)) cut it with torch.chunk as 2+1+1+1
    """
    if not isinstance(sharding, Sharding):
        raise LayoutError(f"expected a unilayout.sharding.Sharding, got {type(sharding).__name__}")
    s = sharding
    s._global("DTensor placements (a DTensor is one global tensor; manual code runs on its local shards)")
    sizes, ids = _mesh(mesh_shape)
    places = _search(s, sizes, ids, "DTensor", allow_partial=True, allow_strided=True)
    if as_text:
        return tuple(_text(p) for p in places)
    return _torch_placements(places)


def _torch_placements(places):
    try:
        from torch.distributed.tensor import Partial, Replicate, Shard  # lazy: optional PyTorch (unilayout[torch])
        from torch.distributed.tensor.placement_types import _StridedShard  # lazy: PyTorch is optional
    except ImportError as e:  # pragma: no cover - only without the extra
        raise ImportError("torch placements need PyTorch: pip install 'unilayout[torch]' (or pass as_text=True)") from e
    out = []
    for p in places:
        out.append(Replicate() if p[0] == "R" else Partial() if p[0] == "P" else Shard(p[1]) if p[0] == "S"
                   else _StridedShard(p[1], split_factor=p[2]))
    return tuple(out)


def _search(s, sizes, ids, vocabulary, allow_partial, allow_strided, fmt=None, cutter="torch.chunk"):
    """Placements over a mesh (sizes, ranks row-major) whose sharding is ``s``; NotRepresentableError otherwise."""
    if sorted(s.devices) != sorted(ids.tolist()):
        raise NotRepresentableError(f"the sharding's devices {list(s.devices)} are not the mesh's ranks "
                                    f"{sorted(ids.tolist())}")
    flags = s.partial
    if any(flags.values()):
        if not allow_partial:
            raise NotRepresentableError(f"partial sums: {vocabulary} has no Partial placement")
        if not all(flags.values()):
            d = next(d for d, p in flags.items() if not p)
            raise NotRepresentableError(
                f"only some ranks hold partial sums (rank {d} does not): a Partial placement makes every rank partial")
    partial = any(flags.values())
    boxes = s.device_boxes
    r = s.rank
    # per device and tensor dim: the projection of its boxes onto that dim (None when it holds nothing)
    sig = [[tuple(sorted({b[i] for b in boxes[int(d)]})) or None for d in ids.tolist()] for i in range(r)]
    grid = [np.empty(len(ids), dtype=object) for _ in range(r)]
    for i in range(r):
        grid[i][:] = sig[i]
        grid[i] = grid[i].reshape(sizes)
    keep = ("P",) if partial else ("R",)
    other = [("R",)] if partial else []  # Partial or Replicate on a mesh dim that moves nothing: the sums decide
    options = []
    for j, _k in enumerate(sizes):
        moved, emptied = [], False
        for i in range(r):
            a = np.moveaxis(grid[i], j, 0)
            pairs = list(zip(a[:-1].reshape(-1), a[1:].reshape(-1)))
            if any(x is not None and y is not None and x != y for x, y in pairs):
                moved.append(i)
            emptied = emptied or any((x is None) != (y is None) for x, y in pairs)
        if len(moved) > 1:
            raise NotRepresentableError(
                f"mesh dim {j} moves the data along tensor dims {moved}: a placement shards one tensor dim")
        if moved:
            options.append([("S", moved[0])])
        elif emptied:  # the split left some ranks empty: which dim it cut is not visible from the others
            options.append([("S", d) for d in range(r)] + [keep] + other)
        else:
            options.append([keep] + other)
    places = [o[0] for o in options]
    tries = []
    for combo in itertools.islice(itertools.product(*options), 512):
        combo = list(combo)
        tries.append(combo)
        if not allow_strided:
            continue
        by_dim = {}
        for j, p in enumerate(combo):
            if p[0] == "S":
                by_dim.setdefault(p[1], []).append(j)
        for d, js in by_dim.items():
            if len(js) < 2:
                continue
            alt = list(combo)
            for q, j in enumerate(js[:-1]):
                alt[j] = ("SS", d, int(np.prod([sizes[m] for m in js[q + 1:]])))
            tries.append(alt)
    for cand in tries:
        if _build(cand, sizes, ids, s.shape) == s:
            return cand
    raise NotRepresentableError(f"no {vocabulary} placements on mesh {sizes} give this sharding: "
                                + _difference(s, _build(places, sizes, ids, s.shape), places, ids, fmt or _text, cutter))


def _difference(s, t, places, ids, fmt, cutter):
    """Say where sharding ``s`` and the nearest placements' sharding ``t`` part."""
    text = ", ".join(fmt(p) for p in places)
    for i, n in enumerate(s.shape):
        def sizes_of(x):
            return [sum(b[i][1] - b[i][0] for b in x.boxes(int(d))[:1]) if x.boxes(int(d)) else 0 for d in ids.tolist()]
        mine, theirs = sizes_of(s), sizes_of(t)
        if mine != theirs:
            who = ", ".join(map(str, ids.tolist()))
            return (f"dim {i} of size {n} is held as {'+'.join(map(str, mine))} by ranks {who}; the nearest "
                    f"placements ({text}) cut it with {cutter} as {'+'.join(map(str, theirs))}")
    for d in ids.tolist():
        if s.boxes(d) != t.boxes(d):
            return (f"rank {d} holds {list(s.boxes(d))} but the nearest placements ({text}) give it "
                    f"{list(t.boxes(d))} (the order of ranks needs an explicit mesh transpose)")
    return f"the nearest placements are ({text})"  # pragma: no cover - _search found them equal
