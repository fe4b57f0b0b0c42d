"""plan.reshard: exact byte accounting against a per-element brute force, reinterpretations, the seed's transpose."""


import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unilayout import LayoutError, tt
from unilayout.plan import reshard_cost, transfer_table
from unilayout.plan.regrid import reinterpret


def slot(ml, q):
    """Position of shard coordinate q in its core's buffer: row-major, or tile-major when tilized."""
    if ml.tile is None:
        return int(np.ravel_multi_index(q, ml.shard_shape))
    T = ml.tile
    t = tuple(q[:-2]) + (q[-2] // T[0], q[-1] // T[1])
    return int(np.ravel_multi_index(t, ml.memref_shape)) * T[0] * T[1] + (q[-2] % T[0]) * T[1] + q[-1] % T[1]


def brute(src, dst, src_dev, dst_dev, eb):
    """Per-element count with locate/physical_core: the definition, one element at a time."""
    local = on_chip = c2c = in_place = 0
    pair = {}
    pages = {}
    for x in np.ndindex(*src.logical_shape):
        G, q = src.locate(*x)
        H, r = dst.locate(*x)
        a = src_dev.physical_core(*G)
        b = dst_dev.physical_core(*H)
        if a == b and slot(src, q) == slot(dst, r):
            in_place += eb
        if src.tile is None:
            page = (G, q[:-1])
        else:
            T = src.tile
            page = (G, q[:-2], q[-2] // T[0], q[-1] // T[1])
        pages.setdefault(page, {}).setdefault(b, 0)
        pages[page][b] += 1
        pair[(a, b)] = pair.get((a, b), 0) + eb
        if a == b:
            local += eb
        elif a[0] == b[0]:
            on_chip += eb
        else:
            c2c += eb
    slots = src.tile[0] * src.tile[1] if src.tile else src.shard_shape[-1]
    padding = 0
    for page, dests in pages.items():
        a = src_dev.physical_core(*page[0])
        n = sum(dests.values())
        padding += sum((slots - n) * eb for b in dests if b != a)
    send, recv = {}, {}
    for (a, b), v in pair.items():
        if a != b:
            send[a] = send.get(a, 0) + v
            recv[b] = recv.get(b, 0) + v
    transfers = sum(1 for (a, b) in pair if a != b)
    return dict(local_bytes=local, on_chip_bytes=on_chip, chip_to_chip_bytes=c2c,
                max_send_bytes=max(send.values(), default=0), max_receive_bytes=max(recv.values(), default=0),
                transfers=transfers, padding_bytes=padding, in_place_bytes=in_place)


def counters(c):
    return {k: getattr(c, k) for k in ("local_bytes", "on_chip_bytes", "chip_to_chip_bytes", "max_send_bytes",
                                       "max_receive_bytes", "transfers", "padding_bytes", "in_place_bytes")}


DEVICES = [
    tt.Device((4, 4), "(d0, d1) -> (0, d0, d1)"),
    tt.Device((4, 4), "(d0, d1) -> (0, d1, d0)"),
    tt.Device.from_mesh(tt.SystemDesc((2, 2), 4), (2, 2)),
    tt.Device.from_mesh(tt.SystemDesc((2, 2), 2), (1, 2)),
]

# maps with div/mod and permutations that an explicit MetalLayout may carry (shape, map)
ODD_MAPS = [
    ((6, 5), "(d0, d1) -> (d1, d0)"),
    ((4, 8), "(d0, d1) -> (d0 + (d1 floordiv 4) * 4, d1 mod 4)"),
    ((3, 4, 5), "(d0, d1, d2) -> (d2, d0 * 4 + d1)"),
    ((2, 3, 4), "(d0, d1, d2) -> (d0 * 4 + d2, d1)"),
]


@st.composite
def layout_on(draw, shape, device, maps=True):
    D = device.grid_shape
    rank = len(shape)
    choice = draw(st.integers(0, 3)) if maps else 0
    if choice == 3:
        odd = [m for s, m in ODD_MAPS if s == shape]
        linear = odd[0] if odd else None
    else:
        linear = None
    tile = draw(st.sampled_from([None, None, (2, 2), (1, 4), (4, 2)]))
    if linear is None:
        cut = draw(st.integers(0, max(0, rank - 1)))
        intervals = [(0, cut + 1)] if cut >= 1 else []
        groups = rank - cut
        if groups > 2:
            intervals = [(0, rank - 1)]
        from unilayout.tt.collapse import collapse_map
        linear = collapse_map(shape, 2, intervals)
    else:
        from unilayout.affine import AffineMap
        linear = AffineMap.parse(linear)
    phys = tuple(v + 1 for v in linear(*(s - 1 for s in shape)))
    grid = tuple(draw(st.integers(1, min(d, p))) for d, p in zip(D, phys))
    return tt.MetalLayout(shape, linear, grid, tile=tile)


@st.composite
def cases(draw):
    device = draw(st.sampled_from(DEVICES))
    odd = draw(st.booleans())
    if odd:
        shape = draw(st.sampled_from([s for s, _ in ODD_MAPS]))
    else:
        rank = draw(st.integers(1, 3))
        shape = tuple(draw(st.integers(1, 7)) for _ in range(rank))
    src = draw(layout_on(shape, device))
    dst = draw(layout_on(shape, device))
    return src, dst, device


@settings(max_examples=300, deadline=None)
@given(cases())
def test_bytes_match_brute_force(case):
    src, dst, device = case
    c = reshard_cost(src, dst, device, reinterpret=False)
    assert counters(c) == brute(src, dst, device, device, 4)
    total = src.volume * 4
    assert c.local_bytes + c.on_chip_bytes + c.chip_to_chip_bytes == total
    assert int(c.traffic.sum()) == total and int(c.traffic.trace()) == c.local_bytes


@settings(max_examples=60, deadline=None)
@given(cases(), st.sampled_from(["transposed", "extra_wide", "extra_tall", "staircase"]))
def test_bytes_match_brute_force_on_a_reinterpreted_destination(case, name):
    src, dst, device = case
    other = reinterpret(device, name).device
    D = other.grid_shape
    grid = tuple(min(g, d) for g, d in zip(dst.grid, D))
    dst = dst.with_grid(grid) if grid != dst.grid else dst
    c = reshard_cost(src, dst, device, dst_device=other, element_bytes=2)
    assert counters(c) == brute(src, dst, device, other, 2)


def test_transfer_table_counts_every_element_once():
    src = tt.MetalLayout.from_collapse((5, 7, 9), (2, 3), tile=(2, 4))
    dst = tt.MetalLayout((5, 7, 9), "(d0, d1, d2) -> (d2, d0 * 7 + d1)", (3, 3))
    page, core, count = transfer_table(src, dst)
    assert int(count.sum()) == 5 * 7 * 9
    assert len(set(zip(page.tolist(), core.tolist()))) == len(page)


def test_transfer_table_lives_in_transfers_and_reshard_still_names_it():
    from unilayout.plan import reshard, transfers

    assert reshard.transfer_table is transfers.transfer_table is transfer_table


def test_seed_transpose_is_found_as_a_reinterpretation():
    # exp(a) on the identity 8x8 grid; transpose(a) consumed in the same layout = a with linear (d1, d0)
    dev = tt.Device((8, 8), "(d0, d1) -> (0, d0, d1)")
    a = tt.MetalLayout.from_collapse((256, 256), (8, 8))
    aT = tt.MetalLayout((256, 256), "(d0, d1) -> (d1, d0)", (8, 8))
    c = reshard_cost(a, aT, dev)
    assert c.reinterpretation is not None and c.reinterpretation.name == "transposed"
    assert c.reinterpretation.device.equivalent(tt.parse(
        "#tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d1, d0)>, meshShape = 1, chipIds = [0]>"))
    assert (c.on_chip_bytes, c.chip_to_chip_bytes, c.transfers, c.max_send_bytes) == (0, 0, 0, 0)
    assert c.local_bytes == 256 * 256 * 4
    # each core transposes its 32x32 block locally: only the block's diagonal keeps its slot
    assert c.in_place_bytes == 64 * 32 * 4 and c.relaid_bytes == c.local_bytes - 64 * 32 * 4
    raw = reshard_cost(a, aT, dev, reinterpret=False)
    assert raw.reinterpretation is None and raw.moved_bytes == 56 * 32 * 32 * 4 and raw.transfers == 56


def test_width_sharding_is_the_extra_wide_reinterpretation():
    dev = tt.Device((8, 8), "(d0, d1) -> (0, d0, d1)")
    # a 8x8 grid of 32x32 blocks; the same blocks, numbered row-major, as a 1x64 width sharding
    a = tt.MetalLayout.from_collapse((256, 256), (8, 8))
    wide = tt.MetalLayout((256, 256), "(d0, d1) -> (d0 mod 32, (d0 floordiv 32) * 256 + d1)", (1, 64))
    c = reshard_cost(a, wide, dev)
    assert c.reinterpretation.name == "extra_wide" and c.moved_bytes == 0
    assert c.dst_device.grid_shape == (1, 64)


def test_staircase_is_found():
    dev = tt.Device((4, 4), "(d0, d1) -> (0, d0, d1)")
    # src: row block i of an 8x12 tensor sits on core columns i .. i + 2 (a map that skews by 4 columns per block)
    src = tt.MetalLayout((8, 12), "(d0, d1) -> (d0, d1 + (d0 floordiv 4) * 4)", (2, 4))
    # dst: plain 2x3 blocks; the staircase sends dst core (i, j) to physical (i, (i + j) mod 4) = src's core
    dst = tt.MetalLayout.from_collapse((8, 12), (2, 3))
    c = reshard_cost(src, dst, dev)
    assert c.reinterpretation is not None and c.reinterpretation.name == "staircase" and c.moved_bytes == 0
    assert reshard_cost(src, dst, dev, reinterpret=False).moved_bytes == 4 * 12 * 4   # row block 1 shifts


def test_no_reinterpretation_when_nothing_moves_or_something_must():
    dev = tt.Device((4, 4), "(d0, d1) -> (0, d0, d1)")
    a = tt.MetalLayout.from_collapse((16, 16), (4, 4))
    same = reshard_cost(a, a, dev)
    assert same.reinterpretation is None and same.moved_bytes == 0
    half = reshard_cost(a, a.with_grid((2, 4)), dev)
    assert half.reinterpretation is None and half.moved_bytes > 0


def test_chip_to_chip_counts_on_a_two_chip_mesh():
    dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (1, 2))
    a = tt.MetalLayout.from_collapse((256, 1024), (8, 16))
    b = tt.MetalLayout.from_collapse((256, 1024), (8, 8))
    c = reshard_cost(a, b, dev)
    # columns 512.. live on chip 1 in a and on chip 0 in b: half the tensor crosses chips
    assert c.chip_to_chip_bytes == 256 * 512 * 4
    # only columns 0..63 keep their core (core column 0 in both)
    assert c.local_bytes == 256 * 64 * 4


def test_tile_padding_rides_along():
    dev = tt.Device((2, 2), "(d0, d1) -> (0, d0, d1)")
    src = tt.MetalLayout.from_collapse((8, 8), (1, 1), tile=(32, 32))   # one tile, 1024 - 64 padding slots
    dst = tt.MetalLayout.from_collapse((8, 8), (1, 2))
    c = reshard_cost(src, dst, dev)
    assert c.padding_bytes == (1024 - 64) * 4      # the tile goes whole to core (0, 1)
    assert c.moved_bytes == 32 * 4


def test_bad_input_is_a_layout_error():
    dev = tt.Device((2, 2), "(d0, d1) -> (0, d0, d1)")
    a = tt.MetalLayout.from_collapse((8, 8), (2, 2))
    with pytest.raises(LayoutError, match="logical shape"):
        reshard_cost(a, tt.MetalLayout.from_collapse((8, 4), (2, 2)), dev)
    with pytest.raises(LayoutError, match="does not fit"):
        reshard_cost(tt.MetalLayout.from_collapse((8, 8), (4, 2)), a, dev)
    with pytest.raises(LayoutError, match="MetalLayout"):
        reshard_cost("x", a, dev)
    with pytest.raises(LayoutError, match="not injective"):
        reshard_cost(a, tt.MetalLayout((8, 8), "(d0, d1) -> (d0, d1 floordiv 2)", (2, 2)), dev)
    with pytest.raises(LayoutError, match="element_bytes"):
        reshard_cost(a, a, dev, element_bytes=0)


def test_v2_layouts_match_brute_force():
    from unilayout.tt import MetalLayoutV2

    dev = DEVICES[0]
    a = MetalLayoutV2((2, 3, 8, 16), (2, 4), (1, 1, 4, 4), [(0, 3), (3, 4)], tile=(4, 4))
    b = MetalLayoutV2((2, 3, 8, 16), (4, 4), (1, 1, 1, 1), [(0, 3), (3, 4)])
    c = tt.MetalLayout.from_collapse((2, 3, 8, 16), (3, 2))
    for s, d in ((a, b), (b, a), (a, c), (c, b)):
        assert counters(reshard_cost(s, d, dev, reinterpret=False)) == brute(s, d, dev, dev, 4)


def test_ttnn_l1_interleaved_is_refused():
    from unilayout import NotRepresentableError
    from unilayout.tt.ttnn_attrs import TTNNTensorLayout

    L = TTNNTensorLayout((512, 512), "(d0, d1) -> (d0, d1)", (8, 8), buffer_type="l1", memory_layout="interleaved",
                         tile=(32, 32))
    with pytest.raises(NotRepresentableError, match="round robin"):
        reshard_cost(L, tt.MetalLayout.from_collapse((512, 512), (8, 8)), tt.Device((8, 8), "(d0, d1) -> (0, d0, d1)"))
