"""``unilayout sharding`` (``unilayout.cli.sharding``): the verb, ``show``'s sharding texts, and the old module path.

The vocabularies themselves (HLO, Shardy, DTensor, TTNN, JAX, XLA layouts) are tested in tests/sharding.
"""

import json

import pytest
from helpers_cli import run

from unilayout.cli import sharding as verb


def test_the_verb_prints_who_holds_what_and_every_vocabulary(capsys):
    status, out, _ = run(capsys, "sharding", "{devices=[2,1,2]<=[4] last_tile_dim_replicate}", "--shape", "8x6")
    assert status == 0 and out.startswith("sharding of 8x6 over 4 devices\n")
    assert "dtensor: Shard(0), Replicate()  on mesh 2x2" in out


def test_the_verb_json_and_to(capsys):
    status, out, _ = run(capsys, "sharding", "Shard(0), Shard(0)", "--mesh-shape", "2x2", "--shape", "5x3", "--json")
    d = json.loads(out)
    assert status == 0 and (d["schema"], d["command"], d["kind"]) == ("unilayout/1", "sharding", "sharding")
    status, out, _ = run(capsys, "sharding", "{devices=[2]0,1}", "--shape", "4", "--to", "hlo")
    assert status == 0 and out == "hlo:     {devices=[2]<=[2]}\n"


def test_sizes_may_be_zero_but_not_text(capsys):
    status, _, err = run(capsys, "sharding", "{replicated}", "--shape", "0x4")
    assert status == 0, err
    status, _, err = run(capsys, "sharding", "{replicated}", "--shape", "8xq")
    assert status == 2 and "--shape: expected sizes like 8x8" in err


def test_an_xla_layout_cannot_be_drawn_by_the_verb(capsys, tmp_path):
    status, _, err = run(capsys, "sharding", "f32[4,4]{1,0}", "-o", str(tmp_path / "x.svg"))
    assert status == 2 and "unilayout render TEXT -o FILE" in err


def test_an_xla_layout_is_shown_by_the_verb_as_show_shows_it(capsys):
    status, out, err = run(capsys, "sharding", "f32[3,5]{1,0:T(2,2)}")
    assert status == 0 and "internal error" not in err, err
    assert out == run(capsys, "show", "f32[3,5]{1,0:T(2,2)}")[1]


def test_show_reads_sharding_texts_like_any_family(capsys):
    status, out, _ = run(capsys, "show", "{devices=[2]0,1}", "--shape", "4")
    assert status == 0 and out.startswith("family:         sharding\ntext:           {devices=[2]<=[2]}")
    assert "  [2:4]  device 1" in out and "dtensor: Shard(0)  on mesh 2" in out
    status, out, _ = run(capsys, "show", "Shard(0), Replicate()", "--shape", "4x2", "--mesh-shape", "2x2")
    assert status == 0 and "devices:        4" in out and "replicated:     yes" in out


def test_the_old_module_path_keeps_the_verbs_names():
    from unilayout.sharding import command

    for name in ("add_parser", "run", "show", "main_for_tests"):
        assert getattr(command, name) is getattr(verb, name)
    with pytest.raises(AttributeError):
        command.no_such_name  # noqa: B018
