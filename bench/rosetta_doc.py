"""Regenerate the verdict matrix of docs/rosetta.md: ``python bench/rosetta_doc.py`` (tests/cli/test_rosetta.py checks it).

Everything after the line ``<!-- matrix -->`` is replaced by ``unilayout rosetta --all --markdown``.
"""

import pathlib

from unilayout import rosetta
from unilayout.cli.rosetta import markdown

DOC = pathlib.Path(__file__).resolve().parents[1] / "docs" / "rosetta.md"
MARK = "<!-- matrix -->"

if __name__ == "__main__":
    text = DOC.read_text()
    head = text.split(MARK)[0]
    DOC.write_text(head + MARK + "\n\n" + markdown(rosetta.matrix()) + "\n")
    print(f"wrote {DOC} ({len(rosetta.instruction_names())} instructions)")
