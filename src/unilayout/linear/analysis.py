"""Analyses that linear layouts make one-liners: vectorisation, conversion levels,
shared-memory bank conflicts, and a search for a conflict-free swizzle.

All of them start from a *conversion layout*: for a register (distributed)
layout R and a shared layout S over the same tensor,
``cvt = R.invert_and_compose(S)`` maps each (register, lane, warp, block)
to the shared ``offset`` that holds its element; for two distributed layouts,
``dst.invert_and_compose(src)`` maps each destination slot to the source slot.

>>> from unilayout.linear import encodings as E
>>> reg = E.blocked([32, 32], [1, 4], [8, 4], [1, 1], [1, 0])
>>> shared = E.swizzled_shared([32, 32], 1, 1, 1, [1, 0])
>>> largest_vectorisation(reg.invert_and_compose(shared), bitwidth=16).width
4
>>> conversion_level(reg, reg)
'none'
"""

from __future__ import annotations

import itertools
from typing import NamedTuple, Sequence

from .._ints import as_pow2
from ..errors import LayoutError, NotRepresentableError
from . import gf2
from .algebra import divide_left
from .encodings import PaddedShared, SwizzledShared, _Encoding
from .layout import LinearLayout

__all__ = [
    "Vectorisation",
    "register_permutation_for_divide",
    "largest_vectorisation",
    "minimal_conversion",
    "conversion_levels",
    "conversion_level",
    "bank_conflicts",
    "bank_conflicts_formula",
    "SwizzleChoice",
    "optimal_swizzle",
    "optimal_shared_layout",
    "HARDWARE_LEVELS",
]

#: Distributed in-dims from fastest to slowest.
HARDWARE_LEVELS = ("register", "lane", "warp", "block")


def _bases_of(layout: LinearLayout, name: str):
    for n, vecs in layout._bases:
        if n == name:
            return vecs
    return ()


def _check(layout, what):
    if not isinstance(layout, LinearLayout):
        raise LayoutError(f"{what}: expected a LinearLayout, got {type(layout).__name__}")


# ----------------------------------------------------------- vectorisation
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


# ------------------------------------------------------- conversion levels
def minimal_conversion(src: LinearLayout, dst: LinearLayout) -> LinearLayout:
    """The smallest part of ``dst.invert_and_compose(src)`` that is not the identity
    (Triton ``minimalCvtLayout``).

    ``cvt`` maps each destination slot to the source slot holding its element.
    The in-dims common to both layouts at the end of their lists (normally
    ``register, lane, warp, block``) are quotiented out one at a time,
    slowest first, stopping at the first that does not quotient; what remains
    is the data movement the conversion really needs.

    **Pre-conditions:** the same out-dims; ``src`` surjective; dst's out sizes <= src's.

    >>> from unilayout.linear import LinearLayout
    >>> src = LinearLayout({"register": [[2], [1]], "lane": [[4], [8]]}, ["dim0"])
    >>> dst = LinearLayout({"register": [[1], [2]], "lane": [[4], [8]]}, ["dim0"])
    >>> minimal_conversion(src, dst)
    LinearLayout({'register': [[2], [1]]}, {'register': 4})
    """
    _check(src, "minimal_conversion")
    _check(dst, "minimal_conversion")
    cvt = dst.invert_and_compose(src)
    a, b = src.in_dim_names, dst.in_dim_names
    suffix = []
    for x, y in zip(reversed(a), reversed(b)):
        if x != y:
            break
        suffix.append(x)
    for dim in suffix:  # slowest (last) first
        q = cvt.quotient([dim])
        if q is None:
            break
        cvt = q
    return cvt


def conversion_levels(src: LinearLayout, dst: LinearLayout) -> tuple[str, ...]:
    """The in-dims a ``src -> dst`` conversion still moves data across (``minimal_conversion``'s in-dims).

    >>> from unilayout.linear import identity_1d
    >>> L = identity_1d(4, "register", "dim0") * identity_1d(32, "lane", "dim0")
    >>> conversion_levels(L, L)
    ()
    """
    return tuple(minimal_conversion(src, dst).in_dim_names)


def conversion_level(src: LinearLayout, dst: LinearLayout) -> str:
    """The slowest hardware level a ``src -> dst`` conversion crosses:

    - ``"none"``: the layouts agree, nothing moves;
    - ``"register"``: registers are permuted within each thread;
    - ``"lane"``: data moves between lanes of a warp (shuffles or shared memory);
    - ``"warp"``: data moves between warps (shared memory);
    - ``"block"``: data moves between CTAs of a cluster.

    For in-dims outside ``register, lane, warp, block`` the slowest remaining
    in-dim name is returned.

    >>> from unilayout.linear import LinearLayout
    >>> src = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [32]], "warp": [[64], [128]]}, ["dim0"])
    >>> dst = LinearLayout({"register": [[128]], "lane": [[1], [2], [4], [8], [16]], "warp": [[32], [64]]}, ["dim0"])
    >>> conversion_level(src, dst)
    'warp'
    """
    dims = conversion_levels(src, dst)
    if not dims:
        return "none"
    known = [d for d in HARDWARE_LEVELS if d in dims]
    others = [d for d in dims if d not in HARDWARE_LEVELS]
    if others:
        return others[-1]
    return known[-1]


# ---------------------------------------------------------- bank conflicts
def _shared_cvt(reg: LinearLayout, shared: LinearLayout) -> LinearLayout:
    _check(reg, "bank_conflicts")
    _check(shared, "bank_conflicts")
    if not shared.has_in_dim("offset"):
        raise LayoutError(f"bank_conflicts: the shared layout needs an 'offset' in-dim, got {shared.in_dim_names}")
    for d in ("register", "lane"):
        if not reg.has_in_dim(d):
            raise LayoutError(f"bank_conflicts: the distributed layout needs a {d!r} in-dim, got {reg.in_dim_names}")
    return reg.invert_and_compose(shared)


def _shared_of(reg, shared):
    """A shared encoding value (other than padded) becomes its layout at ``reg``'s shape."""
    if isinstance(shared, _Encoding) and not isinstance(shared, PaddedShared) and isinstance(reg, LinearLayout):
        return shared.to_linear([s for _, s in reg.out_dims])
    return shared


def _offset_of(cvt: LinearLayout, name: str) -> list[int]:
    j = cvt._out_index("offset")
    if not cvt.has_in_dim(name):
        return []
    return [v[j] for v in _bases_of(cvt, name)]


def _phase_setup(reg, shared, bitwidth, vec, num_banks, bank_bytes, max_elems=None):
    cvt = _shared_cvt(reg, shared)
    bitwidth = as_pow2(bitwidth, "bitwidth")
    num_banks = as_pow2(num_banks, "num_banks")
    bank_bytes = as_pow2(bank_bytes, "bank_bytes")
    wavefront_bits = num_banks * bank_bytes * 8
    if vec is None:
        bits = min(128, wavefront_bits) if max_elems is None else min(128, wavefront_bits, max_elems * bitwidth)
        found = largest_vectorisation(cvt, bitwidth, max_bits=max(bits, bitwidth))
        width, cvt = found.width, found.layout
    else:
        width = as_pow2(vec, "vec")
        if width > cvt.in_dim_size("register"):
            raise LayoutError(f"bank_conflicts: vec {width} exceeds the {cvt.in_dim_size('register')} registers")
    lanes = cvt.in_dim_size("lane")
    access_bits = max(width * bitwidth, 1)
    phase = max(1, min(lanes, wavefront_bits // access_bits))
    return cvt, width, phase, bitwidth, num_banks, bank_bytes


def bank_conflicts(reg: LinearLayout, shared, bitwidth: int = 32, vec: int | None = None,
                   num_banks: int = 32, bank_bytes: int = 4) -> int:
    """Extra wavefronts per shared-memory access of a distributed -> shared copy (0 = conflict-free).

    ``cvt = reg.invert_and_compose(shared)``; each lane moves ``vec``
    consecutive registers (default: :func:`largest_vectorisation`) as one access
    of ``vec * bitwidth`` bits. A warp's access is served in phases of
    ``min(lanes, num_banks * bank_bytes * 8 / (vec * bitwidth))`` lanes; in a
    phase, bank b (``word % num_banks``, words of ``bank_bytes``) needs one
    wavefront per distinct word (several lanes reading one word is a free
    broadcast). The result is the worst bank's wavefronts minus 1 — by
    linearity the same for every phase, register group, warp and block.

    **Post-conditions:** equals :func:`bank_conflicts_formula` for the same arguments.

    >>> from unilayout.linear import encodings as E
    >>> reg = E.blocked([32, 32], [1, 1], [32, 1], [1, 1], [0, 1])   # lane i holds row i
    >>> plain = E.swizzled_shared([32, 32], 1, 1, 1, [1, 0])            # rows 128 bytes apart
    >>> bank_conflicts(reg, plain, vec=1)      # 32 lanes on bank 0
    31
    >>> bank_conflicts(reg, plain)             # 128-bit vectors: 8 lanes per phase, all on banks 0-3
    7
    >>> bank_conflicts(reg, E.swizzled_shared([32, 32], 4, 1, 8, [1, 0]))  # XOR swizzle
    0

    ``shared`` may also be a shared encoding value (taken at ``reg``'s shape), a
    ``PaddedShared`` one included:
    the same count on padded addresses (``offset + sum(floor(offset/interval)*padding)``),
    vectors no wider than the smallest interval, so a padded and a swizzled
    layout compare side by side:

    >>> bank_conflicts(reg, E.PaddedShared([[32, 1]], [1, 0], shape=[32, 32]), vec=1)  # one word per row
    0
    >>> bank_conflicts(reg, E.PaddedShared([[32, 4]], [1, 0], shape=[32, 32]))     # 4-word rows: 16 B pad
    0
    """
    pads = smallest = None
    shared = _shared_of(reg, shared)
    if isinstance(shared, PaddedShared):  # count on padded addresses, vectors within the smallest interval
        pads = [(i.bit_length() - 1, p.bit_length() - 1) for i, p in shared._pairs()]
        smallest = min(1 << i for i, _ in pads)
        shared = shared.offset_layout([s for _, s in reg.out_dims])
    cvt, width, phase, bitwidth, num_banks, bank_bytes = _phase_setup(reg, shared, bitwidth, vec, num_banks,
                                                                      bank_bytes, max_elems=smallest)
    reg_off = _offset_of(cvt, "register")[: width.bit_length() - 1]
    lane_off = _offset_of(cvt, "lane")[: phase.bit_length() - 1]
    words_by_bank: dict[int, set] = {}
    for lane in range(phase):
        base = 0
        for i, o in enumerate(lane_off):
            if lane >> i & 1:
                base ^= o
        for j in range(width):
            off = base
            for i, o in enumerate(reg_off):
                if j >> i & 1:
                    off ^= o
            if pads:
                off += sum((off >> li) << lp for li, lp in pads)
            word = (off * bitwidth // 8) // bank_bytes
            words_by_bank.setdefault(word % num_banks, set()).add(word)
    return max(len(w) for w in words_by_bank.values()) - 1


def bank_conflicts_formula(reg: LinearLayout, shared: LinearLayout, bitwidth: int = 32, vec: int | None = None,
                           num_banks: int = 32, bank_bytes: int = 4) -> int:
    """:func:`bank_conflicts` by linear algebra: ``2**dim(span(lane offsets of a phase, as words)
    ∩ span(segment bits)) - 1``.

    Word addresses split into bank bits (the low ``log2 num_banks``) and
    segment bits (the rest); two accesses conflict iff they differ only in
    segment bits, so the worst bank sees one word per element of the
    intersection of the phase's word span with the segment subspace.

    >>> from unilayout.linear import encodings as E
    >>> reg = E.blocked([32, 32], [1, 1], [32, 1], [1, 1], [0, 1])
    >>> bank_conflicts_formula(reg, E.swizzled_shared([32, 32], 1, 1, 1, [1, 0]), vec=1)
    31
    """
    shared = _shared_of(reg, shared)
    if isinstance(shared, PaddedShared):
        raise NotRepresentableError("bank_conflicts_formula: padded addresses are not linear over GF(2); "
                                    "use bank_conflicts, which counts them")
    cvt, width, phase, bitwidth, num_banks, bank_bytes = _phase_setup(reg, shared, bitwidth, vec, num_banks,
                                                                      bank_bytes)
    reg_off = _offset_of(cvt, "register")[: width.bit_length() - 1]
    lane_off = _offset_of(cvt, "lane")[: phase.bit_length() - 1]
    # Element offsets -> word addresses: drop (or scale) the sub-word bits.
    elems_per_word = max(1, bank_bytes * 8 // bitwidth)
    words_per_elem = max(1, bitwidth // (bank_bytes * 8))
    shift = elems_per_word.bit_length() - 1
    mult = words_per_elem

    def word(o):
        return (o >> shift) * mult

    cols = [word(o) for o in reg_off + lane_off]
    # a wide element spans several consecutive words
    cols += [1 << k for k in range(mult.bit_length() - 1)]
    # dim(span ∩ segment space) = rank(span) - rank(span projected onto the bank bits)
    bank_mask = num_banks - 1
    return (1 << (gf2.rank(cols) - gf2.rank(c & bank_mask for c in cols))) - 1


# ---------------------------------------------------------------- swizzling
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

