"""TiledCopy: a copy atom repeated over a tile, and what each thread moves (CuTe ``copy_atom.hpp``).

A TiledCopy is a copy atom plus a TV layout ``(thread, value) -> m + M*n``
over a tile ``tiler_mn``. ``make_tiled_copy(atom, thr, val)`` builds the TV
layout from a thread layout and a value layout (their raked product, inverted);
``make_tiled_copy_A/B/C(atom, mma)`` take a TiledMMA's A/B/C TV layout, so the
copy hands each thread exactly the fragment the MMA needs.

``tile2thrfrg`` is C++'s: the TV layout is split into atom-sized blocks, each
block's reference layout is replaced by the source (or destination) one
(``right_inverse(ref) o src``), the thread modes are zipped together and the
result composed into the tensor's tile mode. ``get_layoutS_TV()`` is that on
the tile itself, ``get_slice(t).partition_S(T)`` on a tensor, sliced at thread t:
``(CopyV, RestM, RestN, ...)``.

128-bit vector loads of a 32x8 half tile by 32 threads (4 x 8 threads, 8 values each):

>>> from unilayout.cute import Layout, copy_atom
>>> tc = make_tiled_copy(copy_atom("UniversalCopy<uint128_t>", 16), Layout((4, 8), (8, 1)), Layout((8, 1)))
>>> tc.tiler_mn, str(tc.get_layoutS_TV())
((32, 8), '((8,4),(8,1)):((32,8),(1,0))')
>>> tc.get_slice(9).partition_S(Layout((32, 16), (16, 1)))
(Layout(((8, 1), 1, 2), ((16, 0), 0, 8)), 129)
"""

from __future__ import annotations

import math

from .._text import Scanner, check_text
from ..errors import LayoutError, ParseError
from .algebra import coalesce, composition, right_inverse, zipped_divide
from .atoms_copy import CopyAtom, copy_atom, copy_atoms
from .layout import Layout, slice_and_offset
from .text import parse as parse_cute
from .tiled import TiledMMA, _balanced, _layout_to_partition, _rewrap, parse_tiled_mma
from .tv import make_layout_tv

__all__ = ["TiledCopy", "ThrCopy", "make_tiled_copy", "make_tiled_copy_A", "make_tiled_copy_B",
           "make_tiled_copy_C", "parse_tiled_copy", "ELEMENT_TYPES"]


def _zip2(layout: Layout) -> Layout:
    """``((a,b),(c,d)) -> ((a,c),(b,d))`` (C++ ``zip`` of a rank-2 layout of rank-2 modes)."""
    (a, b), (c, d) = layout.shape
    (sa, sb), (sc, sd) = layout.stride
    return Layout(((a, c), (b, d)), ((sa, sc), (sb, sd)))


class TiledCopy:
    """A copy atom tiled over ``tiler_mn`` by ``layout_tv`` (C++ ``TiledCopy``).

    >>> tc = make_tiled_copy(copy_atom("SM75_U32x4_LDSM_N", 16), Layout((32, 1)), Layout((1, 8)))
    >>> tc.tiler_mn, tc.size, str(tc.get_layoutD_TV())
    ((32, 8), 32, '(32,(8,1)):(1,(32,0))')
    """

    __slots__ = ("atom", "layout_tv", "tiler_mn", "_cache")

    def __init__(self, atom: CopyAtom, layout_tv: Layout, tiler_mn: tuple):
        if not isinstance(atom, CopyAtom) or not isinstance(layout_tv, Layout):
            raise LayoutError(f"TiledCopy: need a CopyAtom and a Layout, got {type(atom).__name__} and "
                              f"{type(layout_tv).__name__} (make_tiled_copy builds one)")
        if layout_tv[0].size % atom.layout_ref[0].size or layout_tv[1].size % atom.num_values:
            raise LayoutError(f"TiledCopy: TV layout {layout_tv} is not a whole number of {atom.name} atoms "
                              f"({atom.layout_ref[0].size} threads x {atom.num_values} values)")
        object.__setattr__(self, "atom", atom)
        object.__setattr__(self, "layout_tv", layout_tv)
        object.__setattr__(self, "tiler_mn", tuple(tiler_mn))
        object.__setattr__(self, "_cache", {})

    def __setattr__(self, name, value):
        raise AttributeError("TiledCopy is immutable")

    def __repr__(self):
        return f"TiledCopy({self.atom!r}, {self.layout_tv!r}, {self.tiler_mn!r})"

    def __str__(self):
        return (f"TiledCopy\n  Tiler_MN:       {self.tiler_mn}\n  TiledLayout_TV: {self.layout_tv}\n"
                + str(self.atom))

    def __eq__(self, other):
        return (type(other) is TiledCopy and self.atom == other.atom and self.layout_tv == other.layout_tv
                and self.tiler_mn == other.tiler_mn)

    def __hash__(self):
        return hash((self.atom, self.layout_tv, self.tiler_mn))

    @property
    def size(self) -> int:
        """Number of threads (``size<0>(TiledLayout_TV)``)."""
        return self.layout_tv[0].size

    def _ref2(self, which):
        r = self._cache.get(which)
        if r is None:
            trg = self.atom.layout_src if which == "S" else self.atom.layout_dst
            r = composition(right_inverse(self.atom.layout_ref), trg)
            self._cache[which] = r
        return r

    def tile2thrfrg(self, layout: Layout, ref2trg: Layout) -> Layout:
        """``((TileM,TileN,...),(RestM,RestN,...)) -> (Thr,(FrgV,FrgX),(RestM,RestN,...))`` (C++)."""
        atom_tv = zipped_divide(self.layout_tv, (self.atom.layout_ref[0].size, self.atom.num_values))
        trg_tv = composition(atom_tv, (ref2trg, None))
        thrval2mn = coalesce(_zip2(trg_tv), (1, (1, 1)))
        tv = composition(layout, (thrval2mn, None))
        return slice_and_offset(((None, None), None), tv)[0]

    def tidfrg_S(self, layout: Layout) -> Layout:
        """A source tensor's layout as ``(Thr, FrgV, (RestM, RestN, ...))``."""
        return self.tile2thrfrg(zipped_divide(layout, self.tiler_mn), self._ref2("S"))

    def tidfrg_D(self, layout: Layout) -> Layout:
        """A destination tensor's layout as ``(Thr, FrgV, (RestM, RestN, ...))``."""
        return self.tile2thrfrg(zipped_divide(layout, self.tiler_mn), self._ref2("D"))

    def _tv(self, which):
        key = "TV" + which
        r = self._cache.get(key)
        if r is None:
            ref = Layout((self.tiler_mn, 1))
            r = slice_and_offset((None, None, 0), self.tile2thrfrg(ref, self._ref2(which)))[0]
            self._cache[key] = r
        return r

    def get_layoutS_TV(self) -> Layout:
        """``(thread, value) -> m + M*n`` of the source over the tile (C++ ``get_layoutS_TV``)."""
        return self._tv("S")

    def get_layoutD_TV(self) -> Layout:
        """``(thread, value) -> m + M*n`` of the destination over the tile (C++ ``get_layoutD_TV``)."""
        return self._tv("D")

    def get_slice(self, thr_idx: int) -> "ThrCopy":
        """Thread ``thr_idx``'s view (C++ ``ThrCopy``)."""
        if isinstance(thr_idx, bool) or not isinstance(thr_idx, int) or not 0 <= thr_idx < self.size:
            raise LayoutError(f"get_slice: thread index {thr_idx!r} outside [0, {self.size})")
        return ThrCopy(self, thr_idx)

    get_thread_slice = get_slice


class ThrCopy:
    """One thread's slice of a TiledCopy: ``partition_S/D`` give ``(CopyV, RestM, RestN, ...)``.

    >>> from unilayout.cute import make_identity_tensor
    >>> tc = make_tiled_copy(copy_atom("UniversalCopy<uint64_t>", 16), Layout((8, 4), (4, 1)), Layout((1, 4)))
    >>> part = tc.get_slice(5).partition_S(make_identity_tensor((8, 32)))
    >>> part.shape, [part(v, 0, 1) for v in range(4)]
    (((4, 1), 1, 2), [(1, 20), (1, 21), (1, 22), (1, 23)])
    """

    __slots__ = ("tiled_copy", "thr_idx")

    def __init__(self, tiled_copy, thr_idx):
        object.__setattr__(self, "tiled_copy", tiled_copy)
        object.__setattr__(self, "thr_idx", thr_idx)

    def __setattr__(self, name, value):
        raise AttributeError("ThrCopy is immutable")

    def __repr__(self):
        return f"{self.tiled_copy!r}.get_slice({self.thr_idx})"

    def _partition(self, x, tidfrg):
        layout = _layout_to_partition(x)
        return _rewrap(x, *slice_and_offset((self.thr_idx, None, (None,) * layout.rank), tidfrg(layout)))

    def partition_S(self, x):
        """Thread's part of a source tensor: ``(CopyV, RestM, RestN, ...)``."""
        return self._partition(x, self.tiled_copy.tidfrg_S)

    def partition_D(self, x):
        """Thread's part of a destination tensor: ``(CopyV, RestM, RestN, ...)``."""
        return self._partition(x, self.tiled_copy.tidfrg_D)


def _atom(atom):
    if not isinstance(atom, CopyAtom):
        raise LayoutError(f"expected a CopyAtom (cute.copy_atom(name, element_bits)), got {type(atom).__name__}")
    return atom


def make_tiled_copy(atom, thr_layout, val_layout=None) -> TiledCopy:
    """Tile ``atom`` by a thread layout and a value layout over (M, N) (C++ ``make_tiled_copy``).

    ``layout_mn = raked_product(thr, val)``; the TV layout is its right inverse
    shaped ``(size(thr), size(val))``; ``tiler_mn = product_each(shape(layout_mn))``.

    >>> make_tiled_copy(copy_atom("UniversalCopy<uint32_t>", 32), Layout((16, 8), (8, 1))).tiler_mn
    (16, 8)
    """
    atom = _atom(atom)
    if not isinstance(thr_layout, Layout):
        thr_layout = Layout(thr_layout)
    val_layout = Layout(1, 0) if val_layout is None else val_layout
    if not isinstance(val_layout, Layout):
        val_layout = Layout(val_layout)
    tiler, tv = make_layout_tv(thr_layout, val_layout)
    tiler = tiler if isinstance(tiler, tuple) else (tiler,)
    if math.prod(int(t) for t in tiler) >= 1 << 63:
        raise LayoutError(f"make_tiled_copy: the tile {tiler} has {math.prod(tiler):,} elements, past int64 offsets")
    return TiledCopy(atom, tv, tiler)


def _from_mma(atom, mma, which):
    atom = _atom(atom)
    if not isinstance(mma, TiledMMA):
        raise LayoutError(f"make_tiled_copy_{which}: expected a TiledMMA, got {type(mma).__name__}")
    m, n, k = mma.tile_size_mnk()
    tv, tiler = {"A": (mma.get_layoutA_TV, (m, k)), "B": (mma.get_layoutB_TV, (n, k)),
                 "C": (mma.get_layoutC_TV, (m, n))}[which]
    return TiledCopy(atom, tv(), tiler)


def make_tiled_copy_A(atom, mma) -> TiledCopy:
    """A TiledCopy that gives every thread its A fragment of ``mma`` (C++ ``make_tiled_copy_A``).

    >>> from unilayout.cute import make_tiled_mma
    >>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
    >>> make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", 16), mma).tiler_mn
    (32, 16)
    """
    return _from_mma(atom, mma, "A")


def make_tiled_copy_B(atom, mma) -> TiledCopy:
    """A TiledCopy that gives every thread its B fragment of ``mma`` (C++ ``make_tiled_copy_B``).

    >>> from unilayout.cute import make_tiled_mma
    >>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
    >>> make_tiled_copy_B(copy_atom("SM75_U32x2_LDSM_N", 16), mma).tiler_mn
    (16, 16)
    """
    return _from_mma(atom, mma, "B")


def make_tiled_copy_C(atom, mma) -> TiledCopy:
    """A TiledCopy that moves every thread's C fragment of ``mma`` (C++ ``make_tiled_copy_C``).

    >>> from unilayout.cute import make_tiled_mma
    >>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
    >>> make_tiled_copy_C(copy_atom("UniversalCopy<uint32_t>", 16), mma).tiler_mn
    (32, 16)
    """
    return _from_mma(atom, mma, "C")


#: C++ element types a ``Copy_Atom<OP, TYPE>`` description may name, and their widths in bits.
ELEMENT_TYPES = {
    "int8_t": 8, "uint8_t": 8, "float_e4m3_t": 8, "float_e5m2_t": 8, "float_ue8m0_t": 8,
    "half_t": 16, "bfloat16_t": 16, "int16_t": 16, "uint16_t": 16,
    "float": 32, "tfloat32_t": 32, "int32_t": 32, "uint32_t": 32, "int": 32,
    "double": 64, "int64_t": 64, "uint64_t": 64, "complex<float>": 64, "uint128_t": 128,
}


def _parse_impl(s):
    """``make_tiled_copy_impl(Copy_Atom<OP, TYPE>, layout_tv, tiler)`` at the scanner: the TiledCopy it names."""
    start = s.pos
    s.expect("make_tiled_copy_impl(")
    atom = _read_atom(s)
    s.expect(",")
    layout_tv = _read_layout(s, True, "a (thread, value) layout")
    s.expect(",")
    tiler = _read_layout(s, True, "a tiler (M,N)")
    s.expect(")")
    s.expect_end()
    try:
        return TiledCopy(atom, layout_tv, tuple(tiler.shape) if isinstance(tiler.shape, tuple) else (tiler.shape,))
    except LayoutError as e:
        s.fail(str(e), start)


def _read_atom(s):
    """``Copy_Atom<OP, TYPE>`` at the scanner: the CopyAtom (TYPE a C++ type name or a number of bits)."""
    s.skip()
    s.expect("Copy_Atom<", "a copy atom Copy_Atom<OP, TYPE>")
    op_at = s.skip()
    t = s.text
    p = _balanced(t, op_at, "<", ">", " \t\n,")
    name = t[op_at:p]
    if not name:
        s.expected("a copy op name (cute.copy_atoms() lists them)")
    s.pos = p
    s.expect(",")
    ty_at = s.skip()
    p = _balanced(t, ty_at, "<", ">", " \t\n")
    ty = t[ty_at:p]
    s.pos = p
    s.expect(">")
    if ty.isdigit():
        bits = int(ty)
    elif ty in ELEMENT_TYPES:
        bits = ELEMENT_TYPES[ty]
    else:
        s.fail(f"unknown element type {ty!r}: one of {', '.join(ELEMENT_TYPES)} or a number of bits", ty_at)
    if name.startswith("SM90_TMA"):
        s.fail(f"{name} needs a TMA box size: build it with cute.copy_atom({name!r}, bits, tma_bits=...)", op_at)
    try:
        return copy_atom(name, bits)
    except LayoutError as e:
        s.fail(str(e), op_at if name not in copy_atoms() else ty_at)  # the op, or the type it cannot move


def _read_layout(s, call, what):
    at = s.skip()
    p = _balanced(s.text, at, "(", ")", " \t\n," if call else " \t\n")
    piece = s.text[at:p]
    if not piece:
        s.expected(what)
    s.pos = p
    try:
        return parse_cute(piece)
    except ParseError as e:
        s.fail(f"{what}: {e.message}", at + e.position)
    except LayoutError as e:
        s.fail(f"{what}: {e}", at)


def parse_tiled_copy(text: str):
    """A TiledCopy from its description, or None when ``text`` is not one (for ``unilayout show/render``, the explorer).

    Grammar (layouts are CuTe layout or shape texts; a shape is column-major, as ``Layout<Shape<...>>``)::

        text ::= 'make_tiled_copy(' atom ',' thr [',' val] ')' | atom thr [val]
               | 'make_tiled_copy_' ('A'|'B'|'C') '(' atom ',' mma ')'
               | 'make_tiled_copy_impl(' atom ',' layout_tv ',' tiler ')'   (C++'s, what TILED.canonical prints)
        atom ::= 'Copy_Atom<' OP ',' TYPE '>'     OP as cute.copy_atoms() names it, TYPE e.g. half_t or 16
        mma  ::= a TiledMMA description (``cute.tiled.parse_tiled_mma``)

    >>> tc = parse_tiled_copy("make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>, (4,8):(8,1), (8,1))")
    >>> tc.tiler_mn, str(tc.get_layoutS_TV())
    ((32, 8), '((8,4),(8,1)):((32,8),(1,0))')
    >>> parse_tiled_copy("make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>, SM80_16x8x16_F32F16F16F32_TN (2,2,1))").tiler_mn
    (32, 16)
    >>> parse_tiled_copy("make_tiled_copy_impl(Copy_Atom<SM75_U32x4_LDSM_N, 16>, (32,8):(1,32), (32,8))") == \\
    ...     parse_tiled_copy("make_tiled_copy(Copy_Atom<SM75_U32x4_LDSM_N, half_t>, (32,1), (1,8))")
    True
    >>> parse_tiled_copy("(4,2):(2,1)") is None
    True
    >>> parse_tiled_copy("Copy_Atom<SM75_U32x4_LDSM_N, half> (32,1)")
    Traceback (most recent call last):
    ...
    unilayout.errors.ParseError: unknown element type 'half': one of int8_t, uint8_t, float_e4m3_t, float_e5m2_t, float_ue8m0_t, half_t, bfloat16_t, int16_t, uint16_t, float, tfloat32_t, int32_t, uint32_t, int, double, int64_t, uint64_t, complex<float>, uint128_t or a number of bits at position 29
      Copy_Atom<SM75_U32x4_LDSM_N, half> (32,1)
                                   ^
    """
    s = Scanner(check_text(text, "TiledCopy description"))
    s.skip()
    which = None
    for w in ("A", "B", "C"):
        if s.at(f"make_tiled_copy_{w}("):
            which = w
    if s.at("make_tiled_copy_impl("):
        return _parse_impl(s)
    call = s.at("make_tiled_copy(") or which is not None
    if not call and not s.at("Copy_Atom<"):
        return None
    start = s.pos
    if call:
        s.expect(f"make_tiled_copy_{which}(" if which else "make_tiled_copy(")
    atom = _read_atom(s)
    if which:
        s.expect(",")
        at = s.skip()
        end = _balanced(s.text, at, "(", ")", "")
        try:
            mma = parse_tiled_mma(s.text[at:end])
        except ParseError as e:
            s.fail(f"TiledMMA: {e.message}", at + e.position)
        except LayoutError as e:
            s.fail(f"TiledMMA: {getattr(e, 'message', e)}", at)
        if mma is None:
            s.fail("expected a TiledMMA description, e.g. SM80_16x8x16_F32F16F16F32_TN (2,2,1)", at)
        s.pos = end
        s.expect(")")
        s.expect_end()
        try:
            return _from_mma(atom, mma, which)
        except LayoutError as e:
            s.fail(str(e), start)
    if call:
        s.expect(",")
    thr = _read_layout(s, call, "a thread layout")
    val = None
    if (s.accept(",") if call else not s.end()):
        val = _read_layout(s, call, "a value layout")
    if call:
        s.expect(")")
    s.expect_end()
    try:
        return make_tiled_copy(atom, thr, val)
    except LayoutError as e:
        s.fail(str(e), start)
