"""NVIDIA's MMA encodings: ``#ttg.nvidia_mma`` (Ampere v2, Hopper v3) and ``#ttg.dot_op`` (its operands).

A ``DotOperand`` asks its parent for its layout (``parent._dot_linear``): the
NVIDIA MMA answers here, the AMD parents in ``amd.py``.

>>> mma = NvidiaMma(2, [4, 1], [16, 8])
>>> str(DotOperand(0, mma, 2))
'#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>'
>>> DotOperand(0, mma, 2).to_linear([16, 16]).in_dims
[('register', 8), ('lane', 32), ('warp', 4), ('block', 1)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ..._ints import as_int
from ...errors import LayoutError
from ..layout import LinearLayout
from ._base import _CGA, Field, _dims, _dot_common, _Encoding, _pow2s, _shape
from ._fit import _Tile


def _mma_tile(rank: int, tile_m: int, tile_n: int, k_width: int, inner: int, outer: int,
              rep_order: Sequence[int]) -> LinearLayout:
    """Triton's ``nvidiaMmaTile``: k_width registers and 4 lanes along the inner dim,
    8 lanes along the outer dim, then register repeats outer then inner."""
    names = _dims(rank)
    if tile_m % 8 or tile_n % (k_width * 4):
        raise LayoutError(
            f"MMA tile {tile_m}x{tile_n} must be a multiple of 8 x {k_width * 4} (k_width {k_width})"
        )
    t = _Tile().isn("register", [1] * rank, rep_order)
    t.id(k_width, "register", names[inner]).id(4, "lane", names[inner]).id(8, "lane", names[outer])
    t.id(tile_m // 8, "register", names[outer]).id(tile_n // (k_width * 4), "register", names[inner])
    return t


def _mma_version(version) -> int:
    if isinstance(version, (list, tuple)):
        if not version:
            raise LayoutError("version must be an int or [major, minor]")
        version = version[0]
    v = as_int(version, "MMA version")
    if v not in (2, 3):
        raise LayoutError(f"NVIDIA MMA version {v} is not supported: use 2 (Ampere) or 3 (Hopper)")
    return v


def _version(enc) -> tuple:
    """``(major, minor)`` of an MMA's version as Triton prints it."""
    major, minor = enc.version if isinstance(enc.version, tuple) else (enc.version, 0)
    return major, minor


def _mma_dot(dot, shape) -> LinearLayout:
    """An NVIDIA MMA operand (``dot.parent`` an :class:`NvidiaMma`): A is M x 8·k_width (M the MMA v2's
    instrShape M, 16 or 8; 16 on Hopper), B 8·k_width x 8 (the MMA's tile rule, K inner); with instrShape M 8
    (the m8n8k4 instruction) the K tile is 4·k_width (Triton's ``nvidiaDotToLinearLayout``); warps follow the
    parent's, broadcast along K."""
    parent = dot.parent
    rank, idx, kw, names, k_dim, _ = _dot_common(dot, shape)
    v, _, warp_order = parent._orders(rank)
    if idx == 1 and v != 2:
        raise LayoutError("DotOperand: Hopper (MMA v3) takes operand B from shared memory, not registers")
    wpc = _pow2s(parent.warps_per_cta, "warps_per_cta", rank)
    is_a = idx == 0
    instr = _pow2s(parent.instr_shape, "instr_shape")
    instr_m = instr[-2] if v == 2 else 16
    k_tile = kw * (4 if instr_m == 8 else 8)  # Triton: the m8n8k4 instruction (instrM 8) has a K tile of 4·k_width
    if is_a:  # the tile's non-K size is the MMA's (instrShape M: 16, or 8 for an m8 instruction)
        tile_m, tile_n = instr_m, k_tile
        order = tuple(range(rank - 1, -1, -1))
    else:
        tile_m, tile_n = 8, k_tile  # m = non-K (N, 8), n = K
        order = (rank - 2, rank - 1) + tuple(range(rank - 3, -1, -1))
    cta = _mma_tile(rank, tile_m, tile_n, kw, order[0], order[1], order)
    for d in warp_order:  # the parent's warps, broadcast along K
        cta.id(wpc[d], "warp", names[d], zero=d == k_dim)
    return cta.fit(shape, parent.cga_layout)


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

    MNEMONIC = "ttg.nvidia_mma"
    FIELDS = (
        Field("versionMajor", "version", "int", get=lambda e: _version(e)[0]),
        Field("versionMinor", None, "int", get=lambda e: _version(e)[1]),
        Field("warpsPerCTA", "warps_per_cta", "ints"),
        _CGA,
        Field("instrShape", "instr_shape", "ints"),
    )
    _dot_linear = staticmethod(_mma_dot)  # the layout of a #ttg.dot_op operand of this MMA

    @classmethod
    def _read(cls, f):
        """``version`` is read from two fields, ``versionMajor`` and ``versionMinor`` (absent: 0, as in Triton)."""
        version = (f.int("versionMajor"), f.int("versionMinor", False, 0))
        return cls(version, f.ints("warpsPerCTA"), f.ints("instrShape"), f.bases("CGALayout", False))

    def _normalise(self):
        v = self.version
        if isinstance(v, int) and not isinstance(v, bool):
            object.__setattr__(self, "version", (v, 0))
        elif isinstance(v, tuple) and len(v) == 1:
            object.__setattr__(self, "version", (v[0], 0))

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
        for d in warp_order:  # * isn(warp, wpc, warp_order) transposed to the tile's out-dims
            cta.id(wpc[d], "warp", f"dim{d}")
        return cta.fit(shape, self.cga_layout)


def nvidia_mma(shape, version, warps_per_cta, instr_shape, cga_layout=None) -> LinearLayout:
    """The linear layout of ``#ttg.nvidia_mma`` for ``shape``; see :class:`NvidiaMma`.

    >>> nvidia_mma([64, 16], [2, 0], [4, 1], [16, 8]).bases[1]
    ('lane', [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]])
    """
    return NvidiaMma(version, warps_per_cta, instr_shape, cga_layout).to_linear(shape)


@dataclass(frozen=True)
class DotOperand(_Encoding):
    """Triton's ``#ttg.dot_op`` of an MMA parent (or a blocked one: the FMA path, ``blocked.py``): operand A (``operand_index`` 0,
    M x K) or B (1, K x N, Ampere only), ``k_width`` consecutive K elements per register group.

    Tile: A 16 x 8·k_width, B 8·k_width x 8 (same tile rule as the MMA, K inner);
    warps follow the parent's, broadcast along K. The parent gives the layout
    (its ``_dot_linear``): AMD MFMA and WMMA parents give theirs (``amd.py``).

    >>> DotOperand(0, NvidiaMma([2, 0], [2, 2], [16, 8]), 2).to_linear([32, 32]).bases[2]
    ('warp', [[0, 0], [16, 0]])
    """

    operand_index: int
    parent: Any
    k_width: int

    MNEMONIC = "ttg.dot_op"
    FIELDS = (
        Field("opIdx", "operand_index", "int"),
        Field("parent", "parent", "enc"),
        Field("kWidth", "k_width", "int", False, 0, show=bool),
    )

    def to_linear(self, shape: Sequence[int]) -> LinearLayout:
        """The layout for ``shape`` (see the class docstring).

        >>> DotOperand(1, NvidiaMma([2, 0], [2, 2], [16, 8]), 2).to_linear([32, 32]).bases[1]
        ('lane', [[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]])
        """
        parent = self.parent
        dot = getattr(parent, "_dot_linear", None)  # each MMA parent knows its operands' layouts
        if dot is None:
            raise LayoutError(
                f"DotOperand: the parent must be a blocked, NVIDIA MMA, AMD MFMA or AMD WMMA layout, got {type(parent).__name__}"
            )
        return dot(self, _shape(shape))


def dot_operand(shape, operand_index, parent, k_width) -> LinearLayout:
    """The linear layout of ``#ttg.dot_op<{opIdx, parent, kWidth}>`` for ``shape``; see :class:`DotOperand`.

    >>> dot_operand([32, 32], 0, NvidiaMma([2, 0], [2, 2], [16, 8]), 2).bases[0]
    ('register', [[0, 1], [8, 0], [0, 8], [0, 16]])
    """
    return DotOperand(operand_index, parent, k_width).to_linear(shape)
