"""TiledMMA: many MMA atoms over a CTA tile, and which thread owns which element of A, B and C.

``make_tiled_mma(atom, atom_layout_mnk, permutation_mnk)`` repeats an MMA atom
over threads (``atom_layout_mnk``, e.g. ``(2,2,1)``: 2x2 warps) and reorders
the M/N/K modes first (``permutation_mnk``, CuTe's ``Tile<...>``), exactly as
CuTe's ``mma_atom.hpp`` does:

- ``thr_layout_vmnk = tiled_product(atom.thr_id, atom_layout_mnk)`` maps the
  thread coordinate (ThrV, ThrM, ThrN, ThrK) to the thread index;
- ``thrfrg_C(T)`` divides a tensor by the permutation tile, zips it by the
  atom's (M, N), composes the atom's C layout (``(thr, val) -> (m, n)``) in
  and zips again by the thread tile, giving
  ``((ThrV,(ThrM,ThrN)),(FrgV,(RestM,RestN,...)))``; ``thrfrg_A``/``thrfrg_B``
  likewise with (M, K) and (N, K);
- ``get_layoutC_TV()`` is ``thrfrg_C`` of the tile, its thread mode composed
  with ``thridx -> thread coordinate``: ``(thread index, value) -> m + M*n``.
  For A and B, the thread mode first gains the broadcast N (resp. M) mode;
- ``get_slice(t).partition_C(T)`` is ``thrfrg_C(T)`` sliced at thread t:
  ``(FrgV, RestM, RestN, ...)``.

SM80's 16x8x16 on 2x2 warps: a 32x16 C tile, 128 threads, 4 values each;
thread 37 (lane 5 of warp 1, which sits at M-block 1) owns rows 17 and 25:

>>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
>>> mma.tile_size_mnk(), str(mma.thr_layout_vmnk)
((32, 16, 16), '(32,2,2,1):(1,32,64,0)')
>>> C = mma.get_layoutC_TV()
>>> str(C), [divmod(C(37, v), 32)[::-1] for v in range(4)]
('((4,8,2,2),((2,2),(1,1))):((64,1,16,256),((32,8),(0,0)))', [(17, 2), (17, 3), (25, 2), (25, 3)])

Invariants checked by the tests: every C element of the tile has exactly one
(thread, value) owner; every thread's A values lie in the M rows of its C
values and its B values in the N columns; and the layouts agree with
tensor-layouts' tiled grids and with CuTe's own printed outputs.
"""

from __future__ import annotations

from .._text import Scanner, check_text
from ..errors import LayoutError
from .algebra import complement, composition, logical_divide, right_inverse, tiled_product, zipped_divide
from .atoms_mma import MMAAtom, mma_atom
from .basis import _add, as_coord
from .identity import CoordTensor
from .inttuple import crd2idx, idx2crd, product
from .layout import Layout, _static_compact, slice_and_offset
from .tensor import Tensor
from .text import parse as parse_cute

__all__ = ["TiledMMA", "ThrMMA", "make_tiled_mma", "partition_layout"]


def _size(x) -> int:
    if isinstance(x, Layout):
        return x.size
    if isinstance(x, tuple):
        return product(tuple(_size(v) for v in x))
    return x


def _check_tile(p, what):
    if p is None or isinstance(p, Layout):
        return p
    if isinstance(p, int) and not isinstance(p, bool) and p > 0:
        return p
    if isinstance(p, tuple):
        return tuple(_check_tile(q, what) for q in p)
    raise LayoutError(f"make_tiled_mma: {what} must be None, a positive int or a Layout, got {p!r}")


def _zero_units(layout: Layout) -> Layout:
    """Give every size-1 mode stride 0, as CuTe C++'s static algebra does (pycute and ``cute.composition`` keep
    the stride). It matters where a later composition runs past a mode's end, e.g. threads along K."""
    def z(s, d):
        if isinstance(s, tuple):
            return tuple(map(z, s, d))
        return 0 if s == 1 else d
    return Layout(layout.shape, z(layout.shape, layout.stride))


class TiledMMA:
    """A tiling of one MMA atom over threads and values (C++ ``TiledMMA``); build with ``make_tiled_mma``.

    >>> mma = make_tiled_mma("SM90_64x128x16_F32F16F16_SS")
    >>> mma.size, mma.tile_size_mnk(), str(mma.get_layoutA_TV())
    (128, (64, 128, 16), '(128,((64,16),(1,1))):(0,((1,64),(0,0)))')
    """

    __slots__ = ("atom", "atom_layout_mnk", "permutation_mnk", "thr_layout_vmnk", "_cache")

    def __init__(self, atom: MMAAtom, atom_layout_mnk: Layout, permutation_mnk: tuple):
        if not isinstance(atom, MMAAtom) or not isinstance(atom_layout_mnk, Layout):
            raise LayoutError(f"TiledMMA: need an MMAAtom and a Layout, got {type(atom).__name__} and "
                              f"{type(atom_layout_mnk).__name__} (make_tiled_mma builds one)")
        object.__setattr__(self, "atom", atom)
        object.__setattr__(self, "atom_layout_mnk", atom_layout_mnk)
        object.__setattr__(self, "permutation_mnk", permutation_mnk)
        object.__setattr__(self, "thr_layout_vmnk", tiled_product(atom.thr_id, atom_layout_mnk))
        object.__setattr__(self, "_cache", {})

    def __setattr__(self, name, value):
        raise AttributeError("TiledMMA is immutable")

    def __repr__(self):
        perm = None if self.permutation_mnk == (None, None, None) else self.permutation_mnk
        return f"make_tiled_mma({self.atom!r}, {self.atom_layout_mnk!r}, {perm!r})"

    def __str__(self):
        return (f"TiledMMA\n  ThrLayoutVMNK:  {self.thr_layout_vmnk}\n"
                f"  PermutationMNK: {self._perm_str()}\n" + str(self.atom))

    def _perm_str(self):
        return "(" + ",".join("_" if p is None else str(p) for p in self.permutation_mnk) + ")"

    def __eq__(self, other):
        return (type(other) is TiledMMA and self.atom == other.atom and self.atom_layout_mnk == other.atom_layout_mnk
                and self.permutation_mnk == other.permutation_mnk)

    def __hash__(self):
        return hash((self.atom, self.atom_layout_mnk, self.permutation_mnk))

    @property
    def size(self) -> int:
        """Number of threads: ``size(thr_layout_vmnk)``."""
        return self.thr_layout_vmnk.size

    def thr_size(self, mode: int) -> int:
        """Threads along mode 0..3 (V, M, N, K) of ``thr_layout_vmnk``."""
        return self.thr_layout_vmnk[mode].size

    # -- the permutation tiles and the tile size -------------------------------------------------
    def permutation(self, i: int):
        """``permutation_mnk<I>()``: the tiler of mode i; a ``_`` (None) becomes ``atom size * threads``."""
        p = self.permutation_mnk[i]
        return self.atom.shape_mnk[i] * self.thr_size(i + 1) if p is None else p

    def tile_size_mnk(self) -> tuple:
        """``(tile_size<0>, tile_size<1>, tile_size<2>)``: the sizes of the three permutation tilers."""
        return tuple(_size(self.permutation(i)) for i in range(3))

    # -- thrfrg ------------------------------------------------------------------------------------
    def _thrfrg(self, layout, p, q, atom_tv, tp, tq):
        t = logical_divide(layout, (self.permutation(p), self.permutation(q)))
        a = zipped_divide(t, (Layout(self.atom.shape_mnk[p]), Layout(self.atom.shape_mnk[q])))
        tv = composition(a, (atom_tv, None))
        thr_tile = (None, (Layout(self.thr_size(tp)), Layout(self.thr_size(tq))))
        return _zero_units(zipped_divide(tv, thr_tile))

    def thrfrg_C(self, layout):
        """``(M,N,...) -> ((ThrV,(ThrM,ThrN)),(FrgV,(RestM,RestN,...)))`` (C++ ``thrfrg_C``)."""
        return self._thrfrg(layout, 0, 1, self.atom.layout_c, 1, 2)

    def thrfrg_A(self, layout):
        """``(M,K,...) -> ((ThrV,(ThrM,ThrK)),(FrgV,(RestM,RestK,...)))`` (C++ ``thrfrg_A``)."""
        return self._thrfrg(layout, 0, 2, self.atom.layout_a, 1, 3)

    def thrfrg_B(self, layout):
        """``(N,K,...) -> ((ThrV,(ThrN,ThrK)),(FrgV,(RestN,RestK,...)))`` (C++ ``thrfrg_B``)."""
        return self._thrfrg(layout, 1, 2, self.atom.layout_b, 2, 3)

    def _thridx_2_thrid(self):
        v = self.thr_layout_vmnk
        full = Layout((v.shape, complement(v).shape), (v.stride, complement(v).stride))
        return composition(Layout((v.size, 1), (1, 0)), right_inverse(full))

    def get_layoutC_TV(self) -> Layout:
        """``(thread index, value) -> m + M*n`` over the ``tile_size_mnk`` tile (C++ ``get_layoutC_TV``)."""
        c = self._cache.get("C")
        if c is None:
            m, n, _ = self.tile_size_mnk()
            c = composition(self.thrfrg_C(Layout((m, n))), (self._thridx_2_thrid(), None))
            self._cache["C"] = c
        return c

    def get_layoutA_TV(self) -> Layout:
        """``(thread index, value) -> m + M*k`` (C++ ``get_layoutA_TV``; threads along N see the same A)."""
        return self._operand_tv("A", self.thrfrg_A, 0, (1, 0))

    def get_layoutB_TV(self) -> Layout:
        """``(thread index, value) -> n + N*k`` (C++ ``get_layoutB_TV``; threads along M see the same B)."""
        return self._operand_tv("B", self.thrfrg_B, 1, (0, 1))

    def _operand_tv(self, key: str, thrfrg, mode: int, thr_stride: tuple) -> Layout:
        """A's or B's TV layout, cached under ``key``: ``thrfrg`` of the (tile ``mode``, K) tile, its (ThrM, ThrN)
        thread mode read through ``(ThrM,ThrN):thr_stride`` (0 along the other operand's axis), then indexed by thread."""
        tv = self._cache.get(key)
        if tv is None:
            size = self.tile_size_mnk()
            tile = (None, (Layout((self.thr_size(1), self.thr_size(2)), thr_stride), None))
            tv = composition(_zero_units(composition(thrfrg(Layout((size[mode], size[2]))), (tile, None))),
                             (self._thridx_2_thrid(), None))
            self._cache[key] = tv
        return tv

    def get_slice(self, thr_idx: int) -> "ThrMMA":
        """Thread ``thr_idx``'s view: ``thr_vmnk`` is its (V, M, N, K) coordinate (C++ ``get_flat_coord``).

        The coordinate is where ``thr_layout_vmnk`` sends ``thr_idx`` (``idx2crd`` with the
        layout's stride), each mode's coordinate flattened to one int.

        >>> make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN", (2, 2, 1)).get_slice(70).thr_vmnk
        (6, 0, 1, 0)
        """
        if isinstance(thr_idx, bool) or not isinstance(thr_idx, int) or not 0 <= thr_idx < self.size:
            raise LayoutError(f"get_slice: thread index {thr_idx!r} outside [0, {self.size})")
        shape = self.thr_layout_vmnk.shape
        hier = idx2crd(thr_idx, shape, self.thr_layout_vmnk.stride)  # C++ get_hier_coord: the layout's inverse
        return ThrMMA(self, thr_idx, tuple(crd2idx(h, s) for h, s in zip(hier, shape)))

    get_thread_slice = get_slice

    def partition_shape_C(self, shape_mn) -> tuple:
        """Shape of one thread's partition of an ``shape_mn`` C (C++ ``partition_shape_C``).

        >>> make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1)).partition_shape_C((128, 128))
        ((2, 2), 4, 8)
        """
        return _shape_of(self.thrfrg_C(Layout(tuple(shape_mn))), len(shape_mn))


def _shape_of(tv, r):
    sub, _ = slice_and_offset((0, (None, (None,) * r)), tv)
    return sub.shape


def partition_layout(x, thrfrg, thr_crd):
    """Slice ``thrfrg(layout of x)`` at ``(thr_crd, (_, (_, ...)))`` and rewrap like ``x``.

    A ``Layout`` gives ``(layout, offset)``, a ``Tensor`` a view, a ``CoordTensor`` a CoordTensor.

    >>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
    >>> partition_layout(Layout((32, 32)), mma.thrfrg_C, (0, (0, 0)))  # thread 0's C, as get_slice(0).partition_C
    (Layout(((2, 2), 1, 2), ((32, 8), 0, 512)), 0)
    """
    tv = thrfrg(_layout_to_partition(x))
    rest = tv[1][1]
    return _rewrap(x, *slice_and_offset((thr_crd, (None, (None,) * rest.rank)), tv))


def _layout_to_partition(x) -> Layout:
    """The layout of a Layout, Tensor or CoordTensor to partition (``LayoutError`` for anything else or a swizzle)."""
    layout = x.layout if isinstance(x, (Tensor, CoordTensor)) else x
    if isinstance(layout, Layout):
        return layout
    if isinstance(x, (Tensor, CoordTensor)):
        raise LayoutError("partition: a swizzled (ComposedLayout) tensor is not supported yet; partition its "
                          "inner layout and apply the swizzle to the offsets")
    raise LayoutError(f"partition: expected a Layout, Tensor or CoordTensor, got {type(x).__name__}")


def _rewrap(x, sub: Layout, off):
    """The slice ``(sub, off)`` of ``x``'s layout, wrapped like ``x``: a Tensor view, a CoordTensor or the pair."""
    if isinstance(x, Tensor):
        return Tensor._view(x.storage, sub, x.offset + off)
    if isinstance(x, CoordTensor):
        return CoordTensor(sub, _add(x.base, as_coord(off)))
    return sub, off


class ThrMMA:
    """One thread's slice of a TiledMMA (C++ ``ThrMMA``): ``partition_A/B/C`` of tensors.

    A partition has shape ``(FrgV, RestM, RestN, ...)``: the thread's values of
    one atom, times the repetitions over the tensor.

    >>> from unilayout.cute import make_identity_tensor
    >>> thr = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN").get_slice(5)
    >>> tC = thr.partition_C(make_identity_tensor((16, 16)))
    >>> tC.shape, [tC(v, 0, 1) for v in range(4)]
    (((2, 2), 1, 2), [(1, 10), (1, 11), (9, 10), (9, 11)])
    """

    __slots__ = ("tiled_mma", "thr_idx", "thr_vmnk")

    def __init__(self, tiled_mma, thr_idx, thr_vmnk):
        object.__setattr__(self, "tiled_mma", tiled_mma)
        object.__setattr__(self, "thr_idx", thr_idx)
        object.__setattr__(self, "thr_vmnk", thr_vmnk)

    def __setattr__(self, name, value):
        raise AttributeError("ThrMMA is immutable")

    def __repr__(self):
        return f"{self.tiled_mma!r}.get_slice({self.thr_idx})"

    def partition_C(self, x):
        """Thread's part of C (M, N, ...): ``(FrgV, RestM, RestN, ...)``."""
        v, m, n, _ = self.thr_vmnk
        return partition_layout(x, self.tiled_mma.thrfrg_C, (v, (m, n)))

    def partition_A(self, x):
        """Thread's part of A (M, K, ...): ``(FrgV, RestM, RestK, ...)``."""
        v, m, _, k = self.thr_vmnk
        return partition_layout(x, self.tiled_mma.thrfrg_A, (v, (m, k)))

    def partition_B(self, x):
        """Thread's part of B (N, K, ...): ``(FrgV, RestN, RestK, ...)``."""
        v, _, n, k = self.thr_vmnk
        return partition_layout(x, self.tiled_mma.thrfrg_B, (v, (n, k)))


def make_tiled_mma(atom, atom_layout_mnk=None, permutation_mnk=None) -> TiledMMA:
    """Tile an MMA atom over threads (C++ ``make_tiled_mma``).

    ``atom``: an ``MMAAtom`` or its name. ``atom_layout_mnk``: a Layout of up to
    rank 3 (or a shape tuple, column-major), padded with ``1:0`` to rank 3;
    default one atom. ``permutation_mnk``: up to three tilers, each ``None``
    (CuTe's ``_``), an int or a Layout; padded with ``None``.

    >>> mma = make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN", (2, 2), (32, 32, None))
    >>> mma.tile_size_mnk(), mma.get_layoutC_TV().shape
    ((32, 32, 8), ((4, 8, 2, 2), ((2, 2), (1, 2))))
    """
    if isinstance(atom, str):
        atom = mma_atom(atom)
    if not isinstance(atom, MMAAtom):
        raise LayoutError(f"make_tiled_mma: expected an MMAAtom or an atom name, got {type(atom).__name__}")
    if atom_layout_mnk is None:
        atom_layout_mnk = _static_compact((1, 1, 1))
    elif not isinstance(atom_layout_mnk, Layout):
        atom_layout_mnk = _static_compact(atom_layout_mnk)
    r = atom_layout_mnk.rank
    if r > 3:
        raise LayoutError(f"make_tiled_mma: atom layout {atom_layout_mnk} has rank {r}; at most 3 (M, N, K)")
    if r < 3:
        s = atom_layout_mnk.shape if isinstance(atom_layout_mnk.shape, tuple) else (atom_layout_mnk.shape,)
        d = atom_layout_mnk.stride if isinstance(atom_layout_mnk.stride, tuple) else (atom_layout_mnk.stride,)
        atom_layout_mnk = Layout(s + (1,) * (3 - r), d + (0,) * (3 - r))
    if permutation_mnk is None:
        permutation_mnk = (None, None, None)
    if not isinstance(permutation_mnk, tuple) or len(permutation_mnk) > 3:
        raise LayoutError(f"make_tiled_mma: permutation_mnk must be a tuple of up to 3 tilers, got {permutation_mnk!r}")
    perm = tuple(_check_tile(p, "permutation") for p in permutation_mnk) + (None,) * (3 - len(permutation_mnk))
    return TiledMMA(atom, atom_layout_mnk, perm)


def parse_tiled_mma(text: str):
    """A TiledMMA from its description, or None when ``text`` is not one (for ``unilayout show/render``).

    Grammar (whitespace free)::

        text  ::= NAME [layout [perm]] | 'make_tiled_mma(' NAME [',' layout [',' perm]] ')'
        layout::= a CuTe layout or shape text, e.g. (2,2,1) or (2,2,1):(2,1,0)
        perm  ::= '(' tile (',' tile)* ')' where tile is an int, '_' or a layout in parentheses

    >>> parse_tiled_mma("SM80_16x8x16_F32F16F16F32_TN (2,2,1)").tile_size_mnk()
    (32, 16, 16)
    >>> parse_tiled_mma("make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN, (2,2), (32,_,_))").tile_size_mnk()
    (32, 16, 8)
    >>> parse_tiled_mma("(4,2):(2,1)") is None
    True
    """
    s = Scanner(check_text(text, "TiledMMA description"))
    call = s.keyword("make_tiled_mma") if s.at("make_tiled_mma") else False
    if call:
        s.expect("(")
    start = s.skip()
    if not s.at("SM"):
        if call:
            s.expected("an MMA atom name (cute.mma_atoms() lists them)")
        return None
    name = s.identifier("an MMA atom name")
    try:
        atom = mma_atom(name)
    except LayoutError as e:
        s.fail(str(e), start)
    parts = []
    while True:
        if call:
            if not s.accept(","):
                break
        elif s.end():
            break
        at = s.skip()
        p = _balanced(s.text, at, "(", ")", " \t\n," if call else " \t\n")  # a layout "(..):(..)" or a tuple
        piece = s.text[at:p]
        if not piece:
            s.expected("an atom layout or a permutation")
        s.pos = p
        parts.append((at, piece))
        if len(parts) > 2:
            s.fail("a TiledMMA takes an atom layout and a permutation, no more", at)
    if call:
        s.expect(")")
    s.expect_end()
    layout = perm = None
    if parts:
        at, piece = parts[0]
        try:
            lay = parse_cute(piece)
        except LayoutError as e:
            s.fail(f"atom layout: {e}", at)
        layout = lay if ":" in piece else lay.shape
    if len(parts) > 1:
        at, piece = parts[1]
        if not (piece.startswith("(") and piece.endswith(")")):
            s.fail("the permutation is a tuple of tiles, e.g. (32,32,_)", at)
        perm = []
        for item in _split_top(piece[1:-1]):
            item = item.strip()
            if item == "_":
                perm.append(None)
            else:
                try:
                    v = parse_cute(item)
                except LayoutError as e:
                    s.fail(f"permutation tile {item!r}: {e}", at)
                perm.append(v.shape if isinstance(v.shape, int) and ":" not in item else v)
        perm = tuple(perm)
    try:
        return make_tiled_mma(atom, layout, perm)
    except LayoutError as e:
        s.fail(str(e), start)


def _balanced(t, p, opens="(<", closes=")>", stop=" \t\n,"):
    """End of the piece starting at ``p``: the first ``stop`` character (or unmatched closer) at depth 0."""
    depth = 0
    while p < len(t):
        c = t[p]
        if c in opens:
            depth += 1
        elif c in closes:
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and c in stop:
            break
        p += 1
    return p


def _split_top(text):
    out, depth, cur = [], 0, ""
    for c in text:
        if c == "," and depth == 0:
            out.append(cur)
            cur = ""
            continue
        depth += c == "("
        depth -= c == ")"
        cur += c
    out.append(cur)
    return out
