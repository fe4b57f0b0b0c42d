"""axe.text: the paper's text and TIRx's print, round trip byte for byte against TIRx's recorded prints."""

import pytest

import unilayout
from unilayout import ParseError, axe

from ._facts import FACTS, build


@pytest.mark.parametrize("rec", FACTS["layouts"], ids=lambda r: r["tirx"][:60])
def test_to_tirx_is_what_tirx_prints_and_both_texts_read_back(rec):
    L = build(rec)
    assert L.to_tirx() == rec["tirx"]
    assert axe.parse(rec["tirx"]) == L and axe.parse(str(L)) == L
    assert unilayout.parse(rec["tirx"]) == L and unilayout.parse(str(L)) == L


@pytest.mark.parametrize("rec", FACTS["paper"], ids=lambda r: r["text"])
def test_the_paper_text_builds_what_tirx_builds_from_it(rec):
    L = unilayout.parse(rec["text"])
    assert unilayout.family_of(L) == "axe" and L.to_tirx() == rec["tirx"]


def test_the_constructor_forms_read_too():
    a = axe.parse("T.TileLayout(T.S[(8, 2):(4@laneid, 1)] + 3)")
    b = axe.parse("TileLayout.from_iters(shard=[Iter(8, 4, 'laneid'), Iter(2, 1, 'm')], offset={'m': 3})")
    assert a == b and str(a) == "S[(8,2):(4@laneid,1@m)] + 3@m"
    c = axe.parse("ComposeLayout(1, 2, 3, S[8, 8], swizzle_inner=False)")
    assert c.to_tirx().endswith(", swizzle_inner=False)") and axe.parse(str(c)) == c


@pytest.mark.parametrize("text, pos, match", [
    ("S[(8,2):(4@laneid)]", 1, "2 extents but 1 strides"),
    ("S[8:4@]", 6, "expected an axis name"),
    ("S[8] + S[4]", 7, "one S"),
    ("S[8] +", 6, "expected a term"),
    ("S[8] $", 5, "unexpected character"),
    ("S[-2]", 1, "extent is >= 0"),
    ("T.TileLayout.from_iters(shard=[T.Iter(8, 4)])", 42, "expected ','"),
    ("T.ComposeLayout(0, 3, 2, S[8])", 0, "atom_len 2 must be at least"),
    ("T.TileLayout.from_iters(shard=[], offset={\"m\": 1, \"m\": 2})", 50, "given twice"),
])
def test_bad_text_is_a_parse_error_at_its_position(text, pos, match):
    with pytest.raises(ParseError, match=match) as e:
        axe.parse(text)
    assert e.value.position == pos


@pytest.mark.parametrize("rec", FACTS["named"], ids=lambda r: r["call"])
def test_tirxs_own_cuda_layouts_read_print_back_and_apply_as_tirx(rec):
    L = unilayout.parse(rec["tirx"])
    assert L.to_tirx() == rec["tirx"] and L.size == rec["size"]
    t = L.table()
    assert t.tolist() == [[d[a] for a in L.axes] for d in rec["apply"]]


def test_an_integer_past_int64_is_a_parse_error():
    # fuzz (issue 30): a 5,000-digit stride was Python's digit-limit ValueError
    import pytest

    from unilayout import ParseError, axe

    with pytest.raises(ParseError, match="past int64"):
        axe.parse("S[(8,2):(" + "1" * 5000 + "@laneid,1@warpid)]")
