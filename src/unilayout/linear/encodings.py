"""Triton's layout encodings as linear layouts, for a given tensor shape.

Each encoding is a small frozen value (``Blocked``, ``NvidiaMma``,
``DotOperand``, ``AmdMfma``, ``AmdWmma``, ``Slice``, ``SwizzledShared``)
with Triton's parameter names in snake_case and a ``to_linear(shape)``
method; the functions ``blocked(shape, ...)``, ``nvidia_mma(shape, ...)``,
``dot_operand``, ``amd_mfma``, ``amd_wmma``, ``slice_layout`` (alias
``slice``) and ``swizzled_shared`` build one and convert it in a single call. The results agree with
Triton 3.9.0's own conversion (``toLinearLayout``, reached from Python
through Gluon); the tests check that on many parameter combinations.

Distributed encodings map ``register, lane, warp, block`` to
``dim0 .. dim{r-1}``; shared ones map ``offset, block``. Out sizes equal the
shape. Every encoding first builds the layout of one CTA (its "tile" plus
warps), then *fits it to the shape* (Triton's ``combineCtaCgaWithShape``):

1. grow each out-dim that is too small by repeating the tile along the first
   in-dim (``register`` or ``offset``), out-dims in the CTA layout's order;
2. shrink each out-dim that is too large by zeroing its largest basis entry
   (one per halving), so surplus lanes/warps broadcast;
3. multiply by the CGA layout (``block`` bases in units of the CTA tile;
   default: one CTA) and list out-dims as ``dim0, dim1, ...``.

The seed's MFMA example:

>>> L = amd_mfma([32, 64], version=3, instr_shape=[16, 16, 16], is_transposed=False, warps_per_cta=[2, 2])
>>> print(L)
<BLANKLINE>
 - register=1 -> (1, 0)
   register=2 -> (2, 0)
   register=4 -> (0, 32)
 - lane=1 -> (0, 1)
   lane=2 -> (0, 2)
   lane=4 -> (0, 4)
   lane=8 -> (0, 8)
   lane=16 -> (4, 0)
   lane=32 -> (8, 0)
 - warp=1 -> (0, 16)
   warp=2 -> (16, 0)
 - block is a size 1 dimension
where out dims are: [dim0 (size 32), dim1 (size 64)]

Not covered (raise ``LayoutError`` saying so): 64-bit and 4x64 MFMA
instructions, MFMA/WMMA dot operands, NVMMA shared layouts. Padded shared
layouts are not linear at all (``NotRepresentableError``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ..errors import LayoutError, NotRepresentableError
from .._ints import as_int, as_pow2
from .layout import LinearLayout, identity_standard_nd

__all__ = [
    "Blocked",
    "NvidiaMma",
    "DotOperand",
    "AmdMfma",
    "AmdWmma",
    "Slice",
    "SwizzledShared",
    "PaddedShared",
    "blocked",
    "nvidia_mma",
    "dot_operand",
    "amd_mfma",
    "amd_wmma",
    "slice_layout",
    "slice",
    "swizzled_shared",
    "fit_to_shape",
    "DISTRIBUTED_IN_DIMS",
]

#: In-dims of distributed encodings, in order.
DISTRIBUTED_IN_DIMS = ("register", "lane", "warp", "block")


# --------------------------------------------------------------- helpers
def _ints(values: Any, what: str, length: int | None = None) -> tuple[int, ...]:
    if isinstance(values, (str, bytes)):
        raise LayoutError(f"{what} must be a list of ints, got {values!r}")
    try:
        out = tuple(as_int(v, f"{what} entry") for v in values)
    except TypeError:
        raise LayoutError(f"{what} must be a list of ints, got {values!r}") from None
    if length is not None and len(out) != length:
        raise LayoutError(f"{what} has {len(out)} entries but the tensor has rank {length}: give one per dim")
    return out


def _pow2s(values: Any, what: str, length: int | None = None) -> tuple[int, ...]:
    out = _ints(values, what, length)
    for i, v in enumerate(out):
        as_pow2(v, f"{what} {list(out)}: entry {i}")
    return out


def _order(order: Any, rank: int, what: str = "order") -> tuple[int, ...]:
    out = _ints(order, what, rank)
    if sorted(out) != list(range(rank)):
        raise LayoutError(f"{what} {list(out)} must be a permutation of 0..{rank - 1}")
    return out


def _shape(shape: Any) -> tuple[int, ...]:
    out = _pow2s(shape, "shape")
    if not out:
        raise LayoutError("shape must have at least one dim")
    return out


def _dims(rank: int) -> list[str]:
    return [f"dim{i}" for i in range(rank)]


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


def _cga_layout(cga_layout, rank: int) -> LinearLayout:
    """The ``block`` layout in CTA-tile units; it must reach every tile it spans (Triton aborts otherwise)."""
    cga = _bases_layout("block", cga_layout or [], rank)
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


def fit_to_shape(cta: LinearLayout, shape: Sequence[int], cga_layout=None, _after_grow=None,
                 _grow_to_full_shape=False) -> LinearLayout:
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
    shape = _shape(shape)
    rank = len(shape)
    names = _dims(rank)
    if sorted(cta.out_dim_names) != names:
        raise LayoutError(f"fit_to_shape: the CTA layout's out-dims {cta.out_dim_names} must be {names}")
    cga = _cga_layout(cga_layout, rank)
    for d, s in zip(names, shape):
        cga = _shrink(cga, d, s)
    cga = cga.transpose_outs(cta.out_dim_names)
    first = cta.in_dim_names[0]
    want = {d: max(1, s // cga.out_dim_size(d)) for d, s in zip(names, shape)}
    grow = dict(want)
    for d in _grow_to_full_shape or ():
        grow[d] = shape[names.index(d)]
    for d in cta.out_dim_names:
        have = cta.out_dim_size(d)
        if have < grow[d]:
            cta = cta * LinearLayout.identity_1d(grow[d] // have, first, d)
    if _after_grow is not None:
        cta = _after_grow(cta)
    for d in cta.out_dim_names:
        cta = _shrink(cta, d, want[d])
    return (cta * cga).transpose_outs(names)


class _Encoding:
    """Base of the encoding values: each implements ``to_linear(shape)``."""


# ---------------------------------------------------------------- blocked
@dataclass(frozen=True)
class Blocked(_Encoding):
    """Triton's ``#ttg.blocked``: ``size_per_thread`` contiguous elements per thread,
    ``threads_per_warp`` and ``warps_per_cta`` per dim, dims walked in ``order`` (minor first).

    CTA layout: ``isn(register, spt, order) * isn(lane, tpw, order) * isn(warp, wpc, order)``
    (isn = :func:`identity_standard_nd`), then fitted to the shape. As in
    Triton 3.9.0, ``size_per_thread`` is first clamped to the (per-CTA) shape,
    so a thread holds no repeated register for a dim smaller than its vector.

    >>> Blocked([2, 2], [4, 8], [2, 2], [1, 0]).to_linear([32, 32]).bases[0]
    ('register', [[0, 1], [1, 0], [16, 0]])
    """

    size_per_thread: Sequence[int]
    threads_per_warp: Sequence[int]
    warps_per_cta: Sequence[int]
    order: Sequence[int]
    cga_layout: Sequence[Sequence[int]] | None = None

    def to_linear(self, shape: Sequence[int]) -> LinearLayout:
        """The layout for ``shape`` (see the class docstring).

        >>> Blocked([1], [4], [1], [0]).to_linear([8]).bases[:2]
        [('register', [[4]]), ('lane', [[1], [2]])]
        """
        shape = _shape(shape)
        rank = len(shape)
        spt = _pow2s(self.size_per_thread, "size_per_thread", rank)
        tpw = _pow2s(self.threads_per_warp, "threads_per_warp", rank)
        wpc = _pow2s(self.warps_per_cta, "warps_per_cta", rank)
        order = _order(self.order, rank)
        # Triton 3.9.0 clamps size_per_thread to the per-CTA shape (no zero register bases).
        cga = _cga_layout(self.cga_layout, rank)
        spt = tuple(min(s, max(1, n // cga.out_dim_size(f"dim{d}"))) for d, (s, n) in enumerate(zip(spt, shape)))
        cta = (
            identity_standard_nd("register", spt, order)
            * identity_standard_nd("lane", tpw, order)
            * identity_standard_nd("warp", wpc, order)
        )
        return fit_to_shape(cta, shape, self.cga_layout)


def blocked(shape, size_per_thread, threads_per_warp, warps_per_cta, order, cga_layout=None) -> LinearLayout:
    """The linear layout of ``#ttg.blocked`` for ``shape``; see :class:`Blocked`.

    >>> L = blocked([32, 32], [2, 2], [4, 8], [2, 2], [1, 0])
    >>> L.bases[1:3]
    [('lane', [[0, 2], [0, 4], [0, 8], [2, 0], [4, 0]]), ('warp', [[0, 16], [8, 0]])]
    """
    return Blocked(size_per_thread, threads_per_warp, warps_per_cta, order, cga_layout).to_linear(shape)


# ------------------------------------------------------------ NVIDIA MMA
def _mma_tile(rank: int, tile_m: int, tile_n: int, k_width: int, inner: int, outer: int,
              rep_order: Sequence[int]) -> LinearLayout:
    """Triton's ``nvidiaMmaTile``: k_width registers and 4 lanes along the inner dim,
    8 lanes along the outer dim, then register repeats outer then inner."""
    names = _dims(rank)
    if tile_m % 8 or tile_n % (k_width * 4):
        raise LayoutError(
            f"MMA tile {tile_m}x{tile_n} must be a multiple of 8 x {k_width * 4} (k_width {k_width})"
        )
    L = identity_standard_nd("register", [1] * rank, rep_order)
    L = (
        L
        * LinearLayout.identity_1d(k_width, "register", names[inner])
        * LinearLayout.identity_1d(4, "lane", names[inner])
        * LinearLayout.identity_1d(8, "lane", names[outer])
        * LinearLayout.identity_1d(tile_m // 8, "register", names[outer])
        * LinearLayout.identity_1d(tile_n // (k_width * 4), "register", names[inner])
    )
    return L


def _mma_version(version) -> int:
    if isinstance(version, (list, tuple)):
        if not version:
            raise LayoutError("version must be an int or [major, minor]")
        version = version[0]
    v = as_int(version, "MMA version")
    if v not in (2, 3):
        raise LayoutError(f"NVIDIA MMA version {v} is not supported: use 2 (Ampere) or 3 (Hopper)")
    return v


@dataclass(frozen=True)
class NvidiaMma(_Encoding):
    """Triton's ``#ttg.nvidia_mma`` (``NVMMADistributedLayout``), version 2 or 3.

    Tile (instr M x N): register N:1; lane N:2,4; lane M:1,2,4; register
    M:8..M/2; register N:8..N/2; register repeats N first; warps
    ``isn(warp, warps_per_cta, order)`` with N first for v2, M first for v3.
    Rank 3 adds a batch dim0 (outermost).

    >>> NvidiaMma([2, 0], [4, 1], [16, 8]).to_linear([64, 16]).bases[0]
    ('register', [[0, 1], [8, 0], [0, 8]])
    """

    version: Any
    warps_per_cta: Sequence[int]
    instr_shape: Sequence[int]
    cga_layout: Sequence[Sequence[int]] | None = None

    def _orders(self, rank):
        v = _mma_version(self.version)
        order = tuple(range(rank - 1, -1, -1))
        warp_order = order if v == 2 else (rank - 2, rank - 1) + tuple(range(rank - 3, -1, -1))
        return v, order, warp_order

    def to_linear(self, shape: Sequence[int]) -> LinearLayout:
        """The layout for ``shape`` (see the class docstring).

        >>> NvidiaMma(3, [4, 1], [16, 64, 16]).to_linear([64, 64]).bases[2]
        ('warp', [[16, 0], [32, 0]])
        """
        shape = _shape(shape)
        rank = len(shape)
        if rank not in (2, 3):
            raise LayoutError(f"NVIDIA MMA layouts have rank 2 or 3, got shape {list(shape)}")
        v, order, warp_order = self._orders(rank)
        wpc = _pow2s(self.warps_per_cta, "warps_per_cta", rank)
        instr = _pow2s(self.instr_shape, "instr_shape")
        if v == 2:
            if len(instr) != rank:
                raise LayoutError(f"MMA v2 instr_shape needs {rank} entries, got {list(instr)}")
            tile_m, tile_n = instr[-2], instr[-1]
        else:
            if rank != 2:
                raise LayoutError(f"NVIDIA MMA v3 (Hopper) layouts have rank 2, got shape {list(shape)}")
            if len(instr) != 3:
                raise LayoutError(f"MMA v3 instr_shape is [M, N, K], got {list(instr)}")
            tile_m, tile_n = instr[0], instr[1]
        cta = _mma_tile(rank, tile_m, tile_n, 2, order[0], order[1], order)
        warps = identity_standard_nd("warp", wpc, warp_order).transpose_outs(cta.out_dim_names)
        return fit_to_shape(cta * warps, shape, self.cga_layout)


def nvidia_mma(shape, version, warps_per_cta, instr_shape, cga_layout=None) -> LinearLayout:
    """The linear layout of ``#ttg.nvidia_mma`` for ``shape``; see :class:`NvidiaMma`.

    >>> nvidia_mma([64, 16], [2, 0], [4, 1], [16, 8]).bases[1]
    ('lane', [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]])
    """
    return NvidiaMma(version, warps_per_cta, instr_shape, cga_layout).to_linear(shape)


@dataclass(frozen=True)
class DotOperand(_Encoding):
    """Triton's ``#ttg.dot_op`` of an NVIDIA MMA parent: operand A (``operand_index`` 0,
    M x K) or B (1, K x N, Ampere only), ``k_width`` consecutive K elements per register group.

    Tile: A 16 x 8·k_width, B 8·k_width x 8 (same tile rule as the MMA, K inner);
    warps follow the parent's, broadcast along K.

    >>> DotOperand(0, NvidiaMma([2, 0], [2, 2], [16, 8]), 2).to_linear([32, 32]).bases[2]
    ('warp', [[0, 0], [16, 0]])
    """

    operand_index: int
    parent: Any
    k_width: int

    def to_linear(self, shape: Sequence[int]) -> LinearLayout:
        """The layout for ``shape`` (see the class docstring).

        >>> DotOperand(1, NvidiaMma([2, 0], [2, 2], [16, 8]), 2).to_linear([32, 32]).bases[1]
        ('lane', [[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]])
        """
        parent = self.parent
        if not isinstance(parent, NvidiaMma):
            raise LayoutError(
                f"DotOperand: only NVIDIA MMA parents are supported, got {type(parent).__name__}"
            )
        shape = _shape(shape)
        rank = len(shape)
        if rank not in (2, 3):
            raise LayoutError(f"dot operand layouts have rank 2 or 3, got shape {list(shape)}")
        idx = as_int(self.operand_index, "operand_index")
        if idx not in (0, 1):
            raise LayoutError(f"operand_index must be 0 (A) or 1 (B), got {idx}")
        kw = _pow2s([self.k_width], "k_width")[0]
        v, _, warp_order = parent._orders(rank)
        if idx == 1 and v != 2:
            raise LayoutError("DotOperand: Hopper (MMA v3) takes operand B from shared memory, not registers")
        wpc = _pow2s(parent.warps_per_cta, "warps_per_cta", rank)
        is_a = idx == 0
        if is_a:
            tile_m, tile_n = 16, kw * 8
            order = tuple(range(rank - 1, -1, -1))
        else:
            tile_m, tile_n = 8, kw * 8  # m = non-K (N, 8), n = K
            order = (rank - 2, rank - 1) + tuple(range(rank - 3, -1, -1))
        cta = _mma_tile(rank, tile_m, tile_n, kw, order[0], order[1], order)
        names = _dims(rank)
        k_dim = rank - 1 if is_a else rank - 2
        warps = LinearLayout.empty()
        for d in warp_order:
            if d == k_dim:
                warps = warps * LinearLayout.zeros_1d(wpc[d], "warp", names[d])
            else:
                warps = warps * LinearLayout.identity_1d(wpc[d], "warp", names[d])
        warps = warps.transpose_outs(cta.out_dim_names)
        return fit_to_shape(cta * warps, shape, parent.cga_layout)


def dot_operand(shape, operand_index, parent, k_width) -> LinearLayout:
    """The linear layout of ``#ttg.dot_op<{opIdx, parent, kWidth}>`` for ``shape``; see :class:`DotOperand`.

    >>> dot_operand([32, 32], 0, NvidiaMma([2, 0], [2, 2], [16, 8]), 2).bases[0]
    ('register', [[0, 1], [8, 0], [0, 8], [0, 16]])
    """
    return DotOperand(operand_index, parent, k_width).to_linear(shape)


# ------------------------------------------------------------------ AMD
def _amd_cta(rank, tile_reg, tile_lane, tile, reps, warp_layout, is_transposed):
    """Tile bases are (M, N) pairs; ``reps`` are extra register bases in tile units
    (M, N); the warp layout is already scaled. Batch (rank 3) is dim0."""
    names = _dims(rank)
    b = rank - 2  # index of M

    def vec(mn):
        m, n = mn
        if is_transposed:
            m, n = n, m
        v = [0] * rank
        v[b] = m
        v[b + 1] = n
        return v

    regs = [vec(x) for x in tile_reg]
    lanes = [vec(x) for x in tile_lane]
    for r in reps:
        v = list(r)
        regs.append([e * (tile[i - b] if i >= b else 1) for i, e in enumerate(v)])
    warps = _std_vectors(warp_layout, names)
    sizes = [1] * (rank - 2) + [tile[0], tile[1]]
    for v in regs + lanes + warps:
        for j, e in enumerate(v):
            sizes[j] = max(sizes[j], 1 << e.bit_length())
    order = [names[i] for i in range(rank - 1, -1, -1)]
    cta = LinearLayout({"register": regs, "lane": lanes, "warp": warps}, dict(zip(names, sizes)),
                       require_surjective=False)
    return cta.transpose_outs(order)


@dataclass(frozen=True)
class AmdMfma(_Encoding):
    """Triton's ``#ttg.amd_mfma`` (``AMDMFMALayout``) for 32x32 and 16x16 instructions.

    Tile (M = dim0, N = dim1 of the instruction): 32x32: register M:1,2,8,16,
    lane N:1..16 then M:4; 16x16: register M:1,2, lane N:1..8 then M:4,8.
    ``is_transposed`` swaps M and N inside the tile; ``tiles_per_warp`` adds
    register tile repeats; warps ``isn(warp, warps_per_cta, [1, 0])``;
    register repeats go N first.

    >>> AmdMfma(3, [32, 32, 8], False, [2, 2]).to_linear([64, 64]).bases[0]
    ('register', [[1, 0], [2, 0], [8, 0], [16, 0]])
    """

    version: int
    instr_shape: Sequence[int]
    is_transposed: bool
    warps_per_cta: Sequence[int]
    element_bitwidth: int | None = None
    tiles_per_warp: Sequence[int] | None = None
    cga_layout: Sequence[Sequence[int]] | None = None

    def to_linear(self, shape: Sequence[int]) -> LinearLayout:
        """The layout for ``shape`` (see the class docstring).

        >>> AmdMfma(3, [16, 16, 16], True, [1, 1]).to_linear([16, 16]).bases[0]
        ('register', [[0, 1], [0, 2]])
        """
        shape = _shape(shape)
        rank = len(shape)
        if rank not in (2, 3):
            raise LayoutError(f"MFMA layouts have rank 2 or 3, got shape {list(shape)}")
        instr = _pow2s(self.instr_shape, "instr_shape")
        if len(instr) < 2:
            raise LayoutError(f"instr_shape is [M, N] or [M, N, K], got {list(instr)}")
        if self.element_bitwidth is not None and as_int(self.element_bitwidth, "element_bitwidth") == 64:
            raise LayoutError("64-bit MFMA layouts are not supported by unilayout.linear.encodings")
        version = as_int(self.version, "MFMA version")
        if version not in (1, 2, 3, 4):
            raise LayoutError(f"MFMA version {version} is not supported: use 1 to 4")
        m, n = instr[0], instr[1]
        if (m, n) == (32, 32):
            reg = [(1, 0), (2, 0), (8, 0), (16, 0)]
            lane = [(0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (4, 0)]
        elif (m, n) == (16, 16):
            reg = [(1, 0), (2, 0)]
            lane = [(0, 1), (0, 2), (0, 4), (0, 8), (4, 0), (8, 0)]
        else:
            raise LayoutError(
                f"MFMA instr_shape {list(instr)} is not supported: use 32x32 or 16x16"
            )
        wpc = _pow2s(self.warps_per_cta, "warps_per_cta", rank)
        tpw = _pow2s(self.tiles_per_warp if self.tiles_per_warp is not None else [1] * rank,
                     "tiles_per_warp", rank)
        tile = (m, n)
        order = list(range(rank - 1, -1, -1))
        names = _dims(rank)
        # Register tile repeats (tiles_per_warp), N first, then the warps strided past them.
        reps = []
        for d in order:
            for i in range(tpw[d].bit_length() - 1):
                v = [0] * rank
                v[d] = 1 << i
                reps.append(v)
        scale = [tpw[i] for i in range(rank - 2)] + [m * tpw[rank - 2], n * tpw[rank - 1]]
        warps = identity_standard_nd("warp", wpc, order)
        warp_vecs = [[e * k for e, k in zip(v, scale)] for v in _std_vectors(warps, names)]
        warp_layout = _bases_layout("warp", warp_vecs, rank)
        cta = _amd_cta(rank, reg, lane, tile, reps, warp_layout, bool(self.is_transposed))
        # Triton 3.9.0 repeats the MFMA tile along N over the whole tensor (not
        # just one CTA's share) before the CGA split, so surplus N repeats become
        # zero registers; M and batch grow to the CTA's share only.
        return fit_to_shape(cta, shape, self.cga_layout,
                            lambda c: _reorder_register_repeats(c, len(reg), rank),
                            _grow_to_full_shape=names[-1:])


def _std_vectors(layout: LinearLayout, names):
    """The bases of a one-in-dim layout as vectors over ``names`` (dim0..)."""
    pos = [layout.out_dim_names.index(n) if layout.has_out_dim(n) else None for n in names]
    out = []
    for _, vecs in layout._bases:
        for v in vecs:
            out.append([0 if p is None else v[p] for p in pos])
    return out


def _reorder_register_repeats(L: LinearLayout, n_tile: int, rank: int) -> LinearLayout:
    """Keep the tile's register bases first, then the repeats (tiles_per_warp and growth)
    sorted N first (minor dim first), ascending: Triton lists MFMA register repeats so.
    ``L``'s out-dims are in minor-to-major order."""
    bases = dict(L._bases)
    regs = list(bases["register"])
    head, rest = regs[:n_tile], regs[n_tile:]

    def key(v):
        for pos, e in enumerate(v):
            if e:
                return (pos, e)
        return (len(v), 0)

    rest = sorted(rest, key=key)
    new = tuple((n, tuple(head + rest) if n == "register" else vecs) for n, vecs in L._bases)
    return LinearLayout._make(new, L._outs)


def amd_mfma(shape, version, instr_shape, is_transposed, warps_per_cta, element_bitwidth=None,
             tiles_per_warp=None, cga_layout=None) -> LinearLayout:
    """The linear layout of ``#ttg.amd_mfma`` for ``shape``; see :class:`AmdMfma`.

    >>> amd_mfma([32, 64], 3, [16, 16, 16], False, [2, 2]).bases[2]
    ('warp', [[0, 16], [16, 0]])
    """
    return AmdMfma(version, instr_shape, is_transposed, warps_per_cta, element_bitwidth, tiles_per_warp,
                   cga_layout).to_linear(shape)


@dataclass(frozen=True)
class AmdWmma(_Encoding):
    """Triton's ``#ttg.amd_wmma`` (``AMDWMMALayout``), 16x16 tiles, 32 lanes.

    Tile: v1: register M:2,4,8, lane N:1,2,4,8 then M:1; v2/v3: register
    M:1,2,4, lane N:1,2,4,8 then M:8. ``is_transposed`` swaps M and N.
    ``warp_bases`` / ``reg_bases`` are in tile units (Gluon's form, ``[[0, 1]]``
    = next tile along N); alternatively ``warps_per_cta`` gives warps N first.

    >>> AmdWmma(2, False, [[1, 0]]).to_linear([32, 32]).bases[2]
    ('warp', [[16, 0]])
    """

    version: int
    is_transposed: bool
    warp_bases: Sequence[Sequence[int]] | None = None
    reg_bases: Sequence[Sequence[int]] | None = None
    instr_shape: Sequence[int] | None = None
    cga_layout: Sequence[Sequence[int]] | None = None
    warps_per_cta: Sequence[int] | None = None

    def to_linear(self, shape: Sequence[int]) -> LinearLayout:
        """The layout for ``shape`` (see the class docstring).

        >>> AmdWmma(1, False, [[0, 1]]).to_linear([32, 32]).bases[0]
        ('register', [[2, 0], [4, 0], [8, 0], [16, 0]])
        """
        shape = _shape(shape)
        rank = len(shape)
        if rank not in (2, 3):
            raise LayoutError(f"WMMA layouts have rank 2 or 3, got shape {list(shape)}")
        v = as_int(self.version, "WMMA version")
        if self.instr_shape is not None:
            instr = _pow2s(self.instr_shape, "instr_shape")
            if tuple(instr[:2]) != (16, 16):
                raise LayoutError(f"WMMA instr_shape {list(instr)} is not supported: the tile is 16x16")
        if v == 1:
            reg = [(2, 0), (4, 0), (8, 0)]
            lane = [(0, 1), (0, 2), (0, 4), (0, 8), (1, 0)]
        elif v in (2, 3):
            reg = [(1, 0), (2, 0), (4, 0)]
            lane = [(0, 1), (0, 2), (0, 4), (0, 8), (8, 0)]
        else:
            raise LayoutError(f"WMMA version {v} is not supported: use 1, 2 or 3")
        names = _dims(rank)
        tile_scale = [1] * (rank - 2) + [16, 16]
        if self.warp_bases is not None:
            if self.warps_per_cta is not None:
                raise LayoutError("give warp_bases or warps_per_cta, not both")
            warp_vecs = [list(_ints(b, "warp basis", rank)) for b in self.warp_bases]
        else:
            wpc = _pow2s(self.warps_per_cta if self.warps_per_cta is not None else [1] * rank,
                         "warps_per_cta", rank)
            warp_vecs = _std_vectors(identity_standard_nd("warp", wpc, list(range(rank - 1, -1, -1))), names)
        reps = [list(_ints(b, "reg basis", rank)) for b in (self.reg_bases or [])]
        seen = set()
        for v in reps + warp_vecs:  # tile repeats: distinct powers of two along one dim each (or 0 for warps)
            nz = [e for e in v if e]
            if not nz:
                continue
            if len(nz) != 1 or nz[0] & (nz[0] - 1) or tuple(v) in seen:
                raise LayoutError(
                    f"WMMA reg_bases/warp_bases {reps} / {warp_vecs} must be distinct tile steps, each a power of "
                    "two along one dim (or all zero for a broadcast warp)"
                )
            seen.add(tuple(v))
        warp_layout = _bases_layout("warp", warp_vecs, rank, tile_scale)
        cta = _amd_cta(rank, reg, lane, (16, 16), reps, warp_layout, bool(self.is_transposed))
        return fit_to_shape(cta, shape, self.cga_layout)


def amd_wmma(shape, version, is_transposed, warp_bases=None, reg_bases=None, instr_shape=None,
             cga_layout=None, warps_per_cta=None) -> LinearLayout:
    """The linear layout of ``#ttg.amd_wmma`` for ``shape``; see :class:`AmdWmma`.

    >>> amd_wmma([32, 64], 2, False, [[1, 0]], reg_bases=[[0, 1]]).bases[0]
    ('register', [[1, 0], [2, 0], [4, 0], [0, 16], [0, 32]])
    """
    return AmdWmma(version, is_transposed, warp_bases, reg_bases, instr_shape, cga_layout,
                   warps_per_cta).to_linear(shape)


# ------------------------------------------------------------------ slice
@dataclass(frozen=True)
class Slice(_Encoding):
    """Triton's ``#ttg.slice<{dim, parent}>``: the parent at the shape with a 1
    inserted at ``dim``, with out-dim ``dim`` dropped (later dims renumbered)
    and all-zero register bases removed.

    >>> Slice(0, Blocked([2, 2], [4, 8], [2, 2], [1, 0])).to_linear([32]).bases[0]
    ('register', [[1]])
    """

    dim: int
    parent: Any

    def to_linear(self, shape: Sequence[int]) -> LinearLayout:
        """The layout for ``shape`` (see the class docstring).

        >>> Slice(1, Blocked([2, 2], [4, 8], [2, 2], [1, 0])).to_linear([64]).bases[2]
        ('warp', [[0], [8]])
        """
        shape = list(_shape(shape))
        dim = as_int(self.dim, "slice dim")
        if not 0 <= dim <= len(shape):
            raise LayoutError(f"slice dim {dim} is out of range for a parent of rank {len(shape) + 1}")
        parent = self.parent
        if not hasattr(parent, "to_linear"):
            raise LayoutError(f"Slice: parent must be an encoding (Blocked, NvidiaMma, ...), got {parent!r}")
        pshape = shape[:dim] + [1] + shape[dim:]
        P = parent.to_linear(pshape)
        pn = P.out_dim_names
        keep = [n for i, n in enumerate(pn) if i != dim]
        rename = {n: f"dim{k}" for k, n in enumerate(keep)}
        S = P.sublayout(P.in_dim_names, keep)
        bases = []
        for name, vecs in S._bases:
            if name == "register":
                vecs = tuple(v for v in vecs if any(v))
            bases.append((name, vecs))
        outs = tuple((rename[n], s) for n, s in S._outs)
        return LinearLayout._make(tuple(bases), outs)


def slice_layout(shape, dim, parent) -> LinearLayout:
    """The linear layout of ``#ttg.slice<{dim, parent}>`` for ``shape``; see :class:`Slice`.

    >>> slice_layout([32], 0, Blocked([2, 2], [4, 8], [2, 2], [1, 0])).bases[1]
    ('lane', [[2], [4], [8], [0], [0]])
    """
    return Slice(dim, parent).to_linear(shape)


# ----------------------------------------------------------------- shared
@dataclass(frozen=True)
class SwizzledShared(_Encoding):
    """Triton's ``#ttg.swizzled_shared<{vec, perPhase, maxPhase, order}>``: ``offset`` -> tensor.

    With c = order[0] (columns, contiguous) and r = order[1]: offset bits go
    first along c (1, 2, ...), then row bit 2**i maps to
    ``(r: 2**i, c: (vec * ((2**i // per_phase) % max_phase)) % shape[c])``; dims
    order[2:] follow as identities. Rank 1 is the identity.

    >>> SwizzledShared(1, 1, 4, [1, 0]).to_linear([4, 8]).bases[0]
    ('offset', [[0, 1], [0, 2], [0, 4], [1, 1], [2, 2]])
    """

    vec: int
    per_phase: int
    max_phase: int
    order: Sequence[int]
    cga_layout: Sequence[Sequence[int]] | None = None

    def to_linear(self, shape: Sequence[int]) -> LinearLayout:
        """The layout for ``shape`` (see the class docstring).

        >>> SwizzledShared(2, 2, 4, [0, 1]).to_linear([16, 8]).bases[0][1][4:]
        [[0, 1], [2, 2], [4, 4]]
        """
        shape = _shape(shape)
        rank = len(shape)
        order = _order(self.order, rank)
        vec = as_int(self.vec, "vec")
        per_phase = as_int(self.per_phase, "per_phase")
        max_phase = as_int(self.max_phase, "max_phase")
        if vec < 1 or per_phase < 1 or max_phase < 1:
            raise LayoutError(f"vec, per_phase and max_phase must be >= 1, got {vec}, {per_phase}, {max_phase}")
        names = _dims(rank)
        cga = _cga_layout(self.cga_layout, rank)
        cta_shape = [max(1, s // cga.out_dim_size(n)) for n, s in zip(names, shape)]
        if rank == 1:
            cta = LinearLayout.identity_1d(cta_shape[0], "offset", "dim0")
            return fit_to_shape(cta, shape, self.cga_layout)
        c, r = order[0], order[1]
        ncols, nrows = cta_shape[c], cta_shape[r]
        vecs = []
        for i in range(ncols.bit_length() - 1):
            vecs.append((0, 1 << i))
        for i in range(nrows.bit_length() - 1):
            row = 1 << i
            vecs.append((row, (vec * ((row // per_phase) % max_phase)) % ncols))
        cta = LinearLayout({"offset": vecs}, [names[r], names[c]])
        for d in order[2:]:
            cta = cta * LinearLayout.identity_1d(cta_shape[d], "offset", names[d])
        return fit_to_shape(cta, shape, self.cga_layout)


def swizzled_shared(shape, vec, per_phase, max_phase, order, cga_layout=None) -> LinearLayout:
    """The linear layout of ``#ttg.swizzled_shared`` for ``shape``; see :class:`SwizzledShared`.

    >>> swizzled_shared([4, 8], 1, 1, 4, [1, 0]).apply({"offset": 11, "block": 0})
    {'dim0': 1, 'dim1': 2}
    """
    return SwizzledShared(vec, per_phase, max_phase, order, cga_layout).to_linear(shape)


@dataclass(frozen=True)
class PaddedShared(_Encoding):
    """Triton's ``#ttg.padded_shared``: padding makes offsets non-linear over GF(2).

    >>> PaddedShared([[32, 4]], [1, 0]).to_linear([8, 8])
    Traceback (most recent call last):
    ...
    unilayout.errors.NotRepresentableError: padded shared layouts insert padding every 32 elements, so offset -> element is not linear over GF(2)
    """

    interval_paddings: Sequence[Sequence[int]]
    order: Sequence[int]

    def to_linear(self, shape: Sequence[int]) -> LinearLayout:
        """Always raises ``NotRepresentableError`` (see the class docstring).

        >>> PaddedShared([], [0]).to_linear([4])
        Traceback (most recent call last):
        ...
        unilayout.errors.NotRepresentableError: padded shared layouts insert padding, so offset -> element is not linear over GF(2)
        """
        pairs = list(self.interval_paddings)
        where = f" every {pairs[0][0]} elements" if pairs and len(pairs[0]) == 2 else ""
        raise NotRepresentableError(
            f"padded shared layouts insert padding{where}, so offset -> element is not linear over GF(2)"
        )


#: Triton's name for :func:`slice_layout` (shadows the builtin only inside this module's namespace).
slice = slice_layout  # noqa: A001
