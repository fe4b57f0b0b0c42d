"""The CUTE and TILED records: facts, pictures and cells of values the fuzzers found crashing (issue 30)."""

import time

import pytest

from unilayout import LayoutError, cute, facts
from unilayout.cli import main
from unilayout.cute.family import CUTE, TILED


@pytest.mark.parametrize("text, offsets", [("8:-1", "-7..0"), ("(4,2):(-2,1)", "-6..1"), ("(2,3):(3,-1)", "-2..3")])
def test_facts_of_negative_strides_cover_the_offsets_below_zero(text, offsets):
    L = cute.parse(text)
    d = facts.describe(L)
    values = [L(i) for i in range(L.size)]
    assert d["offsets"] == offsets == f"{min(values)}..{min(values) + L.cosize - 1}"
    assert d["cosize"] == L.cosize
    assert d["injective"] is (len(set(values)) == len(values))
    assert d["surjective"] is (set(values) == set(range(min(values), min(values) + L.cosize)))


def test_facts_of_a_non_injective_negative_stride_layout():
    d = facts.describe(cute.parse("(4,2):(-1,-1)"))
    assert d["offsets"] == "-4..0" and d["injective"] is False and d["surjective"] is True


@pytest.mark.parametrize("verb", ["show", "check"])
def test_cli_show_and_check_of_a_negative_stride_exit_0(verb, capsys):
    assert main([verb, "8:-1"]) == 0
    assert "-7" in capsys.readouterr().out or verb == "check"


@pytest.mark.parametrize("text, coshape, injective", [
    ("8:2@0", "15@0", True),
    ("(2,3):(1@1,2@0)", "2@1,5@0", True),
    ("(4,4):(1@0,0)", "4@0", False),
    ("(4,8):(1@0,1@100000000)", "4@0,8@100000000", True),
])
def test_facts_of_basis_strides_describe_coordinates_without_tabulating_the_codomain(text, coshape, injective):
    t0 = time.perf_counter()
    d = CUTE.facts(cute.parse(text), None)
    assert time.perf_counter() - t0 < 0.5
    assert d["values"].startswith("coordinates")
    assert d["coshape"] == coshape and d["injective"] is injective
    assert "cosize" not in d


def _cute_str(c):
    return str(c).replace(" ", "").replace(",)", ")")           # CuTe prints (0), Python (0,)


@pytest.mark.parametrize("text", ["8:2@0", "(4,8):(1@0,1@1)", "(2,3,2):(1@0,1@1,1@2)", "(2,(3,2)):(1@1,(1@0,2@1))"])
def test_basis_stride_layouts_are_drawn_with_their_coordinates(text):
    """Issue 23: a picture, cells, an index map and a table, each cell labelled L(i) as CuTe prints it."""
    L = cute.parse(text)
    scene = CUTE.picture(L, max_cells=4096)
    idx = scene.index.reshape(-1)
    assert sorted(idx.tolist()) == list(range(L.size))
    assert scene.labels.reshape(-1).tolist() == [_cute_str(L(int(i))) for i in idx]
    c = CUTE.cells(L)
    assert c.index.tolist() == list(range(L.size)) and c.columns["value"] == [_cute_str(L(i)) for i in range(L.size)]
    (title, table), = CUTE.tables(L, None, 4096)
    assert _cute_str(L(L.size - 1)) in table


def test_basis_index_map_has_one_column_per_named_mode():
    L = cute.parse("(4,5):(1@100000000,1@1)")             # L(i) would spell 100000001 positions: refused
    vals = CUTE.index_map(L)
    assert vals.shape == (20, 2) and vals[5].tolist() == [1, 1] and vals[19].tolist() == [4, 3]
    assert CUTE.picture(L, max_cells=4096).labels[1, 1] == "1@1+1@100000000"
    vals = CUTE.index_map(cute.parse("(2,3):(1@1,2@0)"))
    assert vals.tolist() == [list(cute.parse("(2,3):(1@1,2@0)")(i)) for i in range(6)]


def test_a_far_basis_mode_is_drawn_without_allocating_it():
    t0 = time.perf_counter()
    L = cute.parse("(64,64):(1@100000000,1@1)")
    CUTE.picture(L, max_cells=4096), CUTE.cells(L), CUTE.tables(L, None, 4096), CUTE.facts(L, None)
    assert time.perf_counter() - t0 < 2.0


@pytest.mark.parametrize("options", [{"tv": (4, 2)}, {"color": "bank"}])
def test_basis_pictures_refuse_offset_colourings(options):
    with pytest.raises(LayoutError, match="basis strides"):
        CUTE.picture(cute.parse("(4,2):(1@0,1@1)"), max_cells=4096, **options)


def test_mixed_integer_and_basis_strides_are_a_layout_error():
    L = cute.parse("(4,2):(1@0,1)")
    for f in (lambda: CUTE.picture(L, max_cells=4096), lambda: CUTE.cells(L), lambda: CUTE.index_map(L)):
        with pytest.raises(LayoutError, match="cannot add an integer"):
            f()


@pytest.mark.parametrize("verb", ["show", "render"])
def test_cli_show_and_render_of_basis_strides_exit_0(verb, tmp_path, capsys):
    args = [verb, "(4,5):(1@0,1@1)"] + (["-o", str(tmp_path / "b.svg")] if verb == "render" else [])
    assert main(args) == 0
    if verb == "show":
        assert "| (3,4) |" in capsys.readouterr().out
    else:
        assert "(3,4)" in (tmp_path / "b.svg").read_text()


@pytest.mark.parametrize("name", ["SM70_8x8x4_F32F16F16F32_TN", "SM70_8x8x4_F16F16F16F16_NT"])
def test_sm70_atom_cells_list_every_thread_the_tv_layout_names(name):
    mma = TILED.parse(name)
    c = TILED.cells(mma)
    thread_cells, held_by = c.extras["thread_cells"], c.columns["held by (thread, value)"]
    named = {int(h.split("V")[0][1:]) for row in held_by for h in row.split(", ") if h.startswith("T")}
    assert max(named) >= mma.size  # the quad-pair atom's threads are numbered past its 8 threads
    assert {t for t, rows in enumerate(thread_cells) if rows} == named
    for t, rows in enumerate(thread_cells):
        assert all(f"T{t}V" in held_by[r] for r in rows)
    TILED.picture(mma, max_cells=4096)
