"""The block array behind distribute: element G * s' + q is ml.shard(a)[G + q], and back (the block plan: tests/tt)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unilayout import LayoutError, tt
from unilayout.distributed._plan import block_array, from_block_array

LAYOUTS = [
    tt.MetalLayout.from_collapse((2, 3, 64, 128), (2, 4)),
    tt.MetalLayout.from_collapse((53, 63), (3, 2)),
    tt.MetalLayout.from_collapse((53, 63), (3, 2), tile=(32, 32), oob_val="neginf"),
    tt.MetalLayout((8, 96, 32), "(d0, d1, d2) -> (d0 * 96 + d1, d1, d2)", (2, 1, 2)),
    tt.MetalLayout((8, 6), "(d0, d1) -> (d0 floordiv 2, d0 mod 2, d1)", (3, 1, 4)),
    tt.MetalLayout.from_collapse((3, 5, 7, 4), (2, 2, 3), [(1, -1)], tile=(4, 4)),
]


def _reference(ml, a):
    s = ml.shard(a)
    out = np.empty(tuple(n * p for n, p in zip(ml.grid, ml.padded_shard_shape)), dtype=s.dtype)
    for G in np.ndindex(*ml.grid):  # one copy per cell: the plain definition
        out[tuple(slice(c * p, (c + 1) * p) for c, p in zip(G, ml.padded_shard_shape))] = s[G]
    return out


@pytest.mark.parametrize("ml", LAYOUTS, ids=str)
def test_block_array_is_the_shards_side_by_side(ml):
    a = np.random.default_rng(0).random(ml.logical_shape).astype(np.float32)
    b = block_array(ml, a)
    np.testing.assert_array_equal(b, _reference(ml, a))
    np.testing.assert_array_equal(from_block_array(ml, b), a)


def test_dense_layout_is_a_view():
    ml = tt.MetalLayout.from_collapse((2, 3, 64, 128), (2, 4))
    a = np.zeros((2, 3, 64, 128), np.float32)
    assert np.shares_memory(block_array(ml, a), a)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 9), min_size=1, max_size=3), st.data())
def test_random_block_arrays(shape, data):
    g = data.draw(st.integers(1, 3))
    grid = tuple(data.draw(st.integers(1, 4)) for _ in range(g))
    tile = data.draw(st.sampled_from([None, (2, 2), (1, 3)])) if g >= 2 else None
    try:
        ml = tt.MetalLayout.from_collapse(tuple(shape), grid, tile=tile)
    except LayoutError:
        return
    a = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
    b = block_array(ml, a)
    np.testing.assert_array_equal(b, _reference(ml, a))
    np.testing.assert_array_equal(from_block_array(ml, b), a)

