"""Analyses: vectorisation, conversion levels, bank conflicts, swizzle search."""

import itertools
import random

import pytest
from linear_helpers import _p2, _split

from unilayout import LayoutError, NotRepresentableError
from unilayout.linear import LinearLayout, divide_left, identity_1d
from unilayout.linear import analysis as A
from unilayout.linear import encodings as E
from unilayout.linear.analysis import (
    bank_conflicts,
    bank_conflicts_formula,
    conversion_level,
    conversion_levels,
    largest_vectorisation,
    minimal_conversion,
    optimal_swizzle,
    register_permutation_for_divide,
)


def _random_pair(rng):
    """A random 2-D blocked register layout and swizzled shared layout of the same tensor."""
    shape = [_p2(rng, 3, 6), _p2(rng, 3, 6)]
    reg = E.blocked(shape, [_p2(rng, 0, 3), _p2(rng, 0, 3)], _split(rng, 5, 2), _split(rng, rng.randint(0, 2), 2),
                    rng.choice([[0, 1], [1, 0]]))
    shared = E.swizzled_shared(shape, _p2(rng, 0, 3), _p2(rng, 0, 2), _p2(rng, 0, 3), rng.choice([[0, 1], [1, 0]]))
    return reg, shared


def _vector_ok(cvt, bits):
    """Brute force: register bits ``bits`` (in order) step through offsets 1, 2, 4, ... and
    every other input bit moves the offset by a multiple of 2**len(bits), touching nothing else."""
    k = len(bits)
    j = cvt.out_dim_names.index("offset")
    regs = [b for n, b in cvt.bases if n == "register"][0]
    for i, b in enumerate(bits):
        v = regs[b]
        if v[j] != 1 << i or any(e for t, e in enumerate(v) if t != j):
            return False
    for name, vecs in cvt.bases:
        for idx, v in enumerate(vecs):
            if name == "register" and idx in bits:
                continue
            if v[j] % (1 << k):
                return False
    return True


def test_vectorisation_examples():
    cvt = LinearLayout({"register": [[2], [1], [8]], "lane": [[4]]}, {"offset": 16})
    v = largest_vectorisation(cvt, bitwidth=32)
    assert (v.width, v.permutation) == (4, [1, 0, 2])
    assert divide_left(v.layout, identity_1d(4, "register", "offset")) is not None
    assert largest_vectorisation(cvt, bitwidth=64).width == 2
    assert largest_vectorisation(cvt, bitwidth=32, max_vec_elems=4).width == 1  # no permutation with a max
    assert register_permutation_for_divide(cvt, identity_1d(8, "register", "offset")) is None
    with pytest.raises(LayoutError, match="out-dim 'offset'"):
        largest_vectorisation(identity_1d(4, "register", "dim0"))
    with pytest.raises(LayoutError, match="power of two"):
        largest_vectorisation(cvt, bitwidth=12)


def test_vectorisation_is_largest_by_brute_force():
    rng = random.Random(21)
    for _ in range(60):
        reg, shared = _random_pair(rng)
        bw = rng.choice([8, 16, 32, 64])
        cvt = reg.invert_and_compose(shared)
        v = largest_vectorisation(cvt, bw)
        k = v.width.bit_length() - 1
        assert _vector_ok(v.layout, list(range(k)))
        nreg = cvt.in_dim_size_log2("register")
        if (2 * v.width) * bw <= 128 and k + 1 <= nreg:
            assert not any(_vector_ok(cvt, list(bits)) for bits in itertools.permutations(range(nreg), k + 1))


def test_conversion_levels_reference_examples():
    src = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [32]], "warp": [[64], [128]]}, ["dim0"])
    dst = LinearLayout({"register": [[128]], "lane": [[1], [2], [4], [8], [16]], "warp": [[32], [64]]}, ["dim0"])
    cvt = dst.invert_and_compose(src)
    assert cvt.apply({"register": 0, "lane": 0, "warp": 1}) == {"register": 0, "lane": 16, "warp": 0}
    assert cvt.quotient(["warp"]) is None
    assert conversion_level(src, dst) == "warp"
    a = LinearLayout({"register": [[2], [1]], "lane": [[4], [8]]}, ["dim0"])
    b = LinearLayout({"register": [[1], [2]], "lane": [[4], [8]]}, ["dim0"])
    assert minimal_conversion(a, b) == LinearLayout({"register": [[2], [1]]}, {"register": 4})
    assert conversion_levels(a, b) == ("register",) and conversion_level(a, b) == "register"


def test_conversion_level_of_permuted_layouts():
    base = E.blocked([64, 64], [2, 2], [4, 8], [2, 2], [1, 0])
    bases = dict(base.bases)
    out = base.out_dims

    def with_(**kw):
        b = dict(bases)
        b.update(kw)
        return LinearLayout([(n, b[n]) for n, _ in base.bases], out)

    assert conversion_level(base, base) == "none"
    assert conversion_levels(base, base) == ()
    assert conversion_level(base, with_(register=bases["register"][::-1])) == "register"
    lane = bases["lane"]
    assert conversion_level(base, with_(lane=[lane[1], lane[0]] + lane[2:])) == "lane"
    reg, warp = bases["register"], bases["warp"]
    assert conversion_level(base, with_(register=[warp[0]] + reg[1:], warp=[reg[0]] + warp[1:])) == "warp"
    two = base * LinearLayout({"block": [[0, 0]]}, {"dim0": 1, "dim1": 1})
    cross = LinearLayout(
        [(n, v) if n not in ("warp", "block") else (n, {"warp": [warp[0], [0, 0]], "block": [warp[1]]}[n])
         for n, v in two.bases], out)
    wide = LinearLayout(
        [(n, v) if n not in ("warp", "block") else (n, {"warp": warp, "block": [[0, 0]]}[n]) for n, v in two.bases],
        out)
    assert conversion_level(wide, cross) == "block"


def test_bank_conflicts_examples():
    reg = E.blocked([32, 32], [1, 1], [32, 1], [1, 1], [0, 1])
    plain = E.swizzled_shared([32, 32], 1, 1, 1, [1, 0])
    assert bank_conflicts(reg, plain, vec=1) == 31
    assert bank_conflicts(reg, plain) == 7
    assert bank_conflicts(reg, E.swizzled_shared([32, 32], 4, 1, 8, [1, 0])) == 0
    row = E.blocked([32, 32], [1, 1], [1, 32], [1, 1], [1, 0])
    assert bank_conflicts(row, plain, vec=1) == 0
    assert bank_conflicts(row, plain, bitwidth=64, vec=1) == 0  # 64-bit: phases of 16 lanes, 128 bytes each
    assert bank_conflicts(reg, plain, bitwidth=64, vec=1) == 15  # 16 lanes, 256-byte row stride
    assert bank_conflicts(row, plain, bitwidth=16, vec=1) == 0  # two lanes share a word (broadcast)
    assert bank_conflicts(reg, plain, vec=1, num_banks=16) == 15
    with pytest.raises(LayoutError, match="'offset' in-dim"):
        bank_conflicts(reg, reg)
    with pytest.raises(LayoutError, match="exceeds"):
        bank_conflicts(reg, plain, vec=64)


def test_bank_conflicts_formula_matches_brute_force():
    rng = random.Random(22)
    for _ in range(80):
        reg, shared = _random_pair(rng)
        kw = dict(bitwidth=rng.choice([8, 16, 32, 64]), num_banks=rng.choice([16, 32]),
                  bank_bytes=rng.choice([4, 8]))
        if rng.random() < 0.5:
            kw["vec"] = 1
        assert bank_conflicts(reg, shared, **kw) == bank_conflicts_formula(reg, shared, **kw)


def test_bank_conflicts_are_the_same_in_every_phase():
    rng = random.Random(23)
    for _ in range(20):
        reg, shared = _random_pair(rng)
        cvt = reg.invert_and_compose(shared)
        v = largest_vectorisation(cvt, 32)
        lanes = cvt.in_dim_size("lane")
        phase = max(1, min(lanes, 1024 // (32 * v.width)))
        worst = []
        for p0 in range(0, lanes, phase):
            words = {}
            for lane in range(p0, p0 + phase):
                for j in range(v.width):
                    pt = {n: 0 for n in v.layout.in_dim_names}
                    pt["lane"], pt["register"] = lane, j
                    off = v.layout.apply(pt)["offset"]
                    words.setdefault(off % 32, set()).add(off)
            worst.append(max(len(w) for w in words.values()) - 1)
        assert len(set(worst)) == 1 and worst[0] == bank_conflicts(reg, shared)


def test_optimal_swizzle_removes_transpose_conflicts():
    src = E.blocked([32, 32], [1, 1], [1, 32], [1, 1], [1, 0])
    dst = E.blocked([32, 32], [1, 1], [32, 1], [1, 1], [0, 1])
    plain = E.swizzled_shared([32, 32], 1, 1, 1, [1, 0])
    assert bank_conflicts(dst, plain) > 0
    r = optimal_swizzle(src, dst)
    assert r.conflicts == (0, 0)
    assert (bank_conflicts(src, r.layout), bank_conflicts(dst, r.layout)) == r.conflicts
    assert r.layout == E.swizzled_shared([32, 32], r.vec, r.per_phase, r.max_phase, list(r.order))
    with pytest.raises(LayoutError, match="same tensor"):
        optimal_swizzle(src, E.blocked([32, 64], [1, 1], [1, 32], [1, 1], [1, 0]))


def test_optimal_swizzle_is_no_worse_than_any_family_member():
    rng = random.Random(24)
    src = E.blocked([64, 64], [1, 4], [4, 8], [4, 1], [1, 0])
    dst = E.blocked([64, 64], [4, 1], [8, 4], [1, 4], [0, 1])
    r = optimal_swizzle(src, dst, bitwidth=16)
    for _ in range(30):
        vec, pp, mp = _p2(rng, 0, 3), _p2(rng, 0, 3), _p2(rng, 0, 3)
        sh = E.swizzled_shared([64, 64], vec, pp, mp, rng.choice([[0, 1], [1, 0]]))
        assert sum(r.conflicts) <= bank_conflicts(src, sh, 16) + bank_conflicts(dst, sh, 16)


def test_optimal_shared_layout_is_conflict_free_and_vectorised():
    from unilayout.linear.analysis import optimal_shared_layout

    rng = random.Random(25)
    eight_bit_bad = eight_bit = 0
    for _ in range(150):
        shape = [_p2(rng, 4, 7), _p2(rng, 4, 7)]

        def rb():
            return E.blocked(shape, [_p2(rng, 0, 3), _p2(rng, 0, 3)], _split(rng, 5, 2),
                             _split(rng, rng.randint(0, 2), 2), rng.choice([[0, 1], [1, 0]]))

        src, dst = rb(), rb()
        bw = rng.choice([8, 16, 32, 64])
        S = optimal_shared_layout(src, dst, bw)
        assert S.is_invertible() and S.in_dim_names == ["offset"] and S.out_dims == src.out_dims
        conflicts = (bank_conflicts(src, S, bw), bank_conflicts(dst, S, bw))
        common = {tuple(v) for n, b in src.bases if n == "register" for v in b} & {
            tuple(v) for n, b in dst.bases if n == "register" for v in b} - {(0, 0)}
        if bw == 8:
            eight_bit += 1
            eight_bit_bad += conflicts != (0, 0)
        else:
            assert conflicts == (0, 0), (shape, bw, src, dst)
        widest = min(128 // bw, 1 << len(common))
        for side in (src, dst):  # at least the common vector (when the common registers are independent)
            assert largest_vectorisation(side.invert_and_compose(S), bw).width >= min(widest, 2 if common else 1)
    assert eight_bit_bad <= max(1, eight_bit // 20)
    with pytest.raises(LayoutError, match="same tensor"):
        optimal_shared_layout(E.blocked([32, 32], [1, 1], [1, 32], [1, 1], [1, 0]),
                              E.blocked([32, 64], [1, 1], [1, 32], [1, 1], [1, 0]))


def _padded_conflicts_by_hand(reg, padded, bitwidth):
    """vec=1: the first phase of lanes (register 0, warp 0), each element's padded address from the table."""
    table = padded.address_table([s for _, s in reg.out_dims])
    phase = min(reg.in_dim_size("lane"), 32 * 4 * 8 // bitwidth)
    banks = {}
    for lane in range(phase):
        at = reg.apply({"register": 0, "lane": lane, "warp": 0, "block": 0})
        addr = int(table[tuple(at[d] for d in reg.out_dim_names)])
        word = addr * bitwidth // 8 // 4
        banks.setdefault(word % 32, set()).add(word)
    return max(len(w) for w in banks.values()) - 1


def test_padded_bank_conflicts_match_the_addresses_counted_by_hand():
    import random

    rng = random.Random(11)
    checked = 0
    for _ in range(60):
        rows, cols = 1 << rng.randint(3, 6), 1 << rng.randint(3, 6)
        tpw = [1 << rng.randint(0, 5)]
        tpw.append(32 // tpw[0])
        reg = E.blocked([rows, cols], [1, 1], tpw, [1, 1], rng.choice([[0, 1], [1, 0]]))
        pairs = [[1 << rng.randint(2, 7), 1 << rng.randint(0, 3)]]
        padded = E.PaddedShared(pairs, rng.choice([[0, 1], [1, 0]]), shape=[rows, cols])
        bitwidth = rng.choice([16, 32])
        assert A.bank_conflicts(reg, padded, bitwidth=bitwidth, vec=1) == _padded_conflicts_by_hand(reg, padded, bitwidth)
        checked += 1
    assert checked == 60


def test_padding_and_swizzling_side_by_side():
    reg = E.blocked([32, 32], [1, 1], [32, 1], [1, 1], [0, 1])  # lane i holds row i: a column read
    plain = E.swizzled_shared([32, 32], 1, 1, 1, [1, 0])
    swizzled = E.swizzled_shared([32, 32], 1, 1, 32, [1, 0])
    padded = E.PaddedShared([[32, 1]], [1, 0], shape=[32, 32])
    got = [A.bank_conflicts(reg, s, vec=1) for s in (plain, swizzled, padded)]
    assert got == [31, 0, 0]
    with pytest.raises(NotRepresentableError, match="not linear"):
        A.bank_conflicts_formula(reg, padded)
