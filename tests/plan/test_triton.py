"""plan.triton: conversion pricing from the linear analyses; shuffle rounds against a per-slot brute force."""

import itertools

import pytest

from unilayout import LayoutError
from unilayout.linear import LinearLayout
from unilayout.linear import analysis as A
from unilayout.linear import encodings as E
from unilayout.plan import shuffle_rounds, triton_conversion


def brute_rounds(src, dst):
    """The schedule by definition, from apply() on every slot of warp 0."""
    where = {}
    R = src.in_dim_size("register")
    Lanes = src.in_dim_size("lane")
    for r in range(R):
        for l in range(Lanes):
            ins = {n: 0 for n in src.in_dim_names}
            ins.update(register=r, lane=l)
            where[tuple(src.apply(ins).values())] = (r, l)
    total = 0
    for r in range(dst.in_dim_size("register")):
        asked = {}
        for l in range(dst.in_dim_size("lane")):
            ins = {n: 0 for n in dst.in_dim_names}
            ins.update(register=r, lane=l)
            sr, sl = where[tuple(dst.apply(ins).values())]
            if sl != l:
                asked.setdefault(sl, set()).add(sr)
        total += max((len(v) for v in asked.values()), default=0)
    return total


def lane_only_pairs():
    # 1-D layouts over 2**5 elements: 2 register bits, 3 lane bits, every assignment of unit bases
    out = []
    for perm in itertools.permutations(range(5)):
        bases = [[1 << p] for p in perm]
        out.append(LinearLayout({"register": bases[:2], "lane": bases[2:], "warp": [], "block": []}, ["dim0"]))
    return out


def test_shuffle_rounds_match_brute_force():
    layouts = lane_only_pairs()
    checked = 0
    for a, b in itertools.islice(itertools.product(layouts[::7], layouts[::5]), 200):
        assert shuffle_rounds(a, b) == brute_rounds(a, b)
        checked += 1
    assert checked > 50


def test_levels_and_staging():
    a = E.blocked([64, 64], [1, 4], [8, 4], [4, 1], [1, 0])
    b = E.blocked([64, 64], [4, 1], [4, 8], [1, 4], [0, 1])
    c = triton_conversion(a, b, bitwidth=16)
    assert c.level == A.conversion_level(a, b) == "warp" and c.levels == A.conversion_levels(a, b)
    assert c.shuffle_rounds is None
    assert c.staging.is_invertible() and c.shared_bytes == 64 * 64 * 2
    assert (c.store_conflicts, c.load_conflicts) == (A.bank_conflicts(a, c.staging, 16), A.bank_conflicts(b, c.staging, 16))
    same = triton_conversion(a, a)
    assert same.level == "none" and same.shared_bytes == 0 and same.shuffle_rounds == 0 and same.staging is None


def test_register_permutation_moves_nothing_between_lanes():
    src = LinearLayout({"register": [[1], [2]], "lane": [[4], [8]]}, ["dim0"])
    dst = LinearLayout({"register": [[2], [1]], "lane": [[4], [8]]}, ["dim0"])
    c = triton_conversion(src, dst)
    assert c.level == "register" and c.shuffle_rounds == 0 and c.shared_bytes == 0


def test_a_lane_transpose_needs_many_rounds_but_no_conflicts():
    src = E.blocked([32, 32], [1, 1], [1, 32], [1, 1], [1, 0])
    dst = E.blocked([32, 32], [1, 1], [32, 1], [1, 1], [0, 1])
    c = triton_conversion(src, dst, bitwidth=32)
    assert c.level == "lane" and c.shuffle_rounds == 32 * 31 == brute_rounds(src, dst)
    assert c.store_conflicts == 0 and c.load_conflicts == 0


def test_bad_input():
    a = E.blocked([32, 32], [1, 1], [1, 32], [1, 1], [1, 0])
    with pytest.raises(LayoutError, match="LinearLayout"):
        triton_conversion(a, "x")
    with pytest.raises(LayoutError, match="same tensor"):
        triton_conversion(a, E.blocked([32, 64], [1, 1], [1, 32], [1, 1], [1, 0]))
    with pytest.raises(LayoutError, match="power of two"):
        triton_conversion(a, a, bitwidth=12)
    w = E.blocked([64, 64], [1, 4], [8, 4], [4, 1], [1, 0])
    with pytest.raises(LayoutError, match="warps"):
        shuffle_rounds(w, E.blocked([64, 64], [4, 1], [4, 8], [1, 4], [0, 1]))
