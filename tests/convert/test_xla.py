"""convert.xla: XLA tiled layouts to affine, CuTe, linear, TSL and tt metal, element by element against XLA's linear index."""

import random

import numpy as np
import pytest

import unilayout
from unilayout import NotRepresentableError, cute
from unilayout.convert import convert_to
from unilayout.convert.xla import xla_to_cute, xla_to_metal
from unilayout.xla import XlaLayout, parse_xla_layout
from xla_strategies import random_layout as any_tiling


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


def test_cute_exactly_when_nothing_pads():
    """Any tiling (two levels, tiles of 1 and 3): a CuTe layout iff no tile pads, then XLA's offset at every element."""
    rng = random.Random(1)
    exact = 0
    for _ in range(300):
        L = any_tiling(rng, "f32")
        try:
            C = xla_to_cute(L)
        except NotRepresentableError as e:
            assert L.padded and "pads dim" in str(e)
            continue
        assert not L.padded
        got = L.offsets()
        for x in np.ndindex(*L.dims):
            assert C(x) == got[x], (str(L), str(C), x)
        exact += 1
    assert exact > 50


def tile_major_offsets(ml, shape):
    """Where tt puts each element in its tile-major shards (to_tiles), read back from the data."""
    a = np.arange(1, int(np.prod(shape)) + 1).reshape(shape)
    flat = ml.replace(oob_val="zero").to_tiles(ml.replace(oob_val="zero").shard(a)).reshape(-1)
    off = np.zeros(shape, np.int64)
    pos = np.flatnonzero(flat)
    off.reshape(-1)[flat[pos] - 1] = pos
    return off, flat.size


def test_to_metal_puts_every_element_where_xla_does():
    rng = random.Random(6)
    done = 0
    for _ in range(200):
        r = rng.randint(2, 3)
        dims = tuple(rng.randint(1, 9) for _ in range(r))
        mtm = list(range(r))
        rng.shuffle(mtm)
        tiles = ((rng.randint(1, 4), rng.randint(1, 4)),) if rng.random() < 0.8 else ()
        L = XlaLayout("f32", dims, tuple(mtm), tiles)
        ml = xla_to_metal(L)
        off, size = tile_major_offsets(ml, dims)
        assert (off == L.offsets()).all() and size == L.storage_size, (str(L), str(ml))
        done += 1
    assert done == 200
    with pytest.raises(NotRepresentableError, match="2 tile levels"):
        xla_to_metal(parse_xla_layout("bf16[128,256]{1,0:T(8,128)(2,1)}"))
    with pytest.raises(NotRepresentableError, match="not 2-D"):
        xla_to_metal(parse_xla_layout("f32[8,8]{1,0:T(8)}"))


def test_the_deprecated_methods_delegate_here():
    x = parse_xla_layout("f32[4,6]{0,1:T(2,2)}")
    assert x.to_cute() == xla_to_cute(x) and x.to_metal() == xla_to_metal(x)
    assert x.to_metal("zero") == xla_to_metal(x, oob_val="zero")
