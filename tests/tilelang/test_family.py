"""The TileLang record: unilayout.parse dispatches to it, show/render/facts/cells work through the record alone."""

import numpy as np

import unilayout
from unilayout import facts, viz
from unilayout.cli import main

FRAG = "Fragment((8, 8) -> (2,), replicate: 1, thread: 32, forward_thread: _i * 4 + _j // 2, forward_index: (_j % 2,))"
LAY = "Layout((4, 8) -> (32,), transform: (_i, _j) -> (_j * 4 + _i,))"


def test_unilayout_parse_reads_both_forms_and_names_the_family():
    for text in (FRAG, LAY):
        v = unilayout.parse(text)
        assert unilayout.family_of(v) == "tilelang" and str(v) == text


def test_facts_and_the_converted_forms():
    d = facts.describe(unilayout.parse(FRAG))
    assert d["thread_extent"] == 32 and d["output_shape"] == [2] and d["cute"] == "((4,8),2):((16,1),8)"
    d = facts.describe(unilayout.parse(LAY))
    assert d["bijective"] is True and d["cute"] == "(4,8):(1,4)"


def test_index_map_is_the_offset_or_thread_and_index():
    assert unilayout.index_map(unilayout.parse(LAY)).tolist() == [j * 4 + i for i in range(4) for j in range(8)]
    m = unilayout.index_map(unilayout.parse(FRAG))
    assert m.shape == (64, 2) and m[9].tolist() == [4, 1]


def test_pictures_colour_a_fragment_by_thread(tmp_path):
    s = viz.scene(unilayout.parse(FRAG))
    assert s.labels[1, 2] == "T5:0" and np.array_equal(s.attrs["thread"][1], [4, 4, 5, 5, 6, 6, 7, 7])
    assert (s.fill[0, 0] != s.fill[0, 2]).any() and (s.fill[0, 0] == s.fill[0, 1]).all()
    out = tmp_path / "f.png"
    assert main(["render", FRAG, "-o", str(out)]) == 0 and out.stat().st_size > 1000


def test_show_and_cells(capsys):
    assert main(["show", LAY]) == 0
    out = capsys.readouterr().out
    assert "family:         tilelang" in out and "buffer offsets" in out
    from unilayout import _families

    c = _families.record(unilayout.parse(FRAG)).cells(unilayout.parse(FRAG))
    assert c.columns["thread"][:4].tolist() == [0, 0, 1, 1] and c.total == 64
