"""Triton's shared-memory encodings given by rule: ``#ttg.swizzled_shared``, AMD's
``#ttg.amd_rotating_shared`` (the same swizzle, its phase rotated every ``max_phase`` phases),
``#ttg.nvmma_shared`` (what TMA and (W)GMMA/tcgen05 read) and ``#ttg.shared_linear`` (any bases).

They map ``offset, block`` -> tensor; ``PaddedShared`` (``padded.py``) adds
padding, which is not linear.

>>> str(NvmmaShared(128, 16))
'#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>'
>>> str(SharedLinear([[0, 1], [1, 0]], [[2, 0]]))
'#ttg.shared_linear<{offset = [[0, 1], [1, 0]], block = [[2, 0]]}, alignment = 16>'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..._ints import as_int, as_pow2
from ...errors import LayoutError, NotRepresentableError
from ..layout import LinearLayout
from ._base import _CGA, Field, _bool, _dims, _Encoding, _freeze, _ints, _is_true, _order, _shape
from ._fit import _cga_layout, _grow, _implied_shape, fit_to_shape


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

    MNEMONIC = "ttg.swizzled_shared"
    FIELDS = (
        Field("vec", "vec", "int", False, 0),  # Triton's parser takes a missing vec as 0 (and prints it)
        Field("perPhase", "per_phase", "int"),
        Field("maxPhase", "max_phase", "int"),
        Field("order", "order", "ints"),
        _CGA,
    )

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
        if vec < 0 or per_phase < 1 or max_phase < 1:  # Triton takes vec = 0 (no swizzle); it divides by the others
            raise LayoutError(f"vec must be >= 0, per_phase and max_phase >= 1, got {vec}, {per_phase}, {max_phase}")
        names = _dims(rank)
        cga = _cga_layout(self.cga_layout, rank)
        cta_shape = [max(1, s // cga.out_dim_size(n)) for n, s in zip(names, shape)]
        if rank == 1:
            cta = LinearLayout.identity_1d(cta_shape[0], "offset", "dim0")
            return fit_to_shape(cta, shape, self.cga_layout)
        tile = shape if self._WHOLE_SHAPE else cta_shape
        c, r = order[0], order[1]
        ncols, nrows = tile[c], tile[r]
        vecs = []
        for i in range(ncols.bit_length() - 1):
            vecs.append((0, 1 << i))
        for i in range(nrows.bit_length() - 1):
            row = 1 << i
            vecs.append((row, (vec * self._phase(row, per_phase, max_phase)) % ncols))
        # rows 1, 2, 4, .. and every column bit: a bijection onto nrows x ncols (what the
        # constructor would infer and check)
        cta = LinearLayout._make((("offset", tuple(vecs)),), ((names[r], nrows), (names[c], ncols)))
        for d in order[2:]:
            cta = cta * LinearLayout.identity_1d(tile[d], "offset", names[d])
        return fit_to_shape(cta, shape, self.cga_layout)

    #: Whether the swizzled tile spans the whole shape (then fitted to one CTA) rather than one CTA's.
    _WHOLE_SHAPE = False

    @staticmethod
    def _phase(row: int, per_phase: int, max_phase: int) -> int:
        """The phase of row ``row``: which multiple of ``vec`` its columns are XOR-ed with.

        >>> SwizzledShared._phase(6, 2, 4)
        3
        """
        return (row // per_phase) % max_phase


def swizzled_shared(shape, vec, per_phase, max_phase, order, cga_layout=None) -> LinearLayout:
    """The linear layout of ``#ttg.swizzled_shared`` for ``shape``; see :class:`SwizzledShared`.

    >>> swizzled_shared([4, 8], 1, 1, 4, [1, 0]).apply({"offset": 11, "block": 0})
    {'dim0': 1, 'dim1': 2}
    """
    return SwizzledShared(vec, per_phase, max_phase, order, cga_layout).to_linear(shape)


@dataclass(frozen=True)
class AmdRotatingShared(SwizzledShared):
    """AMD's ``#ttg.amd_rotating_shared<{vec, perPhase, maxPhase, order}>``: a swizzled shared layout
    whose phase is rotated from one block of ``per_phase * max_phase`` rows to the next, so that rows
    ``max_phase`` phases apart do not hit the same banks.

    As :class:`SwizzledShared` (same fields, same text), except that row bit ``2**i`` is XOR-ed with
    ``vec * (phase ^ block)`` where ``phase = (2**i // per_phase) % max_phase`` and
    ``block = (2**i // per_phase // max_phase) % max_phase``; and, as Triton 3.9.0's
    ``sharedToLinearLayoutAMDRotating``, the swizzled tile spans the whole shape before it is fitted to
    one CTA (with a CGA layout, the rows past one CTA's share are broadcast).

    >>> R = AmdRotatingShared(4, 1, 4, [1, 0])
    >>> R.to_linear([32, 64]).bases[0][1][6:]      # rows 1, 2, 4, 8, 16: phases 1, 2, then 1, 2 again, then 0
    [[1, 4], [2, 8], [4, 4], [8, 8], [16, 0]]
    >>> str(R)
    '#ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 4, order = [1, 0]}>'
    """

    MNEMONIC = "ttg.amd_rotating_shared"
    _WHOLE_SHAPE = True

    @staticmethod
    def _phase(row: int, per_phase: int, max_phase: int) -> int:
        """The rotated phase of row ``row``: its phase XOR its block of ``max_phase`` phases.

        >>> AmdRotatingShared._phase(4, 1, 4), SwizzledShared._phase(4, 1, 4)
        (1, 0)
        """
        return ((row // per_phase) % max_phase) ^ ((row // max_phase // per_phase) % max_phase)


def amd_rotating_shared(shape, vec, per_phase, max_phase, order, cga_layout=None) -> LinearLayout:
    """The linear layout of ``#ttg.amd_rotating_shared`` for ``shape``; see :class:`AmdRotatingShared`.

    >>> amd_rotating_shared([8, 4], 1, 1, 2, [1, 0]).bases[0]
    ('offset', [[0, 1], [0, 2], [1, 1], [2, 1], [4, 0]])
    """
    return AmdRotatingShared(vec, per_phase, max_phase, order, cga_layout).to_linear(shape)


@dataclass(frozen=True)
class NvmmaShared(_Encoding):
    """Triton's ``#ttg.nvmma_shared`` (``NVMMASharedEncodingAttr``): the shared layout TMA and
    (W)GMMA/tcgen05 read, ``offset, block`` -> tensor.

    Per CTA, the TMA box is the shape with every dim capped at 256 and the
    contiguous dim (the last; the first if ``transposed``) set to
    ``8 * swizzle_byte_width / element_bitwidth`` elements. With swizzling,
    a core matrix of 8 rows x that many columns has offset bits along the
    columns, then rows, row ``r`` XOR-ed by ``vec * ((r / per_phase) % max_phase)``
    (``vec = 128 / element_bitwidth``, ``per_phase = 128 / swizzle``,
    ``max_phase = swizzle / 16``); it is repeated over the rows of the box
    (outer dims collapsed), reshaped to the box, then over the rest of the
    CTA's shape, then fitted with the CGA layout. ``swizzle_byte_width=0`` is
    row-major over the box. ``fp4_padded`` (8-bit, 128 B only) maps every
    group of 16 offsets to 8 packed columns twice (8 real, 8 padding).

    >>> NvmmaShared(128, 16).to_linear([16, 64]).bases[0][1][6:]
    [[1, 8], [2, 16], [4, 32], [8, 0]]
    >>> NvmmaShared.default_for([64, 64], 16)
    NvmmaShared(swizzle_byte_width=128, element_bitwidth=16, transposed=False, fp4_padded=False, cga_layout=(), rank=None)
    """

    swizzle_byte_width: int
    element_bitwidth: int
    transposed: bool = False
    fp4_padded: bool = False
    cga_layout: Sequence[Sequence[int]] | None = None
    rank: int | None = None

    MNEMONIC = "ttg.nvmma_shared"
    FIELDS = (
        Field("swizzlingByteWidth", "swizzle_byte_width", "int"),
        Field("transposed", "transposed", "bool", False, False),
        Field("elementBitWidth", "element_bitwidth", "int"),
        Field("fp4Padded", "fp4_padded", "bool", False, False, show=_is_true),
        _CGA,
        Field("rank", "rank", "int", False, show=lambda r: r is not None),
    )

    def _normalise(self):
        object.__setattr__(self, "transposed", _bool(self.transposed))
        object.__setattr__(self, "fp4_padded", _bool(self.fp4_padded))
        # Triton prints the rank only when it is not 2 and no CGA layout implies it: None = implied
        implied = len(self.cga_layout[0]) if self.cga_layout and isinstance(self.cga_layout[0], tuple) else 2
        if self.rank == implied:
            object.__setattr__(self, "rank", None)

    @classmethod
    def default_for(cls, shape, element_bitwidth, transposed=False, fp4_padded=False, cga_layout=None):
        """Triton's default swizzle (Gluon ``NVMMASharedLayout.get_default_for``): the widest of
        128/64/32 bytes that divides the contiguous dim's bytes, 0 when the outer dims hold fewer
        than 8 rows (or the tensor has rank 1).

        >>> NvmmaShared.default_for([8, 16], 16).swizzle_byte_width
        32
        >>> NvmmaShared.default_for([4, 64], 16).swizzle_byte_width
        0
        """
        shape = _shape(shape)
        ebw = as_int(element_bitwidth, "element_bitwidth")
        cga = _cga_layout(_freeze(cga_layout) or (), len(shape))
        per_cta = [max(1, s // cga.out_dim_size(f"dim{i}")) for i, s in enumerate(shape)]
        if transposed:
            per_cta = per_cta[1:] + per_cta[:1]
        contig_bytes = per_cta[-1] * (2 if fp4_padded else 1) * ebw // 8
        swizzle = next((w for w in (128, 64, 32) if contig_bytes >= w and contig_bytes % w == 0), 0)
        outer = 1
        for x in per_cta[:-1]:
            outer *= x
        if len(shape) < 2 or outer < 8:
            swizzle = 0
        return cls(swizzle, ebw, transposed, fp4_padded, cga_layout, len(shape))

    def _params(self):
        swz = as_int(self.swizzle_byte_width, "swizzle_byte_width")
        if swz not in (0, 32, 64, 128):
            raise LayoutError(f"swizzle_byte_width {swz} is not supported: use 0, 32, 64 or 128")
        ebw = as_int(self.element_bitwidth, "element_bitwidth")
        if ebw not in (8, 16, 32, 64):
            raise LayoutError(f"element_bitwidth {ebw} is not supported: use 8, 16, 32 or 64")
        if self.fp4_padded is True and (swz != 128 or ebw != 8):
            raise LayoutError("fp4_padded needs swizzle_byte_width 128 and element_bitwidth 8")
        return swz, ebw

    def _core_matrix(self, swz, ebw) -> LinearLayout:
        vec, per_phase, max_phase = 128 // ebw, 128 // max(swz, 1), max(swz, 16) // 16
        cols = 8 * max(16, swz) // ebw
        fp4 = self.fp4_padded is True

        def packed(c):
            return c // 16 * 8 + c % 8 if fp4 else c

        vecs = [(0, packed(1 << i)) for i in range(cols.bit_length() - 1)]
        for i in range(3):
            row = 1 << i
            vecs.append((row, packed(vec * ((row // per_phase) % max_phase))))
        # a bijection (rows 1, 2, 4 and every column bit): sizes as the constructor would infer them
        sizes = [1 << max(v[j] for v in vecs).bit_length() for j in (0, 1)]
        return LinearLayout._make((("offset", tuple(vecs)),), (("dim0", sizes[0]), ("dim1", sizes[1])))

    def to_linear(self, shape: Sequence[int]) -> LinearLayout:
        """The layout for ``shape`` (see the class docstring).

        >>> NvmmaShared(0, 16).to_linear([2, 4]).bases[0]
        ('offset', [[0, 1], [0, 2], [1, 0]])
        """
        shape = _shape(shape)
        rank = len(shape)
        if self.rank is not None and as_int(self.rank, "rank") != rank:
            raise LayoutError(f"this nvmma_shared layout has rank {self.rank}, not the shape {list(shape)}'s {rank}")
        swz, ebw = self._params()
        names = _dims(rank)
        cga = _cga_layout(self.cga_layout, rank)
        per_cta = [max(1, s // cga.out_dim_size(n)) for n, s in zip(names, shape)]
        transposed = self.transposed is True
        fp4 = self.fp4_padded is True
        contig = 0 if transposed else rank - 1
        box = list(per_cta)
        if fp4:
            box[contig] *= 2
        box = [min(x, 256) for x in box]
        if swz:
            need = 8 * swz // ebw
            if box[contig] < need:
                raise LayoutError(
                    f"shape {list(shape)} is too small for a {swz}-byte swizzle of {ebw}-bit elements: the "
                    f"contiguous dim needs at least {need // (2 if fp4 else 1)} elements per CTA"
                )
            box[contig] = need
        if fp4:
            box[contig] //= 2
        if swz == 0:
            # Row-major over the box; transposed: over the box rotated left (dim0 last), whose
            # dim k is then tensor dim order[k] (order = [r-1, 0, .., r-2]), as Triton 3.9.0.
            order = [rank - 1] + list(range(rank - 1)) if transposed else list(range(rank))
            sizes = box[1:] + box[:1] if transposed else box
            layout = LinearLayout.empty()
            for k in range(rank - 1, -1, -1):
                layout = layout * LinearLayout.identity_1d(sizes[k], "offset", names[order[k]])
            grow = order if transposed else order[::-1]  # Triton grows in the layout's own out-dim order
            layout = _grow(layout, [names[d] for d in grow], [per_cta[d] for d in grow])
            return fit_to_shape(layout.transpose_outs(names), shape, self.cga_layout)
        if rank < 2:
            raise LayoutError("a swizzled nvmma_shared layout needs rank >= 2")
        collapsed = [1, box[-1]]
        for x in box[:-1]:
            collapsed[0] *= x
        if transposed:
            collapsed.reverse()
        tile = self._core_matrix(swz, ebw)
        rows, cols = tile.out_dim_size("dim0"), tile.out_dim_size("dim1")
        if collapsed[1] * (2 if fp4 else 1) < cols or collapsed[0] < rows:
            # Triton reads such a memdesc type, but its toLinearLayout asserts on it: there is no layout to give
            raise NotRepresentableError(
                f"shape {list(shape)} is smaller than one {rows}x{cols} core matrix of this nvmma_shared layout "
                "(Triton reads the type but has no linear layout for it: its toLinearLayout asserts)"
            )
        layout = _grow(tile, ["dim0", "dim1"], collapsed)
        pre = box[1:] + box[:1] if transposed else list(box)
        if rank != 2:  # for rank 2 the reshape keeps both sizes: nothing to do
            # row-major reshape (Triton's reshapeLayout): the last dim is the fastest
            layout = layout.transpose_outs(["dim1", "dim0"]).reshape_outs(list(zip(names, pre))[::-1])
            layout = layout.transpose_outs(names)
        if transposed:
            order = [rank - 1] + list(range(rank - 1))
            vecs = [[v[k] for k in order] for v in layout.bases[0][1]]
            layout = LinearLayout({"offset": vecs}, list(zip(names, box)))
        layout = _grow(layout, names, per_cta)
        return fit_to_shape(layout, shape, self.cga_layout)


def nvmma_shared(shape, swizzle_byte_width, element_bitwidth, transposed=False, fp4_padded=False,
                 cga_layout=None) -> LinearLayout:
    """The linear layout of ``#ttg.nvmma_shared`` for ``shape``; see :class:`NvmmaShared`.

    >>> nvmma_shared([8, 8], 0, 32).bases[0]
    ('offset', [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0], [4, 0]])
    """
    return NvmmaShared(swizzle_byte_width, element_bitwidth, transposed, fp4_padded, cga_layout).to_linear(shape)


@dataclass(frozen=True)
class SharedLinear(_Encoding):
    """Triton's ``#ttg.shared_linear<{offset = [...], block = [...]}, alignment = A>``: any shared
    layout given by its bases; the tensor shape is implied by the bases (each dim the smallest
    power of two above its largest entry).

    >>> SharedLinear([[0, 1], [1, 0]]).to_linear([2, 2]).bases
    [('offset', [[0, 1], [1, 0]]), ('block', [])]
    >>> SharedLinear([[0, 1], [1, 0]]).shape
    (2, 2)
    """

    offset_bases: Sequence[Sequence[int]]
    block_bases: Sequence[Sequence[int]] = ()
    alignment: int = 16

    MNEMONIC = "ttg.shared_linear"
    FIELDS = (
        Field("offset", "offset_bases", "bases"),
        Field("block", "block_bases", "bases", False, (), show=bool),
        Field("alignment", "alignment", "int", False, 16),
    )
    BRACED = 2  # {offset = .., block = ..}, alignment = 16

    @property
    def shape(self) -> tuple[int, ...]:
        """The tensor shape the bases span (Gluon's ``SharedLinearLayout.shape``).

        >>> SharedLinear([[1, 0], [0, 4]], [[2, 0]]).shape
        (4, 8)
        """
        if not self.offset_bases:
            raise LayoutError("shared_linear needs at least one offset basis")
        return _implied_shape(list(self.offset_bases) + list(self.block_bases), "shared_linear")

    def to_linear(self, shape: Sequence[int] | None = None) -> LinearLayout:
        """``offset, block`` -> tensor; ``shape`` (default: :attr:`shape`) must be the one the bases span.

        >>> SharedLinear([[1]], [[2]]).to_linear([4]).apply({"offset": 1, "block": 1})
        {'dim0': 3}
        """
        own = self.shape
        shape = own if shape is None else _shape(shape)
        if len(shape) != len(own):
            raise LayoutError(f"shared_linear bases have {len(own)} entries but the shape {list(shape)} has rank "
                              f"{len(shape)}")
        as_pow2(self.alignment, "alignment")
        for d, (a, b) in enumerate(zip(shape, own)):
            if b != a:  # Triton's verifier: "Mismatch in expected shape for dimension d"
                raise LayoutError(f"shared_linear bases span shape {list(own)}, not the tensor's {list(shape)} "
                                  f"(dim{d}: {b} vs {a}); Triton requires them equal")
        rank = len(shape)
        # the bases were checked by ``shape`` (ints, one per dim, non-negative) and fit in ``shape``
        return LinearLayout._make((("offset", tuple(_ints(v, "offset basis", rank) for v in self.offset_bases)),
                                   ("block", tuple(_ints(v, "block basis", rank) for v in self.block_bases))),
                                  tuple(zip(_dims(rank), shape)))
