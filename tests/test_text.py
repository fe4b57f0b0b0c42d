"""The shared text scanner: positions, each error kind, integers, identifiers."""

import pytest

from unilayout._text import Scanner, check_text
from unilayout.errors import LayoutError, ParseError


def _error(fn):
    with pytest.raises(ParseError) as info:
        fn()
    return info.value


def test_skip_counts_leading_whitespace_of_every_kind():
    s = Scanner(" \t\r\n x")
    assert s.skip() == 5 and s.pos == 5
    assert s.peek() == "x"


def test_peek_at_the_end_is_empty_and_end_ignores_trailing_space():
    s = Scanner("ab  ", 2)
    assert s.peek() == "" and s.end()
    assert not Scanner("a").end()


def test_at_does_not_consume_and_accept_does():
    s = Scanner("  ->x")
    assert s.at("->") and s.pos == 2
    assert not s.accept("=>") and s.pos == 2
    assert s.accept("->") and s.pos == 4


def test_keyword_needs_a_word_boundary():
    assert not Scanner("offset").keyword("o")
    assert not Scanner("o_o").keyword("o")
    s = Scanner(" o (")
    assert s.keyword("o") and s.pos == 2
    assert Scanner("mod").at_keyword("mod") and not Scanner("mod2").at_keyword("mod")


def test_expect_error_names_what_and_the_found_token_at_its_position():
    e = _error(lambda: Scanner("  foo)").expect("(", "'(' to open"))
    assert e.message == "expected '(' to open, found 'foo'" and e.position == 2
    e = _error(lambda: Scanner("ab", 2).expect(">"))
    assert e.message == "expected '>', found end of text" and e.position == 2
    e = _error(lambda: Scanner("  # ").expect("<"))
    assert e.message == "expected '<', found '#'" and e.position == 2


def test_expect_returns_where_the_literal_started():
    s = Scanner("   ->")
    assert s.expect("->") == 3 and s.pos == 5


@pytest.mark.parametrize("text, signs, value, pos", [
    ("0", "", 0, 1),
    ("  42,", "", 42, 4),
    ("007", "", 7, 3),
    ("-3", "-", -3, 2),
    ("+3", "+-", 3, 2),
    ("18446744073709551615", "", (1 << 64) - 1, 20),
    ("-18446744073709551615", "-", -(1 << 64) + 1, 21),
    ("0" * 50 + "9", "", 9, 51),
])
def test_integer_reads_ascii_digits_after_an_allowed_sign(text, signs, value, pos):
    s = Scanner(text)
    assert s.integer(signs=signs) == value and s.pos == pos


@pytest.mark.parametrize("text, signs, position, found", [
    ("", "", 0, "end of text"),
    ("  x", "", 2, "'x'"),
    ("-3", "", 0, "'-'"),          # a sign not asked for is not read
    ("+3", "-", 0, "'+'"),
    ("- 3", "-", 1, "' '"),        # the digits must follow the sign
    ("\u00b2", "", 0, "'\u00b2'"),  # a superscript two is not an ASCII digit
    ("\uff13", "", 0, "'\uff13'"),  # nor is a full-width three
])
def test_integer_errors_point_where_the_digits_should_be(text, signs, position, found):
    e = _error(lambda: Scanner(text).integer(signs=signs))
    assert e.message == f"expected an integer, found {found}"
    assert e.position == position


def test_integer_error_wording_can_name_the_field():
    e = _error(lambda: Scanner("x").integer(what="a chip id"))
    assert e.message == "expected a chip id, found 'x'"


def test_identifier_is_mlirs_bare_identifier():
    assert Scanner(" _a.b$c9 )").identifier() == "_a.b$c9"
    s = Scanner("mod+")
    assert s.identifier() == "mod" and s.pos == 3


@pytest.mark.parametrize("text, found", [("9a", "'9a'"), ("$x", "'$x'"), ("", "end of text"), ("\u00e9t\u00e9", "'\u00e9'")])
def test_identifier_errors(text, found):
    e = _error(lambda: Scanner(text).identifier("a name"))
    assert e.message == f"expected a name, found {found}" and e.position == 0


def test_expect_end_has_one_wording_and_points_at_the_extra_text():
    Scanner("x   ", 1).expect_end()
    e = _error(lambda: Scanner("8:1  extra", 3).expect_end())
    assert e.message == "unexpected text after the end, found 'extra'" and e.position == 5


def test_fail_defaults_to_the_current_position_and_keeps_the_whole_text():
    s = Scanner("line one\nline two", 12)
    e = _error(lambda: s.fail("bad"))
    assert e.position == 12 and e.text == "line one\nline two"
    assert str(e).splitlines()[1:] == ["  line two", "     ^"]
    assert _error(lambda: s.fail("bad", 3)).position == 3


def test_check_text_refuses_non_strings_with_a_layout_error():
    assert check_text("x", "CuTe text") == "x"
    with pytest.raises(LayoutError, match="expected CuTe text \\(str\\), got bytes") as info:
        check_text(b"x", "CuTe text")
    assert not isinstance(info.value, ParseError)


@pytest.mark.parametrize("text, position", [
    ("18446744073709551616", 0),
    ("  -18446744073709551616", 2),
    ("1" * 5000, 0),  # past Python's 4,300-digit limit: still a ParseError, and no int is built
    ("x" * 3 + "9" * 100000, 3),
])
def test_integer_is_bounded_when_read_with_the_error_at_the_number(text, position):
    s = Scanner(text, 3 if text.startswith("x") else 0)
    with pytest.raises(ParseError, match="is out of range") as e:
        s.integer(signs="-")
    assert e.value.position == position
    assert len(str(e.value)) < 600  # the message quotes a window of the text, not all of it


def test_integer_limit_is_per_call():
    assert Scanner("300").integer(limit=300) == 300
    with pytest.raises(ParseError, match=r"^integer 301 is out of range \(at most 300\)"):
        Scanner("301").integer(limit=300)


@pytest.mark.parametrize("text, signs, value", [
    ("0" * 4301 + "4", "", 4),
    ("-" + "0" * 100000 + "17", "-", -17),
    ("0" * 5000, "", 0),
])
def test_integer_leading_zeros_past_pythons_digit_limit_read_as_the_number(text, signs, value):
    s = Scanner(text + ":")
    assert s.integer(signs=signs) == value
    assert s.pos == len(text)
