"""Differential numerics: vectorised evaluation equals scalar evaluation for every family, values near 2**63 included.

A refusal (LayoutError) is right only where some exact answer is past int64.
"""

import fuzzlib as F
import numpy as np
import pytest

from unilayout import LayoutError, cute


@pytest.mark.parametrize("family", sorted(F.FAMILIES))
def test_vectorised_equals_scalar_over_random_layouts(family):
    counts, findings = F.fuzz_numerics(2000, seed=18, families={family: F.FAMILIES[family]})
    assert not findings, "\n".join(map(str, findings[:10]))
    c = counts[family]
    assert c["inputs"] == 2000 and c["bare"] == c["hang"] == c["wrong"] == 0 and c["value"] > 1500, c


def test_the_issue_swizzle_is_refused_on_construction():
    with pytest.raises(LayoutError, match=r"bits \+ base \+ \|shift\| <= 63"):
        cute.Swizzle(1, 0, -63)


@pytest.mark.parametrize("b, m, s", [(1, 0, 62), (1, 0, -62), (3, 57, 3), (2, 30, -31), (0, 63, 0)])
def test_swizzles_at_the_bound_are_exact_near_2_63(b, m, s):
    sw = cute.Swizzle(b, m, s)
    xs = [(1 << 63) - 1, (1 << 62) + 12345, 1 << 61, 0, 1, (1 << 63) - 2]
    assert sw(np.array(xs, dtype=np.int64)).tolist() == [sw(x) for x in xs]


def test_a_composed_layout_offset_near_2_63_is_exact_or_refused():
    C = cute.ComposedLayout(cute.Swizzle(1, 0, 1), (1 << 63) - 4, cute.Layout(4, 1))
    assert cute.evaluate(C, np.arange(4)).tolist() == [C(i) for i in range(4)]
    D = cute.ComposedLayout(cute.Swizzle(1, 0, 1), (1 << 63) - 2, cute.Layout(4, 1))
    with pytest.raises(LayoutError, match="do not fit in int64"):
        cute.evaluate(D, np.arange(4))


def test_layout_evaluation_is_exact_when_the_bound_is_past_int64_but_the_offsets_are_not():
    L = cute.Layout((3, 6, 4), (1921533428290417571, 720411461336644062, 620545511203812903))  # found by the fuzzer
    idx = np.arange(64)
    assert cute.evaluate(L, idx).tolist() == [L(int(i)) for i in idx]
    with pytest.raises(LayoutError, match="do not fit in int64"):
        cute.index_map(L)
    assert cute.evaluate(cute.Layout((1, 2), (1 << 70, 3)), np.arange(2)).tolist() == [0, 3]
