"""Products: ``inner * outer`` (the direct sum), the dim order it uses (``supremum``), and concatenation.

``product(inner, outer)`` lets ``inner`` act on the low bits and ``outer`` on
the high bits of every dim they share; ``concat_ins`` / ``concat_outs`` put two
layouts side by side over the same out-dims / in-dims.

>>> from unilayout.linear import identity_1d, zeros_1d
>>> product(identity_1d(2, "i", "o"), zeros_1d(2, "i", "o")).bases
[('i', [[1], [0]])]
>>> concat_outs(identity_1d(2, "i", "a"), identity_1d(2, "i", "b")).bases
[('i', [[1, 1]])]
"""

from __future__ import annotations

from operator import itemgetter as _itemgetter
from operator import mul as _mul
from typing import Sequence

from ...errors import LayoutError
from ..layout import LinearLayout
from ._common import _check, _make

__all__ = ["supremum", "product", "concat_ins", "concat_outs"]


def supremum(x: Sequence[str], y: Sequence[str]) -> list[str]:
    """The shortest list containing ``x`` and ``y`` as subsequences, preferring ``x`` on ties.

    This is how ``*`` orders the dims of its two factors (Triton's ``supremum``).

    **Pre-conditions:** names common to both appear in the same relative order.

    >>> supremum(["a", "b"], ["a", "c"])
    ['a', 'b', 'c']
    >>> supremum(["a", "b"], ["c", "b"])
    ['a', 'c', 'b']
    >>> supremum(["a", "b"], ["b", "a"])
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: dims ['a', 'b'] and ['b', 'a'] list their common dims in different orders: put them in the same relative order
    """
    for v, what in ((x, "x"), (y, "y")):
        if isinstance(v, str) or not isinstance(v, (list, tuple)):
            raise LayoutError(f"supremum: {what} must be a list of dim names, got {type(v).__name__} {v!r:.60}")
    if list(x) == list(y) or not y:
        return list(x)
    if not x:
        return list(y)
    # Fast paths (the common cases of ``*``): disjoint lists, or one a subsequence of the other.
    sx, sy = set(x), set(y)
    if len(sx) == len(x) and len(sy) == len(y):
        if sx.isdisjoint(sy):
            return list(x) + list(y)
        if sy <= sx and [e for e in x if e in sy] == list(y):
            return list(x)
        if sx <= sy and [e for e in y if e in sx] == list(x):
            return list(y)
    posx = {e: k for k, e in enumerate(x)}
    posy = {e: k for k, e in enumerate(y)}
    result: list[str] = []
    taken: set[str] = set()
    i = j = 0
    nx, ny = len(x), len(y)
    while True:
        while i < nx and x[i] in taken:
            i += 1
        while j < ny and y[j] in taken:
            j += 1
        if i >= nx and j >= ny:
            break
        if i < nx and j < ny and x[i] == y[j]:
            pick = x[i]
        else:
            cx = posy.get(x[i]) if i < nx else None
            cy = posx.get(y[j]) if j < ny else None
            if i < nx and cx is None:
                pick = x[i]
            elif j < ny and cy is None:
                pick = y[j]
            elif i < nx and (j >= ny or cx <= cy):
                pick = x[i]
            else:
                pick = y[j]
        result.append(pick)
        taken.add(pick)
    pos = {e: k for k, e in enumerate(result)}
    for seq in (x, y):
        ps = [pos[e] for e in seq]
        if ps != sorted(ps):
            raise LayoutError(
                f"dims {list(x)} and {list(y)} list their common dims in different orders: "
                "put them in the same relative order"
            )
    return result


# ---------------------------------------------------------------- product
def product(inner: LinearLayout, outer: LinearLayout) -> LinearLayout:
    """Direct sum ``inner * outer``: inner acts on the low bits, outer on the high bits.

    In-dims (and out-dims) are the :func:`supremum` of the two ordered lists,
    inner first. A shared in-dim gets inner's bases then outer's; a shared
    out-dim gets size ``inner.size * outer.size`` and outer's coordinates are
    multiplied by inner's size. Dims missing on one side contribute zeros.

    **Post-conditions:** associative; ``empty()`` is the unit; surjective if
    both factors are; ``divide_left(inner * outer, inner) == outer`` when dims agree.

    >>> from unilayout.linear import identity_1d, zeros_1d
    >>> product(zeros_1d(2, "i", "o"), identity_1d(4, "i", "o")).bases
    [('i', [[0], [1], [2]])]
    >>> product(identity_1d(4, "i", "o1"), identity_1d(8, "i", "o2")).apply({"i": 13})
    {'o1': 1, 'o2': 3}
    """
    for v, what in ((inner, "inner"), (outer, "outer")):
        if not isinstance(v, LinearLayout):
            raise LayoutError(f"product: {what} must be a LinearLayout, got {type(v).__name__} {v!r:.60}")
    if not inner._bases and not inner._outs:
        return outer
    if not outer._bases and not outer._outs:
        return inner
    in_i = [n for n, _ in inner._bases]
    in_o = [n for n, _ in outer._bases]
    out_i = [n for n, _ in inner._outs]
    out_o = [n for n, _ in outer._outs]
    ins = supremum(in_i, in_o)
    outs = supremum(out_i, out_o)
    isz = dict(inner._outs)
    osz = dict(outer._outs)
    out_sizes = tuple((n, isz.get(n, 1) * osz.get(n, 1)) for n in outs)
    ib = dict(inner._bases)
    ob = dict(outer._bases)
    same_i = out_i == outs
    ipos = {n: k for k, n in enumerate(out_i)}
    opos = {n: k for k, n in enumerate(out_o)}
    nout = len(outs)
    zero = (0,) * nout
    # Each factor's vectors are re-indexed to ``outs`` by one itemgetter over the vector with a
    # trailing 0 appended (position -1 reads that 0 for an out-dim the factor lacks).
    isel = [ipos.get(n, -1) for n in outs]
    igi = _getter(isel)
    osel = [opos.get(n, -1) for n in outs]
    igo = _getter(osel)
    mults = [isz.get(n, 1) for n in outs]
    scaled = any(m != 1 for m in mults)
    same_o = osel == list(range(nout)) and len(out_o) == nout
    new_bases = []
    for name in ins:
        iv = ib.get(name)
        ov = ob.get(name)
        if iv is None:
            vecs = []
        elif same_i:
            vecs = list(iv)
        else:
            vecs = [igi((*v, 0)) for v in iv]
        if ov is not None:
            if same_o and not scaled:
                vecs.extend(ov)
            else:
                for v in ov:
                    if not any(v):
                        vecs.append(zero)
                    elif scaled:
                        vecs.append(tuple(map(_mul, igo((*v, 0)), mults)))
                    else:
                        vecs.append(igo((*v, 0)))
        new_bases.append((name, tuple(vecs)))
    return _make(tuple(new_bases), out_sizes)


def _getter(positions):
    """A function of a vector (with a trailing 0 appended) giving the tuple of its ``positions``."""
    if len(positions) == 1:
        p = positions[0]
        return lambda v: (v[p],)
    if not positions:
        return lambda v: ()
    return _itemgetter(*positions)


# ---------------------------------------------------------------- concat
def concat_ins(layout: LinearLayout, other: LinearLayout) -> LinearLayout:
    """In-dims of ``layout`` then of ``other`` over the same out-dims; need not be surjective.

    **Pre-conditions:** identical out-dims (names, order, sizes); disjoint in-dims.

    >>> from unilayout.linear import identity_1d, zeros_1d
    >>> concat_ins(zeros_1d(2, "a", "o", 2), identity_1d(2, "b", "o")).bases
    [('a', [[0]]), ('b', [[1]])]
    """
    _check(layout, "concat_ins")
    _check(other, "concat_ins")
    if layout._outs != other._outs:
        raise LayoutError(
            f"concat_ins: the layouts need the same out-dims and sizes, got {layout.out_dims} and {other.out_dims}"
        )
    common = set(layout.in_dim_names) & set(other.in_dim_names)
    if common:
        raise LayoutError(f"concat_ins: in-dims {sorted(common)} appear in both layouts: rename one side")
    return _make(layout._bases + other._bases, layout._outs)


def concat_outs(layout: LinearLayout, other: LinearLayout) -> LinearLayout:
    """Out-dims of ``layout`` then of ``other`` over the same in-dims; need not be surjective.

    **Pre-conditions:** identical in-dims (names, order, sizes); disjoint out-dims.

    >>> from unilayout.linear import identity_1d
    >>> concat_outs(identity_1d(2, "i", "a"), identity_1d(2, "i", "b")).out_dims
    [('a', 2), ('b', 2)]
    """
    _check(layout, "concat_outs")
    _check(other, "concat_outs")
    if layout.in_dims != other.in_dims:
        raise LayoutError(
            f"concat_outs: the layouts need the same in-dims and sizes, got {layout.in_dims} and {other.in_dims}"
        )
    common = set(layout.out_dim_names) & set(other.out_dim_names)
    if common:
        raise LayoutError(f"concat_outs: out-dims {sorted(common)} appear in both layouts: rename one side")
    new = tuple(
        (name, tuple(v + w for v, w in zip(vecs, wecs)))
        for (name, vecs), (_, wecs) in zip(layout._bases, other._bases)
    )
    return _make(new, layout._outs + other._outs)
