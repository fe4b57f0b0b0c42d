"""Division and restriction: ``divide_left`` / ``divide_right`` (undo a product), ``sublayout``,
``is_trivial_over`` and ``quotient``.

The divisions return None when there is no quotient (Triton's optional
results); the others raise ``LayoutError`` for names that are not dims.

>>> from unilayout.linear import identity_1d, zeros_1d
>>> divide_right(identity_1d(8, "i", "o"), zeros_1d(2, "i", "o")) is None
True
>>> sublayout(identity_1d(4, "i", "x") * identity_1d(2, "j", "y"), ["j"], ["y"]).bases
[('j', [[1]])]
"""

from __future__ import annotations

from typing import Iterable

from ...errors import LayoutError
from ..layout import LinearLayout
from ._common import _check, _make, _names
from .product import product

__all__ = ["divide_left", "divide_right", "is_trivial_over", "quotient", "sublayout", "sublayout_is_zero"]


def _quotient_outs(a: LinearLayout, b: LinearLayout, op: str):
    """The out-dims ``(name, a.size / b.size)`` of ``a`` divided by ``b``, or None when ``b`` cannot divide ``a``."""
    _check(a, op)
    _check(b, op)
    a_in, a_out, b_out = dict(a._bases), dict(a._outs), dict(b._outs)
    if any(n not in a_in for n, _ in b._bases) or any(n not in a_out for n in b_out):
        return None
    c_outs = []
    for name, size in a._outs:
        bs = b_out.get(name, 1)
        if size % bs:
            return None
        c_outs.append((name, size // bs))
    return c_outs


def divide_left(a: LinearLayout, b: LinearLayout) -> LinearLayout | None:
    """C with ``a == b * C``, or None if there is none.

    C has exactly ``a``'s in- and out-dims in ``a``'s order (dims ``b`` lacks
    count as size 1). Per in-dim of ``a``, its first ``log2 b.in_size`` bases
    must equal ``b``'s (0 on out-dims ``b`` lacks) and every later basis must
    be divisible, per out-dim, by ``b``'s out size; C's basis is the quotient.

    **Post-conditions:** ``product(b, C) == a`` whenever C is not None.

    >>> from unilayout.linear import identity_1d, zeros_1d
    >>> divide_left(identity_1d(8, "i", "o") * zeros_1d(16, "i", "o"), identity_1d(8, "i", "o"))
    LinearLayout({'i': [[0], [0], [0], [0]]}, {'o': 1})
    >>> divide_left(identity_1d(8, "i", "o"), zeros_1d(2, "i", "o")) is None
    True
    """
    c_outs = _quotient_outs(a, b, "divide_left")
    if c_outs is None:
        return None
    b_out = dict(b._outs)
    bpos = {n: k for k, (n, _) in enumerate(b._outs)}
    sel = [bpos.get(n) for n, _ in a._outs]
    divs = [b_out.get(n, 1) for n, _ in a._outs]
    b_in = dict(b._bases)
    c_bases = []
    for name, vecs in a._bases:
        bv = b_in.get(name, ())
        if len(bv) > len(vecs):
            return None
        for v, w in zip(vecs, bv):
            for e, p in zip(v, sel):
                if e != (0 if p is None else w[p]):
                    return None
        rest = []
        for v in vecs[len(bv):]:
            q = []
            for e, dv in zip(v, divs):
                if e % dv:
                    return None
                q.append(e // dv)
            rest.append(tuple(q))
        c_bases.append((name, tuple(rest)))
    c = _make(tuple(c_bases), tuple(c_outs))
    try:
        if product(b, c) != a:
            return None
    except LayoutError:
        return None
    return c


def divide_right(a: LinearLayout, b: LinearLayout) -> LinearLayout | None:
    """C with ``a == C * b``, or None if there is none.

    C has ``a``'s in- and out-dims, out sizes ``a.size / b.size``, and per
    in-dim the first ``log2 a.in_size - log2 b.in_size`` bases of ``a``.

    **Post-conditions:** ``product(C, b) == a`` whenever C is not None.

    >>> from unilayout.linear import identity_1d, zeros_1d
    >>> divide_right(zeros_1d(2, "i", "o") * identity_1d(4, "i", "o"), identity_1d(4, "i", "o"))
    LinearLayout({'i': [[0]]}, {'o': 1})
    """
    c_outs = _quotient_outs(a, b, "divide_right")
    if c_outs is None:
        return None
    b_in = dict(b._bases)
    c_bases = []
    for name, vecs in a._bases:
        k = len(vecs) - len(b_in.get(name, ()))
        if k < 0:
            return None
        head = vecs[:k]
        for v in head:
            for e, (_, cs) in zip(v, c_outs):
                if e >= cs:
                    return None
        c_bases.append((name, head))
    c = _make(tuple(c_bases), tuple(c_outs))
    try:
        if product(c, b) != a:
            return None
    except LayoutError:
        return None
    return c


# ------------------------------------------------------ quotient/sublayout
def sublayout(layout: LinearLayout, in_dims: Iterable[str], out_dims: Iterable[str]) -> LinearLayout:
    """The restriction to ``in_dims`` (the others act as 0) and ``out_dims`` (the others dropped).

    Keeps the layout's own order and out sizes; need not be surjective.

    **Pre-conditions:** every name is a dim of the layout.

    >>> from unilayout.linear import identity_1d
    >>> sublayout(identity_1d(4, "i", "x") * identity_1d(2, "j", "y"), [], []) == identity_1d(0, "i", "x")
    True
    """
    _check(layout, "sublayout")
    ins = set(_names(in_dims, "sublayout"))
    outs = set(_names(out_dims, "sublayout"))
    have_in = {n for n, _ in layout._bases}
    have_out = {n for n, _ in layout._outs}
    if not ins <= have_in:
        raise LayoutError(
            f"sublayout: {sorted(ins - have_in)} are not in-dims of the layout; in-dims are {layout.in_dim_names}"
        )
    if not outs <= have_out:
        raise LayoutError(
            f"sublayout: {sorted(outs - have_out)} are not out-dims of the layout; out-dims are {layout.out_dim_names}"
        )
    keep = [k for k, (n, _) in enumerate(layout._outs) if n in outs]
    all_out = len(keep) == len(layout._outs)
    new_bases = []
    for name, vecs in layout._bases:
        if name not in ins:
            continue
        if all_out:
            new_bases.append((name, vecs))
        else:
            new_bases.append((name, tuple(tuple(v[k] for k in keep) for v in vecs)))
    return _make(tuple(new_bases), tuple(layout._outs[k] for k in keep))


def sublayout_is_zero(layout: LinearLayout, in_dims: Iterable[str], out_dims: Iterable[str]) -> bool:
    """Whether every basis of ``sublayout(in_dims, out_dims)`` is zero.

    >>> from unilayout.linear import identity_1d
    >>> sublayout_is_zero(identity_1d(4, "i", "x"), ["i"], ["x"])
    False
    """
    sub = sublayout(layout, in_dims, out_dims)
    return not any(any(v) for _, vecs in sub._bases for v in vecs)


def is_trivial_over(layout: LinearLayout, dims: Iterable[str]) -> bool:
    """Whether the layout acts as the identity on ``dims`` and does not mix them with the rest.

    True iff every d in ``dims`` is both an in- and an out-dim with equal
    sizes, the square sublayout ``dims -> dims`` flattened has bases 1, 2, 4,
    ..., no other in-dim reaches ``dims``, and ``dims`` reach no other out-dim.
    (Triton aborts for a name that is not both an in- and an out-dim.)

    >>> from unilayout.linear import LinearLayout
    >>> L = LinearLayout({"dim1": [[1, 0]], "dim2": [[0, 0]]}, {"dim1": 2, "dim2": 1})
    >>> is_trivial_over(L, ["dim1"]), is_trivial_over(L, ["dim2"])
    (True, False)
    """
    _check(layout, "is_trivial_over")
    dims = _names(dims, "is_trivial_over")
    ins = dict(layout._bases)
    outs = dict(layout._outs)
    for d in dims:
        if d not in ins or d not in outs:
            return False
    dset = set(dims)
    rem_in = [n for n, _ in layout._bases if n not in dset]
    rem_out = [n for n, _ in layout._outs if n not in dset]
    if dims:
        for d in dset:
            if (1 << len(ins[d])) != outs[d]:
                return False
        sq = sublayout(layout, dset, dset)
        for i, col in enumerate(sq._columns()):
            if col != 1 << i:
                return False
    return sublayout_is_zero(layout, rem_in, dset) and sublayout_is_zero(layout, dset, rem_out)


def quotient(layout: LinearLayout, dims: Iterable[str]) -> LinearLayout | None:
    """``sublayout(other ins, other outs)`` if the layout is trivial over ``dims``, else None.

    >>> from unilayout.linear import LinearLayout, zeros_1d
    >>> L = LinearLayout({"dim1": [[1, 0]], "dim2": [[0, 0]]}, {"dim1": 2, "dim2": 1})
    >>> quotient(L, ["dim1"]) == zeros_1d(2, "dim2", "dim2")
    True
    >>> quotient(quotient(L, ["dim1"]), ["dim2"]) is None
    True
    """
    dims = _names(dims, "quotient")
    if not is_trivial_over(layout, dims):
        return None
    dset = set(dims)
    return sublayout(
        layout, [n for n, _ in layout._bases if n not in dset], [n for n, _ in layout._outs if n not in dset]
    )
