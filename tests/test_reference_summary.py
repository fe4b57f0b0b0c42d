"""tests/conftest.py: a run without the reference systems ends with one line saying what skipped and how to install."""

import pathlib
import shutil
import subprocess
import sys


def test_skipped_differential_tests_are_named_with_the_install_line(tmp_path):
    shutil.copy(pathlib.Path(__file__).with_name("conftest.py"), tmp_path / "conftest.py")
    (tmp_path / "test_refs.py").write_text(
        "import pytest\n"
        "def test_a():\n    pytest.importorskip('pycute_not_here')\n"
        "def test_b():\n    pytest.skip('triton is not installed')\n"
        "def test_c():\n    pytest.skip('an unrelated reason')\n")
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
                       capture_output=True, text=True, timeout=120, cwd=tmp_path)
    line = next(x for x in r.stdout.splitlines() if x.startswith("differential tests skipped"))
    assert "skipped: 2 " in line and "pycute, triton" in line and "nvidia-cutlass==4.2.0.0" in line
    assert "triton==3.9.0" in line
