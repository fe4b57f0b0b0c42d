import numpy as np
import pytest

from unilayout import affine, cute, tsl, tt
from unilayout.errors import LayoutError
from unilayout.linear import encodings as E
from unilayout.viz.linear import shared_hardware_view, shared_tensor_view
from unilayout.viz.text import grid_text, tables


def test_shared_layout_tables_are_triton_shared_views():
    # #ttg.linear text cannot carry an 'offset' in-dim, so this goes through the table builder directly.
    sh = E.swizzled_shared([4, 4], 1, 1, 4, [1, 0])
    parts = dict(tables(sh, None, 4096))
    assert parts["hardware view (Triton get_shared_view(True))"] == shared_hardware_view(sh).rstrip("\n")
    assert parts["tensor view (Triton get_shared_view(False))"] == shared_tensor_view(sh).rstrip("\n")


def test_grid_text_rows_hold_the_values_in_row_major_order():
    vals = np.arange(12)[::-1]
    lines = grid_text(vals, (3, 4)).splitlines()
    assert len(lines) == 4 and lines[0].split() == ["0", "1", "2", "3"]
    for r in range(3):
        assert [int(x) for x in lines[1 + r].split()[1:]] == vals[4 * r : 4 * r + 4].tolist()


def test_grid_text_writes_components_with_commas():
    assert grid_text(np.array([[0, 1], [2, 3]]), (2,)).splitlines()[1].split() == ["0", "0,1", "2,3"]


def test_cute_table_is_print_layout_and_rank_3_is_mode_0_down():
    L = cute.Layout((2, 3), (3, 1))
    assert tables(L) == [("", cute.layout_table(L))]
    L3 = cute.Layout((2, 2, 2), (1, 2, 4))
    title, text = tables(L3)[0]
    assert title.startswith("rank 3") and [int(x) for x in text.splitlines()[1].split()[1:]] == [0, 2, 4, 6]


def test_big_tables_say_they_are_not_shown():
    assert "not shown" in tables(cute.Layout(100, 1), max_cells=10)[0][1]
    assert "not shown" in tables(tsl.parse("#tsl.tsl<[2, 64] -> (64, 1)>"), max_cells=10)[0][1]


def test_affine_table_needs_a_box():
    m = affine.parse("(d0, d1) -> (d1 * 2 + d0)")
    assert tables(m) == []
    text = tables(m, (2, 2))[0][1]
    assert [int(x) for x in text.splitlines()[2].split()[1:]] == [1, 3]


def test_device_table_counts_cores_per_chip():
    dev = tt.parse("#tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, "
                   "meshShape = 1x2, chipIds = [0, 1]>")
    text = tables(dev)[0][1]
    assert "chip 0: 64 cores" in text and "chip 1: 64 cores" in text


def test_tables_of_a_non_layout_is_a_layout_error():
    with pytest.raises(LayoutError):
        tables([1, 2])


def test_xla_tables_are_its_buffer_offsets_by_xla_tiling():
    from unilayout import parse

    x = parse("f32[4,8]{1,0:T(2,4)}")
    title, text = tables(x)[0]
    rows = [list(map(int, line.split()[1:])) for line in text.splitlines()[1:]]
    # a 2x4 tile holds 8 consecutive offsets; tiles are row-major over the 2x2 tile grid
    assert rows[0][4] == 8 and rows[1][3] == 7 and rows[2][0] == 16
    assert sorted(sum(rows, [])) == list(range(32)) and rows == x.offsets().tolist()
    assert "not shown" in tables(parse("f32[4096,4096]{1,0}"))[0][1]
