"""unilayout.draw.table: integer tables over a row-major box, as show prints them."""

from unilayout.draw.table import MAX_TABLE_CELLS, grid_text, too_big


def test_grid_text_folds_the_box_to_rows_and_its_last_dim():
    assert grid_text(range(6), (2, 3)).splitlines() == ["   0 1 2", "0  0 1 2", "1  3 4 5"]
    assert grid_text(range(8), (2, 2, 2)).splitlines()[0] == "   0 1"  # 4 rows of the last dim
    assert len(grid_text(range(8), (2, 2, 2)).splitlines()) == 5


def test_several_values_per_point_are_joined_and_columns_widen():
    text = grid_text([[10, 0], [0, 1]], (2,))
    assert text.splitlines() == ["      0    1", "0  10,0  0,1"]  # every column as wide as the widest cell


def test_too_big_says_how_many_and_the_option():
    assert too_big("t", MAX_TABLE_CELLS + 1, MAX_TABLE_CELLS) == (
        "t", "(not shown: 4,097 cells > 4,096; use --max-cells or render)")
