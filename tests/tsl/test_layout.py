"""TSL values: construction rules, addresses, index_map, resolve, canonicalize, tile bounds."""

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unilayout import LayoutError
from unilayout import index_map as top_index_map
from unilayout.tsl import Stride, TiledStride, TiledStridedLayout, parse

SEED = "#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1)>"


def test_seed_8x8_example_addresses():
    t = parse(SEED)
    grid = t.index_map().reshape(8, 8)
    assert grid[0].tolist() == [0, 1, 2, 3, 16, 17, 18, 19]
    assert grid[:, 0].tolist() == [0, 4, 8, 12, 32, 36, 40, 44]
    # 4x4 tiles, tile (I, J) at 32 I + 16 J, row-major inside
    for i in range(8):
        for j in range(8):
            assert grid[i, j] == 32 * (i // 4) + 16 * (j // 4) + 4 * (i % 4) + j % 4 == t(i, j)
    assert sorted(grid.reshape(-1).tolist()) == list(range(64))


def test_offset_is_included_in_addresses_and_index_map():
    t = parse("#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5>")
    assert t(5, 6) == 59 and t((5, 6)) == 59
    assert (t.index_map() == parse(SEED).index_map() + 5).all()
    assert (t.all_values() == parse(SEED).index_map()).all()
    assert (top_index_map(t) == t.index_map()).all()
    assert t.index_map().dtype == np.int64 and t.index_map().shape == (64,)


def test_layout_rules_and_from_strides():
    with pytest.raises(LayoutError, match="at least one dimension"):
        TiledStridedLayout([])
    t = TiledStridedLayout.from_strides([4, 1], [[2, 4], [2, 4]], offset=3)
    assert str(t) == "#tsl.tsl<[2, 4] -> (16, 4), [2, 4] -> (4, 1), offset: 3>"


def test_values_are_immutable_hashable_and_repr_pastes_back():
    a = parse("#tsl.tsl<[?, 4] -> (32, 4), [?, 4] -> (?, 1), offset: ?>")
    b = eval(repr(a), {"TiledStridedLayout": TiledStridedLayout})
    assert a == b and hash(a) == hash(b)
    assert eval(repr(Stride(4, None)), {"Stride": Stride}) == Stride(4, None)
    assert eval(repr(a.tstrides[0]), {"Stride": Stride, "TiledStride": TiledStride}) == a.tstrides[0]
    assert pickle.loads(pickle.dumps(a)) == a
    with pytest.raises(AttributeError):
        a.offset = 3
    with pytest.raises(AttributeError):
        a.tstrides[0].strides[0].step = 3
    assert a != parse("#tsl.tsl<[?, 4] -> (32, 4), [?, 4] -> (?, 1)>")


def test_shape_size_and_dynamic_flags():
    t = parse("#tsl.tsl<[?, 4] -> (32, 4), [2, 4] -> (16, 1)>")
    assert t.shape == (None, 8) and t.size is None and t.is_dynamic and t.rank == 2 and t.dimension() == 2
    assert parse("[4] -> (1), offset: ?").is_dynamic
    assert not parse(SEED).is_dynamic and parse(SEED).size == 64
    assert [(d, k, str(s)) for d, k, s in parse("[2, 4] -> (4, 1)")] == [(0, 0, "2 -> 4"), (0, 1, "4 -> 1")]
    assert parse(SEED).get_stride(1, 0) == Stride(2, 16)
    with pytest.raises(LayoutError, match="no stride at dim 2"):
        parse(SEED).get_stride(2, 0)


def test_address_errors():
    t = parse(SEED)
    with pytest.raises(LayoutError, match="outside"):
        t(8, 0)
    with pytest.raises(LayoutError, match="outside"):
        t(-1, 0)
    with pytest.raises(LayoutError, match="2 dim"):
        t(1)
    with pytest.raises(LayoutError, match="dynamic"):
        parse("[?, 4] -> (4, 1)")(0)
    with pytest.raises(LayoutError, match="dynamic"):
        parse("[4] -> (1), offset: ?").index_map()
    with pytest.raises(LayoutError, match="int64"):
        parse("[3] -> (9223372036854775807)").index_map()


@pytest.mark.parametrize(
    "text, shape, resolved",
    [
        ("[?, 4] -> (32, 4), [?, 4] -> (?, 1)", (64, 64), "[16, 4] -> (32, 4), [16, 4] -> (512, 1)"),
        ("[?, 8] -> (32, 1), [?, 4] -> (?, 8)", (64, 64), "[8, 8] -> (32, 1), [16, 4] -> (256, 8)"),
        ("[2, 4] -> (16, 4), [?, 4] -> (?, 32)", (8, 16), "[2, 4] -> (16, 4), [4, 4] -> (128, 32)"),
        ("[2, 4] -> (16, 4), [?, 4] -> (?, 32)", (8, 40), "[2, 4] -> (16, 4), [10, 4] -> (128, 32)"),
        ("[?, 4] -> (?, 1), [?, 4] -> (?, 4)", (8, 8), "[2, 4] -> (32, 1), [2, 4] -> (16, 4)"),
        ("[?] -> (?)", (5,), "[5] -> (1)"),
    ],
)
def test_resolve_reproduces_snax_lowering(text, shape, resolved):
    assert str(parse(text).resolve(shape)) == f"#tsl.tsl<{resolved}>"


def test_resolve_second_example_is_dense():
    t = parse("[?, 8] -> (32, 1), [?, 4] -> (?, 8)").resolve((64, 64))
    assert t.is_dense() and sorted(t.index_map().tolist()) == list(range(4096))


def test_resolve_errors_and_offset():
    t = parse("[?, 4] -> (?, 1), offset: ?")
    assert t.resolve((8,), offset=3) == parse("[2, 4] -> (4, 1), offset: 3")
    with pytest.raises(LayoutError, match="offset="):
        t.resolve((8,))
    with pytest.raises(LayoutError, match="not a multiple of its inner tile size 4"):
        parse("[?, 4] -> (?, 1)").resolve((10,))
    with pytest.raises(LayoutError, match="shape says 9"):
        parse("[2, 4] -> (4, 1)").resolve((9,))
    with pytest.raises(LayoutError, match="has 1 dim"):
        parse("[2, 4] -> (4, 1)").resolve((8, 8))
    with pytest.raises(LayoutError, match="positive"):
        parse("[?, 4] -> (4, 1)").resolve((0,))


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("[8, 8] -> (8, 1)", "[64] -> (1)"),
        ("[8, 1, 8] -> (8, 16, 1)", "[64] -> (1)"),
        ("[2, 8, 8] -> (8, 16, 1)", "[2, 8, 8] -> (8, 16, 1)"),
        ("[1, 8, 8] -> (64, 8, 1), [2, 8] -> (512, 64), offset: 3", "[64] -> (1), [16] -> (64), offset: 3"),
        ("[?, 8] -> (8, 1)", "[?] -> (1)"),
        ("[4, 2, 2] -> (?, 2, 1)", "[4, 4] -> (?, 1)"),
    ],
)
def test_canonicalize_examples(text, canonical):
    assert str(parse(text).canonicalize()) == f"#tsl.tsl<{canonical}>"


def test_tile_bounds_and_equal_tile_bounds():
    t = parse("[?, 4] -> (?, 1), [8] -> (64)")
    assert t.tile_bounds() == [[None, 4], [8]]
    assert t.equal_tile_bounds(parse("[?, 4] -> (3, 3), [8] -> (1)"))
    assert not t.equal_tile_bounds(parse("[2, 4] -> (3, 3), [8] -> (1)"))
    with pytest.raises(LayoutError, match="expected a TiledStridedLayout"):
        t.equal_tile_bounds("x")


def _tsls(max_dims=3, max_levels=3):
    level = st.tuples(st.integers(1, 4), st.integers(-8, 40))
    dim = st.lists(level, min_size=1, max_size=max_levels).map(lambda ls: TiledStride([Stride(b, s) for b, s in ls]))
    return st.tuples(st.lists(dim, min_size=1, max_size=max_dims), st.integers(-5, 20)).map(
        lambda t: TiledStridedLayout(t[0], t[1])
    )


@settings(max_examples=150, deadline=None)
@given(_tsls())
def test_canonicalize_keeps_the_function_and_is_idempotent(t):
    c = t.canonicalize()
    assert (c.index_map() == t.index_map()).all()
    assert c.canonicalize() == c
    assert all(ts.depth <= old.depth for ts, old in zip(c.tstrides, t.tstrides))


@settings(max_examples=150, deadline=None)
@given(_tsls())
def test_index_map_matches_the_scalar_address(t):
    table = t.index_map()
    coords = np.stack(np.unravel_index(np.arange(table.size), t.shape), axis=1)
    for r in range(0, table.size, max(1, table.size // 7)):
        assert table[r] == t(*coords[r].tolist())


def test_index_map_refuses_layouts_too_big_to_tabulate():
    with pytest.raises(LayoutError, match="one table may hold"):
        parse("#tsl.tsl<[100000, 100000] -> (1, 100000), [100000] -> (10000000000)>").index_map()
    with pytest.raises(LayoutError, match="one table may hold"):  # one dimension alone, before allocating
        parse("#tsl.tsl<[100000, 100000, 100000] -> (1, 1, 1)>").tstrides[0].contributions()
    with pytest.raises(LayoutError, match="do not fit in int64"):
        parse("#tsl.tsl<[2, 2] -> (4611686018427387904, 4611686018427387904)>").tstrides[0].contributions()


@pytest.mark.parametrize("strides, bounds", [(1.5, [[2]]), ([1], 1.5), (None, None)])
def test_from_strides_with_non_sequences_is_a_layout_error(strides, bounds):
    with pytest.raises(LayoutError, match="from_strides: strides and tile_bounds must be sequences"):
        TiledStridedLayout.from_strides(strides, bounds)  # was TypeError: 'float' object is not iterable
