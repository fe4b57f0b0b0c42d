"""ManualGroups: XLA's manual subgroups as a small immutable value (checks, order, repr, relabel)."""

import pytest

from unilayout import LayoutError
from unilayout.sharding import ManualGroups


def test_groups_keep_their_manual_order_and_sort_their_devices():
    g = ManualGroups([[2, 0], [3, 1]])
    assert g.groups == ((0, 2), (1, 3)) and g.devices == (0, 1, 2, 3) and len(g) == 2
    assert [g.group_of(d) for d in range(4)] == [0, 1, 0, 1]
    # the manual index is a fact: XLA tells 0,1,2,3 from 1,0,3,2
    assert ManualGroups([[1, 3], [0, 2]]) != g


def test_repr_pastes_back_and_equal_values_hash_alike():
    g = ManualGroups(((5,), (0, 4)))
    assert eval(repr(g)) == g and hash(eval(repr(g))) == hash(g)
    assert ManualGroups(g) == g and g != ((5,), (0, 4))


def test_it_is_immutable():
    g = ManualGroups([[0], [1]])
    with pytest.raises(AttributeError):
        g._groups = ((1,), (0,))
    assert g.groups == ((0,), (1,))


@pytest.mark.parametrize("groups, msg", [
    ([[0, 1], [1]], "device 1 is in two groups"),
    ([[0, 0]], "device 0 is in two groups"),
    ([[]], "a group has no device"),
    ([], "at least one group"),
    ("01", "lists of device ids"),
    ([3], "lists of device ids"),
    ([[-1]], ">= 0"),
])
def test_bad_groups_are_layout_errors(groups, msg):
    with pytest.raises(LayoutError, match=msg):
        ManualGroups(groups)


def test_relabel_renames_in_place_of_the_manual_order():
    assert ManualGroups([[0, 1], [2, 3]]).relabel({0: 7, 1: 6, 2: 5, 3: 4}) == ManualGroups([[6, 7], [4, 5]])
    with pytest.raises(LayoutError, match="no manual group"):
        ManualGroups([[0]]).group_of(1)
