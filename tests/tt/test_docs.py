"""docs/tt.md: every example in it runs and gives what it shows."""

import doctest
import pathlib

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "tt.md"


def test_docs_tt_md_examples_pass():
    result = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 5 and result.failed == 0
