"""The "open a dump" view: /api/lens's answer (panels/lens.lens_view) and its script static/lens.js."""

import json
import pathlib
import shutil
import subprocess

import pytest

from unilayout.errors import LayoutError, ParseError
from unilayout.explorer import api
from unilayout.explorer.panels import lens as panel
from unilayout.explorer.panels.lens import lens_view

JS = pathlib.Path(__file__).resolve().parents[2] / "src" / "unilayout" / "explorer" / "static" / "lens.js"
DUMP = """#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func @k(%acc: tensor<64x64xf16, #mma>) {
    %0 = ttg.convert_layout %acc : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #blocked> loc(#loc1)
    %1 = ttg.local_alloc %0 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    tt.return
  }
}
#loc1 = loc("k.py":9:4)
"""


def test_every_type_is_a_span_of_the_text_with_its_layout():
    a = lens_view({"text": DUMP})
    lines = DUMP.splitlines()
    assert a["lines"] == lines and a["kind"] == "triton"
    for t in a["types"]:
        assert lines[t["line"] - 1][t["col"]:t["end"]] == a["layouts"][t["layout"]]["text"].splitlines()[-1]
    assert [t["value"] for t in a["types"]] == ["%acc", None, "%0", None, "%1"]
    assert [x["short"] for x in a["layouts"]] == ["64x64xf16 #mma", "64x64xf16 #blocked", "smem 64x64xf16 #shared"]


def test_each_layout_text_draws_in_the_main_view():
    a = lens_view({"text": DUMP})
    for lay in a["layouts"]:
        assert lay["link"].startswith("?layout=")
        status, view = api.handle("/api/view", json.dumps({"text": lay["text"]}).encode())
        assert status == 200 and view["family"] == "linear" and view["svg"].startswith("<svg")


def test_moves_are_annotated():
    cvt, alloc = lens_view({"text": DUMP})["moves"]
    assert (cvt["line"], cvt["location"], cvt["level"]) == (7, "k.py:9:4", "shared-memory round trip")
    assert cvt["label"].startswith(f"shared-memory round trip: {cvt['scratch_bytes']} B scratch, conflicts ")
    assert alloc["label"].startswith("shared-memory store: 8192 B buffer") and alloc["instructions"] == ["st.shared.v4.b32"]


def test_bad_requests(monkeypatch):
    with pytest.raises(LayoutError, match="'text' must be") as e:
        lens_view({"text": "  "})
    assert e.value.field == "text"
    with pytest.raises(ParseError, match="line 7, column") as e:
        lens_view({"text": DUMP.replace("#blocked> loc(#loc1)", "#blocked loc(#loc1)")})
    assert e.value.field == "text"
    monkeypatch.setattr(panel, "MAX_DUMP", 100)
    with pytest.raises(LayoutError, match="at most 100") as e:
        lens_view({"text": DUMP})
    assert e.value.status == 413


def test_a_tt_mlir_dump():
    text = """#l1 = #ttcore.metal_layout<logical_shape = 32x256, dim_alignments = 32x32, collapsed_intervals = dense<> : tensor<0x2xi64>, undef, l1, sharded>
module {
  func.func @f(%a: tensor<1x1x32x256xf32, #l1>, %b: tensor<1x2x32x128xf32, #l1>) {
    %0 = d2m.to_layout %a, %b : tensor<1x1x32x256xf32, #l1> into tensor<1x2x32x128xf32, #l1> -> tensor<1x2x32x128xf32, #l1>
    return
  }
}
"""
    a = lens_view({"text": text})
    assert a["kind"] == "tt-mlir" and len(a["layouts"]) == 2
    (mv,) = a["moves"]
    assert mv["label"].startswith("on chip (NoC): 32768 B moved, 16384 B over the NoC")


def test_the_script_is_valid_and_asks_the_routes():
    text = JS.read_text()
    assert "window.UnilayoutLens = {mount: mount, render: render}" in text
    assert '"/api/lens"' in text and '"/api/view"' in text
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the script's syntax is not checked")
    proc = subprocess.run([node, "--check", str(JS)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


_NODE_RENDER = r"""
const fs = require("fs");
global.document = {readyState: "complete", head: {appendChild() {}}, getElementById() { return null; },
                   createElement() { return {}; }, querySelectorAll() { return []; }};
global.window = {};
global.location = {search: ""};
eval(fs.readFileSync(process.argv[process.argv.length - 1], "utf8"));
const answer = JSON.parse(fs.readFileSync(0, "utf8"));
const el = {innerHTML: "", querySelector() { return {addEventListener() {}, innerHTML: ""}; }, querySelectorAll() { return []; }};
window.UnilayoutLens.render(el, answer);
process.stdout.write(el.innerHTML);
"""


def test_the_script_draws_an_answer():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the script is not run")
    a = lens_view({"text": DUMP})
    proc = subprocess.run([node, "-e", _NODE_RENDER, str(JS)], input=json.dumps(a), capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    html = proc.stdout
    assert html.count('class="ty"') == len(a["types"]) and html.count('class="row') == len(a["lines"])
    assert html.count("\u21b3 ttg.convert_layout") == 1 and html.count("\u21b3 ttg.local_alloc") == 1
    assert 'data-layout="1"' in html and "shared-memory round trip: " in html and "&lt;" in html


def test_the_server_serves_the_lens_tab_and_takes_a_dump_past_the_usual_body_limit():
    import http.client

    from unilayout.explorer import render_html, serve
    from unilayout.explorer.api import MAX_REQUEST_BYTES
    from unilayout.explorer.server import page_file

    dump = (pathlib.Path(__file__).parents[1] / "cli" / "data" / "kernel.ttgir").read_text()
    big = dump + "\n".join(f"// padding line {k} " + "x" * 60 for k in range(MAX_REQUEST_BYTES // 60))
    with serve(port=0) as srv:
        def ask(method, path, body=None, headers=None):
            conn = http.client.HTTPConnection(srv.host, srv.port, timeout=60)
            try:
                conn.request(method, path, body=body, headers=headers or {})
                resp = conn.getresponse()
                return resp.status, resp.read()
            finally:
                conn.close()

        status, data = ask("GET", "/lens.js")
        assert status == 200 and data.decode() == page_file("lens.js") and "/api/lens" in data.decode()
        page = ask("GET", "/")[1].decode()
        assert 'data-panel="lens"' in page and 'id="panel-lens"' in page and '<script src="lens.js">' in page
        body = json.dumps({"text": big}).encode()
        assert len(body) > MAX_REQUEST_BYTES
        status, data = ask("POST", "/api/lens", body, {"Content-Type": "application/json"})
        assert status == 200, data[:300]
        assert json.loads(data) == json.loads(json.dumps(lens_view({"text": big})))
        status, _ = ask("POST", "/api/view", json.dumps({"text": big}).encode(), {"Content-Type": "application/json"})
        assert status == 413  # the other routes keep the usual limit
    assert '<script src="lens.js">' not in render_html("(2,2):(1,2)")
