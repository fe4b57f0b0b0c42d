"""Copy atoms: CUTLASS's ``Copy_Traits`` as data, recast from bits to the element width.

A copy instruction moves data from a source to a destination across a group of
threads. CuTe describes it (``cute/atom/copy_traits_sm*.hpp``) with ``ThrID`` and
three layouts in **bits**: ``SrcLayout``/``DstLayout`` map ``(thread, value)``
to the bit position in the source/destination tile, ``RefLayout`` is the
layout the tiled copy is built on (usually the source's). A ``Copy_Atom`` for an
element type recasts them: ``recast_layout<uint1_t, T>`` (``copy_atom.hpp``),
so a 32-bit register holding two halves becomes two 16-bit values.

``ldmatrix.x1`` for 16-bit elements: thread t's 128-bit row address covers one
row of 8 halves (only threads 0-7 give addresses), and each thread receives 2
consecutive halves of the 8x8 matrix:

>>> a = copy_atom("SM75_U32x1_LDSM_N", 16)
>>> str(a.layout_src), str(a.layout_dst)
('((8,4),8):((8,0),1)', '(32,2):(2,1)')

The catalogue (``copy_atoms()``): ``UniversalCopy<uintN_t>`` (one thread, N
bits), ``SM80_CP_ASYNC_CACHE{ALWAYS,GLOBAL}[_ZFILL]<uintN_t>``, ldmatrix
(``SM75_U32x{1,2,4}_LDSM_N``, ``SM75_U16x{2,4,8}_LDSM_T``), stmatrix
(``SM90_U32x{1,2,4}_STSM_N``, ``SM90_U16x{2,4,8}_STSM_T``: ldmatrix with source
and destination swapped), the TMA views (``SM90_TMA_LOAD``/``SM90_TMA_STORE``:
one thread moving a box of ``tma_bits``), ``movmatrix`` (``SM75_U32x1_MOVM_T``)
and every tcgen05 tensor-memory load and store of ``copy_traits_sm100.hpp``
(148 ops): ``SM100_TMEM_{LOAD,STORE}_<shape><N>x[_16b]`` for the shapes
``32dp32b`` and ``16dp32b`` (N = 1..128), ``16dp64b`` (1..128), ``16dp128b``
(1..64) and ``16dp256b`` (1..32). ``_16b`` (``.pack::16b`` / ``.unpack::16b``)
packs two 16-bit TMEM columns into one register; its traits layouts, in bits,
are the plain op's, so the recast atoms are equal too, only ``ptx`` differs.
SM100's 8-bit ldmatrix/stmatrix (``SM100_U8x{8,16}_LDSM_T``,
``SM100_U8x{4,8,16}_STSM_T``, ``SM100_SU{4,6}_DU8x16_x{1,2,4}_LDSM_N``) and
its 256-bit global loads/stores (``SM100_{LOAD,STORE}_256bit_CACHE_NOALLOCATION``)
are here too. Not here: im2col / multicast TMA, SM50 shuffles, tcgen05.cp
(``SM100_UTCCP_*``).

A ``16x256b`` tcgen05 load of 32-bit values (16 datapath rows of 8 words;
position = word + 8 * row): thread t reads words 2*(t%4) and 2*(t%4)+1 of
row t/4, and the same two words of row t/4 + 8:

>>> a = copy_atom("SM100_TMEM_LOAD_16dp256b1x", 32)
>>> str(a.layout_dst), a.ptx
('((4,8),(2,2)):((2,8),(1,64))', 'tcgen05.ld.sync.aligned.16x256b.x1.b32')
"""

from __future__ import annotations

import re

from ..errors import LayoutError
from .algebra import recast_layout
from .layout import Layout, _static_compact

__all__ = ["CopyAtom", "copy_atom", "copy_atoms"]


class CopyAtom:
    """A copy instruction for ``element_bits``-wide elements (C++ ``Copy_Atom<Copy_Traits<Op>, T>``).

    ``layout_src``/``layout_dst``/``layout_ref`` are ``(thread, value) -> element``,
    recast from the traits' bit layouts (kept as ``bits_src`` etc.).

    >>> a = copy_atom("UniversalCopy<uint128_t>", 16)
    >>> str(a.thr_id), str(a.layout_src), a.num_values
    ('1:0', '(1,8):(0,1)', 8)
    >>> a
    copy_atom('UniversalCopy<uint128_t>', 16)
    """

    __slots__ = ("name", "element_bits", "thr_id", "bits_src", "bits_dst", "bits_ref",
                 "layout_src", "layout_dst", "layout_ref", "ptx", "tma_bits")

    def __init__(self, name, element_bits, thr_id, bits_src, bits_dst, bits_ref, ptx="", tma_bits=None):
        vals = {}
        for which, bits in (("src", bits_src), ("dst", bits_dst), ("ref", bits_ref)):
            try:
                lay = recast_layout(element_bits, 1, bits)
            except LayoutError as e:
                raise LayoutError(f"copy_atom {name}: cannot recast its {which} layout {bits} to "
                                  f"{element_bits}-bit elements ({e})") from None
            if lay[0].size != thr_id.size:
                raise LayoutError(f"copy_atom {name} is not valid for {element_bits}-bit elements (its {which} "
                                  f"layout recast is {lay}: {lay[0].size} threads, the atom has {thr_id.size})")
            vals[which] = lay
        for k, v in (("name", name), ("element_bits", element_bits), ("thr_id", thr_id), ("bits_src", bits_src),
                     ("bits_dst", bits_dst), ("bits_ref", bits_ref), ("layout_src", vals["src"]),
                     ("layout_dst", vals["dst"]), ("layout_ref", vals["ref"]), ("ptx", ptx), ("tma_bits", tma_bits)):
            object.__setattr__(self, k, v)

    def __setattr__(self, name, value):
        raise AttributeError("CopyAtom is immutable")

    @property
    def num_threads(self) -> int:
        """Threads taking part in one instruction."""
        return self.thr_id.size

    @property
    def num_values(self) -> int:
        """Values per thread in the reference layout (``size<1>(ValLayoutRef)``)."""
        return self.layout_ref[1].size

    def __repr__(self):
        extra = f", tma_bits={self.tma_bits}" if self.tma_bits is not None else ""
        return f"copy_atom({self.name!r}, {self.element_bits}{extra})"

    def __str__(self):
        return (f"Copy_Atom {self.name} ({self.element_bits}-bit)\n  ThrID:        {self.thr_id}\n"
                f"  ValLayoutSrc: {self.layout_src}\n  ValLayoutDst: {self.layout_dst}\n"
                f"  ValLayoutRef: {self.layout_ref}")

    def _key(self):
        return (self.name, self.element_bits, self.tma_bits)

    def __eq__(self, other):
        return type(other) is CopyAtom and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())


_UINT = {"uint8_t": 8, "uint16_t": 16, "uint32_t": 32, "uint64_t": 64, "uint128_t": 128}
_W32 = Layout(32, 1)
# ldmatrix (copy_traits_sm75.hpp), in bits: source = one 128-bit row address per thread that gives one
_LDSM = {
    "SM75_U32x1_LDSM_N": (_L := Layout, Layout(((8, 4), 128), ((128, 0), 1)), Layout((32, 32), (32, 1))),
    "SM75_U32x2_LDSM_N": (_L, Layout(((16, 2), 128), ((128, 0), 1)), Layout((32, (32, 2)), (32, (1, 1024)))),
    "SM75_U32x4_LDSM_N": (_L, Layout((32, 128), (128, 1)), Layout((32, (32, 4)), (32, (1, 1024)))),
    "SM75_U16x2_LDSM_T": (_L, Layout(((8, 4), 128), ((128, 0), 1)),
                          Layout(((4, 8), (16, 2)), ((256, 16), (1, 128)))),
    "SM75_U16x4_LDSM_T": (_L, Layout(((16, 2), 128), ((128, 0), 1)),
                          Layout(((4, 8), (16, 2, 2)), ((256, 16), (1, 128, 1024)))),
    "SM75_U16x8_LDSM_T": (_L, Layout((32, 128), (128, 1)),
                          Layout(((4, 8), (16, 2, 4)), ((256, 16), (1, 128, 1024)))),
}


# SM100's 8-bit ldmatrix/stmatrix (copy_traits_sm100.hpp), in bits: name -> (src, dst, ref is src, ptx).
_ROWS = {1: Layout(((8, 4), 128), ((128, 0), 1)), 2: Layout(((16, 2), 128), ((128, 0), 1)), 4: Layout((32, 128), (128, 1))}
_U8T = {n: Layout(((4, 8), (8, 2, 2) + ((n,) if n > 1 else ())), ((256, 8), (1, 128, 64) + ((1024,) if n > 1 else ())))
        for n in (1, 2, 4)}
_SM100_SMEM = {
    "SM100_U8x8_LDSM_T": (Layout(((2, 2, 4, 2), 128), ((128, 1024, 256, 0), 1)), _U8T[2], False,
                          "ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8"),
    "SM100_U8x16_LDSM_T": (Layout(((2, 2, 4, 2), 128), ((128, 1024, 256, 2048), 1)), _U8T[4], False,
                           "ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8"),
    "SM100_U8x4_STSM_T": (_U8T[1], _ROWS[1], True, "stmatrix.sync.aligned.m16n8.x1.trans.shared.b8"),
    "SM100_U8x8_STSM_T": (_U8T[2], _ROWS[2], True, "stmatrix.sync.aligned.m16n8.x2.trans.shared.b8"),
    "SM100_U8x16_STSM_T": (_U8T[4], _ROWS[4], True, "stmatrix.sync.aligned.m16n8.x4.trans.shared.b8"),
}
for _n in (1, 2, 4):  # 4- or 6-bit source values widened to 8 bits in registers (ldmatrix ... b8x16.b4x16_p64)
    _dst = Layout((32, 32), (32, 1)) if _n == 1 else Layout((32, (32, _n)), (32, (1, 1024)))
    for _b, _p in (("4", "64"), ("6", "32")):
        _SM100_SMEM[f"SM100_SU{_b}_DU8x16_x{_n}_LDSM_N"] = (
            _ROWS[_n], _dst, False, f"ldmatrix.sync.aligned.m8n16.x{_n}.shared.b8x16.b{_b}x16_p{_p}")


def _drop1(shape, stride):
    """``Layout(shape, stride)`` without a trailing size-1 value mode (the header writes the 1x shapes without it)."""
    (t, v), (ts, vs) = shape, stride
    if isinstance(v, tuple) and v[-1] == 1:
        v, vs = v[:-1], vs[:-1]
        if len(v) == 1:
            v, vs = v[0], vs[0]
    return Layout((t, v), (ts, vs))


# tcgen05.ld/st (copy_traits_sm100.hpp), in bits: shape -> (repetitions N, (TMEM bits per N, register layout of N, ptx
# shape)). The TMEM side is one row of 32 lanes (thread stride 0: a warp addresses one datapath slice); the register
# side says which of the 16 or 32 datapath lanes (rows) and which bits a thread receives.
_TMEM = {
    "32dp32b": ((1, 2, 4, 8, 16, 32, 64, 128),
                (1024, lambda n: Layout((32, 32 * n), (32 * n, 1)), "32x32b")),
    "16dp256b": ((1, 2, 4, 8, 16, 32),
                 (4096, lambda n: _drop1(((4, 8), (64, 2, n)), ((64, 256 * n), (1, 2048 * n, 256))), "16x256b")),
    "16dp128b": ((1, 2, 4, 8, 16, 32, 64),
                 (2048, lambda n: _drop1(((4, 8), (32, 2, n)), ((32, 128 * n), (1, 1024 * n, 128))), "16x128b")),
    "16dp64b": ((1, 2, 4, 8, 16, 32, 64, 128),
                (1024, lambda n: Layout(((2, 2, 8), 32 if n == 1 else (32, n)),
                                        ((512 * n, 32, 64 * n), 1 if n == 1 else (1, 64))), "16x64b")),
    "16dp32b": ((1, 2, 4, 8, 16, 32, 64, 128),
                (1024, lambda n: Layout(((16, 2), 32 * n), ((64 * n, 32 * n), 1)), "16x32bx2")),
}


def _specs():
    out = {}
    for t, bits in _UINT.items():
        lay = _static_compact((1, bits))
        out[f"UniversalCopy<{t}>"] = (Layout(1, 0), lay, lay, lay, "ld/st")
        if bits >= 32:
            for cache in ("CACHEALWAYS", "CACHEGLOBAL"):
                if cache == "CACHEGLOBAL" and bits != 128:
                    continue  # cp.async.cg moves 16 bytes only
                for z in ("", "_ZFILL"):
                    out[f"SM80_CP_ASYNC_{cache}{z}<{t}>"] = (Layout(1, 0), lay, lay, lay,
                                                             f"cp.async.{cache[5:7].lower()}.shared.global")
    for name, (_, src, dst) in _LDSM.items():
        x = re.search(r"x(\d)_", name).group(1)
        trans = ".trans" if name.endswith("_T") else ""
        out[name] = (_W32, src, dst, dst, f"ldmatrix.sync.aligned.x{x}{trans}.m8n8.shared.b16")
        st = name.replace("SM75", "SM90").replace("LDSM", "STSM")
        out[st] = (_W32, dst, src, dst, f"stmatrix.sync.aligned.x{x}{trans}.m8n8.shared.b16")
    out["SM75_U32x1_MOVM_T"] = (_W32, Layout((32, 32), (32, 1)), Layout((32, 32), (32, 1)),
                                Layout((32, 32), (32, 1)), "movmatrix.sync.aligned.m8n8.trans.b16")
    for name, (src, dst, ref_is_src, ptx) in _SM100_SMEM.items():
        out[name] = (_W32, src, dst, src if ref_is_src else dst, ptx)
    v8 = _static_compact((1, 256))
    out["SM100_LOAD_256bit_CACHE_NOALLOCATION"] = (Layout(1, 0), v8, v8, v8, "ld.global.L1::no_allocate.v8.f32")
    out["SM100_STORE_256bit_CACHE_NOALLOCATION"] = (Layout(1, 0), v8, v8, v8, "st.global.L1::no_allocate.v8.f32")
    for shape, (reps, (tmem_bits, reg, ptx)) in _TMEM.items():
        for n in reps:
            tmem = Layout((32, tmem_bits * n), (0, 1))
            dst = reg(n)
            for pack, ld, st in (("", "", ""), ("_16b", ".pack::16b", ".unpack::16b")):
                out[f"SM100_TMEM_LOAD_{shape}{n}x{pack}"] = (_W32, tmem, dst, tmem,
                                                             f"tcgen05.ld.sync.aligned.{ptx}.x{n}{ld}.b32")
                out[f"SM100_TMEM_STORE_{shape}{n}x{pack}"] = (_W32, dst, tmem, tmem,
                                                              f"tcgen05.st.sync.aligned.{ptx}.x{n}{st}.b32")
    out["SM90_TMA_LOAD"] = None   # built from tma_bits
    out["SM90_TMA_STORE"] = None
    return out


_SPECS = _specs()
_CACHE = {}


def copy_atoms(prefix: str = "") -> list:
    """The names of every copy atom in the catalogue (optionally those starting with ``prefix``).

    >>> copy_atoms("SM75")
    ['SM75_U32x1_LDSM_N', 'SM75_U32x2_LDSM_N', 'SM75_U32x4_LDSM_N', 'SM75_U16x2_LDSM_T', 'SM75_U16x4_LDSM_T', 'SM75_U16x8_LDSM_T', 'SM75_U32x1_MOVM_T']
    """
    if not isinstance(prefix, str):
        raise LayoutError(f"copy_atoms: the prefix must be text, got {type(prefix).__name__}")
    return [n for n in _SPECS if n.startswith(prefix)]


def copy_atom(name: str, element_bits: int, tma_bits: int | None = None) -> CopyAtom:
    """The copy atom ``name`` (CUTLASS's op name) for ``element_bits``-wide elements.

    ``tma_bits`` is the TMA box size in bits (``NumBitsPerTMA``) for the
    ``SM90_TMA_*`` views. An atom that cannot move such elements (a 32-bit
    ``ldmatrix`` value is not a whole number of 64-bit elements) is refused.

    >>> str(copy_atom("SM90_TMA_LOAD", 16, tma_bits=8192).layout_src)
    '(1,512):(0,1)'
    >>> copy_atom("SM75_U32x4_LDSM_N", 64)
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: copy_atom SM75_U32x4_LDSM_N is not valid for 64-bit elements (its dst layout recast is (16,(1,4)):(1,(1,16)): 16 threads, the atom has 32)
    """
    if isinstance(element_bits, bool) or not isinstance(element_bits, int) or element_bits <= 0:
        raise LayoutError(f"copy_atom: element_bits must be a positive int, got {element_bits!r}")
    key = (name, element_bits, tma_bits)
    atom = _CACHE.get(key)
    if atom is not None:
        return atom
    if name not in _SPECS:
        near = [n for n in _SPECS if isinstance(name, str) and n.startswith(name)]
        hint = f"; did you mean {near[0]!r}?" if near else "; cute.copy_atoms() lists them"
        raise LayoutError(f"no copy atom named {name!r}{hint}")
    spec = _SPECS[name]
    if spec is None:
        if tma_bits is None or isinstance(tma_bits, bool) or not isinstance(tma_bits, int) or tma_bits <= 0:
            raise LayoutError(f"copy_atom: {name} needs tma_bits, the bits one TMA moves (e.g. 8192)")
        lay = _static_compact((1, tma_bits))
        spec = (Layout(1, 0), lay, lay, lay, "cp.async.bulk.tensor" if "LOAD" in name else "cp.async.bulk.tensor")
    elif tma_bits is not None:
        raise LayoutError(f"copy_atom: tma_bits is for the SM90_TMA_* atoms, not {name}")
    atom = CopyAtom(name, element_bits, *spec[:4], ptx=spec[4], tma_bits=tma_bits)
    _CACHE[key] = atom
    return atom
