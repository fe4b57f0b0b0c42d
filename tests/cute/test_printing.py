import pytest

from unilayout import LayoutError
from unilayout.cute import Layout, layout_table, make_identity_layout, parse, print_layout

REFERENCE = """(2,(2,2)):(4,(2,1))
      0   1   2   3 
    +---+---+---+---+
 0  | 0 | 2 | 1 | 3 |
    +---+---+---+---+
 1  | 4 | 6 | 5 | 7 |
    +---+---+---+---+"""


def test_reference_table_byte_for_byte():
    assert layout_table(Layout((2, (2, 2)), (4, (2, 1)))) == REFERENCE


def test_print_layout_prints_the_table(capsys):
    print_layout(Layout((2, (2, 2)), (4, (2, 1))))
    assert capsys.readouterr().out == REFERENCE + "\n"


def test_width_grows_with_cosize():
    lines = layout_table(Layout((2, 6), (6, 1))).splitlines()
    assert lines[2] == "    " + "+----" * 6 + "+"
    assert lines[3].startswith(" 0  |  0 |  1 |")


def test_rank1_is_one_row_and_rank3_is_rejected():
    lines = layout_table(Layout(4, 2)).splitlines()
    assert len(lines) == 5 and lines[3] == " 0  | 0 | 2 | 4 | 6 |"
    with pytest.raises(LayoutError, match="rank 3"):
        layout_table(Layout((2, 2, 2)))


def test_negative_offsets_keep_the_columns_aligned():
    lines = layout_table(Layout(8, -1)).splitlines()
    assert "| -7 |" in lines[3]
    assert len({len(line) for line in lines[2:]}) == 1


def test_print_layout_of_basis_strides_writes_coordinates():
    """C++'s print_layout format, each cell L(m, n) as CuTe prints a coordinate, the widest setting the width."""
    text = layout_table(make_identity_layout((2, 12)))
    lines = text.splitlines()
    assert lines[0] == "(2,12):(1@0,1@1)"
    assert lines[3] == " 0  " + "".join(f"| {f'(0,{n})':>6} " for n in range(12)) + "|"
    assert lines[2] == "    " + "+--------" * 12 + "+"
    assert "| (14) |" in layout_table(parse("8:2@0"))
