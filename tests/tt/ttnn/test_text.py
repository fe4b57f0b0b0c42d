"""tt.ttnn.text: TTNN's printed layouts and memory configs, from tt-mlir lit tests, read and printed back."""

import numpy as np
import pytest

import unilayout
from unilayout import tt
from unilayout.errors import ParseError
from unilayout.tt import CoreRange, ShardSpec
from unilayout.tt.ttnn.layout import TTNNTensorLayout
from unilayout.tt.ttnn.memory_config import MemoryConfig

# (tensor type as the lit tests write it, expected memref shape) -- the memref is tt-mlir's, checked against ours
LIT_TENSORS = [
    ("tensor<32x384xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x6>, memref<1x2x!ttcore.tile<32x32, bf16>, #l1>, "
     "<block_sharded>, core_ranges = #ttnn.core_range_set<[#ttnn.core_range<(0,0), (5,0)>]>>>", (1, 2)),
    ("tensor<32x32xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1, (d0, d1) -> (0, d0, d1)>, "
     "memref<1x1x!ttcore.tile<32x32, f32>, #l1>, <block_sharded>>>", (1, 1)),
    ("tensor<128x512xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<4x16x!ttcore.tile<32x32, bf16>, "
     "#dram>, <interleaved>>>", (4, 16)),
    ("tensor<32x32xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1, virt_to_physical_map = (d0, d1) -> (0, d0, d1), "
     "physical_to_virt_map = (d0, d1, d2) -> (d1, d2)>, memref<1x1x!ttcore.tile<32x32, f32>, #l1>, <block_sharded>>>",
     (1, 1)),
    ("tensor<32x8xui16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x8xui16, #l1>, <interleaved>>>", (32, 8)),
    ("tensor<12x64x64xbf16, #ttnn.ttnn_layout<(d0, d1, d2) -> (d0 * 64 + d1, d2), <1x1>, "
     "memref<24x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>>", (24, 2)),
    ("tensor<1x4xi32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x4xi32, #dram>, <interleaved>>>", (1, 4)),
    ("tensor<1x784xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, memref<1x1x!ttcore.tile<32x32, f32>, #l1>, "
     "<interleaved>>>", (1, 1)),
]


@pytest.mark.parametrize("text, memref", LIT_TENSORS)
def test_lit_ttnn_tensors_parse_check_their_memref_and_round_trip(text, memref):
    L = unilayout.parse(text)
    assert isinstance(L, TTNNTensorLayout)
    assert L.memref_shape == memref
    assert tt.parse(str(L)) == L and unilayout.parse(str(L)) == L
    # printing resolves the buffer alias; otherwise the text is the same
    canon = text.replace("#l1>", "#ttnn.buffer_type<l1>>").replace("#dram>", "#ttnn.buffer_type<dram>>")
    # core ranges print as today's tt-mlir prints them: core_ranges = <[...]>
    canon = canon.replace("core_ranges = #ttnn.core_range_set<[", "core_ranges = <[")
    if "virt_to_physical_map" not in text:
        assert str(L) == canon


def test_l1_interleaved_counts_pages_per_bank():
    # calculateLogicalShardShapeForL1Interleaved: tensor<32x2049xbf16> -> 65 tiles over 64 cores -> 1x2 tiles
    L = tt.parse("tensor<32x2049xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, "
                 "memref<1x2x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>>")
    assert L.interleaved_pages and L.memref_shape == (1, 2)
    with pytest.raises(unilayout.NotRepresentableError, match="round robin"):
        L.to_metal()
    assert L.locate(0, 2048) == ((0, 0), (0, 32))  # tile 64 = page 64: bank 64 mod 64 = core (0, 0), slot 1
    with pytest.raises(ParseError, match=r"memref 1x1 does not match 1x2 in 32x32 tiles = pages per bank"):
        tt.parse("tensor<32x2049xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, "
                 "memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>>")


MEMORY_CONFIGS = [
    ("#ttnn.memory_config<#l1, <block_sharded>, #ttnn.shard_spec<<[#ttnn.core_range<(0,0), (0,0)>]>, <32x32>, "
     "<row_major>>>", MemoryConfig("l1", "block_sharded", ShardSpec((CoreRange((0, 0), (0, 0)),), (32, 32), "ROW_MAJOR"))),
    ("#ttnn.memory_config<#dram, <width_sharded>, #ttnn.shard_spec<<[#ttnn.core_range<(0, 0), (11, 0)>]>, <32x32>, "
     "<row_major>>>", MemoryConfig("dram", "width_sharded", ShardSpec((CoreRange((0, 0), (11, 0)),), (32, 32), "ROW_MAJOR"))),
    ("#ttnn.memory_config<#l1, <block_sharded>, #ttnn.shard_spec<<[#ttnn.core_range<(0,0), (7,0)>]>, <32x32>, "
     "<row_major>, <physical>>>", MemoryConfig("l1", "block_sharded", ShardSpec((CoreRange((0, 0), (7, 0)),), (32, 32),
                                                                             "ROW_MAJOR"), "physical")),
    ("#ttnn.memory_config<#dram, <interleaved>>", MemoryConfig("dram", "interleaved")),
    ("#ttnn.memory_config<#ttnn.buffer_type<system_memory>>", MemoryConfig("system_memory")),
]


@pytest.mark.parametrize("text, value", MEMORY_CONFIGS)
def test_lit_memory_configs(text, value):
    c = unilayout.parse(text)
    assert c == value
    assert tt.parse(str(c)) == c


@pytest.mark.parametrize(
    "text, message, needle",
    [
        ("#ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <2x1>, memref<1x1xf32, #dram>, <interleaved>>",
         r"expected \(1, 1\) grid shape for dram buffer type", "<2x1>"),
        ("#ttnn.memory_config<#l1, <block_sharded>, #ttnn.shard_spec<<[#core_range]>, <32x32>, <row_major>>>",
         "alias #core_range is defined elsewhere", "#core_range"),
        ("#ttnn.memory_config<#hbm, <interleaved>>", "expected a buffer type", "#hbm"),
        ("#ttnn.memory_config<#l1, <diagonal_sharded>>", "memory layout 'diagonal_sharded' is not one of",
         "diagonal"),
        ("#ttnn.memory_config<#l1, <block_sharded>>", "needs a shard spec", "#ttnn"),
        ("tensor<32x32xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x2x!ttcore.tile<32x32, f32>, #dram>, "
         "<interleaved>>>", r"memref 1x2 does not match 1x1 in 32x32 tiles", "memref"),
        ("tensor<32x32xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x32xf32, #system_memory>, "
         "<interleaved>>>", "Memory layout is not allowed for SystemMemory", "<interleaved>>>"),
        ("tensor<32x32xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x32xbf16, #dram>, <interleaved>>>",
         "memref element type bf16 does not match the tensor's f32", "bf16, #dram"),
        ("#ttnn.shard_spec<<[#ttnn.core_range<(0,0), (0,0)>]>, <32x32>, <row_major>>", "is not read here", "#ttnn"),
    ],
)
def test_bad_ttnn_text_is_a_positioned_parse_error(text, message, needle):
    with pytest.raises(ParseError, match=message) as e:
        tt.parse(text)
    assert e.value.position == text.index(needle), text[e.value.position:]


def test_nd_shard_spec_text_alone_and_in_a_memory_config_as_tt_mlir_prints_it():
    # from tt-mlir's ttnn_nd_layout runtime test
    nd_text = "#ttnn.nd_shard_spec<<[#ttnn.core_range<(0,0), (0,0)>]>, <32x32>, <row_major>, <grid_2d>>"
    nd = tt.parse(nd_text)
    assert nd == tt.NdShardSpec((32, 32), [((0, 0), (0, 0))], "row_major", "GRID_2D")
    assert str(nd) == nd_text and unilayout.parse(str(nd)) == nd
    c = tt.parse("#ttnn.memory_config<#l1, <block_sharded>, " + nd_text + ">")
    assert c.shard_spec == nd and tt.parse(str(c)) == c
    assert c.to_metal((32, 32)) == tt.MetalLayout.from_collapse((32, 32), (1, 1))
    with pytest.raises(ParseError, match="distribution strategy 'diagonal' is not one of"):
        tt.parse(nd_text.replace("grid_2d", "diagonal"))


def test_nd_memory_config_to_metal_where_a_grid_split_is_the_same():
    rr = tt.MemoryConfig("l1", "height_sharded", tt.height_sharded((256, 64), (8, 1)))
    assert rr.to_metal((256, 64)) == tt.MetalLayout.from_collapse((256, 64), (8, 1))
    many = tt.MemoryConfig("l1", "height_sharded", tt.NdShardSpec((16, 64), (8, 1)))
    with pytest.raises(unilayout.NotRepresentableError, match="16 round-robin shards on 8 cores"):
        many.to_metal((256, 64))
    nd3 = tt.MemoryConfig("l1", "block_sharded", tt.NdShardSpec((1, 32, 32), (2, 2), distribution="GRID_2D"))
    with pytest.raises(unilayout.NotRepresentableError, match="not a 2-D grid split"):
        nd3.to_metal((2, 64, 64))


# tt-mlir's TTNNLayoutAttr::verify (TTNNOpsAttrs.cpp) and its negative lit test (ttnnlayoutattr_tests_negative.mlir)
VERIFIER_REJECTS = [
    # the lit test's text: DRAM width-sharded 1x8 without core ranges
    ("tensor<32x32xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x8>, memref<32x4xf32, #dram>, <width_sharded>>>",
     r"sharded TTNN layout \(width_sharded\) must carry a core_range_set", "<width_sharded>"),
    ("tensor<32x32xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x8>, memref<1x1x!ttcore.tile<32x32, f32>, #dram>, "
     "<width_sharded>>>", r"must carry a core_range_set", "<width_sharded>"),
    ("tensor<64x64xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <2x2>, memref<1x1x!ttcore.tile<32x32, f32>, #dram>, "
     "<block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (1, 1)>]>>>",
     "BlockSharded layout is not supported for DRAM buffer type", "<block_sharded>"),
    ("tensor<64x64xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <2x2>, memref<1x1x!ttcore.tile<32x32, f32>, #dram>, "
     "<interleaved>>>", r"expected \(1, 1\) grid shape for dram buffer type with interleaved memory layout, got \(2, 2\)",
     "<2x2>"),
    ("tensor<64x64xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <2x2>, memref<32x32xf32, #system_memory>>>",
     r"expected \(1, 1\) grid shape for system_memory buffer type, got \(2, 2\)", "<2x2>"),
    ("tensor<32x32xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, #l1>, "
     "<interleaved>, core_ranges = <[#ttnn.core_range<(0, 0), (0, 0)>]>>>",
     r"non-sharded TTNN layout must not carry a core_range_set \(got interleaved\)", "<[#ttnn.core_range"),
    # the lit test's third case: no memory layout on an L1 buffer
    ("tensor<32x32xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x32xf32, #l1>>>",
     "Memory layout is required for non-SystemMemory buffer type", "#ttnn"),
]


@pytest.mark.parametrize("text, message, needle", VERIFIER_REJECTS)
def test_what_ttnn_layout_verifier_rejects_is_a_parse_error_naming_the_rule(text, message, needle):
    with pytest.raises(ParseError, match=message) as e:
        unilayout.parse(text)
    assert e.value.position == text.index(needle), text[e.value.position:]


# Texts tt-mlir prints today, from its lit tests, with the facts tt-mlir's rules give
LIT_NEW_FORMS = [
    # d2m ttnn-mode test: DRAM height-sharded, core ranges in the printed short form; shard = ceilDiv(256, 8) rows
    ("tensor<256x32xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x1>, memref<1x1x!ttcore.tile<32x32, f32>, #dram>, "
     "<height_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 0)>]>>>", (8, 1), (32, 32), "dram"),
    # ttnn_to_ttmetal: L1 height-sharded over 32 cores, (x 0..7, y 0..3)
    ("tensor<1x1x1024x32xbf16, #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1024 + d1 * 32 + d2, d3), <32x1>, "
     "memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), "
     "(7, 3)>]>>>", (32, 1), (32, 32), "l1"),
    # a rank-1 si32 tensor: (d0) -> (0, d0), block-sharded over 8 cores, 512 / 8 = 64 columns = 2 tiles
    ("tensor<512xsi32, #ttnn.ttnn_layout<(d0) -> (0, d0), <1x8>, memref<1x2x!ttcore.tile<32x32, si32>, #l1>, "
     "<block_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (7,0)>]>>>", (1, 8), (1, 64), "l1"),
    # i32 tensor kept as TTNN's si32 in a row-major memref
    ("tensor<32x32xi32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x32xsi32, #dram>, <interleaved>>>",
     (1, 1), (32, 32), "dram"),
]


@pytest.mark.parametrize("text, grid, shard, buffer", LIT_NEW_FORMS)
def test_todays_printed_ttnn_forms_read_with_their_facts(text, grid, shard, buffer):
    L = unilayout.parse(text)
    assert (L.grid, L.shard_shape, L.buffer_type) == (grid, shard, buffer)
    assert tt.parse(str(L)) == L
    assert "core_ranges = #ttnn.core_range_set" not in str(L)


def test_core_ranges_short_form_gives_the_same_cores_as_the_set_form():
    short = ("tensor<192x32xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <6x2>, memref<1x1x!ttcore.tile<32x32, bf16>, "
             "#l1>, <height_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (1, 5)>]>>>")
    L = unilayout.parse(short)
    assert L.core_ranges == (CoreRange((0, 0), (1, 5)),)
    assert L == unilayout.parse(short.replace("core_ranges = <[", "core_ranges = #ttnn.core_range_set<["))
    assert "core_ranges = <[#ttnn.core_range<(0,0), (1,5)>]>" in str(L)


# d2m's ttnn-mode lit test: height/width sharding over a 2-D grid; the metal cast is 12x1 (1x12) shards
SHARDED_2D = [
    ("tensor<384x32xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <6x2>, memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, "
     "<height_sharded>, exactGrid = true>>", (12, 1)),
    ("tensor<384x32xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <2x6>, memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, "
     "<height_sharded>, exactGrid = true>>", (12, 1)),
    ("tensor<32x384xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <6x2>, memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, "
     "<width_sharded>, exactGrid = true>>", (1, 12)),
    ("tensor<2x384x32xbf16, #ttnn.ttnn_layout<(d0, d1, d2) -> (d0 * 384 + d1, d2), <6x2>, memref<2x1x!ttcore.tile<"
     "32x32, bf16>, #l1>, <height_sharded>>>", (12, 1)),
]


@pytest.mark.parametrize("text, virtual", SHARDED_2D)
def test_height_and_width_sharding_on_a_2d_grid_lay_shards_row_major_over_its_cores(text, virtual):
    """Shard k of the rows (columns) cut over every core lands on core (k div gx, k mod gx): a numbered array checks it."""
    L = unilayout.parse(text)
    gy, gx = L.grid
    n = gy * gx
    rows, cols = L.physical_shape
    ref = tt.MetalLayout(L.logical_shape, L.linear, virtual, "bf16", "l1", tile=(32, 32))
    assert L.shard_shape == ref.shard_shape
    a = np.arange(1, int(np.prod(L.logical_shape)) + 1, dtype=np.int64).reshape(L.logical_shape)
    s = L.shard(a)
    assert s.shape == (gy, gx) + ref.padded_shard_shape
    flat = a.reshape(rows, cols)
    for k in range(n):
        core = divmod(k, gx)
        if virtual == (n, 1):
            block = flat[k * L.shard_shape[0]:(k + 1) * L.shard_shape[0], :]
        else:
            block = flat[:, k * L.shard_shape[1]:(k + 1) * L.shard_shape[1]]
        assert np.array_equal(s[core][:block.shape[0], :block.shape[1]], block)
    assert np.array_equal(L.unshard(s), a)
    assert L.padding_summary().total == int(L.padding_mask().sum()) == s.size - a.size
    assert L.locate(*np.unravel_index(a.size - 1, a.shape)) [0] == divmod(n - 1, gx)
    cfg = L.memory_config()
    assert sum((r.end[0] - r.start[0] + 1) * (r.end[1] - r.start[1] + 1) for r in cfg.shard_spec.grid) == n


def test_height_sharding_on_a_2d_grid_checks_the_memref_against_all_its_cores():
    text = ("tensor<384x32xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <6x2>, memref<2x1x!ttcore.tile<32x32, bf16>, "
            "#l1>, <height_sharded>>>")
    with pytest.raises(ParseError, match=r"memref 2x1 does not match 1x1 .* grid 12x1\) \(height_sharded over the 6x2"):
        unilayout.parse(text)


# Bare attributes as a dump's alias lines print them (tt-mlir lit tests): the attribute alone, with its facts
LIT_ATTRIBUTES = [
    ("#ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1024 + d1 * 32 + d2, d3), <32x1>, memref<1x1x!ttcore.tile<32x32, "
     "bf16>, #l1>, <height_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 3)>]>>",
     (32, 1), (1, 1), (32, 32), "l1", "height_sharded", 32),
    ("#ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 32 + d1 * 32 + d2, d3), <1x1>, memref<1x96x!ttcore.tile<32x32, bf16>, "
     "#dram>, <interleaved>>", (1, 1), (1, 96), (32, 3072), "dram", "interleaved", 1),
    ("#ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x384xbf16, #dram>, <interleaved>>",
     (1, 1), (32, 384), (32, 384), "dram", "interleaved", 1),
    ("#ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <6x2>, memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, <width_sharded>, "
     "exactGrid = true>", (6, 2), (1, 1), (32, 32), "l1", "width_sharded", 12),
]


@pytest.mark.parametrize("text, grid, memref, shard, buffer, layout, cores", LIT_ATTRIBUTES)
def test_bare_ttnn_layout_is_a_value_with_its_facts(text, grid, memref, shard, buffer, layout, cores):
    from unilayout.tt.ttnn.attr import TTNNLayoutAttr
    from unilayout.tt.ttnn.facts import config_facts

    a = unilayout.parse(text)
    assert isinstance(a, TTNNLayoutAttr)
    assert (a.grid, a.memref_shape, a.shard_shape, a.buffer_type, a.memory_layout, a.cores) == \
        (grid, memref, shard, buffer, layout, cores)
    assert tt.parse(str(a)) == a and hash(tt.parse(str(a))) == hash(a)
    f = config_facts(a)
    assert (f["kind"], f["grid"], f["memref_shape"], f["buffer_type"], f["memory_layout"]) == \
        ("ttnn_layout", list(grid), list(memref), buffer, layout)
    full = a.to_metal()                     # the picture's layout: every core's shard full
    assert full.grid == grid and full.shard_shape == shard and full.padding_summary().total == 0
    assert unilayout.family_of(a) == "ttnn"


def test_bare_ttnn_layout_with_a_shape_is_the_tensor_layout_and_checks_the_memref():
    a = unilayout.parse("#ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x6>, memref<1x2x!ttcore.tile<32x32, bf16>, #l1>, "
                        "<block_sharded>>")
    L = a.to_metal((32, 384))
    assert L == unilayout.parse("tensor<32x384xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x6>, memref<1x2x!ttcore."
                                "tile<32x32, bf16>, #l1>, <block_sharded>>>")
    with pytest.raises(unilayout.LayoutError, match="memref 1x2 does not match 1x1 for a tensor of shape 32x192"):
        a.to_metal((32, 192))


# A dump's alias lines, then the value using them (tt-mlir lit test d2m ttnn-mode / ttnn_to_ttmetal)
DUMP = """#dram = #ttnn.buffer_type<dram>
#l1 = #ttnn.buffer_type<l1>

#dram_interleaved_encoding_in = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 32 + d1 * 32 + d2, d3), <1x1>, memref<1x96x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#l1_height_sharded = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 1024 + d1 * 32 + d2, d3), <32x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 3)>]>>
"""


def test_alias_lines_then_a_tensor_using_them_read_as_that_tensor():
    L = tt.parse(DUMP + "tensor<1x1x1024x32xbf16, #l1_height_sharded>")
    assert (L.grid, L.shard_shape, L.buffer_type, L.memory_layout) == ((32, 1), (32, 32), "l1", "height_sharded")
    assert L == tt.parse("tensor<1x1x1024x32xbf16, " + DUMP.split("#l1_height_sharded = ")[1].strip() + ">")
    M = tt.parse(DUMP + "tensor<1x1x32x3072xbf16, #dram_interleaved_encoding_in>")
    assert (M.grid, M.memref_shape, M.buffer_type) == ((1, 1), (1, 96), "dram")
    # nothing after the aliases: the last one's value
    assert tt.parse(DUMP).grid == (32, 1)


def test_alias_of_a_device_reads_as_the_device():
    d = tt.parse("#any_device = #ttcore.device<workerGrid = #ttcore.grid<8x8, (d0, d1) -> (0, d0, d1)>, l1Map = "
                 "(d0, d1, d2)[s0] -> (0, d0, d1, d2 + s0), dramMap = (d0, d1, d2)[s0, s1] -> (0, 0, 0, d0 * s1 + d1 "
                 "* s1 + d2), meshShape = , chipIds = [0]>")
    assert d.grid_shape == (8, 8) and d.chip_ids == (0,)


@pytest.mark.parametrize(
    "text, message, needle",
    [
        ("#l1 = \ntensor<32x32xf32, #l1>", "alias #l1 has no value after '='", "\ntensor"),
        ("#l1 =", "alias #l1 has no value after '='", None),
        # an error inside an alias's value points into its definition line
        ("#dram = #ttnn.buffer_type<dram>\n#t = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x2x!ttcore.tile"
         "<32x32, f32>, #dram>, <interleaved>>\ntensor<32x32xf32, #t>", "memref 1x2 does not match 1x1", "memref<1x2"),
        ("#t = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x32xf32, #ttnn.buffer_type<dram>>, "
         "<interleaved>>\ntensor<32x32xbf16, #t>", "memref element type f32 does not match the tensor's bf16",
         "f32, #ttnn.buffer_type"),
    ],
)
def test_bad_alias_text_is_a_parse_error_at_its_place(text, message, needle):
    with pytest.raises(ParseError, match=message) as e:
        tt.parse(text)
    where = len(text) if needle is None else text.index(needle)
    assert e.value.position == where, text[e.value.position:]


def test_l1_interleaved_row_major_pages_are_rows_round_robin_over_the_cores():
    """tt-metal's row-major interleaved page is one row: row r is page slot r div n of core r mod n (grid row-major)."""
    # ttnn_to_layout lit test: 32x2048 bf16, L1 row-major interleaved on 8x8 -> ceilDiv(32, 64) = 1 row per core
    L = unilayout.parse("tensor<32x2048xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, memref<1x2048xbf16, #l1>, "
                        "<interleaved>>>")
    assert L.memref_shape == (1, 2048) and L.interleaved_pages
    M = unilayout.parse("tensor<5x3xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x2>, memref<1x9xf32, #l1>, "
                        "<interleaved>>>")
    for layout in (L, M):
        rows, width = layout.logical_shape
        n = layout.grid[0] * layout.grid[1]
        a = np.arange(1, rows * width + 1).reshape(rows, width)
        s = layout.shard(a)
        for r in range(rows):
            core = divmod(r % n, layout.grid[1])
            assert np.array_equal(s[core][0, (r // n) * width:(r // n + 1) * width], a[r])
        assert np.array_equal(layout.unshard(s), a)
        assert layout.padding_summary().total == int(layout.padding_mask().sum()) == s.size - a.size
    assert M.locate(4, 2) == ((0, 0), (0, 2 * 3 + 2))


def test_l1_interleaved_row_major_memref_counts_whole_rows():
    # another tt-mlir revision printed 1 x ceilDiv(volume, cores) = 1x1024: too few slots for one 2048-element row page
    with pytest.raises(ParseError, match=r"memref 1x1024 does not match 1x2048 = pages per bank"):
        unilayout.parse("tensor<32x2048xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, memref<1x1024xbf16, "
                        "#l1>, <interleaved>>>")


def test_aliases_doubling_at_each_line_are_a_parse_error_not_a_memory_bomb():
    lines = ["#a0 = #ttnn.buffer_type<l1>"] + [f"#a{i} = #ttnn.x<#a{i - 1}, #a{i - 1}>" for i in range(1, 40)]
    text = "\n".join(lines) + "\ntensor<32x32xf32, #a39>"
    with pytest.raises(ParseError, match="aliases expand to more than"):
        tt.parse(text)
