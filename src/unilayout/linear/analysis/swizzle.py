"""Choosing a shared layout for a conversion: the best ``#ttg.swizzled_shared`` (``optimal_swizzle``)
and a conflict-free linear one built from GF(2) spans (``optimal_shared_layout``).

>>> from unilayout.linear import encodings as E
>>> src = E.blocked([16, 16], [1, 1], [1, 32], [1, 1], [1, 0])
>>> dst = E.blocked([16, 16], [1, 1], [32, 1], [1, 1], [0, 1])
>>> r = optimal_swizzle(src, dst)
>>> plain = E.swizzled_shared([16, 16], 1, 1, 1, [1, 0])
>>> sum(r.conflicts) <= bank_conflicts(src, plain) + bank_conflicts(dst, plain)
True
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

from ..._ints import as_pow2
from ...errors import LayoutError
from .. import gf2
from ..encodings import SwizzledShared
from ..layout import LinearLayout
from ._common import _check
from .banks import bank_conflicts
from .vectorise import largest_vectorisation

__all__ = ["SwizzleChoice", "optimal_swizzle", "optimal_shared_layout"]


class SwizzleChoice(NamedTuple):
    """Result of :func:`optimal_swizzle`: the shared layout, its swizzled-shared
    parameters, and the bank conflicts of the src and dst accesses.

    >>> from unilayout.linear import encodings as E
    >>> reg = E.blocked([8, 8], [1, 1], [8, 4], [1, 1], [1, 0])
    >>> r = optimal_swizzle(reg, reg)
    >>> r.layout == E.swizzled_shared([8, 8], r.vec, r.per_phase, r.max_phase, r.order)
    True
    """

    layout: LinearLayout
    vec: int
    per_phase: int
    max_phase: int
    order: tuple
    conflicts: tuple


def optimal_swizzle(src: LinearLayout, dst: LinearLayout, bitwidth: int = 32, num_banks: int = 32,
                    bank_bytes: int = 4) -> SwizzleChoice:
    """Search the swizzled shared layouts (``vec, per_phase, max_phase, order``) of the
    tensor for one that minimises the bank conflicts of storing ``src`` and loading ``dst``.

    The key is (total conflicts, -(src + dst vectorisation), then the
    simplest parameters), so a conflict-free swizzle is returned when the
    family has one. ``src`` and ``dst`` are distributed layouts over the same
    out-dims ``dim0..``; their out sizes give the tensor shape.

    **Post-conditions:** ``bank_conflicts(src, r.layout) + bank_conflicts(dst, r.layout)
    == sum(r.conflicts)`` and no other swizzle of the family does better.

    >>> from unilayout.linear import encodings as E
    >>> src = E.blocked([32, 32], [1, 1], [1, 32], [1, 1], [1, 0])   # lanes along rows
    >>> dst = E.blocked([32, 32], [1, 1], [32, 1], [1, 1], [0, 1])   # lanes along columns
    >>> r = optimal_swizzle(src, dst)
    >>> r.conflicts
    (0, 0)
    """
    _check(src, "optimal_swizzle")
    _check(dst, "optimal_swizzle")
    if src.out_dim_names != dst.out_dim_names or src.out_dims != dst.out_dims:
        raise LayoutError(
            f"optimal_swizzle: src and dst must cover the same tensor, got {src.out_dims} and {dst.out_dims}"
        )
    names = src.out_dim_names
    rank = len(names)
    if names != [f"dim{i}" for i in range(rank)] or rank == 0:
        raise LayoutError(f"optimal_swizzle: expected out-dims dim0, dim1, ..., got {names}")
    shape = [s for _, s in src.out_dims]
    powers = [1 << k for k in range(8)]
    best = None
    for order in itertools.permutations(range(rank)):
        ncols = shape[order[0]]
        for vec in powers:
            if vec > ncols and vec != 1:
                continue
            for per_phase in powers:
                for max_phase in powers:
                    if max_phase > 1 and vec * max_phase > ncols:
                        continue
                    if max_phase == 1 and (vec, per_phase) != (1, 1):
                        continue
                    enc = SwizzledShared(vec, per_phase, max_phase, list(order))
                    shared = enc.to_linear(shape)
                    cs = bank_conflicts(src, shared, bitwidth, None, num_banks, bank_bytes)
                    cd = bank_conflicts(dst, shared, bitwidth, None, num_banks, bank_bytes)
                    vs = largest_vectorisation(src.invert_and_compose(shared), bitwidth).width
                    vd = largest_vectorisation(dst.invert_and_compose(shared), bitwidth).width
                    key = (cs + cd, -(vs + vd), max_phase, per_phase, vec, order)
                    if best is None or key < best[0]:
                        best = (key, SwizzleChoice(shared, vec, per_phase, max_phase, tuple(order), (cs, cd)))
        if rank == 1:
            break
    return best[1]


def optimal_shared_layout(src: LinearLayout, dst: LinearLayout, bitwidth: int = 32, num_banks: int = 32,
                          bank_bytes: int = 4, max_bits: int = 128) -> LinearLayout:
    """Build (not search) a bijective shared layout ``offset -> tensor`` for storing ``src``
    and loading ``dst`` with wide vectors and no bank conflicts (the idea of Triton's
    ``optimalSwizzlingLdSt``).

    Offset bits are split into *vector* bits (the lowest), *bank* bits (the
    rest of one ``num_banks * bank_bytes`` row) and *segment* bits (above):

    - vector bits: tensor vectors that are register bases of both layouts
      (widest common vector, at most ``max_bits``);
    - segment bits: vectors that meet neither ``span(vector + src phase lanes)``
      nor ``span(vector + dst phase lanes)`` — unit vectors first, then XORs of
      lane bases, then any — so no two lanes of a phase hit one bank in
      different words (such a common complement always exists over GF(2));
    - bank bits: the remaining unit vectors completing a basis; the lowest one
      is, preferably, a register of neither side (or a side would vectorise
      wider than planned and use other phases), and each choice is tried until
      both sides are conflict-free.

    **Post-conditions:** the result is invertible with in-dim ``offset`` and
    ``src``'s out-dims, and both sides get at least the common vector width.
    Conflicts are 0 for both sides except in rare corner cases (in the tests:
    every random 2-D blocked pair with 16- to 64-bit elements, and all but
    about 1 in 1000 with 8-bit elements, where every unit vector is some
    side's register).

    >>> from unilayout.linear import encodings as E
    >>> src = E.blocked([64, 64], [1, 4], [4, 8], [4, 1], [1, 0])
    >>> dst = E.blocked([64, 64], [4, 1], [8, 4], [1, 4], [0, 1])
    >>> S = optimal_shared_layout(src, dst, bitwidth=16)
    >>> bank_conflicts(src, S, 16), bank_conflicts(dst, S, 16)
    (0, 0)
    """
    _check(src, "optimal_shared_layout")
    _check(dst, "optimal_shared_layout")
    if src.out_dims != dst.out_dims:
        raise LayoutError(
            f"optimal_shared_layout: src and dst must cover the same tensor (same out-dims and sizes), "
            f"got {src.out_dims} and {dst.out_dims}"
        )
    for L in (src, dst):
        if not L.has_in_dim("register") or not L.has_in_dim("lane"):
            raise LayoutError(f"optimal_shared_layout: distributed layouts need register and lane in-dims, got "
                              f"{L.in_dim_names}")
        if not L.is_surjective():
            raise LayoutError("optimal_shared_layout: src and dst must be surjective onto the tensor")
    bitwidth = as_pow2(bitwidth, "bitwidth")
    row_bits = as_pow2(num_banks, "num_banks") * as_pow2(bank_bytes, "bank_bytes") * 8
    max_bits = as_pow2(max_bits, "max_bits")
    n = src.total_out_dim_size_log2

    def cols(L, name):
        c0 = 0
        for nm, vecs in L._bases:
            if nm == name:
                return [c for c in L._columns()[c0:c0 + len(vecs)]]
            c0 += len(vecs)
        return []

    # 1. vector bits: common register columns, in src order, independent, capped.
    max_vec = max(1, min(max_bits, row_bits) // bitwidth).bit_length() - 1
    dst_regs = set(c for c in cols(dst, "register") if c)
    vec = []
    for c in cols(src, "register"):
        if len(vec) == max_vec:
            break
        if c and c in dst_regs and gf2.rank(vec + [c]) == len(vec) + 1:
            vec.append(c)
    k = len(vec)
    row_elem_bits = max(0, (row_bits // bitwidth).bit_length() - 1)
    b = max(0, min(n - k, row_elem_bits - k))
    g = n - k - b

    def phase_lanes(L):
        lanes = [c for c in cols(L, "lane")]
        width_bits = max(1, (1 << k) * bitwidth)
        phase = max(1, min(1 << len(lanes), row_bits // width_bits)) if lanes else 1
        return [c for c in lanes[: phase.bit_length() - 1] if c]

    spans = [vec + phase_lanes(src), vec + phase_lanes(dst)]
    base_ranks = [gf2.rank(sp) for sp in spans]
    seg: list[int] = []

    def fits(c):
        if gf2.rank(vec + seg + [c]) != k + len(seg) + 1:
            return False
        for sp, r in zip(spans, base_ranks):
            if gf2.rank(sp + seg + [c]) != r + len(seg) + 1:
                return False
        return True

    def candidates():
        units = [1 << i for i in range(n - 1, -1, -1)]  # high bits first: segment = high offsets
        yield from units
        lanes = [c for sp in spans for c in sp[k:]]
        for a, c in itertools.combinations(lanes, 2):
            yield a ^ c
        for a, c in itertools.combinations(units, 2):
            yield a ^ c
        for v in range(1, 1 << min(n, 20)):
            yield v

    if g:
        for c in candidates():
            if fits(c):
                seg.append(c)
                if len(seg) == g:
                    break
    if len(seg) < g:  # conflicts unavoidable: complete the basis with anything independent
        for i in range(n):
            c = 1 << i
            if gf2.rank(vec + seg + [c]) == k + len(seg) + 1:
                seg.append(c)
                if len(seg) == g:
                    break
    bank: list[int] = []
    for i in range(n):
        if len(bank) == b:
            break
        c = 1 << i
        if gf2.rank(vec + bank + seg + [c]) == k + len(bank) + len(seg) + 1:
            bank.append(c)
    # The lowest bank bit decides whether a side vectorises wider than planned (and so
    # uses shorter phases): prefer one that is a register of neither side, and keep the
    # first ordering without conflicts (else the best one).
    regs = set(cols(src, "register")) | set(cols(dst, "register"))
    bank.sort(key=lambda c: c in regs)
    outs = src._outs

    def build(bank_order):
        vecs = []
        for c in vec + bank_order + sorted(seg):
            v = []
            for _, size in outs:
                v.append(c & (size - 1))
                c >>= size.bit_length() - 1
            vecs.append(v)
        return LinearLayout({"offset": vecs}, dict(outs))

    best = None
    for first in range(max(1, len(bank))):
        order = bank[first:first + 1] + bank[:first] + bank[first + 1:]
        S = build(order)
        cost = (bank_conflicts(src, S, bitwidth, None, num_banks, bank_bytes)
                + bank_conflicts(dst, S, bitwidth, None, num_banks, bank_bytes))
        if best is None or cost < best[0]:
            best = (cost, S)
        if cost == 0:
            break
    return best[1]
