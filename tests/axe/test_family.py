"""The axe record: unilayout.parse dispatches to it; show, render, facts, cells and pictures work through it alone."""

import numpy as np
import pytest

import unilayout
from unilayout import LayoutError, facts, viz
from unilayout.cli import main

PAPER = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1@m)]"


def test_parse_detects_both_texts_and_names_the_family():
    v = unilayout.parse(PAPER)
    assert unilayout.family_of(v) == "axe" and str(v) == PAPER
    assert unilayout.parse(v.to_tirx()) == v
    assert unilayout.family_of(unilayout.parse("T.ComposeLayout(0, 2, 3, S[8, 8])")) == "axe"


def test_index_map_is_every_element_on_every_axis():
    v = unilayout.parse(PAPER)
    m = unilayout.index_map(v)
    assert m.shape == (128, 3) and v.axes == ("laneid", "warpid", "m")
    want = [[v.apply(i)[a] for a in v.axes] for i in range(128)]
    assert m.tolist() == want


def test_facts_list_axes_spans_and_the_conversions():
    d = facts.describe(unilayout.parse(PAPER))
    assert d["axes"] == ["laneid", "warpid", "m"] and d["span"] == {"laneid": 32, "warpid": 2, "m": 2}
    assert d["injective"] is True and d["box"] == [8, 2, 4, 2]


def test_pictures_colour_by_a_chosen_axis(tmp_path):
    v = unilayout.parse(PAPER)
    s = viz.scene(v, color="warpid")
    lanes = viz.scene(v)
    assert s.shape == (8, 16) and s.labels[0, 0] == "0:0:0" and s.labels[0, 3] == "1:0:1"
    assert np.array_equal(s.attrs["warpid"], lanes.attrs["warpid"])
    w = s.attrs["warpid"]
    assert (s.fill[w == 0][0] != s.fill[w == 1][0]).any() and (s.fill[w == 0] == s.fill[w == 0][0]).all()
    with pytest.raises(LayoutError, match="choose one of the layout's axes"):
        viz.scene(v, color="bx")
    out = tmp_path / "a.png"
    assert main(["render", PAPER, "-o", str(out)]) == 0 and out.stat().st_size > 1000


def test_show_and_explorer_cells(capsys):
    assert main(["show", PAPER]) == 0
    out = capsys.readouterr().out
    assert "family:         axe" in out and "laneid (the logical index row-major, 8 x 16)" in out
    from unilayout import _families

    c = _families.record("axe").cells(unilayout.parse(PAPER))
    assert c.columns["laneid"][:4].tolist() == [0, 0, 1, 1] and c.total == 128 and c.columns["element"][9] == "(0, 1, 0, 1)"


def test_the_explorer_and_notebooks_show_it_through_the_record():
    from unilayout import _notebook, axe
    from unilayout.explorer.views import text_view

    v = text_view(PAPER + " + R[2:1@wgid]")
    assert v["family"] == "axe" and v["columns"][2:] == ["laneid", "warpid", "m"] and v["total"] == 128
    assert axe.TileLayout in _notebook.value_types() and "<svg" in _notebook.html(unilayout.parse(PAPER))



def test_show_of_a_huge_layout_answers_without_tabulating_it(capsys):
    assert main(["show", "S[(65536,65536):(65536@m,1@m)]"]) == 0
    out = capsys.readouterr().out
    assert "4,294,967,296" in out and "(65536,65536):(1,65536)" in out
