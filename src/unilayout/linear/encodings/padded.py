"""Triton's ``#ttg.padded_shared``: a linear offset -> tensor map, plus padding in memory.

Padding makes the address of an element an affine (not GF(2)-linear)
function of its offset, so ``to_linear`` refuses and ``to_affine`` /
``address_map`` / ``address_table`` give the addresses.

>>> P = PaddedShared([[4, 1]], [1, 0], shape=[2, 4])
>>> str(P)
'#ttg.padded_shared<[4:+1] {order = [1, 0], shape = [2, 4]}>'
>>> P.address_table([2, 4]).tolist()
[[0, 1, 2, 3], [5, 6, 7, 8]]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..._ints import as_pow2
from ...errors import LayoutError, NotRepresentableError
from ..layout import LinearLayout, identity_standard_nd
from ._base import Field, _dims, _Encoding, _ints, _list, _order, _shape
from ._fit import _implied_shape, fit_to_shape


def _identity_order(vecs, rank):
    """``(order, shape)`` when ``vecs`` are 1, 2, 4, .. along one dim, then along the next (each dim
    once): the identity in that order; else ``(None, None)``. Dims without bases follow, from the last."""
    order, sizes = [], [1] * rank
    for v in vecs:
        nz = [j for j, e in enumerate(v) if e]
        if len(nz) != 1 or v[nz[0]] != sizes[nz[0]]:
            return None, None
        d = nz[0]
        if not order or order[-1] != d:
            if d in order:
                return None, None
            order.append(d)
        sizes[d] *= 2
    order += [d for d in range(rank - 1, -1, -1) if d not in order]
    return tuple(order), tuple(sizes)


@dataclass(frozen=True)
class PaddedShared(_Encoding):
    """Triton's ``#ttg.padded_shared``: a linear offset -> tensor map, plus padding in memory.

    Element at linear offset ``o`` (``offset_layout``: GF(2) bases, or the
    identity in ``order`` over ``shape``) is stored at address
    ``o + sum(floor(o / interval) * padding)`` over the ``(interval, padding)``
    pairs. Padding is not linear over GF(2), so :meth:`to_linear` refuses;
    :meth:`to_affine` gives the address map (an affine map of ``o``),
    :meth:`address_table` the address of every tensor element, and
    :func:`unilayout.linear.analysis.bank_conflicts` its bank conflicts.

    Written either ``PaddedShared([[32, 4]], order=[1, 0], shape=[64, 64])``
    (Triton's identity form) or with ``offset_bases`` / ``block_bases``.

    >>> P = PaddedShared([[4, 1]], [1, 0], shape=[4, 4])
    >>> P.address_table([4, 4]).tolist()
    [[0, 1, 2, 3], [5, 6, 7, 8], [10, 11, 12, 13], [15, 16, 17, 18]]
    >>> P.to_linear([4, 4])
    Traceback (most recent call last):
    ...
    unilayout.errors.NotRepresentableError: padded shared layouts insert padding every 4 elements, so offset -> element is not linear over GF(2): use offset_layout(shape) and to_affine()
    """

    interval_paddings: Sequence[Sequence[int]]
    order: Sequence[int] | None = None
    shape: Sequence[int] | None = None
    offset_bases: Sequence[Sequence[int]] | None = None
    block_bases: Sequence[Sequence[int]] | None = None

    MNEMONIC = "ttg.padded_shared"
    # The fields inside the braces, read and printed by the own _read and __str__ below (the
    # [interval:+padding, ...] list comes first, and the two forms are exclusive).
    FIELDS = (
        Field("order", "order", "ints", False),
        Field("shape", "shape", "ints", False),
        Field("offset", "offset_bases", "bases", False),
        Field("block", "block_bases", "bases", False),
    )

    def _normalise(self):
        """Triton's canonical form: an identity linear part (no blocks) is written ``order``/``shape``,
        its order listing dims with bases first, then the size-1 dims from the last."""
        try:
            if self.offset_bases is not None and not self.block_bases and self.order is None:
                vecs = [list(_ints(v, "offset basis")) for v in self.offset_bases]
                if not vecs:
                    return
                rank = len(vecs[0])
                order, sizes = _identity_order(vecs, rank)
                if order is not None:
                    for name, value in (("order", order), ("shape", sizes), ("offset_bases", None),
                                        ("block_bases", None)):
                        object.__setattr__(self, name, value)
            elif self.order is not None and self.shape is not None and self.offset_bases is None:
                shape = _shape(self.shape)
                order = _order(self.order, len(shape))
                vecs = [[1 << k if j == d else 0 for j in range(len(shape))] for d in order
                        for k in range(shape[d].bit_length() - 1)]
                canon, _ = _identity_order(vecs, len(shape))
                object.__setattr__(self, "order", canon)
                if self.block_bases == ():
                    object.__setattr__(self, "block_bases", None)
        except LayoutError:
            return  # offset_layout / to_linear report it

    def _pairs(self):
        pairs = []
        for p in self.interval_paddings:
            v = _ints(p, "interval/padding pair")
            if len(v) != 2:
                raise LayoutError(f"padded_shared pairs are [interval, padding], got {list(v)}")
            as_pow2(v[0], "padding interval")
            as_pow2(v[1], "padding amount")
            pairs.append(v)
        if not pairs:
            raise LayoutError("padded_shared needs at least one [interval, padding] pair")
        if len({i for i, _ in pairs}) != len(pairs):
            raise LayoutError(f"padded_shared intervals must be distinct, got {[list(p) for p in pairs]}")
        return pairs

    def offset_layout(self, shape: Sequence[int] | None = None) -> LinearLayout:
        """The linear part, ``offset, block`` -> tensor (before padding).

        >>> PaddedShared([[4, 1]], [0, 1], shape=[2, 2]).offset_layout().bases[0]
        ('offset', [[1, 0], [0, 1]])
        """
        if shape is None:
            if self.shape is not None:
                shape = self.shape
            elif self.offset_bases:
                shape = _implied_shape(list(self.offset_bases) + list(self.block_bases or ()), "padded_shared")
            else:
                raise LayoutError("padded_shared: give a shape")
        shape = _shape(shape)
        rank = len(shape)
        names = _dims(rank)
        if self.offset_bases is not None:
            if self.order is not None:
                raise LayoutError("padded_shared: give order (identity form) or offset_bases, not both")
            L = LinearLayout({"offset": [list(_ints(v, "offset basis", rank)) for v in self.offset_bases],
                              "block": [list(_ints(v, "block basis", rank)) for v in self.block_bases or ()]},
                             list(zip(names, shape)), require_surjective=False)
            return L
        if self.order is None:
            raise LayoutError("padded_shared: give order (identity form) or offset_bases")
        order = _order(self.order, rank)
        cta = identity_standard_nd("offset", shape, order)
        return fit_to_shape(cta, shape, self.block_bases or None)

    def to_linear(self, shape: Sequence[int]) -> LinearLayout:
        """Always raises ``NotRepresentableError`` (see the class docstring).

        >>> PaddedShared([[32, 4]], [1, 0]).to_linear([32, 32])
        Traceback (most recent call last):
        ...
        unilayout.errors.NotRepresentableError: padded shared layouts insert padding every 32 elements, so offset -> element is not linear over GF(2): use offset_layout(shape) and to_affine()
        """
        pairs = self._pairs()
        raise NotRepresentableError(
            f"padded shared layouts insert padding every {pairs[0][0]} elements, so offset -> element is not "
            "linear over GF(2): use offset_layout(shape) and to_affine()"
        )

    def to_affine(self):
        """The padded address as an affine map of the linear offset ``d0``.

        >>> str(PaddedShared([[32, 4], [64, 8]], [1, 0]).to_affine())
        '(d0) -> (d0 + (d0 floordiv 32) * 4 + (d0 floordiv 64) * 8)'
        """
        from ... import affine  # lazy: import time (the affine family loads when a padded map is asked for)

        terms = "".join(f" + (d0 floordiv {i}) * {p}" for i, p in self._pairs())
        return affine.parse(f"affine_map<(d0) -> (d0{terms})>")

    def address_map(self, shape: Sequence[int] | None = None):
        """The padded address of tensor element ``(d0, d1, ..)`` as an affine map, when the linear
        part walks each dim's bits in one contiguous run (identity in some order: offset
        ``o = sum(d_k * stride_k)``), composed with :meth:`to_affine`. XOR-swizzled offset
        bases are not affine: ``NotRepresentableError``.

        >>> str(PaddedShared([[4, 1]], [1, 0], shape=[4, 4]).address_map())
        '(d0, d1) -> (d0 * 4 + d1 + d0 + d1 floordiv 4)'
        """
        from ... import affine  # lazy: import time (the affine family loads when a padded map is asked for)

        L = self.offset_layout(shape)
        if L.bases[1][1] and any(any(v) for v in L.bases[1][1]):
            raise NotRepresentableError("padded_shared with CTA blocks: the address of block 0 only is affine; "
                                        "use offset_layout(shape).sublayout(['offset'], ...)")
        rank = len(L.out_dims)
        stride = [None] * rank
        for bit, v in enumerate(L.bases[0][1]):
            nz = [j for j, e in enumerate(v) if e]
            if len(nz) != 1:
                raise NotRepresentableError(f"offset basis {bit} {list(v)} mixes dims (a swizzle): the address is "
                                            "not affine in the tensor coordinates")
            d = nz[0]
            k = v[d].bit_length() - 1
            if v[d] != 1 << k:
                raise NotRepresentableError(f"offset basis {bit} {list(v)} is not a power of two")
            if k == 0:
                stride[d] = 1 << bit
            elif stride[d] is None or stride[d] << k != 1 << bit:
                raise NotRepresentableError(f"the bits of dim{d} are not one contiguous run of offset bits: "
                                            "the address is not affine")
        terms = [f"d{d} * {st}" if st != 1 else f"d{d}" for d, st in enumerate(stride) if st is not None]
        o = " + ".join(terms) or "0"
        pads = "".join(f" + (({o}) floordiv {i}) * {p}" if p != 1 else f" + (({o}) floordiv {i})"
                       for i, p in self._pairs())
        dims = ", ".join(f"d{d}" for d in range(rank))
        return affine.parse(f"({dims}) -> ({o}{pads})")

    def pad(self, offsets):
        """Addresses of linear offsets (numpy, vectorised): ``o + sum((o >> log2 i) << log2 p)``.

        >>> PaddedShared([[2, 1]], [0]).pad([0, 1, 2, 3, 4]).tolist()
        [0, 1, 3, 4, 6]
        """
        o = np.asarray(offsets, dtype=np.int64)
        out = o.copy()
        for i, p in self._pairs():
            out += (o >> (i.bit_length() - 1)) << (p.bit_length() - 1)
        return out

    def address_table(self, shape: Sequence[int] | None = None):
        """The padded address of every tensor element, an array of ``shape`` (block 0's offsets).

        **Post-conditions:** ``table[x] == to_affine()(o)`` where ``offset_layout`` maps ``o`` to ``x``.

        >>> PaddedShared([[4, 1]], [1, 0]).address_table([2, 4]).tolist()   # one pad slot after each row of 4
        [[0, 1, 2, 3], [5, 6, 7, 8]]
        """
        L = self.offset_layout(shape)
        sub = L.sublayout(["offset"], L.out_dim_names)
        if not sub.is_injective():
            raise NotRepresentableError("padded_shared: two offsets hold one element, so an element has no one address")
        shape = [s for _, s in L.out_dims]
        coords = sub.index_map()  # (N, rank): the element at each offset
        table = np.full(shape, -1, dtype=np.int64)
        table[tuple(coords.T)] = self.pad(np.arange(coords.shape[0]))
        return table

    def __str__(self) -> str:
        """``#ttg.padded_shared<[interval:+padding, ...] {order = .., shape = ..}>`` (the identity form) or
        ``{offset = .., block = ..}``: the interval list comes before the fields."""
        pairs = ", ".join(f"{i}:+{p}" for i, p in self.interval_paddings)
        if self.offset_bases is None and not self.block_bases:
            body = f"order = {_list(self.order)}, shape = {_list(self.shape)}"
        elif self.offset_bases is not None:
            body = f"offset = {_list(self.offset_bases)}, block = {_list(self.block_bases or ())}"
        else:
            L = self.offset_layout()
            body = f"offset = {_list(L.bases[0][1])}, block = {_list(L.bases[1][1])}"
        return f"#ttg.padded_shared<[{pairs}] {{{body}}}>"

    @classmethod
    def _read(cls, f):
        """The ``[interval:+padding, ...]`` list (``f.pairs``), then either form's fields."""
        if f.pairs is None:
            f.s.fail("#ttg.padded_shared needs its [interval:+padding, ...] list", f.end)
        pairs, f.pairs = f.pairs[0], None
        if "offset" in f.items:
            return cls(pairs, offset_bases=f.bases("offset"), block_bases=f.bases("block", False, []))
        return cls(pairs, f.ints("order"), f.ints("shape"))
