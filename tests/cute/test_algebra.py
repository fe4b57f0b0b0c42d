import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cute_strategies import POW2, compact_layouts, layouts
from unilayout import LayoutError, cute
from unilayout.cute import (
    ComposedLayout,
    Layout,
    Swizzle,
    algebra,
    blocked_product,
    coalesce,
    complement,
    compose,
    composition,
    divide,
    downcast,
    evaluate,
    filter,
    flat_divide,
    flat_product,
    index_map,
    left_inverse,
    logical_divide,
    logical_product,
    make_layout,
    raked_product,
    recast_layout,
    right_inverse,
    tile_to_shape,
    tiled_divide,
    tiled_product,
    upcast,
    zipped_divide,
    zipped_product,
)
from unilayout.cute.inttuple import idx2crd, leaves, product_each

SETTINGS = settings(max_examples=150, deadline=None)


def values(L):
    return index_map(L).tolist()


# -- coalesce / filter -----------------------------------------------------------


@pytest.mark.parametrize("layout,expected", [
    (Layout((2, 1), (3, 7)), Layout(2, 3)),                 # (s0,_1) -> s0:d0
    (Layout((1, 6), (3, 7)), Layout(6, 7)),                 # (_1,s1) -> s1:d1
    (Layout((4, 8), (1, 4)), Layout(32, 1)),                # (M,N):(1,M) -> M*N:1 (seed)
    (Layout(((2, 3), 4, 5), ((1, 2), 6, 24)), Layout(120, 1)),
    (Layout((1, 1), (5, 7)), Layout(1, 0)),
    (Layout((2, 2), (0, 0)), Layout(4, 0)),
])
def test_coalesce_cases(layout, expected):
    assert coalesce(layout) == expected


def test_coalesce_by_mode_keeps_rank():
    L = Layout(((2, 3), 4, 5), ((1, 2), 6, 24))
    assert coalesce(L, (1, 1, 1)) == Layout((6, 4, 5), (1, 6, 24))
    assert coalesce(L, (1,)) == Layout((6, 4, 5), (1, 6, 24))
    M, N, K, Lm = 2, 3, 4, 5
    seed = Layout(((M, N), K, Lm), ((1, M), M * N, M * N * K))
    assert coalesce(seed, (1, 1, 1)) == Layout((M * N, K, Lm), (1, M * N, M * N * K))
    with pytest.raises(LayoutError):
        coalesce(Layout((2, 3)), (1, 1, 1))


@SETTINGS
@given(layouts(max_depth=3))
def test_coalesce_keeps_the_function(L):
    C = coalesce(L)
    assert C.size == L.size and C.depth <= 1 and values(C) == values(L)


@SETTINGS
@given(layouts(max_depth=3))
def test_filter_keeps_the_image(L):
    F = filter(L)
    assert set(values(F)) == set(values(L))
    assert all(d != 0 for d in leaves(F.stride)) or F == Layout(1, 0)


# -- composition -------------------------------------------------------------------


@pytest.mark.parametrize("a,b,expected", [
    (Layout((6, 2), (8, 2)), Layout((4, 3), (3, 1)), "((2,2),3):((24,2),8)"),
    (Layout((6, 2), (8, 2)), Layout(4, 3), "(2,2):(24,2)"),
    (Layout((6, 2), (8, 2)), Layout(3, 1), "3:8"),
    (Layout((12, (4, 8)), (59, (13, 1))), (Layout(3, 4), Layout(8, 2)), "(3,(2,4)):(236,(26,1))"),
    (Layout((12, (4, 8)), (59, (13, 1))), (3, 8), "(3,(4,2)):(59,(13,1))"),
    (Layout((4, 8), (1, 4)), (Layout((2, 4), (1, 2)),), "((2,4)):((1,2))"),
    (Layout((4, 1), (1, 0)), Layout(8, 1), "(4,2):(1,0)"),
    (Layout(20, 2), Layout((5, 4), (4, 1)), "(5,4):(8,2)"),
])
def test_composition_reference_table(a, b, expected):
    assert str(composition(a, b)) == expected


def test_composition_tiler_drops_extra_modes_and_rejects_long_tilers():
    A = Layout((4, 8, 2))
    assert composition(A, (2,)).rank == 1
    with pytest.raises(LayoutError, match="longer"):
        composition(Layout((4, 8)), (2, 2, 2))


def test_composition_divisibility_failures_raise():
    with pytest.raises(LayoutError, match="stride divisibility"):
        composition(Layout((6, 2), (1, 10)), Layout(4, 4))  # C++ returns a wrong layout here
    with pytest.raises(LayoutError, match="stride divisibility"):
        composition(Layout((4, 3), (1, 5)), Layout(2, 6))
    with pytest.raises(LayoutError, match="shape divisibility"):
        composition(Layout((4, 6), (1, 5)), Layout(6, 1))


@st.composite
def injective_with_gaps(draw, sizes=None):
    """An injective layout (a subset of the modes of a random bijection) and that bijection's size."""
    base = draw(compact_layouts(max_depth=1, max_rank=4, **({"sizes": sizes} if sizes is not None else {})))
    shapes, strides = leaves(base.shape), leaves(base.stride)
    keep = draw(st.lists(st.booleans(), min_size=len(shapes), max_size=len(shapes)))
    kept = [(s, d) for s, d, k in zip(shapes, strides, keep) if k] or [(shapes[0], strides[0])]
    return Layout(tuple(s for s, _ in kept), tuple(d for _, d in kept)), base.size


# Composition distributes over B's modes, so R(i) == A(B(i)) is the contract for
# injective B (overlapping modes of B would need carries through A).


@SETTINGS
@given(layouts(sizes=POW2, stride=POW2), injective_with_gaps(sizes=POW2))
def test_composition_is_function_composition_pow2(A, case):
    B, _ = case
    R = composition(A, B)
    assert R.size == B.size
    assert values(R) == evaluate(A, index_map(B)).tolist()


@SETTINGS
@given(layouts(), injective_with_gaps())
def test_composition_when_defined_is_function_composition(A, case):
    B, _ = case
    # Past A's domain A extends through its last mode only, so A(x + y) need not be A(x) + A(y) there:
    # A = (3,(1,1,2),1):(0,(0,0,0),1), B = (2,2):(4,2) gives (2,2):(0,0) (as C++) but A(B(3)) = A(6) = 1.
    assume(int(index_map(B).max()) < A.size)
    try:
        R = composition(A, B)
        # By-mode distribution (C++) equals A(B(i)) when B's image, as one tile, also composes.
        composition(A, coalesce(B))
    except LayoutError:
        return
    assert R.size == B.size
    # Mode by mode, each of B's modes composes exactly; the whole is A(B(i)) where A adds up over B's image
    # (A = (4,2):(0,1), B = (2,3):(3,1) gives (2,3):(0,0) as C++ does, though A(4) = 1).
    for k in range(B.rank):
        Bk = B[k]
        assert values(composition(A, Bk)) == evaluate(A, index_map(Bk)).tolist()
    image = index_map(B).reshape(-1)
    per_mode = sum(evaluate(A, index_map(B[k]))[_mode_coords(B, k)] for k in range(B.rank))
    additive = np.array_equal(evaluate(A, image), per_mode)
    assert (values(R) == evaluate(A, image).tolist()) == additive


def _mode_coords(B, k):
    """For each linear index of B, its coordinate along (flat) mode k."""
    prefix = int(np.prod([B[j].size for j in range(k)], dtype=np.int64))
    return (np.arange(B.size) // prefix) % B[k].size


def test_composition_with_int_and_none():
    A = Layout((4, 8), (8, 1))
    assert composition(A, None) == A
    assert values(composition(A, 8)) == values(A)[:8]


# -- complement --------------------------------------------------------------------


@pytest.mark.parametrize("a,cotarget,expected", [
    (Layout(4, 2), 24, "(2,3):(1,8)"),
    (Layout((2, 2), (1, 6)), 24, "(3,2):(2,12)"),
    (Layout(4, 0), 24, "24:1"),
    (Layout(4, 1), 24, "6:4"),
    (Layout((2, 4), (1, 6)), None, "3:2"),
    (Layout(4, 2), (4, 6), "(2,3):(1,8)"),
])
def test_complement_cases(a, cotarget, expected):
    assert str(complement(a, cotarget)) == expected


def test_complement_of_non_injective_layout_raises():
    with pytest.raises(LayoutError, match="not injective"):
        complement(Layout((2, 2), (1, 1)), 8)


@SETTINGS
@given(injective_with_gaps())
def test_complement_is_disjoint_ordered_and_completes(case):
    A, n = case
    R = complement(A, n)
    rs = leaves(R.stride)
    assert list(rs) == sorted(rs)
    a_vals, r_vals = set(values(A)), set(values(R))
    assert a_vals & r_vals <= {0}
    full = make_layout(A, R)
    assert full.size == n and sorted(values(full)) == list(range(n))


# -- inverses ----------------------------------------------------------------------


def test_inverse_reference_examples():
    assert str(right_inverse(Layout((2, 4, 6), (4, 1, 8)))) == "(4,2,6):(2,1,8)"
    assert str(left_inverse(Layout((2, 4, 6), (4, 1, 8)))) == "(4,2,6):(2,1,8)"
    assert str(right_inverse(Layout((4, 2), (0, 1)))) == "2:4"
    assert str(left_inverse(Layout((4, 2), (0, 1)))) == "2:4"
    assert str(left_inverse(Layout((4, 2), (1, 16)))) == "(16,2):(1,4)"


@SETTINGS
@given(compact_layouts(max_depth=2))
def test_inverses_of_bijections_are_two_sided(L):
    R, Li = right_inverse(L), left_inverse(L)
    assert R.size == L.size
    assert all(L(R(i)) == i for i in range(R.size))
    assert all(Li(L(i)) == i for i in range(L.size))


@SETTINGS
@given(layouts(stride=st.integers(0, 16)))
def test_right_inverse_post_condition(L):
    R = right_inverse(L)
    assert all(L(R(i)) == i for i in range(R.size))


@SETTINGS
@given(injective_with_gaps())
def test_left_inverse_of_injective_layout(case):
    L, _ = case
    R = left_inverse(L)
    assert all(R(L(i)) == i for i in range(L.size))


def _small_swizzles():
    for b in range(0, 3):
        for m in range(0, 3):
            for s in range(-4, 5):
                if abs(s) >= b and b + m + abs(s) <= 5:
                    yield Swizzle(b, m, s)


def test_inverses_of_a_swizzled_layout_regression():
    C = ComposedLayout(Swizzle(1, 0, 2), 0, Layout((4, 4), (4, 1)))
    R, Li = right_inverse(C), left_inverse(C)
    assert str(R) == "Sw<1,0,-2> o 0 o (4,4):(4,1)"
    assert [C(R(i)) for i in range(R.size)] == list(range(16))
    assert [Li(C(i)) for i in range(C.size)] == list(range(16))


def test_inverses_of_small_swizzles_are_exact_or_refused_exhaustively():
    """Every swizzle with B+M+|S| <= 5 over every bit permutation of its block: C(R(i)) == i, Li(C(i)) == i."""
    import itertools
    exact = 0
    for sw in _small_swizzles():
        n = sw.bits + sw.base + abs(sw.shift)
        for k, perm in enumerate(itertools.permutations(range(n))):
            inner = Layout((2,) * n, tuple(1 << p for p in perm)) if n > 1 else Layout(2, 1)
            C = ComposedLayout(sw, 0, inner)
            for inverse in (right_inverse, left_inverse):
                try:
                    R = inverse(C)
                except LayoutError as e:
                    assert k > 0 and "does not pass through" in str(e)  # the identity permutation always passes
                    continue
                exact += 1
                if inverse is right_inverse:
                    assert R.size == C.size
                    assert values_of(C, values_of(R, range(R.size))) == list(range(R.size)), (C, R)
                else:
                    assert values_of(R, values_of(C, range(C.size))) == list(range(C.size)), (C, R)
    assert exact > 1000


def values_of(L, idx):
    import numpy as np
    return evaluate(L, np.asarray(list(idx), dtype=np.int64)).tolist()


def test_inverses_of_composed_layouts_refuse_what_cute_cannot_express():
    with pytest.raises(LayoutError, match="offset 1"):
        right_inverse(ComposedLayout(Swizzle(1, 0, 1), 1, Layout(4, 1)))
    with pytest.raises(LayoutError, match="Layout outer"):
        left_inverse(ComposedLayout(Layout(4, 2), 0, Layout(4, 1)))
    # (2,3):(3,1) is no bit permutation: C++'s pass-through swizzle would not be an inverse
    with pytest.raises(LayoutError, match="does not pass through"):
        right_inverse(ComposedLayout(Swizzle(1, 0, 1), 0, Layout((2, 3), (3, 1))))


def test_inverse_of_a_swizzle_is_itself_and_identity_swizzle_drops():
    sw = Swizzle(3, 4, 3)
    assert right_inverse(sw) is sw and left_inverse(sw) is sw
    assert right_inverse(ComposedLayout(Swizzle(0, 2, 3), 0, Layout((4, 2), (2, 1)))) == Layout((2, 4), (4, 1))


# -- divides -----------------------------------------------------------------------


def test_divide_reference_examples():
    A = Layout((6, 8), (8, 1))
    assert str(logical_divide(A, (3, 4))) == "((3,2),(4,2)):((8,24),(1,4))"
    assert str(zipped_divide(A, (3, 4))) == "((3,4),(2,2)):((8,1),(24,4))"
    assert str(tiled_divide(A, (3, 4))) == "((3,4),2,2):((8,1),24,4)"
    assert str(flat_divide(A, (3, 4))) == "(3,4,2,2):(8,1,24,4)"
    assert str(logical_divide(A, Layout((3, 4), (1, 3)))) == "((3,(2,2)),4):((8,(24,1)),2)"
    one_tuples = (Layout((3,), (1,)), Layout((4,), (1,)))
    assert str(logical_divide(A, one_tuples)) == "(((3),2),((4),2)):(((8),24),((1),4))"


def test_divide_keeps_extra_modes():
    A = Layout((4, 6, 5))
    assert zipped_divide(A, (2, 3)).shape == ((2, 3), (2, 2, 5))
    assert tiled_divide(A, (2, 3)).shape == ((2, 3), 2, 2, 5)
    assert flat_divide(A, (2, 3)).shape == (2, 3, 2, 2, 5)


@SETTINGS
@given(layouts(sizes=POW2, stride=POW2, max_depth=1), injective_with_gaps(sizes=POW2))
def test_logical_divide_identities(A, case):
    B, span = case  # B tiles [0, span); span divides size(A)
    assume(span <= A.size)
    D = logical_divide(A, B)
    assert D.size == A.size
    assert values(D[0]) == values(composition(A, B))
    Z = zipped_divide(A, B)
    assert values(Z) == values(D)


# -- products ----------------------------------------------------------------------


def test_seed_blocked_product_storage_18():
    M0, M1, N0, N1 = 2, 2, 2, 3
    tile, tiler = Layout((M0, N0), (1, M0)), Layout((M1, N1), (N1, 1))
    B = blocked_product(tile, tiler)
    assert B == Layout(((M0, M1), (N0, N1)), ((1, N1 * M0 * N0), (M0, 1 * M0 * N0)))
    assert B((0, 1), (1, 1)) == 18 == B(2, 3)
    # The seed's coalesced form is the same function.
    C = Layout(((M0, M1), N0 * N1), ((1, N1 * M0 * N0), M0))
    assert values(C) == values(B)


def test_product_reference_examples():
    A, B = Layout((3, 4), (4, 1)), Layout((2, 5), (1, 2))
    assert str(blocked_product(A, B)) == "((3,2),(4,5)):((4,12),(1,24))"
    assert str(raked_product(A, B)) == "((2,3),(5,4)):((12,4),(24,1))"
    assert str(logical_product(Layout((2, 2), (4, 1)), Layout(6, 1))) == "((2,2),(2,3)):((4,1),(2,8))"
    assert str(tile_to_shape(Layout((2, 2), (1, 2)), (8, 8))) == "((2,4),(2,4)):((1,4),(2,16))"
    assert str(blocked_product(Layout(3, 1), Layout(4, 1))) == "((3,4)):((1,3))"


def test_logical_product_with_int_is_a_product():
    R = logical_product(Layout(4, 1), 3)
    assert R == Layout((4, 3), (1, 4))
    assert zipped_product(Layout((2, 2)), (3, 2)).shape == ((2, 2), (3, 2))
    assert tiled_product(Layout((2, 2)), (3, 2)).shape == ((2, 2), 3, 2)
    assert flat_product(Layout((2, 2)), (3, 2)).shape == (2, 2, 3, 2)


@SETTINGS
@given(compact_layouts(max_depth=1), compact_layouts(max_depth=1))
def test_logical_product_identities(A, B):
    R = logical_product(A, B)
    assert R[0] == A and R.size == A.size * B.size
    assert sorted(values(R)) == list(range(R.size))  # compact x compact is a bijection


@SETTINGS
@given(compact_layouts(max_depth=1, max_rank=2), compact_layouts(max_depth=1, max_rank=2))
def test_blocked_and_raked_products_are_bijections_of_the_right_shape(A, B):
    for R in (blocked_product(A, B), raked_product(A, B)):
        assert R.rank == max(A.rank, B.rank) and R.size == A.size * B.size
        assert sorted(values(R)) == list(range(R.size))


def test_tile_to_shape_errors_and_order():
    with pytest.raises(LayoutError, match="rank"):
        tile_to_shape(Layout((2, 2, 2)), (4, 4))
    R = tile_to_shape(Layout((2, 2)), (4, 6), order=(1, 0))
    assert product_each(R.shape) == (4, 6)
    assert sorted(values(R)) == list(range(24))


@pytest.mark.parametrize("block,target,expected", [
    # C++ product_each wraps an int target: 16 is the rank-1 target (16), so the grid is (4):(1)
    (Layout(4, 1), 16, "((4,(4))):((1,(4)))"),
    (Layout(4, 1), (16,), "((4,(4))):((1,(4)))"),
    # a rank-1 tuple block zips mode by mode
    (Layout((4,), (1,)), 16, "((4,4)):((1,4))"),
    # an int block against a rank-2 target is padded with 1:0
    (Layout(4, 1), (16, 8), "((4,4),(1,8)):((1,4),(0,16))"),
    # a nested target counts by product_each
    (Layout(4, 1), ((4, 4), 8), "((4,4),(1,8)):((1,4),(0,16))"),
    # non-divisible: rounds up (dynamic C++ / the DSL)
    (Layout(3, 1), 16, "((3,(6))):((1,(3)))"),
    (Layout((2, 2), (1, 2)), (8, 8), "((2,4),(2,4)):((1,4),(2,16))"),
])
def test_tile_to_shape_int_and_tuple_targets_regressions(block, target, expected):
    assert str(tile_to_shape(block, target)) == expected


def test_tile_to_shape_refuses_bad_targets():
    with pytest.raises(LayoutError, match="sizes must be positive"):
        tile_to_shape(Layout(4, 1), 0)
    with pytest.raises(LayoutError, match="sizes must be positive"):
        tile_to_shape(Layout(4, 1), (8, -2))
    with pytest.raises(LayoutError):
        tile_to_shape(Layout(4, 1), "16")


def _ceil(a, b):
    return -(-a // b)


@SETTINGS
@given(compact_layouts(max_depth=1, max_rank=2), st.data())
def test_tile_to_shape_post_conditions(block, data):
    rank = data.draw(st.integers(block.rank, 3))
    flat = data.draw(st.booleans()) and rank == 1
    sizes = data.draw(st.lists(st.integers(1, 40), min_size=rank, max_size=rank))
    target = sizes[0] if flat else tuple(sizes)
    R = tile_to_shape(block, target)
    bs = [block.size] if block.rank == 1 and not isinstance(block.shape, tuple) else list(product_each(block.shape))
    bs += [1] * (rank - len(bs))
    counts = [_ceil(t, b) for t, b in zip(sizes, bs)]
    # size and shape: each mode is the target's mode rounded up to whole blocks
    assert R.size == block.size * _prod(counts)
    assert R.rank == rank
    assert list(product_each(R.shape)) == [c * b for c, b in zip(counts, bs)]
    if all(t % b == 0 for t, b in zip(sizes, bs)):
        assert list(product_each(R.shape)) == sizes
    # the block sits at rest coordinate 0 of every mode; for rank 1 these are R's first size(block) values
    if rank == 1:
        assert [R(i) for i in range(block.size)] == values(block)
    else:
        modes = list(block.shape) if isinstance(block.shape, tuple) else [block.shape]
        for i in range(block.size):
            c = idx2crd(i, tuple(modes))
            hier = tuple((ci, 0) for ci in c) + ((0, 0),) * (rank - len(modes))
            assert R(hier) == block(i)
    assert sorted(values(R)) == list(range(R.size))  # compact block, compact grid: a bijection


def _prod(xs):
    n = 1
    for x in xs:
        n *= x
    return n


# -- casts -------------------------------------------------------------------------


def test_casts_reference_examples():
    L = Layout((8, 4), (1, 8))
    assert upcast(2, L) == Layout((4, 4), (1, 4))
    assert downcast(2, L) == Layout((16, 4), (1, 16))
    assert recast_layout(4, 6, L) == Layout((12, 4), (1, 12))
    assert recast_layout(16, 8, L) == upcast(2, L)
    assert recast_layout(8, 8, L) is L
    assert upcast(4, Layout((4, 2), (0, 8))) == Layout((4, 2), (0, 2))
    assert upcast(L, 2) == upcast(2, L) and downcast(L, 2) == downcast(2, L)  # either argument order


def test_cast_errors():
    with pytest.raises(LayoutError, match="divide"):
        upcast(4, Layout(8, 6))
    with pytest.raises(LayoutError, match="stride-1"):
        downcast(2, Layout(8, 2))
    with pytest.raises(LayoutError, match="upcast factor must be >= 1, got 0"):
        upcast(0, Layout(8, 1))


def test_algebra_acts_on_inner_of_composed_layout():
    C = ComposedLayout(Swizzle(1, 0, 1), 0, Layout((4, 4)))
    assert composition(C, (2, 2)) == ComposedLayout(Swizzle(1, 0, 1), 0, composition(Layout((4, 4)), (2, 2)))
    assert complement(C, 32) == complement(Layout((4, 4)), 32)
    assert upcast(2, ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, 64), (64, 1)))).outer == Swizzle(3, 3, 3)
    with pytest.raises(LayoutError):
        coalesce("8:1")


def test_the_algebra_is_split_in_two_files_and_importable_from_cute_algebra():
    assert set(algebra.__all__) == set(compose.__all__) | set(divide.__all__)
    assert not set(compose.__all__) & set(divide.__all__)
    for name in algebra.__all__:
        home = compose if name in compose.__all__ else divide
        assert getattr(algebra, name) is getattr(home, name) is getattr(cute, name)


def _coord_for(shape, draw_bits):
    """A coordinate for ``shape``: each leaf an int (kept by dice) or None (kept by slice), by the bits given."""
    if isinstance(shape, tuple):
        return tuple(_coord_for(s, draw_bits) for s in shape)
    return None if draw_bits.pop() else 0


@settings(max_examples=150, deadline=None)
@given(layouts(), st.lists(st.booleans(), min_size=64, max_size=64))
def test_dice_keeps_the_leaves_slice_drops_and_the_two_partition_the_layout(L, bits):
    crd = _coord_for(L.shape, list(bits))
    diced, (sliced, _) = cute.dice(crd, L), cute.slice_and_offset(crd, L)

    def pairs(X):
        return list(zip(leaves(X.shape), leaves(X.stride)))
    assert sorted(pairs(diced) + pairs(sliced), key=repr) == sorted(pairs(L), key=repr)
    assert all(p in pairs(L) for p in pairs(diced))


def test_dice_of_a_scalar_coordinate_keeps_all_or_nothing_and_refuses_what_cute_opt_refuses():
    L = Layout((8, 4), (1, 8))
    assert cute.dice(1, L) is L and str(cute.dice(None, L)) == "():()"
    with pytest.raises(LayoutError, match="weakly congruent"):
        cute.dice((1, None, 1), L)
    with pytest.raises(LayoutError, match="static"):
        cute.dice((None, cute.Dyn()), L)
    with pytest.raises(LayoutError):
        cute.dice((0, None), Swizzle(3, 5, 4))


@settings(max_examples=100, deadline=None)
@given(layouts(), st.lists(st.booleans(), min_size=64, max_size=64))
def test_slice_of_an_int_tuple_is_the_shape_and_stride_of_the_sliced_layout(L, bits):
    crd = _coord_for(L.shape, list(bits))
    sub, _ = cute.slice_and_offset(crd, L)
    assert cute.slice_(crd, L.shape) == sub.shape and cute.slice_(crd, L.stride) == sub.stride
    assert cute.slice_(crd, L) == sub


def test_slice_of_a_scalar_coordinate_and_what_it_refuses():
    assert cute.slice_(None, (2, 3)) == (2, 3) and cute.slice_(1, (2, 3)) == ()
    assert cute.slice_((cute.Dyn(), None), (8, 4)) == (4,)  # a dynamic coordinate drops its mode as an int does
    with pytest.raises(LayoutError, match="weakly congruent"):
        cute.slice_((None, 1, None), (8, 4))
    with pytest.raises(LayoutError, match="int tuple or a Layout"):
        cute.slice_((None, 1), "8,4")
