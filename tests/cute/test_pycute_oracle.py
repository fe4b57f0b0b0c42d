"""Differential tests against pycute (``pip install --no-deps nvidia-cutlass==4.2.0.0``).

Hundreds of random layouts per operation. Where pycute documentedly differs
from C++ CuTe (reference/cute.md section 11), the cases are excluded or the
comparison is functional; where unilayout refuses an input pycute accepts, the
test checks that pycute's answer is indeed wrong.
"""

import random

import pytest

from unilayout import LayoutError, cute
from unilayout.cute import Layout, index_map
from unilayout.cute.inttuple import leaves

pycute = pytest.importorskip("pycute")

N_CASES = 300


def to_py(L):
    return pycute.Layout(L.shape, L.stride)


def same_structure(ours, theirs):
    """Equal shapes, and equal strides except on size-1 modes (whose stride never matters)."""
    if ours.shape != theirs.shape:
        return False
    pairs = zip(leaves(ours.shape), leaves(ours.stride), leaves(theirs.stride))
    return all(a == b or s == 1 for s, a, b in pairs)


def py_values(L):
    return [L(i) for i in range(pycute.size(L))]


def random_shape(rng, depth=2, pow2=False):
    sizes = [1, 2, 4, 8] if pow2 else [1, 2, 3, 4, 6, 8]
    if depth == 0 or rng.random() < 0.4:
        return rng.choice(sizes)
    return tuple(random_shape(rng, depth - 1, pow2) for _ in range(rng.randint(1, 3)))


def random_layout(rng, depth=2, pow2=False, max_stride=16):
    shape = random_shape(rng, depth, pow2)

    def strides(s):
        if isinstance(s, tuple):
            return tuple(strides(x) for x in s)
        return rng.choice([0, 1, 2, 4, 8, 16]) if pow2 else rng.randint(0, max_stride)

    return Layout(shape, strides(shape))


def random_compact(rng, depth=1):
    shape = random_shape(rng, depth)
    n = len(leaves(shape))
    order = list(range(n))
    rng.shuffle(order)
    from unilayout.cute.inttuple import unflatten

    return cute.make_ordered_layout(shape, unflatten(tuple(order), shape) if isinstance(shape, tuple) else order[0])


def cases(seed):
    return random.Random(seed), range(N_CASES)


def test_coalesce_matches_pycute():
    rng, it = cases(1)
    for _ in it:
        L = random_layout(rng, depth=3)
        assert same_structure(cute.coalesce(L), pycute.coalesce(to_py(L))), L


def test_coalesce_by_mode_matches_pycute():
    rng, it = cases(2)
    for _ in it:
        L = random_layout(rng)
        if not isinstance(L.shape, tuple):
            continue
        profile = tuple(1 for _ in L.shape)
        assert same_structure(cute.coalesce(L, profile), pycute.coalesce(to_py(L), profile)), L


def test_filter_matches_pycute():
    rng, it = cases(3)
    for _ in it:
        L = random_layout(rng, depth=3)
        assert same_structure(cute.filter(L), pycute.filter(to_py(L))), L


def test_composition_matches_pycute():
    rng, it = cases(4)
    agreed = refused = 0
    for _ in it:
        A = random_layout(rng, pow2=rng.random() < 0.5)
        B = random_layout(rng, depth=1, max_stride=6, pow2=rng.random() < 0.5)
        try:
            theirs = pycute.composition(to_py(A), to_py(B))
        except (AssertionError, ZeroDivisionError):
            theirs = None
        try:
            ours = cute.composition(A, B)
        except LayoutError:
            ours = None
        if ours is not None and theirs is not None:
            # pycute uses plain coalesce (difference 4): it differs only when A ends in a size-1 mode.
            if leaves(A.shape)[-1] != 1:
                assert same_structure(ours, theirs), (A, B, ours, theirs)
                assert index_map(ours).tolist() == py_values(theirs)
            assert ours.size == pycute.size(theirs) == B.size
            agreed += 1
        elif ours is None and theirs is not None:
            # unilayout refuses only where the answer would be wrong.
            expected = [A(b) for b in index_map(B).tolist()]
            got = py_values(theirs) if pycute.size(theirs) == B.size else None
            assert got != expected, (A, B)
            refused += 1
    assert agreed > N_CASES // 4


def test_complement_matches_pycute():
    rng, it = cases(5)
    compared = 0
    for _ in it:
        base = random_compact(rng, depth=1)
        if not isinstance(base.shape, tuple) or len(base.shape) < 2:
            continue
        keep = [i for i in range(len(base.shape)) if rng.random() < 0.6] or [0]
        A = cute.select(base, *keep)
        if not isinstance(A.shape, tuple):
            continue
        cotarget = base.size * rng.choice([1, 2])
        assert same_structure(cute.complement(A, cotarget), pycute.complement(to_py(A), cotarget)), A
        compared += 1
    assert compared > N_CASES // 4


def test_right_inverse_extends_pycutes_without_zero_strides():
    # pycute stops at the first stride that does not continue the chain; C++ (and
    # unilayout) skip it and keep following the chain, so pycute's is a prefix.
    rng, it = cases(6)
    longer = 0
    for _ in it:
        L = random_layout(rng)
        if 0 in leaves(L.stride):
            L = random_compact(rng, depth=2)
        ours, theirs = cute.right_inverse(L), pycute.right_inverse(to_py(L))
        n = pycute.size(theirs)
        assert ours.size >= n and index_map(ours).tolist()[:n] == py_values(theirs), L
        assert all(L(ours(i)) == i for i in range(ours.size))
        longer += ours.size > n
    assert longer > 0


def test_left_inverse_agrees_functionally_with_pycute():
    rng, it = cases(7)
    for _ in it:
        L = random_compact(rng, depth=2)
        if L.size > 512:
            continue
        ours, theirs = cute.left_inverse(L), pycute.left_inverse(to_py(L))
        assert [ours(L(i)) for i in range(L.size)] == [theirs(L(i)) for i in range(L.size)] == list(range(L.size))


def test_divides_match_pycute():
    rng, it = cases(8)
    compared = 0
    for _ in it:
        A = random_compact(rng, depth=1)
        if not isinstance(A.shape, tuple):
            continue
        # tuple tiler of layouts, one per mode, each dividing its mode
        tiler = []
        for s in A.shape:
            t = [d for d in (1, 2, 3, 4) if s % d == 0]
            tiler.append(Layout(rng.choice(t), 1))
        tiler = tuple(tiler)
        py_tiler = tuple(to_py(t) for t in tiler)
        for ours_fn, py_fn in [
            (cute.logical_divide, pycute.logical_divide),
            (cute.zipped_divide, pycute.zipped_divide),
            (cute.tiled_divide, pycute.tiled_divide),
        ]:
            ours, theirs = ours_fn(A, tiler), py_fn(to_py(A), py_tiler)
            assert same_structure(ours, theirs), (ours_fn.__name__, A, tiler, ours, theirs)
        compared += 1
    assert compared > N_CASES // 4


def test_logical_divide_by_layout_matches_pycute_functionally():
    rng, it = cases(9)
    for _ in it:
        A = random_layout(rng, pow2=True, depth=1)
        B = Layout(rng.choice([1, 2, 4]), rng.choice([1, 2]))
        if leaves(A.shape)[-1] == 1:
            continue  # difference 4: pycute extends A past its domain differently
        try:
            ours = cute.logical_divide(A, B)
        except LayoutError:
            continue
        theirs = pycute.logical_divide(to_py(A), to_py(B))
        if ours.size == pycute.size(theirs):
            assert index_map(ours).tolist() == py_values(theirs), (A, B)


def test_logical_product_matches_pycute():
    rng, it = cases(10)
    for _ in it:
        A, B = random_compact(rng), random_layout(rng, depth=1, max_stride=4)
        ours, theirs = cute.logical_product(A, B), pycute.logical_product(to_py(A), to_py(B))
        assert same_structure(ours, theirs), (A, B)


def test_swizzle_matches_pycute():
    rng, it = cases(11)
    for _ in it:
        b = rng.randint(0, 3)
        m = rng.randint(0, 4)
        s = rng.choice([1, -1]) * rng.randint(max(b, 1), 5)
        ours, theirs = cute.Swizzle(b, m, s), pycute.Swizzle(b, m, s)
        xs = [rng.randint(0, 1 << 12) for _ in range(20)]
        assert [ours(x) for x in xs] == [theirs(x) for x in xs]


def test_layout_evaluation_matches_pycute_in_domain():
    rng, it = cases(12)
    for _ in it:
        L = random_layout(rng, depth=3)
        if L.size > 4096:
            continue
        assert index_map(L).tolist() == py_values(to_py(L))


def test_products_by_layout_tilers_match_pycute():
    rng, it = cases(13)
    compared = 0
    for _ in it:
        A = random_compact(rng, depth=1)
        if not isinstance(A.shape, tuple):
            continue
        tiler = tuple(Layout(rng.choice([1, 2, 3]), 1) for _ in A.shape)
        py_tiler = tuple(to_py(t) for t in tiler)
        try:
            cute.logical_product(A, tiler)
        except LayoutError:
            continue  # C++'s divisibility conditions fail; pycute does not check them
        for ours_fn, py_fn in [(cute.zipped_product, pycute.zipped_product),
                               (cute.tiled_product, pycute.tiled_product)]:
            ours, theirs = ours_fn(A, tiler), py_fn(to_py(A), py_tiler)
            assert same_structure(ours, theirs), (ours_fn.__name__, A, tiler, ours, theirs)
        compared += 1
    assert compared > N_CASES // 4


def test_slice_and_offset_matches_pycute():
    rng, it = cases(14)
    for _ in it:
        L = random_layout(rng, depth=1)
        if not isinstance(L.shape, tuple):
            continue
        crd = tuple(None if rng.random() < 0.5 else rng.randrange(s) for s in L.shape)
        if None not in crd:
            crd = (None,) + crd[1:]  # pycute cannot slice down to nothing
        (ours, off), (theirs, py_off) = cute.slice_and_offset(crd, L), pycute.slice_and_offset(crd, to_py(L))
        assert off == py_off and index_map(ours).tolist() == py_values(theirs), (L, crd)


def test_crd2idx_matches_pycute_in_range():
    rng, it = cases(15)
    for _ in it:
        L = random_layout(rng, depth=2)
        if L.size > 4096:
            continue
        for i in rng.sample(range(L.size), min(L.size, 8)):
            crd = cute.idx2crd(i, L.shape)
            assert cute.crd2idx(crd, L.shape, L.stride) == pycute.crd2idx(crd, L.shape, L.stride)
            assert crd == pycute.idx2crd(i, L.shape)  # in range, the last mode needs no wrap
