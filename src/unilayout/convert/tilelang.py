"""TileLang -> linear and CuTe: proved over the whole domain, or the element that breaks it.

A TileLang layout is an arbitrary expression map; it *is* a linear layout or
a CuTe layout only if its table is one. Both conversions tabulate the value
over its whole input box (vectorised), fit the target from the unit inputs
and check every element; the first element where the fit fails is named in
the ``NotRepresentableError``.

- ``Layout`` -> linear: in-dims ``dim0, dim1, ..`` (the input dims), out-dims
  ``out0, ..`` (the output dims); -> CuTe: one mode per input dim, the value
  the buffer offset (the output coordinate flattened row-major), through a
  swizzle when the offsets are a GF(2) map (``linear_to_cute``).
- ``Fragment`` -> linear: in-dims ``register`` (the index in the thread's
  buffer), ``lane`` and ``warp`` (thread ``= lane + 32 * warp``), out-dims
  ``dim0, ..`` (the element); -> CuTe: the (thread, value) -> element layout
  (the element as its column-major index in the tile, CuTe's TV convention).

>>> from unilayout import tilelang
>>> F = tilelang.parse("Fragment((8, 8) -> (2,), replicate: 1, thread: 32, forward_thread: _i * 4 + _j // 2, "
...                    "forward_index: (_j % 2,))")
>>> tilelang_to_cute(F)
Layout(((4, 8), 2), ((16, 1), 8))
"""

from __future__ import annotations

import math

import numpy as np

from .. import cute
from .._ints import is_pow2
from ..cute.fit import fit_layout
from ..errors import LayoutError, NotRepresentableError
from ..linear import LinearLayout
from ..linear import evaluate as linear_evaluate
from ..tilelang import Fragment, Layout
from .cute_linear import linear_to_cute

__all__ = ["tilelang_to_linear", "tilelang_to_cute"]


def _need_pow2(sizes, what):
    for s in sizes:
        if not is_pow2(s):
            raise NotRepresentableError(f"tilelang -> linear: {what} {s} is not a power of two")


def _fit_linear(in_sizes, lookup, out_names, out_sizes, what):
    """A ``LinearLayout`` fitted from the unit inputs of ``lookup`` ({in-dim: int array} -> (n, outs) values),
    then checked on every input; the first input where the XOR of bases differs is named."""
    names = [n for n, _ in in_sizes]
    sizes = [s for _, s in in_sizes]
    _need_pow2(sizes, "the input extent")
    for o, size in zip(out_names, out_sizes):
        _need_pow2([size], f"the output extent of {o}")
    zero = {n: np.zeros(1, dtype=np.int64) for n in names}
    bases = {n: [[int(v) for v in lookup({**zero, n: np.array([1 << j])})[0]] for j in range(s.bit_length() - 1)]
             for n, s in in_sizes}
    for n, vecs in bases.items():
        for j, vec in enumerate(vecs):
            for o, v, size in zip(out_names, vec, out_sizes):
                if not 0 <= v < size:
                    raise NotRepresentableError(f"{what}: not a linear layout: {n}={1 << j} gives {o}={v}, outside "
                                                f"[0, {size})")
    L = LinearLayout(bases, dict(zip(out_names, out_sizes)), require_surjective=False)
    grid = [g.reshape(-1) for g in np.meshgrid(*[np.arange(s) for s in sizes], indexing="ij")]
    env = dict(zip(names, grid))
    want = lookup(env)
    out = linear_evaluate(L, env)
    got = np.stack([np.broadcast_to(out[o], grid[0].shape) for o in out_names], axis=1)
    bad = np.argwhere((got != want).any(axis=1))
    if bad.size:
        k = int(bad[0][0])
        where = ", ".join(f"{n}={int(g[k])}" for n, g in zip(names, grid))
        raise NotRepresentableError(f"{what}: not a linear layout: at {where} the value is "
                                    f"{tuple(int(v) for v in want[k])}, the XOR of its input bits' values gives "
                                    f"{tuple(int(v) for v in got[k])}")
    return L


def _fragment_table(F):
    """``(threads, registers, rank)``: the element (input coordinate) of every (thread, register) slot."""
    if F.thread_extent is None:
        raise NotRepresentableError("tilelang: the fragment's thread extent is unbounded (pos_inf)")
    nt, nr = F.thread_extent, math.prod(F.output_shape)
    if None in F.output_shape or nr < 1 or nt < 1:
        raise NotRepresentableError(f"tilelang: the fragment's buffer {F.output_shape} or threads {nt} are empty")
    threads, local = F.thread_map(), F.local_index()
    rank = len(F.input_shape)
    crd = np.stack(np.unravel_index(np.arange(F.size), F.input_shape), axis=-1)
    table = np.full((nt, nr, rank), -1, dtype=np.int64)
    for r in range(F.replicate):
        t = threads[:, r]
        if t.min() < 0 or t.max() >= nt or local.min() < 0 or local.max() >= nr:
            raise NotRepresentableError("tilelang: a thread or buffer index falls outside its extent")
        table[t, local] = crd
    holes = np.argwhere((table < 0).any(axis=-1))
    if holes.size:
        t, v = (int(x) for x in holes[0])
        raise NotRepresentableError(f"tilelang: thread {t} register {v} holds no element (the fragment is not a "
                                    "full (thread, register) -> element map)")
    return table


def tilelang_to_linear(x):
    """The ``LinearLayout`` of a TileLang value, proved element by element (module docstring).

    >>> from unilayout import tilelang
    >>> L = tilelang_to_linear(tilelang.parse("Layout((4, 4) -> (4, 4), transform: (_i, _j) -> (_j, "
    ...                                        "T.bitwise_xor(_i, _j)))"))
    >>> L.bases
    [('dim0', [[0, 1], [0, 2]]), ('dim1', [[1, 1], [2, 2]])]
    """
    if isinstance(x, Layout):
        if None in x.output_shape:
            raise NotRepresentableError("tilelang -> linear: an output dim is unbounded (pos_inf)")
        t = x.index_map().reshape(*x.input_shape, -1)
        ins = [(f"dim{k}", s) for k, s in enumerate(x.input_shape)]
        return _fit_linear(ins, lambda env: t[tuple(env[n] for n, _ in ins)],
                           [f"out{k}" for k in range(len(x.output_shape))], list(x.output_shape), "tilelang -> linear")
    if isinstance(x, Fragment):
        table = _fragment_table(x)
        nt, nr = table.shape[:2]
        lanes = min(nt, 32)
        _need_pow2([nt, nr], "the thread count or buffer size")
        ins = [("register", nr), ("lane", lanes), ("warp", nt // lanes)]
        return _fit_linear(ins, lambda env: table[env["lane"] + lanes * env["warp"], env["register"]],
                           [f"dim{k}" for k in range(len(x.input_shape))], list(x.input_shape), "tilelang -> linear")
    raise LayoutError(f"tilelang_to_linear: expected a TileLang Layout or Fragment, got {type(x).__name__}")


def _first_non_additive(table):
    """The first index where ``table`` is not the sum of its axes through the origin, or None."""
    pred = np.full(table.shape, table.flat[0] * (1 - table.ndim), dtype=np.int64)
    for k in range(table.ndim):
        idx = [0] * table.ndim
        idx[k] = slice(None)
        shape = [1] * table.ndim
        shape[k] = table.shape[k]
        pred = pred + table[tuple(idx)].reshape(shape)
    bad = np.argwhere(pred != table)
    return None if not bad.size else tuple(int(v) for v in bad[0])


def tilelang_to_cute(x):
    """The CuTe layout of a TileLang value, proved element by element (module docstring).

    >>> from unilayout import tilelang
    >>> tilelang_to_cute(tilelang.parse("Layout((4, 8) -> (32,), transform: (_i, _j) -> (_j * 4 + _i,))"))
    Layout((4, 8), (1, 4))
    """
    if isinstance(x, Layout):
        if None in x.output_shape:
            raise NotRepresentableError("tilelang -> cute: an output dim is unbounded (pos_inf)")
        table = x.offsets().reshape(x.input_shape)
        bad = _first_non_additive(table)
        if bad is None:
            layout, offset = fit_layout(table, what="tilelang -> cute")
            if offset == 0:
                return layout
            if table.min() < 0:
                raise NotRepresentableError(f"tilelang -> cute: the offsets start at {offset} and go below 0")
            return cute.ComposedLayout(cute.Swizzle(0, 0, 0), offset, layout)
        try:  # a GF(2) map of the offsets: CuTe's swizzles
            ins = [(f"dim{k}", s) for k, s in enumerate(x.input_shape)]
            flat = _fit_linear(ins, lambda env: table[tuple(env[n] for n, _ in ins)].reshape(-1, 1), ["offset"],
                               [1 << max(int(table.max()), 1).bit_length()], "tilelang -> cute")
            return linear_to_cute(flat)
        except NotRepresentableError:
            raise NotRepresentableError(f"tilelang -> cute: the offsets are not a sum of per-dim strides (at "
                                        f"{bad} the offset is {int(table[bad])}) nor a swizzle of such") from None
    if isinstance(x, Fragment):
        table = _fragment_table(x)
        rows = x.input_shape[0]
        if len(x.input_shape) > 2:
            raise NotRepresentableError("tilelang -> cute: a TV layout here covers a 1-D or 2-D tile")
        pos = table[..., 0] + (rows * table[..., 1] if table.shape[2] == 2 else 0)  # column-major, as CuTe's tiles
        bad = _first_non_additive(pos)
        if bad is not None:
            raise NotRepresentableError(f"tilelang -> cute: (thread, value) -> element is not a CuTe layout: at "
                                        f"thread {bad[0]} value {bad[1]} it is element {tuple(table[bad])}")
        layout, offset = fit_layout(pos, what="tilelang -> cute")
        if offset:
            raise NotRepresentableError(f"tilelang -> cute: thread 0 value 0 holds element {tuple(table[0, 0])}")
        return layout
    raise LayoutError(f"tilelang_to_cute: expected a TileLang Layout or Fragment, got {type(x).__name__}")


#: This file's pairs for ``convert_to``'s table.
PAIRS = {("tilelang", "linear"): tilelang_to_linear, ("tilelang", "cute"): tilelang_to_cute}
