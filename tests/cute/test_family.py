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


@pytest.mark.parametrize("text", ["8:2@0", "(4,8):(1@0,1@1)"])
def test_basis_stride_pictures_and_cells_refuse_with_a_layout_error(text):
    L = cute.parse(text)
    with pytest.raises(LayoutError, match="basis strides"):
        CUTE.picture(L, max_cells=4096)
    with pytest.raises(LayoutError, match="basis strides"):
        CUTE.cells(L)


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
