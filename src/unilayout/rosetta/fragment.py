"""A distributed fragment as every system spells it, reduced to one table: (thread, value) -> (row, col).

The systems disagree on how to write a fragment but not on what it is: each
thread of the instruction holds some values, each value one element of the
operand's tile. ``Fragment.coords[t, v]`` is that element as ``(row, col)``
of the operand as a matrix — A is ``M x K``, B is ``K x N``, C is ``M x N``
(Triton's and PTX's orientation; CuTe's B, written ``(n, k)``, is turned). A
thread is ``lane + 32 * warp`` (``lane + 64 * warp`` on a 64-wide AMD
wavefront); a value is CuTe's value index, Triton's register.

>>> from unilayout import cute
>>> f = from_cute_tv(cute.mma_atom("SM80_16x8x16_F32F16F16F32_TN").layout_c, (16, 8))
>>> f.coords.shape, f.coords[1].tolist()
((32, 4, 2), [[0, 2], [0, 3], [8, 2], [8, 3]])
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .. import _families
from ..errors import LayoutError

__all__ = ["Fragment", "from_cute_tv", "from_linear", "from_tilelang", "fragment"]


class Fragment(NamedTuple):
    """``coords`` int64 ``(threads, values, 2)``: the (row, col) each thread's value holds; ``shape`` the tile.

    ``system`` and ``spelling`` say where it came from (``"cute"``, ``"SM80_16x8x16_F32F16F16F32_TN"``).

    >>> import numpy as np
    >>> Fragment(np.zeros((1, 1, 2), dtype=np.int64), (1, 1), "toy", "t").shape
    (1, 1)
    """

    coords: np.ndarray
    shape: tuple
    system: str = ""
    spelling: str = ""

    @property
    def threads(self) -> int:
        return self.coords.shape[0]

    @property
    def values(self) -> int:
        return self.coords.shape[1]


def from_cute_tv(tv, shape, transpose=False, system="cute", spelling=""):
    """A CuTe (thread, value) -> ``m + M * n`` layout over a ``shape = (M, N)`` tile as a ``Fragment``.

    ``transpose`` turns CuTe's ``(n, k)`` B operand into ``(k, n)``: the
    fragment's shape is then ``(N, M)`` of the given one.

    >>> from unilayout import cute
    >>> f = from_cute_tv(cute.Layout(((2, 2), 2), ((2, 8), 1)), (4, 4))
    >>> f.coords[:, 0].tolist()
    [[0, 0], [2, 0], [0, 2], [2, 2]]
    """
    from .. import cute  # lazy: the cute family loads only for CuTe values

    if not isinstance(tv, cute.Layout) or not isinstance(tv.shape, tuple) or len(tv.shape) != 2:
        raise LayoutError(f"rosetta: a CuTe fragment is a rank-2 (thread, value) layout, got {tv}")
    rows, cols = (int(s) for s in shape)
    nt, nv = cute.size(tv.shape[0]), cute.size(tv.shape[1])
    pos = np.asarray(tv.index_map(), dtype=np.int64).reshape(nv, nt).T
    if pos.size and (pos.min() < 0 or pos.max() >= rows * cols):
        raise LayoutError(f"rosetta: {tv} reaches {int(pos.max())}, outside the {rows}x{cols} tile")
    r, c = pos % rows, pos // rows
    coords = np.stack([c, r] if transpose else [r, c], axis=-1)
    return Fragment(coords, (cols, rows) if transpose else (rows, cols), system, spelling or str(tv))


def from_linear(L, system="triton", spelling="", threads=None):
    """A linear layout ``(register, lane, warp[, block]) -> (dim0, dim1)`` as a ``Fragment``.

    Thread ``lane + lanes * warp`` (warps of block 0), value = register;
    ``threads`` keeps the first that many (an instruction's own threads).

    >>> from unilayout import linear
    >>> L = linear.LinearLayout({"register": [[0, 1]], "lane": [[1, 0], [2, 0]]}, {"dim0": 4, "dim1": 2})
    >>> from_linear(L).coords[3].tolist()
    [[3, 0], [3, 1]]
    """
    from ..linear import LinearLayout, evaluate  # lazy: the linear family loads only for its values

    if not isinstance(L, LinearLayout):
        raise LayoutError(f"rosetta: expected a LinearLayout, got {type(L).__name__}")
    outs = L.out_dim_names
    if len(outs) != 2:
        raise LayoutError(f"rosetta: a fragment covers a 2-D tile, this layout has out-dims {outs}")
    size = dict(L.in_dims)
    for name in size:
        if name not in ("register", "lane", "warp", "block"):
            raise LayoutError(f"rosetta: a distributed layout has register/lane/warp/block in-dims, not {name!r}")
    nr, nl, nw = size.get("register", 1), size.get("lane", 1), size.get("warp", 1)
    r, lane, w = np.meshgrid(np.arange(nr), np.arange(nl), np.arange(nw), indexing="ij")
    ins = {"register": r, "lane": lane, "warp": w, "block": np.zeros_like(r)}
    out = evaluate(L, {k: ins[k] for k in size})
    coords = _by_thread(out, outs, nr, nl, nw)
    t = nl * nw
    if threads is not None:
        if threads > t:
            raise LayoutError(f"rosetta: the layout has {t} threads, fewer than the instruction's {threads}")
        coords = coords[:threads]
    shape = (L.out_dim_size(outs[0]), L.out_dim_size(outs[1]))
    return Fragment(coords, shape, system, spelling)


def from_tilelang(F, transpose=False, system="tilelang", spelling=""):
    """A TileLang ``Fragment`` (element -> thread, index in its buffer) as a ``Fragment`` (first replica).

    ``transpose`` turns TileLang's ``(n, k)`` B buffer into ``(k, n)``.

    >>> from unilayout import tilelang
    >>> F = tilelang.parse("Fragment((2, 2) -> (2,), replicate: 1, thread: 2, forward_thread: _i, forward_index: (_j,))")
    >>> from_tilelang(F).coords.tolist()
    [[[0, 0], [0, 1]], [[1, 0], [1, 1]]]
    """
    if len(F.input_shape) != 2 or F.thread_extent is None or None in F.output_shape:
        raise LayoutError(f"rosetta: a fragment here is a 2-D tile over a bounded thread count, not {F}")
    nt, nv = F.thread_extent, int(np.prod(F.output_shape))
    t, v = F.thread_map()[:, 0], F.local_index()
    rows, cols = F.input_shape
    i, j = np.divmod(np.arange(rows * cols), cols)
    coords = np.full((nt, nv, 2), -1, dtype=np.int64)
    coords[t, v] = np.stack([j, i] if transpose else [i, j], axis=-1)
    if (coords < 0).any():
        raise LayoutError(f"rosetta: {F} leaves some (thread, value) slots without an element")
    return Fragment(coords, (cols, rows) if transpose else (rows, cols), system, spelling or str(F))


def _by_thread(out, outs, nr, nl, nw):
    """``(threads, registers, 2)`` with thread ``lane + nl * warp`` from arrays indexed ``[register, lane, warp]``."""
    c = np.stack([np.asarray(out[outs[0]]), np.asarray(out[outs[1]])], axis=-1)  # (nr, nl, nw, 2)
    c = np.broadcast_to(c, (nr, nl, nw, 2))
    return np.ascontiguousarray(c.transpose(2, 1, 0, 3).reshape(nw * nl, nr, 2))


def fragment(x, shape=None, operand=None, threads=None):
    """Any system's fragment as a ``Fragment``: one already, a linear layout or Triton encoding text (on its
    tensor), a CuTe (thread, value) layout with ``shape``, or a plug-in value with ``to_linear(shape)``.

    ``operand="B"`` turns a CuTe layout's ``(n, k)`` into ``(k, n)``.

    >>> import unilayout
    >>> f = fragment("tensor<16x8xf32, #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], "
    ...              "instrShape = [16, 8]}>>")
    >>> f.shape, f.threads, f.values
    ((16, 8), 32, 4)
    """
    if isinstance(x, Fragment):
        return x
    if isinstance(x, str):
        text = x
        x = _families.read(x)
        if _families.family_of(x) == "linear":
            return from_linear(x, "triton", text, threads)
    fam = _families.family_of(x) if _is_value(x) else None
    if fam == "linear":
        return from_linear(x, "triton", "", threads)
    if fam == "tilelang":
        return from_tilelang(x, transpose=operand == "B")
    if fam == "cute":
        if shape is None:
            raise LayoutError("rosetta: a CuTe (thread, value) layout needs the tile shape (M, N)")
        return from_cute_tv(x, shape, transpose=operand == "B")
    if hasattr(x, "to_linear") and shape is not None:
        return from_linear(x.to_linear(shape), fam or type(x).__name__, str(x), threads)
    raise LayoutError(f"rosetta: cannot read a fragment from a {type(x).__name__}")


def _is_value(x) -> bool:
    try:
        _families.family_of(x)
    except LayoutError:
        return False
    return True
