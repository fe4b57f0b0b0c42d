"""unilayout.equivalent (implemented in unilayout.convert.equivalence): across families, and exactly for affine maps."""

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import unilayout
from cute_strategies import layouts
from seed_texts import SEED_DEVICE, SEED_LINEAR, SEED_TENSOR
from unilayout import LayoutError, NotRepresentableError, affine, cute, linear, tsl, tt
from unilayout.convert import cute_to_affine, cute_to_linear, cute_to_tsl, linear_to_cute, metal_to_affine

FAST = settings(max_examples=40, deadline=None)


@FAST
@given(layouts(stride=st.integers(0, 16)))
def test_equivalent_to_every_conversion(L):
    assert unilayout.equivalent(L, cute_to_affine(L))
    assert unilayout.equivalent(cute_to_affine(L), L)
    assert unilayout.equivalent(L, cute_to_tsl(L))
    assert unilayout.equivalent(cute_to_tsl(L), L)
    try:
        lin = cute_to_linear(L)
    except NotRepresentableError:
        return
    assert unilayout.equivalent(L, lin) and unilayout.equivalent(lin, L)
    assert unilayout.equivalent(lin, linear_to_cute(lin))


@FAST
@given(layouts(stride=st.integers(0, 16)), layouts(stride=st.integers(0, 16)))
def test_equivalent_agrees_with_index_maps(a, b):
    want = a.size == b.size and np.array_equal(a.index_map(), b.index_map())
    assert unilayout.equivalent(a, b) == want
    # natural coordinates across families: the boxes must match too
    box_a, box_b = cute.product_each(a.shape), cute.product_each(b.shape)
    def squeeze(box):  # size-1 dims are ignored when boxes are compared
        return tuple(v for v in (box if isinstance(box, tuple) else (box,)) if v != 1)

    same_box = squeeze(box_a) == squeeze(box_b)
    assert unilayout.equivalent(a, cute_to_tsl(b)) == (want and same_box)


def test_equivalent_false_on_different_domains():
    L = cute.parse("(4,2):(1,4)")
    assert not unilayout.equivalent(L, cute.parse("(4,4):(1,4)"))
    assert not unilayout.equivalent(L, tsl.parse("[2] -> (4), [4] -> (1)"))
    assert not unilayout.equivalent(L, linear.identity_1d(16, "i", "o"))
    assert not unilayout.equivalent(L, unilayout.parse(SEED_DEVICE))
    assert not unilayout.equivalent(affine.parse("(d0) -> (d0, d0)"), L)
    assert not unilayout.equivalent(L, affine.parse("(d0, d1, d2) -> (d0)"))
    assert not unilayout.equivalent(tsl.parse("[4] -> (1), offset: 1"), cute.Layout(4, 1))


def test_equivalent_linear_layouts():
    a = linear.LinearLayout({"t": [[1, 1], [2, 2]], "w": [[0, 1], [0, 2]]}, ["x", "y"])
    b = a.transpose_ins(["w", "t"]).transpose_outs(["y", "x"])
    assert a != b and unilayout.equivalent(a, b)
    assert not unilayout.equivalent(a, linear.LinearLayout({"t": [[1, 1], [2, 2]], "w": [[0, 1], [0, 3]]}, ["x", "y"]))
    assert not unilayout.equivalent(a, a.rename_in_dim("w", "v"))
    # linear against affine: per out-dim; against CuTe: out-dims flattened
    from unilayout.convert import linear_to_affine

    assert unilayout.equivalent(a, linear_to_affine(a))
    assert unilayout.equivalent(linear_to_affine(a), a)
    L = unilayout.parse(SEED_LINEAR)
    assert unilayout.equivalent(L, linear_to_cute(L))
    assert unilayout.equivalent(linear_to_cute(L), L)


def test_equivalent_swizzles():
    C = cute.parse("Sw<3,4,3> o 0 o (8,64):(64,1)")
    assert unilayout.equivalent(C, cute.parse("Sw<2,4,3> o 0 o (8,64):(64,1)"))
    assert not unilayout.equivalent(C, cute.parse("Sw<2,4,3> o 0 o (8,128):(128,1)"))
    assert unilayout.equivalent(C, cute_to_linear(C))
    assert unilayout.equivalent(cute_to_affine(C), C)
    assert unilayout.equivalent(cute.Swizzle(1, 0, 1), linear.LinearLayout({"i": [[1], [3]]}, {"o": 4}))


def test_equivalent_affine_and_metal_and_devices():
    a = affine.parse("(d0) -> ((d0 floordiv 8) * 8 + d0 mod 8)")
    b = affine.parse("(d0) -> (d0)")
    assert unilayout.equivalent(a, b, shape=(32,))
    assert unilayout.equivalent(a, a)
    assert not unilayout.equivalent(a, affine.parse("(d0) -> (d0 mod 8)"), shape=(32,))
    assert unilayout.equivalent(a, affine.parse("(d0) -> (d0 mod 8)"), shape=(8,))
    assert unilayout.equivalent(a, b)  # without a box: exact over all integers
    with pytest.raises(LayoutError, match="pass shape"):
        unilayout.equivalent(a, unilayout.parse("#tsl.tsl<[?] -> (1)>"))
    ml = unilayout.parse(SEED_TENSOR).with_grid((2, 4))
    assert unilayout.equivalent(ml, metal_to_affine(ml, flat=True))
    assert unilayout.equivalent(metal_to_affine(ml, flat=True), ml)
    assert unilayout.equivalent(metal_to_affine(ml), ml) and unilayout.equivalent(ml, metal_to_affine(ml))
    assert not unilayout.equivalent(ml, affine.parse("(d0, d1, d2, d3) -> (d0, 0, d1 * 64 + d2, d3)"))
    assert not unilayout.equivalent(ml, affine.parse("(d0, d1, d2, d3) -> (d0, d3)"))
    assert unilayout.equivalent(ml, tt.MetalLayout.from_collapse((2, 3, 64, 128), (2, 4)))
    assert not unilayout.equivalent(ml, tt.MetalLayout.from_collapse((2, 3, 64, 128), (1, 1)))
    dev = unilayout.parse(SEED_DEVICE)
    gen = tt.Device.from_mesh(tt.SystemDesc((8, 8), 2), (1, 2))
    assert dev != gen and unilayout.equivalent(dev, gen)
    assert unilayout.equivalent(gen.grid_map, dev)  # chip index == chip id here; the box comes from the device
    far = tt.Device.from_mesh(tt.SystemDesc((8, 8), 8), (1, 2), [4, 5])
    assert not unilayout.equivalent(far.grid_map, far)  # chip index 0, 1 but chip ids 4, 5
    assert unilayout.equivalent(gen.grid_map, dev.grid_map, shape=(8, 16))


def test_equivalent_dynamic_tsl():
    dyn = tsl.parse("#tsl.tsl<[?, 4] -> (32, 4), [?, 4] -> (?, 1)>")
    res = dyn.resolve((64, 64))
    assert unilayout.equivalent(dyn, dyn)
    assert unilayout.equivalent(dyn, res) and unilayout.equivalent(res, dyn)
    assert unilayout.equivalent(dyn, tsl.parse("#tsl.tsl<[?, 4] -> (32, 4), [?, 4] -> (512, 1)>"), shape=(64, 64))
    with pytest.raises(NotRepresentableError, match="resolve"):
        unilayout.equivalent(dyn, tsl.parse("#tsl.tsl<[?, 4] -> (32, 4), [?, 4] -> (512, 1)>"))
    assert not unilayout.equivalent(dyn, tsl.parse("[3] -> (1), [3] -> (3)"))


def test_equivalent_rejects_bad_shapes():
    m = affine.parse("(d0, d1) -> (d0 * 2 + d1)")
    for bad in ("ab", 5, (2, -1), (2.5, 1)):
        with pytest.raises(LayoutError, match="shape"):
            unilayout.equivalent(m, cute.Layout((2, 2), (2, 1)), shape=bad)


def test_equivalent_errors():
    with pytest.raises(LayoutError):
        unilayout.equivalent(cute.Layout(4, 1), "4:1")
    big = cute.Layout(3 << 24, 1)
    with pytest.raises(LayoutError, match="to compare one by one"):
        unilayout.equivalent(big, cute.Layout((3, 1 << 24), (1, 3)))
    assert unilayout.equivalent(big, big)
    # power-of-two layouts compare by the images of their input bits, however large
    huge = cute.Layout((1 << 20, 1 << 20), (1 << 20, 1))
    assert unilayout.equivalent(huge, cute.Layout((1 << 20, (1 << 10, 1 << 10)), (1 << 20, (1, 1 << 10))))
    assert not unilayout.equivalent(huge, cute.Layout((1 << 20, 1 << 20), (1, 1 << 20)))
    assert unilayout.equivalent(huge, cute_to_linear(huge))
    assert not unilayout.equivalent(cute.Layout((1 << 20, 1 << 20), (1 << 20, 3)), cute_to_linear(huge))


# ------------------------------------------------------------------------------ affine maps without a box


def brute_equal(a, b, size=48):
    """Independent check: same values at every point of [0, size)^n, symbols taken as more coordinates."""
    n = a.num_dims + a.num_symbols
    grid = np.stack(np.meshgrid(*[np.arange(size)] * n, indexing="ij"), -1).reshape(-1, n)
    ev = lambda m: np.stack(m.evaluate(*[grid[:, i] for i in range(m.num_dims)],
                                       *[grid[:, m.num_dims + j] for j in range(m.num_symbols)]), -1)
    return bool(np.array_equal(np.broadcast_to(ev(a), (len(grid), a.num_results)),
                               np.broadcast_to(ev(b), (len(grid), b.num_results))))


@pytest.mark.parametrize("a, b, equal", [
    ("(d0) -> (d0 mod 4)", "(d0) -> (d0 - (d0 floordiv 4) * 4)", True),
    ("(d0) -> ((d0 floordiv 2) * 2)", "(d0) -> (d0)", False),
    ("(d0) -> ((d0 floordiv 2) floordiv 2)", "(d0) -> (d0 floordiv 4)", True),
    ("(d0) -> (d0 ceildiv 4)", "(d0) -> ((d0 + 3) floordiv 4)", True),
    ("(d0) -> (d0 ceildiv 4)", "(d0) -> ((d0 + 4) floordiv 4)", False),
    ("(d0, d1) -> (d0 * 8 + d1 mod 8, d1 floordiv 8)", "(d0, d1) -> (d0 * 8 + d1 - (d1 floordiv 8) * 8, d1 floordiv 8)", True),
    ("(d0)[s0] -> (d0 + s0 mod 3)", "(d0)[s0] -> (s0 mod 3 + d0)", True),
    ("(d0)[s0] -> (d0 + s0 mod 3)", "(d0)[s0] -> (d0 + s0 mod 6)", False),
    ("(d0) -> ((d0 mod 1000) floordiv 999)", "(d0) -> (0)", False),  # differs only at 999 (+ k * 1000)
    ("(d0) -> (d0)", "(d0, d1) -> (d0)", False),
    ("(d0) -> (d0)", "(d0) -> (d0, d0)", False),
])
def test_affine_maps_compared_exactly_without_a_box(a, b, equal):
    ma, mb = affine.parse(a), affine.parse(b)
    assert unilayout.equivalent(ma, mb) is equal
    assert unilayout.equivalent(mb, ma) is equal


def _maps(num_dims, num_symbols):
    """Random quasi-affine maps: constant factors and divisors only (symbols as extra variables)."""
    leaves = st.one_of(st.integers(0, num_dims - 1).map(affine.Dim), st.integers(-5, 5).map(affine.Constant),
                       *([st.integers(0, num_symbols - 1).map(affine.Symbol)] if num_symbols else []))

    def extend(children):
        k = st.integers(1, 6)
        return st.one_of(
            st.tuples(children, children).map(lambda t: t[0] + t[1]),
            st.tuples(children, st.integers(-3, 3)).map(lambda t: t[0] * t[1]),
            st.tuples(children, k).map(lambda t: t[0].floordiv(t[1])),
            st.tuples(children, k).map(lambda t: t[0].ceildiv(t[1])),
            st.tuples(children, k).map(lambda t: t[0] % t[1]),
        )

    exprs = st.recursive(leaves, extend, max_leaves=6)
    return st.lists(exprs, min_size=1, max_size=2).map(lambda rs: affine.AffineMap(num_dims, num_symbols, rs))


@st.composite
def map_pairs(draw):
    nd, ns = draw(st.integers(1, 2)), draw(st.integers(0, 1))
    m = draw(_maps(nd, ns))
    how = draw(st.sampled_from(["simplify", "rewrite", "perturb", "other"]))
    if how == "simplify":
        return m, m.simplify()
    if how == "rewrite":  # e mod k written as e - (e floordiv k) * k, e + c as (e + c*k) - c*k, built without folds
        k = draw(st.integers(1, 5))
        rewritten = [affine.Binary("+", affine.Binary("+", r, affine.Constant(k)), affine.Constant(-k)) for r in m.results]
        return m, affine.AffineMap(nd, ns, rewritten)
    if how == "perturb":
        j = draw(st.integers(0, m.num_results - 1))
        bump = draw(st.sampled_from([affine.Constant(1), affine.Dim(0).floordiv(draw(st.integers(2, 7))),
                                     affine.Dim(nd - 1) % draw(st.integers(2, 7))]))
        res = list(m.results)
        res[j] = res[j] + bump
        return m, affine.AffineMap(nd, ns, res)
    return m, draw(_maps(nd, ns))


@settings(max_examples=300, deadline=None)
@given(map_pairs())
def test_exact_affine_equivalence_agrees_with_brute_force(pair):
    a, b = pair
    if a.num_results != b.num_results:
        assert not unilayout.equivalent(a, b)
        return
    got = unilayout.equivalent(a, b)
    # an independent box: twice the largest period of either map (differences show within it)
    size = 2 * max(max(affine.linear_part(a).periods), max(affine.linear_part(b).periods), 24)
    assume(size ** (a.num_dims + a.num_symbols) <= 1 << 21)
    assert got == brute_equal(a, b, size=size)


def test_exact_affine_equivalence_refuses_symbolic_factors_and_huge_period_boxes():
    with pytest.raises(LayoutError, match="not quasi-affine"):
        unilayout.equivalent(affine.parse("(d0)[s0] -> (d0 mod s0)"), affine.parse("(d0)[s0] -> (d0)"))
    with pytest.raises(LayoutError, match="not quasi-affine"):
        unilayout.equivalent(affine.parse("(d0)[s0] -> (d0 * s0)"), affine.parse("(d0)[s0] -> (d0)"))
    big = affine.parse("(d0, d1) -> (d0 mod 65537 + d1 mod 65539)")
    same = affine.parse("(d0, d1) -> (d1 mod 65539 + d0 mod 65537)")
    with pytest.raises(LayoutError, match=r"period box \(65537, 65539\).*pass shape="):
        unilayout.equivalent(big, same)
    # different linear parts decide without a box; with a box, the comparison is on the box as before
    assert not unilayout.equivalent(big, affine.parse("(d0, d1) -> (d0 + d1)"))
    assert unilayout.equivalent(big, affine.parse("(d0, d1) -> (d0 + d1)"), shape=(64, 64))
