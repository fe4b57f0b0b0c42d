"""Encodings: the seed's and reference's examples, and differential tests against
Triton's own conversion (Gluon's to_linear_layout) on random parameters."""

import itertools
import random

import linear_helpers as H
import pytest

import unilayout
from unilayout import LayoutError, NotRepresentableError
from unilayout.linear import encodings as E


def test_seed_mfma_example_prints_exactly():
    L = E.amd_mfma([32, 64], version=3, instr_shape=[16, 16, 16], is_transposed=False, warps_per_cta=[2, 2])
    assert str(L) == (
        "\n - register=1 -> (1, 0)\n   register=2 -> (2, 0)\n   register=4 -> (0, 32)\n"
        " - lane=1 -> (0, 1)\n   lane=2 -> (0, 2)\n   lane=4 -> (0, 4)\n   lane=8 -> (0, 8)\n"
        "   lane=16 -> (4, 0)\n   lane=32 -> (8, 0)\n"
        " - warp=1 -> (0, 16)\n   warp=2 -> (16, 0)\n"
        " - block is a size 1 dimension\n"
        "where out dims are: [dim0 (size 32), dim1 (size 64)]"
    )


def test_reference_examples():
    assert E.blocked([32, 32], [2, 2], [4, 8], [2, 2], [1, 0]).bases == [
        ("register", [[0, 1], [1, 0], [16, 0]]),
        ("lane", [[0, 2], [0, 4], [0, 8], [2, 0], [4, 0]]),
        ("warp", [[0, 16], [8, 0]]),
        ("block", []),
    ]
    assert E.nvidia_mma([64, 16], [2, 0], [4, 1], [16, 8]).bases == [
        ("register", [[0, 1], [8, 0], [0, 8]]),
        ("lane", [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]),
        ("warp", [[16, 0], [32, 0]]),
        ("block", []),
    ]
    assert E.swizzled_shared([4, 8], 1, 1, 4, [1, 0]).bases == [
        ("offset", [[0, 1], [0, 2], [0, 4], [1, 1], [2, 2]]),
        ("block", []),
    ]


def test_out_sizes_are_the_shape_and_layouts_are_surjective():
    L = E.blocked([4, 8], [2, 2], [4, 8], [2, 2], [1, 0])
    assert L.out_dims == [("dim0", 4), ("dim1", 8)] and L.is_surjective()
    assert L.get_basis("warp", 0) == (0, 0)  # surplus warps broadcast


def test_wmma_warps_per_cta_is_warp_bases_n_first():
    a = E.amd_wmma([64, 64], 2, False, warps_per_cta=[2, 2])
    b = E.amd_wmma([64, 64], 2, False, warp_bases=[[0, 1], [1, 0]])
    assert a == b and a.get_basis("warp", 0) == (0, 16)
    with pytest.raises(LayoutError, match="not both"):
        E.amd_wmma([64, 64], 2, False, warp_bases=[[0, 1]], warps_per_cta=[1, 2])
    with pytest.raises(LayoutError, match="distinct tile steps"):
        E.amd_wmma([64, 64], 2, False, warp_bases=[[0, 1], [0, 1]])
    with pytest.raises(LayoutError, match="distinct tile steps"):
        E.amd_wmma([64, 64], 2, False, warp_bases=[[1, 1]])


def test_bad_parameters_raise():
    with pytest.raises(LayoutError, match="not a power of two"):
        E.blocked([32, 32], [3, 1], [4, 8], [2, 2], [1, 0])
    with pytest.raises(LayoutError, match="rank 2"):
        E.blocked([32, 32], [1], [4, 8], [2, 2], [1, 0])
    with pytest.raises(LayoutError, match="permutation"):
        E.blocked([32, 32], [1, 1], [4, 8], [2, 2], [1, 1])
    with pytest.raises(LayoutError, match="32x32, 16x16, 4x64 or 64x4"):
        E.amd_mfma([32, 32], 3, [4, 4, 4], False, [1, 1])
    with pytest.raises(LayoutError, match="element_bitwidth 16"):
        E.amd_mfma([32, 32], 3, [16, 16, 4], False, [1, 1], element_bitwidth=16)
    with pytest.raises(LayoutError, match="must be transposed"):
        E.amd_mfma([64, 64], 3, [64, 4, 4], False, [1, 1])
    with pytest.raises(LayoutError, match="MFMA version 7"):
        E.amd_mfma([32, 32], 7, [16, 16, 16], False, [1, 1])
    with pytest.raises(LayoutError, match="rank 2"):
        E.nvidia_mma([2, 64, 64], 3, [1, 4, 1], [16, 64, 16])
    with pytest.raises(LayoutError, match="version 4"):
        E.nvidia_mma([32, 32], 4, [1, 1], [16, 8])
    with pytest.raises(LayoutError, match="shared memory"):
        E.dot_operand([32, 32], 1, E.NvidiaMma(3, [4, 1], [16, 64, 16]), 2)
    with pytest.raises(LayoutError, match="the parent must be a blocked, NVIDIA MMA, AMD MFMA or AMD WMMA layout"):
        E.dot_operand([32, 32], 0, E.Slice(0, E.Blocked([1, 1, 1], [4, 8, 1], [1, 1, 1], [2, 1, 0])), 4)
    with pytest.raises(LayoutError, match="parent must be an encoding"):
        E.slice_layout([32], 0, "blocked")
    with pytest.raises(NotRepresentableError, match="not linear"):
        E.PaddedShared([[32, 4]], [1, 0]).to_linear([8, 8])
    with pytest.raises(LayoutError, match="shape"):
        E.blocked([], [], [], [], [])
    with pytest.raises(LayoutError, match="not a permutation"):
        E.blocked([64, 64], [1, 1], [4, 8], [1, 1], [1, 0], cga_layout=[[1, 1]])
    with pytest.raises(LayoutError, match="every CTA tile"):
        E.blocked([64, 64], [1, 1], [4, 8], [1, 1], [1, 0], cga_layout=[[2, 0]])




def test_encodings_match_triton_conversion():
    rng = random.Random(31)
    cases, mine = [], []
    for kind in H.LINEAR_KINDS:
        for _ in range(H.per_kind(60)):
            text, enc, shape = H.random_case(rng, kind)
            cases.append({"layout": text, "shape": shape})
            mine.append(enc.to_linear(shape))
    got = H.triton_encoding_oracle(cases)
    for case, L, want in zip(cases, mine, got):
        if "error" in want and "DotOperandLayout" in case["layout"] and "AMD" in case["layout"]:
            continue  # Gluon's own kWidth rules for AMD operands, stricter than the conversion needs
        assert "error" not in want, (case, want)
        assert {n: b for n, b in L.bases} == want, case
        assert L.out_dims == [(f"dim{i}", s) for i, s in enumerate(case["shape"])]


def test_seed_simplified_mfma_tile_is_the_real_tile():
    from unilayout.linear import identity_1d

    simple = (identity_1d(4, "register", "dim0") * identity_1d(16, "lane", "dim1")
              * identity_1d(64 // 16, "lane", "dim0"))
    mfma = E.amd_mfma([16, 16], 3, [16, 16, 16], False, [1, 1])
    assert mfma.sublayout(["register", "lane"], ["dim0", "dim1"]) == simple


def test_tensor_memory_register_layouts_match_triton():
    """Every message, 8/16/32-bit elements, colStride 1/2/4, tiles down to one column: the same
    layout as Triton's ``compute_tmem_reg_layout``, or an error where Triton has none."""
    rng = random.Random(17)
    cases = []
    for _ in range(H.per_kind(150)):
        bm, bn, cs = rng.choice([64, 128]), 1 << rng.randint(0, 8), rng.choice([1, 1, 2, 4])
        bits = rng.choice([8, 16, 32]) if cs == 1 else (16 if cs == 2 else 8)
        shape = [max(1 << rng.randint(6, 8), bm), 1 << rng.randint(0, 8)]
        cases.append({"block": [bm, bn], "cs": cs, "shape": shape, "warps": rng.choice([4, 4, 8, 16]), "bits": bits,
                      "variant": rng.choice(["32x32b", "32x32b", "16x64b", "16x128b", "16x256b"])})
    got = H.triton_tmem_reg_oracle(cases)
    checked = narrow = implicit = 0
    for case, want in zip(cases, got):
        enc = E.TensorMemory(*case["block"], case["cs"])
        if "error" in want:  # Triton has no such layout (the message does not fit the tile)
            with pytest.raises(LayoutError):
                enc.reg_layout(case["shape"], case["warps"], case["variant"], element_bitwidth=case["bits"])
            continue
        L = enc.reg_layout(case["shape"], case["warps"], case["variant"], element_bitwidth=case["bits"])
        assert {n: b for n, b in L.bases if n != "block"} == want, case
        checked += 1
        narrow += min(case["block"][1], case["shape"][1]) < 8
        # the implicit 16x32bx2 message: 32x32b on 64 rows, lane 16 reads the upper half of the columns
        implicit += case["variant"] == "32x32b" and want["lane"][-1][0] == 0
    assert checked > len(cases) // 2 and narrow > 5 and implicit > 5, (checked, narrow, implicit)


def test_tensor_memory_register_layout_refusals():
    with pytest.raises(LayoutError, match="16x32bx2 message is inferred"):
        E.TensorMemory(128, 64).reg_layout([128, 64], instr_variant="16x32bx2")
    with pytest.raises(LayoutError, match="unknown tensor memory message"):
        E.TensorMemory(128, 64).reg_layout([128, 64], instr_variant="16x512b")
    with pytest.raises(LayoutError, match="does not fit"):  # 16x256b needs 8 columns
        E.TensorMemory(128, 4).reg_layout([128, 4], instr_variant="16x256b")
    with pytest.raises(LayoutError, match="at least 4"):
        E.TensorMemory(128, 64).reg_layout([128, 64], num_warps=2)


def test_padded_shared_address_map_table_and_affine_agree():
    import numpy as np

    rng = random.Random(23)
    for _ in range(40):
        rank = rng.choice([1, 2, 2, 3])
        shape = [1 << rng.randint(0, 4) for _ in range(rank)]
        order = list(range(rank))
        rng.shuffle(order)
        pairs = [[i, 1 << rng.randint(0, 3)] for i in rng.sample([2, 4, 8, 16, 32], rng.randint(1, 2))]
        P = E.PaddedShared(pairs, order, shape=shape)
        table = P.address_table(shape)
        # by hand: the row-major offset in `order` (order[0] fastest), padded
        want = np.zeros(shape, dtype=np.int64)
        for idx in np.ndindex(*shape):
            o, stride = 0, 1
            for d in order:
                o += idx[d] * stride
                stride *= shape[d]
            want[idx] = o + sum((o // i) * p for i, p in pairs)
        assert (table == want).all(), (pairs, order, shape)
        got = P.address_map(shape).index_map(tuple(shape)).reshape(shape)
        assert (got == want).all(), (pairs, order, shape)
        n = int(np.prod(shape))
        assert P.to_affine().index_map((n,)).reshape(-1).tolist() == P.pad(np.arange(n)).tolist()
    with pytest.raises(NotRepresentableError, match="swizzle"):
        E.PaddedShared([[4, 1]], offset_bases=[[0, 1], [1, 1]], block_bases=[]).address_map()


def test_nvmma_default_swizzle_matches_gluon():
    rng = random.Random(29)
    cases = []
    for _ in range(H.per_kind(120)):
        rank = rng.choice([1, 2, 2, 3])
        shape = [1 << rng.randint(0, 8) for _ in range(rank)]
        bits = rng.choice([8, 16, 32])
        cga = None
        d = rng.randrange(rank)
        if rng.random() < 0.2 and shape[d] > 1:
            cga = [[1 if j == d else 0 for j in range(rank)]]
        cases.append({"shape": shape, "bits": bits, "transposed": rng.random() < 0.3,
                      "fp4": bits == 8 and rng.random() < 0.3, "cga": cga})
    got = H.triton_default_swizzle_oracle(cases)
    checked = 0
    for case, want in zip(cases, got):
        if isinstance(want, dict):  # Gluon's own assertion (fp4 padding needs the 128-byte swizzle)
            assert case["fp4"], (case, want)
            continue
        checked += 1
        enc = E.NvmmaShared.default_for(case["shape"], case["bits"], case["transposed"], case["fp4"], case["cga"])
        mine = [enc.swizzle_byte_width, enc.element_bitwidth, enc.rank if enc.rank is not None else
                (len(case["cga"][0]) if case["cga"] else 2), enc.transposed, enc.fp4_padded]
        assert mine == want, case
    assert checked > len(cases) // 2


def test_a_new_encoding_is_one_class():
    """The recipe of a new Triton encoding: one class declaring MNEMONIC and FIELDS; str() prints it, both
    readers (fast and positioned) read it back with positioned errors, and a #ttg.dot_op of it asks it."""
    from dataclasses import dataclass

    from unilayout import ParseError
    from unilayout.linear import identity_1d
    from unilayout.linear.encodings import Field, _Encoding
    from unilayout.linear.text import attr, fast, module

    @dataclass(frozen=True)
    class Toy(_Encoding):
        size: int
        flip: bool = False
        MNEMONIC = "ttg.toy_encoding"
        FIELDS = (Field("size", "size", "int"), Field("flip", "flip", "bool", False, False, show=lambda v: v is True))

        def to_linear(self, shape=None):
            return identity_1d(self.size, "register", "dim0")

        @staticmethod
        def _dot_linear(dot, shape):
            return identity_1d(shape[0], "register", "dim0")

    try:
        enc = Toy(4, True)
        assert str(enc) == "#ttg.toy_encoding<{size = 4, flip = true}>" and str(Toy(2)) == "#ttg.toy_encoding<{size = 2}>"
        assert fast._fast_parse(str(enc), None) == enc == module.parse(str(enc)) == E.parse(str(enc))
        assert E.parse("#ttg.toy_encoding<{ size = 8 }>").to_linear() == identity_1d(8, "register", "dim0")
        with pytest.raises(ParseError, match="needs the field 'size' at position 31"):
            E.parse("#ttg.toy_encoding<{flip = true}>")
        dot = E.parse("#ttg.dot_op<{opIdx = 0, parent = #ttg.toy_encoding<{size = 2}>}>")
        assert dot.parent == Toy(2) and dot.to_linear([4]) == identity_1d(4, "register", "dim0")
    finally:
        del attr.KINDS["ttg.toy_encoding"]
        E.clear_caches()


def test_every_encoding_is_registered_for_the_readers():
    from unilayout.linear.text.attr import KINDS

    classes = [getattr(E, n) for n in E.__all__ if isinstance(getattr(E, n), type)]
    assert sorted(KINDS.values(), key=lambda c: c.__name__) == sorted(classes, key=lambda c: c.__name__)
    assert all(KINDS[c.MNEMONIC] is c for c in classes)


# A real text from Triton's lit tests (test/Conversion/tritongpu_to_llvm.mlir, the FMA dot), read as Triton reads it.
_FMA_LIT = """#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [1, 4], order = [1, 0]}>
#dot_operand_a = #ttg.dot_op<{opIdx=0, parent=#blocked}>
tensor<16x16xf32, #dot_operand_a>"""


def test_dot_operand_of_a_blocked_parent_is_tritons_fma_layout():
    rng = random.Random(123)
    cases = [{"layout": "G.DotOperandLayout(0, G.BlockedLayout([1, 4], [2, 16], [1, 4], [1, 0]), 0)",
              "shape": [16, 16], "type": "dist", "linear": True, "elem": "f32"}]
    for _ in range(24):
        rank = rng.choice([2, 3])
        shape = [H._p2(rng, 0, 6) for _ in range(rank)]
        order = list(range(rank))
        rng.shuffle(order)
        spt = [H._p2(rng, 0, 2) for _ in range(rank)]
        blocked = f"G.BlockedLayout({spt}, {H._split(rng, 5, rank)}, {H._split(rng, rng.randint(0, 2), rank)}, {order})"
        cases.append({"layout": f"G.DotOperandLayout({rng.randint(0, 1)}, {blocked}, 0)", "shape": shape,
                      "type": "dist", "linear": True, "elem": "f32"})
    got = H.triton_text_oracle(cases)
    assert all("error" not in g for g in got), got
    for case, want in zip(cases, got):
        assert "#ttg.blocked" in want["text"] and "#ttg.dot_op" in want["text"]
        assert dict(unilayout.parse(want["text"]).bases) == want["bases"], (case, want)
    assert dict(unilayout.parse(_FMA_LIT).bases) == got[0]["bases"]


def test_linear_encoding_on_another_shape_is_fitted_as_triton_fits_it():
    rng = random.Random(5)
    cases = [  # texts from Triton's lit tests (test/TritonGPU/*.mlir), then random layouts on random shapes
        {"type": "tensor<1024x1xi32, #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], lane = "
                 "[[1, 0], [2, 0], [4, 0], [8, 0], [0, 32]], warp = [[16, 0], [32, 0]], block = []}>>",
         "shape": [1024, 1], "warps": 4, "lanes": 32},
        {"type": "tensor<256xi32, #ttg.linear<{register = [[1]], lane = [[0], [0], [0], [0], [0]], warp = [], "
                 "block = [[0]]}>>", "shape": [256], "warps": 1, "lanes": 32, "ctas": 2},
    ]
    for _ in range(30):
        rank = rng.choice([1, 2, 2, 3])
        own = [H._p2(rng, 0, 6) for _ in range(rank)]
        shape = [H._p2(rng, 0, 7) for _ in range(rank)]
        order = list(range(rank))
        rng.shuffle(order)
        L = E.blocked(own, [H._p2(rng, 0, 2) for _ in range(rank)], H._split(rng, 5, rank),
                      H._split(rng, rng.randint(0, 2), rank), order)
        cases.append({"type": f"tensor<{'x'.join(map(str, shape))}xi32, {L.to_attr()}>", "shape": shape,
                      "warps": 2 ** len(dict(L.bases)["warp"]), "lanes": 32})
    got = H.triton_mlir_layouts(cases)
    assert sum("error" in g for g in got) == 0, got
    for case, want in zip(cases, got):
        assert dict(unilayout.parse(case["type"]).bases) == want, case


@pytest.mark.parametrize("shape", [[3, 4], [4]])
def test_linear_encoding_refuses_shapes_triton_cannot_fit(shape):
    enc = E.LinearEncoding(E.blocked([4, 4], [1, 1], [4, 8], [1, 1], [1, 0]))
    with pytest.raises(LayoutError):
        enc.to_linear(shape)


@pytest.mark.parametrize("text, shape, warps", [  # texts from Triton's lit tests, fields Triton's parser defaults
    ("tensor<16x16xi32, #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>>", [16, 16], 1),
    ("tensor<32x16xi32, #ttg.dot_op<{opIdx=0, parent=#ttg.nvidia_mma<{versionMajor=2, warpsPerCTA=[2, 2], "
     "instrShape = [16, 8]}>, kWidth=1}>>", [32, 16], 4),
    ("tensor<16x16xi32, #ttg.amd_wmma<{version = 1, ctaLayout = {register = [], warp = []}}>>", [16, 16], 1),
    ("tensor<16x16xi32, #ttg.amd_wmma<{version = 2, ctaLayout = {warp = []}}>>", [16, 16], 1),
    ("tensor<32x4xi32, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_wmma<{version = 3, ctaLayout = {warp = []}, "
     "instrShape = [16, 16, 32]}>, kWidth = 8}>>", [32, 4], 1),
])
def test_fields_triton_defaults_may_be_left_out(text, shape, warps):
    (want,) = H.triton_mlir_layouts([{"type": text, "shape": shape, "warps": warps, "lanes": 32}])
    assert "error" not in want, want
    assert dict(unilayout.parse(text).bases) == want


def test_mma_v2_dot_operand_a_tile_follows_the_instruction_m():
    # lit-test texts (test/Conversion/tritongpu_to_llvm.mlir use instrShape = [8, 8] with kWidth = 1), then a grid
    cases = []
    for instr in ([16, 8], [8, 8], [16, 16]):
        for op, kw, shape, wpc in itertools.product([0, 1], [1, 2], [[128, 32], [16, 16], [64, 64]],
                                                    [[2, 4], [1, 1], [4, 1]]):
            text = (f"tensor<{shape[0]}x{shape[1]}xi32, #ttg.dot_op<{{opIdx = {op}, parent = #ttg.nvidia_mma<{{"
                    f"versionMajor = 2, versionMinor = 0, warpsPerCTA = {wpc}, instrShape = {instr}}}>, "
                    f"kWidth = {kw}}}>>")
            cases.append({"type": text, "shape": shape, "warps": wpc[0] * wpc[1], "lanes": 32})
    got = H.triton_mlir_layouts(cases)
    assert sum("error" in g for g in got) == 0
    for case, want in zip(cases, got):
        assert dict(unilayout.parse(case["type"]).bases) == want, case["type"]


def test_tensor_memory_layouts_have_tritons_in_dims_row_and_col():
    # issue 23: one CTA's tensor memory layout has exactly Triton's in-dims (Gluon's to_linear_layout: rows, cols);
    # a CGA split over CTAs adds the block in-dim
    import unilayout

    L = unilayout.parse("!ttg.memdesc<128x64xf32, #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, "
                        "colStride = 1>, #ttng.tensor_memory, mutable>")
    assert [n for n, _ in L.in_dims] == ["row", "col"]
    pytest.importorskip("triton")
    import json
    import subprocess
    import sys

    code = ("import json; from triton._C.libtriton import ir, gluon_ir; "
            "import triton.experimental.gluon.language.nvidia.blackwell as BW; "
            "ctx = ir.context(); ir.load_dialects(ctx); b = gluon_ir.GluonOpBuilder(ctx); "
            "r = b.to_linear_layout(BW.TensorMemoryLayout(block=(128, 64), col_stride=1)._to_ir(b), [128, 64]); "
            "print(json.dumps({'rows': r.rows, 'cols': r.cols}))")
    got = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                                    timeout=120).stdout.strip().splitlines()[-1])
    assert dict(L.bases)["row"] == got["rows"] and dict(L.bases)["col"] == got["cols"]


@pytest.mark.parametrize("text", [
    "!ttg.memdesc<1x128xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, "
    "#ttg.shared_memory>",
    "!ttg.memdesc<32x4xf32, #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 32}>, "
    "#ttg.shared_memory>",
])
def test_nvmma_shared_smaller_than_a_core_matrix_reads_but_has_no_linear_layout(text):
    """Triton 3.9 parses such a memdesc type and then aborts in toLinearLayout (tests/corpus records it): the
    text is not malformed, so unilayout says the layout is not representable rather than a ParseError."""
    with pytest.raises(NotRepresentableError, match="core matrix") as info:
        unilayout.parse(text)
    assert not isinstance(info.value, unilayout.ParseError)


def test_mma_v2_m8_dot_operand_has_a_k_tile_of_4_k_width():
    # Triton's nvidiaDotToLinearLayout: instrShape M 8 (m8n8k4) tiles K by 4·kWidth, so K = 4 (or 1) with kWidth 1
    # keeps no register basis past K (the lit test's tensor<8x4xi32, #ttg.dot_op<... instrShape = [8, 8]>, kWidth=1>)
    cases = []
    for op, kw, shape in [(0, 1, [8, 4]), (0, 1, [16, 1]), (0, 1, [32, 1]), (0, 2, [16, 8]), (0, 1, [1, 128]),
                          (1, 1, [4, 8]), (1, 2, [8, 16]), (1, 1, [1, 32]), (1, 2, [64, 8])]:
        text = (f"tensor<{shape[0]}x{shape[1]}xi32, #ttg.dot_op<{{opIdx = {op}, parent = #ttg.nvidia_mma<{{"
                f"versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [8, 8]}}>, kWidth = {kw}}}>>")
        cases.append({"type": text, "shape": shape, "warps": 4, "lanes": 32})
    L = unilayout.parse(cases[0]["type"])
    assert dict(L.bases)["register"] == []  # one register: 4 lanes cover K = 4
    got = H.triton_mlir_layouts(cases)
    assert sum("error" in g for g in got) == 0, got
    for case, want in zip(cases, got):
        assert dict(unilayout.parse(case["type"]).bases) == want, case["type"]


def test_a_one_warp_amd_wmma_prints_as_triton_prints_and_reads_both_spellings():
    # Triton 3.9 prints ctaLayout = {} for one warp, yet its own parser wants {warp = []}: print as Triton prints
    one = E.AmdWmma(2, False, [])
    assert "ctaLayout = {}" in str(one)
    assert E.parse(str(one)) == one
    assert E.parse(str(one).replace("ctaLayout = {}", "ctaLayout = {warp = []}")) == one
