"""The MLIR text form: printing identical to mlir-opt, parsing, errors with positions, fuzzing."""

import importlib.util
import pathlib
import random
import re
import time

import pytest
from hypothesis import given, settings

import unilayout
from unilayout import LayoutError, ParseError
from unilayout.affine import AffineMap, Binary, Constant, Dim, Symbol, parse, parse_expr
from unilayout.affine.expr import MAX_DEPTH

_spec = importlib.util.spec_from_file_location("affine_strategies", pathlib.Path(__file__).with_name("strategies.py"))
strategies = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(strategies)

# reference/tsl-and-affine.md B4 (inputs and what mlir-opt prints).
PRINTED = [
    ("d0*2 + (d1 floordiv 8)*2 + d2 floordiv 8", "d0 * 2 + (d1 floordiv 8) * 2 + d2 floordiv 8"),
    ("2 * d0 + 1", "d0 * 2 + 1"),
    ("d0 + -1", "d0 - 1"),
    ("d0 - 2 * d1", "d0 - d1 * 2"),
    ("d1 - d0", "d1 - d0"),
    ("-d0 + d1", "-d0 + d1"),
    ("d0 - (d1 + d2)", "d0 - (d1 + d2)"),
    ("d0 + (d1 + d2)", "d0 + d1 + d2"),
    ("-d0 floordiv 2", "(-d0) floordiv 2"),
    ("(d0 mod 16) floordiv 8 * 32", "((d0 mod 16) floordiv 8) * 32"),
    ("(d0 * 4) floordiv 2", "d0 * 2"),
    ("(d0 * 8 + d1) floordiv 8", "d0 + d1 floordiv 8"),
    ("(d0 * 8 + d1) mod 8", "d1 mod 8"),
]


@pytest.mark.parametrize("text, printed", PRINTED)
def test_prints_like_mlir_opt(text, printed):
    m = parse(f"(d0, d1, d2) -> ({text})")
    assert str(m) == f"(d0, d1, d2) -> ({printed})"
    assert str(parse(str(m))) == str(m)


# Every affine map of seeds/tt-mlir-tensor-layout.txt.
SEED_MAPS = [
    "(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)",
    "(d0, d1) -> (d0, d1)",
    "(d0, d1, d2) -> (d0 * 96 + d1, d2)",
    "(d0, d1, d2) -> (d0 * 96 + d1, d1, d2)",
    "(d0, d1, d2, d3, d4, d5, d6) -> (d0 * 2688 + d1 * 896 + d2 * 448 + d3 * 224 + d4 * 32 + d5, d4, d5, d6)",
    "(d0, d1, d2) -> (d0 * 64 + d1, d2)",
    "(d0, d1, d2) -> (d0 * 8 + d1, d2)",
    "(d0, d1, d2) -> (d0 * 32 + d1, d2)",
    "(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3)",
]


@pytest.mark.parametrize("text", SEED_MAPS)
def test_seed_maps_print_back_identically(text):
    assert str(parse(text)) == text
    assert str(parse(f"affine_map<{text}>")) == text


def test_multiline_seed_map_parses():
    text = """(d0, d1, d2, d3, d4, d5, d6)
      -> (d0 * 2688 + d1 * 896 + d2 * 448 + d3 * 224 + d4 * 32 + d5, d4, d5, d6)"""
    assert str(parse(text)) == SEED_MAPS[4]


def test_named_identifiers_symbols_and_empty_lists():
    assert str(parse("(i, j)[n, m] -> (i * n + j, m)")) == "(d0, d1)[s0, s1] -> (d0 * s0 + d1, s1)"
    assert str(parse("() -> (0)")) == "() -> (0)"
    assert str(parse("()[s0] -> (s0)")) == "()[s0] -> (s0)"
    assert str(parse("(d0) -> ()")) == "(d0) -> ()"
    assert str(parse("(d0)[] -> (d0)")) == "(d0) -> (d0)"
    assert parse("(x) -> (x)") == parse("(d0) -> (d0)")


@pytest.mark.parametrize(
    "text, message, position",
    [
        ("(d0) -> (d1)", "undeclared identifier 'd1'", 9),
        ("(d0, d0) -> (d0)", "redefinition of identifier 'd0'", 5),
        ("(d0) -> (d0 * d0)", "one factor of '*' must be free of dims", 12),
        ("(d0, d1) -> (d0 floordiv d1)", "right operand of floordiv", 16),
        ("(d0) -> (d0 mod 0)", "mod by 0", 12),
        ("(d0) -> (d0 ceildiv -2)", "ceildiv by -2", 12),
        ("(d0) (d0)", "expected '->'", 5),
        ("(d0) -> d0", "expected '(' to open the results", 8),
        ("(d0) -> (d0", "expected ',' or ')'", 11),
        ("(d0) -> (d0))", "unexpected text after the end, found ')'", 12),
        ("(d0) -> ((d0)", "expected ',' or ')'", 13),
        ("(d0) -> (d0 +)", "expected an affine operand", 13),
        ("(d0) -> (floordiv 2)", "use of undeclared identifier 'floordiv'", 9),
        ("affine_map<(d0) -> (d0)", "expected '>'", 23),
        ("affine_map(d0) -> (d0)", "expected '<'", 10),
        ("(d0) -> (d0 # 2)", "expected ',' or ')', found '#'", 12),
        ("(d0) -> (99999999999999999999)", "is out of range", 9),
        ("(d0) -> (2d0)", "expected an integer, found '2d0'", 9),
        ("(d0,) -> (d0)", "expected an identifier", 4),
        ("", "expected '('", 0),
    ],
)
def test_bad_text_raises_parse_error_at_position(text, message, position):
    with pytest.raises(ParseError, match=re.escape(message)) as info:
        parse(text)
    assert info.value.position == position
    assert info.value.text == text


def test_deep_nesting_is_a_parse_error_not_a_recursion_error():
    for text in ["(d0) -> (" + "(" * 5000 + "d0" + ")" * 5000 + ")", "(d0) -> (" + "-" * 5000 + "d0)"]:
        with pytest.raises(ParseError, match="nested deeper"):
            parse(text)
    ok = "(d0) -> (" + "(" * (MAX_DEPTH - 1) + "d0" + ")" * (MAX_DEPTH - 1) + ")"
    assert str(parse(ok)) == "(d0) -> (d0)"


def test_long_sums_beyond_the_depth_limit_are_parse_errors():
    dims = ", ".join(f"d{i}" for i in range(MAX_DEPTH + 10))
    text = f"({dims}) -> ({' + '.join(f'd{i}' for i in range(MAX_DEPTH + 10))})"
    with pytest.raises(ParseError, match="nested deeper"):
        parse(text)


def test_parse_expr_accepts_implicit_d_and_s_names():
    assert str(parse_expr("s1 + d3 * 2")) == "d3 * 2 + s1"
    with pytest.raises(ParseError, match="undeclared identifier 'x'"):
        parse_expr("x + 1")
    with pytest.raises(LayoutError, match="expected affine map text"):
        parse(42)


@settings(max_examples=150, deadline=None)
@given(strategies.maps(num_dims=3, num_symbols=2))
def test_print_parse_round_trip(m):
    # Any map prints to text that parses to the same function.
    again = parse(str(m))
    assert (again.num_dims, again.num_symbols) == (m.num_dims, m.num_symbols)
    for p in [(-5, 0, 7, 1, 3), (3, 11, -2, 4, 1)]:
        assert again(*p) == m(*p)
    # Results are folded on construction, so every map is a fixpoint of print-then-parse.
    assert again == m and str(again) == str(m)


@settings(max_examples=200, deadline=None)
@given(strategies.raw_maps(num_dims=3, num_symbols=2))
def test_maps_of_raw_trees_are_folded_so_they_round_trip(m):
    # raw Binary trees (right-nested sums, 2 + 3, x * 1, ...) are folded by AffineMap: str(m) parses back to m
    assert parse(str(m)) == m and unilayout.parse(str(m)) == m
    assert all(r.canonical for r in m.results)


def test_right_nested_sum_is_folded_on_construction_so_it_round_trips():
    # MLIR keeps d0 + (d0 + d1) and prints it as d0 + d0 + d1, which re-parses as d0 * 2 + d1 (another tree);
    # unilayout leans sums left while building, so the map is d0 * 2 + d1 from the start and prints as MLIR
    # prints the re-parsed map.
    m = parse("(d0, d1) -> (d0 + (d0 + d1))")
    assert str(m) == "(d0, d1) -> (d0 * 2 + d1)" and parse(str(m)) == m
    m = AffineMap(2, 0, [Binary("+", Dim(1), Binary("+", Dim(1), Constant(1)))])
    assert str(m) == "(d0, d1) -> (d1 * 2 + 1)" and parse(str(m)) == m


FUZZ_SEEDS = SEED_MAPS + [
    "(d0, d1)[s0] -> (d0 floordiv 8, d1 mod 8 + s0)",
    "affine_map<(d0) -> ((d0 floordiv 4) * 32 + (d0 mod 4) * 4 - 1, d0 ceildiv s0)>",
    "(i, j)[n] -> (-i + j * n, (i - j) mod 3)",
]
_ALPHABET = list("()[]<>,+-*?# 0123456789ds") + ["floordiv", "ceildiv", "mod", "->", "affine_map<", "d0", "s0"]


def _mutate(rng, text):
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(4)
        pos = rng.randrange(len(chars) + 1)
        if kind == 0 and chars:
            del chars[min(pos, len(chars) - 1)]
        elif kind == 1:
            chars.insert(pos, rng.choice(_ALPHABET))
        elif kind == 2 and chars:
            chars[min(pos, len(chars) - 1)] = rng.choice(_ALPHABET)
        else:
            chars = chars[:pos]
    return "".join(chars)


def test_fuzzed_map_texts_give_a_map_or_a_parse_error():
    rng = random.Random(4)
    start = time.perf_counter()
    parsed = 0
    for i in range(3000):
        text = _mutate(rng, FUZZ_SEEDS[i % len(FUZZ_SEEDS)])
        t0 = time.perf_counter()
        try:
            m = parse(text)
        except ParseError as e:
            assert 0 <= e.position <= len(text)
            str(e)
        else:
            parsed += 1
            assert isinstance(m, AffineMap)
            assert str(parse(str(m))) == str(m)
        assert time.perf_counter() - t0 < 1.0, text
    assert parsed > 50
    assert time.perf_counter() - start < 30


@pytest.mark.parametrize(
    "text, printed",
    [
        ("(d0)[mod] -> (d0 mod mod)", "(d0)[s0] -> (d0 mod s0)"),
        ("(mod, ceildiv) -> (ceildiv ceildiv 4, -mod, mod * 2)", "(d0, d1) -> (d1 ceildiv 4, -d0, d0 * 2)"),
        ("(floordiv)[mod] -> (floordiv floordiv mod mod 3)", "(d0)[s0] -> ((d0 floordiv s0) mod 3)"),
        ("(i32, x.y$z) -> (i32 + x.y$z)", "(d0, d1) -> (d0 + d1)"),
    ],
)
def test_keywords_are_names_where_an_operand_is_expected_as_in_mlir(text, printed):
    m = parse(text)
    assert str(m) == printed
    assert parse(str(m)) == m


def test_an_undeclared_keyword_in_operand_position_is_an_undeclared_identifier():
    with pytest.raises(ParseError, match="use of undeclared identifier 'mod'") as info:
        parse("(d0) -> (d0 + mod)")
    assert info.value.position == 14
    with pytest.raises(ParseError, match="expected an affine operand") as info:
        parse("(d0)[mod] -> (d0 mod)")
    assert info.value.position == 20


def test_the_issue_map_with_symbols_named_mod_and_floordiv():
    m = parse("(d0, d1)[mod, floordiv] -> (mod floordiv 2 - d0)")
    assert m == AffineMap(2, 2, [Symbol(0).floordiv(2) - Dim(0)])
    assert parse(str(m)) == m


# --- str(m) reads back through affine.parse and unilayout.parse, whatever names the text declared ------
from hypothesis import strategies as st  # noqa: E402

_ids = st.one_of(st.sampled_from(["mod", "floordiv", "ceildiv", "affine_map", "d0", "s0", "i32", "x.y", "a$b"]),
                 st.from_regex(r"[A-Za-z_][A-Za-z0-9_$.]{0,5}", fullmatch=True))


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 3).flatmap(lambda d: st.integers(0, 2).flatmap(lambda s: strategies.maps(d, s))))
def test_every_parsed_map_round_trips_through_both_parsers(raw):
    # A raw tree that MLIR would fold differently (d0 + (d0 + d1), printed d0 + d0 + d1 as mlir-opt does) reads
    # back as the same function; from then on the text is a fixpoint: equal values through both parsers.
    m = parse(str(raw))
    assert parse(str(m)) == m
    assert unilayout.parse(str(m)) == m


@settings(max_examples=200, deadline=None)
@given(strategies.maps(2, 2), st.lists(_ids, min_size=4, max_size=4, unique=True))
def test_maps_written_with_any_mlir_names_parse_to_the_same_map(raw, names):
    m = parse(str(raw))
    text = str(m)
    renamed = text.split(" -> ", 1)
    head = f"({names[0]}, {names[1]})[{names[2]}, {names[3]}]"
    body = renamed[1]
    rename = dict(zip(["d0", "d1", "s0", "s1"], names))
    body = re.sub(r"\b[ds][01]\b", lambda hit: rename[hit.group()], body)
    assert parse(f"{head} -> {body}") == m


@pytest.mark.parametrize("m", [AffineMap(0, 0, []), AffineMap(0, 1, [Symbol(0)]), AffineMap(3, 0, []),
                               AffineMap(1, 0, [Dim(0) * -1 - 7])])
def test_named_maps_round_trip(m):
    assert parse(str(m)) == m and unilayout.parse(str(m)) == m
