"""The explorer's Planner panel: POST /api/plan in process and over HTTP, the page's hooks, and the panel in Chromium.

The expected numbers come from ``unilayout.plan`` called directly (``grids``,
``reshard_cost``), never from the panel's own answers. The browser test needs
Debian's ``chromium`` and ``chromium-driver`` and pip's ``selenium`` and skips
without them (the ``browser`` and ``server`` fixtures are in ``conftest.py``); its screenshots go to
``tests/explorer/artifacts/`` (or ``$UNILAYOUT_ARTIFACTS``).
"""

import http.client
import json
import os
import pathlib
import re
import urllib.parse

import pytest

from unilayout import plan, tt
from unilayout.explorer import render_html, text_view
from unilayout.explorer.api import handle
from unilayout.explorer.server import page_file

ARTIFACTS = pathlib.Path(os.environ.get("UNILAYOUT_ARTIFACTS") or pathlib.Path(__file__).parent / "artifacts")
DEV8 = tt.Device((8, 8), "(d0, d1) -> (0, d0, d1)")
SEED = tt.MetalLayout.from_collapse((53, 63), (3, 2))
TRANSPOSED = tt.MetalLayout((256, 256), "(d0, d1) -> (d1, d0)", (8, 8))
BROWSER_WINDOW = "1400,1600"  # the browser fixture's window (conftest.py): the whole panel in a screenshot


def ask(body):
    status, out = handle("/api/plan", json.dumps(body).encode())
    json.dumps(out)  # the answer is JSON as it is
    return status, out


# ---------------------------------------------------------------- the request, in process

def test_rows_and_choice_are_the_planners_ranking():
    g = plan.grids((53, 63), DEV8)
    for k in (0, 1, 5):
        status, out = ask({"shape": "53x63", "top": 8, "choice": k})
        assert status == 200 and out["count"] == len(g) and out["choice"] == k
        assert [r["grid"] for r in out["grids"]] == [list(c.grid) for c in g[:8]]
        assert [r["placement"] for r in out["grids"]] == [c.placement for c in g[:8]]
        assert tt.parse(out["layout"]) == g[k].layout
        # every core of the device is drawn; those holding a shard say which (an idle core: -1)
        shards = re.findall(r'data-shard="(-?\d+)"', out["svg"])
        assert len(shards) == 64 and sorted(int(v) for v in shards if v != "-1") == list(range(g[k].cores_used))


def test_form_inputs_as_text_mean_the_same_as_json_values():
    a = ask({"shape": "2x3x64x128", "mesh": "2x1x1", "tile": "32x32", "collapse": "0,1,1,-1", "top": 4})[1]
    b = ask({"shape": [2, 3, 64, 128], "mesh": [2, 1, 1], "tile": [32, 32], "collapse": [[0, 1], [1, -1]], "top": 4})[1]
    assert a == b
    two = tt.Device.from_mesh(tt.SystemDesc.wormhole_b0(2), (2, 1, 1))
    want = plan.grids((2, 3, 64, 128), two, tile=(32, 32), collapse=[(0, 1), (1, -1)])
    assert a["count"] == len(want) and [r["grid"] for r in a["grids"]] == [list(c.grid) for c in want[:4]]
    phys = ask({"shape": "53x63", "physical": True, "top": 1000})[1]
    assert {r["placement"] for r in phys["grids"]} == {"physical"}
    assert phys["count"] == len(plan.grids((53, 63), DEV8, virtual=False))


def test_reshard_counters_are_reshard_cost():
    g = plan.grids((53, 63), DEV8)
    out = ask({"shape": "53x63", "choice": 1, "reshard_from": SEED.tensor_type()})[1]
    want = plan.reshard_cost(SEED, g[1].layout, DEV8)
    r = out["reshard"]
    for key in ("local_bytes", "on_chip_bytes", "chip_to_chip_bytes", "max_send_bytes", "max_receive_bytes",
                "transfers", "padding_bytes", "in_place_bytes"):
        assert r[key] == getattr(want, key), key
    assert r["moved_bytes"] == want.moved_bytes > 0 and r["svg"].startswith("<svg")
    # the seed's transpose: reading the transposed blocks on the transposed grid moves nothing
    t = ask({"shape": "256x256", "collapse": "0,-1", "reshard_from": TRANSPOSED.tensor_type(), "top": 3})[1]
    assert t["grids"][0]["placement"] == "physical" and t["reshard"]["reinterpretation"] == "transposed"
    assert t["reshard"]["moved_bytes"] == 0 and t["reshard"]["local_bytes"] == 256 * 256 * 4


@pytest.mark.parametrize("body,status,words", [
    ({}, 400, "shape"),
    ({"shape": "53xq"}, 400, "integers"),
    ({"shape": [2 ** 62, 2 ** 62]}, 400, "64-bit"),
    ({"shape": "0x4"}, 400, ">= 1"),
    ({"shape": "4x4", "mesh": "0x2"}, 400, ">= 1"),
    ({"shape": "4x4", "tile": [True, 1]}, 400, "integers"),
    ({"shape": "4x4", "device": 5}, 400, "device"),
    ({"shape": "4x4", "device": "#tt.device<"}, 400, ""),
    ({"shape": "4x4", "collapse": "0,1,2"}, 400, "pairs"),
    ({"shape": "4x4", "collapse": [[0, "x"]]}, 400, "collapse"),
    ({"shape": "4x4", "element_type": "zz"}, 400, "element type"),
    ({"shape": "4x4", "top": "many"}, 400, "top"),
    ({"shape": "4x4", "top": 10 ** 6}, 400, "at most"),
    ({"shape": "4x4", "choice": 10 ** 6}, 400, "past"),
    ({"shape": "4x4", "reshard_from": "(4,4):(4,1)"}, 400, "tensor<"),
    ({"shape": "4096x4096", "collapse": "0,-1", "reshard_from":
      "tensor<4096x4096xf32, #tt.metal_layout<(d0, d1) -> ((d0 * 4096 + d1) floordiv 4096, (d0 * 4096 + d1) mod "
      "4096), undef, <8x8>, memref<512x512xf32, #tt.memory_space<l1>>>>"}, 400, "unilayout plan reshard"),
])
def test_bad_requests_answer_4xx_with_a_message(body, status, words):
    got, out = ask(body)
    assert got == status and words in out["error"]["message"]


def test_not_an_object_is_400():
    assert handle("/api/plan", b"[1, 2]")[0] == 400
    assert handle("/api/plan", b"{")[0] == 400


# ---------------------------------------------------------------- the page and the server

def _request(srv, method, path, body=None, headers=None):
    conn = http.client.HTTPConnection(srv.host, srv.port, timeout=10)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, resp.getheader("Content-Type") or "", resp.getheader("Content-Security-Policy"), resp.read()
    finally:
        conn.close()


def test_the_page_loads_the_planner_and_the_server_answers_it(server):
    status, ctype, csp, data = _request(server, "GET", "/plan.js")
    assert status == 200 and ctype.startswith("text/javascript") and "script-src 'self'" in csp
    assert data.decode() == page_file("plan.js") and "/api/plan" in data.decode()
    page = _request(server, "GET", "/")[3].decode()
    assert 'data-panel="plan"' in page and 'id="panel-plan"' in page
    assert page.index('<script src="app.js">') < page.index('<script src="plan.js">')
    body = json.dumps({"shape": "53x63", "top": 2}).encode()
    status, ctype, _, data = _request(server, "POST", "/api/plan", body, {"Content-Type": "application/json"})
    assert status == 200 and json.loads(data) == ask({"shape": "53x63", "top": 2})[1]
    status, _, _, data = _request(server, "POST", "/api/plan", b'{"shape": "x"}', {"Content-Type": "application/json"})
    assert status == 400 and "shape" in json.loads(data)["error"]["message"]


def test_the_offline_page_has_no_planner_script():
    html = render_html("(2,2):(1,2)")
    assert '<script src="plan.js">' not in html and 'src="' not in html and html.count("<script") == 2


# ---------------------------------------------------------------- in Chromium

def _js(driver, script, *args):
    return driver.execute_script(script, *args)


def _settled(driver, timeout=20):
    """Wait until the panel's latest request is answered; its state ('done' or 'error')."""
    from selenium.webdriver.support.ui import WebDriverWait

    state = "return document.getElementById('panel-plan').getAttribute('data-state')"
    WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: _js(d, state) in ("done", "error"))
    return _js(driver, state)


def _click(driver, selector):
    _js(driver, "document.getElementById('panel-plan').setAttribute('data-state', 'pending');")
    el = driver.find_element("css selector", selector)
    _js(driver, "arguments[0].scrollIntoView({block: 'center'});", el)
    el.click()
    return _settled(driver)


def _rows(driver):
    return _js(driver, "return Array.from(document.querySelectorAll('#plan-grids tbody tr')).map(function (r) {"
                       "return [r.className, Array.from(r.cells).map(function (c) { return c.textContent; })]; })")


def _counters(driver):
    return dict(_js(driver, "return Array.from(document.querySelectorAll('#plan-reshard tr')).map(function (r) {"
                            "return [r.getAttribute('data-key'), r.cells[1].textContent]; })"))


def test_panel_lists_grids_a_click_redraws_and_reshard_shows_counters(browser, server):
    browser.get(server.url)
    assert browser.find_element("id", "panel-plan").is_displayed() is False
    assert _click(browser, '#panels button[data-panel="plan"]') == "done"
    assert browser.find_element("id", "panel-plan").is_displayed()
    assert not browser.find_element("id", "panel-metal").is_displayed()
    g = plan.grids((53, 63), DEV8)
    rows = _rows(browser)
    assert len(rows) == 20 and [r[1][1] for r in rows] == ["x".join(map(str, c.grid)) for c in g[:20]]
    assert [r[1][4] for r in rows] == [str(c.cores_used) for c in g[:20]]
    assert "chosen" in rows[0][0] and "chosen" not in rows[1][0]
    # a click on row 3 chooses it: the table marks it, the layout text and the picture follow
    assert _click(browser, '#plan-grids tr[data-choice="3"]') == "done"
    rows = _rows(browser)
    assert [i for i, r in enumerate(rows) if "chosen" in r[0]] == [3]
    assert tt.parse(browser.find_element("id", "plan-layout").text) == g[3].layout
    assert _js(browser, "return document.querySelectorAll('#plan-grid-view svg .cell:not([data-shard=\"-1\"])').length") == g[3].cores_used
    assert "pk=3" in browser.current_url and "panel=plan" in browser.current_url
    assert not browser.find_element("id", "plan-reshard-box").is_displayed()
    # "Reshard from this" prices moving from row 3's layout into the chosen row
    assert _click(browser, "#plan-use-from") == "done"
    assert _click(browser, '#plan-grids tr[data-choice="1"]') == "done"
    want = plan.reshard_cost(g[3].layout, g[1].layout, g[3].device, dst_device=DEV8)  # 1x63 sits row-major
    counters = _counters(browser)
    assert g[3].placement == "row_major" and counters["source"] == "row_major view"
    assert counters["moved_bytes"].startswith(f"{want.moved_bytes:,}") and want.moved_bytes > 0
    assert counters["transfers"] == f"{want.transfers:,}" and counters["reinterpretation"] == "none"
    assert counters["local_bytes"].startswith(f"{want.local_bytes:,}")
    n = len(want.cores)
    assert _js(browser, "return document.querySelectorAll('#plan-heat-view svg .cell').length") == n * n
    browser.save_screenshot(str(ARTIFACTS / "plan-reshard.png"))
    # "Show in the picture below" hands the chosen layout to the main view
    browser.find_element("id", "plan-open").click()
    from selenium.webdriver.support.ui import WebDriverWait

    want_cells = text_view(g[1].layout.tensor_type())["count"]
    WebDriverWait(browser, 15).until(
        lambda d: _js(d, "return document.querySelectorAll('#layout-view svg .cell').length") == want_cells)
    query = urllib.parse.parse_qs(urllib.parse.urlparse(browser.current_url).query)
    assert query["panel"] == ["plan"] and query["pk"] == ["1"] and query["ps"] == ["53x63"]  # the link keeps both
    assert tt.parse(query["layout"][0]) == g[1].layout and tt.parse(query["pf"][0]) == g[3].layout


def test_a_link_restores_the_panel_and_errors_show(browser, server):
    q = {"panel": "plan", "ps": "256x256", "pc": "0,-1", "pn": "5", "pf": TRANSPOSED.tensor_type()}
    browser.get(server.url + "?" + urllib.parse.urlencode(q))
    assert _settled(browser) == "done"
    assert browser.find_element("id", "panel-plan").is_displayed()
    assert len(_rows(browser)) == 5
    counters = _counters(browser)
    assert counters["reinterpretation"] == "transposed" and counters["moved_bytes"] == "0"
    browser.save_screenshot(str(ARTIFACTS / "plan-transposed.png"))
    field = browser.find_element("id", "plan-shape")
    field.clear()
    field.send_keys("53xq")
    assert _click(browser, "#plan-run") == "error"
    assert "integers" in browser.find_element("id", "plan-error").text
    assert _rows(browser) == []


def test_rows_answer_the_keyboard(browser, server):
    from selenium.webdriver.common.keys import Keys

    browser.get(server.url + "?panel=plan&ps=53x63&pn=6")
    assert _settled(browser) == "done"
    row = browser.find_element("css selector", '#plan-grids tr[data-choice="2"]')
    _js(browser, "arguments[0].focus(); document.getElementById('panel-plan').setAttribute('data-state', 'pending');", row)
    row.send_keys(Keys.ENTER)
    assert _settled(browser) == "done"
    assert [i for i, r in enumerate(_rows(browser)) if "chosen" in r[0]] == [2]
    assert _js(browser, "return document.activeElement.getAttribute('data-choice')") == "2"  # focus stays on the row
    assert tt.parse(browser.find_element("id", "plan-layout").text) == plan.grids((53, 63), DEV8)[2].layout
