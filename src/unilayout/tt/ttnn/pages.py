"""L1-interleaved TTNN tensors: pages round robin over the grid's cores, as tt-metal's interleaved buffer.

A TTNN tensor in L1, *interleaved*, on a grid of ``n > 1`` cores is no grid
split: tt-metal's interleaved buffer puts page ``i`` in bank ``i mod n``, as
that bank's ``(i div n)``-th page. A page of a tiled tensor is one tile, tiles
numbered row-major over the tile-padded physical (rows, columns) image; a
page of a row-major tensor is one row of the physical image (tt-metal's
row-major interleaved page), so a core holds ``ceilDiv(rows, n)`` rows side by
side in a ``1 x ceilDiv(rows, n) * width`` memref.
tt-mlir's layout takes the grid's cores as the banks
(``calculateLogicalShardShapeForL1Interleaved``), bank ``k`` = core ``k`` of
the grid in row-major order, and each core's memref is ``1 x ceilDiv(tiles,
n)`` tiles holding its pages left to right: page slot ``j`` is columns
``j*tw .. j*tw+tw-1`` of its ``(th, per*tw)`` shard.

A 32x96 tensor in 32x32 tiles on a 1x2 grid has 3 pages on 2 banks:

======  ==========  ====  =========================
page    tile        core  page slot (shard columns)
======  ==========  ====  =========================
0       (0, 0)      0     0 (0-31)
1       (0, 1)      1     0 (0-31)
2       (0, 2)      0     1 (32-63)
--      --          1     1 (32-63): padding
======  ==========  ====  =========================

>>> from unilayout.tt import TTNNTensorLayout
>>> L = TTNNTensorLayout((32, 96), "(d0, d1) -> (d0, d1)", (1, 2), buffer_type="l1", tile=(32, 32))
>>> p = Pages(L)
>>> L.shard_shape, (p.pages, p.banks, p.per), [p.locate((0, 32 * t)) for t in range(3)]
((32, 64), (3, 2, 2), [((0, 0), (0, 0)), ((0, 1), (0, 0)), ((0, 0), (0, 32))])

``TTNNTensorLayout`` keeps one ``Pages`` per layout and answers ``shard``,
``unshard``, ``locate``, ``logical_index``, ``index_map``, ``padding_mask``
and ``padding_summary`` through it when ``interleaved_pages`` is set.
"""

from __future__ import annotations

import numpy as np

from ...errors import LayoutError
from .._mlir import xs
from ..metal.metal import MetalLayout
from ..metal.shard import PaddingSummary, fill_value

__all__ = ["Pages", "page_shard_shape"]


def page_shard_shape(physical_shape, tile, grid) -> tuple:
    """The memref shard of an L1-interleaved layout, in elements: ``(th, ceilDiv(pages, cores) * tw)``.

    A page is a tile, or for a row-major layout (``tile`` None) one row of the
    physical image (tt-metal's row-major interleaved page): ``(1, ceilDiv(rows,
    cores) * width)``.

    Leading dims of the grid add leading 1s.

    >>> page_shard_shape((32, 96), (32, 32), (1, 2))
    (32, 64)
    >>> page_shard_shape((32, 2048), None, (8, 8))      # row-major: ceilDiv(32 rows, 64 banks) = 1 row each
    (1, 2048)
    """
    if tile is None:  # row-major: a page is one row of the physical image
        tile = (1, physical_shape[-1])
    tiles = 1
    for i, p in enumerate(physical_shape):
        tiles *= -(-p // tile[i - len(physical_shape) + 2]) if i >= len(physical_shape) - 2 else p
    cores = 1
    for g in grid:
        cores *= g
    per = -(-tiles // cores)
    return (1,) * (len(grid) - 2) + (tile[0], per * tile[1])


class Pages:
    """The page placement of one L1-interleaved layout: its one-core image and page counts.

    ``image`` is the tile-padded physical image as a one-core ``MetalLayout``
    (any linear map, tile padding included); ``per_row`` tiles per image row,
    ``pages`` tiles in all, ``banks`` cores, ``per`` page slots per core.

    >>> from unilayout.tt import TTNNTensorLayout
    >>> p = Pages(TTNNTensorLayout((64, 96), "(d0, d1) -> (d0, d1)", (1, 2), buffer_type="l1", tile=(32, 32)))
    >>> p.image.shards_shape, p.per_row, p.pages, p.banks, p.per
    ((1, 1, 64, 96), 3, 6, 2, 3)
    """

    __slots__ = ("layout", "image", "per_row", "pages", "banks", "per", "page")

    def __init__(self, layout):
        L = layout
        image = MetalLayout(L.logical_shape, L.linear, (1,) * len(L.grid), L.element_type, L.memory_space, "undef",
                            L.tile, L.tile_dtype)
        rows = 1
        for v in image.padded_shard_shape[:-1]:
            rows *= v
        page = L.tile or (1, image.padded_shard_shape[-1])  # a tile, or one row of a row-major image
        per_row = image.padded_shard_shape[-1] // page[1]
        banks = 1
        for g in L.grid:
            banks *= g
        self.layout, self.image, self.per_row, self.banks, self.page = L, image, per_row, banks, page
        self.pages = rows // page[0] * per_row
        self.per = L.shard_shape[-1] // page[1]

    def slots(self, r, c):
        """Flat positions in ``shard()``'s output of physical (row, column) arrays (rows over all leading dims).

        >>> from unilayout.tt import TTNNTensorLayout
        >>> p = Pages(TTNNTensorLayout((32, 96), "(d0, d1) -> (d0, d1)", (1, 2), buffer_type="l1", tile=(32, 32)))
        >>> int(p.slots(0, 64))                   # page 2: core 0, page slot 1
        32
        """
        th, tw = self.page
        page = (r // th) * self.per_row + c // tw
        banks, per = self.banks, self.per
        return (page % banks) * (th * per * tw) + (r % th) * (per * tw) + (page // banks) * tw + c % tw

    def index_map(self):
        """int64 (N,): each logical element's flat position in ``shard()``'s output (its page slot).

        >>> from unilayout.tt import TTNNTensorLayout
        >>> L = TTNNTensorLayout((32, 96), "(d0, d1) -> (d0, d1)", (1, 2), buffer_type="l1", tile=(32, 32))
        >>> Pages(L).index_map()[[0, 32, 64]].tolist()
        [0, 2048, 32]
        """
        pos = self.image.index_map()  # row-major position in the padded physical image (one core)
        width = self.image.padded_shard_shape[-1]
        return self.slots(pos // width, pos % width)

    def shard(self, array, out=None):
        """Elements per core (``shards_shape``): page ``i`` is page slot ``i div n`` of core ``i mod n``.

        Padding slots get ``oob_val``'s fill; ``unshard`` inverts it.

        >>> from unilayout.tt import TTNNTensorLayout
        >>> L = TTNNTensorLayout((32, 96), "(d0, d1) -> (d0, d1)", (1, 2), buffer_type="l1", tile=(32, 32))
        >>> s = Pages(L).shard(np.arange(32 * 96).reshape(32, 96))
        >>> int(s[0, 0, 0, 32]), int(s[0, 1, 0, 0])
        (64, 32)
        """
        L = self.layout
        a = np.asarray(array)
        if a.shape != L.logical_shape:
            raise LayoutError(f"shard: array of shape {a.shape} is not the tensor's {L.logical_shape}")
        fill = fill_value(L, a.dtype)
        if out is None:
            out = np.empty(L.shards_shape, dtype=a.dtype)
        elif out.shape != L.shards_shape or out.dtype != a.dtype or not out.flags.c_contiguous:
            raise LayoutError(f"shard: out must be a C-contiguous {a.dtype} array of shape {L.shards_shape}")
        image, per_row, pages, banks, per = self.image, self.per_row, self.pages, self.banks, self.per
        th, tw = self.page
        img = image.shard(a)  # the tile-padded physical image on one core (any linear map, tile padding filled)
        rows = pages // per_row
        if per_row % banks == 0:  # each tile row fills whole rounds of banks: one transposed copy
            q = per_row // banks  # tile column = j * banks + bank, page slot = tile row * q + j
            out.reshape(banks, th, rows, q, tw)[...] = img.reshape(rows, th, q, banks, tw).transpose(3, 1, 0, 2, 4)
            return out
        tiles = img.reshape(pages // per_row, th, per_row, tw).transpose(0, 2, 1, 3)  # (tile row, tile col, th, tw)
        tiles = tiles.reshape(pages, th, tw)
        full, rem = divmod(pages, banks)
        o = out.reshape(banks, th, per, tw)  # bank, tile row, page slot, tile column
        o[:, :, :full, :] = tiles[:full * banks].reshape(full, banks, th, tw).transpose(1, 2, 0, 3)
        if full < per:
            o[:rem, :, full, :] = tiles[full * banks:]
            o[rem:, :, full, :] = fill
            o[:, :, full + 1:, :] = fill
        return out

    def unshard(self, shards, out=None):
        """The tensor back from ``shard``'s output (padding slots ignored).

        >>> from unilayout.tt import TTNNTensorLayout
        >>> p = Pages(TTNNTensorLayout((40, 70), "(d0, d1) -> (d0, d1)", (2, 2), buffer_type="l1", tile=(32, 32)))
        >>> a = np.arange(40 * 70).reshape(40, 70)
        >>> bool((p.unshard(p.shard(a)) == a).all())
        True
        """
        L = self.layout
        s = np.asarray(shards)
        if s.shape != L.shards_shape:
            raise LayoutError(f"unshard: shards of shape {s.shape} do not match {L.shards_shape}")
        image, per_row, pages, banks, per = self.image, self.per_row, self.pages, self.banks, self.per
        th, tw = self.page
        if per_row % banks == 0:  # the inverse of shard's one transposed copy
            q, rows = per_row // banks, pages // per_row
            img = np.empty(image.shards_shape, dtype=s.dtype)
            img.reshape(rows, th, q, banks, tw)[...] = s.reshape(banks, th, rows, q, tw).transpose(2, 1, 3, 0, 4)
            return image.unshard(img, out=out)
        o = np.ascontiguousarray(s).reshape(banks, th, per, tw)
        tiles = np.empty((pages, th, tw), dtype=s.dtype)
        full, rem = divmod(pages, banks)
        tiles[:full * banks].reshape(full, banks, th, tw)[...] = o[:, :, :full, :].transpose(2, 0, 1, 3)
        if rem:
            tiles[full * banks:] = o[:rem, :, full, :]
        img = tiles.reshape(pages // per_row, per_row, th, tw).transpose(0, 2, 1, 3).reshape(image.shards_shape)
        return image.unshard(img, out=out)

    def padding_mask(self):
        """Boolean ``shards_shape``: True at every page slot holding no element.

        >>> from unilayout.tt import TTNNTensorLayout
        >>> p = Pages(TTNNTensorLayout((32, 96), "(d0, d1) -> (d0, d1)", (1, 2), buffer_type="l1", tile=(32, 32)))
        >>> p.padding_mask()[0, :, 0, ::32].tolist()
        [[False, False], [False, True]]
        """
        mask = np.ones(self.layout.shards_shape, dtype=bool)
        mask.reshape(-1)[self.index_map()] = False
        return mask

    def padding_summary(self):
        """Per-core extents (the bounding box of held slots), padding per dim and padding slots.

        >>> from unilayout.tt import TTNNTensorLayout
        >>> p = Pages(TTNNTensorLayout((32, 96), "(d0, d1) -> (d0, d1)", (1, 2), buffer_type="l1", tile=(32, 32)))
        >>> p.padding_summary().extent.tolist()
        [[[32, 64], [32, 32]]]
        """
        L = self.layout
        held = ~self.padding_mask()
        g = len(L.grid)
        inner = tuple(range(g, held.ndim))
        ext = []
        for k in range(g, held.ndim):
            other = tuple(i for i in inner if i != k)
            used = held.any(axis=other) if other else held
            idx = np.arange(held.shape[k])
            ext.append(np.where(used.any(axis=-1), (used * (idx + 1)).max(axis=-1), 0))
        extent = np.stack(ext, axis=-1).astype(np.int64)
        padded = np.asarray(L.shards_shape[g:], dtype=np.int64)
        counts = (~held).sum(axis=inner).astype(np.int64)
        return PaddingSummary(extent, padded - extent, counts, int(counts.sum()))

    def locate(self, index):
        """Logical index -> ``(grid_coord, shard_coord)`` of its page slot.

        >>> from unilayout.tt import TTNNTensorLayout
        >>> p = Pages(TTNNTensorLayout((32, 96), "(d0, d1) -> (d0, d1)", (1, 2), buffer_type="l1", tile=(32, 32)))
        >>> p.locate((5, 70))
        ((0, 0), (5, 38))
        """
        L, image = self.layout, self.image
        _, q = image.locate(*index)
        r = 0
        for v, n in zip(q[:-1], image.padded_shard_shape[:-1]):
            r = r * n + v
        flat = int(self.slots(np.int64(r), np.int64(q[-1])))
        coords = np.unravel_index(flat, L.shards_shape)
        g = len(L.grid)
        return tuple(int(v) for v in coords[:g]), tuple(int(v) for v in coords[g:])

    def logical_index(self, grid_coord, shard_coord):
        """``(G, q)`` -> the logical index in that page slot, or None for a padding slot.

        >>> from unilayout.tt import TTNNTensorLayout
        >>> p = Pages(TTNNTensorLayout((32, 96), "(d0, d1) -> (d0, d1)", (1, 2), buffer_type="l1", tile=(32, 32)))
        >>> p.logical_index((0, 0), (5, 38)), p.logical_index((0, 1), (0, 32))
        ((5, 70), None)
        """
        L = self.layout
        G, q = tuple(int(v) for v in grid_coord), tuple(int(v) for v in shard_coord)
        if len(G) != len(L.grid) or any(not 0 <= v < n for v, n in zip(G, L.grid)):
            raise LayoutError(f"grid coordinate {G} is outside the grid {xs(L.grid)}")
        if len(q) != len(L.shard_shape) or any(not 0 <= v < n for v, n in zip(q, L.shard_shape)):
            raise LayoutError(f"shard coordinate {q} is outside the shard {xs(L.shard_shape)}")
        th, tw = self.page
        image, per_row, pages, banks = self.image, self.per_row, self.pages, self.banks
        bank = int(np.ravel_multi_index(G, L.grid))
        page = (q[-1] // tw) * banks + bank
        if page >= pages:
            return None
        r = (page // per_row) * th + q[-2]
        c = (page % per_row) * tw + q[-1] % tw
        lead = np.unravel_index(r, image.padded_shard_shape[:-1])
        return image.logical_index((0,) * len(L.grid), tuple(int(v) for v in lead) + (c,))
