"""#ttg.linear<{...}> parse and print."""

import random
import re

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
        ("#ttg.linear<{register = [[1\u00b2]]}>", "expected ',' or ']'", 27),  # not an ASCII digit
    ],
)
def test_parse_errors_have_positions(text, message, position):
    with pytest.raises(ParseError, match=message) as info:
        parse(text)
    assert info.value.position == position
    assert "^" in str(info.value)


def test_to_attr_rejects_what_the_attribute_cannot_carry():
    with pytest.raises(LayoutError, match="in-dims"):
        to_attr(LinearLayout({"slot": [[1]]}, ["dim0"]))
    L = parse("{register = [[1]], lane = [], warp = [], block = []}")
    big = LinearLayout(L.bases, {"dim0": 4}, require_surjective=False)
    with pytest.raises(LayoutError, match="cannot carry"):
        to_attr(big)
    with pytest.raises(LayoutError, match="out-dims dim0"):
        to_attr(L.transpose_outs(["dim0"]).reshape_outs([("x", 2)]))


def test_mutated_text_gives_a_layout_or_a_parse_error():
    rng = random.Random(5)
    alphabet = "[]{}<>=,-0123456789 abcdlnegrstwk#."
    for _ in range(3000):
        t = list(SEED_TEXT)
        for _ in range(rng.randint(1, 3)):
            k = rng.randrange(len(t) + 1)
            r = rng.random()
            if r < 0.4 and t:
                del t[min(k, len(t) - 1)]
            elif r < 0.8:
                t.insert(k, rng.choice(alphabet))
            elif t:
                t[min(k, len(t) - 1)] = rng.choice(alphabet)
        text = "".join(t)
        try:
            L = parse(text)
        except ParseError as e:
            assert 0 <= e.position <= len(text)
            continue
        assert isinstance(L, LinearLayout)


def test_constructor_fuzz_raises_only_layout_error():
    rng = random.Random(6)
    junk = [None, 1.5, "x", b"y", -1, 3, True, [], [[]], [[1, 2]], {"a": 1}, (1,), [[1], [2.0]], object()]
    for _ in range(2000):
        bases = rng.choice([junk[rng.randrange(len(junk))], {"i": rng.choice(junk)},
                            [("i", rng.choice(junk))], {"i": [[rng.randint(-2, 9)]]}])
        outs = rng.choice([junk[rng.randrange(len(junk))], ["o"], {"o": rng.choice([1, 2, 3, 8, 0, -4, 2.0])},
                           [("o", 4)], [("o", 4), "p"]])
        try:
            LinearLayout(bases, outs, require_surjective=rng.random() < 0.5)
        except LayoutError:
            pass


def test_printed_attributes_match_tritons_own_printer():
    from unilayout.linear import encodings as E

    rng = random.Random(7)
    layouts = set()
    while len(layouts) < 40:
        shape = [1 << rng.randint(3, 7), 1 << rng.randint(3, 7)]
        order = rng.choice([[0, 1], [1, 0]])
        parts = [0, 0]
        for _ in range(5):
            parts[rng.randrange(2)] += 1
        tpw = [1 << parts[0], 1 << parts[1]]
        spt = [1 << rng.randint(0, 2), 1 << rng.randint(0, 2)]
        wpc = rng.choice([[4, 1], [2, 2], [1, 4]])
        layouts.add((E.blocked(shape, spt, tpw, wpc, order), tuple(shape)))
        layouts.add((E.nvidia_mma(shape, [2, 0], wpc, [16, 8]), tuple(shape)))
    tensors = [(to_attr(L), list(shape)) for L, shape in layouts]
    printed = H.triton_mlir_print(4, 32, tensors)
    assert set(printed) == {t for t, _ in tensors}
    for text in printed:
        assert to_attr(parse(text)) == text


# --- str(L) is Triton's toString, and it reads back ---------------------------------------------------
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import unilayout  # noqa: E402

_names = st.one_of(st.sampled_from(["register", "lane", "warp", "block", "dim0", "where", "is", "size", "o"]),
                   st.text(max_size=6))


@st.composite
def _layouts(draw):
    outs = draw(st.lists(st.tuples(_names, st.integers(0, 4)), max_size=3, unique_by=lambda t: t[0]))
    ins = draw(st.lists(_names, max_size=3, unique=True))
    bases = {n: [[draw(st.integers(0, (1 << k) - 1)) for _, k in outs]
                 for _ in range(draw(st.integers(0, 3)))] for n in ins}
    return LinearLayout(bases, {n: 1 << k for n, k in outs}, require_surjective=False)


@settings(max_examples=300, deadline=None)
@given(_layouts())
def test_every_linear_layout_round_trips_through_its_tostring(L):
    text = str(L)
    assert parse(text) == L
    assert unilayout.parse(text) == L


@pytest.mark.parametrize("L", [
    LinearLayout.empty(),
    LinearLayout({}, {"dim0": 4}, require_surjective=False),
    LinearLayout({"register": []}, ["dim0"]),
    LinearLayout({"register": [[0, 0], [0, 0]], "lane": [[1, 0]]}, {"dim0": 2, "dim1": 1}),
    LinearLayout({"r": [[2]]}, {"o": 8}, require_surjective=False),
    LinearLayout({"a b": [[1, 0]], 'q"\\': [[0, 1]]}, {"x y": 2, "": 2}),
    LinearLayout({"r": [[]]}, [], require_surjective=False),
])
def test_named_linear_layouts_round_trip_through_their_tostring(L):
    assert parse(str(L)) == L and unilayout.parse(str(L)) == L


def test_tostring_text_is_tritons_for_identifier_names():
    L = LinearLayout({"register": [[1, 0], [0, 1]], "lane": []}, ["dim0", "dim1"])
    assert str(L) == ("\n - register=1 -> (1, 0)\n   register=2 -> (0, 1)\n - lane is a size 1 dimension\n"
                      "where out dims are: [dim0 (size 2), dim1 (size 2)]")


@pytest.mark.parametrize("text, message, position", [
    (" - r=2 -> (1)\nwhere out dims are: [o (size 2)]", "expected '1'", 5),
    (" - r=1 -> (1)\nwhere out dims are: [o (size 3)]", "not a power of two", 43),
    (" - r=1 -> (1)", "expected 'where out dims are:'", 13),
    (' - "r=1 -> (1)', "to close the name", 3),
    ("(empty layout with out-dims [o (size 2)]", "expected ')'", 40),
])
def test_tostring_errors_have_positions(text, message, position):
    with pytest.raises(ParseError, match=re.escape(message)) as info:
        parse(text)
    assert info.value.position == position


def test_shared_layouts_print_as_shared_linear_and_read_back():
    import random

    from unilayout.linear import encodings as E
    from unilayout.linear import parse

    rng = random.Random(2)
    for _ in range(50):
        shape = [1 << rng.randint(0, 4) for _ in range(rng.randint(1, 3))]
        if shape == [1] * len(shape):
            shape[0] = 2
        order = list(range(len(shape)))
        rng.shuffle(order)
        L = E.swizzled_shared(shape, 1 << rng.randint(0, 2), 1, 1 << rng.randint(0, 2), order)
        text = L.to_attr()
        assert text.startswith("#ttg.shared_linear<{offset = ") and parse(text) == L
        assert str(E.parse(text)) == text
    with pytest.raises(LayoutError, match="sizes"):
        LinearLayout({"offset": [[1]]}, {"dim0": 8}, require_surjective=False).to_attr()


@pytest.mark.parametrize("text, at", [
    ("#ttg.blocked<{sizePerThread = " + "[" * 5000, None),
    ("#ttg.blocked<{sizePerThread = " + "[" * 5000 + "]" * 5000 + "}>", None),
    ("#ttg.blocked<{sizePerThread = " + "[{a = " * 3000, None),
    ("#ttg.slice<{dim = 0, parent = " * 3000, None),
])
def test_deep_nesting_is_a_parse_error_at_the_level_past_max_depth(text, at):
    from unilayout.linear.text.attr import MAX_DEPTH

    with pytest.raises(ParseError, match=f"nest more than MAX_DEPTH = {MAX_DEPTH} deep") as e:
        unilayout.parse(text)
    # the error points at the opening past MAX_DEPTH levels: MAX_DEPTH openings come before it
    before = text[:e.value.position]
    assert before.count("[") + before.count("{") + before.count("#") - 1 >= MAX_DEPTH
    assert text[e.value.position] in "[{#"


def test_nesting_up_to_max_depth_reads():
    from unilayout.linear.text.attr import MAX_DEPTH

    inner = "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>"
    text = inner
    for _ in range(MAX_DEPTH):  # each slice's parent is one level deeper: the blocked is MAX_DEPTH down
        text = f"#ttg.slice<{{dim = 0, parent = {text}}}>"
    from unilayout._text import Scanner
    from unilayout.linear.text.attr import _attr
    from unilayout.linear.text.fast import _fast_parse

    read = _attr(Scanner(text), None)
    assert type(read).__name__ == "Slice" and _fast_parse(text, None) == read
    with pytest.raises(ParseError, match="MAX_DEPTH"):
        _attr(Scanner(f"#ttg.slice<{{dim = 0, parent = {text}}}>"), None)


def test_trailing_blanks_read_in_linear_time():
    import time

    for n in (20000, 200000):
        t = time.perf_counter()
        with pytest.raises(ParseError, match="expected '=' after the field name") as e:
            unilayout.parse("#ttg.blocked<{sizePerThread" + " " * n)
        assert e.value.position == 27 + n and time.perf_counter() - t < 1
