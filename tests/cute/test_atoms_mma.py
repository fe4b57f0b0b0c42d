"""MMA atoms: each one's layouts equal CuTe C++'s (CUTLASS 4.2 headers), and are the functions they claim."""

import numpy as np
import pytest

from unilayout.cute import mma_atom, mma_atoms
from unilayout.errors import LayoutError

from . import cute_cpp

CPP = cute_cpp.load()
ALL = mma_atoms()

# CUTLASS's own BLayout of the int4 16x8x32 atoms has thread stride 32 where 64 would cover B: 8 threads'
# values overlap and 3/8 of B is never named. unilayout keeps the header's definition; this names them.
INT4_16832 = {n for n in ALL if n.startswith("SM80_16x8x32_S32") and ("S4" in n or "U4" in n)}

# The header's ALayout of the binary 16x8x128 atoms writes its value stride Stride<Stride<_16,_8>> (rank 1)
# for the rank-2 shape (32,2): not congruent, so no Layout. unilayout reads it as (16,8), the congruent one.
U1_16x8x128 = {"SM80_16x8x128_S32U1U1S32_TN_XORPOPC", "SM80_16x8x128_S32U1U1S32_TN_ANDPOPC"}


def _cpp(name) -> str:
    """C++'s printed atom, with the one header typo (see U1_16x8x128) read the congruent way."""
    text = CPP[f"atom:{name}"]
    return text.replace("((512,1),((16,8)))", "((512,1),(16,8))") if name in U1_16x8x128 else text


def _norm(layout) -> str:
    return str(layout).replace(" ", "")


def test_catalogue_covers_every_family():
    counts = {p: len(mma_atoms(p)) for p in ("SM61", "SM70", "SM75", "SM80", "SM89", "SM90_16x8", "SM90_64x", "SM100")}
    # SM80: 3 F16/BF16 types x 2 shapes + 2 TF32 + 1 F64 + (4 int8 + 4 int4 types) x 2 (saturate) x 3 shapes
    #       + binary x 2 (xor/and) x 3 shapes + complex C64/GC64; SM90_16x8: F64 and C64 x 3 K; GMMA: 3 16-bit types x 32 N x SS/RS + tf32 32 x 2
    #       + 4 int8 types x 18 N x 2 x 2 (saturate) + 8 fp8 types x 32 N x 2; UMMA: 9 types x 96 (M, N, pair)
    assert counts == {"SM61": 2, "SM70": 8, "SM75": 3, "SM80": 6 + 2 + 1 + 48 + 6 + 2, "SM89": 8, "SM90_16x8": 6,
                      "SM90_64x": 192 + 64 + 288 + 512, "SM100": 9 * 96}


IN_CPP = [n for n in ALL if n not in cute_cpp.NOT_IN_CUTLASS]


@pytest.mark.parametrize("name", IN_CPP[::7] + [n for n in IN_CPP if not n.startswith(("SM90_64x", "SM100"))])
def test_atom_layouts_equal_cute_cpp(name):
    """ThrID, LayoutA/B/C_TV and Shape_MNK as CuTe prints them for MMA_Atom<op>."""
    a = mma_atom(name)
    thr, la, lb, lc, shape = _cpp(name).split("|")
    assert (_norm(a.thr_id), _norm(a.layout_a), _norm(a.layout_b), _norm(a.layout_c)) == (thr, la, lb, lc)
    assert "(" + ",".join(map(str, a.shape_mnk)) + ")" == shape


def test_every_atom_equals_cute_cpp():
    """The whole catalogue at once (one string comparison per atom)."""
    bad = []
    for name in IN_CPP:
        a = mma_atom(name)
        got = "|".join(_norm(x) for x in (a.thr_id, a.layout_a, a.layout_b, a.layout_c))
        got += "|(" + ",".join(map(str, a.shape_mnk)) + ")"
        if _cpp(name) != got:
            bad.append(name)
    assert bad == []


def _owners(layout, rows):
    """How many (thread, value) pairs name each element of the operand (size rows)."""
    counts = np.zeros(rows, dtype=np.int64)
    np.add.at(counts, layout.index_map(), 1)
    return counts


@pytest.mark.parametrize("name", ALL[::5])
def test_c_is_owned_once_and_a_b_cover_their_operands(name):
    a = mma_atom(name)
    m, n, k = a.shape_mnk
    assert (_owners(a.layout_c, m * n) == 1).all()
    for lay, size in ((a.layout_a, m * k), (a.layout_b, n * k)):
        owners = _owners(lay, size)
        if lay[0].stride == 0 and a.num_threads > 1:     # shared-memory GMMA operand: every thread sees it
            assert (owners == a.num_threads).all()
        elif name in INT4_16832 and lay is a.layout_b:
            assert (owners == 0).sum() == 96 and owners.max() == 2
        else:
            assert (owners == 1).all()


def test_tensor_layouts_agrees_where_it_has_the_atom():
    atoms_nv = pytest.importorskip("tensor_layouts.atoms_nv")
    from tensor_layouts import size
    names = set(ALL)
    seen = 0
    for value in vars(atoms_nv).values():
        if type(value).__name__ != "MMAAtom" or value.name not in names:
            continue
        ours = mma_atom(value.name)
        for mine, theirs in ((ours.layout_a, value.a_layout), (ours.layout_b, value.b_layout),
                             (ours.layout_c, value.c_layout)):
            assert np.array_equal(mine.index_map(), [theirs(i) for i in range(size(theirs))])
        seen += 1
    assert seen >= 60


def test_the_worked_example_reads_thread_five():
    a = mma_atom("SM80_16x8x16_F32F16F16F32_TN")
    assert [divmod(a.layout_c(5, v), 16)[::-1] for v in range(4)] == [(1, 2), (1, 3), (9, 2), (9, 3)]


def test_unknown_names_and_bad_majors_are_refused():
    with pytest.raises(LayoutError, match="did you mean 'SM80_16x8x16_F32F16F16F32_TN'"):
        mma_atom("SM80_16x8x16_F32F16F16F32")
    with pytest.raises(LayoutError, match="cute.mma_atoms"):
        mma_atom("SM42_1x1x1")
    with pytest.raises(LayoutError, match="must be 'K' or 'MN'"):
        mma_atom("SM90_64x64x16_F16F16F16_SS", major_a="row")
    with pytest.raises(LayoutError, match="16-bit types only"):
        mma_atom("SM90_64x64x8_F32TF32TF32_SS_TN", major_b="MN")
    with pytest.raises(LayoutError, match="register A is K-major"):
        mma_atom("SM90_64x64x16_F16F16F16_RS", major_a="MN")
    with pytest.raises(LayoutError, match="majors are for GMMA/UMMA"):
        mma_atom("SM80_16x8x8_F16F16F16F16_TN", major_a="MN")


def test_atoms_are_values():
    a = mma_atom("SM90_64x64x16_F16F16F16_SS", major_b="MN")
    assert a == mma_atom("SM90_64x64x16_F16F16F16_SS", "K", "MN") != mma_atom("SM90_64x64x16_F16F16F16_SS")
    assert repr(a) == "mma_atom('SM90_64x64x16_F16F16F16_SS', major_b='MN')"
    assert eval(repr(a), {"mma_atom": mma_atom}) == a
    with pytest.raises(AttributeError):
        a.name = "x"


# CUTLASS's cute has no f16-accumulating SM75 m16n8k8; cuBLASDx's cute extension defines it
# (cublasdx/database/cute_extension/atom/mma_traits_sm75.hpp), transcribed here:
#   ThrID = Layout<_32>; ALayout = ((_4,_8),(_2,_2)):((_32,_1),(_16,_8)); BLayout = ((_4,_8),_2):((_16,_1),_8);
#   CLayout = ((_4,_8),(_2,_2)):((_32,_1),(_16,_8)); Shape_MNK = (16,8,8); ValTypes half_t.
def test_sm75_f16_accumulating_atom_has_cublasdx_traits():
    a = mma_atom("SM75_16x8x8_F16F16F16F16_TN")
    assert (_norm(a.thr_id), _norm(a.layout_a), _norm(a.layout_b), _norm(a.layout_c)) == (
        "32:1", "((4,8),(2,2)):((32,1),(16,8))", "((4,8),2):((16,1),8)", "((4,8),(2,2)):((32,1),(16,8))")
    assert a.shape_mnk == (16, 8, 8) and (a.bits_a, a.bits_b, a.bits_c) == (16, 16, 16)
    assert "SM75_16x8x8_F16F16F16F16_TN" in cute_cpp.NOT_IN_CUTLASS   # no C++ output is claimed for it


@pytest.mark.parametrize("name,k,bits", [("SM61_DP4A", 4, 8), ("SM61_DP2A", 2, 16)])
def test_sm61_dot_products_are_one_thread_over_k(name, k, bits):
    """mma_traits_sm61.hpp: one thread holds all K of A and B (value v is k = v) and the single C."""
    a = mma_atom(name)
    assert a.shape_mnk == (1, 1, k) and a.num_threads == 1 and (a.bits_a, a.bits_c) == (bits, 32)
    assert [a.layout_a(0, v) for v in range(k)] == list(range(k)) == [a.layout_b(0, v) for v in range(k)]
    assert a.layout_c.size == 1 and a.layout_c(0, 0) == 0


@pytest.mark.parametrize("cplx,real", [("SM80_8x8x4_C64C64C64C64_TN", "SM80_8x8x4_F64F64F64F64_TN"),
                                       ("SM80_8x8x4_GC64C64C64GC64_TN", "SM80_8x8x4_F64F64F64F64_TN")]
                         + [(f"SM90_16x8x{k}_C64C64C64C64_TN", f"SM90_16x8x{k}_F64F64F64F64_TN") for k in (4, 8, 16)])
def test_complex_atoms_inherit_the_f64_traits(cplx, real):
    """The C64 traits derive from the F64 ones (``: MMA_Traits<..F64..>``): same layouts, complex<double> values."""
    c, r = mma_atom(cplx), mma_atom(real)
    assert (c.shape_mnk, c.thr_id, c.layout_a, c.layout_b, c.layout_c) == (
        r.shape_mnk, r.thr_id, r.layout_a, r.layout_b, r.layout_c)
    assert (c.bits_a, c.bits_b) == (128, 128) and c.bits_c == (192 if "GC64" in cplx else 128)
