import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unilayout import affine, cute, linear, tsl, tt
from unilayout import facts as F
from unilayout.errors import LayoutError

METAL = ("tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
         "memref<1x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>")
DEVICE = ("#tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0, d1 mod 8)>, "
          "meshShape = 1x2, chipIds = [0, 1]>")


def brute_vector_width(v):
    best, w = 1, 2
    while w <= len(v) and len(v) % w == 0:
        ok = all(v[s] % w == 0 and all(v[s + j] == v[s] + j for j in range(w)) for s in range(0, len(v), w))
        if not ok:
            break
        best, w = w, 2 * w
    return best


def brute_longest_run(v):
    best = 0
    for i in range(len(v)):
        j = i
        while j + 1 < len(v) and v[j + 1] == v[j] + 1:
            j += 1
        best = max(best, j - i + 1)
    return best


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 12), max_size=16))
def test_vector_width_and_longest_run_match_their_definitions(v):
    if v:
        assert F.vector_width(v) == brute_vector_width(v)
    assert F.longest_run(v) == brute_longest_run(v)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-5, 40), min_size=1, max_size=20))
def test_injectivity_matches_sets(v):
    inj, sur = F.injectivity(v)
    assert inj == (len(set(v)) == len(v))
    assert sur == (set(v) == set(range(min(v), max(v) + 1)))


def test_injectivity_of_a_sparse_wide_table_uses_the_given_range():
    assert F.injectivity([0, 10**9], 0, 10**9) == (True, False)
    assert F.injectivity([], 0, 3) == (True, True)


def test_cute_facts_match_the_table_for_every_small_layout():
    for shape in [(2, 2), (4, 2), (2, 3)]:
        for stride in itertools.product(range(4), repeat=2):
            L = cute.Layout(shape, stride)
            d = F.describe(L)
            vals = [L(i) for i in range(L.size)]
            assert d["family"] == "cute" and d["size"] == L.size and d["cosize"] == max(vals) + 1
            assert d["injective"] == (len(set(vals)) == len(vals))
            assert d["surjective"] == (set(vals) == set(range(d["cosize"])))
            assert d["contiguity"] == brute_vector_width(vals) and d["longest_run"] == brute_longest_run(vals)


def test_swizzle_and_composed_facts():
    d = F.describe(cute.Swizzle(2, 0, 2))
    assert (d["bits"], d["base"], d["shift"], d["view"]) == (2, 0, 2, "Sw<2,0,2> o 0 o (4,4):(4,1)")
    assert d["bijective"] and d["size"] == 16
    c = cute.ComposedLayout(cute.Swizzle(1, 0, 1), 0, cute.Layout(4, 1))
    d = F.describe(c)
    assert d["swizzle"] == "Sw<1,0,1>" and d["inner"] == "4:1" and d["offset"] == 0


def test_linear_facts_are_triton_s_predicates():
    L = linear.parse("#ttg.linear<{register = [[1, 0]], lane = [[0, 1], [0, 0]], warp = [], block = []}>")
    d = F.describe(L)
    assert d["in_dims"] == {"register": 2, "lane": 4, "warp": 1, "block": 1} and d["size"] == 8
    assert d["injective"] is False and d["surjective"] is True and d["bijective"] is False
    assert d["contiguity"] == L.num_consecutive_in_out()


def test_affine_facts_need_a_box():
    m = affine.parse("(d0, d1) -> (d1 * 4 + d0)")
    assert "note" in F.describe(m) and "size" not in F.describe(m)
    d = F.describe(m, (4, 4))
    assert d["size"] == 16 and d["injective"] and d["contiguity"] == 1
    with pytest.raises(LayoutError, match="2 dims"):
        F.describe(m, (4,))


def test_tsl_facts():
    t = tsl.parse("#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5>")
    d = F.describe(t)
    vals = t.index_map().reshape(-1).tolist()
    assert d["addresses"] == [min(vals), max(vals)] and d["contiguity"] == brute_vector_width(vals)
    assert F.describe(tsl.parse("#tsl.tsl<[?] -> (1)>"))["dynamic"] is True


def test_metal_facts_count_the_padding():
    ml = tt.parse(METAL)
    d = F.describe(ml)
    assert d["padding"]["slots"] == int(ml.padding_mask().sum()) == 2805 and d["injective"]
    assert d["size"] == 53 * 63 and F.canonical_text(ml) == ml.tensor_type()


def test_device_facts():
    d = F.describe(tt.parse(DEVICE))
    assert d["valid"] and d["cores"] == 128 and d["grid_shape"] == [8, 16]


def test_fact_lines_follow_describe_and_gloss_the_numbers():
    d = F.describe(cute.Layout((2, 2), (1, 2)))
    lines = F.fact_lines(d)
    assert [k for k, _ in lines] == list(d)
    got = dict(lines)
    assert got["surjective"] == "yes (onto 0..3)" and got["injective"] == "yes"
    assert got["contiguity"].startswith("4 (vectorisation width")
    assert F.format_facts(d).splitlines()[0] == "family:         cute"


def test_summary_says_the_headline_facts():
    assert F.summary(F.describe(cute.Layout(4, 0))) == "size 4, cosize 1, not injective, contiguity 1"
    assert "2805 padding slots" in F.summary(F.describe(tt.parse(METAL)))


def test_checks_fail_only_on_errors():
    assert all(c["ok"] for c in F.checks(cute.Layout(4, 0)))
    assert F.checks(cute.Layout(4, 0))[0] == {"check": "parses", "ok": True, "detail": "4:0"}
    assert F.checks(tt.parse(DEVICE))[1]["ok"] is True


def test_describe_refuses_text_and_other_objects():
    with pytest.raises(LayoutError, match="unilayout.parse"):
        F.describe("8:1")
    with pytest.raises(LayoutError, match="expected a unilayout layout value"):
        F.describe(np.arange(3))


def test_format_facts_continues_a_multi_line_value_under_its_first_line():
    L = linear.LinearLayout({"dim0": [[2], [4]], "dim1": [[1]]}, {"offset": 8})  # no #ttg.linear form: toString
    lines = F.format_facts(F.describe(L)).splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("text:"))
    text_lines = str(L).strip("\n").splitlines()
    assert lines[at] == f"{'text:':<15} {text_lines[0]}"
    assert lines[at + 1:at + len(text_lines)] == [" " * 16 + t for t in text_lines[1:]]
    # every other line still starts with a name in the first column
    assert all(line[0] != " " for line in lines[:at] + lines[at + len(text_lines):])


def test_describe_v2_and_ttnn_layouts_adds_their_own_fields():
    v2 = tt.MetalLayout.from_v2((9, 43, 7), (8, 8), tile=(32, 32))
    d = F.describe(v2)
    assert (d["dim_alignments"], d["collapsed_intervals"]) == (list(v2.dim_alignments), [[0, 2], [2, 3]])
    assert d["device_shape"] == list(v2.device_shape) and d["memory_layout"] == "sharded"
    assert d["padding"]["slots"] == np.prod(v2.device_shape) * 32 * 32 - 9 * 43 * 7
    L = tt.TTNNTensorLayout((64, 128), "(d0, d1) -> (d0, d1)", (2, 4), buffer_type="l1",
                            memory_layout="height_sharded")
    d = F.describe(L)
    assert (d["buffer_type"], d["memory_layout"]) == ("l1", "height_sharded") and "dim_alignments" not in d
    assert "memory_layout" not in F.describe(tt.MetalLayout.from_collapse((4, 4), (1, 1)))


def test_describe_a_bare_ttnn_config_gives_its_fields():
    text = ("#ttnn.memory_config<#ttnn.buffer_type<dram>, <height_sharded>, #ttnn.shard_spec<<[#ttnn.core_range<"
            "(0,0), (7,0)>, #ttnn.core_range<(0,1), (1,1)>]>, <32x64>, <col_major>, <physical>>>")
    d = F.describe(tt.parse(text))
    assert d["family"] == "ttnn" and d["text"] == text and F.canonical_text(tt.parse(text)) == text
    assert (d["kind"], d["buffer_type"], d["memory_layout"], d["shard_mode"]) == (
        "memory_config", "dram", "height_sharded", "physical")
    assert (d["cores"], d["shard_shape"], d["orientation"]) == (10, [32, 64], "col_major")
    assert d["core_ranges"] == ["(0,0)-(7,0)", "(0,1)-(1,1)"]
    nd = tt.NdShardSpec((2, 32, 32), [((0, 0), (3, 3))], "col_major", "GRID_2D")
    d = F.describe(nd)
    assert (d["kind"], d["shard_shape"], d["distribution"], d["cores"]) == ("nd_shard_spec", [2, 32, 32], "grid_2d", 16)
    assert [c["check"] for c in F.checks(nd)] == ["parses"] and "size" not in d
    assert "no tensor shape" in dict(F.fact_lines(d))["note"]
