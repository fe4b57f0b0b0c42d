"""CuTe swizzles and composed layouts (``Sw<B,M,S> o offset o layout``).

A swizzle ``Sw<B,M,S>`` XORs the B bits at ``[M+S, M+S+B)`` of an offset into
the B bits at ``[M, M+B)``: it permutes offsets inside 2^(B+M+S) blocks and
keeps the low M bits, so shared-memory accesses spread over banks.

>>> sw = Swizzle(3, 4, 3)
>>> sw(640), sw(sw(640))
(720, 640)
>>> C = ComposedLayout(sw, 0, Layout((8, 64), (64, 1)))
>>> str(C), C(1, 0), C(2, 0), C.size
('Sw<3,4,3> o 0 o (8,64):(64,1)', 64, 144, 512)

Invariants: ``B >= 0``, ``M >= 0``, ``|S| >= B`` and ``B + M + |S| <= 63`` (every
bit a swizzle reads or writes lies in a non-negative int64, so the vectorised
path is exact); a swizzle is an involution on all non-negative integers. A ``ComposedLayout(outer, offset, inner)`` has the
value ``outer(offset + inner(c))``; its shape, size, rank, depth and cosize
come from ``inner``, and the layout algebra acts on ``inner``.

A bare swizzle is a function of offsets with no shape; ``swizzle_layout``
gives it the layout view CuTe draws for it, one row per value of the high
bits, each row a permutation of its ``2^M``-element units:

>>> C = swizzle_layout(Swizzle(1, 0, 1))
>>> str(C), [[C(r, j) for j in range(2)] for r in range(2)]
('Sw<1,0,1> o 0 o (2,2):(2,1)', [[0, 1], [3, 2]])
"""

from __future__ import annotations

import numpy as np

from .._ints import as_int, as_int_array, as_pow2, check_int64
from ..errors import LayoutError
from ._flat import at
from .dyn import Dyn, check_bound
from .layout import DynLayout, Layout, _has_none, _normalize_coord, slice_and_offset

__all__ = ["Swizzle", "ComposedLayout", "swizzle_layout"]


class Swizzle:
    """``Swizzle(bits, base, shift)``: ``x ^ ((x & yyy) >> shift)`` (left shift when ``shift < 0``).

    >>> Swizzle(2, 0, 2)(0b1100)
    15
    >>> Swizzle(3, 0, 2)
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: Swizzle<3,0,2>: need bits >= 0, base >= 0 and |shift| >= bits
    """

    __slots__ = ("bits", "base", "shift", "_yyy")

    def __init__(self, bits: int, base: int, shift: int):
        b, m, s = (as_int(v, "Swizzle parameter") for v in (bits, base, shift))
        if b < 0 or m < 0 or abs(s) < b:
            raise LayoutError(f"Swizzle<{bits},{base},{shift}>: need bits >= 0, base >= 0 and |shift| >= bits")
        if b + m + abs(s) > 63:
            raise LayoutError(f"Swizzle<{b},{m},{s}>: need bits + base + |shift| <= 63 (the bits of an int64 offset)")
        object.__setattr__(self, "bits", b)
        object.__setattr__(self, "base", m)
        object.__setattr__(self, "shift", s)
        object.__setattr__(self, "_yyy", ((1 << b) - 1) << (m + max(0, s)))

    def __setattr__(self, name, value):
        raise AttributeError("Swizzle is immutable")

    def __call__(self, x):
        """Swizzle an int or an integer ndarray (vectorised)."""
        if isinstance(x, np.ndarray):
            x = as_int_array(x, f"{self}: offsets")
            if x.size and x.min() < 0:
                raise LayoutError(f"{self}: offsets must be non-negative")
            y = x & self._yyy
            return x ^ ((y >> self.shift) if self.shift >= 0 else (y << -self.shift))
        x = as_int(x, f"{self}: offset")
        if x < 0:
            raise LayoutError(f"{self}: offset {x} is negative")
        y = x & self._yyy
        return x ^ ((y >> self.shift) if self.shift >= 0 else (y << -self.shift))

    @property
    def size(self) -> int:
        """Extent of the permuted block: ``2 ** (bits + base + |shift|)``."""
        return 1 << (self.bits + self.base + abs(self.shift))

    def upcast(self, n: int) -> "Swizzle":
        """The swizzle on elements ``n`` (a power of two) times larger.

        >>> Swizzle(3, 4, 3).upcast(4), Swizzle(3, 1, 3).upcast(8)
        (Swizzle(3, 2, 3), Swizzle(1, 0, 3))
        """
        k = _log2(n, "Swizzle.upcast")
        m = self.base - k
        return Swizzle(self.bits, m, self.shift) if m >= 0 else Swizzle(max(self.bits + m, 0), 0, self.shift)

    def downcast(self, n: int) -> "Swizzle":
        """The swizzle on elements ``n`` (a power of two) times smaller.

        >>> Swizzle(3, 4, 3).downcast(2)
        Swizzle(3, 5, 3)
        """
        return Swizzle(self.bits, self.base + _log2(n, "Swizzle.downcast"), self.shift)

    def __eq__(self, other):
        return type(other) is Swizzle and (self.bits, self.base, self.shift) == (other.bits, other.base, other.shift)

    def __hash__(self):
        return hash(("Swizzle", self.bits, self.base, self.shift))

    def __repr__(self):
        return f"Swizzle({self.bits}, {self.base}, {self.shift})"

    def __str__(self):
        return f"Sw<{self.bits},{self.base},{self.shift}>"


def _log2(n, what) -> int:
    return as_pow2(n, f"{what} factor").bit_length() - 1


class ComposedLayout:
    """``outer o offset o inner``: the function ``c -> outer(offset + inner(c))``.

    ``outer`` is a Swizzle or a Layout, ``inner`` a Layout. Calling with a
    coordinate holding ``None`` slices ``inner`` and adds the slice's offset.

    >>> C = ComposedLayout(Swizzle(1, 0, 1), 1, Layout(4, 1))
    >>> [C(i) for i in range(4)]
    [1, 3, 2, 4]
    >>> C(None)
    ComposedLayout(Swizzle(1, 0, 1), 1, Layout(4, 1))
    """

    __slots__ = ("outer", "offset", "inner")

    def __init__(self, outer, offset, inner):
        if not isinstance(outer, (Swizzle, Layout)):
            raise LayoutError(f"ComposedLayout: outer must be a Swizzle or a Layout, got {type(outer).__name__}")
        if not isinstance(inner, Layout):
            raise LayoutError(f"ComposedLayout: inner must be a Layout, got {type(inner).__name__}")
        offset = offset if type(offset) is Dyn else as_int(offset, "ComposedLayout offset")  # CuTe IR's `A o ? o B`
        object.__setattr__(self, "outer", outer)
        object.__setattr__(self, "offset", offset)
        object.__setattr__(self, "inner", inner)

    def __setattr__(self, name, value):
        raise AttributeError("ComposedLayout is immutable")

    shape = property(lambda self: self.inner.shape, doc="Shape of the inner layout.")
    stride = property(lambda self: self.inner.stride, doc="Stride of the inner layout.")
    size = property(lambda self: self.inner.size, doc="Size of the inner layout.")
    cosize = property(lambda self: self.inner.cosize, doc="Cosize of the inner layout (CuTe C++).")
    rank = property(lambda self: self.inner.rank, doc="Rank of the inner layout.")
    depth = property(lambda self: self.inner.depth, doc="Depth of the inner layout.")

    def __len__(self):
        return self.inner.rank

    def __getitem__(self, i):
        return ComposedLayout(self.outer, self.offset, self.inner[i])

    def __call__(self, *crd):
        c = crd[0] if len(crd) == 1 else crd
        if _has_none(_normalize_coord(c)):
            sub, off = slice_and_offset(c, self.inner)
            return ComposedLayout(self.outer, self.offset + off, sub)
        if type(self.offset) is Dyn or type(self.outer) is DynLayout:
            check_bound(self)
        return self.outer(self.offset + self.inner(*crd))

    def index_map(self):
        """``self(i)`` for every 1-D coordinate, vectorised.

        >>> ComposedLayout(Swizzle(1, 0, 1), 0, Layout(4, 1)).index_map().tolist()
        [0, 1, 3, 2]
        """
        values = self.inner.index_map()
        if self.offset:
            if values.size:
                check_int64(int(values.min()) + self.offset, int(values.max()) + self.offset, f"{self}: offsets")
            values = values + self.offset
        if isinstance(self.outer, Swizzle):
            return self.outer(values)
        return at(*self.outer.flat()[:2], values)

    def __eq__(self, other):
        return (
            type(other) is ComposedLayout
            and self.outer == other.outer
            and self.offset == other.offset
            and self.inner == other.inner
        )

    def __hash__(self):
        return hash((self.outer, self.offset, self.inner))

    def __repr__(self):
        return f"ComposedLayout({self.outer!r}, {self.offset!r}, {self.inner!r})"

    def __str__(self):
        return f"{self.outer} o {self.offset} o {self.inner}"


def swizzle_layout(sw: Swizzle) -> ComposedLayout:
    """A bare ``Swizzle`` as a layout: ``Sw o 0 o (2^B, W):(W, 1)`` with ``W = 2^(M+|S|)``.

    Row ``r``, column ``j`` holds ``Sw(r * W + j)``: each row is one value of
    the swizzle's high bits, which permutes that row's units of ``2^M``
    elements (the usual picture of a swizzled shared-memory tile). The layout
    covers the swizzle's whole block: its size is ``sw.size``.

    **Post-condition:** ``swizzle_layout(sw)(r, j) == sw(r * W + j)`` for
    ``r < 2^B``, ``j < W``.

    >>> str(swizzle_layout(Swizzle(2, 0, 2)))
    'Sw<2,0,2> o 0 o (4,4):(4,1)'
    >>> str(swizzle_layout(Swizzle(3, 4, 3)))
    'Sw<3,4,3> o 0 o (8,128):(128,1)'
    """
    if not isinstance(sw, Swizzle):
        raise LayoutError(f"swizzle_layout: expected a cute.Swizzle, got {type(sw).__name__}")
    width = 1 << (sw.base + abs(sw.shift))
    return ComposedLayout(sw, 0, Layout((sw.size // width, width), (width, 1)))
