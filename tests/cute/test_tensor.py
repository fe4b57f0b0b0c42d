import numpy as np
import pytest

from unilayout import LayoutError
from unilayout.cute import (
    ComposedLayout,
    Layout,
    Swizzle,
    Tensor,
    blocked_product,
    local_partition,
    local_tile,
    zipped_divide,
)


def seed_tensor():
    M0, M1, N0, N1 = 2, 2, 2, 3
    L = blocked_product(Layout((M0, N0), (1, M0)), Layout((M1, N1), (N1, 1)))
    return Tensor(np.arange(L.cosize) * 10, L)


def test_indexing_reads_storage_through_the_layout():
    T = seed_tensor()
    assert T[(0, 1), (1, 1)] == 180 == T[2, 3] == T(2, 3)
    assert T.shape == ((2, 2), (2, 3)) and T.size == 24 and T.rank == 2


def test_to_numpy_is_the_natural_matrix():
    T = seed_tensor()
    A = T.to_numpy()
    assert A.shape == (4, 6)
    assert all(A[m, n] == T[m, n] for m in range(4) for n in range(6))


def test_slicing_is_a_view():
    storage = np.zeros(32)
    T = Tensor(storage, Layout((4, 8), (1, 4)))
    col = T[None, 2]
    col[1] = 7.0
    assert storage[9] == 7.0 and T[1, 2] == 7.0
    assert col.to_numpy().shape == (4,)


def test_seed_local_tile_is_the_submatrix():
    T = seed_tensor()
    A = T.to_numpy()
    M0, N0 = 2, 2
    for m1 in range(2):
        for n1 in range(3):
            sub = local_tile(T, (M0, N0), (m1, n1))
            assert np.array_equal(sub.to_numpy(), A[m1 * M0:(m1 + 1) * M0, n1 * N0:(n1 + 1) * N0])


def test_local_tile_with_other_tile_shapes_and_projection():
    T = seed_tensor()
    A = T.to_numpy()
    sub = local_tile(T, (4, 3), (0, 1))
    assert np.array_equal(sub.to_numpy(), A[:, 3:6])
    # Step<_1, X>: only the row mode is tiled.
    proj = local_tile(T, (2, 3), (1, 0), proj=(1, None))
    assert np.array_equal(proj.to_numpy(), A[2:4, :])


def test_local_tile_int_coord_indexes_the_whole_grid():
    L = Layout((4, 6))
    lay, off = local_tile(L, (2, 3), 3)  # grid (2,2), tile 3 = (1,1)
    assert (lay, off) == local_tile(L, (2, 3), (1, 1))


def test_reference_local_partition():
    assert local_partition(Layout((4, 8), (1, 4)), Layout((2, 4), (1, 2)), 5) == (Layout((2, 2), (2, 16)), 9)


def test_local_partition_covers_every_element_once():
    T = Tensor(np.arange(64), Layout((8, 8), (8, 1)))
    thr = Layout((2, 4), (4, 1))
    seen = []
    for t in range(thr.size):
        seen.extend(local_partition(T, thr, t).to_numpy().ravel().tolist())
    assert sorted(seen) == list(range(64))


def test_tensor_with_swizzled_layout():
    C = ComposedLayout(Swizzle(2, 0, 2), 0, Layout((4, 4), (4, 1)))
    T = Tensor(np.arange(16), C)
    sw = Swizzle(2, 0, 2)
    assert all(T[m, n] == sw(4 * m + n) for m in range(4) for n in range(4))
    sub = local_tile(T, (2, 2), (1, 1))
    assert np.array_equal(sub.to_numpy(), T.to_numpy()[2:4, 2:4])
    row = T[1, None]
    assert row.to_numpy().tolist() == T.to_numpy()[1].tolist()


def test_bad_tensors_are_rejected():
    with pytest.raises(LayoutError, match="outside storage"):
        Tensor(np.arange(4), Layout(8))
    with pytest.raises(LayoutError, match="1-D"):
        Tensor(np.zeros((2, 2)), Layout(4))
    with pytest.raises(LayoutError):
        Tensor(np.arange(4), "4:1")
    with pytest.raises(LayoutError):
        local_partition(Layout((4, 4)), Layout(4), 9)
    with pytest.raises(LayoutError):
        local_tile(np.arange(4), (2,), (0,))


def test_zipped_divide_of_tensor_layout_matches_local_tile():
    L = Layout((6, 8), (8, 1))
    Z = zipped_divide(L, (3, 4))
    lay, off = local_tile(L, (3, 4), (1, 1))
    assert lay == Z[0] and off == Z[1](1, 1)


def test_coordinates_outside_the_tensor_are_rejected():
    T = Tensor(np.arange(64), Layout((4, 8), (1, 4)))
    for bad in [(4, 0), (0, 8), 32]:
        with pytest.raises(LayoutError, match="outside the tensor"):
            T[bad]
    with pytest.raises(LayoutError, match="outside the tensor"):
        local_tile(T, (2, 4), (5, 5))
    with pytest.raises(LayoutError, match="outside the tensor"):
        T[None, 9]
    assert local_tile(Layout((4, 8), (1, 4)), (2, 4), (5, 5))[1] == 5 * 2 + 5 * 16  # a bare layout extends, as C++


def test_empty_shape_has_one_point():
    T = Tensor(np.arange(3), Layout((), ()), 2)
    assert T[0] == 2 and Layout((), ())(0) == 0
