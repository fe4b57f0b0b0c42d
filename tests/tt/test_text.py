"""tt text: tensor<...#tt.metal_layout<...>> and #tt.device<...> parse/print, errors at their positions, fuzz."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unilayout import LayoutError, ParseError, tt

T53 = ("tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
       "memref<1x1x!tt.tile<32x32, bfp_bf8>, #tt.memory_space<l1>>>>")
DEV = ("#tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, "
       "meshShape = 1x2, chipIds = [0, 1]>")


def test_printing_is_canonical_and_round_trips():
    ml = tt.parse(T53)
    assert ml.tensor_type() == T53
    assert str(ml) == T53 and tt.parse(str(ml)) == ml  # str is the whole tensor type (the attribute lacks the shape)
    assert ml.attribute() == T53[len("tensor<53x63xf32, "):-1]
    dev = tt.parse(DEV)
    assert str(dev) == DEV and tt.parse(str(dev)) == dev


@pytest.mark.parametrize(
    "variant",
    [
        T53.replace("32x32", "32 x 32"),
        T53.replace(", ", ",\n   "),
        T53.replace("#tt.", "#ttcore.").replace("!tt.", "!ttcore."),
        T53.replace("<3x2>", "#tt.grid<3x2>"),
        T53.replace("(d0, d1) -> (d0, d1)", "affine_map<(d0, d1) -> (d0, d1)>"),
        T53.replace("(d0, d1) -> (d0, d1)", "(i, j) -> (i, j)"),
        "  " + T53 + "\n",
    ],
)
def test_whitespace_dialect_prefix_and_map_spellings_are_accepted(variant):
    assert tt.parse(variant) == tt.parse(T53)


def test_device_variants_and_topology():
    assert tt.parse(DEV.replace("#tt.", "#ttcore.").replace(", ", " ,\n ")) == tt.parse(DEV)
    with_topo = DEV[:-1] + ", meshTopology = [ring, linear]>"
    d = tt.parse(with_topo)
    assert d.mesh_topology == ("ring", "linear") and str(d) == with_topo


def test_tensor_element_types():
    for elem in ("bf16", "f16", "f64", "i32", "si8", "ui16", "i1"):
        ml = tt.MetalLayout.from_collapse((4, 4), (1, 1), element_type=elem)
        assert tt.parse(ml.tensor_type()) == ml


def _pos(text, needle, nth=0):
    i = -1
    for _ in range(nth + 1):
        i = text.index(needle, i + 1)
    return i


@pytest.mark.parametrize(
    "text, message, needle",
    [
        (T53.replace("memref<1x1x", "memref<1x2x"), "memref 1x2 does not match 1x1 = shard 18x32 in 32x32 tiles", "memref<"),
        ("tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, memref<17x32xf32, #tt.memory_space<l1>>>>",
         r"memref 17x32 does not match 18x32 = ceilDiv\(physical 53x63, grid 3x2\)", "memref<"),
        ("tensor<2x3x64x128xf32, #tt.metal_layout<(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3), undef, <2x4>, "
         "memref<192x16xf32, #tt.memory_space<l1>>>>", "memref 192x16 does not match 192x32", "memref<"),
        (T53.replace("<3x2>", "<3x2x1>"), "affine map has 2 results but the grid 3x2x1 has rank 3", "<3x2x1>"),
        (T53.replace("memref<1x1x", "memref<1x1x1x"), "memref rank 3 does not match grid rank 2", "memref<"),
        (T53.replace("(d0, d1) -> (d0, d1)", "(d0) -> (d0, 0)"), "affine map has 1 dims but the tensor has rank 2", "(d0)"),
        (T53.replace("(d0, d1) -> (d0, d1)", "(d0, d1) -> (d0 - 1, d1)"), "results must be >= 0", "(d0, d1)"),
        (T53.replace("undef", "nan"), "oob_val 'nan' is not one of", "nan"),
        (T53.replace("l1", "sram"), "memory space 'sram'", "sram"),
        (T53.replace("bfp_bf8", "bfp_x8"), "tile dtype 'bfp_x8'", "bfp_x8"),
        (T53.replace("1x1x!tt.tile<32x32, bfp_bf8>", "18x32xbf16"), "memref element type bf16 does not match the tensor's f32", "bf16"),
        (T53.replace("f32", "float"), "element type 'float'", "float"),
        (T53.replace("(d0, d1) -> (d0, d1)", "(d0, d1) -> (d0 * d1, d1)"), "non-affine", "* d1"),
        (T53.replace("(d0, d1) -> (d0, d1)", "(d0, d1) -> (d0, d2)"), "undeclared identifier 'd2'", "d2"),
        (T53.replace("#tt.metal_layout<", "#tt.layout<"), "#tt.layout is the pre-2024-08 name", "#tt.layout"),
        (T53[:-1], "expected '>' to close 'tensor<'", None),
        (T53 + " extra", "unexpected text after the end", "extra"),
        ("tensor<53x63xf32>", "tensor has no layout encoding", ">"),
        ("tensor<xf32, #tt.metal_layout<>>", "expected the tensor's dims", "xf32"),
        ("tensor<0x4xf32, #tt.metal_layout<>>", "dims must be >= 1", "0x"),
        ("tensor<4x4xf32, #ttcore.metal_layout<logical_shape = 4x4, dim_alignments = 32x32>>", "expected ',', found '>'", ">"),
        ("#ttcore.metal_layout<logical_shape = 4x4>", "expected ',', found '>'", ">"),
        ("#tt.metal_layout<(d0) -> (d0), undef, <1>, memref<4xf32, #tt.memory_space<l1>>>", "needs its tensor", "#tt"),
        ("memref<4xf32>", "expected 'tensor<' or '#tt.device<'", "memref"),
        ("", "expected 'tensor<' or '#tt.device<'", None),
        (T53.replace("<3x2>", "<3x0>"), "every dim must be >= 1", "<3x0>"),
        (T53.replace("(d0, d1) -> (d0, d1)", "(d0, d1 -> (d0, d1)"), "expected ',' or '\\)', found '-'", "-> (d0, d1), undef"),
    ],
)
def test_bad_tensor_text_is_a_parse_error_at_the_field(text, message, needle):
    with pytest.raises(ParseError, match=message) as e:
        tt.parse(text)
    if needle is not None:
        assert e.value.position == text.index(needle), (e.value.position, text[e.value.position:])
    assert "^" in str(e.value)


@pytest.mark.parametrize(
    "text, message, needle",
    [
        (DEV.replace("chipIds = [0, 1]", "chipIds = [0]"), "mesh 1x2 has 2 chips but 1 chip ids", "["),
        (DEV.replace("chipIds = [0, 1]", "chipIds = [1, 1]"), "chip id 1 appears twice", "[1, 1]"),
        (DEV.replace("(d0, d1) ->", "(d0) ->").replace("d1 floordiv 8, d0, d1 mod 8", "0, d0, 0"), "worker grid map has 1 dims", "(d0)"),
        (DEV.replace("(d1 floordiv 8, d0, d1 mod 8)", "(d0, d1)"), "must give exactly 3", "(d0, d1) ->"),
        (DEV.replace("meshShape = 1x2", "meshShape = x"), "expected a mesh dim", "x, chipIds"),
        (DEV.replace("workerGrid", "worker"), "expected 'workerGrid'", "worker"),
        (DEV[:-1] + ", meshTopology = [ring]>", "meshTopology has 1 entries but meshShape 1x2 has rank 2", "[ring]"),
        (DEV[:-1] + ", meshTopology = [ring, star]>", "topology 'star'", "star"),
        (DEV[:-1] + ", l1Map = (d0) -> (d0)>", "expected 'meshTopology'", "l1Map"),
        (DEV.replace("meshShape", "l1Map = (d0) -> (d0 +), meshShape"), "expected an affine operand", "), meshShape"),
        (DEV.replace("chipIds = [0, 1]", "chipIds = []"), "expected a chip id", "]>"),
    ],
)
def test_bad_device_text_is_a_parse_error_at_the_field(text, message, needle):
    with pytest.raises(ParseError, match=message) as e:
        tt.parse(text)
    assert e.value.position == text.index(needle), (e.value.position, text[e.value.position:])


def test_newer_tt_mlir_device_text_with_l1_and_dram_maps_and_empty_mesh():
    text = ("#ttcore.device<workerGrid = #ttcore.grid<8x8, (d0, d1) -> (0, d0, d1)>, "
            "l1Map = (d0, d1, d2)[s0] -> (0, d0, d1, d2 + s0), "
            "dramMap = (d0, d1, d2)[s0, s1, s2, s3, s4, s5, s6] -> (0, 0, (((d0 * s1) * (s2 * (s3 * s6)) + d1 * (s2 * (s3 * s6)) + d2) floordiv s4) mod 12, "
            "((((d0 * s1) * (s2 * (s3 * s6)) + d1 * (s2 * (s3 * s6)) + d2) floordiv s4) floordiv 12) * s4 + ((d0 * s1) * (s2 * (s3 * s6)) + d1 * (s2 * (s3 * s6)) + d2) mod s4 + s5), "
            "meshShape = , chipIds = [0]>")
    d = tt.parse(text)
    assert d == tt.Device((8, 8), "(d0, d1) -> (0, d0, d1)")
    assert str(d) == "#tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1, chipIds = [0]>"


def test_non_string_input_is_a_layout_error():
    with pytest.raises(LayoutError):
        tt.parse(42)


SEEDS = [
    T53,
    DEV,
    "tensor<2x3x64x128xf32, #tt.metal_layout<(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3), undef, <2x2x4>, "
    "memref<1x3x1x!tt.tile<32x32, bfp_bf8>, #tt.memory_space<l1>>>>",
    "#tt.device<workerGrid = #tt.grid<2x8x16, (d0, d1, d2) -> (d0 * 2 + d2 floordiv 8, d1, d2 mod 8)>, "
    "meshShape = 2x1x2, chipIds = [0, 1, 2, 3]>",
]


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), which=st.integers(0, len(SEEDS) - 1), edits=st.integers(1, 4))
def test_mutated_text_parses_or_raises_parse_error_only(seed, which, edits):
    rng = random.Random(seed)
    text = list(SEEDS[which])
    alphabet = "0123456789x<>(),[]=-+* #!.abdfilmnoprstuvyz_"
    for _ in range(edits):
        i = rng.randrange(len(text) + 1)
        op = rng.randrange(3)
        if op == 0 and text:
            del text[min(i, len(text) - 1)]
        elif op == 1:
            text.insert(i, rng.choice(alphabet))
        elif text:
            text[min(i, len(text) - 1)] = rng.choice(alphabet)
    s = "".join(text)
    try:
        v = tt.parse(s)
    except ParseError as e:
        assert 0 <= e.position <= len(s)
        return
    again = tt.parse(v.tensor_type() if isinstance(v, tt.MetalLayout) else str(v))
    assert again == v


# --- str() of every metal layout and device reads back through tt.parse and unilayout.parse -------------
import unilayout  # noqa: E402


@st.composite
def _metal_layouts(draw):
    rank = draw(st.integers(1, 3))
    shape = tuple(draw(st.lists(st.integers(1, 70), min_size=rank, max_size=rank)))
    grid = tuple(draw(st.lists(st.integers(1, 4), min_size=2, max_size=2)))
    tile = draw(st.sampled_from([None, (32, 32)]))
    return tt.MetalLayout.from_collapse(
        shape, grid, element_type=draw(st.sampled_from(["f32", "bf16", "i8", "ui16"])),
        memory_space=draw(st.sampled_from(["l1", "dram"])), oob_val=draw(st.sampled_from(["undef", "zero", "inf"])),
        tile=tile, tile_dtype=None if tile is None else draw(st.sampled_from(["f32", "bf16", "bfp_bf8"])))


@settings(max_examples=100, deadline=None)
@given(_metal_layouts())
def test_every_metal_layout_round_trips_through_str(ml):
    assert str(ml) == ml.tensor_type()
    assert tt.parse(str(ml)) == ml and unilayout.parse(str(ml)) == ml


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 8), st.integers(1, 8), st.sampled_from([(1,), (2,), (1, 2), (2, 2)]), st.data())
def test_every_device_round_trips_through_str(rows, cols, mesh, data):
    n = 1
    for m in mesh:
        n *= m
    ids = data.draw(st.permutations(range(n)))
    topo = data.draw(st.one_of(st.none(), st.lists(st.sampled_from(["ring", "linear", "disabled"]),
                                                   min_size=len(mesh), max_size=len(mesh))))
    dev = tt.Device((rows, cols), "(d0, d1) -> (0, d0, d1)", mesh, ids, topo)
    assert tt.parse(str(dev)) == dev and unilayout.parse(str(dev)) == dev


def test_parse_module_reads_every_tt_layout_of_a_dump_aliases_included():
    dump = """#dram = #ttnn.buffer_type<dram>
#l1 = #ttnn.buffer_type<l1>
#any_device = #ttcore.device<workerGrid = #ttcore.grid<8x8, (d0, d1) -> (0, d0, d1)>, l1Map = (d0, d1, d2)[s0] -> (0, d0, d1, d2 + s0), dramMap = (d0, d1, d2)[s0, s1] -> (0, 0, 0, d0 * s1 + d1 * s1 + d2 + s0), meshShape = , chipIds = [0]>
#layout = #ttcore.metal_layout<logical_shape = 3x43x7, dim_alignments = 1x32x32, collapsed_intervals = dense<[[0, 2], [2, 3]]> : tensor<2x2xi64>, undef, l1>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
module attributes {ttcore.device = #any_device} {
  func.func @f(%arg0: tensor<3x43x7xf32>, %arg1: tensor<32x32xf32, #ttnn_layout>) -> tensor<6x1x32x32xf32, #layout> {
    %0 = d2m.empty() : tensor<6x1x32x32xf32, #layout>
    %1 = d2m.empty() : tensor<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.metal_layout<logical_shape = 32x32, dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, undef, l1, sharded>>
    return %0 : tensor<6x1x32x32xf32, #layout>
  }
}
"""
    m = tt.parse_module(dump)
    assert set(m) == {"#any_device", "#layout", "tensor<32x32xf32, #ttnn_layout>", "tensor<6x1x32x32xf32, #layout>",
                      "tensor<1x1x1x1x!ttcore.tile<32x32, f32>, " + dump.split("tensor<1x1x1x1x!ttcore.tile<32x32, f32>, ")[1].split(">>\n")[0] + ">>"}
    assert isinstance(m["#any_device"], tt.Device)
    assert m["tensor<6x1x32x32xf32, #layout>"].device_shape == (6, 1, 32, 32)
    assert m["tensor<6x1x32x32xf32, #layout>"].logical_shape == m["#layout"].logical_shape == (3, 43, 7)
    assert m["tensor<32x32xf32, #ttnn_layout>"].buffer_type == "dram"
    with pytest.raises(ParseError, match="does not match the device shape"):
        tt.parse_module(dump.replace("tensor<6x1x32x32xf32, #layout>", "tensor<6x1x32x31xf32, #layout>", 1))


TODAY = [
    "tensor<2x1x96x32xf32, #ttcore.metal_layout<logical_shape = 3x43x7, dim_alignments = 1x32x32, collapsed_intervals "
    "= dense<[[0, 2], [2, 3]]> : tensor<2x2xi64>, undef, l1, sharded, index_map = map(4)>>",
    "tensor<32x384xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x6, (d0, d1) -> (0, d0, d1)>, memref<1x2x!ttcore."
    "tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = #ttnn.core_range_set<[#ttnn.core_range<(0,0), (5,0)>]>>>",
    "#ttnn.memory_config<#l1, <block_sharded>, #ttnn.shard_spec<<[#ttnn.core_range<(0,0), (7,0)>]>, <32x32>, "
    "<row_major>, <physical>>>",
    "#ttcore.device<workerGrid = #ttcore.grid<8x8, virt_to_physical_map = (d0, d1) -> (0, d0, d1), "
    "physical_to_virt_map = (d0, d1) -> (0, d0, d1)>, dramGrid = #ttcore.grid<1x12>, meshShape = , chipIds = [0]>",
]


@pytest.mark.parametrize("text", TODAY)
def test_mutated_todays_text_is_a_layout_error_or_round_trips(text):
    import random

    rng = random.Random(15)
    alphabet = "0123456789x<>[](),=-: #!abcdefgilmnoprstuz"
    for _ in range(300):
        s = list(text)
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(s))
            op = rng.random()
            if op < 0.4:
                s[i] = rng.choice(alphabet)
            elif op < 0.7:
                del s[i]
            else:
                s.insert(i, rng.choice(alphabet))
        try:
            v = tt.parse("".join(s))
        except LayoutError:
            continue
        assert tt.parse(str(v)) == v
