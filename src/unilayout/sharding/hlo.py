"""XLA HLO sharding text ``{devices=[2,1,4]<=[8] last_tile_dim_replicate}`` <-> ``Sharding``.

Grammar read here (XLA's ``HloSharding::ToString`` forms for one array;
an optional ``sharding=`` prefix and a trailing ``metadata={...}`` are
accepted and ignored):

```
sharding   := '{' body '}'
body       := 'replicated' | 'maximal' 'device=' INT | 'manual'
            | 'devices=' '[' INT (',' INT)* ']' assignment subgroups?
assignment := INT (',' INT)*                      explicit device list
            | '<=' '[' INT (',' INT)* ']' ('T' '(' INT (',' INT)* ')')?   iota
subgroups  := 'last_tile_dim_replicate' | 'last_tile_dims=' '{' type (',' type)* '}'
```

**Meaning.** ``devices=[t0,...,t(r-1)(,R...)]`` is the *tile assignment*:
an array of device ids of that shape. The first ``r`` dims tile the tensor
(``r`` = its rank); trailing subgroup dims (``last_tile_dim_replicate``: one;
``last_tile_dims={replicated, ...}``: one each) hold copies. Dim ``i`` of
size ``n`` is cut into ``t_i`` tiles of ``c = ceil(n / t_i)``: tile ``k`` is
``[k*c, min((k+1)*c, n))`` (XLA pads the last tiles, so some may be empty).
The iota form ``<=[a,b]T(1,0)`` is ``arange(a*b).reshape(a, b).transpose(1, 0)``
reshaped to the tile assignment's shape.

| text | devices of a 2-dim 8x8 tensor |
|---|---|
| ``{devices=[2,1]0,1}`` | 0: rows 0:4, 1: rows 4:8 |
| ``{devices=[2,1,2]<=[4] last_tile_dim_replicate}`` | 0, 1: rows 0:4; 2, 3: rows 4:8 |
| ``{devices=[2,2]<=[2,2]T(1,0)}`` | 0: [0:4, 0:4], 2: [0:4, 4:8], 1: [4:8, 0:4], 3: [4:8, 4:8] |

**Manual subgroups.** ``last_tile_dims={manual}`` (XLA's
``HloSharding::Subgroup`` with ``OpSharding::MANUAL``) makes a trailing dim
*manual*: the devices at each manual index form a group holding a value of
its own, which the data dims tile over the group. ``parse_hlo`` reads them
as XLA does (size-1 subgroup dims dropped, several manual dims merged
row-major, manual before replicated, each group's copies ascending) into a
``Sharding`` whose ``manual`` field lists the groups (``ManualGroups``), and
``to_hlo`` prints XLA's text back (``last_tile_dims={manual, replicated}``,
as ``HloSharding::ToString`` spells it). ``{manual}`` is every device a group
of its own (``num_devices``, default 1), as for ``{replicated}``.

Departures: tuple shardings are refused; ``{replicated}`` and ``{manual}``
name no device count (``parse_hlo`` takes ``num_devices``, default 1) and
``{maximal device=k}`` is device ``k`` alone, as XLA counts it
(``num_devices`` spans ``0..n-1`` with the others holding nothing). XLA
prints a device list it read as a list, ``to_hlo`` the iota form where the
list is one (``to_hlo(s, explicit=True)`` writes the list).

>>> s = parse_hlo("{devices=[2,1,4]<=[8] last_tile_dim_replicate}", (8, 6))
>>> s.device_boxes[5], s.num_devices
([((4, 8), (0, 6))], 8)
>>> to_hlo(s)
'{devices=[2,1,4]<=[8] last_tile_dim_replicate}'
"""

from __future__ import annotations

import itertools

import numpy as np

from .._ints import as_positive, as_shape, product
from .._text import Scanner, check_text
from ..errors import LayoutError, NotRepresentableError
from ._grid import MAX_DEVICES, MAX_ID, check_devices, tiles
from ._iota import iota_form
from .jax import _single_boxes, _tile_index
from .manual import ManualGroups
from .value import Sharding

__all__ = ["parse_hlo", "to_hlo"]


def _int_list(sc: Scanner, open_="[", close="]", what="an integer"):
    sc.expect(open_)
    vals = [sc.integer(what=what, limit=MAX_ID)]
    while sc.accept(","):
        vals.append(sc.integer(what=what, limit=MAX_ID))
    sc.expect(close)
    return vals


def _skip_braced(sc: Scanner):
    """Skip a balanced ``{...}`` (metadata)."""
    sc.expect("{")
    depth, t = 1, sc.text
    p = sc.pos
    while p < len(t) and depth:
        depth += {"{": 1, "}": -1}.get(t[p], 0)
        p += 1
    if depth:
        sc.fail("unbalanced '{' in metadata")
    sc.pos = p


def iota(dims, reshape, perm=None) -> np.ndarray:
    """The iota tile assignment ``<=[reshape]T(perm)`` laid out as ``dims``.

    >>> iota([2, 2], [2, 2], [1, 0]).tolist()
    [[0, 2], [1, 3]]
    """
    a = np.arange(int(np.prod(reshape)), dtype=np.int64).reshape(reshape)
    if perm is not None:
        a = a.transpose(perm)
    return a.reshape(dims)


def _parse(text: str):
    """-> (kind, dims, assignment array or None, subgroup types of the trailing dims, maximal device)."""
    check_text(text, "HLO sharding text")
    sc = Scanner(text)
    sc.skip()
    if sc.keyword("sharding"):
        sc.expect("=")
    sc.expect("{", "'{' to open the HLO sharding")
    if sc.at("{"):
        sc.fail("a tuple sharding ({{...}, ...}) shards several arrays: give the sharding of one")
    start = sc.skip()
    word = sc.identifier("'replicated', 'maximal', 'manual' or 'devices'")
    kind, dims, assign, types, device = word, None, None, [], None
    if word == "replicated" or word == "manual":
        pass
    elif word == "maximal":
        if not sc.keyword("device"):
            sc.expected("'device=' after 'maximal'")
        sc.expect("=")
        device = sc.integer(what="a device id", limit=MAX_ID)
    elif word == "devices":
        sc.expect("=")
        dims = _int_list(sc, what="a tile count")
        if any(d < 1 for d in dims):
            sc.fail(f"tile counts must be >= 1, got {dims}", start)
        total = product(dims)
        if total > MAX_DEVICES:
            sc.fail(f"the tile assignment {dims} has {total} devices, more than the {MAX_DEVICES} a sharding may "
                    "span", start)
        at = sc.skip()
        if sc.accept("<="):
            reshape = _int_list(sc, what="an iota dim")
            perm = None
            if sc.keyword("T"):
                perm = _int_list(sc, "(", ")", "a transpose index")
                if sorted(perm) != list(range(len(reshape))):
                    sc.fail(f"T{tuple(perm)} is not a permutation of the {len(reshape)} iota dims", at)
            if product(reshape) != total:
                sc.fail(f"iota <={reshape} has {product(reshape)} devices but the tile assignment {dims} "
                        f"needs {total}", at)
            assign = iota(dims, reshape, perm)
        else:
            ids = [sc.integer(what="a device id or '<=['", limit=MAX_ID)]
            while sc.accept(","):
                ids.append(sc.integer(what="a device id", limit=MAX_ID))
            if len(ids) != total:
                sc.fail(f"the tile assignment {dims} needs {total} device ids, got {len(ids)}", at)
            assign = np.asarray(ids, dtype=np.int64).reshape(dims)
        if len(set(assign.reshape(-1).tolist())) != total:
            sc.fail("a device id appears twice in the tile assignment", at)
        while True:
            at = sc.skip()
            if sc.keyword("last_tile_dim_replicate"):
                types.append("replicated")
            elif sc.keyword("last_tile_dims"):
                sc.expect("=")
                sc.expect("{")
                while True:
                    k = sc.skip()
                    t = sc.identifier("a subgroup type")
                    if t not in ("replicated", "manual"):
                        sc.fail(f"unknown subgroup type {t!r} (expected replicated or manual)", k)
                    types.append(t)
                    if not sc.accept(","):
                        break
                sc.expect("}")
            else:
                break
        if len(types) > len(dims):  # (as many: a scalar's copies, ``{devices=[n]<=[n] last_tile_dim_replicate}``)
            sc.fail(f"{len(types)} subgroup dims but the tile assignment {dims} has only {len(dims)} dims")
    else:
        sc.fail(f"unknown HLO sharding {word!r} (expected replicated, maximal, manual or devices)", start)
    sc.skip()
    if sc.keyword("metadata"):
        sc.expect("=")
        _skip_braced(sc)
    sc.expect("}", "'}' to close the HLO sharding")
    sc.expect_end()
    return kind, dims, assign, types, device


def parse_hlo(text, shape, num_devices=None) -> Sharding:
    """The ``Sharding`` that HLO sharding ``text`` gives an array of ``shape`` (device keys: HLO device ids).

    ``num_devices`` sets the devices of ``{replicated}`` and ``{manual}``
    (0..n-1; default 1) and ``{maximal device=k}`` (0..n-1, devices other than k holding nothing;
    by default device k alone, as XLA counts a maximal sharding's devices).

    **Post-condition**: ``parse_hlo(to_hlo(s), s.shape) == s`` for what ``to_hlo`` accepts.

    >>> parse_hlo("{devices=[2,2]<=[2,2]T(1,0)}", (8, 8)).device_boxes[2]
    [((0, 4), (4, 8))]
    >>> parse_hlo("{replicated}", (4,), num_devices=2).is_fully_replicated
    True
    >>> parse_hlo("{devices=[2,1,2]0,1,2,3 last_tile_dims={manual}}", (6, 3)).manual
    ManualGroups(((0, 2), (1, 3)))
    >>> parse_hlo("{devices=[3]0,1}", (4,))
    Traceback (most recent call last):
    ...
    unilayout.errors.ParseError: the tile assignment [3] needs 3 device ids, got 2 at position 12
      {devices=[3]0,1}
                  ^
    """
    shape = as_shape(shape, "shape")
    kind, dims, assign, types, device = _parse(text)
    sub = len(types)
    if kind in ("replicated", "manual"):
        n = 1 if num_devices is None else check_devices(as_positive(num_devices, "num_devices"), "num_devices")
        full = (tuple((0, v) for v in shape),)
        s = Sharding._trusted(shape, tuple(range(n)), (full,) * n)
        if kind == "manual":  # every device a manual group of its own, holding all of its own value
            s._manual = ManualGroups([[d] for d in range(n)])
        return s
    if kind == "maximal":
        full = (tuple((0, v) for v in shape),)
        if num_devices is None:  # XLA: a maximal sharding spans its one device (HloSharding::num_devices() == 1)
            return Sharding._trusted(shape, (device,), (full,))
        n = check_devices(as_positive(num_devices, "num_devices"), "num_devices")
        if device >= n:
            raise LayoutError(f"maximal device={device} is not one of the {n} devices")
        return Sharding._trusted(shape, tuple(range(n)), tuple(full if d == device else () for d in range(n)))
    tile_dims = dims[:len(dims) - sub]
    if len(tile_dims) != len(shape):
        raise LayoutError(
            f"the tile assignment {dims} tiles {len(tile_dims)} dims ({sub} subgroup dims) but the shape "
            f"{tuple(shape)} has rank {len(shape)}")
    if num_devices is not None and as_positive(num_devices, "num_devices") != assign.size:
        raise LayoutError(f"the tile assignment has {assign.size} devices, not num_devices={num_devices}")
    coords = np.indices(assign.shape, dtype=np.int64).reshape(len(dims), -1)
    ids = assign.reshape(-1)
    lo = np.zeros((ids.size, len(shape)), dtype=np.int64)
    hi = np.zeros((ids.size, len(shape)), dtype=np.int64)
    for i, (n, t) in enumerate(zip(shape, tile_dims)):
        lo[:, i], hi[:, i] = tiles(n, [t], [coords[i]], exact=False)
    if types and set(types) == {"manual"} and product(tile_dims) == 1:  # XLA: {manual}, a group per device
        return Sharding._from_arrays(shape, ids, lo, hi, manual=[[d] for d in ids.tolist()])
    manual = [len(tile_dims) + i for i, t in enumerate(types) if t == "manual" and dims[len(tile_dims) + i] > 1]
    if not manual:  # (XLA drops subgroup dims of size 1)
        return Sharding._from_arrays(shape, ids, lo, hi)
    group = np.zeros(ids.size, dtype=np.int64)  # the merged manual index of each device (manual dims row-major)
    for a in manual:
        group = group * dims[a] + coords[a]
    order = np.lexsort((ids, group))
    cuts = np.flatnonzero(np.diff(group[order])) + 1
    return Sharding._from_arrays(shape, ids, lo, hi,
                                 manual=[g.tolist() for g in np.split(ids[order], cuts)])


def _iota_text(a: np.ndarray) -> str | None:
    """``<=[...]`` / ``<=[...]T(...)`` when ``a`` is an iota tile assignment (XLA's canonical dims), else None.

    >>> _iota_text(np.arange(8).reshape(2, 2, 2).transpose(1, 2, 0))
    '<=[2,4]T(1,0)'
    """
    form = iota_form(a)
    if form is None:
        return None
    reshape, perm = form
    return f"<=[{','.join(map(str, reshape))}]" + (f"T({','.join(map(str, perm))})" if perm else "")


def tile_assignment(s: Sharding, vocabulary: str):
    """(tile counts per dim, replication R, assignment array of shape tiles (+ (R,) when R > 1)).

    Every device must hold one box or nothing, the boxes the ceil tiles of
    each dim, and each tile the same number of devices (ascending ids within
    a tile). Devices holding nothing are the empty last tiles of an uneven
    dim (5 rows over 4 tiles of 2: the 4th is empty): the tile counts are
    then chosen so that the devices fill the assignment, the empty devices
    taking the empty tiles. A partially manual sharding has no one tile
    assignment of a global array (``NotRepresentableError``; ``to_hlo``
    assigns each manual group's tiles).
    """
    s._global(f"{vocabulary} tile assignment")
    empty = [d for d, b in zip(s.devices, s._boxes) if not b]
    if empty and not s.has_partial and len(empty) < s.num_devices:
        full = Sharding._trusted(s.shape, tuple(d for d, b in zip(s.devices, s._boxes) if b),
                                 tuple(b for b in s._boxes if b))
        T0, R, assign0 = tile_assignment(full, vocabulary)
        return _fill_empty(s, T0, R, assign0, empty, vocabulary)
    ids = np.asarray(s.devices, dtype=np.int64)
    lo, hi = _single_boxes(s, ids, vocabulary)
    T, t = _tile_index(s, lo, hi, vocabulary, exact=False)
    flat = np.zeros(ids.size, dtype=np.int64)
    for k, ti in zip(T, t):
        flat = flat * k + ti
    ntiles = int(np.prod(T))
    counts = np.bincount(flat, minlength=ntiles)
    if counts.min() != counts.max():
        lo_t = int(np.argmin(counts))
        raise NotRepresentableError(
            f"tiles are held by different numbers of devices ({int(counts.min())} and {int(counts.max())}, e.g. "
            f"tile {np.unravel_index(lo_t, T)}): {vocabulary} replicates every tile on the same number of devices")
    R = int(counts[0])
    order = np.lexsort((ids, flat))
    assign = ids[order].reshape(tuple(T) + ((R,) if R > 1 else ()))
    return T, R, assign


def _fill_empty(s, T0, R, assign0, empty, vocabulary):
    """Grow the tile counts ``T0`` of the devices holding data so the empty devices fill empty ceil tiles."""
    N = s.num_devices
    if N % R:
        raise NotRepresentableError(f"device(s) {empty[:4]} hold nothing and the {N} devices are not a multiple of "
                                    f"the {R} copies of each tile: {vocabulary} cannot place them")
    want = N // R
    cands = []
    for n, k in zip(s.shape, T0):
        c = -(-n // k)
        cands.append([T for T in range(k, want + 1) if -(-n // T) == c and want % T == 0])
    for T in itertools.product(*cands):
        if int(np.prod(T)) != want:
            continue
        a = np.full(tuple(T) + (R,), -1, dtype=np.int64)
        a[tuple(slice(0, k) for k in T0)] = assign0.reshape(tuple(T0) + (R,))
        a[a < 0] = sorted(empty)
        return list(T), R, a if R > 1 else a[..., 0]
    raise NotRepresentableError(
        f"device(s) {empty[:4]} hold nothing, and no count of ceil tiles per dim gives every one of the {N} "
        f"devices a tile ({vocabulary} tiles: {list(T0)} hold data)")


def _replicated_text(s: Sharding, explicit=False) -> str:
    """``{replicated}`` on device 0 alone; else one tile per dim held by every device (the count is in the text).

    ``{replicated}`` names no device count (``parse_hlo`` reads it as one
    device), so ``parse_hlo(to_hlo(s), s.shape) == s`` needs the tile form
    ``{devices=[1,...,1,n]<=[n] last_tile_dim_replicate}`` for ``n > 1``.
    """
    n = s.num_devices
    if s.devices == (0,):
        return "{replicated}"
    if n == 1:  # one device k holds it all: XLA's maximal sharding (read back as device k alone)
        return f"{{maximal device={s.devices[0]}}}"
    body = f"<=[{n}]" if s.devices == tuple(range(n)) and not explicit else ",".join(map(str, s.devices))
    return f"{{devices=[{','.join(['1'] * s.rank + [str(n)])}]{body} last_tile_dim_replicate}}"


def manual_assignment(s: Sharding):
    """``(tiles, copies, assignment)`` of a manual sharding: shape ``tiles + (groups, copies)``, as XLA orders it.

    Each manual group's tile assignment (``tile_assignment`` of its own
    value), stacked along the manual dim in group order. Every group must be
    tiled alike, as one tile assignment says (``NotRepresentableError``).

    >>> T, R, a = manual_assignment(parse_hlo("{devices=[2,1,2]0,2,1,3 last_tile_dims={manual}}", (4, 4)))
    >>> T, R, a.reshape(-1).tolist()
    ([2, 1], 1, [0, 2, 1, 3])
    """
    groups = s.manual.groups
    T = R = None
    parts = []
    for k, g in enumerate(groups):
        own = Sharding._trusted(s.shape, g, tuple(s._own_boxes(d) for d in g))
        if own.is_fully_replicated:  # (of a zero-size value too: every device holds all of nothing)
            Tk, Rk, ak = [1] * s.rank, len(g), np.asarray(g, dtype=np.int64)
        else:
            Tk, Rk, ak = tile_assignment(own, "HLO")
        if T is None:
            T, R = list(Tk), Rk
        elif (list(Tk), Rk) != (T, R):
            raise NotRepresentableError(
                f"manual group {k} is cut into tiles {list(Tk)} held {Rk} times but group 0 into {T} held {R} times: "
                "one HLO tile assignment cuts every manual group alike")
        parts.append(ak.reshape(tuple(T) + (R,)))
    return T, R, np.stack(parts, axis=len(T))


def _manual_text(s: Sharding, explicit: bool) -> str:
    """XLA's text of a manual sharding (``manual_assignment``); a single group of several devices has no manual
    dim XLA keeps (it drops a subgroup dim of size 1)."""
    groups = s.manual.groups
    T, R, assign = manual_assignment(s)
    if product(T) == 1 and R == 1:  # every device a group of its own holding all its value: XLA's {manual}
        if s.devices == (0,):
            return "{manual}"
        body = f"<=[{s.num_devices}]" if s.devices == tuple(range(s.num_devices)) and not explicit else \
            ",".join(map(str, s.devices))
        return f"{{devices=[{','.join(['1'] * s.rank + [str(s.num_devices)])}]{body} last_tile_dims={{manual}}}}"
    if len(groups) == 1:
        raise NotRepresentableError(
            f"one manual group of {len(groups[0])} devices: XLA drops a manual dim of size 1 and reads the text as a "
            "sharding of one global array")
    assign = assign if R > 1 else assign[..., 0]
    dims = T + [len(groups)] + ([R] if R > 1 else [])
    body = (None if explicit else _iota_text(assign)) or ",".join(map(str, assign.reshape(-1).tolist()))
    types = "manual, replicated" if R > 1 else "manual"
    return f"{{devices=[{','.join(map(str, dims))}]{body} last_tile_dims={{{types}}}}}"


def to_hlo(sharding, explicit=False) -> str:
    """HLO sharding text of ``sharding`` (device ids as tile assignment values).

    ``{replicated}`` when device 0 alone holds everything (several devices
    holding everything: ``{devices=[1,...,1,n]<=[n] last_tile_dim_replicate}``,
    as ``{replicated}`` names no device count), ``{maximal device=k}``
    when one device does and the rest hold nothing, else a tile assignment
    (iota form when it is one). Raises ``NotRepresentableError`` naming the
    difference for partial sums, a device with several boxes, tiles
    that are not XLA's ``ceil(n / t)`` cut (``torch.chunk``'s nested uneven
    splits), or tiles held by unequal numbers of devices. Devices holding
    nothing take the empty last tiles of uneven dims. A partially manual
    sharding prints with its manual dim (``last_tile_dims={manual}``, then
    ``replicated`` for copies, as XLA's ``HloSharding::ToString``).
    ``explicit=True`` lists the devices even where they are an iota (XLA
    prints a list it read as a list).

    **Post-condition**: ``parse_hlo(to_hlo(s), s.shape, s.num_devices) == s``.

    >>> to_hlo(Sharding((8, 8), {0: [((0, 4), (0, 4))], 2: [((0, 4), (4, 8))], 1: [((4, 8), (0, 4))], 3: [((4, 8), (4, 8))]}))
    '{devices=[2,2]<=[2,2]T(1,0)}'
    >>> to_hlo(parse_hlo("{devices=[1,2,2]0,1,2,3 last_tile_dims={manual,replicated}}", (2,)), explicit=True)
    '{devices=[1,2,2]0,1,2,3 last_tile_dims={manual, replicated}}'
    >>> to_hlo(Sharding((5,), {0: [((0, 2),)], 1: [((2, 3),)], 2: [((3, 4),)], 3: [((4, 5),)]}))
    Traceback (most recent call last):
    ...
    unilayout.errors.NotRepresentableError: dim 0 of size 5 is split 2+1+1+1: HLO cuts it into 4 tiles of ceil(5/4) = 2, i.e. 2+2+1+0
    """
    if not isinstance(sharding, Sharding):
        raise LayoutError(f"expected a unilayout.sharding.Sharding, got {type(sharding).__name__}")
    s = sharding
    if s.has_partial:
        raise NotRepresentableError("partial sums: an HLO sharding has no partial sums (Shardy's unreduced axes do)")
    if s.manual is not None:
        return _manual_text(s, explicit)
    full = s._full
    holders = [d for d, b in zip(s.devices, s._boxes) if b]
    if s.is_fully_replicated:
        return _replicated_text(s, explicit)
    one = len(holders) == 1 and s.boxes(holders[0]) == full
    if one and len(s.devices) == 1:
        return f"{{maximal device={holders[0]}}}"
    try:
        T, R, assign = tile_assignment(s, "HLO")
    except NotRepresentableError:
        if one and s.devices == tuple(range(s.num_devices)):  # the others hold nothing: maximal, read with n
            return f"{{maximal device={holders[0]}}}"
        raise
    dims = list(T) + ([R] if R > 1 else [])
    body = (None if explicit else _iota_text(assign)) or ",".join(map(str, assign.reshape(-1).tolist()))
    return f"{{devices=[{','.join(map(str, dims))}]{body}{' last_tile_dim_replicate' if R > 1 else ''}}}"
