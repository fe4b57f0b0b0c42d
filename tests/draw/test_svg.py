"""unilayout.draw.svg: well-formed SVG with the explorer's hooks."""

import numpy as np

from svgcheck import NS, cells, classes, label_text, parse_svg, texts
from unilayout.draw.scene import grid_scene
from unilayout.draw.svg import to_svg


def _scene():
    s = grid_scene("a <title> & more", 2, 3, labels=[["0", "1", "T0\nV1"], ["", "4", "5"]])
    s.padding[1, 2] = True
    s.drawn[1, 1] = False
    s.attrs["thread"] = np.arange(6).reshape(2, 3)
    s.add_outline(0, 0, 10, 10, cls="tile")
    s.notes.append("a note with <angle> brackets")
    return s


def test_well_formed_with_cells_labels_and_indices():
    root = parse_svg(to_svg(_scene()))
    cs = cells(root)
    assert len(cs) == 5
    assert [int(g.get("data-index")) for g in cs] == [0, 1, 2, 3, 5]
    assert [int(g.get("data-thread")) for g in cs] == [0, 1, 2, 3, 5]
    assert [label_text(g) for g in cs] == ["0", "1", "T0\nV1", "", "5"]
    assert len(texts(root, "label")) == 4
    pads = cells(root, "padding")
    assert [g.get("data-index") for g in pads] == ["5"] and "cell" in classes(pads[0])
    for g in cs:
        r = g.find(NS + "rect")
        assert r is not None and r.get("fill").startswith("#")


def test_titles_notes_outlines_escaped():
    text = to_svg(_scene())
    root = parse_svg(text)
    assert root.find(NS + "title").text == "a <title> & more"
    assert [t.text for t in texts(root, "note")] == ["a note with <angle> brackets"]
    assert [r for r in root.iter(NS + "rect") if "tile" in classes(r)]
    assert len(texts(root, "header")) == 5 and len(texts(root, "title")) == 1


def test_size_attributes_match_the_scene():
    s = _scene()
    root = parse_svg(to_svg(s))
    assert float(root.get("width")) == s.width and float(root.get("height")) == s.height
    assert root.get("viewBox") == f"0 0 {s.width:g} {s.height:g}"


def test_summary_cells_have_their_own_class():
    s = grid_scene("t", 1, 2)
    s.cell_class = "core"
    root = parse_svg(to_svg(s))
    assert cells(root) == [] and len(cells(root, "core")) == 2


def test_empty_scene():
    root = parse_svg(to_svg(grid_scene("empty", 0, 0)))
    assert cells(root) == []
