"""Algebra: Triton reference examples, differential tests against triton, properties."""

import itertools
import random

import linear_helpers as H
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unilayout import LayoutError
from unilayout.linear import (
    LinearLayout,
    divide_left,
    divide_right,
    empty,
    identity_1d,
    supremum,
    zeros_1d,
)


def _points(L):
    names = [n for n, _ in L.in_dims]
    ranges = [range(s) for _, s in L.in_dims]
    for combo in itertools.product(*ranges):
        yield dict(zip(names, combo))


# ------------------------------------------------------------ reference examples
def test_product_examples():
    assert (identity_1d(4, "i", "o") * zeros_1d(2, "i", "o")).bases == [("i", [[1], [2], [0]])]
    assert (zeros_1d(2, "i", "o") * identity_1d(4, "i", "o")).bases == [("i", [[0], [1], [2]])]
    L = identity_1d(4, "i", "o1") * identity_1d(8, "i", "o2")
    assert all(L.apply({"i": x}) == {"o1": x % 4, "o2": x // 4} for x in range(32))
    assert identity_1d(4, "i", "o") * identity_1d(2, "i", "o") == identity_1d(8, "i", "o")
    L = identity_1d(4, "i1", "o1") * identity_1d(8, "i2", "o2")
    assert L.in_dim_names == ["i1", "i2"] and L.out_dim_names == ["o1", "o2"]
    assert empty() * L == L * empty() == L


def test_supremum_orders():
    assert supremum(["a", "b"], ["a", "c"]) == ["a", "b", "c"]
    assert supremum(["a", "b"], ["b", "c"]) == ["a", "b", "c"]
    assert supremum(["a", "b"], ["c", "b"]) == ["a", "c", "b"]
    with pytest.raises(LayoutError, match="different orders"):
        supremum(["a", "b"], ["b", "a"])
    with pytest.raises(LayoutError, match="different orders"):
        identity_1d(2, "a", "o") * identity_1d(2, "b", "o") * (identity_1d(2, "b", "o") * identity_1d(2, "a", "o")).transpose_ins(["b", "a"])


def test_compose_example():
    a = LinearLayout({"i": [[1], [2], [4]]}, ["x"])
    r = a.compose(LinearLayout({"x": [[4], [1], [2]]}, ["y"]))
    assert r == LinearLayout({"i": [[4], [1], [2]]}, {"y": 8})


def test_compose_errors():
    a = identity_1d(8, "i", "x")
    with pytest.raises(LayoutError, match="must be the in-dims"):
        a.compose(identity_1d(8, "z", "y"))
    with pytest.raises(LayoutError, match="resize_in_dim"):
        a.compose(identity_1d(4, "x", "y"))


def test_invert_and_compose_free_variable_rule():
    A = identity_1d(4, "i", "o")
    B = zeros_1d(2, "j", "o") * identity_1d(4, "j", "o")
    C = A.invert_and_compose(B)
    assert C == LinearLayout({"i": [[2], [4]]}, {"j": 8}, require_surjective=False)


def test_invert_and_compose_identity_dims_rule():
    A = LinearLayout({"lane": [[1], [2]], "block": [[0]]}, {"dim0": 4})
    B = LinearLayout({"lane": [[2], [1]], "block": [[0]]}, {"dim0": 4})
    C = A.invert_and_compose(B)
    assert C.bases == [("lane", [[2, 0], [1, 0]]), ("block", [[0, 1]])]
    assert C.out_dims == [("lane", 4), ("block", 2)]
    B2 = LinearLayout({"lane": [[2], [1]], "cta": [[0]]}, {"dim0": 4})
    C2 = A.invert_and_compose(B2)
    assert C2.bases == [("lane", [[2, 0], [1, 0]]), ("block", [[0, 0]])]


def test_invert_and_compose_errors():
    A = identity_1d(8, "i", "o")
    with pytest.raises(LayoutError, match="not surjective"):
        A.invert_and_compose(LinearLayout({"j": [[1], [2]]}, {"o": 8}, require_surjective=False))
    with pytest.raises(LayoutError, match="does not cover"):
        A.invert_and_compose(identity_1d(4, "j", "o"))
    with pytest.raises(LayoutError, match="same out-dims"):
        A.invert_and_compose(identity_1d(8, "j", "p"))


def test_invert_and_compose_identity_dims_need_disjoint_output_bits():
    # lane is equal in both but shares output bit 0 with warp, so it is solved, not copied.
    A = LinearLayout({"lane": [[1]], "warp": [[1]]}, {"o": 2})
    B = LinearLayout({"lane": [[1]], "warp": [[0]]}, {"o": 2})
    C = A.invert_and_compose(B)
    assert C.bases == [("lane", [[1, 0]]), ("warp", [[1, 0]])]
    for p in _points(A):
        assert B.apply(C.apply(p)) == A.apply(p)
    # equal bases on disjoint bits are copied even when out sizes differ (3.9.0 behaviour)
    A = LinearLayout({"register": [[1], [0]], "lane": [[2], [4]]}, {"d": 8})
    B = LinearLayout({"register": [[1], [0]], "lane": [[2], [4]], "warp": [[8]]}, {"d": 16})
    C = A.invert_and_compose(B)
    assert C.bases == [("register", [[1, 0, 0], [2, 0, 0]]), ("lane", [[0, 1, 0], [0, 2, 0]])]


def test_pseudoinvert_and_invert():
    L = LinearLayout({"i": [[0], [1], [2]]}, ["o"])
    R = L.pseudoinvert()
    assert R == LinearLayout({"o": [[2], [4]]}, {"i": 8}, require_surjective=False)
    with pytest.raises(LayoutError, match="not invertible"):
        L.invert()
    with pytest.raises(LayoutError, match="not surjective"):
        zeros_1d(2, "i", "o", 2).pseudoinvert()
    P = LinearLayout({"i": [[2], [1]]}, ["o"])
    assert P.invert() == LinearLayout({"o": [[2], [1]]}, {"i": 4})


def test_divide_examples():
    a = identity_1d(8, "i", "o") * zeros_1d(16, "i", "o")
    assert divide_left(a, identity_1d(8, "i", "o")) == zeros_1d(16, "i", "o")
    assert divide_left(identity_1d(8, "i", "o"), identity_1d(8, "j", "o")) is None
    assert divide_left(identity_1d(8, "i", "o"), identity_1d(16, "i", "o")) is None
    assert divide_left(identity_1d(8, "i", "o"), identity_1d(2, "i", "p")) is None
    assert divide_left(identity_1d(8, "i", "o"), zeros_1d(2, "i", "o")) is None
    b = zeros_1d(2, "i", "o") * identity_1d(4, "i", "o")
    assert divide_right(b, identity_1d(4, "i", "o")) == zeros_1d(2, "i", "o")
    assert divide_right(identity_1d(8, "i", "o"), zeros_1d(2, "i", "o")) is None


def test_quotient_and_trivial_over():
    L = LinearLayout({"dim1": [[1, 0]], "dim2": [[0, 0]]}, {"dim1": 2, "dim2": 1})
    q = L.quotient(["dim1"])
    assert q == zeros_1d(2, "dim2", "dim2")
    assert q.quotient(["dim2"]) is None
    assert L.quotient([]) == L
    assert not L.is_trivial_over(["nope"])
    mixed = LinearLayout({"a": [[1, 1]], "b": [[0, 1]]}, {"a": 2, "b": 2})
    assert not mixed.is_trivial_over(["a"])
    assert not mixed.is_trivial_over(["b"]) and mixed.quotient(["b"]) is None


def test_sublayout():
    L = identity_1d(4, "i", "x") * identity_1d(2, "j", "y")
    assert L.sublayout([], []) == empty()
    assert L.sublayout(["j", "i"], ["y"]).bases == [("i", [[0], [0]]), ("j", [[1]])]
    with pytest.raises(LayoutError, match="not in-dims"):
        L.sublayout(["k"], [])
    with pytest.raises(LayoutError, match="not out-dims"):
        L.sublayout([], ["z"])


def test_reshapes():
    L = LinearLayout({"in1": [[1], [4], [8]], "in2": [[3]]}, {"out": 16})
    assert L.reshape_outs([("o2", 2), ("o3", 8)]).bases == [("in1", [[1, 0], [0, 2], [0, 4]]), ("in2", [[1, 1]])]
    assert L.reshape_ins([("x", 16)]).bases == [("x", [[1], [4], [8], [3]])]
    with pytest.raises(LayoutError, match="same total"):
        L.reshape_ins([("x", 8)])
    with pytest.raises(LayoutError, match="power of two"):
        L.reshape_outs([("x", 3)])
    assert L.flatten_ins().in_dims == [("in1", 16)]
    M = LinearLayout({"i": [[1, 0], [0, 1]]}, ["a", "b"])
    assert M.flatten_outs().bases == [("i", [[1], [2]])]
    assert M.transpose_outs(["b", "a"]).transpose_outs(["a", "b"]) == M
    with pytest.raises(LayoutError, match="permutation"):
        M.transpose_outs(["a"])
    assert empty().flatten_ins() == empty() == empty().flatten_outs()


def test_concat_resize_rename():
    a = zeros_1d(2, "a", "o", 2)
    b = identity_1d(2, "b", "o")
    assert a.concat_ins(b).bases == [("a", [[0]]), ("b", [[1]])]
    with pytest.raises(LayoutError, match="appear in both"):
        b.concat_ins(b)
    with pytest.raises(LayoutError, match="same out-dims"):
        a.concat_ins(identity_1d(4, "c", "o"))
    c = identity_1d(2, "i", "x").concat_outs(identity_1d(2, "i", "y"))
    assert c.bases == [("i", [[1, 1]])] and not c.is_surjective()
    with pytest.raises(LayoutError, match="appear in both"):
        c.concat_outs(c)
    L = identity_1d(4, "i", "o")
    assert L.resize_in_dim("i", 8).bases == [("i", [[1], [2], [0]])]
    assert L.resize_in_dim("i", 2).bases == [("i", [[1]])]
    assert L.resize_out_dim("o", 2).bases == [("i", [[1], [0]])]
    with pytest.raises(LayoutError, match="only shrink"):
        L.resize_out_dim("o", 8)
    assert L.rename_in_dim("i", "lane").in_dims == [("lane", 4)]
    with pytest.raises(LayoutError, match="already an in-dim"):
        (L * identity_1d(2, "j", "o")).rename_in_dim("i", "j")


def test_free_variable_masks_and_num_consecutive():
    L = LinearLayout({"in1": [[1, 1], [2, 2], [0, 0]], "in2": [[1, 0], [0, 1], [2, 0]]}, ["a", "b"])
    assert L.free_variable_masks() == {"in1": 0b100, "in2": 0b10}
    assert identity_1d(8, "i", "o").free_variable_masks() == {"i": 0}
    assert LinearLayout({"i": [[1], [2], [4], [10]]}, {"o": 16}).num_consecutive_in_out() == 2
    assert identity_1d(8, "i", "o").num_consecutive_in_out() == 8
    assert empty().num_consecutive_in_out() == 1


# ------------------------------------------------------------ differential vs triton
def _iac_pairs(rng, count):
    pairs = []
    while len(pairs) < count:
        B = H.random_layout(rng, surjective=True)
        outs = B.out_dims
        names = [n for n, _ in outs]
        rng.shuffle(names)
        sizes = dict(outs)
        a_outs = [(n, sizes[n] if rng.random() < 0.7 else max(1, sizes[n] >> rng.randint(0, 2))) for n in names]
        A = H.random_layout(rng, outs=a_outs)
        if rng.random() < 0.5 and A.out_dims == B.transpose_outs(names).out_dims:
            # copy some of B's in-dims verbatim so the identity-dims rule fires
            Bt = dict(B.transpose_outs(names).bases)
            new = [(n, Bt[n] if (n in Bt and rng.random() < 0.7) else v) for n, v in A.bases]
            A = LinearLayout(new, A.out_dims, require_surjective=False)
        pairs.append((A, B))
    return pairs


def _compose_pairs(rng, count):
    pairs = []
    for _ in range(count):
        A = H.random_layout(rng)
        ins = [(n, s << rng.randint(0, 1)) for n, s in A.out_dims]
        rng.shuffle(ins)
        outer = H.random_layout(rng, in_names=[n for n, _ in ins], max_in_bits=0)
        bases = []
        for n, s in ins:
            bases.append((n, [[rng.randrange(z) for _, z in outer.out_dims] for _ in range(s.bit_length() - 1)]))
        pairs.append((A, LinearLayout(bases, outer.out_dims, require_surjective=False)))
    return pairs


def _invertible(rng):
    while True:
        L = H.random_layout(rng, surjective=True)
        if L.is_invertible():
            return L
        n = L.total_out_dim_size_log2
        cols = list(range(n))
        rng.shuffle(cols)
        # a permuted identity spread over the in-dims present
        bits = [1 << c for c in cols]
        names = L.in_dim_names
        sizes = [0] * len(names)
        for _ in range(n):
            sizes[rng.randrange(len(names))] += 1
        bases = []
        i = 0
        for name, k in zip(names, sizes):
            vecs = []
            for b in bits[i:i + k]:
                v = []
                for _, s in L.out_dims:
                    w = s.bit_length() - 1
                    v.append(b & (s - 1))
                    b >>= w
                vecs.append(v)
            bases.append((name, vecs))
            i += k
        M = LinearLayout(bases, L.out_dims)
        if M.is_invertible():
            return M


def test_algebra_matches_triton():
    rng = random.Random(7)
    cases, mine = [], []
    for _ in range(120):
        a, b = H.random_layout(rng), H.random_layout(rng)
        cases.append({"op": "mul", "a": H.to_json(a), "b": H.to_json(b)})
        mine.append(a * b)
    for A, O in _compose_pairs(rng, 80):
        cases.append({"op": "compose", "a": H.to_json(A), "b": H.to_json(O)})
        mine.append(A.compose(O))
    for A, B in _iac_pairs(rng, 200):
        cases.append({"op": "iac", "a": H.to_json(A), "b": H.to_json(B)})
        mine.append(A.invert_and_compose(B))
    for _ in range(80):
        L = H.random_layout(rng, surjective=True)
        cases.append({"op": "pinv", "a": H.to_json(L)})
        mine.append(L.pseudoinvert())
    for _ in range(40):
        L = _invertible(rng)
        cases.append({"op": "inv", "a": H.to_json(L)})
        mine.append(L.invert())
    got = H.triton_oracle(cases)
    for case, m, want in zip(cases, mine, got):
        assert H.describe(m) == want, case


def test_equality_matches_triton():
    rng = random.Random(11)
    cases, mine = [], []
    for _ in range(60):
        a = H.random_layout(rng)
        variants = [a, a.resize_out_dim(a.out_dim_names[0], max(1, a.out_dims[0][1] // 2)),
                    LinearLayout(a.bases, [(n, s * 2) for n, s in a.out_dims], require_surjective=False),
                    H.random_layout(rng)]
        for b in variants:
            cases.append({"op": "eq", "a": H.to_json(a), "b": H.to_json(b)})
            mine.append(a == b)
    assert H.triton_oracle(cases) == mine


# ------------------------------------------------------------ properties
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_invert_is_two_sided_inverse(seed):
    L = _invertible(random.Random(seed))
    R = L.invert()
    for p in _points(L):
        assert R.apply(L.apply(p)) == p
    for q in _points(R):
        assert L.apply(R.apply(q)) == q


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_invert_and_compose_postcondition(seed):
    rng = random.Random(seed)
    B = H.random_layout(rng, surjective=True)
    names = B.out_dim_names
    rng.shuffle(names)
    sizes = dict(B.out_dims)
    A = H.random_layout(rng, outs=[(n, max(1, sizes[n] >> rng.randint(0, 1))) for n in names])
    if rng.random() < 0.5:
        Bt = dict(B.transpose_outs(names).bases)
        if A.out_dims == B.transpose_outs(names).out_dims:
            A = LinearLayout([(n, Bt.get(n, v)) for n, v in A.bases], A.out_dims, require_surjective=False)
    C = A.invert_and_compose(B)
    assert C.in_dim_names == A.in_dim_names and C.out_dim_names == B.in_dim_names
    for p in _points(A):
        assert B.apply(C.apply(p)) == A.apply(p)


def _same_dims(rng, count):
    names = ["register", "lane", "warp"]
    out = []
    for _ in range(count):
        outs = [("dim0", 1 << rng.randint(0, 2)), ("dim1", 1 << rng.randint(0, 2))]
        out.append(H.random_layout(rng, outs=outs, in_names=names))
    return out


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_product_is_associative(seed):
    rng = random.Random(seed)
    a, b, c = _same_dims(rng, 3)
    assert (a * b) * c == a * (b * c)
    # with arbitrary dim names both groupings are the same function up to dim order
    x, y, z = (H.random_layout(rng) for _ in range(3))
    try:
        left, right = (x * y) * z, x * (y * z)
    except LayoutError:
        return
    right = right.transpose_ins(left.in_dim_names).transpose_outs(left.out_dim_names)
    assert left == right


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_divide_left_undoes_product(seed):
    rng = random.Random(seed)
    a, b = _same_dims(rng, 2)
    assert divide_left(a * b, a) == b
    x, y = H.random_layout(rng), H.random_layout(rng)
    q = divide_left(x * y, x)
    if q is not None:
        assert x * q == x * y


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_divide_right_undoes_product(seed):
    rng = random.Random(seed)
    names = ["register", "lane"]
    outs = [("dim0", 1 << rng.randint(0, 2)), ("dim1", 1 << rng.randint(0, 2))]
    c = H.random_layout(rng, outs=outs, in_names=names)
    b = H.random_layout(rng, outs=[("dim0", 1 << rng.randint(0, 2)), ("dim1", 1 << rng.randint(0, 2))],
                        in_names=names)
    assert divide_right(c * b, b) == c


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_compose_and_reshape_preserve_the_function(seed):
    rng = random.Random(seed)
    A, O = _compose_pairs(rng, 1)[0]
    R = A.compose(O)
    for p in _points(A):
        assert R.apply(p) == O.apply(A.apply(p))
    F = A.flatten_ins().flatten_outs()
    for p in _points(A):
        # flattened input: first in-dim least significant
        x, shift = 0, 0
        for n, s in A.in_dims:
            x |= p[n] << shift
            shift += s.bit_length() - 1
        y, shift = 0, 0
        for n, v in A.apply(p).items():
            y |= v << shift
            shift += A.out_dim_size(n).bit_length() - 1
        key = F.in_dim_names[0] if F.in_dim_names else None
        got = F.apply({key: x} if key else {})
        assert list(got.values()) == ([y] if F.out_dim_names else [])
    masks = A.free_variable_masks()
    assert all(m == 0 for m in masks.values()) == A.is_injective()


def test_every_operation_fails_only_with_layout_error():
    """Fuzz: random (often mismatched) operands give a result or a LayoutError, nothing else."""
    rng = random.Random(99)
    names = ["register", "lane", "warp", "block", "dim0", "dim1"]
    ops = [
        lambda a, b: a * b,
        lambda a, b: a.compose(b),
        lambda a, b: a.invert_and_compose(b),
        lambda a, b: a.pseudoinvert(),
        lambda a, b: a.invert(),
        lambda a, b: divide_left(a, b),
        lambda a, b: divide_right(a, b),
        lambda a, b: a.quotient(rng.sample(names, rng.randint(0, 2))),
        lambda a, b: a.sublayout(rng.sample(names, rng.randint(0, 3)), rng.sample(names, rng.randint(0, 3))),
        lambda a, b: a.reshape_ins([("x", rng.choice([1, 2, 4, 8, 16, 3]))]),
        lambda a, b: a.reshape_outs([("x", rng.choice([1, 2, 4, 8, 16, 6])), ("y", 2)]),
        lambda a, b: a.transpose_ins(rng.sample(names, rng.randint(0, 3))),
        lambda a, b: a.transpose_outs(rng.sample(names, rng.randint(0, 3))),
        lambda a, b: a.concat_ins(b),
        lambda a, b: a.concat_outs(b),
        lambda a, b: a.resize_in_dim(rng.choice(names), rng.choice([0, 1, 2, 3, 4, 8])),
        lambda a, b: a.resize_out_dim(rng.choice(names), rng.choice([0, 1, 2, 3, 4, 8])),
        lambda a, b: a.rename_in_dim(rng.choice(names), rng.choice(names)),
        lambda a, b: a.remove_zero_bases_along_dim(rng.choice(names)),
        lambda a, b: a.apply({n: rng.randint(-1, 9) for n in rng.sample(names, rng.randint(0, 4))}),
        lambda a, b: a.get_basis(rng.choice(names), rng.randint(-1, 3)),
        lambda a, b: a.is_trivial_over(rng.sample(names, rng.randint(0, 2))),
        lambda a, b: a.to_attr(),
        lambda a, b: a.compose(42),
        lambda a, b: a.equal_ignoring_out_dim_sizes(None),
    ]
    for _ in range(1500):
        outs = [(n, 1 << rng.randint(0, 3)) for n in rng.sample(names, rng.randint(0, 3))]
        a = H.random_layout(rng, outs=outs or None, in_names=rng.sample(names, rng.randint(0, 3)))
        b = H.random_layout(rng, in_names=rng.sample(names, rng.randint(0, 3)))
        op = rng.choice(ops)
        try:
            op(a, b)
        except LayoutError:
            pass


# ---------------------------------------------------- Triton's own unit-test cases
def L_(bases, outs, surj=True):
    return LinearLayout(bases, outs, require_surjective=surj)


def test_triton_unit_cases_divide_left():
    B, C = identity_1d(8, "in", "out"), zeros_1d(16, "in", "out")
    assert divide_left(B * C, B) == C and divide_left(C * B, C) == B
    A = identity_1d(32, "in", "out")
    assert divide_left(A, L_({"in": [[1], [2], [4], [8]], "extra": [[0]]}, ["out"])) is None
    assert divide_left(identity_1d(8, "in", "out"), identity_1d(4, "in", "out")) == identity_1d(2, "in", "out")
    assert divide_left(identity_1d(8, "in", "out"), identity_1d(8, "in", "out")) == identity_1d(1, "in", "out")
    l1 = L_({"in1": [[1, 1], [2, 2], [0, 8], [0, 4]], "in2": [[0, 2], [0, 1]]}, ["out1", "out2"])
    l2 = L_({"in1": [[1, 1], [2, 2]], "in2": [[0, 2], [0, 1]]}, ["out1", "out2"])
    l3 = L_({"in1": [[0, 2], [0, 1]], "in2": []}, ["out1", "out2"])
    assert l2 * l3 == l1 and divide_left(l1, l2) == l3
    l1 = L_({"in2": [[0, 1], [1, 0]], "in1": [[2, 0], [0, 2]]}, ["out1", "out2"])
    l2 = L_({"in2": [[0, 1], [1, 0]]}, ["out1", "out2"])
    l3 = L_({"in2": [], "in1": [[1, 0], [0, 1]]}, ["out1", "out2"])
    assert l2 * l3 == l1 and divide_left(l1, l2) == l3
    l4 = L_({"in1": [[0, 1], [0, 2]], "in2": []}, ["out1", "out2"])
    l5 = L_({"in1": [[0, 1], [0, 2]]}, ["out1", "out2"])
    l6 = L_({"in1": [], "in2": []}, ["out1", "out2"])
    assert l5 * l6 == l4 and divide_left(l4, l5) == l6
    l1 = L_({"in2": [[1, 0], [1, 0]], "in1": [[2, 0], [0, 1]]}, ["out1", "out2"])
    l2 = L_({"in2": [[1, 0], [1, 0]]}, ["out1", "out2"])
    l3 = L_({"in2": [], "in1": [[1, 0], [0, 1]]}, ["out1", "out2"])
    assert l2 * l3 == l1 and divide_left(l1, l2) == l3
    l4 = L_({"in1": [[0, 1], [0, 2]]}, ["out1", "out2"])
    l5 = L_({}, ["out1"])
    assert l5 * l4 == l4 and divide_left(l4, l5) == l4


def test_triton_unit_cases_invert_and_compose():
    l1 = L_({"in1": [[2], [1], [4]]}, ["out"])
    l2 = L_({"in2": [[4], [1], [2]]}, ["out"])
    c = l1.invert_and_compose(l2)
    assert c == L_({"in1": [[4], [2], [1]]}, ["in2"]) and c.compose(l2) == l1
    l2 = L_({"in2": [[0], [2], [1], [4]]}, ["out"])
    c = l1.invert_and_compose(l2)
    assert c == L_({"in1": [[2], [4], [8]]}, {"in2": 16}, False) and c.compose(l2) == l1
    l1 = L_({"in1": [[2], [1], [4]], "in2": [[0]]}, ["out"])
    l2 = L_({"in": [[4], [1], [2]]}, ["out"])
    c = l1.invert_and_compose(l2)
    assert c == L_({"in1": [[4], [2], [1]], "in2": [[0]]}, ["in"]) and c.compose(l2) == l1
    l1 = L_({"in": [[1], [2], [4]]}, ["out"])
    c = l1.invert_and_compose(L_({"in": [[0], [4], [1], [2]]}, ["out"]))
    assert c == L_({"in": [[4], [8], [2]]}, {"in": 16}, False)
    c = L_({"in1": [[1], [2], [4]]}, ["out"]).invert_and_compose(L_({"in2": [[4], [1], [2], [0]]}, ["out"]))
    assert c == L_({"in1": [[2], [4], [1]]}, {"in2": 16}, False)
    c = l1.invert_and_compose(L_({"in": [[0], [4], [1], [2], [0]]}, ["out"]))
    assert c == L_({"in": [[4], [8], [2]]}, {"in": 32}, False)
    m1 = L_({"in1": [[1, 0], [0, 1], [2, 0], [3, 2]], "in2": [[2, 2]]}, ["out1", "out2"])
    m2 = L_({"in3": [[0, 1], [1, 0], [0, 0], [0, 2], [2, 1]]}, ["out2", "out1"])
    assert m1.invert_and_compose(m2).compose(m2) == m1.transpose_outs(m2.out_dim_names)
    assert m2.invert_and_compose(m1).compose(m1) == m2.transpose_outs(m1.out_dim_names)
    a = L_({"in1": [[1], [2], [4]], "in2": [[0]]}, ["out"])
    b = L_({"in3": [[1], [2], [4]], "in4": [[0]]}, ["out"])
    assert a.invert_and_compose(b) == L_({"in1": [[1, 0], [2, 0], [4, 0]], "in2": [[0, 0]]},
                                         {"in3": 8, "in4": 2}, False)
    a = L_({"in1": [[1], [2]], "in2": [[0]]}, ["out"])
    b = L_({"in3": [[2], [1]], "in4": [[0]]}, ["out"])
    assert a.invert_and_compose(b) == L_({"in1": [[2, 0], [1, 0]], "in2": [[0, 0]]}, {"in3": 4, "in4": 2}, False)
    outs = [f"dim{i}" for i in range(9)]

    def unit(k):
        return [1 if j == k else 0 for j in range(9)]

    src = L_({"register": [unit(8), unit(7)], "lane": [unit(6), unit(5), unit(4), unit(3), unit(2)],
              "warp": [unit(1), unit(0)], "block": []}, outs)
    dst = L_({"register": [unit(8), unit(7)], "lane": [unit(0), unit(1), unit(2), unit(3), unit(4)],
              "warp": [unit(5), unit(6)], "block": []}, outs)
    cvt = dst.invert_and_compose(src)
    k = {"register": 3, "lane": 0, "warp": 2, "block": 0}
    assert dst.apply(k) == src.apply(cvt.apply(k))


def test_triton_unit_cases_queries():
    assert identity_1d(1, "in", "out").num_consecutive_in_out() == 1
    assert identity_1d(4, "in", "out").num_consecutive_in_out() == 4
    assert (identity_1d(4, "in1", "out") * identity_1d(8, "in2", "out")).num_consecutive_in_out() == 4
    assert (identity_1d(4, "in", "out1") * identity_1d(8, "in", "out2")).num_consecutive_in_out() == 4
    assert (zeros_1d(4, "in", "out1") * identity_1d(4, "in", "out2")).num_consecutive_in_out() == 1
    assert L_({"in": [[1], [2], [4], [9]]}, ["out"]).num_consecutive_in_out() == 1
    assert L_({"in": [[1], [2], [4], [10]]}, ["out"]).num_consecutive_in_out() == 2
    assert L_({"in": [[1], [4], [2]]}, ["out"]).num_consecutive_in_out() == 2
    assert L_({"in": [[1], [2], [4]], "in2": [[8], [18]]}, ["out"]).num_consecutive_in_out() == 2
    assert zeros_1d(16, "in", "out").free_variable_masks() == {"in": 0b1111}
    mixed = identity_1d(2, "in", "out") * zeros_1d(4, "in", "out") * identity_1d(4, "in", "out") * zeros_1d(
        2, "in", "out")
    assert mixed.free_variable_masks() == {"in": 0b100110}
    l1 = L_({"in1": [[1, 0], [0, 1], [2, 0]], "in2": [[0, 1]]}, ["out1", "out2"])
    assert l1.sublayout(["in1", "in2"], ["out1"]) == L_({"in1": [[1], [0], [2]], "in2": [[0]]}, ["out1"])
    assert l1.sublayout(["in2", "in1"], ["out2", "out1"]) == l1
    assert l1.sublayout(["in1"], []) == L_({"in1": [[], [], []]}, [])
    assert l1.sublayout([], ["out1"]) == L_({}, {"out1": 4}, False)
    z = L_({"in1": [[0, 1], [0, 2]], "in2": [[1, 1]]}, ["out1", "out2"])
    assert z.sublayout_is_zero(["in1"], ["out1"]) and not z.sublayout_is_zero(["in1"], ["out2"])
    assert not z.sublayout_is_zero(["in2"], ["out1"]) and identity_1d(4, "in", "out").sublayout_is_zero([], [])


def test_triton_unit_cases_quotient():
    layout = L_({"dim1": [[1, 0], [2, 0], [4, 0]], "dim2": [[0, 1], [0, 2]]}, ["dim1", "dim2"])
    assert layout.quotient(["dim1", "dim2"]) is not None
    layout = L_({"dim1": [[1, 0, 2], [2, 0, 1]], "dim2": [[0, 1, 0], [0, 2, 0], [0, 4, 0]],
                 "dim3": [[0, 0, 1], [0, 0, 2]]}, ["dim1", "dim2", "dim3"])
    assert layout.quotient(["dim2"]) is not None
    layout = L_({"dim1": [[1, 0, 2], [2, 0, 1]], "dim2": [[0, 1, 0], [0, 2, 0], [0, 4, 0]],
                 "dim3": [[0, 1, 1], [0, 0, 2]]}, ["dim1", "dim2", "dim3"])
    assert layout.quotient(["dim2"]) is None
    assert empty().quotient(["dim1"]) is None
    ident = identity_1d(8, "dim1", "dim1") * identity_1d(2, "dim2", "dim2") * identity_1d(4, "dim3", "dim3")
    q = ident.quotient(["dim1", "dim3"])
    assert q == identity_1d(2, "dim2", "dim2") and ident.quotient(["dim3", "dim1"]) == q
