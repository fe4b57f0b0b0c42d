"""plan.triton: conversion pricing from the linear analyses; shuffle rounds against a per-slot brute force."""

import itertools
import json
import pathlib
import re

import pytest

from unilayout import LayoutError
from unilayout.linear import LinearLayout
from unilayout.linear import analysis as A
from unilayout.linear import encodings as E
from unilayout.plan import shuffle_rounds, triton_conversion
from unilayout.plan.triton import element_bits, triton_lowering


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


# --- Triton 3.9's own lowering, checked against what Triton compiled (bench/lens_facts.py recorded it) ---

FACTS = pathlib.Path(__file__).resolve().parent.parent / "lens" / "data" / "triton_facts.json"
_CVT = re.compile(r"ttg\.convert_layout %1 : (tensor<[^>]*>) -> (tensor<[^>]*>)")


def _recorded_converts():
    from unilayout.linear.encodings.types import layout

    for i, case in enumerate(json.loads(FACTS.read_text())["cases"]):
        m = _CVT.search(case["ttgir"])
        if not m or "error" in case:
            continue
        aliases = "\n".join(line for line in case["ttgir"].splitlines() if line.startswith("#"))
        yield i, layout(aliases + "\n" + m.group(1)), layout(aliases + "\n" + m.group(2)), element_bits(m.group(1)), case


def test_triton_lowering_scratch_equals_what_triton_allocates():
    checked = 0
    for i, src, dst, bits, case in _recorded_converts():
        got = triton_lowering(src, dst, bits)
        assert got.scratch_bytes == case["shared"], (i, got, case["shared"])
        assert (got.path == "shuffle") == any(k.startswith("shfl") for k in case["ptx"]), i
        checked += 1
    assert checked == 272


def _ptx_classes(ptx):
    """The PTX's instruction classes as triton_lowering names them (shfl.sync, stmatrix[.trans], bar.warp.sync ..)."""
    out = set()
    for k in ptx:
        if k.startswith("shfl"):
            out.add("shfl.sync")
        elif "matrix" in k:
            out.add(k.split(".")[0] + (".trans" if ".trans" in k else ""))
        else:
            out.add(k)
    return out


def test_triton_lowering_instruction_classes_match_the_ptx():
    checked = 0
    for i, src, dst, bits, case in _recorded_converts():
        got = set(triton_lowering(src, dst, bits).instructions)  # the barrier too: bar.sync or bar.warp.sync
        assert got == _ptx_classes(case["ptx"]), (i, got, case["ptx"])
        checked += 1
    assert checked == 272


def test_a_64x128_f16_convert_stages_one_round_of_triton_swizzle():
    a = E.blocked([64, 128], [1, 4], [8, 4], [4, 1], [1, 0])
    b = E.blocked([64, 128], [4, 1], [4, 8], [1, 4], [0, 1])
    got = triton_lowering(a, b, bitwidth=16)  # Triton 3.9 compiles this pair to 16384 B and 128-bit accesses
    assert (got.path, got.scratch_bytes, got.instructions[:2]) == ("shared", 16384, ("st.shared.v4.b32", "ld.shared.v4.b32"))
    c = triton_conversion(a, b, bitwidth=16)
    assert (c.path, c.scratch_bytes) == ("shared", 16384)
