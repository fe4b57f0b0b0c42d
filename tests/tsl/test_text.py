"""The #tsl.tsl text: seed examples, every malformed input a ParseError at its position, round trips, fuzz."""

import random
import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unilayout import LayoutError, ParseError
from unilayout.tsl import Stride, TiledStride, TiledStridedLayout, parse


@pytest.mark.parametrize(
    "text",
    [
        "#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5>",
        "#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1)>",
        "#tsl.tsl<[?, 4] -> (32, 4), [?, 4] -> (?, 1)>",
        "#tsl.tsl<[16, 4] -> (32, 4), [16, 4] -> (512, 1)>",
        "#tsl.tsl<[4] -> (0), offset: ?>",
        "#tsl.tsl<[4] -> (-3), offset: -2>",
    ],
)
def test_seed_and_reference_texts_print_back_identically(text):
    assert str(parse(text)) == text


def test_offset_zero_is_omitted_and_whitespace_is_free():
    assert str(parse("#tsl.tsl<[2,4]->(32,4),offset:0>")) == "#tsl.tsl<[2, 4] -> (32, 4)>"
    assert parse(" [ 2 , 4 ] -> ( 32 , 4 ) , offset : 5 ") == parse("#tsl.tsl<[2, 4] -> (32, 4), offset: 5>")
    assert parse("#tsl.tsl<[2, 4]\n  -> (32, 4)>").shape == (8,)


PREFIX = "#tsl.tsl<"


@pytest.mark.parametrize(
    "body, message, position",
    [
        ("[a, b] -> (8, 1), [16, 4] -> (256, 64), offset: 5>", "expected an integer or '?'", 10),
        ("8, 8] -> (8, 1), [16, 4] -> (256, 64), offset: 5>", "expected '['", 9),
        ("[8, 8] -> 8, 1), [16, 4] -> (256, 64), offset: 5>", "expected '('", 19),
        ("[8, 8] :) (8, 1), [16, 4] -> (256, 64), offset: 5>", "expected '->'", 16),
        ("[8, 8] -> (64, 8, 1), [16, 4] -> (256, 64), offset: 5>", "dim 0 has 2 bounds but 3 steps", 27),
        ("[8, 8] -> (8, 1), [16, 4] -> (256, 64), offset] 5>", "expected ':' after 'offset'", 55),
        ("[2 4] -> (32 4)>", "expected ',' or ']'", 12),
        ("[0, 4] -> (0, 1)>", "bound must be >= 1", 10),
        ("[4, ?] -> (4, 1)>", "only the outermost bound may be '?'", 13),
        ("[2, 4] -> (32, 4)", "expected '>'", 26),
        ("[2, 4] -> (32)>", "dim 0 has 2 bounds but 1 steps", 22),
        ("[2, -4] -> (32, 4)>", "bound must be >= 1", 13),
        ("[2.5] -> (1)>", "expected ',' or ']'", 11),
        ("[2, 4 -> (32, 4)>", "expected ',' or ']'", 15),
        ("[2] -> (1)> trailing", "unexpected text after the end, found 'trailing'", 21),
        (">", "expected '['", 9),
        ("[] -> ()>", "expected an integer or '?'", 10),
        ("[2] -> (1), offset: x>", "expected an integer or '?'", 29),
        ("[2] -> (1), [3] -> (1)x", "expected '>'", 31),
        ("[99999999999999999999] -> (1)>", "is out of range", 10),
        ("[2] -> (- 1)>", "expected an integer or '?'", 18),
    ],
)
def test_malformed_text_gives_parse_error_with_position(body, message, position):
    text = PREFIX + body
    with pytest.raises(ParseError, match=re.escape(message)) as info:
        parse(text)
    assert info.value.position == position
    assert info.value.text == text


def test_non_string_input_is_a_layout_error():
    with pytest.raises(LayoutError, match="expected TSL text"):
        parse(None)
    with pytest.raises(ParseError, match="expected '#tsl.tsl<'"):
        parse("#ttg.linear<{}>")


def _tsls():
    value = st.one_of(st.none(), st.integers(-50, 50))
    bound = st.one_of(st.integers(1, 9))
    def dim(n):
        return st.tuples(st.one_of(st.none(), bound), st.lists(bound, min_size=n - 1, max_size=n - 1), st.lists(value, min_size=n, max_size=n)).map(
            lambda t: TiledStride([Stride(b, s) for b, s in zip([t[0], *t[1]], t[2])])
        )
    return st.tuples(st.lists(st.integers(1, 3).flatmap(dim), min_size=1, max_size=3), value).map(
        lambda t: TiledStridedLayout(t[0], t[1])
    )


@settings(max_examples=200, deadline=None)
@given(_tsls())
def test_print_parse_round_trip(t):
    text = str(t)
    assert parse(text) == t
    assert str(parse(text)) == text
    assert parse(text[len(PREFIX) : -1]) == t


SEEDS = [
    "#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5>",
    "#tsl.tsl<[?, 4] -> (32, 4), [?, 4] -> (?, 1)>",
    "#tsl.tsl<[8] -> (1), [4, 2, 2] -> (-8, 0, 3), offset: ?>",
]
_ALPHABET = list("[](),->:?# 0123456789-") + ["offset", "#tsl.tsl<", "->", ">"]


def test_fuzzed_texts_give_a_layout_or_a_parse_error():
    rng = random.Random(7)
    start = time.perf_counter()
    ok = 0
    for i in range(3000):
        chars = list(SEEDS[i % len(SEEDS)])
        for _ in range(rng.randint(1, 4)):
            pos = rng.randrange(len(chars) + 1)
            kind = rng.randrange(4)
            if kind == 0 and chars:
                del chars[min(pos, len(chars) - 1)]
            elif kind == 1:
                chars.insert(pos, rng.choice(_ALPHABET))
            elif kind == 2 and chars:
                chars[min(pos, len(chars) - 1)] = rng.choice(_ALPHABET)
            else:
                chars = chars[:pos]
        text = "".join(chars)
        try:
            t = parse(text)
        except ParseError as e:
            assert 0 <= e.position <= len(text)
            str(e)
        else:
            ok += 1
            assert isinstance(t, TiledStridedLayout) and parse(str(t)) == t
    assert ok > 50
    assert time.perf_counter() - start < 30


@settings(max_examples=200, deadline=None)
@given(_tsls())
def test_every_tsl_round_trips_through_both_parsers(t):
    import unilayout

    assert parse(str(t)) == t and unilayout.parse(str(t)) == t and TiledStridedLayout.parse(str(t)) == t
