"""The TSL value: ``TiledStridedLayout``, one ``TiledStride`` per tensor dimension (``tsl.stride``) plus an offset.

A ``TiledStride`` describes one tensor dimension as tiles of tiles: levels
listed outermost -> innermost, each a ``Stride(bound, step)``. A coordinate
``i`` of the dimension is split mixed-radix by the bounds (the outermost
digit most significant) and each digit is multiplied by its level's step.
``None`` stands for MLIR's ``?`` (a dynamic value).

>>> t = TiledStridedLayout([TiledStride([Stride(2, 32), Stride(4, 4)]), TiledStride([Stride(2, 16), Stride(4, 1)])])
>>> str(t)
'#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1)>'
>>> t(5, 6)           # 5 = 1*4 + 1, 6 = 1*4 + 2: 32 + 4 + 16 + 2
54
"""

from __future__ import annotations

import numpy as np

from .._ints import check_table
from ..errors import LayoutError
from .stride import Stride, TiledStride, _fmt, _Frozen, _int_or_none  # noqa: F401 (Stride, TiledStride: re-exported)

__all__ = ["Stride", "TiledStride", "TiledStridedLayout"]



class TiledStridedLayout(_Frozen):
    """A tiled-strided layout: one ``TiledStride`` per dimension plus an ``offset`` (None = ``?``).

    ``t(*crd)`` is ``offset + sum over dims and levels of step * digit``.
    ``str()`` is the ``#tsl.tsl<...>`` attribute and parses back to an equal value.

    >>> t = TiledStridedLayout.parse("#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5>")
    >>> t.shape, t.offset, t(0, 1), t.index_map()[:8].tolist()
    ((8, 8), 5, 6, [5, 6, 7, 8, 21, 22, 23, 24])
    """

    __slots__ = ("tstrides", "offset")

    def __init__(self, tstrides, offset=0):
        if isinstance(tstrides, TiledStride):
            tstrides = [tstrides]
        try:
            items = list(tstrides)
        except TypeError:
            raise LayoutError(f"TiledStridedLayout: expected a sequence of TiledStride, got {tstrides!r}") from None
        out = []
        for d, ts in enumerate(items):
            if not isinstance(ts, TiledStride):
                try:
                    ts = TiledStride(ts)
                except LayoutError as e:
                    raise LayoutError(f"TiledStridedLayout dim {d}: {e}") from None
            out.append(ts)
        if not out:
            raise LayoutError("TiledStridedLayout: needs at least one dimension")
        object.__setattr__(self, "tstrides", tuple(out))
        object.__setattr__(self, "offset", _int_or_none(offset, "TiledStridedLayout offset"))

    # ``TiledStridedLayout.parse`` is ``tsl.text.parse``, attached by the text module (which imports this one).

    @staticmethod
    def from_strides(strides, tile_bounds, offset=0) -> "TiledStridedLayout":
        """One dense ``TiledStride.from_stride(step, bounds)`` per dimension.

        >>> str(TiledStridedLayout.from_strides([4, 1], [[2, 4], [2, 4]]))
        '#tsl.tsl<[2, 4] -> (16, 4), [2, 4] -> (4, 1)>'
        """
        try:
            strides, tile_bounds = list(strides), list(tile_bounds)
        except TypeError:
            raise LayoutError("from_strides: strides and tile_bounds must be sequences (one per dimension), got "
                              f"{type(strides).__name__} and {type(tile_bounds).__name__}") from None
        if len(strides) != len(tile_bounds):
            raise LayoutError(f"from_strides: {len(strides)} strides but {len(tile_bounds)} lists of tile bounds")
        return TiledStridedLayout(
            [TiledStride.from_stride(s, b) for s, b in zip(strides, tile_bounds)], offset=offset
        )

    # --- value semantics -----------------------------------------------------
    def __eq__(self, other):
        return type(other) is TiledStridedLayout and (self.tstrides, self.offset) == (other.tstrides, other.offset)

    def __hash__(self):
        return hash(("TiledStridedLayout", self.tstrides, self.offset))

    def __repr__(self):
        return f"TiledStridedLayout.parse({str(self)!r})"

    def __str__(self):
        body = ", ".join(map(str, self.tstrides))
        if self.offset != 0:
            body += f", offset: {_fmt(self.offset)}"
        return f"#tsl.tsl<{body}>"

    def __reduce__(self):
        return (TiledStridedLayout, (list(self.tstrides), self.offset))

    def __iter__(self):
        """Yields ``(dim, level, Stride)`` in (dim, level) order.

        >>> [(d, k, str(s)) for d, k, s in TiledStridedLayout([[(2, 4), (4, 1)]])]
        [(0, 0, '2 -> 4'), (0, 1, '4 -> 1')]
        """
        for d, ts in enumerate(self.tstrides):
            for k, s in enumerate(ts.strides):
                yield d, k, s

    # --- structure -------------------------------------------------------------
    @property
    def rank(self) -> int:
        """Number of dimensions. ``TiledStridedLayout.parse('[4] -> (1), [2] -> (4)').rank == 2``."""
        return len(self.tstrides)

    def dimension(self) -> int:
        """snax's name for ``rank``. ``TiledStridedLayout.parse('[4] -> (1)').dimension() == 1``."""
        return len(self.tstrides)

    @property
    def shape(self) -> tuple:
        """Size of each dimension (None where a bound is ``?``).

        >>> TiledStridedLayout.parse("[?, 4] -> (?, 1), [3] -> (1)").shape
        (None, 3)
        """
        return tuple(ts.size for ts in self.tstrides)

    @property
    def size(self):
        """Number of points of the index box (None when dynamic).

        >>> TiledStridedLayout.parse("[2, 4] -> (32, 4), [2, 4] -> (16, 1)").size
        64
        """
        n = 1
        for s in self.shape:
            if s is None:
                return None
            n *= s
        return n

    @property
    def is_dynamic(self) -> bool:
        """True iff any bound, step or the offset is ``?`` (snax ignores the offset).

        >>> TiledStridedLayout.parse("[4] -> (1), offset: ?").is_dynamic
        True
        """
        return self.offset is None or any(ts.is_dynamic() for ts in self.tstrides)

    def get_stride(self, dim: int, level: int) -> Stride:
        """The ``Stride`` at (dim, level).

        >>> TiledStridedLayout.parse("[2, 4] -> (32, 4)").get_stride(0, 1)
        Stride(bound=4, step=4)
        """
        try:
            return self.tstrides[dim].strides[level]
        except (IndexError, TypeError):
            raise LayoutError(f"get_stride: no stride at dim {dim}, level {level} in {self}") from None

    def tile_bounds(self) -> list:
        """Per-dim lists of bounds, outer -> inner (None for ``?``).

        >>> TiledStridedLayout.parse("[?, 4] -> (?, 1), [8] -> (64)").tile_bounds()
        [[None, 4], [8]]
        """
        return [ts.tile_bounds() for ts in self.tstrides]

    def equal_tile_bounds(self, other: "TiledStridedLayout") -> bool:
        """True iff both layouts have the same tile bounds.

        >>> a = TiledStridedLayout.parse("[2, 4] -> (32, 4)")
        >>> a.equal_tile_bounds(TiledStridedLayout.parse("[2, 4] -> (4, 8)"))
        True
        """
        _check_tsl(other, "equal_tile_bounds")
        return self.tile_bounds() == other.tile_bounds()

    # --- evaluation --------------------------------------------------------------
    def _require_static(self, what):
        if self.is_dynamic:
            raise LayoutError(f"{what}: {self} is dynamic; call resolve(shape) first")

    def __call__(self, *crd) -> int:
        """Address of a natural coordinate (one int per dim), the offset included.

        >>> TiledStridedLayout.parse("[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5")(5, 6)
        59
        """
        self._require_static("address")
        if len(crd) == 1 and isinstance(crd[0], (tuple, list)):
            crd = tuple(crd[0])
        if len(crd) != self.rank:
            raise LayoutError(f"{self} has {self.rank} dim(s); got a coordinate with {len(crd)}")
        addr = self.offset
        for d, (c, ts) in enumerate(zip(crd, self.tstrides)):
            c = _int_or_none(c, "coordinate")
            if c is None or not 0 <= c < ts.size:
                raise LayoutError(f"coordinate {c} of dim {d} is outside [0, {ts.size})")
            for s in reversed(ts.strides):
                addr += s.step * (c % s.bound)
                c //= s.bound
        return addr

    def index_map(self) -> np.ndarray:
        """int64 (N,): the address of every point of the box, row-major (numpy C) order.

        Equals snax's ``all_values()`` plus the offset.

        >>> TiledStridedLayout.parse("[2, 4] -> (32, 4), [2, 4] -> (16, 1)").index_map()[:8].tolist()
        [0, 1, 2, 3, 16, 17, 18, 19]
        """
        self._require_static("index_map")
        span = abs(self.offset) + sum(abs(s.step) * (s.bound - 1) for _, _, s in self)
        if span > (1 << 63) - 1:
            raise LayoutError(f"index_map: the addresses of {self} do not fit in int64")
        check_table(self.size, f"index_map: {self} has {self.size} points")
        acc = np.full(1, self.offset, dtype=np.int64)
        for ts in self.tstrides:
            acc = (acc[:, None] + ts.contributions()[None, :]).reshape(-1)
        return acc

    def all_values(self) -> np.ndarray:
        """snax's ``all_values()``: the addresses without the offset, in ``index_map`` order.

        >>> TiledStridedLayout.parse("[2] -> (3), offset: 7").all_values().tolist()
        [0, 3]
        """
        self._require_static("all_values")
        return self.index_map() - self.offset

    # --- transformations ----------------------------------------------------------
    def resolve(self, shape, offset=None) -> "TiledStridedLayout":
        """Fill in ``?`` values for a concrete tensor ``shape`` (snax-mlir's lowering rule).

        A ``?`` outer bound becomes ``shape[d] / (product of inner bounds)``
        (must divide exactly). Then R = step * bound of the stride with the
        largest static step (1 if none); dims last -> first, levels inner ->
        outer, each ``?`` step gets R and R grows by its bound. A ``?`` offset
        takes ``offset=``.

        >>> t = TiledStridedLayout.parse("#tsl.tsl<[?, 4] -> (32, 4), [?, 4] -> (?, 1)>")
        >>> str(t.resolve((64, 64)))
        '#tsl.tsl<[16, 4] -> (32, 4), [16, 4] -> (512, 1)>'
        """
        try:
            shp = tuple(_int_or_none(n, "shape entry") for n in shape)
        except TypeError:
            raise LayoutError(f"resolve: shape must be a sequence of ints, got {shape!r}") from None
        if len(shp) != self.rank:
            raise LayoutError(f"resolve: {self} has {self.rank} dim(s) but the shape {shp} has {len(shp)}")
        bounds = []
        for d, (n, ts) in enumerate(zip(shp, self.tstrides)):
            if n is None or n < 1:
                raise LayoutError(f"resolve: dim {d} of the shape must be a positive int, got {n}")
            bs = list(ts.bounds)
            inner = 1
            for b in bs[1:]:
                inner *= b
            if bs[0] is None:
                if n % inner:
                    raise LayoutError(
                        f"resolve: dim {d} has size {n}, not a multiple of its inner tile size {inner}"
                    )
                bs[0] = n // inner
            elif bs[0] * inner != n:
                raise LayoutError(f"resolve: dim {d} has {bs[0] * inner} points ({ts}) but the shape says {n}")
            bounds.append(bs)
        best = None
        for d, k, s in self:
            if s.step is not None and (best is None or s.step > best[0]):
                best = (s.step, bounds[d][k])
        r = 1 if best is None else best[0] * best[1]
        steps = [list(ts.steps) for ts in self.tstrides]
        for d in reversed(range(self.rank)):
            for k in reversed(range(len(steps[d]))):
                if steps[d][k] is None:
                    steps[d][k] = r
                    r *= bounds[d][k]
        off = self.offset
        if off is None:
            off = _int_or_none(offset, "offset")
            if off is None:
                raise LayoutError(f"resolve: {self} has a '?' offset; pass offset=")
        return TiledStridedLayout(
            [TiledStride([Stride(b, s) for b, s in zip(bs, ss)]) for bs, ss in zip(bounds, steps)], off
        )

    def canonicalize(self) -> "TiledStridedLayout":
        """Same function, fewest levels: drop bound-1 levels, merge a level into the one inside it when dense.

        Per dim, levels inner -> outer: keep the innermost; drop an outer
        level of bound 1; merge an outer level whose static step equals
        ``step * bound`` of the current outermost kept (static) level.

        >>> str(TiledStridedLayout.parse("[1, 8, 8] -> (64, 8, 1), [2, 8] -> (512, 64), offset: 3").canonicalize())
        '#tsl.tsl<[64] -> (1), [16] -> (64), offset: 3>'
        """
        out = []
        for ts in self.tstrides:
            kept = [ts.strides[-1]]
            for s in reversed(ts.strides[:-1]):
                top = kept[0]
                if s.bound == 1:
                    continue
                if (
                    top.bound is not None
                    and top.step is not None
                    and s.step is not None
                    and s.step == top.step * top.bound
                ):
                    kept[0] = Stride(None if s.bound is None else s.bound * top.bound, top.step)
                else:
                    kept.insert(0, s)
            out.append(TiledStride(kept))
        return TiledStridedLayout(out, self.offset)

    # --- analyses and conversions (delegates) --------------------------------------
    def is_dense(self) -> bool:
        """No address repeats and the addresses fill ``[min, max]`` (offset-free, static only).

        >>> TiledStridedLayout.parse("[2, 4] -> (32, 4), [2, 4] -> (16, 1)").is_dense()
        True
        """
        from .analysis import is_dense  # lazy: the analysis imports this value (the value <-> analysis pair)

        return is_dense(self)

    def self_overlaps(self) -> bool:
        """Some address occurs at two points (static only).

        >>> TiledStridedLayout.parse("[2, 4] -> (16, 4), [2, 4] -> (16, 1)").self_overlaps()
        True
        """
        from .analysis import self_overlaps  # lazy: the analysis imports this value (the value <-> analysis pair)

        return self_overlaps(self)

    def largest_common_contiguous_block(self, other, starting_stride=1) -> list:
        """snax's common contiguous block with ``other``: ``Stride``s, innermost first.

        >>> a = TiledStridedLayout.parse("[2, 4] -> (16, 4), [2, 4] -> (32, 1)")
        >>> b = TiledStridedLayout.parse("[2, 4] -> (32, 4), [2, 4] -> (16, 1)")
        >>> [str(s) for s in a.largest_common_contiguous_block(b)]
        ['4 -> 1', '4 -> 4']
        """
        from .analysis import (
            largest_common_contiguous_block,  # lazy: the analysis imports this value (the value <-> analysis pair)
        )

        return largest_common_contiguous_block(self, other, starting_stride)

    def allocation_bytes(self, element="i32") -> int:
        """Bytes to allocate so every address (offset included) is in bounds: ``(max + 1) * element size``.

        >>> TiledStridedLayout.parse("[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5").allocation_bytes("f32")
        276
        """
        from .analysis import allocation_bytes  # lazy: the analysis imports this value (the value <-> analysis pair)

        return allocation_bytes(self, element)

    def dma_plan(self, destination, element="i32"):
        """The 2-D DMA decomposition of copying this layout to ``destination`` (see ``tsl.analysis.dma_plan``).

        >>> src = TiledStridedLayout.parse("[2, 4] -> (4, 1), [2, 4] -> (32, 8)")
        >>> src.dma_plan(TiledStridedLayout.parse("[2, 4] -> (16, 1), [2, 4] -> (32, 4)")).unit_bytes
        16
        """
        from .analysis import dma_plan  # lazy: the analysis imports this value (the value <-> analysis pair)

        return dma_plan(self, destination, element)

    def to_affine(self):
        """The address as a one-result ``AffineMap`` (offset included; ``?`` steps/offset become symbols).

        Level k of dim d contributes ``step * ((d mod M_k) floordiv F_k)`` with
        ``M_k`` the product of the bounds from level k inward and ``F_k`` of those
        inside it; the outermost level drops the ``mod``, factors 1 and bound-1
        levels vanish, and the offset comes last. ``?`` steps become symbols
        ``s0, s1, ..`` in (dim, level) order and a ``?`` offset the last symbol.

        **Post-condition** (static t): ``t.to_affine()(*crd) == (t(*crd),)`` on the box.

        >>> print(TiledStridedLayout.parse("[?, 4] -> (?, 1)").to_affine())
        (d0)[s0] -> ((d0 floordiv 4) * s0 + d0 mod 4)
        >>> print(TiledStridedLayout.parse("[2, 2, 8] -> (64, 32, 1)").to_affine())
        (d0) -> ((d0 floordiv 16) * 64 + ((d0 mod 16) floordiv 8) * 32 + d0 mod 8)
        """
        from ..affine import AffineMap, Constant, Dim, Symbol  # lazy: import time (tsl loads without affine)

        num_symbols = 0
        expr = Constant(0)
        for d, ts in enumerate(self.tstrides):
            bounds = ts.bounds
            for k, s in enumerate(ts.strides):
                if s.step is None:
                    step = Symbol(num_symbols)
                    num_symbols += 1
                else:
                    step = Constant(s.step)
                if s.bound == 1:
                    continue
                inner = 1
                for b in bounds[k + 1 :]:
                    inner *= b
                digit = Dim(d)
                if k > 0:
                    digit = digit % (inner * s.bound)
                if inner != 1:
                    digit = digit.floordiv(inner)
                expr = expr + digit * step
        if self.offset is None:
            expr = expr + Symbol(num_symbols)
            num_symbols += 1
        else:
            expr = expr + self.offset
        return AffineMap(self.rank, num_symbols, [expr])

    def to_cute(self):
        """Deprecated (a conversion, now ``unilayout.convert.tsl_to_cute``): the CuTe layout with the same function.

        >>> str(TiledStridedLayout.parse("[2, 4] -> (32, 4), [2, 4] -> (16, 1)").to_cute())
        '((4,2),(4,2)):((4,32),(1,16))'
        """
        from ..convert.tsl import tsl_to_cute  # lazy: deprecated delegate, moved to convert.tsl

        return tsl_to_cute(self)


def _check_tsl(other, what):
    if not isinstance(other, TiledStridedLayout):
        raise LayoutError(f"{what}: expected a TiledStridedLayout, got {type(other).__name__}")
