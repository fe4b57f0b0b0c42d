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

import numpy as np

from .._families import record
from .._ints import as_shape, product
from ..affine.quasi_affine import affine_maps_equal
from ..errors import LayoutError, NotRepresentableError
from . import convert_to

__all__ = ["equivalent", "affine_maps_equal"]  # affine_maps_equal: moved to affine.quasi_affine

#: Default cap on the points ``equivalent`` tabulates on each side (``unilayout.MAX_COMPARE_POINTS``).
MAX_POINTS = 1 << 24


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
    """The function tabulated over ``box``: (N, k) int64 values, first extent fastest (colexicographic)."""
    n = product(box)
    if n > max_points:
        raise LayoutError(f"equivalent: {n} points are more than {max_points} to compare one by one")
    if fam.box(x) is None:  # a value that takes its box (an affine map, a TSL with '?')
        x = fam.with_shape(x, box)
    table = fam.index_map(x, box if fam.box(x) is None else None)
    table = table.reshape(table.shape[0], -1)
    return _colex(table, box) if fam.index_order == "C" else table


def _bits(x, fam):
    """The flattened image of each input bit (1-D order) if ``x`` is GF(2)-linear there, else None: the family's
    own ``bits``, or those of its exact linear layout."""
    bits = fam.bits(x)
    if bits is None and fam.name != "linear":
        try:
            lin = convert_to(x, "linear")
        except LayoutError:  # not GF(2)-linear, or no pair to linear: compare by the tables
            return None
        bits = record(lin).bits(lin)
    return bits


def equivalent(a, b, shape=None, *, max_points=MAX_POINTS) -> bool:
    """The implementation of ``unilayout.equivalent`` (see there), tabulating at most ``max_points`` per side.

    Written once over the family records: ``same`` (a family's own exact test), ``box`` / ``box_rank`` /
    ``with_shape`` (the domains), ``index_map`` and ``index_order`` (the tables), ``flat_domain`` and ``bits``
    (1-D domains compared by the images of their input bits) and ``values_as`` (several values per point against
    one).

    >>> from unilayout import cute
    >>> equivalent(cute.parse("(2,4):(1,2)"), cute.parse("8:1"))
    True
    """
    fa, fb = record(a), record(b)
    if shape is not None:
        shape = as_shape(shape, "equivalent: shape")
    if fa is fb:
        if a == b:
            return True
        same = fa.same(a, b, shape)
        if same is not None:
            return bool(same)
    own_a, own_b = fa.box(a), fb.box(b)
    box_a = own_a or shape or own_b
    box_b = own_b or shape or own_a
    if box_a is None or box_b is None:
        raise NotRepresentableError(
            f"equivalent: {a} and {b} have no box of their own to resolve them on (an affine map, '?' values): "
            "pass shape=, or compare with =="
        )
    boxes = []
    for fam, x, box, own in ((fa, a, box_a, own_a), (fb, b, box_b, own_b)):
        if own is None:  # the value takes the box it is compared on
            box = _fit_box(box, fam.box_rank(x))
            if box is not None:
                try:
                    fam.with_shape(x, box)
                except LayoutError:
                    box = None
            if box is None:
                return False
        boxes.append(box)
    box_a, box_b = boxes
    if fa.flat_domain and fb.flat_domain:
        if product(box_a) != product(box_b):
            return False
        # on a power-of-two 1-D domain, compare the images of the input bits (no tabulation)
        ba, bb = _bits(a, fa), _bits(b, fb)
        if ba is not None or bb is not None:
            return ba == bb
    elif tuple(v for v in box_a if v != 1) != tuple(v for v in box_b if v != 1):
        return False
    va = _view(a, fa, box_a, max_points)
    vb = _view(b, fb, box_b, max_points)
    if va.shape[1] != vb.shape[1]:  # e.g. one offset against a linear layout's several out-dims
        wa, wb = fa.values_as(a, va, vb.shape[1]), fb.values_as(b, vb, va.shape[1])
        if wa is not None:
            va = wa
        elif wb is not None:
            vb = wb
        else:
            return False
    return bool(np.array_equal(va, vb))
