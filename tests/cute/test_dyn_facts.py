"""cute.dyn_facts: what show says of a layout with dynamic leaves, before their values; checked against binding."""

import itertools

import numpy as np
import pytest

from unilayout import cute
from unilayout.cute.dyn import Dyn
from unilayout.cute.dyn_facts import UNKNOWN, dyn_facts, provably_injective


def _holds_for_values(shape, stride, values):
    """(injective, compact) of the layout with its Dyn leaves replaced by ``values``, tabulated."""
    L = cute.bind(cute.Layout(shape, stride), values)
    vals = L.index_map()
    inj = len(np.unique(vals)) == len(vals)
    return inj, inj and vals.min() == 0 and vals.max() == len(vals) - 1


CASES = [
    ((4, Dyn()), (1, 4)),
    ((Dyn(), 4), (4, 1)),
    ((Dyn(), 8), (8, Dyn(div=8))),
    ((2, 2, Dyn()), (1, 1, 4)),
    ((4, 1, Dyn(div=2)), (2, 0, 8)),
    ((4, Dyn()), (2, 8)),
    ((3, Dyn()), (1, 2)),
    ((Dyn(), Dyn()), (1, 8)),
]


@pytest.mark.parametrize("shape, stride", CASES)
def test_a_proved_fact_holds_for_every_value_tried(shape, stride):
    inj, compact = provably_injective(tuple(cute.flatten(shape)) if isinstance(shape, tuple) else (shape,),
                                      tuple(cute.flatten(stride)) if isinstance(stride, tuple) else (stride,))
    n_dyn = sum(type(v) is Dyn for v in list(shape) + list(stride))
    divs = [v.div for v in list(shape) + list(stride) if type(v) is Dyn]
    seen_inj, seen_compact = set(), set()
    for vals in itertools.product(range(1, 9), repeat=n_dyn):
        vals = [v * d for v, d in zip(vals, divs)]
        i, c = _holds_for_values(shape, stride, vals)
        seen_inj.add(i)
        seen_compact.add(c)
    if inj is not None:
        assert seen_inj == {inj}
    if compact is not None:
        assert seen_compact == {compact}


def test_the_facts_say_what_is_unknown_and_what_is_proved():
    assert provably_injective((4, Dyn()), (1, 4)) == (True, True)
    assert provably_injective((2, 2, Dyn()), (1, 1, 4)) == (False, False)
    assert provably_injective((Dyn(), 8), (8, Dyn(div=8))) == (None, None)
    assert provably_injective((3, Dyn()), (1, 2)) == (None, None)


def test_dyn_facts_lists_each_leaf_with_its_divisibility_and_the_static_modes():
    L = cute.parse('!cute.layout<"(?,?{div=64},((?,?),?)):(?{i64 div=64},1,((?{div=64},?{div=64}),?{div=64}))">')
    d = dyn_facts(L)
    assert d["rank"] == 3 and d["static modes"] == "none"
    leaves = d["dynamic leaves"].split("; ")
    assert len(leaves) == 9
    assert leaves[1] == "?{div=64} (shape of mode 1, a multiple of 64, i32)"
    assert leaves[5] == "?{i64 div=64} (stride of mode 0, a multiple of 64, i64)"
    assert d["injective"] == UNKNOWN


def test_show_of_a_dynamic_layout_reports_without_binding():
    from unilayout.facts import describe

    d = describe(cute.parse("(128,32,?):(1,128,4096)"))
    assert d["static modes"] == "0, 1"
    assert d["injective"] is True and d["compact"] is True
    assert "bind" in d["note"]


def test_show_of_a_dynamic_composed_layout_names_its_swizzle_and_its_inner_facts():
    from unilayout.facts import describe

    d = describe(cute.parse('!cute.composed_layout<"S<3,4,3> o 0 o ((128,8),1,4,?):((32,1),0,8,4096)">'))
    assert (d["swizzle"], d["offset"], d["rank"], d["static modes"]) == ("Sw<3,4,3>", 0, 4, "0, 1, 2")
    assert d["dynamic leaves"] == "? (shape of mode 3, any i32)"
