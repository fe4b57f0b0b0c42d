"""unilayout.xla: XLA tiled layouts against the published linear-index formula, written here independently."""

import random

import numpy as np
import pytest

from unilayout import LayoutError, ParseError, xla
from unilayout.xla import XlaLayout, parse_xla_layout
from xla_strategies import random_layout


def _apply(v, ops):
    for op, k in ops:
        v = v // k if op == "div" else v % k
    return v


def linear_index(e, d):
    out = 0
    for x, n in zip(e, d):
        out = out * n + x
    return out


def reference_offset(index, dims, mtm, tiles):
    """XLA's tiled_layout.md: e, d major-to-minor; each tile maps (e, d) to ((e//t, e%t), (ceil(d/t), t)) on
    the most minor dims, and a repeated tile applies to the result."""
    order = list(reversed(mtm))
    e = [index[i] for i in order]
    d = [dims[i] for i in order]
    for t in tiles:
        k = len(t)
        he, te, hd, td = e[:-k], e[-k:], d[:-k], d[-k:]
        e = he + [x // s for x, s in zip(te, t)] + [x % s for x, s in zip(te, t)]
        d = hd + [-(-n // s) for n, s in zip(td, t)] + list(t)
    return linear_index(e, d)


def test_offsets_follow_the_published_formula():
    rng = random.Random(1)
    for _ in range(300):
        L = random_layout(rng)
        got = L.offsets()
        for x in np.ndindex(*L.dims):
            assert got[x] == reference_offset(x, L.dims, L.minor_to_major, L.tiles) == L(*x), (str(L), x)
        # distinct elements never share a slot, and all fit in the buffer
        assert np.unique(got).size == got.size and (got < L.storage_size).all()
        assert parse_xla_layout(str(L)) == L
        assert eval(repr(L), {"XlaLayout": XlaLayout}) == L
        # the affine map gives the same offsets
        m = L.to_affine()
        for x in list(np.ndindex(*L.dims))[:40]:
            assert m(*x) == (got[x],), (str(L), str(m), x)
        # the buffer dims and strides are the offset's digits
        for x in list(np.ndindex(*L.dims))[:40]:
            digits = [_apply(x[i], ops) for i, ops, _ in L.buffer_dims]
            assert all(0 <= v < n for v, (_, _, n) in zip(digits, L.buffer_dims))
            assert sum(v * s for v, s in zip(digits, L.buffer_strides)) == got[x]


def test_named_cases():
    bf = parse_xla_layout("bf16[128,256]{1,0:T(8,128)(2,1)}")
    assert bf.buffer_shape == (16, 2, 4, 128, 2, 1)
    # rows 0 and 1 of a column share a 32-bit word: adjacent slots
    assert bf(0, 0) == 0 and bf(1, 0) == 1 and bf(0, 1) == 2 and bf(8, 0) == 2048
    assert str(parse_xla_layout("f32[4,5]")) == "f32[4,5]{1,0}"
    assert parse_xla_layout("f32[]{}").offsets().shape == ()
    assert parse_xla_layout("  pred[3]{0:S(2)}").memory_space == 2


@pytest.mark.parametrize("text, msg", [
    ("f32[4,4]{1,1}", "not a permutation"),
    ("f32[4,4]{1,0:T(2,*)}", "combine dims are not modelled"),
    ("f32[4,4]{1,0:T(0,2)}", "tile sizes must be >= 1"),
    ("f32[4]{0:T(2,2)}", "more dims than the shape"),
    ("f32[4,4]{1,0:E(4)}", "expected T"),
    ("(f32[4], f32[2])", "tuple shape"),
    ("f32[4,4]{1,0", "'}' to close"),
])
def test_parse_errors(text, msg):
    with pytest.raises(ParseError, match=msg):
        parse_xla_layout(text)


def test_bad_values():
    with pytest.raises(LayoutError, match="not a permutation"):
        XlaLayout("f32", (2, 2), (0, 0))
    with pytest.raises(LayoutError, match="element type"):
        XlaLayout("f 32", (2,))
    with pytest.raises(LayoutError, match="outside the array"):
        parse_xla_layout("f32[2,2]")(2, 0)
    with pytest.raises(AttributeError):
        parse_xla_layout("f32[2,2]").dims = (1,)


def test_jax_layout_objects():
    pytest.importorskip("jax", reason="JAX gives real array layouts (pip install 'unilayout[jax]')")
    import jax.numpy as jnp
    from jax.experimental.layout import Layout
    x = jnp.zeros((4, 6), jnp.bfloat16)
    L = XlaLayout.from_jax(x.format.layout, x.shape, x.dtype)
    assert str(L) == "bf16[4,6]{1,0}" and (L.offsets() == np.arange(24).reshape(4, 6)).all()
    t = XlaLayout.from_jax(Layout((0, 1), ((8, 128), (2, 1))), (128, 256), "bfloat16")
    assert t == parse_xla_layout("bf16[128,256]{1,0:T(8,128)(2,1)}") and t.to_jax() == Layout((0, 1), ((8, 128), (2, 1)))
    with pytest.raises(LayoutError, match="no XLA element type"):
        XlaLayout.from_jax(Layout((0,)), (4,), "float8_e4m3fn")
    with pytest.raises(LayoutError, match="expected a jax.experimental.layout.Layout"):
        XlaLayout.from_jax("x", (4,))


def test_the_package_and_its_old_sharding_paths():
    from unilayout import sharding
    from unilayout.sharding import xla_layout

    assert xla.parse is parse_xla_layout and xla.XlaLayout is XlaLayout
    assert sharding.XlaLayout is xla_layout.XlaLayout is XlaLayout
    assert sharding.parse_xla_layout is xla_layout.parse_xla_layout is parse_xla_layout
    assert XlaLayout.__module__ == "unilayout.xla.layout"


def test_storage_past_int64_is_refused_so_call_and_offsets_agree():
    # 2 x 1 tiles of (1, 2**63 - 1): 2**64 - 2 slots, offsets past int64 (offsets() used to wrap to -2**63)
    with pytest.raises(LayoutError, match="int64"):
        parse_xla_layout("s8[2,3]{1,0:T(1,9223372036854775807)}")
    with pytest.raises(LayoutError, match="int64"):
        XlaLayout("s8", (2, 3), (1, 0), ((1, (1 << 63) - 1),))
    # a buffer of exactly 2**63 slots still fits: its last offset is INT64_MAX, in both paths
    L = XlaLayout("s8", (2, 1), (1, 0), ((1, 1 << 62),))
    assert L.storage_size == 1 << 63
    assert L(1, 0) == 1 << 62 and L.offsets().tolist() == [[0], [1 << 62]]


@pytest.mark.parametrize("text", [
    "s8[2]{0:T(9223372036854775807)(4611686018427387904)}",  # a size-1 buffer dim whose stride is 2**63
    "s8[3,2]{1,0:T(4611686018427387904,2)}",
    "s8[1,2]{0,1:T(2,4611686018427387904)(8)}",
])
def test_buffers_of_2_to_the_63_slots_give_offsets_not_overflow_errors(text):
    L = parse_xla_layout(text)
    assert L.storage_size <= 1 << 63
    got = L.offsets()  # was OverflowError: the stride of a size-1 buffer dim, 2**63, times an int64 array
    assert got.tolist() == np.vectorize(lambda *c: L(*c), otypes=[object])(*np.indices(L.dims)).tolist()


def test_offsets_equal_the_scalar_offset_for_tiles_near_2_to_the_63():
    rng = random.Random(30)
    edge = [1, 2, 3, 8, 1 << 20, 1 << 31, 1 << 62, (1 << 63) - 1, (1 << 61) + 1]
    checked = 0
    for _ in range(600):
        r = rng.randint(1, 3)
        dims = tuple(rng.choice([1, 2, 3, 5]) for _ in range(r))
        tiles = tuple(tuple(rng.choice(edge) for _ in range(rng.randint(1, 2))) for _ in range(rng.randint(0, 2)))
        try:
            L = XlaLayout("s8", dims, tuple(rng.sample(range(r), r)), tiles)
        except LayoutError:  # past int64 or a tile of more dims than the shape: refused at construction
            continue
        scalar = np.vectorize(lambda *c: L(*c), otypes=[object])(*np.indices(dims))
        assert L.offsets().tolist() == scalar.tolist(), (dims, tiles)
        checked += 1
    assert checked > 200


def test_zero_size_offsets_build_nothing():
    assert XlaLayout("s8", (0, 1 << 20, 1 << 20)).offsets().shape == (0, 1 << 20, 1 << 20)
    with pytest.raises(LayoutError, match="numpy has no array"):
        XlaLayout("s8", (0, 1 << 40, 1 << 40)).offsets()


def test_many_tiles_parse_in_time_linear_in_the_text():
    import time

    t = time.perf_counter()
    L = parse_xla_layout("f32[2]{0:" + "T(2)" * 20000 + "}")  # 80 KB of tiles: about 0.3 s (was quadratic: 20 s)
    assert time.perf_counter() - t < 2.0
    assert len(L.tiles) == 20000 and L.buffer_shape == (1,) * 20000 + (2,)


def test_a_buffer_past_int64_with_many_dims_is_refused_in_a_short_message():
    text = "f32[" + "2," * 99 + "2]"
    with pytest.raises(LayoutError, match="the buffer of 100 dims holds 1267650600228229401496703205376 elements"):
        parse_xla_layout(text)
