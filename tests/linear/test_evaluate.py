"""Vectorised evaluation: index_map and evaluate agree with apply."""

import itertools
import random

import linear_helpers as H
import numpy as np
import pytest

import unilayout
from unilayout import LayoutError
from unilayout.linear import LinearLayout, evaluate, identity_1d, index_map


def _flat_inputs(L):
    names = [n for n, _ in L.in_dims]
    sizes = [s for _, s in L.in_dims]
    for x in range(L.total_in_dim_size):
        p = {}
        for n, s in zip(names, sizes):
            p[n] = x % s
            x //= s
        yield p


def test_index_map_rows_are_apply_in_flattened_order():
    rng = random.Random(8)
    for _ in range(60):
        L = H.random_layout(rng)
        got = index_map(L)
        assert got.dtype == np.int64 and got.shape == (L.total_in_dim_size, L.num_out_dims)
        want = [list(L.apply(p).values()) for p in _flat_inputs(L)]
        assert got.tolist() == want
        assert unilayout.index_map(L).tolist() == want


def test_evaluate_matches_apply_with_broadcasting():
    rng = random.Random(9)
    for _ in range(40):
        L = H.random_layout(rng, max_in_bits=5)
        k = L.num_in_dims
        ins = {}
        for i, (n, s) in enumerate(L.in_dims):
            shape = [1] * k
            shape[i] = -1
            ins[n] = rng.choice([np.array(rng.randrange(s)), np.arange(s).reshape(shape)])
        got = evaluate(L, ins)
        arrays = np.broadcast_arrays(*[np.asarray(ins[n]) for n in L.in_dim_names])
        shape = arrays[0].shape if arrays else ()
        for idx in itertools.product(*[range(k) for k in shape]):
            p = {n: int(a[idx]) for n, a in zip(L.in_dim_names, arrays)}
            want = L.apply(p)
            assert {k: int(v[idx]) for k, v in got.items()} == want


def test_evaluate_wide_in_dim_uses_chunked_tables():
    L = identity_1d(1 << 40, "i", "o")
    x = np.array([0, 1, (1 << 40) - 1, 123456789012])
    assert evaluate(L, {"i": x})["o"].tolist() == x.tolist()


def test_more_than_63_output_bits_are_split_per_out_dim():
    L = identity_1d(1 << 40, "i", "a") * identity_1d(1 << 40, "j", "b")
    r = evaluate(L, {"i": np.array([5]), "j": np.array([7])})
    assert r["a"].tolist() == [5] and r["b"].tolist() == [7]
    M = identity_1d(4, "i", "a") * LinearLayout({"j": [[0, 1 << 61]]}, {"a": 1, "b": 1 << 62},
                                                 require_surjective=False)
    assert index_map(M).tolist() == [[x % 4, (x // 4) << 61] for x in range(8)]


def test_evaluate_and_index_map_reject_bad_input():
    L = identity_1d(4, "i", "o")
    with pytest.raises(LayoutError, match="outside \\[0, 4\\)"):
        evaluate(L, {"i": np.array([4])})
    with pytest.raises(LayoutError, match="missing"):
        evaluate(L, {})
    with pytest.raises(LayoutError, match="integers"):
        evaluate(L, {"i": np.array([0.5])})
    with pytest.raises(LayoutError, match="broadcast"):
        evaluate(L * identity_1d(4, "j", "o"), {"i": np.arange(3), "j": np.arange(2)})
    with pytest.raises(LayoutError, match="more than"):
        index_map(identity_1d(1 << 40, "i", "o"))
    with pytest.raises(LayoutError, match="expected a LinearLayout"):
        index_map("nope")


def test_index_map_of_2_to_20_inputs():
    L = identity_1d(1 << 10, "register", "dim0") * identity_1d(1 << 10, "lane", "dim1")
    m = index_map(L)
    x = np.arange(1 << 20)
    assert (m[:, 0] == x % 1024).all() and (m[:, 1] == x // 1024).all()


def test_index_map_checks_the_table_size_before_allocating():
    # 2**31 inputs is under the 2**32-input enumeration bound but over MAX_TABLE values
    L = identity_1d(1 << 31, "i", "o")
    with pytest.raises(LayoutError, match="one table may hold"):
        index_map(L)
    with pytest.raises(LayoutError, match="one table may hold"):
        L.index_map()
