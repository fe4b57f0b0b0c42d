"""A short CuTe tour: ``python -m unilayout.cute.demo``.

>>> main()  # doctest: +ELLIPSIS
A 4x2 row-major matrix, viewed hierarchically
...
"""

from __future__ import annotations

import numpy as np

from . import (
    Layout, Tensor, blocked_product, coalesce, complement, composition, index_map, local_tile, logical_divide,
    make_layout_tv, parse, print_layout, tv_owner,
)


def main() -> None:
    """Print the tour."""
    L = parse("((2,2),2):((4,1),2)")
    print("A 4x2 row-major matrix, viewed hierarchically")
    print_layout(Layout((4, 2), (2, 1)))
    print(f"\n{L}: 1-D coordinates 0..7 map to {index_map(L).tolist()}")
    print(f"coalesce((M,N):(1,M)) with M,N = 4,8: {coalesce(Layout((4, 8), (1, 4)))}")

    tile, grid = Layout((2, 2), (1, 2)), Layout((2, 3), (3, 1))
    B = blocked_product(tile, grid)
    print(f"\nblocked_product({tile}, {grid}) = {B}")
    print(f"  A((0,1),(1,1)) = storage[{B((0, 1), (1, 1))}]   (the seed's storage[18])")
    print_layout(B)

    A = Layout((6, 2), (8, 2))
    print(f"\ncomposition({A}, (4,3):(3,1)) = {composition(A, Layout((4, 3), (3, 1)))}")
    print(f"complement(4:2, 24) = {complement(Layout(4, 2), 24)}")
    print(f"logical_divide((6,8):(8,1), (3,4)) = {logical_divide(Layout((6, 8), (8, 1)), (3, 4))}")

    T = Tensor(np.arange(B.cosize), B)
    sub = local_tile(T, (2, 2), (0, 2))
    print(f"\nlocal_tile(A, (2,2), (0,2)) -> {sub.layout} at offset {sub.offset}:")
    print(sub.to_numpy())

    tiler, tv = make_layout_tv(Layout((4, 32), (32, 1)), Layout((4, 1), (1, 1)))
    print(f"\nTV layout of 4x32 threads x 4x1 values: tile {tiler}, tv = {tv}")
    print(f"element (5, 3) is held by (thread, value) = {tv_owner(tv, tiler, (5, 3))}")


if __name__ == "__main__":
    main()
