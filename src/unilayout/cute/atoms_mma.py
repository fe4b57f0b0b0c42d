"""MMA atoms: CUTLASS's ``MMA_Traits`` as data — which thread holds which element of A, B and C.

An MMA instruction computes ``C[M,N] += A[M,K] * B[N,K]^T`` across a group of
threads. CuTe describes it with four layouts (``cute/atom/mma_traits_sm*.hpp``):

- ``thr_id``: logical thread -> physical thread (a warp ``32:1``, a warpgroup
  ``128:1``, SM70's quad-pair ``(4,2):(1,16)``, one elected thread ``1:0`` on SM100);
- ``layout_a`` / ``layout_b`` / ``layout_c``: ``(thread, value) -> m + M*k`` (resp.
  ``n + N*k``, ``m + M*n``), the column-major position in the operand.

Worked example, SM80's 16x8x16 (the ``mma.sync.m16n8k16`` every FlashAttention
kernel uses): thread 5 holds C values at rows 1 and 9, columns 2 and 3:

>>> atom = mma_atom("SM80_16x8x16_F32F16F16F32_TN")
>>> atom.shape_mnk, str(atom.thr_id), str(atom.layout_c)
((16, 8, 16), '32:1', '((4,8),(2,2)):((32,1),(16,8))')
>>> [divmod(atom.layout_c(5, v), 16)[::-1] for v in range(4)]     # (m, n) of thread 5's values
[(1, 2), (1, 3), (9, 2), (9, 3)]

The catalogue (``mma_atoms()``) holds SM61's dot products (``SM61_DP4A``,
``SM61_DP2A``: one thread, M = N = 1), SM70 (quad-pair 8x8x4, the TN/NT/NN/TT
A/B orders), SM75 (``SM75_16x8x8_F16F16F16F16_TN`` from cuBLASDx's cute
extension: CUTLASS's cute lacks it), SM80 (F16/BF16/TF32 16x8x{4,8,16}, F64
8x8x4 and its complex ``C64``/``GC64`` forms, S8/U8/S4/U4
and binary XOR-popc shapes, saturating variants), SM89 FP8 16x8x32, SM90's
F64 and complex C64 16x8x{4,8,16}, SM90 GMMA for every N the instruction has (SS and RS; the
operand majors of the 16-bit ones are parameters of ``mma_atom`` since they
do not change the layouts; tf32 and 8-bit GMMA are K-major, named ``..._TN``) and SM100 UMMA (1-SM and 2-SM, every valid M and N). Names are
CUTLASS's (``SM90_64x128x16_F32F16F16_SS``); SM100 atoms, templates in C++,
are named ``SM100_<M>x<N>x<K>_<types>_SS`` (``_2x1SM_SS`` for the 2-SM forms).

Facts used (from the CUTLASS headers, checked in tests against tensor-layouts'
copy): GMMA's C is ``((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512))``, its
shared-memory operands are ``(128,(M,K)):(0,(1,M))`` (every thread sees the
whole tile), its register A is ``ALayout_64x{8,16,32}`` by element width; the
GMMA N values are multiples of 8 up to 256 (int8: 8, 16, 24, 32, then multiples
of 16); UMMA's K is 256 bits of the A type.
"""

from __future__ import annotations

import re

from ..errors import LayoutError
from .layout import Layout

__all__ = ["MMAAtom", "mma_atom", "mma_atoms"]


class MMAAtom:
    """One MMA instruction's ``MMA_Traits``: ``shape_mnk``, ``thr_id``, ``layout_a/b/c``.

    ``major_a`` / ``major_b`` (``"K"`` or ``"MN"``) are the GMMA/UMMA operand
    majors (template parameters in C++; they only choose the shared-memory
    descriptor, not these layouts). ``bits_a``/``bits_b``/``bits_c`` are the
    element widths.

    >>> a = mma_atom("SM70_8x8x4_F32F16F16F32_NT")
    >>> str(a.thr_id), str(a.layout_a), a.num_threads
    ('(4,2):(1,16)', '((4,2),4):((8,4),1)', 8)
    >>> a
    mma_atom('SM70_8x8x4_F32F16F16F32_NT')
    """

    __slots__ = ("name", "shape_mnk", "thr_id", "layout_a", "layout_b", "layout_c",
                 "bits_a", "bits_b", "bits_c", "major_a", "major_b", "ptx")

    def __init__(self, name, shape_mnk, thr_id, layout_a, layout_b, layout_c,
                 bits=(16, 16, 32), major_a="K", major_b="K", ptx=""):
        for what, lay in (("thr_id", thr_id), ("A", layout_a), ("B", layout_b), ("C", layout_c)):
            if not isinstance(lay, Layout):
                raise LayoutError(f"MMAAtom {name!r:.40}: {what} must be a CuTe Layout, got {type(lay).__name__}")
        for what, lay, (p, q) in (("A", layout_a, (0, 2)), ("B", layout_b, (1, 2)), ("C", layout_c, (0, 1))):
            if lay.rank != 2:
                raise LayoutError(f"MMAAtom {name}: layout {what} {lay} must be (thread, value)")
            if lay[0].size != thr_id.size:
                raise LayoutError(f"MMAAtom {name}: layout {what} has {lay[0].size} threads, thr_id {thr_id.size}")
            if lay.cosize > shape_mnk[p] * shape_mnk[q]:
                raise LayoutError(f"MMAAtom {name}: layout {what} {lay} reaches past its "
                                  f"{shape_mnk[p]}x{shape_mnk[q]} operand")
        for k, v in (("name", name), ("shape_mnk", tuple(shape_mnk)), ("thr_id", thr_id),
                     ("layout_a", layout_a), ("layout_b", layout_b), ("layout_c", layout_c),
                     ("bits_a", bits[0]), ("bits_b", bits[1]), ("bits_c", bits[2]),
                     ("major_a", major_a), ("major_b", major_b), ("ptx", ptx)):
            object.__setattr__(self, k, v)

    def __setattr__(self, name, value):
        raise AttributeError("MMAAtom is immutable")

    @property
    def num_threads(self) -> int:
        """Threads taking part in one instruction (``size(thr_id)``)."""
        return self.thr_id.size

    def __repr__(self):
        extra = "".join(f", {k}={getattr(self, k)!r}" for k in ("major_a", "major_b") if getattr(self, k) != "K")
        return f"mma_atom({self.name!r}{extra})"

    def __str__(self):
        mnk = "(" + ",".join(map(str, self.shape_mnk)) + ")"
        return (f"MMA_Atom {self.name}\n  ThrID:      {self.thr_id}\n  Shape_MNK:  {mnk}\n"
                f"  LayoutA_TV: {self.layout_a}\n  LayoutB_TV: {self.layout_b}\n  LayoutC_TV: {self.layout_c}")

    def _key(self):
        return (self.name, self.major_a, self.major_b)

    def __eq__(self, other):
        return type(other) is MMAAtom and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __reduce__(self):
        return (mma_atom, (self.name, self.major_a, self.major_b))


# -- the layouts of the headers, by family ------------------------------------------------------

def _L(shape, stride):
    return Layout(shape, stride)


_W32 = Layout(32, 1)
# SM70 (mma_traits_sm70.hpp)
_SM70_QP = _L((4, 2), (1, 16))
_SM70_8x4_ROW = _L((8, 4), (1, 8))
_SM70_8x4_COL = _L(((4, 2), 4), ((8, 4), 1))
_SM70_8x8_16b = _L((8, 8), (1, 8))
_SM70_8x8_32b = _L(((2, 2, 2), (2, 2, 2)), ((1, 16, 4), (8, 2, 32)))
# SM80 (mma_traits_sm80.hpp)
_SM80_8x4 = _L(((4, 8), 1), ((8, 1), 0))
_SM80_8x8_ROW = _L(((4, 8), 2), ((16, 1), 8))
_SM80_8x16_ROW = _L(((4, 8), 4), ((32, 1), 8))
_SM80_16x8_ROW = _L(((4, 8), (2, 2)), ((32, 1), (16, 8)))


def _row_8xk(v):
    """``(T32, Vv) -> (M8, K 4v)``: v consecutive K elements per thread (8-, 4- and 1-bit 8x8xK A/B)."""
    return _L(((4, 8), v), ((8 * v, 1), 8))


def _a_16xk(v, double):
    """A of 16x8xK with v K-elements per register: ``((4,8),(v,2[,2])):((16v,1),(16,8[,16*4v]))``."""
    if double:
        return _L(((4, 8), (v, 2, 2)), ((16 * v, 1), (16, 8, 64 * v)))
    return _L(((4, 8), (v, 2)), ((16 * v, 1), (16, 8)))


def _b_8xk2(v):
    """B of 16x8xK (the k-doubled one): ``((4,8),(v,2)):((8v,1),(8,32v))``."""
    return _L(((4, 8), (v, 2)), ((8 * v, 1), (8, 32 * v)))


_INT_TYPES = ("S8S8", "S8U8", "U8S8", "U8U8")
_INT4_TYPES = ("S4S4", "S4U4", "U4S4", "U4U4")
_FP8 = ("E4M3", "E5M2")


def _sm70():
    out = []
    for acc, c in (("F16F16F16F16", _SM70_8x8_16b), ("F32F16F16F32", _SM70_8x8_32b)):
        for ab, a, b in (("TN", _SM70_8x4_ROW, _SM70_8x4_ROW), ("NT", _SM70_8x4_COL, _SM70_8x4_COL),
                         ("NN", _SM70_8x4_COL, _SM70_8x4_ROW), ("TT", _SM70_8x4_ROW, _SM70_8x4_COL)):
            out.append((f"SM70_8x8x4_{acc}_{ab}", (8, 8, 4), _SM70_QP, a, b, c, (16, 16, 16 if acc[1] == "1" else 32),
                        "mma.sync.aligned.m8n8k4"))
    return out


def _sm75_sm80_sm89_sm90():
    out = []
    f16 = []
    for types, cb in (("F16F16F16F16", 16), ("F32F16F16F32", 32), ("F32BF16BF16F32", 32)):
        f16.append((f"SM80_16x8x8_{types}_TN", (16, 8, 8), _W32, _SM80_16x8_ROW, _SM80_8x8_ROW, _SM80_16x8_ROW,
                    (16, 16, cb), "mma.sync.aligned.m16n8k8"))
        f16.append((f"SM80_16x8x16_{types}_TN", (16, 8, 16), _W32,
                    _L(((4, 8), (2, 2, 2)), ((32, 1), (16, 8, 128))), _L(((4, 8), (2, 2)), ((16, 1), (8, 64))),
                    _SM80_16x8_ROW, (16, 16, cb), "mma.sync.aligned.m16n8k16"))
    out += f16
    out.append(("SM75_16x8x8_F32F16F16F32_TN", (16, 8, 8), _W32, _SM80_16x8_ROW, _SM80_8x8_ROW, _SM80_16x8_ROW,
                (16, 16, 32), "mma.sync.aligned.m16n8k8"))
    # cuBLASDx's cute extension (cublasdx::detail) defines the f16-accumulating m16n8k8 with the F32 one's traits
    out.append(("SM75_16x8x8_F16F16F16F16_TN", (16, 8, 8), _W32, _SM80_16x8_ROW, _SM80_8x8_ROW, _SM80_16x8_ROW,
                (16, 16, 16), "mma.sync.aligned.m16n8k8"))
    out.append(("SM75_8x8x16_S32S8S8S32_TN", (8, 8, 16), _W32, _SM80_8x16_ROW, _SM80_8x16_ROW, _SM80_8x8_ROW,
                (8, 8, 32), "mma.sync.aligned.m8n8k16"))
    # SM61 dot products (mma_traits_sm61.hpp): one thread, C = 1x1, K = 4 int8 (dp4a) or 2 int16 (dp2a)
    one = Layout(1, 0)
    for name, k, bits, ptx in (("SM61_DP4A", 4, 8, "dp4a.s32.s32"), ("SM61_DP2A", 2, 16, "dp2a.s32.s32")):
        out.append((name, (1, 1, k), one, _L((1, k), (0, 1)), _L((1, k), (0, 1)), _L((1, 1), (0, 0)),
                    (bits, bits, 32), ptx))
    # TF32
    out.append(("SM80_16x8x4_F32TF32TF32F32_TN", (16, 8, 4), _W32, _L(((4, 8), 2), ((16, 1), 8)), _SM80_8x4,
                _SM80_16x8_ROW, (32, 32, 32), "mma.sync.aligned.m16n8k4"))
    out.append(("SM80_16x8x8_F32TF32TF32F32_TN", (16, 8, 8), _W32, _L(((4, 8), (2, 2)), ((16, 1), (8, 64))),
                _L(((4, 8), 2), ((8, 1), 32)), _SM80_16x8_ROW, (32, 32, 32), "mma.sync.aligned.m16n8k8"))
    # F64
    out.append(("SM80_8x8x4_F64F64F64F64_TN", (8, 8, 4), _W32, _SM80_8x4, _SM80_8x4, _SM80_8x8_ROW, (64, 64, 64),
                "mma.sync.aligned.m8n8k4"))
    # complex<double> built from 4 f64 MMAs (C64) or 3 (Gauss, C held as three doubles): the F64 layouts
    out.append(("SM80_8x8x4_C64C64C64C64_TN", (8, 8, 4), _W32, _SM80_8x4, _SM80_8x4, _SM80_8x8_ROW,
                (128, 128, 128), "mma.sync.aligned.m8n8k4"))
    out.append(("SM80_8x8x4_GC64C64C64GC64_TN", (8, 8, 4), _W32, _SM80_8x4, _SM80_8x4, _SM80_8x8_ROW,
                (128, 128, 192), "mma.sync.aligned.m8n8k4"))
    # integer: 8-bit (v=4 per 32-bit register), 4-bit (v=8), 1-bit (v=32)
    for bits, v, k8, typeset, suffixes in ((8, 4, 16, _INT_TYPES, ("", "_SATURATE")),
                                           (4, 8, 32, _INT4_TYPES, ("", "_SATURATE")),
                                           (1, 32, 128, ("U1U1",), ("_XORPOPC", "_ANDPOPC"))):
        for t in typeset:
            for sfx in suffixes:
                shapes = ((8, 8, k8), (16, 8, k8), (16, 8, 2 * k8))
                ptx = "mma.sync.aligned.m{}n{}k{}"
                ab8 = _row_8xk(v) if bits != 4 else _L(((4, 8), (8,)), ((64, 1), (8,)))
                # the header's B of 16x8x32 int4 has thread stride 32, not 64: it covers 5/8 of B (kept as is)
                b16 = _row_8xk(v) if bits != 4 else _L(((4, 8), (8,)), ((32, 1), (8,)))
                out.append((f"SM80_8x8x{k8}_S32{t}S32_TN{sfx}", shapes[0], _W32, ab8, ab8,
                            _SM80_8x8_ROW, (bits, bits, 32), ptx.format(*shapes[0])))
                out.append((f"SM80_16x8x{k8}_S32{t}S32_TN{sfx}", shapes[1], _W32, _a_16xk(v, False),
                            b16, _SM80_16x8_ROW, (bits, bits, 32), ptx.format(*shapes[1])))
                out.append((f"SM80_16x8x{2 * k8}_S32{t}S32_TN{sfx}", shapes[2], _W32, _a_16xk(v, True), _b_8xk2(v),
                            _SM80_16x8_ROW, (bits, bits, 32), ptx.format(*shapes[2])))
    # SM89 FP8 16x8x32 (the 8-bit 16x8x32 layouts)
    for acc, cb in (("F32", 32), ("F16", 16)):
        for ta in _FP8:
            for tb in _FP8:
                out.append((f"SM89_16x8x32_{acc}{ta}{tb}{acc}_TN", (16, 8, 32), _W32, _a_16xk(4, True), _b_8xk2(4),
                            _SM80_16x8_ROW, (8, 8, cb), "mma.sync.aligned.m16n8k32"))
    # SM90 F64 16x8x{4,8,16}
    out.append(("SM90_16x8x4_F64F64F64F64_TN", (16, 8, 4), _W32, _L(((4, 8), 2), ((16, 1), 8)), _SM80_8x4,
                _SM80_16x8_ROW, (64, 64, 64), "mma.sync.aligned.m16n8k4"))
    out.append(("SM90_16x8x8_F64F64F64F64_TN", (16, 8, 8), _W32, _L(((4, 8), (2, 2)), ((16, 1), (8, 64))),
                _L(((4, 8), 2), ((8, 1), 32)), _SM80_16x8_ROW, (64, 64, 64), "mma.sync.aligned.m16n8k8"))
    out.append(("SM90_16x8x16_F64F64F64F64_TN", (16, 8, 16), _W32, _L(((4, 8), (2, 4)), ((16, 1), (8, 64))),
                _L(((4, 8), 4), ((8, 1), 32)), _SM80_16x8_ROW, (64, 64, 64), "mma.sync.aligned.m16n8k16"))
    for k, a, b in ((4, _L(((4, 8), 2), ((16, 1), 8)), _SM80_8x4),
                    (8, _L(((4, 8), (2, 2)), ((16, 1), (8, 64))), _L(((4, 8), 2), ((8, 1), 32))),
                    (16, _L(((4, 8), (2, 4)), ((16, 1), (8, 64))), _L(((4, 8), 4), ((8, 1), 32)))):
        out.append((f"SM90_16x8x{k}_C64C64C64C64_TN", (16, 8, k), _W32, a, b, _SM80_16x8_ROW, (128, 128, 128),
                    f"mma.sync.aligned.m16n8k{k}"))
    return out


# SM90 GMMA (mma_traits_sm90_gmma.hpp)
_GMMA_ALAYOUT = {  # register-sourced A by element width
    32: _L(((4, 8, 4), (2, 2)), ((64, 1, 16), (8, 256))),
    16: _L(((4, 8, 4), (2, 2, 2)), ((128, 1, 16), (64, 8, 512))),
    8: _L(((4, 8, 4), (4, 2, 2)), ((256, 1, 16), (64, 8, 1024))),
}
_GMMA_TYPES = (  # (name, bits A, bits C, K)
    [("F16F16F16", 16, 16, 16), ("F32F16F16", 16, 32, 16), ("F32BF16BF16", 16, 32, 16), ("F32TF32TF32", 32, 32, 8)]
    + [(f"S32{t}", 8, 32, 32) for t in _INT_TYPES]
    + [(f"{acc}{ta}{tb}", 8, cb, 32) for acc, cb in (("F16", 16), ("F32", 32)) for ta in _FP8 for tb in _FP8]
)


def gmma_n_values(int8: bool = False):
    """The N of SM90 ``wgmma`` (dense): multiples of 8 up to 256; int8: 8, 16, 24, 32, then multiples of 16.

    >>> gmma_n_values()[:4], len(gmma_n_values()), gmma_n_values(True)[:6]
    ([8, 16, 24, 32], 32, [8, 16, 24, 32, 48, 64])
    """
    if int8:
        return [8, 16, 24, 32] + list(range(48, 257, 16))
    return list(range(8, 257, 8))


def gmma_c_layout(n: int) -> Layout:
    """GMMA's accumulator ``CLayout_64xN``: ``((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512))``.

    >>> str(gmma_c_layout(64))
    '((4,8,4),(2,2,8)):((128,1,16),(64,8,512))'
    """
    return _L(((4, 8, 4), (2, 2, n // 8)), ((128, 1, 16), (64, 8, 512)))


def _ab_smem(mn, k):
    """``ABLayout<MN,K>``: every thread of the warpgroup sees the whole operand in shared memory."""
    return _L((128, (mn, k)), (0, (1, mn)))


def _sm90_gmma():
    out = []
    g128 = Layout(128, 1)
    for types, ab, cb, k in _GMMA_TYPES:
        # 16-bit types take the operand majors as template parameters; tf32 and 8-bit ones are K-major (_TN)
        suffixes = ("",) if ab == 16 else ("_TN", "_TN_SATURATE") if types.startswith("S32") else ("_TN",)
        for n in gmma_n_values(types.startswith("S32")):
            for src in ("SS", "RS"):
                a = _ab_smem(64, k) if src == "SS" else _GMMA_ALAYOUT[ab]
                for sfx in suffixes:
                    out.append((f"SM90_64x{n}x{k}_{types}_{src}{sfx}", (64, n, k), g128, a, _ab_smem(n, k),
                                gmma_c_layout(n), (ab, ab, cb), f"wgmma.mma_async.sync.aligned.m64n{n}k{k}"))
    return out


# SM100 UMMA (mma_traits_sm100.hpp): one elected thread (or a CTA pair) issues tcgen05.mma
_UMMA_TYPES = (  # (name, bits A, bits C, kind)
    ("F16F16F16", 16, 16, "f16"), ("F32F16F16", 16, 32, "f16"), ("F32BF16BF16", 16, 32, "f16"),
    ("F32TF32TF32", 32, 32, "tf32"), ("S32S8S8", 8, 32, "i8"), ("S32U8U8", 8, 32, "i8"),
    ("F32E4M3E4M3", 8, 32, "f8f6f4"), ("F32E5M2E5M2", 8, 32, "f8f6f4"), ("F16E4M3E4M3", 8, 16, "f8f6f4"),
)


def umma_mn_values():
    """The (M, N, CTA pair) of CUTLASS's dense SS UMMA: M=64 or 128 with N%8; pairs M=128 or 256 with N%16.

    >>> len(umma_mn_values()), umma_mn_values()[0]
    (96, (64, 8, False))
    """
    return ([(64, n, False) for n in range(8, 257, 8)] + [(128, n, False) for n in range(8, 257, 8)]
            + [(128, n, True) for n in range(16, 257, 16)] + [(256, n, True) for n in range(16, 257, 16)])


def _sm100_umma():
    out = []
    one = Layout(1, 0)
    for types, ab, cb, kind in _UMMA_TYPES:
        k = 256 // ab
        for m, n, pair in umma_mn_values():
            if not pair:
                out.append((f"SM100_{m}x{n}x{k}_{types}_SS", (m, n, k), one, _L((1, (m, k)), (0, (1, m))),
                            _L((1, (n, k)), (0, (1, n))), _L((1, (m, n)), (0, (1, m))), (ab, ab, cb),
                            f"tcgen05.mma.cta_group::1.kind::{kind}"))
            else:
                h, hn = m // 2, n // 2
                out.append((f"SM100_{m}x{n}x{k}_{types}_2x1SM_SS", (m, n, k), Layout(2, 1),
                            _L((2, (h, k)), (h, (1, m))), _L((2, (hn, k)), (hn, (1, n))),
                            _L((2, (h, n)), (h, (1, m))), (ab, ab, cb), f"tcgen05.mma.cta_group::2.kind::{kind}"))
    return out


_SPECS = None
_CACHE = {}


def _specs():
    global _SPECS
    if _SPECS is None:
        specs = {}
        for gen in (_sm70, _sm75_sm80_sm89_sm90, _sm90_gmma, _sm100_umma):
            for s in gen():
                specs[s[0]] = s
        _SPECS = specs
    return _SPECS


def mma_atoms(prefix: str = "") -> list:
    """The names of every MMA atom in the catalogue (optionally those starting with ``prefix``).

    >>> len(mma_atoms("SM70")), "SM90_64x256x16_F32BF16BF16_RS" in mma_atoms()
    (8, True)
    """
    if not isinstance(prefix, str):
        raise LayoutError(f"mma_atoms: the prefix must be text, got {type(prefix).__name__}")
    return [n for n in _specs() if n.startswith(prefix)]


_MAJORS = ("K", "MN")


def mma_atom(name: str, major_a: str = "K", major_b: str = "K") -> MMAAtom:
    """The MMA atom named as in CUTLASS (``"SM80_16x8x16_F32F16F16F32_TN"``).

    ``major_a``/``major_b`` choose the GMMA/UMMA operand majors (``"K"`` or
    ``"MN"``); MN-major operands exist for 16-bit types only, and a register A
    (``_RS``) is K-major.

    >>> str(mma_atom("SM90_64x128x16_F32F16F16_SS").layout_b)
    '(128,(128,16)):(0,(1,128))'
    >>> mma_atom("SM80_16x8x16_F32F16F16F32")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: no MMA atom named 'SM80_16x8x16_F32F16F16F32'; did you mean 'SM80_16x8x16_F32F16F16F32_TN'?
    """
    if not all(isinstance(v, str) for v in (name, major_a, major_b)):
        raise LayoutError(f"mma_atom: name and majors must be strings, got {name!r:.60}, {major_a!r:.20}, {major_b!r:.20}")
    key = (name, major_a, major_b)
    atom = _CACHE.get(key)
    if atom is not None:
        return atom
    spec = _specs().get(name) if isinstance(name, str) else None
    if spec is None:
        near = [n for n in _specs() if isinstance(name, str) and n.startswith(name)]
        hint = f"; did you mean {near[0]!r}?" if near else "; cute.mma_atoms() lists them"
        raise LayoutError(f"no MMA atom named {name!r}{hint}")
    for which, mj in (("major_a", major_a), ("major_b", major_b)):
        if mj not in _MAJORS:
            raise LayoutError(f"mma_atom: {which} must be 'K' or 'MN', got {mj!r}")
    if major_a != "K" or major_b != "K":
        if not re.match(r"SM(90|100)_", name):
            raise LayoutError(f"mma_atom: {name} fixes its operand majors in its name; majors are for GMMA/UMMA")
        if name.endswith(("_TN", "_TN_SATURATE")):
            raise LayoutError(f"mma_atom: {name} is K-major (TN); GMMA takes MN-major operands for 16-bit types only")
        if name.endswith("_RS") and major_a != "K":
            raise LayoutError(f"mma_atom: {name}: a register A is K-major")
    atom = MMAAtom(*spec[:7], major_a=major_a, major_b=major_b, ptx=spec[7])
    _CACHE[key] = atom
    return atom
