"""LinearLayout value: construction, invariants, accessors, str/repr, equality, apply."""

import pickle
import random

import linear_helpers as H
import pytest

from unilayout import LayoutError
from unilayout.linear import (
    LinearLayout,
    empty,
    from_bases,
    identity_1d,
    identity_standard_nd,
    strided_1d,
    zeros_1d,
)


def test_bases_are_values_of_powers_of_two_and_apply_xors_them():
    L = LinearLayout({"t": [[1, 1], [2, 2]], "w": [[0, 1], [0, 2]]}, ["x", "y"])
    table = [[tuple(L.apply({"t": t, "w": w}).values()) for w in range(4)] for t in range(4)]
    assert table == [
        [(0, 0), (0, 1), (0, 2), (0, 3)],
        [(1, 1), (1, 0), (1, 3), (1, 2)],
        [(2, 2), (2, 3), (2, 0), (2, 1)],
        [(3, 3), (3, 2), (3, 1), (3, 0)],
    ]


def test_inferred_out_sizes_are_next_power_of_two_above_max_entry():
    L = LinearLayout({"in1": [[1, 0], [5, 1], [2, 2], [4, 0], [0, 2]]}, ["out1", "out2"])
    assert L.out_dims == [("out1", 8), ("out2", 4)]
    with pytest.raises(LayoutError, match="reaches 8 of the 32 points"):
        LinearLayout({"in1": [[1, 0], [5, 1], [2, 2]]}, ["out1", "out2"])
    assert LinearLayout({"i": [[0]]}, ["o"]).out_dims == [("o", 1)]


def test_inferred_sizes_require_surjectivity():
    with pytest.raises(LayoutError, match="not surjective"):
        LinearLayout({"i": [[1], [4]]}, ["o"])


def test_explicit_sizes_allow_non_surjective():
    L = LinearLayout({"i": [[1], [4]]}, {"o": 8}, require_surjective=False)
    assert not L.is_surjective() and L.is_injective()


@pytest.mark.parametrize(
    "bases, outs, message",
    [
        ({"i": [[1]]}, {"o": 3}, "not a power of two: pad to 4"),
        ({"i": [[1]]}, {"o": 0}, "not a power of two"),
        ({"i": [[4]]}, {"o": 4}, "out of range \\[0, 4\\): enlarge that out-dim to 8"),
        ({"i": [[-1]]}, {"o": 4}, "negative entry"),
        ({"i": [[1, 0]]}, {"o": 4}, "has 2 entries but there are 1 out-dims"),
        ([("i", [[1]]), ("i", [[2]])], {"o": 4}, "appears twice"),
        ({"i": [[1.5]]}, {"o": 4}, "must be an integer"),
        ({"i": [[True]]}, {"o": 4}, "must be an integer"),
        ({"i": [1]}, {"o": 2}, "must be a list of ints"),
        ({1: [[1]]}, {"o": 2}, "must be a string"),
        ({"i": [[1]]}, "o", "got the string"),
        ({"i": [[1]]}, [("o", 2), "p"], "all names or all"),
        ({"i": [[1], [2]]}, {"o": 4, "p": 2}, "has 1 entries but there are 2"),
        ("nonsense", {"o": 2}, "must be a pair"),
        ({"i": [[1]]}, 5, "out_dims must be"),
    ],
)
def test_bad_input_raises_layout_error_with_reason(bases, outs, message):
    with pytest.raises(LayoutError, match=message):
        LinearLayout(bases, outs)


def test_constructors_match_reference():
    assert identity_1d(8, "i", "o").bases == [("i", [[1], [2], [4]])]
    assert identity_1d(0, "i", "o") == empty() == zeros_1d(0, "i", "o")
    assert identity_1d(1, "i", "o").in_dims == [("i", 1)] and identity_1d(1, "i", "o").out_dims == [("o", 1)]
    assert zeros_1d(4, "i", "o").out_dims == [("o", 1)] and zeros_1d(4, "i", "o").is_surjective()
    assert not zeros_1d(4, "i", "o", 8).is_surjective()
    assert strided_1d(4, 2, "i", "o").bases == [("i", [[2], [4]])]
    assert strided_1d(4, 2, "i", "o").out_dims == [("o", 8)]
    for bad in [lambda: identity_1d(6, "i", "o"), lambda: strided_1d(4, 3, "i", "o"),
                lambda: strided_1d(4, 0, "i", "o"), lambda: zeros_1d(-2, "i", "o"),
                lambda: zeros_1d(4, "i", "o", 3), lambda: identity_1d(4, 1, "o")]:
        with pytest.raises(LayoutError):
            bad()


def test_from_bases_like_triton():
    L = from_bases([("i", [[1, 0], [0, 1], [2, 0]])], ["a", "b"])
    assert L.out_dims == [("a", 4), ("b", 2)]
    assert not from_bases([("i", [[1]])], ["o"], [4], require_surjective=False).is_surjective()
    with pytest.raises(LayoutError, match="one size per name"):
        from_bases([("i", [[1]])], ["o"], [4, 2])


def test_identity_standard_nd_example_from_seed():
    L = identity_standard_nd("register", [2, 4, 8], [2, 1, 0])
    assert L.bases == [("register", [[1, 0, 0], [2, 0, 0], [4, 0, 0], [0, 1, 0], [0, 2, 0], [0, 0, 1]])]
    assert L.out_dims == [("dim2", 8), ("dim1", 4), ("dim0", 2)]
    with pytest.raises(LayoutError, match="permutation"):
        identity_standard_nd("r", [2, 4], [0, 0])


def test_str_is_tritons_to_string_exactly():
    L = identity_1d(4, "i", "o") * zeros_1d(2, "i", "o")
    assert str(L) == "\n - i=1 -> (1)\n   i=2 -> (2)\n   i=4 -> (0)\nwhere out dims are: [o (size 4)]"
    assert str(empty()) == "\n(empty layout)"
    assert str(LinearLayout({}, {"o": 4}, require_surjective=False)) == "\n(empty layout with out-dims [o (size 4)])"
    assert str(LinearLayout({"i": []}, ["o"])) == "\n - i is a size 1 dimension\nwhere out dims are: [o (size 1)]"
    assert str(LinearLayout({"i": [[]]}, [])) == "\n - i=1 -> ()\nwhere out dims are: []"


def test_repr_pastes_back_and_eq_hash_by_value():
    rng = random.Random(1)
    for _ in range(50):
        L = H.random_layout(rng)
        M = eval(repr(L), {"LinearLayout": LinearLayout})
        assert M == L and hash(M) == hash(L)
        assert pickle.loads(pickle.dumps(L)) == L
    a = LinearLayout({"i": [[1]]}, {"o": 2})
    assert a != LinearLayout({"i": [[1]]}, {"o": 4}, require_surjective=False)
    assert a.equal_ignoring_out_dim_sizes(LinearLayout({"i": [[1]]}, {"o": 4}, require_surjective=False))
    assert a != LinearLayout({"j": [[1]]}, {"o": 2})
    assert len({a, LinearLayout({"i": [[1]]}, {"o": 2})}) == 1
    assert (a == "x") is False


def test_layout_is_immutable():
    L = identity_1d(4, "i", "o")
    with pytest.raises(AttributeError):
        L._bases = ()
    with pytest.raises(AttributeError):
        L.foo = 1
    b = L.bases
    b[0][1][0][0] = 99
    assert L.bases == [("i", [[1], [2]])]


def test_accessors():
    L = identity_1d(4, "register", "dim0") * identity_1d(2, "lane", "dim1")
    assert L.in_dim_names == ["register", "lane"] == L.get_in_dim_names()
    assert L.out_dim_names == ["dim0", "dim1"] == L.get_out_dim_names()
    assert L.in_dims == [("register", 4), ("lane", 2)]
    assert (L.num_in_dims, L.num_out_dims) == (2, 2)
    assert L.in_dim_size("lane") == 2 and L.out_dim_size("dim0") == 4 and L.out_dim_size_log2("dim0") == 2
    assert L.total_in_dim_size == 8 and L.total_out_dim_size == 8 and L.rank == 3
    assert L.get_basis("lane", 0) == (0, 1) and L.get_basis("register", 1, "dim0") == 2
    assert L.has_in_dim("lane") and not L.has_in_dim("dim0") and L.has_out_dim("dim1")
    with pytest.raises(LayoutError, match="not an in-dim"):
        L.in_dim_size("warp")
    with pytest.raises(LayoutError, match="out of range"):
        L.get_basis("lane", 1)


def test_matrix_view_rows_are_output_bits():
    L = LinearLayout({"register": [[1, 0], [0, 1]], "lane": [[2, 0]]}, ["dim0", "dim1"])
    assert L.get_matrix_view() == [[1, 0, 0], [0, 0, 1], [0, 1, 0]]


def test_apply_checks_its_input():
    L = identity_1d(4, "i", "o") * identity_1d(2, "j", "o")
    assert L.apply({"j": 1, "i": 3}) == {"o": 7}
    assert L.apply([("i", 1), ("j", 0)]) == {"o": 1}
    for bad, msg in [({"i": 1}, "missing \\['j'\\]"), ({"i": 1, "j": 0, "k": 0}, "unknown"),
                     ({"i": 4, "j": 0}, "outside \\[0, 4\\)"), ({"i": -1, "j": 0}, "outside"),
                     ({"i": 1.0, "j": 0}, "integer"), ([("i", 1), ("i", 1)], "twice"), ([1], "expected")]:
        with pytest.raises(LayoutError, match=msg):
            L.apply(bad)


def test_queries_on_reference_examples():
    assert empty().is_surjective() and empty().is_injective() and empty().is_invertible()
    L = LinearLayout({"i": [[0], [1], [2]]}, ["o"])
    assert L.is_surjective() and not L.is_injective() and not L.is_invertible()


def test_no_64_bit_cap():
    L = identity_1d(1 << 100, "i", "o") * identity_1d(1 << 100, "j", "p")
    assert L.total_in_dim_size_log2 == 200 and L.is_invertible()
    assert L.apply({"i": (1 << 100) - 1, "j": 5}) == {"o": (1 << 100) - 1, "p": 5}


def test_construction_queries_str_and_apply_match_triton():
    rng = random.Random(2024)
    layouts = [H.random_layout(rng) for _ in range(150)]
    layouts += [H.random_layout(rng, surjective=True) for _ in range(50)]
    cases = [{"op": "build", "a": H.to_json(L)} for L in layouts]
    points = []
    for L in layouts:
        pts = [{n: rng.randrange(s) for n, s in L.in_dims} for _ in range(4)]
        points.append(pts)
        cases.append({"op": "apply", "a": H.to_json(L), "points": pts})
    got = H.triton_oracle(cases)
    n = len(layouts)
    for L, want in zip(layouts, got[:n]):
        assert H.describe(L) == want, L
    for L, pts, want in zip(layouts, points, got[n:]):
        assert [L.apply(p) for p in pts] == want


def test_bases_given_as_one_shot_iterables_are_read_once_and_kept():
    L = LinearLayout({"i": (v for v in [[1], [2]])}, {"o": 4}, False)
    assert L == LinearLayout({"i": [[1], [2]]}, {"o": 4})


def test_flat_bases_flattens_out_dims_first_least_significant():
    L = LinearLayout({"r": [[1, 0], [0, 1]], "l": [[3, 1], [0, 0]]}, {"d0": 4, "d1": 8}, require_surjective=False)
    # independent: out-dim d1 sits above d0's 2 bits
    assert L.flat_bases() == [("r", [1, 4]), ("l", [3 + (1 << 2), 0])]
    one = LinearLayout({"i": [[5]]}, {"o": 8}, require_surjective=False)
    assert one.flat_bases() == [("i", [5])]
    assert LinearLayout({"i": []}, {"o": 1}).flat_bases() == [("i", [])]
