"""CuTe tensors: numpy storage viewed through a layout, and tiling/partitioning them.

Element ``c`` of ``Tensor(storage, layout, offset)`` is ``storage[offset + layout(c)]``.
Slicing with ``None`` (CuTe's ``_``) gives a view; ``local_tile`` picks one tile
of a tiling, ``local_partition`` one thread's share of a partitioning:

>>> import numpy as np
>>> from unilayout.cute import Layout
>>> T = Tensor(np.arange(32), Layout((4, 8), (1, 4)))
>>> int(T[1, 2]), T[None, 2].to_numpy().tolist()
(9, [8, 9, 10, 11])
>>> local_tile(T, (2, 4), (1, 1)).to_numpy().tolist()
[[18, 22, 26, 30], [19, 23, 27, 31]]
>>> local_partition(T, Layout((2, 4), (1, 2)), 5).to_numpy().tolist()
[[9, 25], [11, 27]]

On a bare ``Layout`` the free functions return ``(layout, offset)`` (C++ only
takes tensors; unilayout's choice).
"""

from __future__ import annotations

import numpy as np

from .._ints import as_int
from ..errors import LayoutError
from .algebra import zipped_divide
from .evaluate import index_map
from .inttuple import crd2idx, idx2crd, leaves, product, product_each
from .layout import Layout, _has_none, _normalize_coord, slice_and_offset
from .swizzle import ComposedLayout

__all__ = ["Tensor", "local_tile", "local_partition"]


class Tensor:
    """A numpy 1-D ``storage`` viewed through ``layout`` starting at ``offset``.

    Every element the layout reaches must lie inside the storage.

    >>> T = Tensor(np.arange(6.0), Layout((2, 3), (3, 1)))
    >>> T.to_numpy()
    array([[0., 1., 2.],
           [3., 4., 5.]])
    >>> Tensor(np.arange(4), Layout(8, 1))
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: Tensor: layout 8:1 at offset 0 reaches [0, 7], outside storage of 4 elements
    """

    __slots__ = ("storage", "layout", "offset")

    def __init__(self, storage, layout, offset: int = 0):
        if isinstance(storage, np.ma.MaskedArray):
            raise LayoutError("Tensor: a masked storage would lose its mask; pass arr.filled(...)")
        if not isinstance(storage, np.ndarray):
            try:
                storage = np.asarray(storage)
            except (TypeError, ValueError) as e:
                raise LayoutError(f"Tensor: storage must be a 1-D array, got {type(storage).__name__} ({e})") from None
        offset = as_int(offset, "Tensor: offset")
        if storage.ndim != 1:
            raise LayoutError(f"Tensor: storage must be 1-D, got shape {storage.shape}")
        if not isinstance(layout, (Layout, ComposedLayout)):
            raise LayoutError(f"Tensor: expected a Layout or ComposedLayout, got {type(layout).__name__}")
        lo, hi = _extent(layout)
        if offset + lo < 0 or offset + hi >= storage.shape[0]:
            raise LayoutError(
                f"Tensor: layout {layout} at offset {offset} reaches [{offset + lo}, {offset + hi}], "
                f"outside storage of {storage.shape[0]} elements"
            )
        object.__setattr__(self, "storage", storage)
        object.__setattr__(self, "layout", layout)
        object.__setattr__(self, "offset", int(offset))

    @classmethod
    def _view(cls, storage, layout, offset):
        self = object.__new__(cls)
        object.__setattr__(self, "storage", storage)
        object.__setattr__(self, "layout", layout)
        object.__setattr__(self, "offset", offset)
        return self

    def __setattr__(self, name, value):
        raise AttributeError("Tensor fields are fixed; write elements with T[c] = v")

    shape = property(lambda self: self.layout.shape, doc="Shape of the layout.")
    size = property(lambda self: self.layout.size, doc="Number of elements.")
    rank = property(lambda self: self.layout.rank, doc="Rank of the layout.")

    def _locate(self, crd):
        c = _normalize_coord(crd)
        _check_in_domain(c, self.layout.shape, crd)
        if _has_none(c):
            if isinstance(self.layout, ComposedLayout):
                return self.layout(c), None
            sub, off = slice_and_offset(c, self.layout)
            return sub, off
        return None, self.offset + self.layout(c)

    def __getitem__(self, crd):
        sub, off = self._locate(crd)
        if sub is None:
            return self.storage[off]
        if isinstance(sub, ComposedLayout):
            return Tensor._view(self.storage, sub, self.offset)
        return Tensor._view(self.storage, sub, self.offset + off)

    def __call__(self, *crd):
        return self[crd[0] if len(crd) == 1 else crd]

    def __setitem__(self, crd, value):
        sub, off = self._locate(crd)
        if sub is not None:
            raise LayoutError("Tensor: assign one element at a time, or through to_numpy() of a copy")
        self.storage[off] = value

    def to_numpy(self) -> np.ndarray:
        """A copy of the elements as an ndarray of shape ``product_each(shape)`` (natural coordinates).

        >>> Tensor(np.arange(4), Layout((2, 2), (2, 1))).to_numpy().tolist()
        [[0, 1], [2, 3]]
        """
        values = self.storage[self.offset + index_map(self.layout)]
        shape = product_each(self.layout.shape)
        return values.reshape(shape if isinstance(shape, tuple) else (shape,), order="F")

    def local_tile(self, tiler, coord, proj=None) -> "Tensor":
        """``local_tile(self, tiler, coord, proj)`` as a method.

        >>> Tensor(np.arange(16), Layout((4, 4))).local_tile((2, 2), (1, 0)).to_numpy().tolist()
        [[2, 6], [3, 7]]
        """
        return local_tile(self, tiler, coord, proj)

    def local_partition(self, thr_layout, idx, proj=None) -> "Tensor":
        """``local_partition(self, thr_layout, idx, proj)`` as a method.

        >>> Tensor(np.arange(16), Layout((4, 4))).local_partition(Layout((2, 2)), 1).to_numpy().tolist()
        [[1, 9], [3, 11]]
        """
        return local_partition(self, thr_layout, idx, proj)

    def __repr__(self):
        return f"Tensor({self.storage!r}, {self.layout!r}, {self.offset!r})"


def _check_in_domain(crd, shape, shown):
    """Reject a coordinate outside the tensor (an int per mode, or a natural coordinate); None passes."""
    if crd is None:
        return
    if isinstance(crd, tuple):
        if isinstance(shape, tuple) and len(crd) == len(shape):
            for c, s in zip(crd, shape):
                _check_in_domain(c, s, shown)
        return  # a profile mismatch is reported by the layout itself
    if not 0 <= crd < product(shape):
        raise LayoutError(f"Tensor: coordinate {shown!r} is outside the tensor of shape {shape!r}")


def _extent(layout):
    if isinstance(layout, Layout):
        lo = sum((s - 1) * d for s, d in zip(leaves(layout.shape), leaves(layout.stride)) if d < 0)
        hi = sum((s - 1) * d for s, d in zip(leaves(layout.shape), leaves(layout.stride)) if d > 0)
        return lo, hi
    im = index_map(layout)
    return int(im.min()), int(im.max())


def _dice(proj, t):
    if proj is None:
        return t
    if not isinstance(t, tuple) or len(proj) != len(t):
        raise LayoutError(f"projection {proj!r} does not match {t!r}")
    return tuple(x for p, x in zip(proj, t) if p is not None)


def _split(x):
    if isinstance(x, Tensor):
        return x.layout, x
    if isinstance(x, (Layout, ComposedLayout)):
        return x, None
    raise LayoutError(f"expected a Tensor or a Layout, got {type(x).__name__}")


def _finish(tensor, layout, offset):
    if tensor is None:
        return layout, offset
    if isinstance(layout, ComposedLayout):
        return Tensor._view(tensor.storage, ComposedLayout(layout.outer, layout.offset + offset, layout.inner),
                            tensor.offset)
    return Tensor._view(tensor.storage, layout, tensor.offset + offset)


def _partition(layout, tensor, tiler, coord, mode: int):
    """Slice ``zipped_divide(layout, tiler)`` at ``coord`` in ``mode`` and ``_`` everywhere else.

    A tuple ``coord`` is padded with ``_`` to the rank of that mode; the other
    mode's sub-modes become top-level modes of the result (C++ inner/outer_partition).
    """
    z = zipped_divide(layout, tiler)
    inner = z.inner if isinstance(z, ComposedLayout) else z
    sliced, other = inner[mode], inner[1 - mode]
    if isinstance(coord, (tuple, list)) and isinstance(sliced.shape, tuple) and len(coord) < sliced.rank:
        coord = tuple(coord) + (None,) * (sliced.rank - len(coord))
    if tensor is not None:  # a tensor has no elements past its tiles
        _check_in_domain(_normalize_coord(coord), sliced.shape, coord)
    keep = (None,) * other.rank if isinstance(other.shape, tuple) else None
    sub, off = slice_and_offset((keep, coord) if mode == 1 else (coord, keep), inner)
    if isinstance(z, ComposedLayout):
        sub = ComposedLayout(z.outer, z.offset, sub)
    return _finish(tensor, sub, off)


def local_tile(x, tiler, coord, proj=None):
    """The tile at ``coord`` of ``x`` tiled by ``tiler`` (C++ ``local_tile`` = inner_partition).

    ``zipped_divide(x, tiler)`` sliced at ``(_, coord)``: ``coord`` indexes the
    grid of tiles (a tuple padded with ``_`` for extra modes, or an int for the
    whole rest mode); the result has the tile's modes, then the rest modes that
    ``coord`` leaves as ``None``. ``proj`` (C++ ``Step``) drops the modes where it
    is ``None`` (C++ ``X``) from tiler and coord first.

    **Post-condition:** element ``c`` of the tile is element
    ``coord * tiler + c`` of ``x`` (mode by mode).

    >>> local_tile(Layout((4, 6), (6, 1)), (2, 3), (1, 1))
    (Layout((2, 3), (6, 1)), 15)
    """
    layout, tensor = _split(x)
    tiler, coord = _dice(proj, tiler), _dice(proj, coord)
    return _partition(layout, tensor, tiler, coord, 1)


def local_partition(x, thr_layout: Layout, idx: int, proj=None):
    """Thread ``idx``'s share of ``x`` partitioned by ``thr_layout`` (C++ ``local_partition`` = outer_partition).

    ``zipped_divide(x, product_each(shape(thr)))`` sliced at ``(c, _)`` where
    ``c`` is the coordinate of ``idx`` in ``thr_layout``, one 1-D coordinate per mode.

    >>> local_partition(Layout((4, 8), (1, 4)), Layout((2, 4), (1, 2)), 5)
    (Layout((2, 2), (2, 16)), 9)
    """
    layout, tensor = _split(x)
    if not isinstance(thr_layout, Layout):
        raise LayoutError(f"local_partition: thread layout must be a Layout, got {type(thr_layout).__name__}")
    idx = as_int(idx, "local_partition: thread index")
    if not 0 <= idx < thr_layout.size:
        raise LayoutError(f"local_partition: thread index {idx} outside [0, {thr_layout.size})")
    shape, stride = _dice(proj, thr_layout.shape), _dice(proj, thr_layout.stride)
    hier = idx2crd(idx, shape, stride)
    if isinstance(shape, tuple):
        c = tuple(crd2idx(h, s) for h, s in zip(hier, shape))
    else:
        c = hier
    return _partition(layout, tensor, product_each(shape), c, 0)
