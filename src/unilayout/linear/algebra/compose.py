"""Composition and inverses: ``compose``, ``invert_and_compose`` (the conversion primitive),
``pseudoinvert`` and ``invert``.

``compose(a, b)`` is ``b ∘ a``; ``invert_and_compose(a, b)`` is ``b⁻¹ ∘ a``
solved over GF(2) (Triton's ``invertAndCompose``), and the inverses are
``invert_and_compose`` of an identity.

>>> from unilayout.linear import LinearLayout
>>> L = LinearLayout({"i": [[2], [1]]}, ["o"])
>>> compose(L, invert(L)) == LinearLayout({"i": [[1], [2]]}, {"i": 4})
True
"""

from __future__ import annotations

from ...errors import LayoutError
from .. import gf2
from ..layout import LinearLayout
from ._common import _check, _make, _split_flat
from .reshape import transpose_outs

__all__ = ["compose", "invert_and_compose", "invert", "pseudoinvert"]


def compose(layout: LinearLayout, outer: LinearLayout) -> LinearLayout:
    """``outer ∘ layout``: push every basis of ``layout`` through ``outer.apply``.

    **Pre-conditions:** ``layout``'s out-dim names equal ``outer``'s in-dim
    names as a set, and ``layout.out_dim_size(d) <= outer.in_dim_size(d)``.

    **Post-conditions:** ``R.apply(x) == outer.apply(layout.apply(x))``; R has
    ``layout``'s in-dims and ``outer``'s out-dims (names, order, sizes).

    >>> from unilayout.linear import LinearLayout
    >>> a = LinearLayout({"i": [[1], [2], [4]]}, ["x"])
    >>> compose(a, LinearLayout({"x": [[4], [1], [2]]}, ["y"]))
    LinearLayout({'i': [[4], [1], [2]]}, {'y': 8})
    """
    _check(layout, "compose")
    _check(outer, "compose")
    # first flattened column and bit count of each of outer's in-dims
    segments = {}
    c = 0
    for name, vecs in outer._bases:
        n = len(vecs)
        segments[name] = (c, n)
        c += n
    louts = layout._outs
    if len(louts) != len(segments) or not all(name in segments for name, _ in louts):
        raise LayoutError(
            f"compose: the out-dims of the inner layout {[n for n, _ in louts]} must be the in-dims of the "
            f"outer layout {list(segments)} (any order)"
        )
    ocols = outer._columns()
    # images[k + 1] = outer's image of bit k of the inner layout's flattened columns
    # (images[0] = 0), so a column with at most one bit maps with one lookup.
    images = [0]
    for name, size in louts:
        first, n = segments[name]
        if size > 1 << n:
            raise LayoutError(
                f"compose: out-dim {name!r} has size {size} but the outer layout's in-dim {name!r} only "
                f"{1 << n}: grow it with resize_in_dim({name!r}, {size})"
            )
        images += ocols[first:first + size.bit_length() - 1]
    cols = layout._columns()
    flats = []
    c = 0
    for _, vecs in layout._bases:
        n = len(vecs)
        flats.append([
            images[col.bit_length()] if col & (col - 1) == 0 else _image(col, images)
            for col in cols[c:c + n]
        ])
        c += n
    return _make(_split_flat(layout._bases, flats, outer._outs), outer._outs)


def _image(col: int, images: list[int]) -> int:
    """XOR of ``images[k + 1]`` over the set bits k of ``col``."""
    acc = 0
    while col:
        low = col & -col
        acc ^= images[low.bit_length()]
        col ^= low
    return acc


# ----------------------------------------------------- invert_and_compose
def invert_and_compose(layout: LinearLayout, outer: LinearLayout) -> LinearLayout:
    """C with ``outer(C(x)) == layout(x)`` for every x: C = outer⁻¹ ∘ layout (Triton ``invertAndCompose``).

    The conversion primitive: for a register layout A and a shared layout S,
    ``A.invert_and_compose(S)`` maps each register to the shared offset
    holding its element.

    Algorithm (Triton 3.9.0):

    1. *Identity dims*: an in-dim present in both layouts with equal bases,
       whose output bits no other in-dim of either layout touches, maps to
       itself, identically (so e.g. equal broadcast ``block`` dims stay put).
    2. The other bits are solved over GF(2): each basis of ``layout`` is
       written in the *pivot* bits of ``outer`` (those not in the span of
       earlier bits, flattened order); free bits are 0, so broadcast bits of
       ``outer`` are never used (the smallest offset).
    3. In-dims are ``layout``'s (its order); out-dims are ``outer``'s in-dims
       (its order and sizes). The result need not be surjective.

    **Pre-conditions:** the same out-dim names (any order); ``outer`` is
    surjective; ``layout.out_dim_size(d) <= outer.out_dim_size(d)``.

    **Post-conditions:** ``outer.apply(C.apply(x)) == layout.apply(x)``.

    >>> from unilayout.linear import LinearLayout
    >>> A = LinearLayout({"lane": [[1], [2]], "block": [[0]]}, {"dim0": 4})
    >>> B = LinearLayout({"lane": [[2], [1]], "block": [[0]]}, {"dim0": 4})
    >>> invert_and_compose(A, B)
    LinearLayout({'lane': [[2, 0], [1, 0]], 'block': [[0, 1]]}, {'lane': 4, 'block': 2})
    """
    _check(layout, "invert_and_compose")
    _check(outer, "invert_and_compose")
    an = [n for n, _ in layout._outs]
    bn = [n for n, _ in outer._outs]
    if set(an) != set(bn) or len(an) != len(bn):
        raise LayoutError(
            f"invert_and_compose: both layouts need the same out-dims (any order); got {an} and {bn}"
            + (f"; only in the first: {[n for n in an if n not in bn]}" if set(an) - set(bn) else "")
            + (f"; only in the outer: {[n for n in bn if n not in an]}" if set(bn) - set(an) else "")
        )
    asz = dict(layout._outs)
    bsz = dict(outer._outs)
    for d in an:
        if asz[d] > bsz[d]:
            raise LayoutError(
                f"invert_and_compose: out-dim {d!r} has size {asz[d]} but the outer layout's only {bsz[d]}, "
                "so its image does not cover this layout's: enlarge the outer layout"
            )
    if not outer.is_surjective():
        raise LayoutError(
            f"invert_and_compose: the outer layout is not surjective (rank {outer.rank} < "
            f"{outer.total_out_dim_size_log2} output bits), so some tensor elements have no preimage: "
            "use a surjective outer layout"
        )
    bt = outer if bn == an else transpose_outs(outer, an)
    # Columns of both layouts flattened over the outer layout's out-dims.
    shifts = bt._shifts()
    bcols = bt._columns()
    if asz == bsz:
        acols = layout._columns()
    else:
        acols = tuple(sum(e << s for e, s in zip(v, shifts)) for _, vecs in layout._bases for v in vecs)
    segments = []  # (name, first column, count) of the outer layout's in-dims
    c = 0
    for name, vecs in bt._bases:
        segments.append((name, c, len(vecs)))
        c += len(vecs)
    a_segments = {}
    c = 0
    for name, vecs in layout._bases:
        a_segments[name] = (c, len(vecs))
        c += len(vecs)
    identity = _identity_dims(layout, bt, acols, bcols, a_segments, segments)
    red_cols = []
    red_segments = []  # (name, offset in the reduced mask, count) for non-identity dims
    for name, c0, k in segments:
        if name in identity:
            continue
        red_segments.append((name, len(red_cols), k))
        red_cols.extend(bcols[c0:c0 + k])
    basis = gf2.ColumnBasis(red_cols)
    nb = len(segments)
    bidx = {name: k for k, (name, _, _) in enumerate(segments)}
    new_bases = []
    for name, _ in layout._bases:
        c0, k = a_segments[name]
        if name in identity:
            j = bidx[name]
            new_bases.append(
                (name, tuple(tuple((1 << i) if t == j else 0 for t in range(nb)) for i in range(k)))
            )
            continue
        out_vecs = []
        for col in acols[c0:c0 + k]:
            m = basis.express(col)
            if m is None:  # unreachable: the outer layout is surjective
                raise LayoutError(
                    f"invert_and_compose: a basis of in-dim {name!r} is not in the image of the outer layout"
                )
            out_vecs.append(tuple(_segment_values(m, red_segments, bidx, nb)))
        new_bases.append((name, tuple(out_vecs)))
    outs = tuple((name, 1 << len(vecs)) for name, vecs in outer._bases)
    return _make(tuple(new_bases), outs)


def _identity_dims(a, bt, acols, bcols, a_segments, segments) -> set:
    """In-dims mapped to themselves by invert_and_compose (Triton 3.9.0's rule).

    An in-dim d of both layouts is an identity dim when its bases are equal in
    both and the output bits its bases touch are touched by no other in-dim of
    either layout (the two layouts are block-diagonal with respect to d).
    """
    a_bases = dict(a._bases)
    candidates = [name for name, vecs in bt._bases if a_bases.get(name) == vecs]
    if not candidates:
        return set()
    a_or = {name: _or(acols[c0:c0 + k]) for name, (c0, k) in a_segments.items()}
    b_or = {name: _or(bcols[c0:c0 + k]) for name, c0, k in segments}
    out = set()
    for d in candidates:
        others = 0
        for name, m in a_or.items():
            if name != d:
                others |= m
        for name, m in b_or.items():
            if name != d:
                others |= m
        if not (a_or[d] | b_or[d]) & others:
            out.add(d)
    return out


def _or(cols) -> int:
    m = 0
    for c in cols:
        m |= c
    return m


def _segment_values(mask, segments, bidx, nb):
    vals = [0] * nb
    for name, off, k in segments:
        if k:
            vals[bidx[name]] = (mask >> off) & ((1 << k) - 1)
    return vals


def pseudoinvert(layout: LinearLayout) -> LinearLayout:
    """A right inverse R of a surjective layout: ``layout(R(y)) == y`` (Triton ``pseudoinvert``).

    Equals ``I.invert_and_compose(layout)`` with I the identity on the out-dims,
    so broadcast (zero or dependent) input bits get no preimage. In-dims of R
    are ``layout``'s out-dims; out-dims are its in-dims.

    **Pre-conditions:** ``layout`` is surjective.

    >>> from unilayout.linear import LinearLayout
    >>> pseudoinvert(LinearLayout({"i": [[0], [1], [2]]}, ["o"])).bases
    [('o', [[2], [4]])]
    """
    _check(layout, "pseudoinvert")
    if not layout.is_surjective():
        raise LayoutError(
            f"pseudoinvert: the layout is not surjective (rank {layout.rank} < "
            f"{layout.total_out_dim_size_log2} output bits): only surjective layouts have a right inverse"
        )
    n = len(layout._outs)
    ident = tuple(
        (name, tuple(tuple((1 << i) if t == j else 0 for t in range(n)) for i in range(size.bit_length() - 1)))
        for j, (name, size) in enumerate(layout._outs)
    )
    return invert_and_compose(_make(ident, layout._outs), layout)


def invert(layout: LinearLayout) -> LinearLayout:
    """The inverse of an invertible layout (``layout(R(y)) == y`` and ``R(layout(x)) == x``).

    **Pre-conditions:** ``layout.is_invertible()``.

    >>> from unilayout.linear import LinearLayout
    >>> invert(LinearLayout({"i": [[2], [1]]}, ["o"])).bases
    [('o', [[2], [1]])]
    """
    _check(layout, "invert")
    if not layout.is_invertible():
        raise LayoutError(
            f"invert: the layout is not invertible (rank {layout.rank}, {layout.total_in_dim_size_log2} input "
            f"bits, {layout.total_out_dim_size_log2} output bits): use pseudoinvert for a surjective layout"
        )
    return pseudoinvert(layout)
