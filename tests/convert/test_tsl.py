"""TSL conversions (unilayout.convert.tsl and .to_tsl): to affine maps, to and from CuTe and linear layouts, reasons."""

import numpy as np
import pytest
from convert_helpers import FAST, POW2_LEAF, natural_rowmajor
from hypothesis import given, settings
from hypothesis import strategies as st

from cute_strategies import layouts
from unilayout import LayoutError, NotRepresentableError, cute, linear, tsl
from unilayout.convert import cute_to_linear, cute_to_tsl, linear_to_tsl, tsl_to_affine, tsl_to_cute, tsl_to_linear
from unilayout.tsl import Stride, TiledStride, TiledStridedLayout, parse


@pytest.mark.parametrize(
    "text, printed",
    [
        (
            "[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5",
            "(d0, d1) -> ((d0 floordiv 4) * 32 + (d0 mod 4) * 4 + (d1 floordiv 4) * 16 + d1 mod 4 + 5)",
        ),
        ("[2, 2, 8] -> (64, 32, 1)", "(d0) -> ((d0 floordiv 16) * 64 + ((d0 mod 16) floordiv 8) * 32 + d0 mod 8)"),
        ("[?, 4] -> (?, 1)", "(d0)[s0] -> ((d0 floordiv 4) * s0 + d0 mod 4)"),
        ("[4, 1, 2] -> (?, ?, 3), offset: ?", "(d0)[s0, s1, s2] -> ((d0 floordiv 2) * s0 + (d0 mod 2) * 3 + s2)"),
        ("[8] -> (0), [3] -> (1)", "(d0, d1) -> (d1)"),
    ],
)
def test_to_affine_examples(text, printed):
    assert str(parse(text).to_affine()) == printed


def test_to_affine_reference_point():
    assert parse("[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5").to_affine()(5, 6) == (59,)


def _tsls(offset=True):
    level = st.tuples(st.integers(1, 4), st.integers(-8, 40))
    dim = st.lists(level, min_size=1, max_size=3).map(lambda ls: TiledStride([Stride(b, s) for b, s in ls]))
    return st.tuples(st.lists(dim, min_size=1, max_size=3), st.integers(-5, 20) if offset else st.just(0)).map(
        lambda t: TiledStridedLayout(t[0], t[1])
    )


@settings(max_examples=150, deadline=None)
@given(_tsls())
def test_to_affine_keeps_the_function(t):
    m = t.to_affine()
    assert (m.index_map(t.shape)[:, 0] == t.index_map()).all()


def test_to_cute_reference_examples():
    assert str(parse("[2, 4] -> (32, 4), [2, 4] -> (16, 1)").to_cute()) == "((4,2),(4,2)):((4,32),(1,16))"
    assert str(parse("[2, 4] -> (32, 4)").to_cute()) == "((4,2)):((4,32))"
    assert tsl.from_cute(cute.Layout(((4, 2), (4, 2)), ((4, 32), (1, 16)))) == parse("[2, 4] -> (32, 4), [2, 4] -> (16, 1)")
    assert tsl.from_cute(cute.Layout(8, 2), offset=3) == parse("[8] -> (2), offset: 3")


def test_to_cute_needs_static_offset_free_layouts():
    with pytest.raises(NotRepresentableError, match="offset 5"):
        parse("[4] -> (1), offset: 5").to_cute()
    with pytest.raises(NotRepresentableError, match="offset \\?"):
        parse("[4] -> (1), offset: ?").to_cute()
    with pytest.raises(NotRepresentableError, match="resolve"):
        parse("[?, 4] -> (4, 1)").to_cute()
    with pytest.raises(NotRepresentableError, match="plain cute.Layout"):
        cute_to_tsl(cute.ComposedLayout(cute.Swizzle(1, 0, 1), 0, cute.Layout(4)))
    with pytest.raises(LayoutError, match="expected a TiledStridedLayout"):
        tsl_to_cute("x")
    with pytest.raises(LayoutError, match="expected a TiledStridedLayout"):
        tsl_to_affine(3)


@settings(max_examples=150, deadline=None)
@given(_tsls(offset=False))
def test_tsl_cute_round_trip_keeps_the_function(t):
    L = t.to_cute()
    assert tsl.from_cute(L) == t
    table = t.index_map()
    coords = np.stack(np.unravel_index(np.arange(table.size), t.shape), axis=1)
    for r in range(0, table.size, max(1, table.size // 9)):
        assert L(*coords[r].tolist()) == table[r]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.tuples(st.integers(1, 4), st.integers(-5, 9)),
            st.tuples(
                st.lists(st.integers(1, 4), min_size=2, max_size=3),
                st.lists(st.integers(-5, 9), min_size=3, max_size=3),
            ).map(lambda t: (tuple(t[0]), tuple(t[1][: len(t[0])]))),
        ),
        min_size=1,
        max_size=3,
    ),
    st.integers(-3, 3),
)
def test_cute_tsl_round_trip_keeps_the_function(modes, offset):
    L = cute.Layout(tuple(m[0] for m in modes), tuple(m[1] for m in modes))
    t = cute_to_tsl(L, offset)
    assert t.shape == tuple(cute.size(m[0]) if isinstance(m[0], tuple) else m[0] for m in modes)
    if offset == 0:
        assert t.to_cute() == L
    table = t.index_map()
    coords = np.stack(np.unravel_index(np.arange(table.size), t.shape), axis=1)
    for r in range(0, table.size, max(1, table.size // 9)):
        assert table[r] == offset + L(*coords[r].tolist())


# --------------------------------------------------------------------------------- TSL


@FAST
@given(layouts(sizes=POW2_LEAF, stride=st.sampled_from([0, 1, 2, 4, 8, 16, 32])))
def test_tsl_linear_round_trip(L):
    t = cute_to_tsl(L)
    try:
        lin = tsl_to_linear(t)
    except NotRepresentableError:
        with pytest.raises(NotRepresentableError):
            cute_to_linear(L)
        return
    assert lin.in_dims == [(f"dim{i}", n) for i, n in enumerate(t.shape)]
    t2 = linear_to_tsl(lin)
    np.testing.assert_array_equal(t2.index_map(), t.index_map())
    np.testing.assert_array_equal(tsl_to_affine(t).index_map(t.shape)[:, 0], t.index_map().reshape(-1))


def test_tsl_linear_reasons():
    with pytest.raises(NotRepresentableError, match="maps 0 to 0"):
        tsl_to_linear(tsl.parse("[4] -> (1), offset: 2"))
    with pytest.raises(NotRepresentableError, match="swizzled"):
        linear_to_tsl(linear.LinearLayout({"i": [[1], [3]]}, {"o": 4}))
    with pytest.raises(LayoutError):
        tsl_to_linear(cute.Layout(4, 1))


def test_tsl_cute_existing_conversions_still_hold():
    t = tsl.parse("#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1)>")
    L = tsl_to_cute(t)
    assert str(L) == "((4,2),(4,2)):((4,32),(1,16))" and cute_to_tsl(L) == t
    vals, _ = natural_rowmajor(L)
    np.testing.assert_array_equal(t.index_map().reshape(-1), vals)
