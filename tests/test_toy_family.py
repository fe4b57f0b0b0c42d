"""A family is one folder and one registry line: the toy family under tests/toyfamily/ works everywhere.

The test registers ``toyfamily.family`` (a folder outside the package that
gives only ``types``, ``parse``, ``index_map`` and ``box``) and then uses
every entry point a user has: ``unilayout.parse``, ``show``, ``check`` and
``render`` on the command line, the explorer's API, ``viz``, ``facts`` and
the notebook's picture. No file of the package knows the toy family.
"""

import json

import pytest

import unilayout
from unilayout import _families, _notebook, facts, viz
from unilayout.cli import main


@pytest.fixture()
def toy():
    _families.register(_families.Wing("toy", "toyfamily.family", r"toy<"), before="cute")
    yield
    _families.unregister("toy")


def test_parse_reads_the_toy_text_and_the_registry_knows_the_family(toy):
    v = unilayout.parse("  toy<4, 3>")
    assert repr(v) == "Times(4, 3)" and unilayout.family_of(v) == "toy" and "toy" in unilayout.families()
    assert unilayout.index_map(v).tolist() == [0, 3, 6, 9]
    with pytest.raises(unilayout.ParseError) as e:
        unilayout.parse("toy<4; 3>")
    assert e.value.position == 5


def test_the_family_is_gone_after_unregister():
    assert "toy" not in unilayout.families()
    with pytest.raises(unilayout.ParseError):
        unilayout.parse("toy<4, 3>")


def test_show_prints_the_common_facts_and_the_table(toy, capsys):
    assert main(["show", "toy<4, 1>"]) == 0
    out = capsys.readouterr().out
    assert "family:         toy" in out and "contiguity:     4" in out and "bijective:      yes" in out
    assert main(["show", "toy<4, 2>", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert (d["family"], d["size"], d["cosize"], d["injective"], d["surjective"]) == ("toy", 4, 7, True, False)


def test_check_reports_the_default_checks(toy, capsys):
    assert main(["check", "toy<3, 0>"]) == 0
    out = capsys.readouterr().out
    assert "injective" in out and "no (a property, not an error)" in out


def test_render_writes_svg_and_png(toy, tmp_path):
    for ext in ("svg", "png"):
        path = tmp_path / f"toy.{ext}"
        assert main(["render", "toy<6, 5>", "-o", str(path)]) == 0
        data = path.read_bytes()
        assert data.startswith(b"<svg" if ext == "svg" else b"\x89PNG")
    svg = (tmp_path / "toy.svg").read_text()
    assert svg.count('class="cell"') == 6 and ">25<" in svg


def test_the_explorer_api_draws_the_toy_family(toy):
    from unilayout.explorer.api import handle

    status, view = handle("/api/view", json.dumps({"text": "toy<5, 2>"}))
    assert status == 200, view
    assert view["family"] == "toy" and view["count"] == 5 and view["svg"].count('class="cell"') == 5


def test_the_notebook_shows_the_toy_picture(toy):
    v = unilayout.parse("toy<3, 2>")
    assert Times_in(_notebook.value_types())
    svg = _notebook.svg(v)
    assert svg is not None and svg.count('class="cell"') == 3
    assert "<code>toy&lt;3, 2&gt;</code>" in _notebook.html(v)


def Times_in(types):
    return any(t.__name__ == "Times" for t in types)


def test_facts_and_viz_use_the_defaults(toy):
    v = unilayout.parse("toy<8, 1>")
    d = facts.describe(v)
    assert d["family"] == "toy" and d["contiguity"] == 8 and d["longest_run"] == 8
    assert [c["check"] for c in facts.checks(v)] == ["parses", "injective", "surjective"]
    assert viz.scene(v).count_cells() == 8
    with pytest.raises(unilayout.LayoutError, match="colour modes apply"):
        viz.scene(v, color="bank")
