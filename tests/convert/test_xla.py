"""convert.xla: XLA tiled layouts to affine, CuTe, linear and TSL, element by element against XLA's linear index."""

import random

import numpy as np
import pytest

import unilayout
from unilayout import NotRepresentableError, cute
from unilayout.convert import convert_to
from unilayout.sharding import XlaLayout


def random_layout(rng, pad):
    rank = rng.randint(1, 3)
    dims = tuple(rng.choice([1, 2, 3, 4, 6, 8]) for _ in range(rank))
    mtm = list(range(rank))
    rng.shuffle(mtm)
    tiles = ()
    if rng.random() < 0.7:
        k = rng.randint(1, rank)
        tail = [dims[i] for i in reversed(mtm)][rank - k:]  # the minor-most dims, major to minor
        if pad:
            tile = tuple(rng.choice([2, 4]) for _ in tail)
        else:
            tile = tuple(rng.choice([t for t in (1, 2, 4, 8) if n % t == 0]) for n in tail)
        tiles = (tile,)
    return XlaLayout("f32", dims, tuple(mtm), tiles)


def xla_table(x):
    return np.array([x(*i) for i in np.ndindex(*x.dims)], dtype=np.int64)  # row-major over the dims


def test_every_target_is_xlas_linear_index():
    rng = random.Random(8)
    exact = refused = 0
    for _ in range(150):
        x = random_layout(rng, pad=rng.random() < 0.3)
        want = xla_table(x)
        aff = convert_to(x, "affine")
        assert np.array_equal(aff.index_map(x.dims)[:, 0], want), x
        try:
            L = convert_to(x, "cute")
        except NotRepresentableError as e:
            assert x.padded and "pads" in str(e), (x, e)
            refused += 1
            continue
        colex = [int(np.ravel_multi_index(i, x.dims, order="F")) for i in np.ndindex(*x.dims)]
        assert [int(L(c)) for c in colex] == want.tolist(), (x, L)
        t = convert_to(x, "tsl")
        assert np.array_equal(np.asarray(t.index_map()).reshape(-1), want), (x, t)
        try:
            lin = convert_to(x, "linear")
        except NotRepresentableError:
            pass  # not GF(2)-linear (a size that is not a power of two): cute_to_linear says why
        else:
            assert np.array_equal(lin.index_map().reshape(-1), cute.index_map(L).reshape(-1)), x
        assert unilayout.equivalent(x, L) and unilayout.equivalent(L, x)
        exact += 1
    assert exact > 60 and refused > 5, (exact, refused)


def test_a_padded_layout_is_not_equivalent_to_its_unpadded_neighbour():
    x = unilayout.parse("f32[3,5]{1,0:T(2,2)}")
    assert not unilayout.equivalent(x, unilayout.parse("f32[3,5]{1,0}"))
    with pytest.raises(NotRepresentableError, match="pads dim 0"):
        convert_to(x, "tsl")
