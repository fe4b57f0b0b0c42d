"""Moving real data: shard / unshard a logical array, padding masks and summaries, ``index_map``.

``shard(ml, a)`` returns an array of shape ``ml.shards_shape`` =
``grid + padded_shard_shape`` (the shard, padded to whole tiles when tilized),
row-major inside each shard, so ``out[G + q]`` is the slot ``ml.locate``
names. ``to_tiles(ml, s)`` gives the tile-major form a core holds
(``grid + memref + tile``). Every slot holding no logical element is filled from
``oob_val`` (``undef`` and ``zero`` give 0, ``one`` 1, ``inf``/``neginf``
need a floating-point array). ``unshard`` gives the logical array back,
exactly.

The 53x63 tensor of the spec on a 3x2 grid: shards are 18x32, the last core
row holds 17 rows and the last core column 31 columns:

>>> import numpy as np
>>> from unilayout.tt import MetalLayout
>>> ml = MetalLayout.from_collapse((53, 63), (3, 2))
>>> a = np.arange(53 * 63, dtype=np.float32).reshape(53, 63)
>>> s = ml.shard(a)
>>> s.shape, float(s[2, 1, 16, 30]), float(a[52, 62])
((3, 2, 18, 32), 3338.0, 3338.0)
>>> bool((ml.unshard(s) == a).all()), int(ml.padding_mask().sum())
(True, 117)

How it is fast: step 1 puts the logical array in the physical (collapsed)
space — a free ``reshape`` for a dense collapse, one strided copy for other
maps without div/mod (stride bumps, duplicate dims), a gather/scatter by
index only for maps with div/mod. Step 2 moves physical to shards with a
handful of strided copies: each dim splits into at most two runs of cores
(full cores, the last partial one), so a rank-g grid needs at most ``2^g``
numpy copies, whatever the sizes, each moving whole shard rows (tiles change
only where the padding lies, filled by tile-aligned slabs). No Python loop runs
over elements or cores.
"""

from __future__ import annotations

import itertools
import math
from typing import NamedTuple

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..._ints import check_table
from ...errors import LayoutError
from .._mlir import linear_flat

__all__ = ["shard", "unshard", "padding_mask", "padding_summary", "PaddingSummary", "index_map", "fill_value",
           "to_tiles"]


def fill_value(ml, dtype):
    """The value padding slots get for ``ml.oob_val`` in an array of ``dtype``.

    >>> from unilayout.tt import MetalLayout
    >>> fill_value(MetalLayout.from_collapse((4, 4), (1, 1), oob_val="neginf"), np.float32)
    -inf
    """
    dtype = np.dtype(dtype)
    oob = ml.oob_val
    if oob in ("undef", "zero"):
        return np.zeros((), dtype)[()]  # the dtype's own zero: 0, b"", "" or all-zero bytes for a void dtype
    if dtype.kind not in "biufc":
        raise LayoutError(f"oob_val {oob} needs a numeric array, got {dtype}: use oob_val zero or undef")
    if oob == "one":
        return 1
    if dtype.kind not in "fc":
        raise LayoutError(f"oob_val {oob} needs a floating-point array, got {dtype}: use oob_val zero or one")
    return np.inf if oob == "inf" else -np.inf


def _c_strides(shape):
    out, acc = [], 1
    for n in reversed(shape):
        out.append(acc)
        acc *= n
    return tuple(reversed(out))


def _extent(ml) -> tuple:
    """The data's extent in physical space, ``linear(S - 1) + 1``.

    It is ``physical_shape`` for the seed form; the v2 form's physical shape
    may be larger (alignment pads a group's end), and the slots past the
    extent are padding like the grid's. Data moves through an array of this
    shape, so alignment padding costs no extra pass.
    """
    ext = ml._cache.get("extent")
    if ext is None:
        ext = ml._cache["extent"] = tuple(v + 1 for v in ml.linear(*(s - 1 for s in ml.logical_shape)))
    return ext


def _info(ml):
    """``(offset, strides)`` of the flat index into the extent array when every result is linear, else None."""
    key = "extent_info"
    if key not in ml._cache:
        ml._cache[key] = linear_flat(ml.linear.results, ml.rank, lambda: _extent(ml))
    return ml._cache[key]


def _is_dense(ml) -> bool:
    info = _info(ml)
    if info is None or info[0] != 0 or math.prod(_extent(ml)) != ml.volume:
        return False
    return all(st == cs for st, cs, n in zip(info[1], _c_strides(ml.logical_shape), ml.logical_shape) if n > 1)


def _pieces(ml):
    """Per physical dim, the runs ``(phys_start, G_start, G_count, count)`` covering its data.

    Each dim splits into at most two runs of cores: the full ones and the
    last, partial one. Tiles need no runs of their own: a core's data is a
    box at the origin of its row-major padded shard, so whole shard rows move
    at once and only the padding (``_fill_padding``) is addressed by tile.
    """
    out = []
    for P, s in zip(_extent(ml), ml.shard_shape):
        full, rem = divmod(P, s)
        runs = [(0, 0, full, s)] if full else []
        if rem:
            runs.append((full * s, full, 1, rem))
        out.append(runs)
    return out


def _tile_view(ml, arr):
    """``arr`` (C-contiguous, ``grid + padded_shard``) seen as ``grid + memref + tile``: a view, no copy."""
    if ml.tile is None:
        return arr
    lead = arr.shape[:-2]
    (mr, mc), (tr, tc) = ml.memref_shape[-2:], ml.tile
    n = len(lead)
    return arr.reshape(lead + (mr, tr, mc, tc)).transpose(list(range(n)) + [n, n + 2, n + 1, n + 3])


def _views(ml, phys, out):
    """Pairs of (out view, physical view) for every combination of runs (at most ``2^g``).

    ``phys`` and ``out`` are C-contiguous, ``out`` of shape ``grid + padded_shard``.
    """
    g = len(ml.grid)
    pst = _c_strides(_extent(ml))
    ost = _c_strides(out.shape)
    pflat, oflat = phys.reshape(-1), out.reshape(-1)
    pis, ois = phys.itemsize, out.itemsize
    for combo in itertools.product(*_pieces(ml)):
        poff = ooff = 0
        shape = [0] * (2 * g)
        pstr = [0] * (2 * g)
        ostr = [0] * (2 * g)
        for i, (p0, g0, gn, count) in enumerate(combo):
            poff += p0 * pst[i]
            ooff += g0 * ost[i]
            shape[i], pstr[i], ostr[i] = gn, ml.shard_shape[i] * pst[i], ost[i]
            shape[g + i], pstr[g + i], ostr[g + i] = count, pst[i], ost[g + i]
        ov = as_strided(oflat[ooff:], shape=shape, strides=[v * ois for v in ostr])
        pv = as_strided(pflat[poff:], shape=shape, strides=[v * pis for v in pstr])
        yield _as_runs(ov), _as_runs(pv)


def _as_runs(view):
    """The view with its contiguous last axis fused into one opaque item (numpy then copies whole runs)."""
    if view.dtype.hasobject or view.ndim < 2 or view.shape[-1] * view.itemsize > 1 << 24:
        return view
    run = np.dtype((np.void, view.shape[-1] * view.itemsize))
    return view.view(run)[..., 0]


def _logical_view(ml, phys):
    """A strided view of ``phys`` with the logical shape (maps without div/mod)."""
    offset, strides = _info(ml)
    its = phys.itemsize
    return as_strided(phys.reshape(-1)[offset:], shape=ml.logical_shape,
                      strides=[st * its if n > 1 else 0 for st, n in zip(strides, ml.logical_shape)])


def _check_array(ml, a, shape, what):
    if isinstance(a, np.ma.MaskedArray):  # np.asarray would drop the mask without a word
        raise LayoutError(f"{what}: a masked array would lose its mask; pass arr.filled(...) (and shard the mask too)")
    a = np.asarray(a)
    if a.shape != tuple(shape):
        raise LayoutError(f"{what}: array of shape {a.shape} does not match the expected {tuple(shape)}")
    return a


def _alloc(shape, dtype, what, fill=None):
    # The shared cap counts int64s: an array of this dtype may take as many bytes as the cap's int64s.
    check_table(math.prod(shape) * np.dtype(dtype).itemsize // 8, f"{what}: an array of shape {tuple(shape)}")
    try:
        return np.empty(shape, dtype=dtype) if fill is None else np.full(shape, fill, dtype=dtype)
    except (ValueError, MemoryError) as e:
        raise LayoutError(f"{what}: cannot allocate an array of shape {tuple(shape)} ({e})") from None


def _check_out(out, shape, dtype, what):
    if out is None:
        return _alloc(shape, dtype, what)
    if not isinstance(out, np.ndarray) or out.shape != tuple(shape) or out.dtype != dtype:
        got = f"{out.shape} {out.dtype}" if isinstance(out, np.ndarray) else type(out).__name__
        raise LayoutError(f"{what}: out must be a numpy array of shape {tuple(shape)} and dtype {dtype}, got {got}")
    if not out.flags.c_contiguous or not out.flags.writeable:
        raise LayoutError(f"{what}: out must be C-contiguous and writeable")
    return out


def _fill_padding(ml, out, fill):
    """Fill grid and tile padding of ``out`` (slots outside the physical extent) with basic-slice slabs."""
    g = len(ml.grid)
    full = slice(None)
    for i, (P, s, n) in enumerate(zip(_extent(ml), ml.shard_shape, ml.grid)):
        used = -(-P // s)
        slabs = []
        if used < n:  # whole cores without data
            slabs.append({i: slice(used, n)})
        full_cores, rem = divmod(P, s)
        runs = [(0, full_cores, s)] if full_cores else []
        if rem:
            runs.append((full_cores, full_cores + 1, rem))
        tiled = ml.tile is not None and i >= g - 2
        for g0, g1, extent in runs:
            cores = slice(g0, g1)
            if not tiled:
                if extent < s:
                    slabs.append({i: cores, g + i: slice(extent, s)})
                continue
            T = ml.tile[i - (g - 2)]
            ft, rt = divmod(extent, T)
            nt = ml.memref_shape[i]
            first_empty = ft + (1 if rt else 0)
            if first_empty < nt:
                slabs.append({i: cores, g + i: slice(first_empty, nt)})
            if rt:
                slabs.append({i: cores, g + i: slice(ft, ft + 1), g + i + 2: slice(rt, T)})
        for slab in slabs:
            out[tuple(slab.get(k, full) for k in range(out.ndim))] = fill


def _to_shards(ml, a, out, fill):
    ml.check_injective()
    if math.prod(out.shape) != ml.volume:
        _fill_padding(ml, _tile_view(ml, out), fill)
    if _is_dense(ml):
        phys = np.ascontiguousarray(a).reshape(_extent(ml))
    else:
        phys = _alloc(_extent(ml), out.dtype, "shard", fill)
        if _info(ml) is not None:
            _logical_view(ml, phys)[...] = a
        else:
            phys.reshape(-1)[ml._flat_physical().reshape(-1)] = a.reshape(-1)
    for ov, pv in _views(ml, phys, out):
        np.copyto(ov, pv)
    return out


def shard(ml, array, out=None) -> np.ndarray:
    """Lay the logical ``array`` out as ``ml``'s shards: an array of shape ``ml.shards_shape``.

    **Pre-conditions**: ``array.shape == ml.logical_shape``; ``linear`` injective
    on the tensor; ``out`` (optional) C-contiguous, ``ml.shards_shape``, same dtype.
    **Post-conditions**: ``out[G + q] == array[x]`` for ``(G, q) == ml.locate(*x)``
    (tilized: ``q`` split into tile and in-tile coordinates); every other slot
    holds ``fill_value(ml, dtype)``; ``unshard(ml, out) == array``.

    >>> from unilayout.tt import MetalLayout
    >>> ml = MetalLayout.from_collapse((2, 8, 32), (1, 2), dim_alignments=(1, 32, 1), tile=(32, 32))
    >>> s = shard(ml, np.ones((2, 8, 32), np.int32))
    >>> s.shape, int(s.sum()), s[0, 1, 32, :3].tolist()
    ((1, 2, 64, 32), 512, [1, 1, 1])
    """
    a = _check_array(ml, array, ml.logical_shape, "shard")
    fill = fill_value(ml, a.dtype)
    out = _check_out(out, ml.shards_shape, a.dtype, "shard")
    return _to_shards(ml, a, out, fill)


def unshard(ml, shards, out=None) -> np.ndarray:
    """The logical array back from ``shards`` (shape ``ml.shards_shape``); padding slots are ignored.

    **Post-condition**: ``unshard(ml, shard(ml, a)) == a`` for every ``a`` of the logical shape.

    >>> from unilayout.tt import MetalLayout
    >>> ml = MetalLayout.from_collapse((5, 3), (2, 2))
    >>> unshard(ml, shard(ml, np.arange(15).reshape(5, 3)))[4].tolist()
    [12, 13, 14]
    """
    s = _check_array(ml, shards, ml.shards_shape, "unshard")
    ml.check_injective()
    result = _check_out(out, ml.logical_shape, s.dtype, "unshard")
    dense = _is_dense(ml)
    phys = result.reshape(_extent(ml)) if dense else _alloc(_extent(ml), s.dtype, "unshard")
    if not s.flags.c_contiguous:
        s = np.ascontiguousarray(s)
    for ov, pv in _views(ml, phys, s):
        np.copyto(pv, ov)
    if not dense:
        if _info(ml) is not None:
            np.copyto(result, _logical_view(ml, phys))
        else:
            np.copyto(result, phys.reshape(-1)[ml._flat_physical()])
    return result


def padding_mask(ml) -> np.ndarray:
    """Boolean array of shape ``ml.shards_shape``: True at every slot that holds no logical element.

    Padding comes from holes in ``linear``'s image (stride bumps), from the
    last core along each dim (grid padding) and from tiles (tile padding).

    >>> from unilayout.tt import MetalLayout
    >>> int(padding_mask(MetalLayout.from_collapse((53, 63), (3, 2), tile=(32, 32))).sum())
    2805
    """
    mask = _alloc(ml.shards_shape, bool, "padding_mask")
    return _to_shards(ml, np.zeros(ml.logical_shape, dtype=bool), mask, True)


class PaddingSummary(NamedTuple):
    """Per-core padding of a metal layout (arrays indexed by grid coordinate).

    - ``extent``: ``grid + (g,)``, the data extent of each core along each
      physical dim: how many positions of that dim in the core's shard hold
      at least one element (``clamp(physical[i] - G[i] * shard[i], 0,
      shard[i])`` for a dense layout; fewer where alignment leaves holes);
    - ``padding``: ``grid + (g,)``, padded shard minus extent (grid and tile padding per dim);
    - ``slots``: ``grid``, padding slots of each core (holes of ``linear`` included);
    - ``total``: all padding slots.

    >>> from unilayout.tt import MetalLayout
    >>> p = MetalLayout.from_collapse((53, 63), (3, 2)).padding_summary()
    >>> p.padding[..., 0].tolist(), p.padding[..., 1].tolist(), p.total
    ([[0, 0], [0, 0], [1, 1]], [[0, 1], [0, 1], [0, 1]], 117)
    """

    extent: np.ndarray
    padding: np.ndarray
    slots: np.ndarray
    total: int


def padding_summary(ml) -> PaddingSummary:
    """The ``PaddingSummary`` of ``ml``: by formula for a dense layout, else from ``padding_mask``.

    A dense layout (every physical slot inside the data extent holds an
    element: the identity map, any collapse without stride bumps) holds in
    core ``G`` exactly the product of its data extents, so its padding slots
    are the padded shard's volume minus that product: no mask of every slot is
    built, and a 65536x65536 layout answers at once. Any other layout (holes
    in ``linear``'s image, such as v2's alignment inside a collapsed group) is
    counted from its mask, exact for every map: the extent along a dim is the
    number of its positions in the core holding at least one element.

    >>> from unilayout.tt import MetalLayout
    >>> p = padding_summary(MetalLayout.from_collapse((53, 63), (3, 2), tile=(32, 32)))
    >>> p.padding[..., 0].tolist(), p.total
    ([[14, 14], [14, 14], [15, 15]], 2805)
    >>> padding_summary(MetalLayout.from_collapse((65536, 65536), (8, 8), tile=(32, 32))).total
    0
    >>> from unilayout.tt import MetalLayoutV2
    >>> v2 = MetalLayoutV2((3, 43, 7), (6, 1), (1, 32, 32), [(0, 2), (2, 3)])
    >>> v2.padding_summary().extent[:2, 0].tolist()       # core (1, 0) holds rows 32..42 of batch 0
    [[32, 7], [11, 7]]
    """
    check_table(math.prod(ml.grid) * (len(ml.grid) + 2), f"padding_summary: a grid of {math.prod(ml.grid)} cores")
    padded = np.asarray(ml.padded_shard_shape, dtype=np.int64)
    if _is_dense(ml):
        G = np.indices(ml.grid, dtype=np.int64)
        extent = np.stack(
            [np.clip(P - G[i] * s, 0, s) for i, (P, s) in enumerate(zip(_extent(ml), ml.shard_shape))], axis=-1
        )
        slots = int(np.prod(padded, dtype=np.int64)) - np.prod(extent, axis=-1, dtype=np.int64)
    else:
        # Holes in linear's image (alignment padding inside a collapsed group): a core's data need not be a
        # prefix of its shard, so count, along each dim, the positions holding at least one element.
        data = ~padding_mask(ml)
        g = len(ml.grid)
        extent = np.stack(
            [data.any(axis=tuple(g + k for k in range(g) if k != i)).sum(axis=-1, dtype=np.int64)
             for i in range(g)], axis=-1
        )
        slots = int(np.prod(padded, dtype=np.int64)) - data.reshape(ml.grid + (-1,)).sum(axis=-1, dtype=np.int64)
    padding = padded - extent
    return PaddingSummary(extent, padding, slots, int(slots.sum()))


def index_map(ml) -> np.ndarray:
    """int64 (N,): the flat position in ``shard()``'s output of every logical element, row-major.

    >>> from unilayout.tt import MetalLayout
    >>> index_map(MetalLayout.from_collapse((2, 4), (1, 2))).tolist()
    [0, 1, 4, 5, 2, 3, 6, 7]
    """
    n = check_table(math.prod(ml.shards_shape), "index_map: the slots of every core")
    positions = np.arange(n, dtype=np.int64).reshape(ml.shards_shape)
    return unshard(ml, positions).reshape(-1)



def to_tiles(ml, shards) -> np.ndarray:
    """``shards`` (shape ``ml.shards_shape``) tile-major, as a core holds them: ``grid + memref + tile``.

    For a scalar layout this is ``shards`` itself; tilized, a copy whose
    element ``[G + t + u]`` is element ``u`` of tile ``t`` of core ``G``.

    >>> from unilayout.tt import MetalLayout
    >>> ml = MetalLayout.from_collapse((53, 63), (3, 2), tile=(32, 32))
    >>> a = np.arange(53 * 63).reshape(53, 63)
    >>> t = to_tiles(ml, ml.shard(a))
    >>> t.shape, int(t[2, 1, 0, 0, 16, 30]), int(a[52, 62])
    ((3, 2, 1, 1, 32, 32), 3338, 3338)
    """
    s = _check_array(ml, shards, ml.shards_shape, "to_tiles")
    if ml.tile is None:
        return s
    return np.ascontiguousarray(_tile_view(ml, np.ascontiguousarray(s)))
