"""unilayout._family: the protocol's defaults give a family of four hooks everything else."""

import numpy as np
import pytest

from unilayout import LayoutError, NotRepresentableError
from unilayout._family import Family, only_options


class Pairs:
    """A toy value: ``i -> (i // 2, i % 2)`` over ``[0, n)`` (two values per point)."""

    def __init__(self, n):
        self.n = n

    def __str__(self):
        return f"pairs<{self.n}>"


class PairsFamily(Family):
    name, types = "pairs", (Pairs,)

    def parse(self, text, **given):
        return Pairs(int(text[6:-1]))

    def index_map(self, v, shape=None):
        i = np.arange(v.n, dtype=np.int64)
        return np.stack([i // 2, i % 2], axis=1)

    def box(self, v):
        return (v.n,)


class Nothing(Family):
    name = "nothing"


P = PairsFamily()


def test_the_four_required_hooks_say_which_family_lacks_them():
    for call in (lambda: Nothing().parse("x"), lambda: Nothing().index_map(1), lambda: Nothing().box(1)):
        with pytest.raises(NotImplementedError, match="family 'nothing' gives no"):
            call()


def test_defaults_come_from_index_map_and_box():
    v = P.parse("pairs<6>")
    assert P.canonical(v) == "pairs<6>" and P.with_shape(v, (3,)) is v and P.concrete(v) is v
    assert P.size(v) == 6 and P.rank(v) == 1 and P.box_rank(v) == 1 and P.default_shape(v) is None
    assert P.forms == () and P.conversions == () and P.bits(v) is None and P.same(v, v, None) is None
    assert P.values_as(v, P.index_map(v), 1) is None and P.index_order == "C" and not P.flat_domain
    with pytest.raises(NotRepresentableError, match="a pairs value has no affine form"):
        P.to_affine(v)
    with pytest.raises(LayoutError, match="no text form 'hlo'"):
        P.form(v, "hlo")


def test_default_facts_of_several_values_per_point_leave_out_the_one_value_measures():
    d = P.facts(Pairs(4), None)
    assert d == {"shape": [4], "size": 4}
    assert P.checks(Pairs(4), d) == []


def test_default_tables_and_picture_show_every_value():
    title, text = P.tables(Pairs(4), None, 100)[0]
    assert "row-major" in title and text.splitlines()[1].split() == ["0", "0,0", "0,1", "1,0", "1,1"]
    assert P.tables(Pairs(4), None, 3)[0][1].startswith("(not shown: 4 cells > 3")
    s = P.picture(Pairs(4))
    assert s.kind == "pairs" and s.labels.tolist() == [["0,0", "0,1", "1,0", "1,1"]]


def test_only_options_refuses_what_does_not_apply():
    only_options("x", {"color": None, "tv": None, "element_bytes": 4, "labels": False})
    with pytest.raises(LayoutError, match="colour modes apply to CuTe and linear layouts, not to a x value"):
        only_options("x", {"color": "bank"})
    with pytest.raises(LayoutError, match=r"picture options \['layout'\] do not apply to a x value"):
        only_options("x", {"layout": object()})
