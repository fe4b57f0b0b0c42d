"""Print the corpus' agreement rate per producer at the end of a run that checked it."""

import sys


def pytest_terminal_summary(terminalreporter):
    mod = sys.modules.get("tests.corpus.test_corpus") or sys.modules.get("test_corpus")
    text = mod.corpus_summary() if mod is not None and hasattr(mod, "corpus_summary") else ""
    if text:
        terminalreporter.write_sep("-", "producers' corpus")
        terminalreporter.write_line(text)
