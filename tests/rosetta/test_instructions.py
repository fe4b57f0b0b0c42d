"""The instruction table: every system's fragment against the ISA's own figure, and the verdict matrix.

The ISA formulas below are transcribed from the PTX ISA ("Matrix Fragments for mma.m16n8k16", "Register
Fragments for wgmma .m64nNk16") and AMD's CDNA ISA (the MFMA 32x32 / 16x16 accumulator layout), independently of
every system the table reads.
"""

import numpy as np
import pytest

from unilayout import rosetta


def _ptx_m16n8_c():
    lane, i = np.meshgrid(np.arange(32), np.arange(4), indexing="ij")
    return np.stack([lane // 4 + 8 * (i // 2), 2 * (lane % 4) + i % 2], axis=-1)


def _ptx_m16n8k16_a():  # a0..a7: rows groupID (+8), cols 2*tid_in_group + (0,1) (+8)
    lane, i = np.meshgrid(np.arange(32), np.arange(8), indexing="ij")
    row = lane // 4 + 8 * ((i // 2) % 2)
    col = 2 * (lane % 4) + i % 2 + 8 * (i // 4)
    return np.stack([row, col], axis=-1)


def _ptx_wgmma_c(n):
    t, i = np.meshgrid(np.arange(128), np.arange(n // 2), indexing="ij")
    warp, lane = t // 32, t % 32
    row = 16 * warp + lane // 4 + 8 * ((i // 2) % 2)
    col = 2 * (lane % 4) + i % 2 + 8 * (i // 4)
    return np.stack([row, col], axis=-1)


def _cdna_mfma_c(m):  # lane l: column l % m; each group of 4 registers covers 4 rows, groups 8 (32x32) apart
    lanes, regs = 64, m * m // 64
    lane, i = np.meshgrid(np.arange(lanes), np.arange(regs), indexing="ij")
    per = 64 // m
    row = (i // 4) * 4 * per + 4 * (lane // m) + i % 4
    return np.stack([row, lane % m], axis=-1)


@pytest.mark.parametrize("system", ["cute", "triton", "tensor-layouts", "tilelang", "tirx"])
def test_mma_m16n8k16_fragments_are_the_ptx_figures(system):
    f = rosetta.fragments("mma.sync.m16n8k16.f32.f16")[system]
    assert np.array_equal(f["C"].coords, _ptx_m16n8_c())
    assert np.array_equal(f["A"].coords, _ptx_m16n8k16_a())


@pytest.mark.parametrize("n", [8, 64, 256])
def test_wgmma_accumulators_are_the_ptx_figure(n):
    for system, ops in rosetta.fragments(f"wgmma.m64n{n}k16.f32.f16").items():
        assert np.array_equal(ops["C"].coords, _ptx_wgmma_c(n)), system


@pytest.mark.parametrize("m", [32, 16])
def test_mfma_accumulators(m):
    name = {32: "mfma.32x32x8.f16", 16: "mfma.16x16x16.f16"}[m]
    f = rosetta.fragments(name)
    assert np.array_equal(f["triton"]["C"].coords, _cdna_mfma_c(m))
    if "tensor-layouts" in f:  # tensor-layouts 0.3.2 orders the wavefront's lanes otherwise: the table says where
        (row,) = [r for r in rosetta.table(name) if r.system == "tensor-layouts"]
        assert row.verdict == "different" and "thread" in row.detail


def test_the_matrix_covers_the_issue_and_every_cell_is_decided():
    names = rosetta.instruction_names()
    assert len(names) >= 40
    assert {"mma.sync.m16n8k16.f32.f16", "wgmma.m64n128k16.f32.f16", "mfma.32x32x8.f16"} <= set(names)
    rows = rosetta.matrix()
    assert not [r for r in rows if r.verdict == "error"]
    assert {r.system for r in rows} >= {"cute", "triton", "tensor-layouts"}
    for name in names:  # one reference per operand, and it is that instruction's reference system
        refs = [r for r in rosetta.table(name) if r.verdict == "reference"]
        assert len({r.operand for r in refs}) == len(refs) >= 1


def test_unknown_instruction_is_a_clear_error():
    from unilayout import LayoutError

    with pytest.raises(LayoutError, match="unknown instruction 'mma.sync.m99'"):
        rosetta.table("mma.sync.m99")


def test_ldmatrix_x4_register_bits_are_the_ptx_figure():
    # thread t receives, of matrix j, row t // 4 and the two 16-bit columns 2 * (t % 4) + e of a 32x8 stacked tile
    t, v = np.meshgrid(np.arange(32), np.arange(128), indexing="ij")
    j, b = v // 32, v % 32
    bit = ((8 * j + t // 4) * 8 + 2 * (t % 4) + b // 16) * 16 + b % 16
    for system, ops in rosetta.fragments("ldmatrix.x4").items():
        assert np.array_equal(ops["D"].coords[..., 0], bit), system


def test_copy_names_follow_ptx():
    from unilayout.rosetta.instructions import _copy_name

    assert _copy_name("SM75_U16x8_LDSM_T") == "ldmatrix.x4.trans"
    assert _copy_name("SM90_U32x2_STSM_N") == "stmatrix.x2"
    assert _copy_name("SM100_TMEM_LOAD_32dp32b4x") == "tcgen05.ld.32x32b.x4"
    assert _copy_name("SM100_TMEM_STORE_16dp32b2x_16b") == "tcgen05.st.16x32bx2.x2.pack16b"
    assert _copy_name("SM100_TMEM_LOAD_16dp256b1x") == "tcgen05.ld.16x256b.x1"


def test_tilelang_and_mosaic_spell_the_same_fragments_as_cute():
    rows = [r for r in rosetta.table("mma.sync.m16n8k16.f32.f16") if r.system == "tilelang"]
    assert [(r.operand, r.verdict) for r in rows] == [("A", "same"), ("B", "same"), ("C", "same")]
    f = rosetta.fragments("mma.sync.m16n8k16.f32.f16")["tilelang"]
    assert np.array_equal(f["C"].coords, _ptx_m16n8_c()) and np.array_equal(f["A"].coords, _ptx_m16n8k16_a())
    for n in (8, 96, 256):  # Mosaic's WGMMA accumulator is the PTX figure, for N not a power of two too
        assert np.array_equal(rosetta.fragments(f"wgmma.m64n{n}k16.f32.f16")["mosaic"]["C"].coords, _ptx_wgmma_c(n))


def _rdna_c(version):  # RDNA3 ISA: VGPR v holds row 2v (lanes 0-15) / 2v+1 (16-31); RDNA4/gfx1250: rows v / v+8
    lane, v = np.meshgrid(np.arange(32), np.arange(8), indexing="ij")
    row = 2 * v + lane // 16 if version == 1 else v + 8 * (lane // 16)
    return np.stack([row, lane % 16], axis=-1)


def _rdna_a(version, k):  # A (M x K): lane % 16 is the row; RDNA3 replicates K in both half-waves
    lane, v = np.meshgrid(np.arange(32), np.arange(16), indexing="ij")
    if version == 1:
        col = v
    elif k == 16:
        col = 8 * (lane // 16) + v % 8
    else:  # gfx1250 16x16x32: K 0-7 | 8-15 in VGPRs 0-3, K 16-23 | 24-31 in VGPRs 4-7
        col = 8 * (lane // 16) + v % 8 + 16 * (v // 8)
    return np.stack([lane % 16, col], axis=-1)[:, : (16 if version == 1 else k // 2)]


@pytest.mark.parametrize("name,version,k", [("wmma.16x16x16.f16.gfx11", 1, 16), ("wmma.16x16x16.bf16.gfx12", 2, 16),
                                            ("wmma.16x16x32.f16.gfx1250", 3, 32)])
def test_wmma_fragments_are_the_rdna_figures(name, version, k):
    f = rosetta.fragments(name)["triton"]
    assert np.array_equal(f["C"].coords, _rdna_c(version))
    assert np.array_equal(f["A"].coords, _rdna_a(version, k))
    assert np.array_equal(f["B"].coords, _rdna_a(version, k)[..., ::-1])  # B (K x N): lane % 16 is the column


def test_tensor_layouts_wmma_atoms_are_rdna4_with_their_own_thread_order():
    # its RDNA3 accumulator is RDNA4's (rows v / v + 8), with lane l as thread 2 * (l % 16) + l // 16
    f = rosetta.fragments("wmma.16x16x16.f16.gfx11")
    if "tensor-layouts" not in f:
        pytest.skip("tensor-layouts is not installed")
    lane = np.arange(32)
    theirs = f["tensor-layouts"]["C"].coords[2 * (lane % 16) + lane // 16]
    assert np.array_equal(theirs, _rdna_c(2)) and not np.array_equal(theirs, _rdna_c(1))
    assert {r.verdict for r in rosetta.table("wmma.16x16x16.f16.gfx11") if r.system == "tensor-layouts"} == {
        "different"}


def test_dpas_accumulator_is_the_igc_figure():
    # IGC's DPAS: the destination is repeat-count rows of exec-size lanes; lane t holds column t, register v row v
    if not any(n.startswith("dpas") for n in rosetta.instruction_names()):
        pytest.skip("tensor-layouts is not installed")
    for name, lanes in (("dpas.8x8.f32.f16.simd8", 8), ("dpas.8x8.f32.bf16.simd16", 16)):
        t, v = np.meshgrid(np.arange(lanes), np.arange(8), indexing="ij")
        assert np.array_equal(rosetta.fragments(name)["tensor-layouts"]["C"].coords, np.stack([v, t], axis=-1))


def _linear_helpers():
    import importlib.util
    import pathlib
    import sys

    if "linear_helpers" not in sys.modules:
        path = pathlib.Path(__file__).parents[1] / "linear" / "_helpers.py"
        spec = importlib.util.spec_from_file_location("linear_helpers", path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules["linear_helpers"] = mod
        spec.loader.exec_module(mod)
    return sys.modules["linear_helpers"]


def test_the_amd_spellings_are_what_triton_itself_builds_from_their_text():
    from unilayout.linear import LinearLayout

    rows = [r for n in rosetta.instruction_names() if n.startswith(("mfma", "wmma")) for r in rosetta.table(n)
            if r.system == "triton"]
    shapes = [[int(x) for x in r.spelling.split("<", 1)[1].split("x")[:2]] for r in rows]
    # the oracle's module makes ``dense<0>`` constants: integer elements of the same width (the layouts do not
    # depend on the element type)
    texts = [r.spelling.replace("xf32,", "xi32,").replace("xbf16,", "xi16,").replace("xf16,", "xi16,") for r in rows]
    cases = [{"type": t, "shape": s, "warps": 1, "lanes": 64 if r.instruction.startswith("mfma") else 32}
             for r, t, s in zip(rows, texts, shapes)]
    answers = _linear_helpers().triton_mlir_layouts(cases)
    for r, s, a in zip(rows, shapes, answers):
        assert "error" not in a, (r.spelling, a)
        bases = {k: a[k] for k in ("register", "lane", "warp")}
        L = LinearLayout(bases, {"dim0": s[0], "dim1": s[1]})
        theirs = rosetta.from_linear(L, threads=64 if r.instruction.startswith("mfma") else 32)
        ours = rosetta.fragments(r.instruction)["triton"][r.operand]
        assert np.array_equal(theirs.coords, ours.coords), (r.instruction, r.operand)
