"""The algebra of linear layouts: pure functions with Triton 3.9.0 semantics.

Each function takes and returns immutable :class:`LinearLayout` values; the
methods of ``LinearLayout`` (``a * b``, ``a.compose(b)``, ...) delegate here.

Where Triton 3.9.0 aborts the process (an ``assert`` or a fatal error), these
functions raise ``LayoutError`` with the reason, or return ``None`` for the
operations whose result is optional (``divide_left``, ``divide_right``,
``quotient``). Where Triton has no defined answer or a cap:

- ``a * b`` with in- or out-dims common to both in conflicting orders
  (``[x, y]`` and ``[y, x]``) raises (the release build returns an
  arbitrary order).
- ``invert_and_compose`` has no 64-column solver cap.

>>> from unilayout.linear import identity_1d, zeros_1d, divide_left
>>> a = identity_1d(8, "i", "o") * zeros_1d(16, "i", "o")
>>> divide_left(a, identity_1d(8, "i", "o")) == zeros_1d(16, "i", "o")
True
"""

from __future__ import annotations

from operator import itemgetter as _itemgetter
from operator import mul as _mul
from typing import Iterable, Sequence

from ..errors import LayoutError
from . import gf2
from .._ints import as_pow2
from .layout import LinearLayout, _as_name

__all__ = [
    "product",
    "compose",
    "invert_and_compose",
    "invert",
    "pseudoinvert",
    "divide_left",
    "divide_right",
    "is_trivial_over",
    "quotient",
    "sublayout",
    "sublayout_is_zero",
    "transpose_ins",
    "transpose_outs",
    "reshape_ins",
    "reshape_outs",
    "flatten_ins",
    "flatten_outs",
    "concat_ins",
    "concat_outs",
    "resize_in_dim",
    "resize_out_dim",
    "rename_in_dim",
    "remove_zero_bases_along_dim",
    "free_variable_masks",
    "num_consecutive_in_out",
    "supremum",
]

_make = LinearLayout._make


def _check(layout, what: str) -> None:
    if not isinstance(layout, LinearLayout):
        raise LayoutError(f"{what}: expected a LinearLayout, got {type(layout).__name__}")


def _names(dims, what: str) -> list[str]:
    if isinstance(dims, str):
        return [dims]
    try:
        names = list(dims)
    except TypeError:
        raise LayoutError(f"{what}: expected a list of dim names, got {dims!r}") from None
    for n in names:
        _as_name(n, f"{what}: dim name")
    return names


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


# ---------------------------------------------------------------- compose
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


def _split_flat(bases, flats, outs):
    """Bases tuple for in-dims of ``bases`` whose flattened columns are ``flats``, over ``outs``."""
    if len(outs) == 1:
        return tuple((name, tuple([(f,) for f in fl])) for (name, _), fl in zip(bases, flats))
    if len(outs) == 2:
        m0 = outs[0][1] - 1
        s1 = outs[0][1].bit_length() - 1
        return tuple((name, tuple([(f & m0, f >> s1) for f in fl])) for (name, _), fl in zip(bases, flats))
    spec = [(size - 1, size.bit_length() - 1) for _, size in outs]
    new = []
    for (name, _), fl in zip(bases, flats):
        vecs = []
        for f in fl:
            vec = []
            for mask, bits in spec:
                vec.append(f & mask)
                f >>= bits
            vecs.append(tuple(vec))
        new.append((name, tuple(vecs)))
    return tuple(new)


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
    for name, vecs in layout._bases:
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


# --------------------------------------------------------------- division
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


# --------------------------------------------------------- reshaping
def transpose_ins(layout: LinearLayout, names: Sequence[str]) -> LinearLayout:
    """The same function with in-dims listed in the order ``names``.

    **Pre-conditions:** ``names`` is a permutation of the in-dim names.

    >>> from unilayout.linear import identity_1d
    >>> transpose_ins(identity_1d(2, "a", "o") * identity_1d(2, "b", "o"), ["b", "a"]).bases
    [('b', [[2]]), ('a', [[1]])]
    """
    _check(layout, "transpose_ins")
    names = _names(names, "transpose_ins")
    have = [n for n, _ in layout._bases]
    if sorted(names) != sorted(have) or len(set(names)) != len(names):
        raise LayoutError(f"transpose_ins: {names} is not a permutation of the in-dims {have}")
    if names == have:
        return layout
    b = dict(layout._bases)
    return _make(tuple((n, b[n]) for n in names), layout._outs)


def transpose_outs(layout: LinearLayout, names: Sequence[str]) -> LinearLayout:
    """The same function with out-dims listed in the order ``names``.

    **Pre-conditions:** ``names`` is a permutation of the out-dim names.

    >>> from unilayout.linear import LinearLayout
    >>> transpose_outs(LinearLayout({"i": [[1, 0], [0, 1]]}, ["a", "b"]), ["b", "a"]).out_dim_names
    ['b', 'a']
    """
    _check(layout, "transpose_outs")
    names = _names(names, "transpose_outs")
    have = [n for n, _ in layout._outs]
    if sorted(names) != sorted(have) or len(set(names)) != len(names):
        raise LayoutError(f"transpose_outs: {names} is not a permutation of the out-dims {have}")
    if names == have:
        return layout
    pos = {n: k for k, n in enumerate(have)}
    perm = [pos[n] for n in names]
    sizes = dict(layout._outs)
    new = tuple((n, tuple(tuple(v[p] for p in perm) for v in vecs)) for n, vecs in layout._bases)
    return _make(new, tuple((n, sizes[n]) for n in names))


def _dim_sizes(new_dims, what: str) -> list[tuple[str, int]]:
    out = []
    try:
        items = list(new_dims)
    except TypeError:
        raise LayoutError(f"{what}: expected a list of (name, size) pairs, got {new_dims!r}") from None
    for item in items:
        if isinstance(item, str) or not hasattr(item, "__len__") or len(item) != 2:
            raise LayoutError(f"{what}: expected (name, size) pairs, got {item!r}")
        name = _as_name(item[0], f"{what}: dim name")
        out.append((name, as_pow2(item[1], f"{what}: size of {name!r}")))
    names = [n for n, _ in out]
    if len(set(names)) != len(names):
        raise LayoutError(f"{what}: repeated dim names in {names}")
    return out


def reshape_ins(layout: LinearLayout, new_in_dims: Sequence[tuple[str, int]]) -> LinearLayout:
    """Concatenate all bases (in-dim order, low first) and re-split them by ``[(name, size), ...]``.

    **Pre-conditions:** sizes are powers of two whose product is the total in size.

    >>> from unilayout.linear import identity_1d
    >>> reshape_ins(identity_1d(8, "i", "o"), [("a", 4), ("b", 2)]).bases
    [('a', [[1], [2]]), ('b', [[4]])]
    """
    _check(layout, "reshape_ins")
    dims = _dim_sizes(new_in_dims, "reshape_ins")
    total = sum(s.bit_length() - 1 for _, s in dims)
    if total != layout.total_in_dim_size_log2:
        raise LayoutError(
            f"reshape_ins: the new in-dims {dims} have {1 << total} points but the layout has "
            f"{layout.total_in_dim_size}: the sizes must multiply to the same total"
        )
    flat = [v for _, vecs in layout._bases for v in vecs]
    new = []
    i = 0
    for name, size in dims:
        k = size.bit_length() - 1
        new.append((name, tuple(flat[i:i + k])))
        i += k
    return _make(tuple(new), layout._outs)


def reshape_outs(layout: LinearLayout, new_out_dims: Sequence[tuple[str, int]]) -> LinearLayout:
    """Flatten every basis to one int (first out-dim lowest) and re-split by ``[(name, size), ...]``.

    **Pre-conditions:** sizes are powers of two whose product is the total out size.

    >>> from unilayout.linear import LinearLayout
    >>> L = LinearLayout({"in1": [[1], [4], [8]], "in2": [[3]]}, {"out": 16})
    >>> reshape_outs(L, [("o2", 2), ("o3", 8)]).bases
    [('in1', [[1, 0], [0, 2], [0, 4]]), ('in2', [[1, 1]])]
    """
    _check(layout, "reshape_outs")
    dims = _dim_sizes(new_out_dims, "reshape_outs")
    total = sum(s.bit_length() - 1 for _, s in dims)
    if total != layout.total_out_dim_size_log2:
        raise LayoutError(
            f"reshape_outs: the new out-dims {dims} have {1 << total} points but the layout has "
            f"{layout.total_out_dim_size}: the sizes must multiply to the same total"
        )
    cols = layout._columns()
    flats = []
    c = 0
    for _, vecs in layout._bases:
        flats.append(cols[c:c + len(vecs)])
        c += len(vecs)
    outs = tuple(dims)
    return _make(_split_flat(layout._bases, flats, outs), outs)


def flatten_ins(layout: LinearLayout) -> LinearLayout:
    """One in-dim named after the first in-dim, of the total size (unchanged without in-dims).

    >>> from unilayout.linear import identity_1d
    >>> flatten_ins(identity_1d(2, "a", "o") * identity_1d(4, "b", "o")).bases
    [('a', [[1], [2], [4]])]
    """
    _check(layout, "flatten_ins")
    if len(layout._bases) <= 1:
        return layout
    flat = tuple(v for _, vecs in layout._bases for v in vecs)
    return _make(((layout._bases[0][0], flat),), layout._outs)


def flatten_outs(layout: LinearLayout) -> LinearLayout:
    """One out-dim named after the first out-dim, of the total size (unchanged without out-dims).

    >>> from unilayout.linear import LinearLayout
    >>> flatten_outs(LinearLayout({"i": [[1, 0], [0, 1]]}, ["a", "b"])).out_dims
    [('a', 4)]
    """
    _check(layout, "flatten_outs")
    if len(layout._outs) <= 1:
        return layout
    return reshape_outs(layout, [(layout._outs[0][0], layout.total_out_dim_size)])


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


def resize_in_dim(layout: LinearLayout, in_dim: str, new_size: int) -> LinearLayout:
    """Shrink an in-dim (drop its most significant bases) or grow it (append zero bases: broadcast).

    >>> from unilayout.linear import identity_1d
    >>> resize_in_dim(identity_1d(8, "i", "o"), "i", 2).bases
    [('i', [[1]])]
    """
    _check(layout, "resize_in_dim")
    k = layout._in_index(in_dim)
    n = as_pow2(new_size, f"resize_in_dim: new size of {in_dim!r}").bit_length() - 1
    name, vecs = layout._bases[k]
    if n <= len(vecs):
        vecs = vecs[:n]
    else:
        vecs = vecs + ((0,) * len(layout._outs),) * (n - len(vecs))
    return _make(layout._bases[:k] + ((name, vecs),) + layout._bases[k + 1:], layout._outs)


def resize_out_dim(layout: LinearLayout, out_dim: str, new_size: int) -> LinearLayout:
    """Shrink an out-dim to ``new_size``; entries ``>= new_size`` become 0.

    >>> from unilayout.linear import identity_1d
    >>> resize_out_dim(identity_1d(8, "i", "o"), "o", 4).bases
    [('i', [[1], [2], [0]])]
    """
    _check(layout, "resize_out_dim")
    j = layout._out_index(out_dim)
    n = as_pow2(new_size, f"resize_out_dim: new size of {out_dim!r}")
    cur = layout._outs[j][1]
    if n > cur:
        raise LayoutError(f"resize_out_dim: out-dim {out_dim!r} has size {cur}; it can only shrink, not grow to {n}")
    new = tuple(
        (name, tuple(v if v[j] < n else v[:j] + (0,) + v[j + 1:] for v in vecs)) for name, vecs in layout._bases
    )
    return _make(new, layout._outs[:j] + ((out_dim, n),) + layout._outs[j + 1:])


def rename_in_dim(layout: LinearLayout, old: str, new: str) -> LinearLayout:
    """Rename in-dim ``old`` to ``new`` (which must not already be an in-dim).

    >>> from unilayout.linear import identity_1d
    >>> rename_in_dim(identity_1d(2, "i", "o"), "i", "lane").in_dims
    [('lane', 2)]
    """
    _check(layout, "rename_in_dim")
    k = layout._in_index(old)
    new = _as_name(new, "rename_in_dim: new name")
    if new == old:
        return layout
    if layout.has_in_dim(new):
        raise LayoutError(f"rename_in_dim: {new!r} is already an in-dim: pick an unused name")
    return _make(layout._bases[:k] + ((new, layout._bases[k][1]),) + layout._bases[k + 1:], layout._outs)


def remove_zero_bases_along_dim(layout: LinearLayout, in_dim: str) -> LinearLayout:
    """Drop the all-zero bases of ``in_dim``; out sizes are re-inferred (Triton's rule), so the
    result must be surjective.

    >>> from unilayout.linear import LinearLayout
    >>> remove_zero_bases_along_dim(LinearLayout({"r": [[0], [1]]}, ["o"]), "r").bases
    [('r', [[1]])]
    """
    _check(layout, "remove_zero_bases_along_dim")
    new = tuple(
        (name, tuple(v for v in vecs if any(v)) if name == in_dim else vecs) for name, vecs in layout._bases
    )
    return LinearLayout(new, [n for n, _ in layout._outs])


# ---------------------------------------------------------------- queries
def free_variable_masks(layout: LinearLayout) -> dict[str, int]:
    """Per in-dim, a mask of the input bits in the span of all earlier input bits (flattened order).

    Those bits can change without changing the output; all masks are 0 iff
    the layout is injective.

    >>> from unilayout.linear import identity_1d, zeros_1d
    >>> free_variable_masks(identity_1d(4, "i", "o") * zeros_1d(2, "i", "o"))
    {'i': 4}
    """
    _check(layout, "free_variable_masks")
    free = gf2.ColumnBasis(layout._columns()).free
    fset = set(free)
    out = {}
    c = 0
    for name, vecs in layout._bases:
        m = 0
        for i in range(len(vecs)):
            if c + i in fset:
                m |= 1 << i
        out[name] = m
        c += len(vecs)
    return out


def num_consecutive_in_out(layout: LinearLayout) -> int:
    """The largest V such that V consecutive values of the first in-dim land on V consecutive
    values of the first out-dim (Triton ``getNumConsecutiveInOut``).

    k = number of leading bases of the first in-dim equal to (2**j, 0, ..., 0);
    t = trailing zeros of the OR of the first out-coordinate of all other
    bases (infinite if none); the result is ``2**min(k, t)`` (1 without dims).

    >>> from unilayout.linear import LinearLayout
    >>> num_consecutive_in_out(LinearLayout({"i": [[1], [2], [4], [10]]}, {"o": 16}))
    2
    """
    _check(layout, "num_consecutive_in_out")
    if not layout._bases or not layout._outs:
        return 1
    first = layout._bases[0][1]
    k = 0
    for j, v in enumerate(first):
        if v[0] != 1 << j or any(v[1:]):
            break
        k += 1
    other = 0
    for idx, (_, vecs) in enumerate(layout._bases):
        for i, v in enumerate(vecs):
            if idx != 0 or i >= k:
                other |= v[0]
    if other:
        t = (other & -other).bit_length() - 1
        k = min(k, t)
    return 1 << k

