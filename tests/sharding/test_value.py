"""Sharding: canonical boxes, equality, repr round trip, flags, refusals."""


import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unilayout import LayoutError
from unilayout.sharding import Sharding


def test_repr_pastes_back_and_equality():
    s = Sharding((5, 4), {1: [((3, 5), (0, 4))], 0: [((0, 3), (0, 4))]}, partial=[1])
    assert eval(repr(s)) == s
    assert hash(eval(repr(s))) == hash(s)
    assert s.devices == (0, 1)
    assert s.partial == {0: False, 1: True}
    assert s != Sharding((5, 4), {1: [((3, 5), (0, 4))], 0: [((0, 3), (0, 4))]})
    assert s != Sharding((5, 4), {1: [((3, 5), (0, 4))], 2: [((0, 3), (0, 4))]}, partial=[1])


def test_canonical_boxes_merge_and_drop_empty():
    a = Sharding((4, 4), {0: [((0, 2), (0, 4)), ((2, 4), (0, 2)), ((2, 4), (2, 4)), ((1, 1), (0, 4))]})
    assert a.device_boxes == {0: [((0, 4), (0, 4))]}
    b = Sharding((4, 4), {0: [((0, 4), (0, 2)), ((0, 4), (2, 4))]})
    assert a == b
    # an L shape: the greedy merge is along the last dim first
    c = Sharding((2, 2), {0: [((0, 1), (0, 2)), ((1, 2), (0, 1))]})
    assert c.device_boxes == {0: [((0, 1), (0, 2)), ((1, 2), (0, 1))]}
    assert Sharding((2, 2), {0: [((1, 2), (0, 1)), ((0, 1), (1, 2)), ((0, 1), (0, 1))]}) == c


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6), st.integers(0, 5), st.integers(0, 5)),
                min_size=1, max_size=5))
def test_canonical_form_depends_only_on_the_index_set(raw):
    boxes = [((min(a, b), max(a, b)), (min(c, d), max(c, d))) for a, b, c, d in raw]
    s = Sharding((6, 5), {0: boxes})
    mask = np.zeros((6, 5), bool)
    for (a, b), (c, d) in boxes:
        mask[a:b, c:d] = True
    got = np.zeros((6, 5), int)
    for (a, b), (c, d) in s.device_boxes[0]:
        got[a:b, c:d] += 1
    assert (got == mask).all()  # same set, disjoint boxes
    cells = [((i, i + 1), (j, j + 1)) for i, j in zip(*np.nonzero(mask))]
    assert Sharding((6, 5), {0: cells}) == s


def test_replicated_flags_and_owners():
    s = Sharding((4,), {0: [((0, 3),)], 1: [((2, 4),)], 2: []})
    assert s.replicated == {0: True, 1: True, 2: False}
    assert s.owners().tolist() == [0, 0, 0, 1]
    assert s.covers()
    assert not Sharding((4,), {0: [((0, 3),)]}).covers()
    assert s.local_shape(2) == (0,)
    many = Sharding((4, 4), {0: [((0, 1), (0, 1)), ((2, 3), (2, 3))], 1: [((2, 3), (2, 3))]})
    assert many.replicated == {0: True, 1: True}
    with pytest.raises(LayoutError, match="no single local shape"):
        many.local_shape(0)


def test_bad_input_is_a_layout_error():
    for args, msg in [
        (((4,), {0: [((0, 5),)]}), "needs 0 <= start <= stop <= 4"),
        (((4,), {0: [((3, 1),)]}), "needs 0 <= start"),
        (((4,), {0: [((0, 4), (0, 1))]}), "has 2 dims"),
        (((4,), {}), "at least one device"),
        (((4,), [((0, 4),)]), "must be a dict"),
        (((4,), {-1: []}), "device id must be >= 0"),
        (((4,), {0: "x"}), "expected a list of boxes"),
        (((4,), {0: [(0, 4)]}), "has 2 dims but the shape"),
        (((4,), {0: [(5,)]}), "must be a .start, stop. pair"),
    ]:
        with pytest.raises(LayoutError, match=msg):
            Sharding(*args)
    with pytest.raises(LayoutError, match="partial devices"):
        Sharding((4,), {0: [((0, 4),)]}, partial=[3])
    for partial in (5, "0", None):
        with pytest.raises(LayoutError, match="partial must be a list of device ids"):
            Sharding((4,), {0: [((0, 4),)]}, partial=partial)
    with pytest.raises(LayoutError, match="not one of"):
        Sharding((4,), {0: [((0, 4),)]}).boxes(9)


def test_str_groups_holders():
    s = Sharding((2,), {0: [((0, 2),)], 1: [((0, 2),)]}, partial=[0, 1])
    assert str(s).splitlines() == ["sharding of 2 over 2 devices", "  [0:2]  devices 0, 1 (partial sums)"]


def test_relabel():
    s = Sharding((2,), {0: [((0, 1),)], 1: [((1, 2),)]}, partial=[1])
    r = s.relabel([5, 4])
    assert r.device_boxes == {4: [((1, 2),)], 5: [((0, 1),)]} and r.partial == {4: True, 5: False}
    with pytest.raises(LayoutError):
        s.relabel({0: 1})


def test_replicated_equals_the_pairwise_definition_on_random_boxes():
    """``replicated`` (identical boxes grouped; the pairwise check skipped for grid cells) against its definition."""
    import random

    rng = random.Random(3)
    for trial in range(300):
        rank = rng.randint(1, 3)
        shape = tuple(rng.randint(1, 6) for _ in range(rank))
        n = rng.randint(1, 8)
        if trial % 2:  # cells of one grid, some repeated (copies)
            cuts = [sorted({0, z} | {rng.randint(0, z) for _ in range(2)}) for z in shape]
            cells = [tuple((c[j], c[j + 1]) for c, j in zip(cuts, js))
                     for js in np.ndindex(*[len(c) - 1 for c in cuts])]
            boxes = {d: [rng.choice(cells)] for d in range(n)}
        else:  # arbitrary boxes, overlapping or not
            boxes = {}
            for d in range(n):
                box = []
                for z in shape:
                    a = rng.randint(0, z - 1)
                    box.append((a, rng.randint(a + 1, z)))
                boxes[d] = [tuple(box)]
        s = Sharding(shape, boxes)

        def overlap(a, b):
            return all(max(x0, y0) < min(x1, y1) for (x0, x1), (y0, y1) in zip(a, b))

        want = {d: any(overlap(boxes[d][0], boxes[e][0]) for e in boxes if e != d) for d in boxes}
        assert s.replicated == want, (shape, boxes)


def test_sum_groups_are_canonical_paste_back_and_are_checked():
    full = ((0, 4),)
    s = Sharding((4,), {d: [full] for d in range(4)}, partial=range(4), sum_groups=[[3, 1], [2, 0]])
    assert s.sum_groups == ((0, 2), (1, 3)) and eval(repr(s)) == s and "sum_groups=" in repr(s)
    assert s.relabel({0: 0, 1: 2, 2: 1, 3: 3}).sum_groups == ((0, 1), (2, 3))
    # one group whose devices hold disjoint halves is the same fact as two groups (nothing is summed across them)
    halves = {0: [((0, 2),)], 1: [((0, 2),)], 2: [((2, 4),)], 3: [((2, 4),)]}
    one = Sharding((4,), halves, partial=range(4))
    two = Sharding((4,), halves, partial=range(4), sum_groups=[[0, 1], [2, 3]])
    assert one == two and one.sum_groups == ((0, 1), (2, 3))
    assert Sharding((4,), halves, partial=range(4), sum_groups=[[0, 2], [1, 3]]) != one
    with pytest.raises(LayoutError, match="in two groups"):
        Sharding((4,), halves, partial=range(4), sum_groups=[[0, 1], [1, 2, 3]])
    with pytest.raises(LayoutError, match="but the partial devices are"):
        Sharding((4,), halves, partial=range(4), sum_groups=[[0, 1]])


def test_boxes_of_every_device_is_linear():
    import time

    n = 1 << 16
    s = Sharding._from_arrays((n,), np.arange(n), np.arange(n)[:, None], np.arange(1, n + 1)[:, None])
    t0 = time.perf_counter()
    assert [s.boxes(d)[0][0] for d in s.devices] == [(d, d + 1) for d in range(n)]
    assert time.perf_counter() - t0 < 2.0
    with pytest.raises(LayoutError, match="not one of"):
        s.boxes([1])


def test_zero_size_boxes_compare_equal_however_built():
    a = Sharding._trusted((0, 4), (0, 1), ((((0, 0), (0, 4)),), ()))
    b = Sharding((0, 4), {0: [], 1: [((0, 0), (0, 4))]})
    assert a == b and hash(a) == hash(b) and a.device_boxes == {0: [], 1: []}
    assert a.is_fully_replicated


# --- a manual sharding (XLA's last_tile_dims={manual}): boxes of each group's own value ----------------------------
def _manual():
    """{devices=[2,1,2]0,1,2,3 last_tile_dims={manual}} on 6x3: groups {0, 2} and {1, 3}, each tiling its value."""
    return Sharding((6, 3), {0: [((0, 3), (0, 3))], 1: [((0, 3), (0, 3))], 2: [((3, 6), (0, 3))],
                             3: [((3, 6), (0, 3))]}, manual=[[0, 2], [1, 3]])


def test_manual_field_is_in_equality_hash_and_repr():
    from unilayout.sharding import ManualGroups  # noqa: F401  (the repr names it)
    s = _manual()
    assert s.manual == ManualGroups([[0, 2], [1, 3]])
    assert eval(repr(s)) == s and hash(eval(repr(s))) == hash(s) and "manual=ManualGroups(((0, 2), (1, 3)))" in repr(s)
    same_boxes = Sharding((6, 3), s.group_boxes)
    assert s != same_boxes and same_boxes != s  # the field is a fact: never treated as replicas of one array
    assert s != Sharding((6, 3), s.group_boxes, manual=[[1, 3], [0, 2]])  # nor the groups' manual order
    assert s == Sharding((6, 3), s.group_boxes, manual=ManualGroups([[2, 0], [3, 1]]))


def test_manual_groups_must_be_the_devices_and_hold_no_partial_sums():
    boxes = _manual().group_boxes
    with pytest.raises(LayoutError, match=r"manual groups hold devices \[0, 1, 2\]"):
        Sharding((6, 3), boxes, manual=[[0, 2], [1]])
    with pytest.raises(LayoutError, match="no partial sums"):
        Sharding((6, 3), boxes, partial=[0, 1, 2, 3], manual=[[0, 2], [1, 3]])
    # fully manual (XLA's {manual}): a group per device, whose order XLA does not keep
    full = {d: [((0, 2),)] for d in range(3)}
    assert Sharding((2,), full, manual=[[2], [0], [1]]).manual.groups == ((0,), (1,), (2,))


def test_manual_sharding_refuses_every_view_of_one_global_array():
    from unilayout import NotRepresentableError
    s = _manual()
    for view in (lambda: s.device_boxes, lambda: s.boxes(0), s.arrays, s.owners):
        with pytest.raises(NotRepresentableError, match=r"manual groups \{0, 2\}, \{1, 3\}.*group_boxes"):
            view()


def test_manual_sharding_facts_are_within_each_group():
    s = _manual()
    assert s.group_boxes[2] == [((3, 6), (0, 3))] and s.local_shape(3) == (3, 3)
    assert s.replicated == {d: False for d in range(4)}  # 0 and 1 hold the same box of different values
    assert not s.is_fully_replicated and s.covers() and not s.has_partial
    half = Sharding((6, 3), {**s.group_boxes, 3: []}, manual=[[0, 2], [1, 3]])
    assert not half.covers()  # group 1's value lacks rows 3:6
    copies = Sharding((2,), {d: [((0, 2),)] for d in range(4)}, manual=[[0, 1], [2, 3]])
    assert copies.replicated == {d: True for d in range(4)} and not copies.is_fully_replicated
    print_ = str(s).splitlines()
    assert print_[0] == "manual sharding of 6x3 over 4 devices in 2 manual groups, each holding its own value of shape 6x3"
    assert print_[1:4] == ["  manual group 0: devices 0, 2", "    [0:3, 0:3]  device 0", "    [3:6, 0:3]  device 2"]


def test_relabel_carries_the_manual_groups():
    r = _manual().relabel({0: 10, 1: 11, 2: 12, 3: 13})
    assert r.manual.groups == ((10, 12), (11, 13)) and r.group_boxes[12] == [((3, 6), (0, 3))]
