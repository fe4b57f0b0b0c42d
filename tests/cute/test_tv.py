import numpy as np
import pytest

from unilayout import LayoutError
from unilayout.cute import Layout, index_map, make_layout_tv, right_inverse, tv_owner, tv_table


def test_reference_tv_layout():
    tiler, tv = make_layout_tv(Layout((4, 32), (32, 1)), Layout((4, 1), (1, 1)))
    assert tiler == (16, 32)
    assert str(tv) == "((32,4),4):((16,4),1)"


@pytest.mark.parametrize("thr,val", [
    (Layout((4, 32), (32, 1)), Layout((4, 1), (1, 1))),
    (Layout((2, 2)), Layout((1, 2))),
    (Layout((8, 4), (4, 1)), Layout((2, 2))),
    (Layout((32, 8)), Layout((4, 1))),
])
def test_tv_layout_is_a_bijection_onto_the_tile(thr, val):
    tiler, tv = make_layout_tv(thr, val)
    n = tiler[0] * tiler[1]
    assert sorted(index_map(tv).tolist()) == list(range(n))
    inv = right_inverse(tv)
    assert all(tv(inv(p)) == p for p in range(n))


def test_owner_query_agrees_with_the_layout():
    thr, val = Layout((8, 4), (4, 1)), Layout((2, 2))
    tiler, tv = make_layout_tv(thr, val)
    threads, values = tv_table(tv, tiler)
    assert threads.shape == tiler
    for m in range(tiler[0]):
        for n in range(tiler[1]):
            t, v = tv_owner(tv, tiler, (m, n))
            assert (t, v) == (threads[m, n], values[m, n])
            assert tv(t, v) == m + tiler[0] * n


def test_owner_of_broadcast_layout_is_the_first_thread():
    tv = Layout((4, 2), (0, 1))  # every thread holds the same 2 elements
    assert tv_owner(tv, (2, 1), (1, 0)) == (0, 1)
    threads, _ = tv_table(Layout((2, 1), (1, 0)), (4, 1))
    assert threads.ravel().tolist() == [0, 1, -1, -1]
    with pytest.raises(LayoutError, match="no thread"):
        tv_owner(Layout((2, 1), (1, 0)), (4, 1), (3, 0))


def test_owner_query_rejects_bad_input():
    tiler, tv = make_layout_tv(Layout((2, 2)), Layout((1, 2)))
    with pytest.raises(LayoutError):
        tv_owner(tv, tiler, (5, 0))
    with pytest.raises(LayoutError):
        tv_owner(tv, tiler, (0, 0, 0))
    with pytest.raises(LayoutError):
        make_layout_tv((2, 2), Layout(2))
    with pytest.raises(LayoutError):
        tv_table(Layout(8, 1), (2, 4))
    assert np.all(tv_table(tv, tiler)[0] >= 0)
