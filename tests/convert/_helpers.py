"""Shared helpers of tests/convert: independent tabulations and random linear layouts."""

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from unilayout import cute, linear

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --------------------------------------------------------------------------------- helpers


def natural_rowmajor(L):
    """L at every natural coordinate (box product_each(shape)), in row-major order of that box."""
    ext = cute.product_each(L.shape)
    ext = ext if isinstance(ext, tuple) else (ext,)
    vals = L.index_map()  # colexicographic
    t = vals.reshape(tuple(reversed(ext)))
    return t.transpose(tuple(reversed(range(len(ext))))).reshape(-1), ext


def flat_linear(L):
    """Linear index_map with out-dims flattened into one int (first out-dim least significant)."""
    vals = L.index_map()
    out = np.zeros(vals.shape[0], dtype=np.int64)
    shift = 0
    for j, (_, s) in enumerate(L.out_dims):
        out |= vals[:, j] << shift
        shift += s.bit_length() - 1
    return out


def linear_rowmajor(L):
    """Linear index_map reordered row-major over the in-dim box (dim i = in-dim i)."""
    sizes = [s for _, s in L.in_dims]
    vals = L.index_map().reshape(tuple(reversed(sizes)) + (len(L.out_dims),))
    return vals.transpose(tuple(reversed(range(len(sizes)))) + (len(sizes),)).reshape(-1, len(L.out_dims))


def is_gf2_linear(table):
    """Independent check: table[x] == XOR of table[2**k] over the set bits k of x, for every x."""
    n = table.size
    if n & (n - 1) or (table < 0).any():
        return False
    x = np.arange(n)
    acc = np.zeros(n, dtype=np.int64)
    for k in range(n.bit_length() - 1):
        acc ^= np.where((x >> k) & 1 == 1, table[1 << k], 0)
    return bool(np.array_equal(acc, table))


def is_integer_strided(table):
    """Independent check: table[x] == SUM of table[2**k] over the set bits k of x (a plain CuTe layout over bits)."""
    n = table.size
    x = np.arange(n)
    acc = np.zeros(n, dtype=np.int64)
    for k in range(n.bit_length() - 1):
        acc += np.where((x >> k) & 1 == 1, table[1 << k], 0)
    return bool(np.array_equal(acc, table))


POW2_LEAF = st.sampled_from([1, 2, 2, 4, 8])
STRIDES = st.sampled_from([0, 1, 2, 3, 4, 8, 16, 32, 5, 64])


@st.composite
def random_linear(draw, max_dims=3, max_bits=4, out_bits=6):
    names = ["register", "lane", "warp", "block"][: draw(st.integers(1, max_dims))]
    outs = draw(st.sampled_from([["offset"], ["dim0", "dim1"]]))
    sizes = {o: 1 << draw(st.integers(0, out_bits // len(outs))) for o in outs}
    bases = {}
    for n in names:
        k = draw(st.integers(0, max_bits))
        bases[n] = [[draw(st.integers(0, sizes[o] - 1)) for o in outs] for _ in range(k)]
    return linear.LinearLayout(bases, sizes, require_surjective=False)
