"""``unilayout.equivalent``: is ``b`` the same function as ``a``, on the same domain, across families?

Values of one family compare by the family's own notion (``==``, then linear
layouts by the image of every input bit, metal layouts and devices by their
``equivalent``). Across families ``b`` is seen as a's family sees it: both
are tabulated on their domains, lined up by the conventions of
``unilayout.convert`` (natural coordinates against a box; CuTe's 1-D order
against a linear layout's flattened input; out-dims flattened against one
offset). CuTe and linear layouts on a power-of-two 1-D domain are compared
by the images of their input bits, exactly, at any size.

Two affine maps without a box are compared **exactly over all integers**: a
quasi-affine map is its linear part plus a part periodic in every variable
(``unilayout.affine.linear_part``), so the maps are equal iff their linear
parts are and they agree on one period box ``[0, P_i)`` (symbols taken as
more variables):

>>> from unilayout import affine
>>> equivalent(affine.parse("(d0) -> (d0 mod 4)"), affine.parse("(d0) -> (d0 - (d0 floordiv 4) * 4)"))
True
>>> equivalent(affine.parse("(d0) -> ((d0 floordiv 2) * 2)"), affine.parse("(d0) -> (d0)"))
False
"""

from __future__ import annotations

import math

import numpy as np

from .._families import record
from .._ints import MAX_TABLE, as_shape, is_pow2, product
from ..affine import AffineMap, Dim, linear_part
from ..errors import LayoutError, NotRepresentableError
from .cute_linear import cute_to_linear

__all__ = ["equivalent", "affine_maps_equal"]

#: Default cap on the points ``equivalent`` tabulates on each side (``unilayout.MAX_COMPARE_POINTS``).
MAX_POINTS = 1 << 24


def _linear_equivalent(a, b) -> bool:
    """Same in-dims (names, sizes), same out-dim names, same image of every input bit (orders ignored)."""
    if dict(a.in_dims) != dict(b.in_dims) or set(a.out_dim_names) != set(b.out_dim_names):
        return False
    bb = dict(b.bases)
    bo = b.out_dim_names
    for name, vecs in a.bases:
        for va, vb in zip(vecs, bb[name]):
            if dict(zip(a.out_dim_names, va)) != dict(zip(bo, vb)):
                return False
    return True


def _fit_box(box, ndims):
    """``box`` with ``ndims`` entries, dropping size-1 entries if needed; None if impossible."""
    box = tuple(int(v) for v in box)
    if len(box) == ndims:
        return box
    squeezed = tuple(v for v in box if v != 1)
    return squeezed if len(squeezed) == ndims else None


def _colex(table, shape):
    """A row-major table over ``shape`` reordered colexicographically (first extent fastest), (N, k)."""
    k = table.shape[1] if table.ndim == 2 else 1
    t = table.reshape(tuple(shape) + (k,))
    return t.transpose(tuple(reversed(range(len(shape)))) + (len(shape),)).reshape(-1, k)


def _view(x, fam, box, max_points):
    """The function tabulated over its box: (N, k) int64 values, first extent fastest (colexicographic)."""
    n = product(box)
    if n > max_points:
        raise LayoutError(f"equivalent: {n} points are more than {max_points} to compare one by one")
    if fam == "cute":
        return record(x).index_map(x, None).reshape(-1, 1)  # a bare swizzle on [0, size)
    if fam == "linear":
        return x.index_map()
    if fam == "tsl":
        if x.is_dynamic:
            x = x.resolve(box)
        return _colex(x.index_map(), x.shape)
    if fam == "affine":
        return _colex(x.index_map(box), box)
    if fam == "metal":
        return _colex(x.index_map(), x.logical_shape)
    if fam == "xla":  # XLA's linear index over the dims
        return _colex(x.offsets().reshape(-1, 1), x.dims)
    return _colex(x.physical_cores().reshape(-1, 3), x.grid_shape)  # device


def _bit_images(x, fam):
    """The flattened image of each input bit (1-D order) if ``x`` is GF(2)-linear there, else None."""
    if fam == "cute":
        if not is_pow2(x.size):
            return None
        try:
            x = cute_to_linear(x, in_dims="i")
        except NotRepresentableError:
            return None
    return [v for _, vals in x.flat_bases() for v in vals]


def _flatten_outs(values, sizes):
    out = np.zeros(values.shape[0], dtype=np.int64)
    shift = 0
    for j, s in enumerate(sizes):
        out |= values[:, j] << shift
        shift += s.bit_length() - 1
    return out.reshape(-1, 1)


def affine_maps_equal(a: AffineMap, b: AffineMap, max_points: int = MAX_TABLE) -> bool:
    """True iff the affine maps ``a`` and ``b`` are the same function on all integer dims and symbols.

    Same numbers of dims, symbols and results; the same exact linear part
    (``affine.linear_part``); and the same values on one common period box
    ``[0, P_i)`` (``P_i`` the lcm of both maps' periods), evaluated
    vectorised with the symbols as extra dims. The difference of two maps
    with equal linear parts is periodic, so agreeing on one period box is
    agreeing everywhere.

    **Pre-conditions** (else ``LayoutError``): no symbol as a factor or a
    divisor; the period box has at most ``max_points`` points (the message
    names it: compare on a box with ``equivalent(.., shape=)`` instead).

    >>> from unilayout import affine
    >>> affine_maps_equal(affine.parse("(d0) -> ((d0 floordiv 2) floordiv 2)"), affine.parse("(d0) -> (d0 floordiv 4)"))
    True
    >>> affine_maps_equal(affine.parse("(d0)[s0] -> (d0 + s0)"), affine.parse("(d0)[s0] -> (s0 + d0 + 1)"))
    False
    """
    if (a.num_dims, a.num_symbols, a.num_results) != (b.num_dims, b.num_symbols, b.num_results):
        return False
    la, lb = linear_part(a), linear_part(b)
    if la.coefficients != lb.coefficients:
        return False
    periods = tuple(math.lcm(p, q) for p, q in zip(la.periods, lb.periods))
    n = product(periods)
    if n * max(a.num_results, 1) > max_points:
        raise LayoutError(
            f"equivalent: the period box {periods} of {a} and {b} has {n} points, more than {max_points} to "
            "compare: pass shape= to compare them on a box"
        )
    nv = a.num_dims + a.num_symbols
    as_dims = [Dim(a.num_dims + j) for j in range(a.num_symbols)]

    def table(m):
        m = m.replace(symbols=as_dims, num_dims=nv, num_symbols=0) if m.num_symbols else m
        return m.index_map(periods)

    return bool(np.array_equal(table(a), table(b)))


def equivalent(a, b, shape=None, *, max_points=MAX_POINTS) -> bool:
    """The implementation of ``unilayout.equivalent`` (see there), tabulating at most ``max_points`` per side.

    >>> from unilayout import cute
    >>> equivalent(cute.parse("(2,4):(1,2)"), cute.parse("8:1"))
    True
    """
    fa, fb = record(a).name, record(b).name
    if shape is not None:
        shape = as_shape(shape, "equivalent: shape")
    if fa == fb:
        if a == b:
            return True
        if fa == "linear":
            return _linear_equivalent(a, b)
        if fa in ("metal", "device"):
            return a.equivalent(b)
        if fa == "affine" and shape is None:
            return affine_maps_equal(a, b, max_points)
    own_a, own_b = record(a).box(a), record(b).box(b)
    box_a = own_a or shape or own_b
    box_b = own_b or shape or own_a
    if box_a is None or box_b is None:
        if "affine" in (fa, fb):
            raise LayoutError("equivalent: an affine map is compared with a value without a box: pass shape=")
        raise NotRepresentableError(
            f"equivalent: {a} and {b} have '?' values and no box to resolve them: pass shape=, or compare with =="
        )
    for fam, x, which in ((fa, a, "a"), (fb, b, "b")):
        box = box_a if which == "a" else box_b
        if fam == "affine":
            if x.num_symbols:
                raise LayoutError(f"equivalent: {x} has symbols: substitute them first")
            box = _fit_box(box, x.num_dims)
        elif fam == "tsl" and x.is_dynamic:
            box = _fit_box(box, x.rank)
            if box is not None:
                try:
                    x.resolve(box)
                except LayoutError:
                    box = None
        if box is None:
            return False
        if which == "a":
            box_a = box
        else:
            box_b = box
    if {fa, fb} <= {"cute", "linear"}:
        if product(box_a) != product(box_b):
            return False
        # on a power-of-two 1-D domain, compare the images of the input bits (no tabulation)
        ba, bb = _bit_images(a, fa), _bit_images(b, fb)
        if ba is not None or bb is not None:
            return ba == bb
    elif tuple(v for v in box_a if v != 1) != tuple(v for v in box_b if v != 1):
        return False
    va = _view(a, fa, box_a, max_points)
    vb = _view(b, fb, box_b, max_points)
    if va.shape[1] != vb.shape[1]:
        # one offset against a linear layout's several out-dims: flatten them, first least significant
        if fa == "linear" and vb.shape[1] == 1:
            va = _flatten_outs(va, [s for _, s in a.out_dims])
        elif fb == "linear" and va.shape[1] == 1:
            vb = _flatten_outs(vb, [s for _, s in b.out_dims])
        elif fa == "metal" and vb.shape[1] == len(a.shards_shape):
            va = np.stack(np.unravel_index(va[:, 0], a.shards_shape), axis=1).astype(np.int64)
        elif fb == "metal" and va.shape[1] == len(b.shards_shape):
            vb = np.stack(np.unravel_index(vb[:, 0], b.shards_shape), axis=1).astype(np.int64)
        else:
            return False
    return bool(np.array_equal(va, vb))
