"""The dimensions of a TSL: ``Stride(bound, step)`` (one level of tiling) and ``TiledStride`` (a dimension as
tiles of tiles, levels outermost -> innermost).

A coordinate ``i`` of a dimension is split mixed-radix by the bounds (the
outermost digit most significant) and each digit is multiplied by its level's
step; ``None`` stands for MLIR's ``?`` (a dynamic value).

>>> t = TiledStride([Stride(2, 32), Stride(4, 4)])
>>> str(t), t.bounds, t.steps, t.contributions().tolist()
('[2, 4] -> (32, 4)', (2, 4), (32, 4), [0, 4, 8, 12, 32, 36, 40, 44])
"""

from __future__ import annotations

import numpy as np

from .._ints import as_int, check_table
from ..errors import LayoutError

__all__ = ["Stride", "TiledStride"]


def _int_or_none(value, what):
    """``None`` (TSL's ``?``) as it is, else ``as_int(value, what)``."""
    return None if value is None else as_int(value, what)


def _fmt(v):
    return "?" if v is None else str(v)


class _Frozen:
    __slots__ = ()

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name):
        raise AttributeError(f"{type(self).__name__} is immutable")


class Stride(_Frozen):
    """One tiling level: ``bound`` digits, each ``step`` apart (``None`` = ``?``).

    ``bound >= 1``; ``step`` is any integer (0 broadcasts). Positional order is
    (bound, step), as in the text ``bound -> step``.

    >>> Stride(4, 8), str(Stride(None, 1)), Stride(bound=4, step=8).all_values()
    (Stride(bound=4, step=8), '? -> 1', [0, 8, 16, 24])
    """

    __slots__ = ("bound", "step")

    def __init__(self, bound=None, step=None):
        b = _int_or_none(bound, "Stride bound")
        s = _int_or_none(step, "Stride step")
        if b is not None and b < 1:
            raise LayoutError(f"Stride bound must be >= 1 (or None for '?'), got {b}")
        object.__setattr__(self, "bound", b)
        object.__setattr__(self, "step", s)

    def is_dynamic(self) -> bool:
        """True iff the bound or the step is ``?``.

        >>> Stride(4, None).is_dynamic(), Stride(4, 1).is_dynamic()
        (True, False)
        """
        return self.bound is None or self.step is None

    def all_values(self) -> list:
        """The offsets ``[0, step, .., step * (bound - 1)]`` (static only).

        >>> Stride(3, -2).all_values()
        [0, -2, -4]
        """
        if self.is_dynamic():
            raise LayoutError(f"Stride {self} is dynamic; its values are unknown")
        return [self.step * i for i in range(self.bound)]

    def __eq__(self, other):
        return type(other) is Stride and (self.bound, self.step) == (other.bound, other.step)

    def __hash__(self):
        return hash(("Stride", self.bound, self.step))

    def __repr__(self):
        return f"Stride(bound={self.bound!r}, step={self.step!r})"

    def __str__(self):
        return f"{_fmt(self.bound)} -> {_fmt(self.step)}"

    def __reduce__(self):
        return (Stride, (self.bound, self.step))


class TiledStride(_Frozen):
    """The levels of one dimension, outermost -> innermost; only level 0 may have a ``?`` bound.

    >>> ts = TiledStride([Stride(2, 32), Stride(4, 4)])
    >>> str(ts), ts.bounds, ts.steps, ts.size, ts.depth
    ('[2, 4] -> (32, 4)', (2, 4), (32, 4), 8, 2)
    >>> TiledStride.from_stride(24, [2, 6, 4]).steps
    (576, 96, 24)
    """

    __slots__ = ("strides",)

    def __init__(self, strides):
        if isinstance(strides, Stride):
            strides = [strides]
        try:
            items = list(strides)
        except TypeError:
            raise LayoutError(f"TiledStride: expected a sequence of Stride, got {strides!r}") from None
        out = []
        for k, s in enumerate(items):
            if isinstance(s, Stride):
                out.append(s)
            elif isinstance(s, tuple) and len(s) == 2:
                out.append(Stride(*s))
            else:
                raise LayoutError(f"TiledStride: level {k} must be a Stride or a (bound, step) pair, got {s!r}")
        if not out:
            raise LayoutError("TiledStride: needs at least one level")
        for k, s in enumerate(out[1:], start=1):
            if s.bound is None:
                raise LayoutError(f"TiledStride: only the outermost bound may be '?', but level {k} is")
        object.__setattr__(self, "strides", tuple(out))

    @staticmethod
    def from_stride(step, bounds) -> "TiledStride":
        """Dense tiles: ``step`` for the innermost level, ``step_k = step_{k+1} * bound_{k+1}`` outward.

        A ``?`` propagates outward.

        >>> str(TiledStride.from_stride(1, [None, 4, 8]))
        '[?, 4, 8] -> (32, 8, 1)'
        >>> str(TiledStride.from_stride(None, [2, 4]))
        '[2, 4] -> (?, ?)'
        """
        try:
            bs = [_int_or_none(b, "bound") for b in bounds]
        except TypeError:
            raise LayoutError(f"from_stride: bounds must be a sequence, got {bounds!r}") from None
        if not bs:
            raise LayoutError("from_stride: needs at least one bound")
        cur = _int_or_none(step, "step")
        steps = []
        for b in reversed(bs):
            steps.append(cur)
            cur = None if cur is None or b is None else cur * b
        return TiledStride([Stride(b, s) for b, s in zip(bs, reversed(steps))])

    @property
    def bounds(self) -> tuple:
        """Bounds outer -> inner (None for ``?``). ``TiledStride([Stride(2, 4)]).bounds == (2,)``."""
        return tuple(s.bound for s in self.strides)

    @property
    def steps(self) -> tuple:
        """Steps outer -> inner (None for ``?``). ``TiledStride([Stride(2, 4)]).steps == (4,)``."""
        return tuple(s.step for s in self.strides)

    @property
    def depth(self) -> int:
        """Number of levels. ``TiledStride([Stride(2, 4), Stride(3, 1)]).depth == 2``."""
        return len(self.strides)

    @property
    def size(self):
        """Product of the bounds (None if one is ``?``). ``TiledStride([Stride(2, 4), Stride(3, 1)]).size == 6``."""
        n = 1
        for b in self.bounds:
            if b is None:
                return None
            n *= b
        return n

    def is_dynamic(self) -> bool:
        """True iff a bound or step is ``?``. ``TiledStride([Stride(None, 4)]).is_dynamic() is True``."""
        return any(s.is_dynamic() for s in self.strides)

    def tile_bounds(self) -> list:
        """Bounds outer -> inner as a list. ``TiledStride([Stride(2, 4), Stride(3, 1)]).tile_bounds() == [2, 3]``."""
        return list(self.bounds)

    def __iter__(self):
        return iter(self.strides)

    def __len__(self):
        return len(self.strides)

    def __getitem__(self, k):
        return self.strides[k]

    def __eq__(self, other):
        return type(other) is TiledStride and self.strides == other.strides

    def __hash__(self):
        return hash(("TiledStride", self.strides))

    def __repr__(self):
        return f"TiledStride([{', '.join(map(repr, self.strides))}])"

    def __str__(self):
        return f"[{', '.join(map(_fmt, self.bounds))}] -> ({', '.join(map(_fmt, self.steps))})"

    def __reduce__(self):
        return (TiledStride, (list(self.strides),))

    def contributions(self) -> np.ndarray:
        """int64 array: the offset of each coordinate ``0 .. size-1`` of this dimension (static only).

        >>> TiledStride([Stride(2, 32), Stride(4, 4)]).contributions().tolist()
        [0, 4, 8, 12, 32, 36, 40, 44]
        """
        if self.is_dynamic():
            raise LayoutError(f"{self} is dynamic: resolve it first")
        n = 1
        for s in self.strides:
            n *= s.bound
        check_table(n, f"contributions of {self}")
        if sum(abs(s.step) * max(s.bound - 1, 0) for s in self.strides) > (1 << 63) - 1:
            raise LayoutError(f"contributions of {self}: offsets do not fit in int64")
        acc = np.zeros(1, dtype=np.int64)
        for s in self.strides:
            acc = (acc[:, None] + np.arange(s.bound, dtype=np.int64)[None, :] * s.step).reshape(-1)
        return acc
