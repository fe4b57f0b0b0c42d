"""Exact element counts of a reshard per (source page, destination core): the engine under ``reshard_cost``.

A reshard moves one logical tensor from metal layout ``src`` to ``dst``.
``transfer_table(src, dst)`` counts, exactly, how many elements of each
source *page* go to each destination grid core. A page is what tt-metal
moves: a tile of a tilized layout, one shard row (a "stick") of a scalar
layout (as ``tt.memory.page_bytes``). ``unilayout.plan.reshard`` prices the
table on the devices (which physical core each grid core is).

How it is fast: each layout's grid coordinate and page are sums of one
term per map result, and a result depends on a few logical dims. Dims
linked by a result of either layout form a *component*; each component's
sub-box is enumerated alone (a 8192x8192 tensor between two 2-D layouts is
two components of 8192 points), reduced to distinct (source page,
destination core) keys with counts, and the components are combined by an
outer sum of keys. The whole tensor is never enumerated unless one map
mixes every dim. The same tables count the elements that keep their core
*and* their slot in its buffer (``in_place_bytes``).

Rows split in two become columns split in two: every page (a row of 2)
sends one element to each destination core:

>>> from unilayout import tt
>>> rows, cols = tt.MetalLayout.from_collapse((4, 4), (2, 1)), tt.MetalLayout.from_collapse((4, 4), (1, 2))
>>> _components(2, [r.dims() for ml in (rows, cols) for r in ml.linear.results])   # d0 and d1 apart
[(0,), (1,)]
>>> page, core, count = transfer_table(rows, cols)
>>> int(count.sum()), sorted(set(core.tolist()))
(16, [0, 1])
"""

from __future__ import annotations

import math

import numpy as np

from .. import tt
from ..errors import LayoutError, NotRepresentableError

__all__ = ["transfer_table"]

#: Points enumerated per chunk of one component (bounds the memory used).
_CHUNK = 1 << 22


def _check_layout(x, what):
    if not isinstance(x, tt.MetalLayout):
        raise LayoutError(f"reshard_cost: {what} must be a tt.MetalLayout, got {type(x).__name__}")
    if getattr(x, "interleaved_pages", False):  # TTNN L1-interleaved: pages round robin, not the map's grid split
        raise NotRepresentableError(
            f"reshard_cost: the {what} layout is L1-interleaved: its {'x'.join(map(str, x.memref_shape))}-tile pages "
            f"go round robin over the {'x'.join(map(str, x.grid))} banks, not as a grid split of its map; "
            "price it as a sharded layout or through tt.memory's page addresses")
    x.locate(*(0,) * x.rank)  # any other layout without per-element placement refuses here
    return x


def _page_geometry(ml):
    """``(page shape per result, slots per page)``: tiles of a tilized layout, shard rows (sticks) of a scalar one."""
    g = len(ml.grid)
    if ml.tile is not None:
        pg = tuple(ml.shard_shape[:-2]) + tuple(ml.memref_shape[-2:])
        return pg, ml.tile[0] * ml.tile[1]
    return tuple(ml.shard_shape[:-1]) + (1,), ml.shard_shape[-1] if g else 1


class _Terms:
    """Per map result of a layout: what it adds to the core key and to the page key."""

    def __init__(self, ml, with_pages):
        g = len(ml.grid)
        self.ml = ml
        self.num_cores = math.prod(ml.grid)
        self.gstride = [math.prod(ml.grid[i + 1:]) for i in range(g)]
        self.with_pages = with_pages
        pg, self.page_slots = _page_geometry(ml)
        self.pages_per_core = math.prod(pg)
        self.pstride = [math.prod(pg[i + 1:]) for i in range(g)]
        self.tiled = ml.tile is not None
        self.deps = [r.dims() for r in ml.linear.results]
        if self.tiled:
            M = ml.memref_shape
            self.tile_slots = ml.tile[0] * ml.tile[1]
            self.mstride = [math.prod(M[i + 1:]) * self.tile_slots for i in range(g)]
            self.slots_per_core = math.prod(M) * self.tile_slots
        else:
            S = ml.shard_shape
            self.sstride = [math.prod(S[i + 1:]) for i in range(g)]
            self.slots_per_core = math.prod(S)

    def core_term(self, i, value):
        """Contribution of result ``i`` to the flat grid coordinate (row-major)."""
        return value // self.ml.shard_shape[i] * self.gstride[i]

    def slot_term(self, i, value):
        """Contribution of result ``i`` to the element's slot in its core's buffer (row-major, or tile-major tiled)."""
        ml = self.ml
        q = value % ml.shard_shape[i]
        if not self.tiled:
            return q * self.sstride[i]
        g = len(ml.grid)
        if i < g - 2:
            return q * self.mstride[i]
        T = ml.tile[i - (g - 2)]
        inner = (q % T) * ml.tile[1] if i == g - 2 else q % T
        return (q // T) * self.mstride[i] + inner

    def term(self, i, value):
        """Key contribution of result ``i`` given its values (int64 array)."""
        ml = self.ml
        s = ml.shard_shape[i]
        G = value // s
        if not self.with_pages:
            return G * self.gstride[i]
        g = len(ml.grid)
        key = G * (self.gstride[i] * self.pages_per_core)
        if self.tiled and i >= g - 2:
            key += (value % s) // ml.tile[i - (g - 2)] * self.pstride[i]
        elif self.tiled or i != g - 1:  # a scalar layout's last result walks within its page (stick)
            key += (value % s) * self.pstride[i]
        return key


def _components(rank, deps):
    """Connected groups of logical dims (linked when one result uses both), sorted; unused dims alone."""
    parent = list(range(rank))

    def find(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for ds in deps:
        ds = sorted(ds)
        for d in ds[1:]:
            ra, rb = find(ds[0]), find(d)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)
    groups = {}
    for d in range(rank):
        groups.setdefault(find(d), []).append(d)
    return [tuple(v) for _, v in sorted(groups.items())]


def _reduce(keys, counts):
    """Sum ``counts`` over equal ``keys``: ``(distinct keys, summed counts)``."""
    if keys.size == 0:
        return keys, counts
    lo, hi = int(keys.min()), int(keys.max())
    if hi - lo < max(4 * keys.size, 1 << 16) and hi - lo < (1 << 26):
        summed = np.bincount(keys - lo, weights=counts, minlength=hi - lo + 1)
        nz = np.flatnonzero(summed)
        return nz.astype(np.int64) + lo, summed[nz].astype(np.int64)
    uk, inv = np.unique(keys, return_inverse=True)
    return uk, np.bincount(inv.reshape(-1), weights=counts, minlength=uk.size).astype(np.int64)


def _component_table(comp, shape, parts):
    """Distinct keys ``sum(scale * fn(i, result_i))`` over the sub-box of ``comp``, with counts.

    ``parts``: ``(terms, fn, scale)`` — a layout's ``_Terms``, one of its term
    functions and an integer scale; only results whose dims lie in ``comp`` count.
    """
    rank = len(shape)
    sizes = [shape[d] for d in comp]
    n = math.prod(sizes)
    first = sizes[0]
    inner = n // first
    step = max(1, _CHUNK // max(inner, 1))
    used = []
    for terms, fn, scale in parts:
        res = [i for i, ds in enumerate(terms.deps) if ds and min(ds) in comp]
        if res:
            used.append((terms, fn, scale, res))
    all_keys, all_counts = [], []
    for start in range(0, first, step):
        stop = min(first, start + step)
        args = [np.zeros(1, dtype=np.int64)] * rank
        k = len(comp)
        for j, d in enumerate(comp):
            ar = np.arange(start, stop, dtype=np.int64) if j == 0 else np.arange(shape[d], dtype=np.int64)
            args[d] = ar.reshape((-1,) + (1,) * (k - 1 - j))
        sub = (stop - start,) + tuple(sizes[1:])
        key = np.zeros(sub, dtype=np.int64)
        values = {}
        for terms, fn, scale, res in used:
            vals = values.get(id(terms))
            if vals is None:
                vals = values[id(terms)] = terms.ml.linear.evaluate(*args)
            for i in res:
                key += fn(i, np.broadcast_to(vals[i], sub)) * scale
        keys, counts = _reduce(key.reshape(-1), np.ones(1, dtype=np.int64).repeat(key.size))
        all_keys.append(keys)
        all_counts.append(counts)
    if len(all_keys) == 1:
        return all_keys[0], all_counts[0]
    return _reduce(np.concatenate(all_keys), np.concatenate(all_counts))


def _constant_key(parts):
    out = 0
    for terms, fn, scale in parts:
        for i, (r, ds) in enumerate(zip(terms.ml.linear.results, terms.deps)):
            if not ds:
                v = np.asarray([r.value_at(())], dtype=np.int64)
                out += int(fn(i, v)[0]) * scale
    return out


def _tables(src, dst, parts):
    """Per component, its distinct partial keys and counts; plus the constant part (see ``_component_table``)."""
    deps = [ds for terms, _, _ in parts for ds in terms.deps]
    comps = [_component_table(comp, src.logical_shape, parts) for comp in _components(len(src.logical_shape), deps)]
    return comps, _constant_key(parts)


def _combine(comps, const):
    keys = np.zeros(1, dtype=np.int64) + const
    counts = np.ones(1, dtype=np.int64)
    for ck, cc in comps:
        keys = (keys[:, None] + ck[None, :]).reshape(-1)
        counts = (counts[:, None] * cc[None, :]).reshape(-1)
        keys, counts = _reduce(keys, counts)
    return keys, counts


def transfer_table(src, dst):
    """Exact element counts per (source page, destination grid core), vectorised.

    Returns ``(src_page, dst_core, count)`` int64 arrays: ``src_page`` is
    ``src_grid_flat * pages_per_core + page`` (pages as in the module
    docstring; grid coordinates row-major), ``dst_core`` the destination grid
    coordinate, row-major. Pairs with no element are absent.

    **Post-condition**: ``count.sum() == volume``, and for every logical ``x``
    with ``src.locate(x) = (G, q)`` and ``dst.locate(x) = (H, _)``, the entry
    ``(page of (G, q), flat(H))`` counts it once.

    >>> from unilayout import tt
    >>> p, d, n = transfer_table(tt.MetalLayout.from_collapse((4, 4), (2, 1)), tt.MetalLayout.from_collapse((4, 4), (1, 2)))
    >>> p.tolist(), d.tolist(), n.tolist()
    ([0, 0, 1, 1, 2, 2, 3, 3], [0, 1, 0, 1, 0, 1, 0, 1], [2, 2, 2, 2, 2, 2, 2, 2])
    """
    _check_layout(src, "src")
    _check_layout(dst, "dst")
    if src.logical_shape != dst.logical_shape:
        raise LayoutError(
            f"reshard: src has logical shape {src.logical_shape} but dst has {dst.logical_shape}: a reshard keeps the tensor"
        )
    src.check_injective()
    dst.check_injective()
    st, dt = _Terms(src, True), _Terms(dst, False)
    ndst = dt.num_cores
    keys, counts = _combine(*_tables(src, dst, [(st, st.term, ndst), (dt, dt.term, 1)]))
    return keys // ndst, keys % ndst, counts


def _in_place_tables(src, dst):
    """Component tables of ``(Gs * Nd + Gd) * W + slot_s - slot_d`` (W = 2 * max slots + 1), and W."""
    st, dt = _Terms(src, False), _Terms(dst, False)
    W = 2 * max(st.slots_per_core, dt.slots_per_core) + 1
    parts = [(st, st.core_term, dt.num_cores * W), (dt, dt.core_term, W), (st, st.slot_term, 1), (dt, dt.slot_term, -1)]
    comps, const = _tables(src, dst, parts)
    return comps, const, W, dt.num_cores


def _in_place_count(tables, local_pairs):
    """Elements whose full key is ``(a * Nd + b) * W`` (same slot) for a local grid pair ``(a, b)``."""
    comps, const, W, nd = tables
    if not len(local_pairs):
        return 0
    targets = np.unique((local_pairs[:, 0] * nd + local_pairs[:, 1]) * W)
    if not comps:
        return int(np.isin(const, targets))
    keys, counts = _combine(comps[:-1], const)
    lk, lc = comps[-1]
    total = 0
    step = max(1, _CHUNK // max(len(targets), 1))
    for s0 in range(0, len(keys), step):
        k = keys[s0:s0 + step]
        need = targets[None, :] - k[:, None]
        pos = np.searchsorted(lk, need)
        pos = np.minimum(pos, len(lk) - 1)
        hit = lk[pos] == need
        total += int((counts[s0:s0 + step, None] * np.where(hit, lc[pos], 0)).sum())
    return total
