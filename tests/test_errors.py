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
