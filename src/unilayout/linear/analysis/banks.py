"""Shared-memory bank conflicts of a register layout stored to (or loaded from) a shared layout.

``bank_conflicts`` counts the wavefronts of each access phase directly;
``bank_conflicts_formula`` gets the same number from GF(2) ranks (Triton's
formula). Padded shared layouts are counted on their padded addresses.

>>> from unilayout.linear import encodings as E
>>> reg = E.blocked([32, 32], [1, 1], [32, 1], [1, 1], [0, 1])
>>> bank_conflicts(reg, E.swizzled_shared([32, 32], 1, 1, 1, [1, 0]), vec=1)
31
"""

from __future__ import annotations

from ..._ints import as_pow2
from ...errors import LayoutError, NotRepresentableError
from .. import gf2
from ..encodings import PaddedShared, _Encoding
from ..layout import LinearLayout
from ._common import _bases_of, _check
from .vectorise import largest_vectorisation

__all__ = ["bank_conflicts", "bank_conflicts_formula"]


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
