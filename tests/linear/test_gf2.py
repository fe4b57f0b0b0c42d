"""GF(2) engine: rank, RREF and solve against brute force."""

import itertools
import random

from unilayout.linear import gf2


def _span(cols):
    out = set()
    for mask in range(1 << len(cols)):
        v = 0
        for c, col in enumerate(cols):
            if mask >> c & 1:
                v ^= col
        out.add(v)
    return out


def test_rank_matches_span_size():
    rng = random.Random(3)
    for _ in range(300):
        cols = [rng.randrange(16) for _ in range(rng.randint(0, 6))]
        assert 1 << gf2.rank(cols) == len(_span(cols))


def test_rref_is_reduced_and_spans_the_rows():
    rng = random.Random(4)
    for _ in range(300):
        rows = [rng.randrange(64) for _ in range(rng.randint(0, 6))]
        out, pivots = gf2.rref(rows)
        assert pivots == sorted(pivots) and len(set(pivots)) == len(pivots)
        for r, p in zip(out, pivots):
            assert (r & -r).bit_length() - 1 == p
            assert sum((o >> p) & 1 for o in out) == 1  # pivot column is zero elsewhere
        assert _span(out) == _span(rows) and len(out) == gf2.rank(rows)


def test_solve_uses_only_pivot_columns():
    rng = random.Random(5)
    for _ in range(300):
        cols = [rng.randrange(16) for _ in range(rng.randint(0, 6))]
        target = rng.randrange(16)
        x = gf2.solve(cols, target)
        if target not in _span(cols):
            assert x is None
            continue
        v = 0
        for c, col in enumerate(cols):
            if x >> c & 1:
                v ^= col
        assert v == target
        free = set(gf2.free_columns(cols))
        assert all(not (x >> c & 1) for c in free)
        for c in free:  # a free column is in the span of the ones before it
            assert cols[c] in _span(cols[:c])


def test_hundreds_of_bits():
    n = 300
    cols = [(1 << i) | (1 << ((i + 1) % n)) for i in range(n)]
    assert gf2.rank(cols) == n - 1
    assert gf2.solve(cols, (1 << 0) | (1 << 2)) == 0b11
    assert list(itertools.islice(gf2.free_columns(cols), 1)) == [n - 1]
