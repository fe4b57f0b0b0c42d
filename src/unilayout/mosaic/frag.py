"""Mosaic GPU's two layouts that are not tilings: ``WGStridedFragLayout`` and ``WGSplatFragLayout``.

``WGStridedFragLayout(shape, vec_size)`` flattens the array row-major and
deals vectors of ``vec_size`` consecutive elements to the 128 threads of a
warpgroup in turn: thread ``t`` holds, in register ``r``, the elements
``(r * 128 + t) * vec_size + e``. ``WGSplatFragLayout(shape)`` is a value
broadcast to ``shape``: each thread holds one register (the same value),
whatever the shape. Both follow jax's ``fragmented_array`` (checks and
messages).

>>> S = WGStridedFragLayout((128, 8), 4)
>>> S.registers_shape((128, 8)), str(S)
((2,), '#mosaic_gpu.WGStridedFragLayout<[128, 8], 4>')
>>> o = S.owners((128, 8))
>>> int(o["thread"][516]), int(o["register"][516]), int(o["element"][516])
(1, 1, 0)
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import LayoutError, NotRepresentableError
from .layout import WARPGROUP_SIZE, _evaluate, _int, _ints

__all__ = ["WGStridedFragLayout", "WGSplatFragLayout", "Fragmented", "split_flat"]


def _shape_repr(shape):
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


class WGStridedFragLayout:
    """The array flattened and dealt out in vectors of ``vec_size`` to the 128 threads (jax's class of that name).

    >>> WGStridedFragLayout((100,), 2)
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: (WGStridedFragLayout(shape=(100,), vec_size=2), 128)
    """

    __slots__ = ("shape", "vec_size")

    def __init__(self, shape, vec_size):
        object.__setattr__(self, "shape", _ints(shape, "shape"))
        object.__setattr__(self, "vec_size", _int(vec_size, "vec_size"))
        if self.vec_size <= 0 or math.prod(self.shape) % (self.vec_size * WARPGROUP_SIZE):
            raise LayoutError(f"({self.jax_repr()}, {WARPGROUP_SIZE})")

    def __setattr__(self, name, value):
        raise AttributeError("WGStridedFragLayout is immutable")

    def __eq__(self, other):
        return isinstance(other, WGStridedFragLayout) and (self.shape, self.vec_size) == (other.shape, other.vec_size)

    def __hash__(self):
        return hash(("WGStridedFragLayout", self.shape, self.vec_size))

    def __str__(self):
        return f"#mosaic_gpu.WGStridedFragLayout<[{', '.join(map(str, self.shape))}], {self.vec_size}>"

    def __repr__(self):
        return f"<mosaic {self}>"

    def jax_repr(self) -> str:
        """jax's dataclass ``repr``, as its messages show it.

        >>> WGStridedFragLayout((256,), 2).jax_repr()
        'WGStridedFragLayout(shape=(256,), vec_size=2)'
        """
        return f"WGStridedFragLayout(shape={_shape_repr(self.shape)}, vec_size={self.vec_size})"

    @property
    def vector_length(self) -> int:
        """Elements per register (``vec_size``)."""
        return self.vec_size

    replication_factor = 1

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
        """``(registers,)``: the array's size over 128 vectors (the shape must be the layout's own, as jax)."""
        if _ints(shape, "shape") != self.shape:
            raise LayoutError(f"Shape {_shape_repr(tuple(shape))} is not compatible with {self.jax_repr()}")
        return (math.prod(self.shape) // (WARPGROUP_SIZE * self.vec_size),)

    def modes(self, shape):
        """``(thread modes, value modes)`` as ``TiledLayout.modes`` (``(size, dim, step)``, least significant first).

        >>> WGStridedFragLayout((16, 64), 2).modes((16, 64))
        ([(32, 1, 2), (4, 0, 1)], [(2, 1, 1), (4, 0, 4)])
        """
        self.registers_shape(shape)
        v, n = self.vec_size, math.prod(self.shape)
        return (split_flat([(WARPGROUP_SIZE, v)], self.shape),
                split_flat([(v, 1), (n // (WARPGROUP_SIZE * v), WARPGROUP_SIZE * v)], self.shape))

    def owners(self, shape) -> dict:
        """Who holds each element (row-major): ``thread``, ``warp``, ``lane``, ``register``, ``element``, ``value``."""
        self.registers_shape(shape)
        f = np.arange(math.prod(self.shape), dtype=np.int64)
        v = self.vec_size
        thread = (f // v) % WARPGROUP_SIZE
        return {"warp": thread // 32, "lane": thread % 32, "thread": thread, "register": f // (WARPGROUP_SIZE * v),
                "element": f % v, "value": (f // (WARPGROUP_SIZE * v)) * v + f % v}

    def replica_threads(self) -> np.ndarray:
        """No replicas: ``[0]``."""
        return np.zeros(1, dtype=np.int64)

    def coordinates(self, shape) -> np.ndarray:
        """The element each (thread, value) holds: int64 ``(128, values, rank)``.

        >>> WGStridedFragLayout((256,), 2).coordinates((256,))[1].tolist()
        [[2], [3]]
        """
        self.registers_shape(shape)
        nreg = math.prod(self.shape) // (WARPGROUP_SIZE * self.vec_size)
        f = np.arange(WARPGROUP_SIZE)[:, None, None] * self.vec_size + \
            (np.arange(nreg)[:, None] * WARPGROUP_SIZE * self.vec_size + np.arange(self.vec_size)[None, :])[None]
        f = f.reshape(WARPGROUP_SIZE, -1)
        return np.stack(np.unravel_index(f, self.shape), axis=-1).astype(np.int64)


class WGSplatFragLayout:
    """One value broadcast to ``shape``: every thread holds it in its one register (jax's class of that name).

    >>> S = WGSplatFragLayout((4, 8))
    >>> str(S), S.registers_shape((4, 8)), S.replication_factor
    ('#mosaic_gpu.WGSplatFragLayout<[4, 8]>', (), 128)
    """

    __slots__ = ("shape",)

    def __init__(self, shape=()):
        object.__setattr__(self, "shape", _ints(shape, "shape"))

    def __setattr__(self, name, value):
        raise AttributeError("WGSplatFragLayout is immutable")

    def __eq__(self, other):
        return isinstance(other, WGSplatFragLayout) and self.shape == other.shape

    def __hash__(self):
        return hash(("WGSplatFragLayout", self.shape))

    def __str__(self):
        return f"#mosaic_gpu.WGSplatFragLayout<[{', '.join(map(str, self.shape))}]>"

    def __repr__(self):
        return f"<mosaic {self}>"

    def jax_repr(self) -> str:
        """jax's dataclass ``repr``.

        >>> WGSplatFragLayout((2,)).jax_repr()
        'WGSplatFragLayout(shape=(2,))'
        """
        return f"WGSplatFragLayout(shape={_shape_repr(self.shape)})"

    vector_length = 1
    replication_factor = WARPGROUP_SIZE

    def registers_shape(self, shape) -> tuple:
        """``()``: one register, whatever the shape (as jax)."""
        return ()

    def can_broadcast_to(self, shape) -> bool:
        """Whether the splat broadcasts to ``shape`` (trailing dims equal or 1), as jax.

        >>> WGSplatFragLayout((1, 8)).can_broadcast_to((4, 4, 8))
        True
        """
        shape = _ints(shape, "shape")
        return len(self.shape) <= len(shape) and all(a == b or a == 1 for a, b in zip(self.shape[::-1], shape[::-1]))

    def owners(self, shape) -> dict:
        """Every element: register 0 of thread 0 (and of every other thread: ``replica_threads``)."""
        z = np.zeros(math.prod(_ints(shape, "shape")), dtype=np.int64)
        return {"warp": z, "lane": z, "thread": z, "register": z, "element": z, "value": z}

    def replica_threads(self) -> np.ndarray:
        """All 128 threads hold the value."""
        return np.arange(WARPGROUP_SIZE, dtype=np.int64)

    def modes(self, shape):
        """A splat has no modes: no element has a place of its own (NotRepresentableError)."""
        raise NotRepresentableError("a WGSplatFragLayout holds one value for the whole array: every element is the "
                                    "same register of every thread, so no (thread, value) maps to an element")


def split_flat(modes, shape):
    """Modes over the row-major flat index of ``shape`` as ``(size, dim, step)`` modes over its dims.

    A mode that crosses a dim boundary is split there (it must fill the dim
    exactly); else NotRepresentableError.

    >>> split_flat([(16, 2)], (4, 8))
    [(4, 1, 2), (4, 0, 1)]
    """
    shape = tuple(shape)
    row = [math.prod(shape[d + 1:]) for d in range(len(shape))]
    out = []
    for n, s in modes:
        while n > 1:
            d = next((d for d in range(len(shape)) if s >= row[d] and s < row[d] * shape[d]), None)
            if d is None or s % row[d] or shape[d] % (s // row[d]):
                raise NotRepresentableError(f"a mode of {n} steps of {s} (row-major) does not fit the dims {shape}")
            local = s // row[d]
            room = shape[d] // local
            if n <= room:
                out.append((n, d, local))
                break
            if n % room:
                raise NotRepresentableError(f"a mode of {n} steps of {s} (row-major) does not fit the dims {shape}")
            out.append((room, d, local))
            n, s = n // room, row[d] * shape[d]
    return out


def evaluate_modes(tmodes, vmodes, rank):
    """The coordinate of each (thread, value) from its modes: int64 ``(threads, values, rank)``.

    >>> evaluate_modes([(2, 0, 1)], [(2, 1, 1)], 2).tolist()
    [[[0, 0], [0, 1]], [[1, 0], [1, 1]]]
    """
    return _evaluate(tmodes, vmodes, rank)


class Fragmented:
    """A register layout on an array of a given ``shape`` (what a ``--shape`` makes of a ``TiledLayout``).

    It answers as its layout does with the shape filled in; ``str`` is the
    layout's attribute text.

    >>> from unilayout import mosaic
    >>> f = Fragmented(mosaic.WGMMA, (128, 16))
    >>> f.registers_shape(), f.shape
    ((2, 2, 1, 1, 2, 1, 1, 1, 1), (128, 16))
    """

    __slots__ = ("layout", "shape")

    def __init__(self, layout, shape):
        shape = _ints(shape, "shape")
        if isinstance(layout, Fragmented):
            layout = layout.layout
        if not hasattr(layout, "registers_shape"):
            raise LayoutError(f"expected a Mosaic GPU register layout, got {type(layout).__name__}")
        layout.registers_shape(shape)  # jax's checks: the tiling applies to the shape
        object.__setattr__(self, "layout", layout)
        object.__setattr__(self, "shape", shape)

    def __setattr__(self, name, value):
        raise AttributeError("Fragmented is immutable")

    def __eq__(self, other):
        return isinstance(other, Fragmented) and (self.layout, self.shape) == (other.layout, other.shape)

    def __hash__(self):
        return hash(("Fragmented", self.layout, self.shape))

    def __str__(self):
        return str(self.layout)

    def __repr__(self):
        return f"<mosaic {self.layout} on {'x'.join(map(str, self.shape))}>"

    @property
    def vector_length(self):
        """The layout's elements per register."""
        return self.layout.vector_length

    @property
    def replication_factor(self):
        """The layout's holders per element."""
        return self.layout.replication_factor

    def registers_shape(self, shape=None):
        """The layout's ``registers_shape`` of this array."""
        return self.layout.registers_shape(self.shape if shape is None else shape)

    def owners(self, shape=None):
        """The layout's ``owners`` of this array."""
        return self.layout.owners(self.shape if shape is None else shape)

    def modes(self, shape=None):
        """The layout's ``modes`` over this array."""
        return self.layout.modes(self.shape if shape is None else shape)

    def coordinates(self, shape=None):
        """The layout's ``coordinates`` over this array."""
        return self.layout.coordinates(self.shape if shape is None else shape)

    def replica_threads(self):
        """The layout's ``replica_threads``."""
        return self.layout.replica_threads()


