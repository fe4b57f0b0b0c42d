"""TSL analyses: density, overlap, common contiguous blocks, DMA plans, allocation sizes."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unilayout import LayoutError
from unilayout.tsl import DmaLoop, DmaPlan, Stride, TiledStride, TiledStridedLayout, dma_plan, element_bytes, parse


@pytest.mark.parametrize(
    "text, dense, overlaps",
    [
        ("[2, 4] -> (32, 4), [2, 4] -> (16, 1)", True, False),
        ("[2, 4] -> (64, 4), [2, 4] -> (16, 1)", False, False),
        ("[2, 4] -> (16, 4), [2, 4] -> (16, 1)", False, True),
        ("[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 100", True, False),
        ("[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: ?", True, False),
        ("[4] -> (-1), [2] -> (4)", True, False),
        ("[4] -> (0)", False, True),
        ("[1] -> (7)", True, False),
    ],
)
def test_density_and_overlap(text, dense, overlaps):
    t = parse(text)
    assert t.is_dense() is dense
    assert t.self_overlaps() is overlaps


def test_density_needs_static_bounds_and_steps():
    with pytest.raises(LayoutError, match="resolve"):
        parse("[?, 4] -> (4, 1)").is_dense()
    with pytest.raises(LayoutError, match="resolve"):
        parse("[2, 4] -> (?, 1)").self_overlaps()


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.lists(st.tuples(st.integers(1, 4), st.integers(-6, 20)), min_size=1, max_size=3), min_size=1, max_size=3
    ),
    st.integers(-9, 9),
)
def test_density_and_overlap_match_the_address_multiset(dims, offset):
    t = TiledStridedLayout([TiledStride([Stride(b, s) for b, s in d]) for d in dims], offset)
    a = t.index_map()
    distinct = np.unique(a).size
    assert t.self_overlaps() == (distinct < a.size)
    assert t.is_dense() == (distinct == a.size and a.max() - a.min() + 1 == a.size)


def test_largest_common_contiguous_block_examples():
    a = parse("[2, 4] -> (16, 4), [2, 4] -> (32, 1)")
    b = parse("[2, 4] -> (32, 4), [2, 4] -> (16, 1)")
    assert a.largest_common_contiguous_block(b) == [Stride(4, 1), Stride(4, 4)]
    assert parse("[4] -> (1)").largest_common_contiguous_block(parse("[4] -> (2)")) == [Stride(1, 1)]
    assert b.largest_common_contiguous_block(b) == [Stride(4, 1), Stride(4, 4), Stride(2, 16), Stride(2, 32)]
    assert b.largest_common_contiguous_block(b, starting_stride=4) == [Stride(4, 4), Stride(2, 16), Stride(2, 32)]


def test_largest_common_contiguous_block_with_dynamic_strides():
    a = parse("[?, 4] -> (?, 1), [8] -> (4)")
    b = parse("[?, 4] -> (?, 1), [8] -> (4)")
    # 4 -> 1, then 8 -> 4 (cur 32 matches nothing static), ...
    assert a.largest_common_contiguous_block(b) == [Stride(4, 1), Stride(8, 4)]
    c = parse("[?, 4] -> (?, 1)")
    assert c.largest_common_contiguous_block(c) == [Stride(4, 1)]
    d = parse("[2, 4] -> (?, 1)")
    # after 4 -> 1, cur is 4: no step 4; the '?' step never equals a known cur
    assert d.largest_common_contiguous_block(d) == [Stride(4, 1)]


def test_largest_common_contiguous_block_needs_the_same_structure():
    with pytest.raises(LayoutError, match="same number of dims and levels"):
        parse("[2, 4] -> (4, 1)").largest_common_contiguous_block(parse("[8] -> (1)"))
    with pytest.raises(LayoutError, match="expected a TiledStridedLayout"):
        parse("[8] -> (1)").largest_common_contiguous_block(3)


def test_dma_plan_reference_example():
    src = parse("[2,4]->(4,1),[2,4]->(32,8)")
    dst = parse("[2,4]->(16,1),[2,4]->(32,4)")
    plan = dma_plan(src, dst, "i32")
    assert plan.unit_bytes == 16
    assert plan.repeat == DmaLoop(4, 32, 16)
    assert plan.loops == (DmaLoop(2, 16, 64), DmaLoop(2, 128, 128))
    assert plan.total_bytes == 64 * 4 and plan.transfers == 4
    assert src.dma_plan(dst, 4) == plan


@settings(max_examples=100, deadline=None)
@given(st.permutations(range(4)), st.permutations(range(4)), st.sampled_from([1, 2, 4, 8]))
def test_dma_plan_copies_every_element_once(order_src, order_dst, nbytes):
    # Two dense layouts of a 2x4 x 2x4 tile structure with the digits in random order.
    bounds = [2, 4, 2, 4]

    def layout(order):
        steps = [0] * 4
        acc = 1
        for p in order:
            steps[p] = acc
            acc *= bounds[p]
        return TiledStridedLayout([TiledStride([Stride(2, steps[0]), Stride(4, steps[1])]), TiledStride([Stride(2, steps[2]), Stride(4, steps[3])])])

    src, dst = layout(order_src), layout(order_dst)
    plan = dma_plan(src, dst, nbytes)
    assert plan.total_bytes == 64 * nbytes
    # Replay the plan: each unit is contiguous in both, and the set of copied source bytes is everything.
    starts = [(0, 0)]
    for lp in ([plan.repeat] if plan.repeat else []) + list(plan.loops):
        starts = [(s + i * lp.src_stride_bytes, d + i * lp.dst_stride_bytes) for s, d in starts for i in range(lp.bound)]
    src_bytes = sorted(s + k for s, _ in starts for k in range(plan.unit_bytes))
    dst_bytes = sorted(d + k for _, d in starts for k in range(plan.unit_bytes))
    assert src_bytes == list(range(64 * nbytes)) == dst_bytes
    # and element e of the source lands where the destination layout puts it
    src_addr, dst_addr = src.index_map() * nbytes, dst.index_map() * nbytes
    where = dict(starts)
    for a, b in zip(src_addr.tolist(), dst_addr.tolist()):
        base = max(s for s in where if s <= a and a < s + plan.unit_bytes)
        assert where[base] + (a - base) == b


def test_dma_plan_errors():
    with pytest.raises(LayoutError, match="same tile bounds"):
        dma_plan(parse("[2, 4] -> (4, 1)"), parse("[4, 2] -> (2, 1)"))
    with pytest.raises(LayoutError, match="resolve"):
        dma_plan(parse("[?, 4] -> (4, 1)"), parse("[?, 4] -> (4, 1)"))


def test_element_bytes_and_allocation():
    assert [element_bytes(x) for x in ("i1", "i8", "si16", "ui32", "f16", "bf16", "f32", "f64", "index", 3)] == [
        1, 1, 2, 4, 2, 2, 4, 8, 8, 3,
    ]
    with pytest.raises(LayoutError, match="element"):
        element_bytes("q7")
    with pytest.raises(LayoutError, match="element"):
        element_bytes(0)
    t = parse("#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5>")
    assert t.allocation_bytes("f32") == (int(t.index_map().max()) + 1) * 4 == 276
    assert parse("[2, 4] -> (64, 4), [2, 4] -> (16, 1)").allocation_bytes("i8") == 96
    with pytest.raises(LayoutError, match="negative address"):
        parse("[4] -> (-1)").allocation_bytes()
    assert parse("[4] -> (-1), offset: 3").allocation_bytes(1) == 4
    with pytest.raises(LayoutError, match="dynamic"):
        parse("[4] -> (1), offset: ?").allocation_bytes()


def test_dma_plan_value_types_are_frozen():
    p = DmaPlan(16, None, ())
    with pytest.raises(AttributeError):
        p.unit_bytes = 3
    assert str(p) == "unit 16 B"


@pytest.mark.parametrize("start", [1.5, "1", TiledStridedLayout.parse("[4] -> (1)")])
def test_largest_common_contiguous_block_refuses_a_non_integer_starting_stride(start):
    a = TiledStridedLayout.parse("[4] -> (1)")
    with pytest.raises(LayoutError, match="starting_stride must be an integer"):
        a.largest_common_contiguous_block(a, start)  # 1.5 was truncated to 1; a layout was a bare TypeError
    assert [str(s) for s in a.largest_common_contiguous_block(a, 1)] == ["4 -> 1"]
