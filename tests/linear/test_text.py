"""#ttg.linear<{...}> parse and print."""

import random

import linear_helpers as H
import pytest

from unilayout import LayoutError, ParseError
from unilayout.linear import LinearLayout, parse, to_attr

SEED_TEXT = ("#ttg.linear<{register = [[0, 1], [8, 0], [0, 8], [64, 0]], "
             "lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []}>")


def test_parse_and_print_round_trip():
    L = parse(SEED_TEXT)
    assert L.in_dim_names == ["register", "lane", "warp", "block"]
    assert L.out_dims == [("dim0", 128), ("dim1", 16)]
    assert L.get_basis("register", 3) == (64, 0)
    assert to_attr(L) == SEED_TEXT == L.to_attr()


def test_parse_accepts_whitespace_and_bare_forms():
    L = parse("  #ttg.linear< {\n register=[[1]],lane=[ [2] ], warp = [], block = [] } >  ")
    assert L.bases == [("register", [[1]]), ("lane", [[2]]), ("warp", []), ("block", [])]
    assert parse("{register = [[1]], lane = [], warp = [], block = []}") == parse(
        "<{block = [], warp = [], lane = [], register = [[1]]}>")


def test_random_round_trips():
    rng = random.Random(12)
    n = 0
    while n < 50:
        L = H.random_layout(rng, in_names=["register", "lane", "warp", "block"], surjective=True)
        L = LinearLayout(L.bases, L.out_dim_names)  # sizes as Triton infers them
        assert parse(to_attr(L)) == L
        n += 1


@pytest.mark.parametrize(
    "text, message, position",
    [
        ("#ttg.linear<{register = [[1]], lane = [], warp = []}>", "missing in-dims \\['block'\\]", 51),
        ("#ttg.linear<{register = [[1]], lane = [], warp = [], block = [], foo = []}>", "unknown key 'foo'", 65),
        ("#ttg.linear<{register = [[1]], register = [], lane = [], warp = [], block = []}>", "appears twice", 31),
        ("#ttg.linear<{register = [[1], [2, 0]], lane = [], warp = [], block = []}>", "has 2 entries", 30),
        ("#ttg.linear<{register = [[-1]], lane = [], warp = [], block = []}>", "negative", 26),
        ("#ttg.linear<{register = [[x]], lane = [], warp = [], block = []}>", "expected an integer", 26),
        ("#ttg.linear<{register = [], lane = [], warp = [], block = []}>", "at least one tensor dim", 12),
        ("#ttg.linear<{register = [[2], [2]], lane = [], warp = [], block = []}>", "not surjective", 12),
        ("#ttg.linear<{register = [[1]], lane = [], warp = [], block = []}", "expected '>'", 64),
        ("#ttg.linear<{register = [[1]], lane = [], warp = [], block = []}> x", "unexpected text", 66),
        ("#ttg.linear<{register [[1]]}>", "expected '='", 22),
        ("", "expected '{'", 0),
    ],
)
def test_parse_errors_have_positions(text, message, position):
    with pytest.raises(ParseError, match=message) as info:
        parse(text)
    assert info.value.position == position
    assert "^" in str(info.value)


def test_to_attr_rejects_what_the_attribute_cannot_carry():
    with pytest.raises(LayoutError, match="in-dims"):
        to_attr(LinearLayout({"offset": [[1]]}, ["dim0"]))
    L = parse("{register = [[1]], lane = [], warp = [], block = []}")
    big = LinearLayout(L.bases, {"dim0": 4}, require_surjective=False)
    with pytest.raises(LayoutError, match="cannot carry"):
        to_attr(big)
    with pytest.raises(LayoutError, match="out-dims dim0"):
        to_attr(L.transpose_outs(["dim0"]).reshape_outs([("x", 2)]))
