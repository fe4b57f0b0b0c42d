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

The shared encodings ``NvmmaShared`` (with Triton's default swizzle rule,
``NvmmaShared.default_for``) and ``SharedLinear``, Blackwell's
``TensorMemory`` (with ``reg_layout``, the 32x32b tmem load/store register
layout) and ``TensorMemoryScales``, and ``LinearEncoding`` (``#ttg.linear``)
complete Triton 3.9.0's set. ``PaddedShared`` is not linear over GF(2)
(``to_linear`` raises ``NotRepresentableError``): its padded addresses are
affine (``to_affine``, ``address_map``) and ``analysis.bank_conflicts``
counts them. ``parse(text)`` / ``str(enc)`` read and print Triton's
attributes (:mod:`unilayout.linear.ttgir`); encodings are frozen, hashable
values, and computed layouts are kept per (encoding, shape).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import update_wrapper
from operator import itemgetter as _itemgetter
from typing import Any, Sequence

from ..errors import LayoutError, NotRepresentableError
from .._ints import as_int, as_pow2
from .algebra import divide_left as _divide_left
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
    "NvmmaShared",
    "SharedLinear",
    "nvmma_shared",
    "TensorMemory",
    "TensorMemoryScales",
    "LinearEncoding",
    "parse",
    "parse_module",
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

_INT_TYPES = {int}
_SEQ_TYPES = {list, tuple}

#: In-dims of distributed encodings, in order.
DISTRIBUTED_IN_DIMS = ("register", "lane", "warp", "block")


# --------------------------------------------------------------- helpers
def _ints(values: Any, what: str, length: int | None = None) -> tuple[int, ...]:
    # fast path: a tuple or list of plain ints (what encodings store and parse gives)
    if (type(values) is tuple or type(values) is list) and set(map(type, values)) <= _INT_TYPES and (
            length is None or len(values) == length):
        return tuple(values)
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
    if all(v > 0 and not v & (v - 1) for v in out):
        return out
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


_ONE_CTA: dict = {}  # rank -> the block layout of one CTA


def _cga_layout(cga_layout, rank: int) -> LinearLayout:
    """The ``block`` layout in CTA-tile units; it must reach every tile it spans (Triton aborts otherwise)."""
    if not cga_layout:  # one CTA (the common case): no bases, every out-dim of size 1 (a constant per rank)
        got = _ONE_CTA.get(rank)
        if got is None:
            got = _ONE_CTA[rank] = LinearLayout._make((("block", ()),), tuple((f"dim{i}", 1) for i in range(rank)))
        return got
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


def fit_to_shape(cta: LinearLayout, shape: Sequence[int], cga_layout=None) -> LinearLayout:
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
    return _fit([(n, [list(v) for v in vecs]) for n, vecs in cta._bases], [n for n, _ in cta._outs],
                [s for _, s in cta._outs], shape, cga_layout)


class _Tile:
    """A product of 1-D pieces built in place, for the encodings' CTA layouts.

    ``t.id(n, "register", "dim1")`` appends exactly what ``* identity_1d(n, "register",
    "dim1")`` would (same bases, same in- and out-dim order, out-dim sizes multiplied);
    ``t.zeros(...)`` likewise for ``zeros_1d``. The vectors are plain lists over
    ``t.names``, handed to :func:`_fit` without copies (no intermediate LinearLayout).
    """

    __slots__ = ("bases", "names", "sizes")

    def __init__(self, names=()):
        self.bases: dict = {}
        self.names = list(names)
        self.sizes = [1] * len(self.names)

    def _out(self, name):
        names = self.names
        if name in names:
            return names.index(name)
        names.append(name)
        self.sizes.append(1)
        for vecs in self.bases.values():
            for v in vecs:
                v.append(0)
        return len(names) - 1

    def id(self, size: int, in_dim: str, out_dim: str, zero: bool = False) -> "_Tile":
        if size < 1 or size & (size - 1):
            raise LayoutError(f"size of in-dim {in_dim!r} {size} is not a power of two")
        names = self.names
        j = names.index(out_dim) if out_dim in names else self._out(out_dim)
        vecs = self.bases.get(in_dim)
        if vecs is None:
            vecs = self.bases[in_dim] = []
        if size > 1:
            n = len(names)
            s = self.sizes[j]
            for i in range(size.bit_length() - 1):
                v = [0] * n
                if not zero:
                    v[j] = s << i
                vecs.append(v)
            if not zero:
                self.sizes[j] = s * size
        return self

    def zeros(self, size: int, in_dim: str, out_dim: str) -> "_Tile":
        return self.id(size, in_dim, out_dim, zero=True)

    def isn(self, in_dim: str, sizes, order) -> "_Tile":
        """``* identity_standard_nd(in_dim, sizes, order)``."""
        for d in order:
            self.id(sizes[d], in_dim, f"dim{d}")
        return self

    def transpose(self, names) -> "_Tile":
        """``transpose_outs(names)`` (a permutation of the out-dims)."""
        names = list(names)
        if names != self.names:
            perm = [self.names.index(n) for n in names]
            for in_dim, vecs in self.bases.items():
                self.bases[in_dim] = [[v[k] for k in perm] for v in vecs]
            self.sizes = [self.sizes[k] for k in perm]
            self.names = names
        return self

    def fit(self, shape, cga_layout) -> LinearLayout:
        """:func:`fit_to_shape` of the tile."""
        return _fit(list(self.bases.items()), self.names, self.sizes, shape, cga_layout)


def _fit(bases, outs, sizes, shape, cga_layout) -> LinearLayout:
    """:func:`fit_to_shape` on plain lists: ``bases`` ``[(in_dim, [vector list, ...])]`` over the
    out-dims ``outs`` of ``sizes``; the lists are used (changed) in place."""
    shape = _shape(shape)
    rank = len(shape)
    names = _dims(rank)
    if sorted(outs) != names:
        raise LayoutError(f"fit_to_shape: the CTA layout's out-dims {outs} must be {names}")
    # The CGA layout, shrunk to the shape, in the CTA's out-dim order (sizes per CTA tile).
    if cga_layout:
        cga = _cga_layout(cga_layout, rank)
        for d, n in zip(names, shape):
            cga = _shrink(cga, d, n)
        cga_vecs = [list(v) for v in cga._bases[0][1]]
        cga_size = dict(cga._outs)
    else:
        cga_vecs, cga_size = [], dict.fromkeys(names, 1)
    perm = [int(n[3:]) for n in outs]  # CTA out position -> standard dim (outs are dim0.. in some order)
    if cga_vecs:
        cga_vecs = [[v[j] for j in perm] for v in cga_vecs]
    # Everything below works on plain lists in the CTA's out-dim order, built into one value at the end.
    want = [max(1, shape[d] // cga_size[n]) for d, n in zip(perm, outs)]
    first = bases[0][1]
    for j, goal in enumerate(want):  # grow: repeat along the first in-dim (ensureLayoutNotSmallerThan)
        while sizes[j] < goal:
            v = [0] * rank
            v[j] = sizes[j]
            first.append(v)
            sizes[j] *= 2
    allvecs = None
    for j, goal in enumerate(want):  # shrink: zero the largest entry per halving (ensureLayoutNotLargerThan)
        size, halvings = sizes[j], 0
        while size > goal:
            size //= 2
            halvings += 1
        if halvings:
            if allvecs is None:
                allvecs = [v for _, vecs in bases for v in vecs]
            # the largest entries, the first one first among equals (what one halving at a time zeroes)
            for _, _, v in sorted((-v[j], i, v) for i, v in enumerate(allvecs) if v[j] > 0)[:halvings]:
                v[j] = 0
            for v in allvecs:
                if v[j] >= size:
                    v[j] = 0
            sizes[j] = size
    block = [tuple(e * sz for e, sz in zip(v, sizes)) for v in cga_vecs]
    inv = [perm.index(d) for d in range(rank)]  # standard dim -> CTA out position
    if "block" in [n for n, _ in bases]:
        raise LayoutError("fit_to_shape: the CTA layout must not have a 'block' in-dim (the CGA layout adds it)")
    if inv == list(range(rank)):
        out = tuple((n, tuple(map(tuple, vecs))) for n, vecs in bases)
        out += (("block", tuple(block)),)
    else:
        get = _itemgetter(*inv) if rank > 1 else (lambda v: (v[0],))
        out = tuple((n, tuple(map(get, vecs))) for n, vecs in bases)
        out += (("block", tuple(map(get, block))),)
    total = tuple((names[d], sizes[inv[d]] * cga_size[names[d]]) for d in range(rank))
    return LinearLayout._make(out, total)


def _bool(value):
    """``True``/``False`` kept; 0/1 become booleans; anything else is left for the checks to refuse."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    return value


#: Layouts already computed, by (encoding, shape): values are immutable, so they are shared (as
#: Triton caches toLinearLayout by attribute and shape). Bounded; cleared by :func:`clear_caches`.
_LAYOUTS: dict = {}
_MAX_CACHED = 4096


def clear_caches() -> None:
    """Forget the layouts and parsed texts kept for reuse (for timing cold calls).

    >>> clear_caches()
    """
    _LAYOUTS.clear()
    from . import ttgir

    ttgir._PARSED.clear()


def _cached(method):
    def to_linear(self, shape=None):
        try:
            key = (self, None if shape is None else tuple(map(int, shape)))
            got = _LAYOUTS.get(key)
        except (TypeError, ValueError):  # unhashable fields or shape: computed, not kept
            return method(self, shape) if shape is not None else method(self)
        if got is None:
            got = method(self, shape) if shape is not None else method(self)
            if len(_LAYOUTS) >= _MAX_CACHED:
                _LAYOUTS.clear()
            _LAYOUTS[key] = got
        return got

    return update_wrapper(to_linear, method)


def _freeze(value):
    """Lists (nested) -> tuples, so that encodings compare, hash and print by value."""
    if type(value) is tuple or type(value) is list:
        if not _SEQ_TYPES.intersection(map(type, value)):
            return tuple(value)  # flat: no recursion
        return tuple(_freeze(v) for v in value)
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


class _Encoding:
    """Base of the encoding values: each implements ``to_linear(shape)``; ``str()`` is Triton's attribute.

    Fields given as lists are stored as tuples (and ``cga_layout=None`` as ``()``),
    so ``parse(str(enc)) == enc`` and encodings hash.
    """

    def __post_init__(self):
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if name == "cga_layout" and value is None:
                object.__setattr__(self, name, ())
            elif isinstance(value, (list, tuple)):
                object.__setattr__(self, name, _freeze(value))
        self._normalise()

    def _normalise(self):
        """Per-kind canonical form (defaults made explicit); nothing to do by default."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "to_linear" in cls.__dict__:
            cls.to_linear = _cached(cls.__dict__["to_linear"])

    def __str__(self) -> str:
        from .ttgir import to_text

        return to_text(self)


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
        csz = [s for _, s in cga._outs]
        spt = [min(s, max(1, n // c)) for s, n, c in zip(spt, shape, csz)]
        # isn(register, spt, order) * isn(lane, tpw, order) * isn(warp, wpc, order), built in place
        tile = _Tile().isn("register", spt, order).isn("lane", tpw, order).isn("warp", wpc, order)
        return tile.fit(shape, self.cga_layout)


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
        if isinstance(parent, AmdMfma):
            return _mfma_dot(self, _shape(shape))
        if isinstance(parent, AmdWmma):
            return _wmma_dot(self, _shape(shape))
        if not isinstance(parent, NvidiaMma):
            raise LayoutError(
                f"DotOperand: the parent must be an NVIDIA MMA, AMD MFMA or AMD WMMA layout, got {type(parent).__name__}"
            )
        shape = _shape(shape)
        rank, idx, kw, names, k_dim, _ = _dot_common(self, shape)
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
        for d in warp_order:  # the parent's warps, broadcast along K
            cta.id(wpc[d], "warp", names[d], zero=d == k_dim)
        return cta.fit(shape, parent.cga_layout)


def _dot_common(dot, shape):
    rank = len(shape)
    if rank not in (2, 3):
        raise LayoutError(f"dot operand layouts have rank 2 or 3, got shape {list(shape)}")
    idx = as_int(dot.operand_index, "operand_index")
    if idx not in (0, 1):
        raise LayoutError(f"operand_index must be 0 (A) or 1 (B), got {idx}")
    kw = _pow2s([dot.k_width], "k_width")[0]
    names = _dims(rank)
    k_idx, nonk_idx = (rank - 1, rank - 2) if idx == 0 else (rank - 2, rank - 1)
    return rank, idx, kw, names, k_idx, nonk_idx


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
    warps = warp_layout if type(warp_layout) is list else _std_vectors(warp_layout, names)
    sizes = [1] * (rank - 2) + [tile[0], tile[1]]
    for v in regs + lanes + warps:
        for j, e in enumerate(v):
            sizes[j] = max(sizes[j], 1 << e.bit_length())
    # out-dims last first (N, M, batch); entries are non-negative and the sizes hold them
    bases = [(n, [v[::-1] for v in vecs]) for n, vecs in (("register", regs), ("lane", lanes), ("warp", warps))]
    return bases, names[::-1], sizes[::-1]


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


def _std_vectors(layout: LinearLayout, names):
    """The bases of a one-in-dim layout as vectors over ``names`` (dim0..)."""
    pos = [layout.out_dim_names.index(n) if layout.has_out_dim(n) else None for n in names]
    out = []
    for _, vecs in layout._bases:
        for v in vecs:
            out.append([0 if p is None else v[p] for p in pos])
    return out


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
        # the parent's own computation (the sliced layout is what is kept for reuse)
        P = getattr(type(parent).to_linear, "__wrapped__", type(parent).to_linear)(parent, pshape)
        # P's out-dims are dim0.. in order: drop out-dim ``dim`` (the later ones renumbered), and
        # the register bases that become zero
        keep = [k for k in range(len(P._outs)) if k != dim]
        get = _itemgetter(*keep) if len(keep) > 1 else None
        bases = []
        for name, vecs in P._bases:
            vecs = tuple(map(get, vecs)) if get is not None else tuple([(v[keep[0]],) for v in vecs])
            if name == "register":
                vecs = tuple(v for v in vecs if any(v))
            bases.append((name, vecs))
        outs = tuple((f"dim{i}", P._outs[k][1]) for i, k in enumerate(keep))
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
        # rows 1, 2, 4, .. and every column bit: a bijection onto nrows x ncols (what the
        # constructor would infer and check)
        cta = LinearLayout._make((("offset", tuple(vecs)),), ((names[r], nrows), (names[c], ncols)))
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
            raise LayoutError(
                f"shape {list(shape)} is smaller than one {rows}x{cols} core matrix of this nvmma_shared layout"
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


def _grow(layout: LinearLayout, names, sizes) -> LinearLayout:
    """Triton's ``ensureLayoutNotSmallerThan`` with explicit out-dims: repeat along the first in-dim."""
    # the same as ``layout * identity_1d(want // have, first, d)`` per dim, on plain lists
    (first, fvecs), rest = layout._bases[0], layout._bases[1:]
    fvecs = list(fvecs)
    outs = [n for n, _ in layout._outs]
    osz = [s for _, s in layout._outs]
    grown = False
    for d, want in zip(names, sizes):
        if d not in outs:
            if want <= 1:
                continue
            outs.append(d)  # a new out-dim comes last (the product's supremum)
            osz.append(1)
            fvecs = [(*v, 0) for v in fvecs]
            rest = tuple((n, tuple((*v, 0) for v in vecs)) for n, vecs in rest)
        j = outs.index(d)
        have = osz[j]
        if have < want:
            as_pow2(want // have, f"size of in-dim {first!r}")
            zero = [0] * len(outs)
            for i in range((want // have).bit_length() - 1):
                v = list(zero)
                v[j] = have << i
                fvecs.append(tuple(v))
            osz[j] = have * (want // have)
            grown = True
    if not grown:
        return layout
    return LinearLayout._make(((first, tuple(fvecs)),) + tuple(rest), tuple(zip(outs, osz)))


def _implied_shape(vecs, what) -> tuple[int, ...]:
    """Each dim the smallest power of two above the bases' largest entry (Gluon's rule)."""
    rank = len(_ints(vecs[0], f"{what} basis"))
    if rank == 0:
        raise LayoutError(f"{what} bases need at least one entry (one per tensor dim)")
    for v in vecs:
        v = _ints(v, f"{what} basis")
        if len(v) != rank:
            raise LayoutError(f"{what} bases have {rank} and {len(v)} entries: give one per tensor dim in every basis")
        if any(e < 0 for e in v):
            raise LayoutError(f"{what} basis {list(v)} has a negative entry")
    return tuple(1 << max(v[j] for v in vecs).bit_length() for j in range(rank))


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
        """``offset, block`` -> tensor; ``shape`` (default: :attr:`shape`) must hold the bases.

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
            if b > a:
                raise LayoutError(f"shared_linear bases reach dim{d} = {b - 1}, past the shape {list(shape)}")
        rank = len(shape)
        # the bases were checked by ``shape`` (ints, one per dim, non-negative) and fit in ``shape``
        return LinearLayout._make((("offset", tuple(_ints(v, "offset basis", rank) for v in self.offset_bases)),
                                   ("block", tuple(_ints(v, "block basis", rank) for v in self.block_bases))),
                                  tuple(zip(_dims(rank), shape)))


@dataclass(frozen=True)
class PaddedShared(_Encoding):
    """Triton's ``#ttg.padded_shared``: a linear offset -> tensor map, plus padding in memory.

    Element at linear offset ``o`` (``offset_layout``: GF(2) bases, or the
    identity in ``order`` over ``shape``) is stored at address
    ``o + sum(floor(o / interval) * padding)`` over the ``(interval, padding)``
    pairs. Padding is not linear over GF(2), so :meth:`to_linear` refuses;
    :meth:`to_affine` gives the address map (an affine map of ``o``),
    :meth:`address_table` the address of every tensor element, and
    :func:`unilayout.linear.analysis.padded_bank_conflicts` its bank conflicts.

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
        from .. import affine

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
        from .. import affine

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
        import numpy as np

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
        import numpy as np

        L = self.offset_layout(shape)
        sub = L.sublayout(["offset"], L.out_dim_names)
        if not sub.is_injective():
            raise NotRepresentableError("padded_shared: two offsets hold one element, so an element has no one address")
        shape = [s for _, s in L.out_dims]
        coords = sub.index_map()  # (N, rank): the element at each offset
        table = np.full(shape, -1, dtype=np.int64)
        table[tuple(coords.T)] = self.pad(np.arange(coords.shape[0]))
        return table


# ------------------------------------------------------------ Blackwell tensor memory
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
        # every entry is below the shape (sizes above): built without the constructor's checks
        return LinearLayout._make((("row", tuple(map(tuple, rows))), ("col", tuple(map(tuple, cols))),
                                   ("block", block)), (("dim0", shape[0]), ("dim1", shape[1])))


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
        return LinearLayout._make(got._bases + (T._bases[2],), T._outs)


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
        return LinearLayout({"row": cta.bases[0][1], "col": cta.bases[1][1], "block": block},
                            [("dim0", shape[0]), ("dim1", shape[1])], require_surjective=False)


@dataclass(frozen=True)
class LinearEncoding(_Encoding):
    """``#ttg.linear<{...}>`` as an encoding: its layout fixes the shape.

    >>> from unilayout.linear import parse
    >>> enc = LinearEncoding(parse("#ttg.linear<{register = [[1]], lane = [], warp = [], block = []}>"))
    >>> enc.to_linear([2]).out_dims, str(enc)
    ([('dim0', 2)], '#ttg.linear<{register = [[1]], lane = [], warp = [], block = []}>')
    """

    layout: LinearLayout

    def to_linear(self, shape: Sequence[int] | None = None) -> LinearLayout:
        """The layout; ``shape``, when given, must be its out sizes.

        >>> from unilayout.linear import parse
        >>> LinearEncoding(parse("#ttg.linear<{register = [[1]], lane = [], warp = [], block = []}>")).to_linear([4])
        Traceback (most recent call last):
        ...
        unilayout.errors.LayoutError: this #ttg.linear layout has shape [2], not [4]
        """
        if shape is not None and list(_shape(shape)) != [s for _, s in self.layout.out_dims]:
            raise LayoutError(f"this #ttg.linear layout has shape {[s for _, s in self.layout.out_dims]}, "
                              f"not {list(shape)}")
        return self.layout


#: Triton's name for :func:`slice_layout` (shadows the builtin only inside this module's namespace).
slice = slice_layout  # noqa: A001


# ------------------------------------------------------------------ text
def parse(text: str, aliases: dict | None = None):
    """Triton's printed encoding attribute -> its encoding value (see :mod:`unilayout.linear.ttgir`).

    >>> enc = parse("#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 4, order = [1, 0]}>")
    >>> enc, str(enc) == "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 4, order = [1, 0]}>"
    (SwizzledShared(vec=1, per_phase=1, max_phase=4, order=(1, 0), cga_layout=()), True)
    """
    from .ttgir import parse as _parse

    return _parse(text, aliases)


def parse_module(text: str) -> dict:
    """The ``#name = ...`` encoding lines of a TTGIR dump -> ``{name: encoding}``.

    >>> parse_module("#s = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>")
    {'s': NvmmaShared(swizzle_byte_width=64, element_bitwidth=16, transposed=False, fp4_padded=False, cga_layout=(), rank=None)}
    """
    from .ttgir import parse_module as _parse_module

    return _parse_module(text)
