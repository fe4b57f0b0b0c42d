"""Mosaic GPU register layouts as values: ``Tiling``, ``Replicated``, ``TiledLayout`` and who holds each element.

Mosaic GPU (JAX Pallas on NVIDIA GPUs) spreads an array over the 128 threads
of a warpgroup with a ``TiledLayout``: the array is **tiled** (each tile of
``tiling`` splits the trailing dims into "how many tiles" and "inside the
tile", applied one after the other, exactly XLA's tiled layout), then three
kinds of the resulting (tiled) dims are named by their negative position:

- ``warp_dims``: dims spread over the 4 warps (major to minor; a
  ``Replicated(n)`` entry means the data is the same on ``n`` warps);
- ``lane_dims``: dims spread over the 32 lanes (same rules);
- ``vector_dim``: the dim that one register's vector holds.

Every other tiled dim is a register dim: ``registers_shape(shape)`` is the
tiled shape with the warp, lane and vector dims set to 1, and a thread walks
its registers row-major over it. This module follows jax's
``jax.experimental.mosaic.gpu.fragmented_array`` exactly (checks, messages,
canonical form) and evaluates it with numpy over every element at once.

The WGMMA accumulator layout on a 64x8 tile, element (9, 2): warp 0, lane 4*1
+ 1 = 5, second register (rows 8..15), first vector element:

>>> L = TiledLayout(Tiling(((64, 8), (16, 8), (8, 8), (2,))), (-7,), (-3, -2), -1)
>>> L.registers_shape((64, 8)), L.vector_length
((1, 1, 1, 1, 2, 1, 1, 1, 1), 2)
>>> o = L.owners((64, 8))
>>> int(o["warp"][9 * 8 + 2]), int(o["lane"][9 * 8 + 2]), int(o["register"][9 * 8 + 2]), int(o["element"][9 * 8 + 2])
(0, 5, 1, 0)

Errors are ``LayoutError`` with jax's reason:

>>> L.registers_shape((30, 8))
Traceback (most recent call last):
...
unilayout.errors.LayoutError: Tiling ((64, 8), (16, 8), (8, 8), (2,)) does not apply to shape (30, 8)
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ..errors import LayoutError

__all__ = ["Tiling", "Replicated", "TiledLayout", "WARPS_IN_WARPGROUP", "WARP_SIZE", "WARPGROUP_SIZE", "modes_of"]

WARP_SIZE = 32
WARPS_IN_WARPGROUP = 4
WARPGROUP_SIZE = WARP_SIZE * WARPS_IN_WARPGROUP


def _int(v, what):
    """``v`` as an int, or ``LayoutError`` (a bool, a float, None ... is not an integer)."""
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise LayoutError(f"{what} must be an integer, got {v!r}"[:300])
    return int(v)


def _num(text, what="a number"):
    """An integer written in a text (digits matched by a reader), refused past int64 before converting."""
    digits = text.strip().lstrip("+-").lstrip("0")
    if len(digits) > 19:
        raise LayoutError(f"{what} {text.strip()[:24]}... has {len(digits)} digits: past int64")
    return int(text)


def _seq(v, what):
    """``v`` as a tuple, or ``LayoutError`` when it is not a sequence."""
    try:
        if isinstance(v, (str, bytes)):
            raise TypeError
        return tuple(v)
    except TypeError:  # not iterable (a number, None, a 0-d array)
        raise LayoutError(f"{what} must be a sequence, got {v!r}"[:300]) from None


def _ints(seq, what):
    return tuple(_int(x, f"each entry of {what}") for x in _seq(seq, what))


class Tiling:
    """A tiling expression (jax's ``fragmented_array.Tiling``): tiles applied one after another to a suffix of dims.

    >>> t = Tiling(((64, 8), (16, 8)))
    >>> t.tile_shape((128, 16)), str(t)
    ((2, 2, 4, 1, 16, 8), 'Tiling((64, 8)(16, 8))')
    >>> Tiling(((8,), (8, 8)))
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: Tiles must have a decreasing rank
    """

    __slots__ = ("tiles",)

    def __init__(self, tiles):
        if isinstance(tiles, Tiling):
            tiles = tiles.tiles
        tiles = tuple(_ints(t, "a tile") for t in _seq(tiles, "the tiles"))
        if tiles:
            last = len(tiles[0])
            for tile in tiles:
                if len(tile) > last:
                    raise LayoutError("Tiles must have a decreasing rank")
                if not tile:
                    raise LayoutError("Tiles must not be empty")
                if any(d <= 0 for d in tile):
                    raise LayoutError(f"Tile shape must only have positive sizes, got: {tiles}")
                last = len(tile)
        object.__setattr__(self, "tiles", tiles)

    def __setattr__(self, name, value):
        raise AttributeError("Tiling is immutable")

    def __eq__(self, other):
        return isinstance(other, Tiling) and self.tiles == other.tiles

    def __hash__(self):
        return hash(("Tiling", self.tiles))

    def __str__(self):
        return f"Tiling({''.join(map(str, self.tiles))})"

    def __repr__(self):
        return f"Tiling(tiles={self.tiles})"

    def tile_shape(self, shape) -> tuple:
        """The array's shape after tiling (LayoutError with jax's reason when a tile does not divide)."""
        orig = shape = _ints(shape, "shape")
        for tile in self.tiles:
            k = len(tile)
            if k > len(shape) or any(s % t for s, t in zip(shape[-k:], tile)):
                raise LayoutError(f"Tiling {self.tiles} does not apply to shape {orig}")
            shape = (*shape[:-k], *(d // t for d, t in zip(shape[-k:], tile)), *tile)
        return shape

    def tile_strides(self, strides) -> tuple:
        """The strides of each tiled dim given the strides of the array's dims (jax's ``tile_strides``).

        >>> Tiling(((64, 8), (16, 8))).tile_strides((8, 1))
        (512, 8, 128, 8, 8, 1)
        """
        strides = tuple(strides)
        for tile in self.tiles:
            k = len(tile)
            strides = (*strides[:-k], *(s * t for s, t in zip(strides[-k:], tile)), *strides[-k:])
        return strides

    def tile_indices(self, indices) -> tuple:
        """Each element's index in the tiled array (``indices``: one int or integer array per dim, vectorised).

        >>> [int(i) for i in Tiling(((4,), (2,))).tile_indices((7,))]
        [1, 1, 1]
        """
        indices = tuple(indices)
        for tile in self.tiles:
            k = len(tile)
            head, tail = indices[:-k], indices[-k:]
            indices = (*head, *(i // t for i, t in zip(tail, tile)), *(i % t for i, t in zip(tail, tile)))
        return indices

    def canonicalize(self) -> Tiling:
        """The canonical tiling: later tiles that split nothing dropped, leading 1s of a tile dropped (as jax).

        >>> str(Tiling(((8, 8), (8, 8))).canonicalize()), str(Tiling(((8, 8), (1, 4))).canonicalize())
        ('Tiling((8, 8))', 'Tiling((8, 8)(4,))')
        """
        if len(self.tiles) <= 1:
            return self
        shape, out = self.tiles[0], [self.tiles[0]]
        for tile in self.tiles[1:]:
            lead = next((i for i, d in enumerate(tile) if d != 1), None)
            canon = tile[lead:] if lead is not None else (1,)
            if shape[-len(canon):] == canon:
                continue
            shape = canon
            out.append(canon)
        return Tiling(tuple(out))


class Replicated:
    """A warp or lane dim that holds the same data ``times`` times (jax's ``fragmented_array.Replicated``).

    >>> Replicated(4), Replicated(4) == Replicated(times=4)
    (Replicated(times=4), True)
    """

    __slots__ = ("times",)

    def __init__(self, times):
        try:
            times = int(times)
        except (TypeError, ValueError):
            raise LayoutError(f"Replicated: times must be an integer, got {times!r}") from None
        if times <= 0:
            raise LayoutError(f"Replicated: times must be positive, got {times}")
        object.__setattr__(self, "times", times)

    def __setattr__(self, name, value):
        raise AttributeError("Replicated is immutable")

    def __eq__(self, other):
        return isinstance(other, Replicated) and self.times == other.times

    def __hash__(self):
        return hash(("Replicated", self.times))

    def __repr__(self):
        return f"Replicated(times={self.times})"

    def __str__(self):
        return f"#mosaic_gpu.Replicated<times = {self.times}>"


def _dim(d):
    if isinstance(d, Replicated):
        return d
    if isinstance(d, (bool, np.bool_)) or not isinstance(d, (int, np.integer)):
        raise LayoutError(f"a warp/lane dim is a negative integer or Replicated(times), got {d!r}")
    return int(d)


def _jax_repr(d):
    return repr(d) if isinstance(d, Replicated) else str(d)


class TiledLayout:
    """A Mosaic GPU register layout (jax's ``fragmented_array.TiledLayout``); ``str`` is jax's attribute text.

    ``check_canonical=False`` builds a non-canonical layout (jax's
    ``_check_canonical``), as jax's own intermediate steps do.

    >>> L = TiledLayout(Tiling(((8,), (2,))), (Replicated(4),), (Replicated(8), -2), -1)
    >>> print(L)
    #mosaic_gpu.TiledLayout<[[8], [2]], warp_dims = [#mosaic_gpu.Replicated<times = 4>], lane_dims = [#mosaic_gpu.Replicated<times = 8>, -2], vector_dim = -1>
    >>> L.replication_factor, L.registers_shape((16,))
    (32, (2, 1, 1))
    >>> TiledLayout(Tiling(((64, 8), (16, 8), (8, 8), (2,))), (-9,), (-3, -2), -1)
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: Dimension out of range
    """

    __slots__ = ("tiling", "warp_dims", "lane_dims", "vector_dim", "_tts")

    def __init__(self, tiling, warp_dims, lane_dims, vector_dim, *, check_canonical=True):
        tiling = tiling if isinstance(tiling, Tiling) else Tiling(tiling)
        warp_dims = tuple(_dim(d) for d in _seq(warp_dims, "warp_dims"))
        lane_dims = tuple(_dim(d) for d in _seq(lane_dims, "lane_dims"))
        if isinstance(vector_dim, (bool, np.bool_)) or not isinstance(vector_dim, (int, np.integer)):
            raise LayoutError(f"vector_dim is a negative integer, got {vector_dim!r}")
        setattr_ = object.__setattr__
        setattr_(self, "tiling", tiling)
        setattr_(self, "warp_dims", warp_dims)
        setattr_(self, "lane_dims", lane_dims)
        setattr_(self, "vector_dim", int(vector_dim))
        if not tiling.tiles:
            raise LayoutError("Tiling must have at least one tile")
        base = tiling.tiles[0]
        tiled = tiling.tile_shape(base)
        setattr_(self, "_tts", tiled[len(base):])
        pw, pl = self.partitioned_warp_dims, self.partitioned_lane_dims
        dims = {*pw, *pl, self.vector_dim}
        if len(dims) != len(pw) + len(pl) + 1:
            raise LayoutError("Duplicate partitioning dimensions")
        for d in dims:
            if d >= 0:
                raise LayoutError("All dimensions must be negative")
            if d < -(len(tiled) - len(base)):
                raise LayoutError("Dimension out of range")
        if self._size(warp_dims) != WARPS_IN_WARPGROUP:
            raise LayoutError("The product of warp dims does not equal the number of warps in a warpgroup")
        if self._size(lane_dims) != WARP_SIZE:
            raise LayoutError("The product of lane dims does not equal the warp size")
        if check_canonical and self != self.canonicalize():
            raise LayoutError(f"{self.jax_repr()} is not canonical.")

    def __setattr__(self, name, value):
        raise AttributeError("TiledLayout is immutable")

    def _size(self, dims):
        return math.prod(d.times if isinstance(d, Replicated) else self._tts[d] for d in dims)

    def __eq__(self, other):
        return isinstance(other, TiledLayout) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def _key(self):
        return ("TiledLayout", self.tiling, self.warp_dims, self.lane_dims, self.vector_dim)

    def __str__(self):
        tiles = ", ".join("[" + ", ".join(map(str, t)) + "]" for t in self.tiling.tiles)
        warps = ", ".join(map(str, self.warp_dims))
        lanes = ", ".join(map(str, self.lane_dims))
        return (f"#mosaic_gpu.TiledLayout<[{tiles}], warp_dims = [{warps}], lane_dims = [{lanes}], "
                f"vector_dim = {self.vector_dim}>")

    def __repr__(self):
        return f"<mosaic {self}>"

    def jax_repr(self) -> str:
        """The layout as jax's dataclass ``repr`` spells it (what jax's error messages show).

        >>> TiledLayout(Tiling(((4,),)), (Replicated(4),), (Replicated(32),), -1).jax_repr()
        'TiledLayout(tiling=Tiling(tiles=((4,),)), warp_dims=(Replicated(times=4),), lane_dims=(Replicated(times=32),), vector_dim=-1)'
        """
        def tup(ds):
            return "(" + ", ".join(map(_jax_repr, ds)) + ("," if len(ds) == 1 else "") + ")"
        return (f"TiledLayout(tiling={self.tiling!r}, warp_dims={tup(self.warp_dims)}, "
                f"lane_dims={tup(self.lane_dims)}, vector_dim={self.vector_dim})")

    # -- jax's properties ---------------------------------------------------------------------------------
    @property
    def partitioned_warp_dims(self) -> tuple:
        """The warp dims that are tiled dims (not ``Replicated``)."""
        return tuple(d for d in self.warp_dims if not isinstance(d, Replicated))

    @property
    def partitioned_lane_dims(self) -> tuple:
        """The lane dims that are tiled dims (not ``Replicated``)."""
        return tuple(d for d in self.lane_dims if not isinstance(d, Replicated))

    @property
    def base_tile_shape(self) -> tuple:
        """The first tile: the shape every array of this layout must be a multiple of (in its trailing dims)."""
        return self.tiling.tiles[0]

    @property
    def tiled_tiling_shape(self) -> tuple:
        """The trailing tiled dims every array gets, whatever its shape (jax's ``tiled_tiling_shape``)."""
        return self._tts

    @property
    def vector_length(self) -> int:
        """Elements per register (the size of ``vector_dim``)."""
        return self._tts[self.vector_dim]

    @property
    def replication_factor(self) -> int:
        """How many threads hold each element (the product of the ``Replicated`` dims)."""
        return math.prod(d.times for d in self.warp_dims + self.lane_dims if isinstance(d, Replicated))

    def to_linear(self, shape=None):
        """The linear layout (in-dims ``register``, ``lane``, ``warp``) over ``shape`` (the bridge's
        ``convert.mosaic.mosaic_to_linear``; default: the layout's base tile).

        >>> from unilayout import mosaic
        >>> mosaic.WGMMA.to_linear((64, 8)).out_dims
        [('dim0', 64), ('dim1', 8)]
        """
        from ..convert.mosaic import mosaic_to_linear  # lazy: the bridge is above the families

        return mosaic_to_linear(self, shape)

    def to_cute_tv(self, shape=None):
        """The CuTe layout ``(thread, value) -> column-major index of the tile`` over ``shape``
        (``convert.mosaic.mosaic_to_cute``; a warpgroup's 128 threads).

        >>> from unilayout import mosaic
        >>> str(mosaic.WGMMA.to_cute_tv((64, 8)))
        '((4,8,4),(2,2)):((128,1,16),(64,8))'
        """
        from ..convert.mosaic import mosaic_to_cute  # lazy: the bridge is above the families

        return mosaic_to_cute(self, shape)

    def registers_shape(self, shape) -> tuple:
        """The shape of each thread's register array for an array of ``shape`` (jax's ``registers_shape``)."""
        tiled = list(self.tiling.tile_shape(shape))
        for d in (*self.partitioned_warp_dims, *self.partitioned_lane_dims, self.vector_dim):
            tiled[d] = 1
        return tuple(tiled)

    def canonicalize(self) -> TiledLayout:
        """The layout with a canonical tiling and the dims renumbered (jax's ``canonicalize``).

        >>> L = TiledLayout(Tiling(((64, 8), (64, 8), (16, 8), (8, 8), (1, 2))), (-8,), (-4, -3), -1,
        ...                 check_canonical=False)
        >>> print(L.canonicalize())
        #mosaic_gpu.TiledLayout<[[64, 8], [16, 8], [8, 8], [2]], warp_dims = [-7], lane_dims = [-3, -2], vector_dim = -1>
        """
        canon = self.tiling.canonicalize()
        base = self.base_tile_shape
        tts = self._tts
        ctts = canon.tile_shape(base)[len(base):]
        at, removed = len(ctts) - 1, []
        for d in reversed(tts):
            if at >= 0 and d == ctts[at]:
                removed.append(False)
                at -= 1
            else:
                removed.append(True)
        offsets = np.cumsum(removed)[::-1].tolist()

        def move(d):
            return d if isinstance(d, Replicated) else d + offsets[d]

        def kept(d):
            return isinstance(d, Replicated) or tts[d] != 1

        return TiledLayout(canon, [move(d) for d in self.warp_dims if kept(d)],
                           [move(d) for d in self.lane_dims if kept(d)], move(self.vector_dim),
                           check_canonical=False)

    # -- evaluation ---------------------------------------------------------------------------------------
    def modes(self, shape):
        """``(thread modes, value modes)``: each ``(size, dim, step)``, least significant first (CuTe's order).

        ``dim`` is the array dim the mode walks (None: replicated, the mode
        does not move) and ``step`` its stride in that dim. A thread is ``32
        * warp + lane``; a value ``register * vector_length + element`` with
        registers row-major over ``registers_shape``. Every element's owner
        and every conversion is read from these modes.

        >>> WG = TiledLayout(Tiling(((64, 8), (16, 8), (8, 8), (2,))), (-7,), (-3, -2), -1)
        >>> WG.modes((64, 16))
        ([(4, 1, 2), (8, 0, 1), (4, 0, 16)], [(2, 1, 1), (2, 0, 8), (2, 1, 8)])
        """
        return modes_of(self, shape)

    def owners(self, shape) -> dict:
        """Who holds each element of ``shape`` (row-major), the first of its replicas: int64 arrays by name.

        ``warp``, ``lane``, ``thread`` (``32 * warp + lane``), ``register``
        (row-major over ``registers_shape``), ``element`` (in the vector) and
        ``value`` (``register * vector_length + element``). The other holders
        of an element are ``thread + t`` for ``t`` in ``replica_threads()``.

        >>> o = TiledLayout(Tiling(((16,), (4,))), (-2,), (Replicated(32),), -1).owners((16,))
        >>> o["warp"].tolist(), o["element"].tolist()[:5]
        ([0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3], [0, 1, 2, 3, 0])
        """
        shape = _ints(shape, "shape")
        _, vmodes = self.modes(shape)
        values = math.prod(s for s, _, _ in vmodes)
        owner = self.owner_index(shape).reshape(-1)
        thread, value = owner // values, owner % values
        vec = self.vector_length
        return {"warp": thread // WARP_SIZE, "lane": thread % WARP_SIZE, "thread": thread, "register": value // vec,
                "element": value % vec, "value": value}

    def owner_index(self, shape) -> np.ndarray:
        """``thread * values_per_thread + value`` of each element's first holder, as an int64 array of ``shape``.

        Every mode walks one dim, so the index is a sum of one small table per
        dim, broadcast: one pass over the elements for a 2-D array.

        >>> WG = TiledLayout(Tiling(((64, 8), (16, 8), (8, 8), (2,))), (-7,), (-3, -2), -1)
        >>> WG.owner_index((64, 8))[9, :4].tolist()
        [18, 19, 22, 23]
        """
        shape = _ints(shape, "shape")
        tables = _dim_tables(self, shape)
        if not shape:
            return np.zeros((), dtype=np.int64)
        out = tables[0].reshape((-1,) + (1,) * (len(shape) - 1))
        for d in range(1, len(shape)):
            out = out + tables[d].reshape((1,) * d + (-1,) + (1,) * (len(shape) - d - 1))
        return out

    def replica_threads(self) -> np.ndarray:
        """The thread offsets that hold the same data (0 first): one per replica, ``replication_factor`` of them.

        >>> TiledLayout(Tiling(((8,), (2,))), (Replicated(4),), (Replicated(8), -2), -1).replica_threads()[:10].tolist()
        [0, 4, 8, 12, 16, 20, 24, 28, 32, 36]
        """
        offs = np.zeros(1, dtype=np.int64)
        for dims, unit in ((self.lane_dims, 1), (self.warp_dims, WARP_SIZE)):
            stride = unit
            for d in reversed(dims):
                size = d.times if isinstance(d, Replicated) else self._tts[d]
                if isinstance(d, Replicated):
                    offs = (offs[None, :] + stride * np.arange(size, dtype=np.int64)[:, None]).T.reshape(-1)
                stride *= size
        return np.sort(offs)

    def coordinates(self, shape) -> np.ndarray:
        """The element each (thread, value) holds: int64 ``(128, values, rank)`` (jax's ``thread_idxs``, by number).

        >>> WG = TiledLayout(Tiling(((64, 8), (16, 8), (8, 8), (2,))), (-7,), (-3, -2), -1)
        >>> WG.coordinates((64, 8))[5, :, :].tolist()
        [[1, 2], [1, 3], [9, 2], [9, 3]]
        """
        shape = _ints(shape, "shape")
        tmodes, vmodes = self.modes(shape)
        return _evaluate(tmodes, vmodes, len(shape))


def modes_of(layout, shape):
    """The (thread, value) modes of a ``TiledLayout`` over ``shape`` (see ``TiledLayout.modes``).

    >>> L = TiledLayout(Tiling(((16,), (4,))), (-2,), (Replicated(32),), -1)
    >>> modes_of(L, (32,))
    ([(32, None, 0), (4, 0, 4)], [(4, 0, 1), (2, 0, 16)])
    """
    shape = tuple(shape)
    tiled = layout.tiling.tile_shape(shape)
    n, m = len(shape), len(tiled)
    steps = np.array([layout.tiling.tile_strides(tuple(int(i == j) for i in range(n))) for j in range(n)]).T
    origin = [int(np.argmax(steps[k] != 0)) for k in range(m)]

    def mode(d):
        if isinstance(d, Replicated):
            return (d.times, None, 0)
        k = d + m
        return (int(tiled[k]), origin[k], int(steps[k, origin[k]]))

    thread = [mode(d) for d in reversed(layout.lane_dims)] + [mode(d) for d in reversed(layout.warp_dims)]
    special = {d + m for d in (*layout.partitioned_warp_dims, *layout.partitioned_lane_dims, layout.vector_dim)}
    value = [mode(layout.vector_dim)] + [mode(k - m) for k in reversed(range(m)) if k not in special and tiled[k] != 1]
    return thread, value


@functools.lru_cache(maxsize=256)
def _dim_tables(layout, shape):
    """Per dim, the part of ``thread * values + value`` its coordinate gives (small, cached per layout and shape)."""
    tmodes, vmodes = modes_of(layout, shape)
    values = math.prod(s for s, _, _ in vmodes)
    tables = [np.zeros(n, dtype=np.int64) for n in shape]
    for modes, unit in ((vmodes, 1), (tmodes, values)):
        place = unit
        for size, d, step in modes:
            if d is not None:
                x = np.arange(shape[d], dtype=np.int64)
                tables[d] += ((x // step) % size) * place
            place *= size
    for t in tables:
        t.flags.writeable = False
    return tuple(tables)


def _evaluate(tmodes, vmodes, rank):
    """The coordinate of each (thread, value) from modes: ``(threads, values, rank)``."""
    def table(modes):
        size = math.prod(s for s, _, _ in modes)
        i = np.arange(size, dtype=np.int64)
        out = np.zeros((size, rank), dtype=np.int64)
        for s, d, step in modes:
            if d is not None:
                out[:, d] += (i % s) * step
            i = i // s
        return out
    return table(tmodes)[:, None, :] + table(vmodes)[None, :, :]
