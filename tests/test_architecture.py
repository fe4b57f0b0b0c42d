"""The house rules of docs/architecture.md that `lint-imports` does not check: lazy imports, sizes, import cost."""

import ast
import pathlib
import subprocess
import sys

import pytest

import unilayout

ROOT = pathlib.Path(unilayout.__file__).parent
MODULES = sorted(ROOT.rglob("*.py"))

#: Modules allowed past MAX_LINES, and why (a data table, or a teaching header with doctested methods).
LONG = {
    "linear/layout.py": (1050, "LinearLayout: Triton's teaching header (LinearLayout.h) and the value's doctested methods; "
                               "its checks are linear/_bases.py, its algebra linear/algebra/"),
    "tt/metal/metal.py": (680, "MetalLayout: one value's API (shapes, collapse, shard, locate, TTNN view); its rules, "
                               "text, shards and v2 form are beside it in tt/metal/"),
    "rosetta/tirx_spellings.py": (700, "generated data, no logic: TIRx's fragment texts as bench/rosetta_tirx.py "
                                       "recorded them from apache-tvm-tirx"),
}
MAX_LINES = 600


def _local_imports(path):
    """``(line, text)`` of every import inside a function body of ``path`` without a ``# lazy:`` comment."""
    src = path.read_text()
    lines = src.splitlines()
    for fn in ast.walk(ast.parse(src)):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(fn):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    statement = lines[node.lineno - 1:node.end_lineno or node.lineno]
                    if not any("# lazy:" in line for line in statement):
                        yield node.lineno, statement[0].strip()


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_function_local_imports_say_why(path):
    bad = list(_local_imports(path))
    assert not bad, "function-local imports without a '# lazy: <reason>' comment: " + "; ".join(
        f"line {n}: {t}" for n, t in bad)


def test_the_lazy_import_check_finds_an_unmarked_import(tmp_path):
    p = tmp_path / "m.py"
    p.write_text("def f():\n    import os\n    from . import x  # lazy: import time\n")
    assert list(_local_imports(p)) == [(2, "import os")]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_is_a_giant(path):
    rel = str(path.relative_to(ROOT))
    n = len(path.read_text().splitlines())
    assert n <= LONG.get(rel, (MAX_LINES, ""))[0], f"{rel} has {n} lines: split it along its seams"


def test_import_unilayout_loads_no_family_and_no_numpy():
    code = "import sys, unilayout; print(sorted(m for m in sys.modules if m.startswith(('unilayout.', 'numpy'))))"
    loaded = eval(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    assert set(loaded) <= {"unilayout.errors", "unilayout._family", "unilayout._families", "unilayout._version"}


def test_a_text_loads_only_the_family_that_claims_it():
    code = ("import sys, unilayout; unilayout.parse('(4,2):(2,1)')\n"
            "print(sorted({m.split('.')[1] for m in sys.modules if m.startswith('unilayout.')}))")
    loaded = eval(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    families = {"linear", "tsl", "tt", "xla", "sharding", "convert", "viz", "facts", "explorer", "cli"}
    assert "cute" in loaded and not families & set(loaded)
