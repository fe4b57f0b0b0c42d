"""unilayout.draw: the kit's front (write by suffix) names no family."""

import pytest

from unilayout import LayoutError, draw


def test_write_picks_the_format_from_the_suffix(tmp_path):
    s = draw.box_scene("b", [0, 1, 2, 3], (2, 2))
    assert draw.write(s, tmp_path / "b.svg").endswith("b.svg") and (tmp_path / "b.svg").read_text().startswith("<svg")
    draw.write(s, tmp_path / "b.PNG", scale=2)
    assert (tmp_path / "b.PNG").read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(LayoutError, match="must end in .svg or .png"):
        draw.write(s, tmp_path / "b.gif")


def test_the_kit_imports_no_family():
    import subprocess
    import sys

    code = "import sys, unilayout.draw; print(sorted({m.split('.')[1] for m in sys.modules if m.startswith('unilayout.')}))"
    loaded = eval(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    assert set(loaded) <= {"draw", "errors", "_families", "_family", "_version"}
