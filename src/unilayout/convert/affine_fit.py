"""Affine maps on a box -> CuTe, TSL and linear layouts: fitted to the table, then verified.

An affine map has no domain of its own, so each conversion takes the box
``shape``, tabulates the map there (at most ``MAX_POINTS`` points) and fits
the target's form to the table: per dim a hierarchical CuTe mode for CuTe
and TSL, the values at the powers of two for a linear layout. The whole
table is then compared with the fitted layout, so the answer is exact or a
``NotRepresentableError`` saying where it breaks.

>>> from unilayout import affine
>>> str(affine_to_cute(affine.parse("(d0, d1) -> (d0 * 4 + d1)"), (2, 4)))
'(2,4):(4,1)'
"""

from __future__ import annotations

import math

import numpy as np

from .._ints import as_shape, check_table, is_pow2, next_pow2
from ..affine import AffineMap
from ..cute.fit import fit_layout
from ..errors import LayoutError, NotRepresentableError
from ..linear import LinearLayout
from ._common import MAX_POINTS, _name
from .to_tsl import cute_to_tsl

__all__ = ["affine_to_cute", "affine_to_tsl", "affine_to_linear"]


def _box(m, shape, what, hint=""):
    """``shape`` checked as the box of the map ``m`` (an AffineMap without symbols, one size per dim)."""
    if not isinstance(m, AffineMap):
        raise LayoutError(f"{what}: expected an AffineMap, got {_name(m)}")
    if shape is None:
        raise LayoutError(f"{what}: an affine map has no box of its own; pass shape (one size per dim)")
    if m.num_symbols:
        raise NotRepresentableError(f"{what}: {m} has symbols; substitute them first{hint}")
    shape = as_shape(shape, f"{what}: shape")
    if len(shape) != m.num_dims:
        raise LayoutError(f"{what}: {m} has {m.num_dims} dim(s) but the box {shape} has {len(shape)}")
    return shape


def _affine_table(m, shape, what):
    shape = _box(m, shape, what, " (replace(symbols=...))")
    if m.num_results != 1:
        raise NotRepresentableError(f"{what}: {m} has {m.num_results} results; this target has one offset")
    n = check_table(math.prod(shape), f"{what}: the box {shape}", MAX_POINTS)
    if n == 0 or not len(shape):
        raise NotRepresentableError(f"{what}: the box {tuple(shape)} is empty or has no dims")
    return m.index_map(shape)[:, 0].reshape(tuple(shape))


def affine_to_cute(m, shape):
    """The CuTe layout of a one-result affine map on the box ``shape``, where its values are CuTe-strided.

    Dim ``i`` becomes mode ``i``; each dim's values are fitted to a
    hierarchical mode (``(s0,s1,..):(d0,d1,..)``, colexicographic) and the
    whole table is then checked, so the result is exact or an error.

    **Pre-conditions** (else ``NotRepresentableError``): one result, no
    symbols, at most ``MAX_POINTS`` points, 0 at the origin (CuTe keeps
    offsets in the pointer; ``affine_to_tsl`` keeps it), each dim's values a
    hierarchical CuTe mode and the dims contributing independently.

    **Post-condition**: ``L(*c) == m(*c)[0]`` for every ``c`` in the box.

    >>> from unilayout import affine
    >>> str(affine_to_cute(affine.parse("(d0, d1) -> ((d0 floordiv 4) * 32 + (d0 mod 4) * 4 + d1)"), (8, 4)))
    '((4,2),4):((4,32),1)'
    >>> affine_to_cute(affine.parse("(d0) -> (d0 mod 3 + d0 floordiv 2)"), (6,))
    Traceback (most recent call last):
    ...
    unilayout.errors.NotRepresentableError: affine_to_cute, dim 0: not a CuTe mode: blocks of 2 do not repeat by a stride
    """
    table = _affine_table(m, shape, "affine_to_cute")
    L, base = fit_layout(table, what="affine_to_cute")
    if base != 0:
        raise NotRepresentableError(
            f"affine_to_cute: {m} is {base} at the origin: a CuTe layout maps 0 to 0 (use affine_to_tsl to keep the offset)"
        )
    return L


def affine_to_tsl(m, shape):
    """The TSL of a one-result affine map on the box ``shape`` (fitted as ``affine_to_cute``; the origin value is the offset).

    **Pre-conditions**: those of ``affine_to_cute`` except the origin value.

    **Post-condition**: ``t(*c) == m(*c)[0]`` for every ``c`` in the box.

    >>> from unilayout import affine
    >>> str(affine_to_tsl(affine.parse("(d0, d1) -> (d0 * 8 + d1 + 5)"), (4, 8)))
    '#tsl.tsl<[4] -> (8), [8] -> (1), offset: 5>'
    """
    table = _affine_table(m, shape, "affine_to_tsl")
    L, base = fit_layout(table, what="affine_to_tsl")
    return cute_to_tsl(L, offset=base)


def affine_to_linear(m, shape, in_dims=None, out_dims=None):
    """The linear layout of an affine map on a power-of-two box, when it is GF(2)-linear there.

    Dims become in-dims ``dim0, ..`` (or ``in_dims``), results out-dims
    ``out0, ..`` (or ``out_dims``, names), sized to the next power of two
    above each result's maximum. The bases are the values at the powers of
    two; the whole table is then compared with their XORs.

    **Pre-conditions** (else ``NotRepresentableError``): power-of-two box,
    no symbols, values >= 0, 0 at the origin, and GF(2)-linear on the box.

    **Post-condition**: ``L.apply(dict(zip(in_dims, x)))`` gives ``m(*x)`` on the box.

    >>> from unilayout import affine
    >>> affine_to_linear(affine.parse("(d0, d1) -> (d1, d0 * 2)"), (2, 4)).bases
    [('dim0', [[0, 2]]), ('dim1', [[1, 0], [2, 0]])]
    >>> affine_to_linear(affine.parse("(d0) -> (d0 + 1)"), (4,))
    Traceback (most recent call last):
    ...
    unilayout.errors.NotRepresentableError: affine_to_linear: (d0) -> (d0 + 1) is (1,) at the origin: a linear layout maps 0 to 0
    """
    what = "affine_to_linear"
    shape = _box(m, shape, what)
    for i, s in enumerate(shape):
        if not is_pow2(s):
            raise NotRepresentableError(f"{what}: size {s} of dim {i} is not a power of two: pad to {next_pow2(max(s, 1))}")
    check_table(math.prod(shape), f"{what}: the box {shape}", MAX_POINTS)
    table = m.index_map(shape)
    if table.size and table.min() < 0:
        raise NotRepresentableError(f"{what}: {m} takes negative values on {shape}: linear layouts reach only >= 0")
    origin = m(*([0] * len(shape)))
    if any(origin):
        raise NotRepresentableError(f"{what}: {m} is {origin} at the origin: a linear layout maps 0 to 0")
    names = list(in_dims) if in_dims is not None else [f"dim{i}" for i in range(len(shape))]
    onames = list(out_dims) if out_dims is not None else [f"out{j}" for j in range(m.num_results)]
    if len(names) != len(shape) or len(onames) != m.num_results:
        raise LayoutError(f"{what}: give one in-dim name per dim and one out-dim name per result")
    bases = {}
    for i, s in enumerate(shape):
        vecs = []
        for k in range(s.bit_length() - 1):
            x = [0] * len(shape)
            x[i] = 1 << k
            vecs.append(list(m(*x)))
        bases[names[i]] = vecs
    maxes = table.max(axis=0) if table.size else np.zeros(m.num_results, dtype=np.int64)
    outs = {o: next_pow2(int(v) + 1) for o, v in zip(onames, maxes)}
    L = LinearLayout(bases, outs, require_surjective=False)
    # compare in the same (row-major) order as the table
    lin = L.index_map().reshape(tuple(reversed(shape)) + (m.num_results,))
    lin = lin.transpose(tuple(reversed(range(len(shape)))) + (len(shape),)).reshape(-1, m.num_results)
    if not np.array_equal(lin, table):
        bad = int(np.flatnonzero((lin != table).any(axis=1))[0])
        x = tuple(int(v) for v in np.unravel_index(bad, shape))
        raise NotRepresentableError(
            f"{what}: {m} is not GF(2)-linear on {shape}: at {x} it is {tuple(table[bad].tolist())} but the XOR "
            f"of its values at the powers of two is {tuple(lin[bad].tolist())}"
        )
    return L


#: This file's pairs for ``convert_to``'s table (``convert_to`` passes an affine source's ``shape``).
PAIRS = {("affine", "cute"): affine_to_cute, ("affine", "tsl"): affine_to_tsl, ("affine", "linear"): affine_to_linear}
