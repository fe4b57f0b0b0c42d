"""The Rosetta panel: /api/rosetta's answer (verdicts, pictures, differing cells) and its script rosetta.js."""

import pathlib
import re
import shutil
import subprocess

import pytest

from unilayout import LayoutError, rosetta
from unilayout.explorer.panels.rosetta import MAX_CELLS, rosetta_view

JS = pathlib.Path(__file__).resolve().parents[2] / "src" / "unilayout" / "explorer" / "static" / "rosetta.js"


def _holders(frag):
    """{(row, col): (thread, value)} of the first holder, thread-major (plain loops: the independent count)."""
    out = {}
    for t in range(frag.coords.shape[0]):
        for v in range(frag.coords.shape[1]):
            out.setdefault(tuple(int(x) for x in frag.coords[t, v]), (t, v))
    return out


def _cells(svg):
    return re.findall(r'<g class="cell" data-index="(\d+)"[^>]*data-thread="(-?\d+)" data-value="(-?\d+)" '
                      r'data-differs="(\d)"', svg)


def test_every_system_is_answered_with_its_table_verdict_and_a_picture_of_the_tile():
    v = rosetta_view({"instruction": "mma.sync.m16n8k16.f32.f16", "operand": "C"})
    table = [r for r in rosetta.table("mma.sync.m16n8k16.f32.f16") if r.operand == "C"]
    assert [(s["system"], s["verdict"]) for s in v["systems"]] == [(r.system, r.verdict) for r in table]
    assert v["operands"] == ["A", "B", "C"] and v["shape"] == [16, 8] and v["reference"] == "cute"
    ref = _holders(rosetta.fragments("mma.sync.m16n8k16.f32.f16")["cute"]["C"])
    for s in v["systems"]:
        cells = _cells(s["svg"])
        assert len(cells) == 128 and s["differing_count"] == 0 and s["differing"] == []
        for index, t, val, differs in cells:  # each cell names the thread and value the PTX figure gives it
            assert ref[divmod(int(index), 8)] == (int(t), int(val)) and differs == "0"


def test_the_differing_cells_are_those_held_otherwise_than_in_the_reference():
    name = "wmma.16x16x16.f16.gfx11"
    v = rosetta_view({"instruction": name, "operand": "C"})
    frags = rosetta.fragments(name)
    ref, other = _holders(frags["triton"]["C"]), _holders(frags["tensor-layouts"]["C"])
    expected = sorted([r, c] for (r, c) in ref if ref[(r, c)] != other.get((r, c)))
    (tl,) = [s for s in v["systems"] if s["system"] == "tensor-layouts"]
    assert tl["verdict"] == "different" and 0 < tl["differing_count"] == len(expected)
    assert sorted(tl["differing"]) == expected
    marked = sorted(divmod(int(i), 16) for i, _, _, d in _cells(tl["svg"]) if d == "1")
    assert [list(x) for x in marked] == expected
    assert tl["svg"].count('class="differs"') == len(expected)  # each outlined in red


def test_a_copy_is_drawn_as_its_words_with_the_register_as_value():
    v = rosetta_view({"instruction": "ldmatrix.x4", "operand": "D"})
    assert v["shape"] == [32, 4]
    for s in v["systems"]:
        for index, t, val, _ in _cells(s["svg"]):  # word (matrix, row, word) -> lane 4 * row + word, register matrix
            matrix, rest = divmod(int(index), 32)
            assert (int(t), int(val)) == (rest, matrix)


def test_a_big_tile_is_cropped_and_said_so_but_counted_whole():
    v = rosetta_view({"instruction": "wgmma.m64n256k16.f32.f16", "operand": "C"})
    assert v["shape"] == [64, 256] and "top-left 64x16" in v["note"]
    assert all(len(_cells(s["svg"])) == MAX_CELLS for s in v["systems"])


def test_view_text_is_a_spelling_the_layout_box_reads():
    from unilayout import _families

    v = rosetta_view({"instruction": "mma.sync.m16n8k16.f32.f16", "operand": "A"})
    texts = {s["system"]: s["view_text"] for s in v["systems"]}
    assert texts["triton"].startswith("tensor<16x16xf16, #ttg.dot_op") and texts["tirx"].startswith("T.TileLayout")
    for t in texts.values():
        _families.read(t)


def test_list_and_bad_requests():
    assert "ldmatrix.x4" in rosetta_view({"list": True})["instructions"]
    with pytest.raises(LayoutError, match="unknown instruction") as e:
        rosetta_view({"instruction": "mma.sync.m1n1k1"})
    assert e.value.field == "instruction"
    with pytest.raises(LayoutError, match="has no operand 'Q'") as e:
        rosetta_view({"instruction": "ldmatrix.x4", "operand": "Q"})
    assert e.value.field == "operand"


def test_the_script_is_valid_and_mounts_a_panel_that_asks_the_route():
    text = JS.read_text()
    assert "window.UnilayoutRosetta = {mount: mount}" in text and '"/api/rosetta"' in text
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the script's syntax is not checked")
    proc = subprocess.run([node, "--check", str(JS)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_the_server_serves_the_rosetta_tab_and_answers_its_route():
    import http.client
    import json

    from unilayout.explorer import render_html, serve
    from unilayout.explorer.server import page_file

    with serve(port=0) as srv:
        def ask(method, path, body=None, headers=None):
            conn = http.client.HTTPConnection(srv.host, srv.port, timeout=30)
            try:
                conn.request(method, path, body=body, headers=headers or {})
                resp = conn.getresponse()
                return resp.status, resp.read()
            finally:
                conn.close()

        status, data = ask("GET", "/rosetta.js")
        assert status == 200 and data.decode() == page_file("rosetta.js") and "/api/rosetta" in data.decode()
        page = ask("GET", "/")[1].decode()
        assert 'data-panel="rosetta"' in page and 'id="panel-rosetta"' in page
        assert page.index('<script src="app.js">') < page.index('<script src="rosetta.js">')
        body = json.dumps({"instruction": "mma.sync.m16n8k16.f32.f16", "operand": "C"}).encode()
        status, data = ask("POST", "/api/rosetta", body, {"Content-Type": "application/json"})
        assert status == 200 and json.loads(data) == json.loads(json.dumps(rosetta_view(json.loads(body))))
    html = render_html("(2,2):(1,2)")  # the offline page has no server to ask
    assert '<script src="rosetta.js">' not in html and 'src="' not in html
