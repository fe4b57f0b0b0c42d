from unilayout import LayoutError, NotRepresentableError, ParseError


def test_parse_error_shows_caret_under_position():
    e = ParseError("expected ':'", "(2,3)x(1,2)", 5)
    assert e.position == 5 and e.text == "(2,3)x(1,2)"
    lines = str(e).splitlines()
    assert lines[1] == "  (2,3)x(1,2)"
    assert lines[2].index("^") == 2 + 5


def test_error_hierarchy():
    assert issubclass(ParseError, LayoutError)
    assert issubclass(NotRepresentableError, LayoutError)
    assert issubclass(LayoutError, ValueError)


def test_parse_error_position_is_clamped_to_text():
    assert ParseError("x", "abc", 99).position == 3


def test_parse_error_on_a_long_line_shows_a_window_with_the_caret_under_the_position():
    text = "a" * 1000 + "X" + "b" * 1000
    lines = str(ParseError("bad", text, 1000)).splitlines()
    assert lines[0] == "bad at position 1000"
    assert lines[1].startswith("  ...") and lines[1].endswith("...") and len(lines[1]) < 260
    assert lines[1][lines[2].index("^")] == "X"
    short = str(ParseError("bad", "ab\ncdef", 5)).splitlines()
    assert short[1:] == ["  cdef", "    ^"]  # position 5 is the e
