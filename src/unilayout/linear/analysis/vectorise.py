"""Vectorisation: how many consecutive registers one access can move (Triton ``largestVectorisation``).

The registers whose offsets are 1, 2, ..., v/2 are moved to the front, and a
width v works when the conversion layout divides by ``identity_1d(v,
"register", "offset")``.

>>> from unilayout.linear import encodings as E
>>> reg = E.blocked([32, 32], [1, 4], [8, 4], [1, 1], [1, 0])
>>> cvt = reg.invert_and_compose(E.swizzled_shared([32, 32], 1, 1, 1, [1, 0]))
>>> largest_vectorisation(cvt, bitwidth=16).width
4
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from ..._ints import as_pow2
from ...errors import LayoutError
from ..algebra import divide_left
from ..layout import LinearLayout
from ._common import _bases_of, _check

__all__ = ["Vectorisation", "register_permutation_for_divide", "largest_vectorisation"]


def register_permutation_for_divide(layout: LinearLayout, tile: LinearLayout) -> list[int] | None:
    """A permutation of ``layout``'s register bases that puts ``tile``'s register bases first
    (Triton ``regPermForDivide``, left division), or None if some tile basis is missing.

    Each tile basis (extended with 0 on out-dims the tile lacks) is matched to
    the first unused equal register basis; the other registers keep their order.
    ``perm[i]`` is the old index of the new i-th basis.

    >>> from unilayout.linear import LinearLayout, identity_1d
    >>> cvt = LinearLayout({"register": [[4], [1], [2]]}, {"offset": 8})
    >>> register_permutation_for_divide(cvt, identity_1d(4, "register", "offset"))
    [1, 2, 0]
    """
    _check(layout, "register_permutation_for_divide")
    _check(tile, "register_permutation_for_divide")
    if not layout.has_in_dim("register") or not tile.has_in_dim("register"):
        return None
    outs = layout.out_dim_names
    tpos = {n: k for k, n in enumerate(tile.out_dim_names)}
    if any(n not in outs for n in tpos):
        return None
    regs = _bases_of(layout, "register")
    used = [False] * len(regs)
    perm = []
    for tb in _bases_of(tile, "register"):
        want = tuple(tb[tpos[n]] if n in tpos else 0 for n in outs)
        for i, r in enumerate(regs):
            if not used[i] and r == want:
                used[i] = True
                perm.append(i)
                break
        else:
            return None
    perm.extend(i for i in range(len(regs)) if not used[i])
    return perm


def _permute_registers(layout: LinearLayout, perm: Sequence[int]) -> LinearLayout:
    new = []
    for name, vecs in layout._bases:
        if name == "register":
            vecs = tuple(vecs[i] for i in perm)
        new.append((name, vecs))
    return LinearLayout._make(tuple(new), layout._outs)


class Vectorisation(NamedTuple):
    """Result of :func:`largest_vectorisation`: ``width`` elements per access, the
    register permutation applied (``perm[i]`` = old index of new register bit i),
    and the permuted conversion layout whose first ``log2 width`` register bits are the vector.

    >>> from unilayout.linear import LinearLayout
    >>> v = largest_vectorisation(LinearLayout({"register": [[1], [2]]}, {"offset": 4}))
    >>> v.width, v.permutation, v.layout.in_dim_size("register")
    (4, [0, 1], 4)
    """

    width: int
    permutation: list
    layout: LinearLayout


def largest_vectorisation(cvt: LinearLayout, bitwidth: int = 32, max_vec_elems: int | None = None,
                          max_bits: int = 128) -> Vectorisation:
    """The widest vector of ``v`` consecutive registers that one shared-memory access can move
    (Triton ``largestVectorisation``).

    ``cvt`` maps at least ``register`` to ``offset`` (in elements of
    ``bitwidth`` bits). For v = max_bits/bitwidth, ..., 2, 1 it tries the tile
    ``identity_1d(v, "register", "offset")``: the register bases equal to
    offsets 1, 2, ..., v/2 are moved to the front (:func:`register_permutation_for_divide`;
    skipped when ``max_vec_elems`` is given, as in Triton) and v is accepted
    if ``divide_left(cvt', tile)`` exists, i.e. those registers hit v
    consecutive, v-aligned offsets and nothing else touches the low offset bits.

    **Post-conditions:** ``divide_left(result.layout, identity_1d(width, "register", "offset"))``
    is not None.

    >>> from unilayout.linear import LinearLayout
    >>> cvt = LinearLayout({"register": [[2], [1], [8]], "lane": [[4]]}, {"offset": 16})
    >>> v = largest_vectorisation(cvt, bitwidth=32)
    >>> v.width, v.permutation
    (4, [1, 0, 2])
    """
    _check(cvt, "largest_vectorisation")
    bitwidth = as_pow2(bitwidth, "bitwidth")
    max_bits = as_pow2(max_bits, "max_bits")
    if not cvt.has_in_dim("register") or not cvt.has_out_dim("offset"):
        raise LayoutError(
            f"largest_vectorisation: the conversion layout needs in-dim 'register' and out-dim 'offset', "
            f"got in-dims {cvt.in_dim_names} and out-dims {cvt.out_dim_names}: pass reg.invert_and_compose(shared)"
        )
    identity_perm = list(range(cvt.in_dim_size_log2("register")))
    v = max(1, max_bits // bitwidth)
    while v >= 1:
        if max_vec_elems is not None and v > max_vec_elems:
            v //= 2
            continue
        tile = LinearLayout.identity_1d(v, "register", "offset")
        if max_vec_elems is None:
            perm = register_permutation_for_divide(cvt, tile)
        else:
            perm = identity_perm
        if perm is not None:
            candidate = _permute_registers(cvt, perm)
            if divide_left(candidate, tile) is not None:
                return Vectorisation(v, perm, candidate)
        v //= 2
    return Vectorisation(1, identity_perm, cvt)
