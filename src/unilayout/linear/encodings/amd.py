"""AMD's matrix-core encodings: ``#ttg.amd_mfma`` (CDNA), ``#ttg.amd_wmma`` (RDNA) and their ``#ttg.dot_op`` operands.

Each parent gives its operands' layouts (``_dot_linear``), which
``DotOperand.to_linear`` asks for.

>>> str(AmdWmma(2, False, [[1, 0]]))
'#ttg.amd_wmma<{version = 2, isTranspose = false, ctaLayout = {warp = [[1, 0]]}}>'
>>> AmdMfma(3, [32, 32, 8], False, [2, 2]).to_linear([64, 64]).in_dims
[('register', 16), ('lane', 64), ('warp', 4), ('block', 1)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..._ints import as_int
from ...errors import LayoutError
from ..layout import LinearLayout, identity_standard_nd
from ._base import _CGA, Field, _bool, _dims, _dot_common, _Encoding, _freeze, _ints, _list, _pow2s, _shape
from ._fit import _bases_layout, _fit, _Tile


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
    warps = warp_layout if type(warp_layout) is list else _std_vectors(warp_layout, names)
    sizes = [1] * (rank - 2) + [tile[0], tile[1]]
    for v in regs + lanes + warps:
        for j, e in enumerate(v):
            sizes[j] = max(sizes[j], 1 << e.bit_length())
    # out-dims last first (N, M, batch); entries are non-negative and the sizes hold them
    bases = [(n, [v[::-1] for v in vecs]) for n, vecs in (("register", regs), ("lane", lanes), ("warp", warps))]
    return bases, names[::-1], sizes[::-1]


def _std_vectors(layout: LinearLayout, names):
    """The bases of a one-in-dim layout as vectors over ``names`` (dim0..)."""
    pos = [layout.out_dim_names.index(n) if layout.has_out_dim(n) else None for n in names]
    out = []
    for _, vecs in layout._bases:
        for v in vecs:
            out.append([0 if p is None else v[p] for p in pos])
    return out


def _mfma_dot(dot, shape) -> LinearLayout:
    """MFMA operand A (M x K) or B (K x N): ``k_width`` registers along K, lanes along the
    non-K dim (M or N of the instruction) then K, register repeats along K over the whole K,
    ``tiles_per_warp`` along non-K; warps as the parent's (Triton ``mfmaDotToLinearLayout``)."""
    parent = dot.parent
    rank, idx, kw, names, k_idx, nonk_idx = _dot_common(dot, shape)
    instr = _pow2s(parent.instr_shape, "instr_shape")
    m, n = instr[0], instr[1]
    wpc = _pow2s(parent.warps_per_cta, "warps_per_cta", rank)
    tpw = _pow2s(parent.tiles_per_warp, "tiles_per_warp", rank)
    nonk = m if idx == 0 else n
    dim_k, dim_nk = names[k_idx], names[nonk_idx]
    tile = _Tile().id(kw, "register", dim_k).id(nonk, "lane", dim_nk).id(64 // nonk, "lane", dim_k)
    k_tile = 64 // nonk * kw
    if ((m, n) == (64, 4) and idx == 0) or ((m, n) == (4, 64) and idx == 1):
        tile.id(16, "register", dim_k)
        k_tile *= 16
    if shape[k_idx] > k_tile:
        tile.id(shape[k_idx] // k_tile, "register", dim_k)
    tile.id(tpw[nonk_idx], "register", dim_nk).transpose([dim_k, dim_nk])
    if rank == 3:
        tile.id(1, "register", names[0]).id(1, "lane", names[0])
    tile.isn("warp", wpc, range(rank - 1, -1, -1))  # * isn(warp, ...) in the tile's out-dim order
    return tile.fit(shape, parent.cga_layout)


def _wmma_dot(dot, shape) -> LinearLayout:
    """WMMA operand A or B: ``k_width`` registers along K, 16 lanes along non-K, the other lanes
    along K (v1: duplicated, v2/v3: further K), register repeats up to the instruction's K; warps
    as the parent's with their K component dropped (broadcast), in tile units."""
    parent = dot.parent
    rank, idx, kw, names, k_idx, nonk_idx = _dot_common(dot, shape)
    instr = _pow2s(parent.instr_shape, "instr_shape")
    version = as_int(parent.version, "WMMA version")
    nonk = instr[0] if idx == 0 else instr[1]
    depth = 32 // nonk
    dim_k, dim_nk = names[k_idx], names[nonk_idx]
    tile = _Tile().id(kw, "register", dim_k).id(nonk, "lane", dim_nk)
    tile.id(depth, "lane", dim_k, zero=version == 1)
    tile.id(max(1, instr[2] // (depth * kw)), "register", dim_k)
    if rank == 3:
        tile.id(1, "register", names[0]).id(1, "lane", names[0])
    scale = [1] * (rank - 2) + [instr[0], instr[1]]

    def tiles(vecs, what):  # the parent's bases in tile units, K dropped (broadcast along K)
        out = []
        for b in vecs or ():
            v = [e * f for e, f in zip(_ints(b, what, rank), scale)]
            v[k_idx] = 0
            out.append(v)
        return out

    tile.transpose(names)
    regs = tile.bases["register"] + [v for v in tiles(parent.reg_bases, "reg basis") if any(v)]
    lanes = tile.bases["lane"]
    warps = tiles(parent.warp_bases, "warp basis")
    sizes = [1] * rank
    for v in regs + lanes + warps:
        for j, e in enumerate(v):
            if e < 0:  # the constructor names the negative entry
                LinearLayout({"register": regs, "lane": lanes, "warp": warps}, names, require_surjective=False)
            sizes[j] = max(sizes[j], 1 << e.bit_length())
    # the CTA layout with out-dims in the order K, non-K, batch
    perm = [k_idx, nonk_idx] + list(range(rank - 2))
    bases = [(n, [[v[k] for k in perm] for v in vecs]) for n, vecs in (("register", regs), ("lane", lanes),
                                                                          ("warp", warps))]
    # the CTAs broadcast along K too: each holds the whole K
    cga = [[0 if j == k_idx else e for j, e in enumerate(_ints(v, "cga basis", rank))] for v in parent.cga_layout or ()]
    return _fit(bases, [names[k] for k in perm], [sizes[k] for k in perm], shape, cga)


@dataclass(frozen=True)
class AmdMfma(_Encoding):
    """Triton's ``#ttg.amd_mfma`` (``AMDMFMALayout``): 32x32, 16x16, 4x64 and 64x4 instructions,
    32- or 64-bit elements, 64 lanes.

    With M = dim[-2], N = dim[-1] and ``h`` = 4 registers per lane (1 for
    64-bit elements), the instruction tile is: ``h`` registers along M, lanes
    along N (``n`` of them) then M (``64 / n``), then ``m*n / (64*h)`` register
    repeats along M. ``is_transposed`` swaps the roles of M and N in the tile
    (64x4 must be transposed). Then, as Triton 3.9.0: registers for
    ``tiles_per_warp`` along N, warps along N, register repeats along N over
    the *whole* tensor's N, registers for ``tiles_per_warp`` along M, warps
    along M (and warps along the batch dim0 for rank 3); finally fitted to the
    shape (:func:`fit_to_shape`).

    >>> AmdMfma(3, [32, 32, 8], False, [2, 2]).to_linear([64, 64]).bases[0]
    ('register', [[1, 0], [2, 0], [8, 0], [16, 0]])
    >>> AmdMfma(3, [4, 64, 4], False, [1, 1]).to_linear([4, 64]).bases[:2]
    [('register', [[1, 0], [2, 0]]), ('lane', [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]])]
    """

    version: int
    instr_shape: Sequence[int]
    is_transposed: bool
    warps_per_cta: Sequence[int]
    element_bitwidth: int | None = None
    tiles_per_warp: Sequence[int] | None = None
    cga_layout: Sequence[Sequence[int]] | None = None

    MNEMONIC = "ttg.amd_mfma"
    FIELDS = (
        Field("version", "version", "int"),
        Field("warpsPerCTA", "warps_per_cta", "ints"),
        Field("instrShape", "instr_shape", "ints"),
        Field("isTransposed", "is_transposed", "bool"),
        _CGA,
        Field("tilesPerWarp", "tiles_per_warp", "ints", False, show=lambda t: bool(t) and any(x != 1 for x in t)),
        Field("elementBitWidth", "element_bitwidth", "int", False, show=lambda w: w not in (None, 32)),
    )
    _dot_linear = staticmethod(_mfma_dot)  # the layout of a #ttg.dot_op operand of this MFMA

    def _normalise(self):
        object.__setattr__(self, "is_transposed", _bool(self.is_transposed))
        if self.element_bitwidth is None:
            object.__setattr__(self, "element_bitwidth", 32)
        if self.tiles_per_warp is None and isinstance(self.warps_per_cta, tuple):
            object.__setattr__(self, "tiles_per_warp", (1,) * len(self.warps_per_cta))

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
        if len(instr) != 3:
            raise LayoutError(f"MFMA instr_shape is [M, N, K], got {list(instr)}")
        version = as_int(self.version, "MFMA version")
        if version not in (1, 2, 3, 4):
            raise LayoutError(f"MFMA version {version} is not supported: use 1 to 4")
        m, n = instr[0], instr[1]
        if (m, n) not in ((32, 32), (16, 16), (4, 64), (64, 4)):
            raise LayoutError(f"MFMA instr_shape {list(instr)} is not supported: use 32x32, 16x16, 4x64 or 64x4")
        ebw = as_int(self.element_bitwidth, "element_bitwidth")
        if ebw not in (32, 64):
            raise LayoutError(f"MFMA element_bitwidth {ebw} is not supported: use 32 or 64")
        transposed = bool(self.is_transposed)
        if (m, n) == (64, 4) and not transposed:
            raise LayoutError("a 64x4 MFMA layout must be transposed (is_transposed=True)")
        wpc = _pow2s(self.warps_per_cta, "warps_per_cta", rank)
        tpw = _pow2s(self.tiles_per_warp, "tiles_per_warp", rank)
        names = _dims(rank)
        dim_m, dim_n = names[-2], names[-1]
        height = 1 if ebw == 64 else 4
        tiles = max(1, m * n // (64 * height))
        tile = _Tile()  # the chain of identity_1d products, built in place
        if not transposed:
            tile.id(height, "register", dim_m).id(n, "lane", dim_n).id(64 // n, "lane", dim_m)
            tile.id(tiles, "register", dim_m)
        else:
            tile.id(height, "register", dim_n).id(m, "lane", dim_m).id(64 // m, "lane", dim_n)
            tile.id(tiles, "register", dim_n)
        tile.transpose([dim_n, dim_m])
        n_reps = max(1, shape[-1] // (n * wpc[-1] * tpw[-1]))
        tile.id(tpw[-1], "register", dim_n).id(wpc[-1], "warp", dim_n)
        tile.id(n_reps, "register", dim_n).id(tpw[-2], "register", dim_m).id(wpc[-2], "warp", dim_m)
        if rank == 3:
            tile.id(1, "register", names[0]).id(1, "lane", names[0]).id(wpc[0], "warp", names[0])
        return tile.fit(shape, self.cga_layout)


def amd_mfma(shape, version, instr_shape, is_transposed, warps_per_cta, element_bitwidth=None,
             tiles_per_warp=None, cga_layout=None) -> LinearLayout:
    """The linear layout of ``#ttg.amd_mfma`` for ``shape``; see :class:`AmdMfma`.

    >>> amd_mfma([32, 64], 3, [16, 16, 16], False, [2, 2]).bases[2]
    ('warp', [[0, 16], [16, 0]])
    """
    return AmdMfma(version, instr_shape, is_transposed, warps_per_cta, element_bitwidth, tiles_per_warp,
                   cga_layout).to_linear(shape)


def _cta_layout_text(enc) -> str:
    """The ``ctaLayout = {register = .., warp = ..}`` field of an :class:`AmdWmma` (empty lists left out)."""
    parts = []
    if enc.reg_bases:
        parts.append(f"register = {_list(enc.reg_bases)}")
    if enc.warp_bases:
        parts.append(f"warp = {_list(enc.warp_bases)}")
    return "{" + ", ".join(parts) + "}"


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

    MNEMONIC = "ttg.amd_wmma"
    FIELDS = (
        Field("version", "version", "int"),
        Field("isTranspose", "is_transposed", "bool"),
        Field("ctaLayout", None, "text", False, get=_cta_layout_text),
        _CGA,
        Field("instrShape", "instr_shape", "ints", False, show=lambda s: s is not None and tuple(s) != (16, 16, 16)),
    )
    _dot_linear = staticmethod(_wmma_dot)  # the layout of a #ttg.dot_op operand of this WMMA

    @classmethod
    def _read(cls, f):
        """``warp_bases`` and ``reg_bases`` are read from the ``ctaLayout = {register = .., warp = ..}`` field."""
        version, transposed = f.int("version"), f.bool("isTranspose", False, False)  # Triton: absent = false
        cta, pos = f.dict("ctaLayout", False)
        for key in cta:
            if key not in ("register", "warp"):
                f.s.fail(f"unknown key {key!r} in ctaLayout: it takes register and warp", cta[key][1])
        sub = type(f)(f.s, f.kind + " ctaLayout", pos or f.end)
        sub.items = dict(cta)
        reg, warp = sub.bases("register", False, []), sub.bases("warp", False, [])
        return cls(version, transposed, warp, reg, f.ints("instrShape", False), f.bases("CGALayout", False))

    def _normalise(self):
        object.__setattr__(self, "is_transposed", _bool(self.is_transposed))
        if self.instr_shape is None:
            object.__setattr__(self, "instr_shape", (16, 16, 16))
        if self.reg_bases is None:
            object.__setattr__(self, "reg_bases", ())
        if self.warp_bases is None and self.warps_per_cta is None:
            object.__setattr__(self, "warp_bases", ())
        elif self.warp_bases is None and isinstance(self.warps_per_cta, tuple):
            try:
                wpc = _pow2s(self.warps_per_cta, "warps_per_cta")
            except LayoutError:
                return  # to_linear reports it
            names = _dims(len(wpc))
            vecs = _std_vectors(identity_standard_nd("warp", wpc, list(range(len(wpc) - 1, -1, -1))), names)
            object.__setattr__(self, "warp_bases", _freeze(vecs))
            object.__setattr__(self, "warps_per_cta", None)

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
        # the warp bases in elements (tile units x 16); reps and warps are checked above
        for v in warp_vecs:
            if any(e < 0 for e in v):
                _bases_layout("warp", warp_vecs, rank, tile_scale)  # names the negative entry
        warp_layout = [[e * f for e, f in zip(v, tile_scale)] for v in warp_vecs]
        bases, outs, sizes = _amd_cta(rank, reg, lane, (16, 16), reps, warp_layout, bool(self.is_transposed))
        return _fit(bases, outs, sizes, shape, self.cga_layout)


def amd_wmma(shape, version, is_transposed, warp_bases=None, reg_bases=None, instr_shape=None,
             cga_layout=None, warps_per_cta=None) -> LinearLayout:
    """The linear layout of ``#ttg.amd_wmma`` for ``shape``; see :class:`AmdWmma`.

    >>> amd_wmma([32, 64], 2, False, [[1, 0]], reg_bases=[[0, 1]]).bases[0]
    ('register', [[1, 0], [2, 0], [4, 0], [0, 16], [0, 32]])
    """
    return AmdWmma(version, is_transposed, warp_bases, reg_bases, instr_shape, cga_layout,
                   warps_per_cta).to_linear(shape)
