"""Fitting one CTA's layout to a tensor shape: Triton's ``combineCtaCgaWithShape``.

Every encoding first builds the layout of one CTA (its "tile" plus warps), then
fits it to the shape:

1. grow each out-dim that is too small by repeating the tile along the first
   in-dim (``register`` or ``offset``), out-dims in the CTA layout's order;
2. shrink each out-dim that is too large by zeroing its largest basis entry
   (one per halving), so surplus lanes/warps broadcast;
3. multiply by the CGA layout (``block`` bases in units of the CTA tile;
   default: one CTA) and list out-dims as ``dim0, dim1, ...``.

:func:`fit_to_shape` does it for a ``LinearLayout``; :class:`_Tile` builds a CTA
layout in place and :func:`_fit` fits plain lists without intermediate values
(the encodings' fast path). ``_shrink``, ``_grow`` and ``_cga_layout`` are the
single steps; ``_implied_shape`` is the shape a list of bases spans.

>>> from unilayout.linear import identity_1d
>>> fit_to_shape(identity_1d(2, "register", "dim0"), [8], [[1]]).bases
[('register', [[1], [2]]), ('block', [[4]])]
>>> _Tile().id(2, "register", "dim1").id(4, "lane", "dim0").fit([4, 2], None).bases
[('register', [[0, 1]]), ('lane', [[1, 0], [2, 0]]), ('block', [])]
"""

from __future__ import annotations

from operator import itemgetter as _itemgetter
from typing import Sequence

from ..._ints import as_pow2
from ...errors import LayoutError
from ..layout import LinearLayout
from ._base import _dims, _ints, _shape


def _bases_layout(in_dim: str, bases, rank: int, scale: Sequence[int] | None = None) -> LinearLayout:
    """``{in_dim: bases}`` over dim0..; sizes are the smallest powers of two holding the entries."""
    vecs = []
    for b in bases:
        v = _ints(b, f"{in_dim} basis", rank)
        if any(e < 0 for e in v):
            raise LayoutError(f"{in_dim} basis {list(v)} has a negative entry")
        if scale is not None:
            v = tuple(e * s for e, s in zip(v, scale))
        vecs.append(v)
    sizes = [1] * rank
    for v in vecs:
        for j, e in enumerate(v):
            sizes[j] = max(sizes[j], 1 << e.bit_length())
    return LinearLayout({in_dim: vecs}, dict(zip(_dims(rank), sizes)), require_surjective=False)


_ONE_CTA: dict = {}  # rank -> the block layout of one CTA


def _cga_layout(cga_layout, rank: int) -> LinearLayout:
    """The ``block`` layout in CTA-tile units; it must reach every tile it spans (Triton aborts otherwise)."""
    if not cga_layout:  # one CTA (the common case): no bases, every out-dim of size 1 (a constant per rank)
        got = _ONE_CTA.get(rank)
        if got is None:
            got = _ONE_CTA[rank] = LinearLayout._make((("block", ()),), tuple((f"dim{i}", 1) for i in range(rank)))
        return got
    cga = _bases_layout("block", cga_layout or [], rank)
    moved = [v for v in cga._bases[0][1] if any(v)]
    if len(set(moved)) != len(moved) or any(sum(e != 0 for e in v) != 1 or sum(v) & (sum(v) - 1) for v in moved):
        # Triton's verifier: "After removing broadcast bases the CGA encoding must be a permutation matrix"
        raise LayoutError(f"cga_layout {[list(v) for v in cga_layout]} is not a permutation once its zero bases are "
                          "removed: each non-zero basis must be one power of two in one dim, and no two the same")
    if not cga.is_surjective():
        raise LayoutError(
            f"cga_layout {[list(v) for v in cga_layout]} does not reach every CTA tile it spans "
            "(use distinct powers of two per dim, or zeros to broadcast)"
        )
    return cga


def _shrink(layout: LinearLayout, out_dim: str, desired: int) -> LinearLayout:
    """Triton's ``ensureLayoutNotLargerThan`` for one out-dim: zero the largest entry per halving."""
    j = layout._out_index(out_dim)
    size = layout._outs[j][1]
    if size <= desired:
        return layout
    bases = [(n, [list(v) for v in vecs]) for n, vecs in layout._bases]
    while size > desired:
        best = None
        for bi, (_, vecs) in enumerate(bases):
            for vi, v in enumerate(vecs):
                if v[j] and (best is None or v[j] > best[0]):
                    best = (v[j], bi, vi)
        if best is not None:
            bases[best[1]][1][best[2]][j] = 0
        size //= 2
    for _, vecs in bases:  # anything still out of range cannot be reached
        for v in vecs:
            if v[j] >= size:
                v[j] = 0
    outs = [(n, s if n != out_dim else size) for n, s in layout._outs]
    return LinearLayout(bases, outs, require_surjective=False)


def _grow(layout: LinearLayout, names, sizes) -> LinearLayout:
    """Triton's ``ensureLayoutNotSmallerThan`` with explicit out-dims: repeat along the first in-dim."""
    # the same as ``layout * identity_1d(want // have, first, d)`` per dim, on plain lists
    (first, fvecs), rest = layout._bases[0], layout._bases[1:]
    fvecs = list(fvecs)
    outs = [n for n, _ in layout._outs]
    osz = [s for _, s in layout._outs]
    grown = False
    for d, want in zip(names, sizes):
        if d not in outs:
            if want <= 1:
                continue
            outs.append(d)  # a new out-dim comes last (the product's supremum)
            osz.append(1)
            fvecs = [(*v, 0) for v in fvecs]
            rest = tuple((n, tuple((*v, 0) for v in vecs)) for n, vecs in rest)
        j = outs.index(d)
        have = osz[j]
        if have < want:
            as_pow2(want // have, f"size of in-dim {first!r}")
            zero = [0] * len(outs)
            for i in range((want // have).bit_length() - 1):
                v = list(zero)
                v[j] = have << i
                fvecs.append(tuple(v))
            osz[j] = have * (want // have)
            grown = True
    if not grown:
        return layout
    return LinearLayout._make(((first, tuple(fvecs)),) + tuple(rest), tuple(zip(outs, osz)))


def fit_to_shape(cta: LinearLayout, shape: Sequence[int], cga_layout=None) -> LinearLayout:
    """Fit a one-CTA layout to ``shape`` and add the CGA (``block``) layout (Triton ``combineCtaCgaWithShape``).

    ``cta`` maps its in-dims (first one: ``register`` or ``offset``) to
    ``dim0..dim{r-1}`` in any order; ``cga_layout`` lists ``block`` bases in
    units of the CTA tile (default: no bases, one CTA).

    **Post-conditions:** out-dims are ``dim0..`` in order with sizes ``shape``.

    >>> from unilayout.linear import identity_1d
    >>> fit_to_shape(identity_1d(4, "register", "dim0"), [8]).bases
    [('register', [[1], [2], [4]]), ('block', [])]
    >>> fit_to_shape(identity_1d(4, "register", "dim0"), [2]).bases
    [('register', [[1], [0]]), ('block', [])]
    """
    return _fit([(n, [list(v) for v in vecs]) for n, vecs in cta._bases], [n for n, _ in cta._outs],
                [s for _, s in cta._outs], shape, cga_layout)


class _Tile:
    """A product of 1-D pieces built in place, for the encodings' CTA layouts.

    ``t.id(n, "register", "dim1")`` appends exactly what ``* identity_1d(n, "register",
    "dim1")`` would (same bases, same in- and out-dim order, out-dim sizes multiplied);
    ``t.zeros(...)`` likewise for ``zeros_1d``. The vectors are plain lists over
    ``t.names``, handed to :func:`_fit` without copies (no intermediate LinearLayout).
    """

    __slots__ = ("bases", "names", "sizes")

    def __init__(self, names=()):
        self.bases: dict = {}
        self.names = list(names)
        self.sizes = [1] * len(self.names)

    def _out(self, name):
        names = self.names
        if name in names:
            return names.index(name)
        names.append(name)
        self.sizes.append(1)
        for vecs in self.bases.values():
            for v in vecs:
                v.append(0)
        return len(names) - 1

    def id(self, size: int, in_dim: str, out_dim: str, zero: bool = False) -> "_Tile":
        if size < 1 or size & (size - 1):
            raise LayoutError(f"size of in-dim {in_dim!r} {size} is not a power of two")
        names = self.names
        j = names.index(out_dim) if out_dim in names else self._out(out_dim)
        vecs = self.bases.get(in_dim)
        if vecs is None:
            vecs = self.bases[in_dim] = []
        if size > 1:
            n = len(names)
            s = self.sizes[j]
            for i in range(size.bit_length() - 1):
                v = [0] * n
                if not zero:
                    v[j] = s << i
                vecs.append(v)
            if not zero:
                self.sizes[j] = s * size
        return self

    def zeros(self, size: int, in_dim: str, out_dim: str) -> "_Tile":
        return self.id(size, in_dim, out_dim, zero=True)

    def isn(self, in_dim: str, sizes, order) -> "_Tile":
        """``* identity_standard_nd(in_dim, sizes, order)``."""
        for d in order:
            self.id(sizes[d], in_dim, f"dim{d}")
        return self

    def transpose(self, names) -> "_Tile":
        """``transpose_outs(names)`` (a permutation of the out-dims)."""
        names = list(names)
        if names != self.names:
            perm = [self.names.index(n) for n in names]
            for in_dim, vecs in self.bases.items():
                self.bases[in_dim] = [[v[k] for k in perm] for v in vecs]
            self.sizes = [self.sizes[k] for k in perm]
            self.names = names
        return self

    def fit(self, shape, cga_layout) -> LinearLayout:
        """:func:`fit_to_shape` of the tile."""
        return _fit(list(self.bases.items()), self.names, self.sizes, shape, cga_layout)


def _fit(bases, outs, sizes, shape, cga_layout) -> LinearLayout:
    """:func:`fit_to_shape` on plain lists: ``bases`` ``[(in_dim, [vector list, ...])]`` over the
    out-dims ``outs`` of ``sizes``; the lists are used (changed) in place."""
    shape = _shape(shape)
    rank = len(shape)
    names = _dims(rank)
    if sorted(outs) != names:
        raise LayoutError(f"fit_to_shape: the CTA layout's out-dims {outs} must be {names}")
    # The CGA layout, shrunk to the shape, in the CTA's out-dim order (sizes per CTA tile).
    if cga_layout:
        cga = _cga_layout(cga_layout, rank)
        for d, n in zip(names, shape):
            cga = _shrink(cga, d, n)
        cga_vecs = [list(v) for v in cga._bases[0][1]]
        cga_size = dict(cga._outs)
    else:
        cga_vecs, cga_size = [], dict.fromkeys(names, 1)
    perm = [int(n[3:]) for n in outs]  # CTA out position -> standard dim (outs are dim0.. in some order)
    if cga_vecs:
        cga_vecs = [[v[j] for j in perm] for v in cga_vecs]
    # Everything below works on plain lists in the CTA's out-dim order, built into one value at the end.
    want = [max(1, shape[d] // cga_size[n]) for d, n in zip(perm, outs)]
    first = bases[0][1]
    for j, goal in enumerate(want):  # grow: repeat along the first in-dim (ensureLayoutNotSmallerThan)
        while sizes[j] < goal:
            v = [0] * rank
            v[j] = sizes[j]
            first.append(v)
            sizes[j] *= 2
    allvecs = None
    for j, goal in enumerate(want):  # shrink: zero the largest entry per halving (ensureLayoutNotLargerThan)
        size, halvings = sizes[j], 0
        while size > goal:
            size //= 2
            halvings += 1
        if halvings:
            if allvecs is None:
                allvecs = [v for _, vecs in bases for v in vecs]
            # the largest entries, the first one first among equals (what one halving at a time zeroes)
            for _, _, v in sorted((-v[j], i, v) for i, v in enumerate(allvecs) if v[j] > 0)[:halvings]:
                v[j] = 0
            for v in allvecs:
                if v[j] >= size:
                    v[j] = 0
            sizes[j] = size
    block = [tuple(e * sz for e, sz in zip(v, sizes)) for v in cga_vecs]
    inv = [perm.index(d) for d in range(rank)]  # standard dim -> CTA out position
    if "block" in [n for n, _ in bases]:
        raise LayoutError("fit_to_shape: the CTA layout must not have a 'block' in-dim (the CGA layout adds it)")
    if inv == list(range(rank)):
        out = tuple((n, tuple(map(tuple, vecs))) for n, vecs in bases)
        out += (("block", tuple(block)),)
    else:
        get = _itemgetter(*inv) if rank > 1 else (lambda v: (v[0],))
        out = tuple((n, tuple(map(get, vecs))) for n, vecs in bases)
        out += (("block", tuple(map(get, block))),)
    total = tuple((names[d], sizes[inv[d]] * cga_size[names[d]]) for d in range(rank))
    return LinearLayout._make(out, total)


def _implied_shape(vecs, what) -> tuple[int, ...]:
    """Each dim the smallest power of two above the bases' largest entry (Gluon's rule)."""
    rank = len(_ints(vecs[0], f"{what} basis"))
    if rank == 0:
        raise LayoutError(f"{what} bases need at least one entry (one per tensor dim)")
    for v in vecs:
        v = _ints(v, f"{what} basis")
        if len(v) != rank:
            raise LayoutError(f"{what} bases have {rank} and {len(v)} entries: give one per tensor dim in every basis")
        if any(e < 0 for e in v):
            raise LayoutError(f"{what} basis {list(v)} has a negative entry")
    return tuple(1 << max(v[j] for v in vecs).bit_length() for j in range(rank))
