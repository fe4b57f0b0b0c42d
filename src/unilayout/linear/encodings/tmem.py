"""Blackwell's tensor memory: ``#ttng.tensor_memory_encoding`` (``TensorMemory``, with the register
layout of its loads and stores, ``reg_layout``) and ``#ttng.tensor_memory_scales_encoding``.

Both map TMEM ``row, col`` (and ``block``) -> tensor ``dim0, dim1``.

>>> str(TensorMemory(128, 64, 1))
'#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>'
>>> TensorMemory(128, 64).reg_layout([128, 64]).in_dims
[('register', 64), ('lane', 32), ('warp', 4), ('block', 1)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..._ints import as_int, as_pow2
from ...errors import LayoutError, NotRepresentableError
from ..algebra.divide import divide_left as _divide_left
from ..layout import LinearLayout
from ._base import _CGA, Field, _bool, _Encoding, _is_true, _shape
from ._fit import _cga_layout, _shrink


@dataclass(frozen=True)
class TensorMemory(_Encoding):
    """Triton's ``#ttng.tensor_memory_encoding<blockM, blockN, colStride, ...>``: Blackwell TMEM,
    ``row, col`` (128 lanes x 32-bit columns; plus ``block``) -> tensor ``dim0, dim1``.

    Per CTA (shape divided by the CGA layout): ``col_stride`` zero column bits
    (unpacked elements), a zero column bit more for ``fp4_padded``; blockM 128:
    rows along dim0, ``min(blockN, N)`` columns along dim1; blockM 64: 16 rows
    along dim0, then row bit 4 to the next M block (or N block, or nothing),
    rows 32/64 to dim0 16/32. Remaining M then N repeat along columns.

    >>> TensorMemory(64, 64, 1).to_linear([128, 128]).bases[0]
    ('row', [[1, 0], [2, 0], [4, 0], [8, 0], [64, 0], [16, 0], [32, 0]])
    """

    block_m: int
    block_n: int
    col_stride: int = 1
    cga_layout: Sequence[Sequence[int]] | None = None
    two_ctas: bool = False
    fp4_padded: bool = False

    MNEMONIC = "ttng.tensor_memory_encoding"
    FIELDS = (
        Field("blockM", "block_m", "int"),
        Field("blockN", "block_n", "int"),
        Field("colStride", "col_stride", "int", False, 1),
        _CGA,
        Field("twoCTAs", "two_ctas", "bool", False, False, show=_is_true),
        Field("fp4Padded", "fp4_padded", "bool", False, False, show=_is_true),
    )
    BRACED = 0  # blockM = .., blockN = .. (no braces)

    def _normalise(self):
        object.__setattr__(self, "two_ctas", _bool(self.two_ctas))
        object.__setattr__(self, "fp4_padded", _bool(self.fp4_padded))

    def to_linear(self, shape: Sequence[int]) -> LinearLayout:
        """The layout for ``shape`` (see the class docstring).

        >>> TensorMemory(128, 64, 2).to_linear([128, 64]).bases[1][1][:2]
        [[0, 0], [0, 1]]
        """
        shape = _shape(shape)
        if len(shape) != 2:
            raise LayoutError(f"tensor memory layouts have rank 2, got shape {list(shape)}")
        bm = as_int(self.block_m, "blockM")
        if bm not in (64, 128):
            raise LayoutError(f"blockM {bm} is not supported: use 64 or 128")
        bn = as_pow2(self.block_n, "blockN")
        cs = as_pow2(self.col_stride, "colStride")
        cga = _cga_layout(self.cga_layout, 2)
        if self.two_ctas is True and (not self.cga_layout or [int(x) for x in self.cga_layout[0]] != [1, 0]):
            raise LayoutError("twoCTAs layout requires the first CGALayout block basis to be [1, 0] (Triton's "
                              f"verifier), got CGALayout {[list(v) for v in self.cga_layout or ()]}")
        m, n = (max(1, s // c) for s, (_, c) in zip(shape, cga._outs))
        bn = min(bn, n)
        rows, cols = [], [[0, 0]] * (cs.bit_length() - 1 + (1 if self.fp4_padded is True else 0))
        cols = [list(c) for c in cols] + [[0, 1 << i] for i in range(bn.bit_length() - 1)]
        if bm == 64 and self.two_ctas is True:
            # two CTAs share an M=128 instruction: 64 rows here, row bit 6 splits the N block in two
            half = bn // 2
            rows = [[1 << i, 0] for i in range(6)] + [[0, half]]
            cols = ([[0, 0]] * (cs.bit_length() - 1) if half else []) + [[0, 1 << i] for i in range(half.bit_length() - 1)]
        elif bm == 64:
            rows = [[1 << i, 0] for i in range(4)]
            rows.append([64, 0] if m > 64 else [0, bn] if n > bn else [0, 0])
            rows += [[16, 0], [32, 0]]
        else:
            rows = [[1 << i, 0] for i in range(7)]
        rc = rows + cols
        size = [1 << max([v[0] for v in rc]).bit_length(), 1 << max([v[1] for v in rc]).bit_length()]
        for j, want in enumerate((m, n)):
            k = size[j]
            while k < want:
                cols.append([k, 0] if j == 0 else [0, k])
                k *= 2
            size[j] = max(size[j], want)
        if size[0] > m or size[1] > n:
            cta = LinearLayout({"row": rows, "col": cols}, [("dim0", size[0]), ("dim1", size[1])],
                               require_surjective=False)
            for j, want in enumerate((m, n)):
                cta = _shrink(cta, f"dim{j}", want)
            rows, cols = cta._bases[0][1], cta._bases[1][1]
        block = tuple((v[0] * m, v[1] * n) for v in cga._bases[0][1])
        # Triton's in-dims are row and col; a CGA split across CTAs adds block (one CTA: no block in-dim). Every
        # entry is below the shape (sizes above): built without the constructor's checks
        ins = (("row", tuple(map(tuple, rows))), ("col", tuple(map(tuple, cols)))) + ((("block", block),) if block
                                                                                       else ())
        return LinearLayout._make(ins, (("dim0", shape[0]), ("dim1", shape[1])))


    def reg_layout(self, shape: Sequence[int], num_warps: int = 4, instr_variant: str = "32x32b",
                   element_bitwidth: int = 32) -> LinearLayout:
        """The register layout of a ``tmem.load``/``tmem.store`` (Gluon ``get_reg_layout``).

        One message (PTX ``tcgen05.ld/st`` shape, 32-bit elements) is a tile ``register,
        lane, warp -> row, col``: ``32x32b`` has 32 lanes down the rows; ``16x64b``,
        ``16x128b`` and ``16x256b`` cover 16 rows with lanes and registers across 1, 4 or 8
        columns; the four warps take rows 32 and 64. The tile is repeated along the columns
        by registers; when the message does not reach row 16 of a 128-row layout, a fifth
        warp (more than four warps) or a register takes it; more warps split the columns,
        then broadcast. The result is the encoding's layout composed after the tile.
        Narrower elements are first packed (``32 / element_bitwidth`` contiguous elements
        along N per 32-bit column become a thread's first registers), unpacked (16-bit,
        ``col_stride`` 2) or padded. On blockM 64 (row 16 empty), ``32x32b`` uses the
        implicit ``16x32bx2`` form: lane 16 reads the upper half of the columns instead of
        repeated rows; ``16x32bx2`` cannot be requested (Triton refuses it too). A message
        wider than the tile's columns raises ``LayoutError`` (Triton has no layout then).
        Checked against Triton 3.9.0's ``compute_tmem_reg_layout`` (8/16/32-bit elements,
        1 to 256 columns).

        >>> TensorMemory(128, 64).reg_layout([128, 64], num_warps=8).bases[2]
        ('warp', [[32, 0], [64, 0], [0, 32]])
        >>> TensorMemory(128, 64).reg_layout([128, 64], instr_variant="16x256b").bases[1]
        ('lane', [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]])
        """
        nw = as_pow2(num_warps, "num_warps")
        if nw < 4:
            raise LayoutError(f"num_warps must be at least 4 (one warp per 32 TMEM lanes), got {nw}")
        if instr_variant == "16x32bx2":
            raise LayoutError("the 16x32bx2 message is inferred, not requested: 32x32b uses it where lanes 16..31 "
                              "would repeat rows (blockM 64), as Triton does")
        if instr_variant not in _TMEM_MESSAGES:
            raise LayoutError(f"unknown tensor memory message {instr_variant!r}: use one of "
                              f"{', '.join(_TMEM_MESSAGES)}")
        ebw = as_pow2(element_bitwidth, "element_bitwidth")
        if ebw > 32:
            raise LayoutError(f"element_bitwidth {ebw} is not supported: use 32 or fewer bits")
        T = self.to_linear(shape)
        cga = _cga_layout(self.cga_layout, 2)
        m, n = (max(1, s // c) for (_, s), (_, c) in zip(T._outs, cga._outs))
        # one CTA's row, col -> dim0, dim1 (the block bases are added back at the end)
        ll = LinearLayout._make(T._bases[:2], (("dim0", m), ("dim1", n)))
        got = _tmem_distributed(ll, instr_variant, nw, ebw)
        if got is None:
            raise LayoutError(f"the {instr_variant} message does not fit this tensor memory layout (shape "
                              f"{[s for _, s in T._outs]}, {nw} warps): use a narrower message or more columns")
        block = T._bases[2] if len(T._bases) > 2 else ("block", ())  # a register layout keeps its block in-dim
        return LinearLayout._make(got._bases + (block,), T._outs)


#: The tensor memory messages (PTX ``tcgen05.ld/st`` shapes) ``reg_layout`` models.
_TMEM_MESSAGES = ("32x32b", "16x64b", "16x128b", "16x256b")


def _tmem_tile(message: str) -> LinearLayout:
    """One message of 32-bit elements: ``register, lane, warp`` -> TMEM ``row, col`` (128 rows), with
    the four warps on rows 32 and 64 as well (Triton ``getTileLayout``)."""
    one, rc = LinearLayout.identity_1d, ["row", "col"]
    t = one(1, "register", "row") * one(1, "register", "col") * one(1, "lane", "row") * one(1, "lane", "col")
    if message == "32x32b":
        t = t * one(32, "lane", "row")
    elif message == "16x32bx2":
        t = t * one(16, "lane", "row")
    elif message == "16x64b":
        t = t * LinearLayout({"lane": [[8, 0], [0, 1], [1, 0], [2, 0], [4, 0]]}, rc)
    elif message == "16x128b":
        t = t * one(4, "lane", "col") * one(8, "lane", "row") * one(2, "register", "row")
    else:  # 16x256b
        t = t * one(2, "register", "col") * one(4, "lane", "col") * one(8, "lane", "row") * one(2, "register", "row")
    bases = dict(t.bases)
    bases["warp"] = [[32, 0], [64, 0]]
    return LinearLayout(bases, [("row", 128), ("col", t.out_dim_size("col"))], require_surjective=False)


def _tmem_distributed(ll: LinearLayout, message: str, num_warps: int, bitwidth: int) -> LinearLayout | None:
    """``register, lane, warp -> dim0, dim1`` of a TMEM load/store of ``ll`` (``row, col -> dim0, dim1``)
    with ``bitwidth``-bit elements, or None when the message does not fit (Triton 3.9.0's
    ``getDistributedLayoutForTmemLdSt`` without CTAs)."""
    one, zeros = LinearLayout.identity_1d, LinearLayout.zeros_1d
    if bitwidth != 32:
        # elements packed in one 32-bit column: contiguous along dim1 first in the registers
        quot, best, contig = None, 1, 1
        while bitwidth * contig <= 32:
            q = _divide_left(ll, one(contig, "col", "dim1"))
            if q is None:
                break
            quot, best = q, contig
            contig *= 2
        if best > 1:
            got = _tmem_distributed(quot, message, num_warps, bitwidth * best)
            return None if got is None else one(best, "register", "dim1") * got
        q = _divide_left(ll, zeros(32 // bitwidth, "col", "dim1") * one(2, "col", "dim1"))
        if bitwidth == 16 and q is not None:  # unpacked 16-bit elements (colStride 2)
            got = _tmem_distributed(q, message, num_warps, 32)
            return None if got is None else one(2, "register", "dim1") * got
        q = _divide_left(ll, zeros(32 // bitwidth, "col", "dim1"))
        if q is None and ll.in_dim_size("col") == 1:
            q = ll  # one column (N = 1): nothing to pack or pad, read as 32-bit (as Triton 3.9.0 does)
        if q is None:
            raise NotRepresentableError(f"a tensor memory layout of {bitwidth}-bit elements whose columns are "
                                        "neither packed nor padded is not modelled")
        return _tmem_distributed(q, message, num_warps, 32)
    tile = _tmem_tile(message)
    cols_tile = tile.out_dim_size("col")
    cols = ll.in_dim_size("col")
    missing = cols // cols_tile
    if missing == 0:
        return None
    rows32 = message == "32x32b"
    rows16 = not any(ll._bases[0][1][4])  # row 16 holds nothing (blockM 64)
    # a message that does not reach row 16 of a 32-row layout: a warp takes it, else a register
    row16 = None if rows32 or rows16 else ("warp" if num_warps > 4 else "register")
    tiled = num_warps // (8 if row16 == "warp" else 4)  # warps left to split the columns
    broadcast = tiled // min(missing, tiled)
    tiled //= broadcast
    cols_all = cols
    missing //= tiled
    cols //= tiled
    if missing > 1:
        if rows32 and rows16:
            # lane 16 would read repeated rows: it takes the upper half of the columns (16x32bx2)
            tile = tile * one(missing // 2, "register", "col")
            bases = dict(tile.bases)
            bases["lane"][-1] = [0, cols // 2]
            tile = LinearLayout(bases, [("row", 128), ("col", cols)], require_surjective=False)
        else:
            tile = tile * one(missing, "register", "col")
    bases = dict(tile.bases)
    if row16:
        bases[row16].append([16, 0])
    i = cols
    while i < cols_all:
        bases["warp"].append([0, i])
        i *= 2
    bases["warp"] += [[0, 0]] * (broadcast.bit_length() - 1)
    tile = LinearLayout(bases, [("row", 128), ("col", cols_all)], require_surjective=False)
    return tile.compose(ll)


@dataclass(frozen=True)
class TensorMemoryScales(_Encoding):
    """Triton's ``#ttng.tensor_memory_scales_encoding<>``: MMA scale factors in TMEM.

    Rows 0..31 along dim0, rows 32..127 broadcast (one copy per warp), 4
    columns along dim1 then 2 along dim0; then repeats of M then N along
    columns; then shrunk to the shape.

    >>> TensorMemoryScales().to_linear([128, 4]).bases[1]
    ('col', [[0, 1], [0, 2], [32, 0], [64, 0]])
    """

    cga_layout: Sequence[Sequence[int]] | None = None

    MNEMONIC = "ttng.tensor_memory_scales_encoding"
    FIELDS = (_CGA,)
    BRACED = 0  # <> or <CGALayout = ..>

    def to_linear(self, shape: Sequence[int]) -> LinearLayout:
        """The layout for ``shape`` (see the class docstring).

        >>> TensorMemoryScales().to_linear([32, 4]).bases[0]      # 32 rows: one warp's rows, no broadcast copies
        ('row', [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 0], [0, 0]])
        """
        shape = _shape(shape)
        if len(shape) != 2:
            raise LayoutError(f"tensor memory layouts have rank 2, got shape {list(shape)}")
        cga = _cga_layout(self.cga_layout, 2)
        m, n = (max(1, s // cga.out_dim_size(f"dim{i}")) for i, s in enumerate(shape))
        rows = [[1 << i, 0] for i in range(5)] + [[0, 0], [0, 0]]
        cols = [[0, 1], [0, 2], [32, 0]]
        k = 64
        while k < m:
            cols.append([k, 0])
            k *= 2
        size0 = max(64, m)
        k = 4
        while k < n:
            cols.append([0, k])
            k *= 2
        cta = LinearLayout({"row": rows, "col": cols}, [("dim0", size0), ("dim1", max(4, n))], require_surjective=False)
        cta = _shrink(_shrink(cta, "dim0", m), "dim1", n)
        block = [[e * s for e, s in zip(v, (m, n))] for v in cga.bases[0][1]]
        bases = {"row": cta.bases[0][1], "col": cta.bases[1][1], **({"block": block} if block else {})}
        return LinearLayout(bases, [("dim0", shape[0]), ("dim1", shape[1])], require_surjective=False)
