"""tsl.stride: one level of tiling (Stride) and a dimension as tiles of tiles (TiledStride)."""

import pytest

from unilayout import LayoutError
from unilayout.tsl import Stride, TiledStride


def test_stride_and_tiled_stride_rules():
    assert Stride(4, 0).all_values() == [0, 0, 0, 0]
    assert str(Stride(None, None)) == "? -> ?"
    with pytest.raises(LayoutError, match="bound must be >= 1"):
        Stride(0, 1)
    with pytest.raises(LayoutError, match="must be an integer"):
        Stride(2.5, 1)
    with pytest.raises(LayoutError, match="must be an integer"):
        Stride(True, 1)
    with pytest.raises(LayoutError, match="only the outermost bound"):
        TiledStride([Stride(4, 4), Stride(None, 1)])
    with pytest.raises(LayoutError, match="at least one level"):
        TiledStride([])
    with pytest.raises(LayoutError, match="dynamic"):
        Stride(None, 2).all_values()
    assert TiledStride([(2, 32), (4, 4)]) == TiledStride([Stride(2, 32), Stride(4, 4)])


def test_from_stride_builds_dense_tiles_and_propagates_unknowns():
    assert TiledStride.from_stride(24, [2, 6, 4]).steps == (576, 96, 24)
    assert TiledStride.from_stride(0, [2, 3]).steps == (0, 0)
    assert TiledStride.from_stride(1, [None, 4, 8]).steps == (32, 8, 1)
    assert TiledStride.from_stride(None, [2, 4]).steps == (None, None)
