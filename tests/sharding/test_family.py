"""The sharding family's record and the consumers of its values, on a manual sharding (XLA's last_tile_dims={manual}).

Each consumer of a ``Sharding`` either says what is known of a manual one
(its HLO text, groups, tile assignment) or refuses with the reason; none may
treat the manual groups as replicas of one global array.
"""

import pytest

import unilayout
from unilayout import LayoutError, NotRepresentableError
from unilayout.facts import describe
from unilayout.sharding import parse_hlo
from unilayout.sharding.family import SHARDING

MANUAL = "{devices=[2,1,2]0,1,2,3 last_tile_dims={manual}}"
MIXED = "{devices=[1,2,2]0,1,2,3 last_tile_dims={manual,replicated}}"


def test_read_and_show_say_the_groups_and_the_tile_assignment():
    s = unilayout.read(MANUAL, shape=(6, 3))
    assert s == parse_hlo(MANUAL, (6, 3)) and s.manual.groups == ((0, 2), (1, 3))
    d = describe(s)
    assert d["text"] == "{devices=[2,1,2]<=[4] last_tile_dims={manual}}"
    assert d["manual_groups"] == [[0, 2], [1, 3]]
    assert d["tile_assignment"] == "[2,1,2] 0,1,2,3 (tiles 2x1 of each value, 2 manual groups)"
    assert d["covers"] is True and d["replicated"] is False
    m = describe(parse_hlo(MIXED, (2,)))
    assert m["tile_assignment"] == "[1,2,2] 0,1,2,3 (tiles 1 of each value, 2 manual groups, 2 copies of each tile)"
    assert m["replicated"] is True  # copies within each group
    blocks = dict(SHARDING.tables(s, None, 100))["blocks"]
    assert "manual group 1: devices 1, 3" in blocks


def test_the_canonical_text_reads_back_the_same_sharding():
    for text, shape in ((MANUAL, (6, 3)), (MIXED, (2,)), ("{manual}", (4,))):
        s = parse_hlo(text, shape)
        assert SHARDING.parse(SHARDING.canonical(s), shape=shape) == s


def test_index_map_and_equivalent_refuse_a_manual_sharding():
    s, t = parse_hlo(MANUAL, (6, 3)), parse_hlo("{devices=[2,1,2]0,2,1,3 last_tile_dims={manual}}", (6, 3))
    with pytest.raises(NotRepresentableError, match="index_map.*partially manual"):
        SHARDING.index_map(s)
    with pytest.raises(NotRepresentableError, match="partially manual"):
        unilayout.equivalent(s, t)
    # its boxes are those of the tile assignment without the manual dim, read as one array: never equivalent to it
    plain = parse_hlo("{devices=[2,1,2]0,1,2,3 last_tile_dim_replicate}", (6, 3))
    with pytest.raises(NotRepresentableError, match="partially manual"):
        unilayout.equivalent(s, plain)
    assert unilayout.equivalent(s, parse_hlo(MANUAL, (6, 3)))  # the same value is itself


def test_convert_has_no_pair_for_a_manual_sharding():
    from unilayout.convert import convert_to
    s = parse_hlo(MANUAL, (6, 3))
    for target in ("cute", "linear", "affine", "tsl"):
        with pytest.raises(LayoutError):
            convert_to(s, target)


def test_the_sharding_verb_prints_the_groups_and_refuses_boxes_in_json(capsys):
    from unilayout.cli.sharding import main_for_tests
    assert main_for_tests([MANUAL, "--shape", "6x3"]) == 0
    out = capsys.readouterr().out
    assert "manual group 0: devices 0, 2" in out and "hlo:     {devices=[2,1,2]<=[4] last_tile_dims={manual}}" in out
    assert "dtensor: not representable" in out
    # --json lists boxes of one global array: refused with the reason, never written as if the groups were copies
    with pytest.raises(NotRepresentableError, match="device_boxes.*partially manual"):
        main_for_tests([MANUAL, "--shape", "6x3", "--json"])
    assert '"devices"' not in capsys.readouterr().out


def test_a_notebook_shows_the_text_of_a_manual_sharding():
    from unilayout import _notebook
    assert _notebook.svg(parse_hlo(MANUAL, (6, 3))) is None  # no picture: IPython shows the text (its groups)


def test_an_hlo_instruction_line_with_a_manual_sharding_reads():
    line = "%p = f32[6,3]{1,0} parameter(0), sharding={devices=[2,1,2]0,1,2,3 last_tile_dims={manual}}"
    s = unilayout.read(line)
    assert s.shape == (6, 3) and s.manual.groups == ((0, 2), (1, 3))
