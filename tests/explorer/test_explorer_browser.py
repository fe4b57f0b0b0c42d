"""End-to-end: the explorer page in headless Chromium, driven by Selenium.

The ``browser`` and ``server`` fixtures are in ``conftest.py``: Debian's
``chromium`` and ``chromium-driver`` and pip's ``selenium`` are needed, the
tests skip (saying which is missing) without them. Screenshots go to
``tests/explorer/artifacts/`` (git-ignored) or to ``$UNILAYOUT_ARTIFACTS``.
"""

import json
import os
import pathlib
import urllib.parse

import unilayout
from unilayout import cute, linear, tt
from unilayout.explorer import render_html, text_view

ARTIFACTS = pathlib.Path(os.environ.get("UNILAYOUT_ARTIFACTS") or pathlib.Path(__file__).parent / "artifacts")

SEED = ("tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
        "memref<18x32xf32, #tt.memory_space<l1>>>>")


def wait(driver, predicate, timeout=15):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: predicate(d))


def js(driver, script, *args):
    return driver.execute_script(script, *args)


def cell_count(driver, selector="#layout-view svg .cell"):
    return js(driver, "return document.querySelectorAll(arguments[0]).length", selector)


def shot(driver, name):
    driver.save_screenshot(str(ARTIFACTS / f"{name}.png"))


def enter(driver, text):
    """Type ``text`` into the layout box and press Enter; wait until the answer is shown."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    box = driver.find_element(By.ID, "layout-input")
    js(driver, "document.getElementById('layout-error').textContent = 'pending';")
    js(driver, "arguments[0].value = '';", box)
    box.send_keys(text)
    box.send_keys(Keys.ENTER)
    wait(driver, lambda d: js(d, "var e = document.getElementById('layout-error').textContent;"
                                 "return e !== 'pending';"))


def hover(driver, selector):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    el = driver.find_element(By.CSS_SELECTOR, selector)
    js(driver, "arguments[0].scrollIntoView({block: 'center', inline: 'center'});", el)
    ActionChains(driver).move_to_element(el).perform()
    wait(driver, lambda d: js(d, "return document.getElementById('cell-details').textContent.length > 0"))
    return driver.find_element(By.ID, "cell-details").text


def linked(driver, selector):
    """data-index of the cells of ``selector``'s view lit as linked to the hovered cell."""
    return sorted(js(driver, "return Array.from(document.querySelectorAll(arguments[0] + ' .cell.linked'))"
                             ".map(function (c) { return +c.getAttribute('data-index'); })", selector))


def labels(driver, selector="#layout-view svg .cell"):
    return js(driver, "return Array.from(document.querySelectorAll(arguments[0])).map(function (c) {"
                      "var t = c.querySelector('text'); return [+c.getAttribute('data-index'), t ? t.textContent : '']; })",
              selector)


FAMILIES = {
    "cute": "((2,2),2):((4,1),2)",
    "swizzle": "Sw<2,0,3> o 0 o (8,8):(8,1)",
    "linear": "#ttg.linear<{register = [[0, 1], [0, 4], [4, 0]], lane = [[0, 2], [1, 0], [2, 0]], warp = [], "
              "block = []}>",
    "affine": "(d0, d1) -> (d0 * 4 + d1, d1 floordiv 2)",
    "tsl": "#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5>",
    "metal": SEED,
    "device": "#tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, "
              "meshShape = 1x2, chipIds = [0, 1]>",
}


def test_every_family_draws_its_cells_with_labels(browser, server):
    browser.get(server.url)
    wait(browser, lambda d: js(d, "return document.readyState") == "complete")
    for name, text in FAMILIES.items():
        enter(browser, text)
        assert browser.find_element("id", "layout-error").text == "", name
        expected = text_view(text)["count"]
        wait(browser, lambda d: cell_count(d) == expected)
        assert js(browser, "return document.querySelectorAll('#layout-view svg').length") == 1
        got = dict(labels(browser))
        value = unilayout.parse(text)
        if name == "cute":
            assert {i: int(t) for i, t in got.items()} == {i: value(i) for i in range(8)}
        elif name == "swizzle":
            assert {i: int(t) for i, t in got.items()} == {i: value(i) for i in range(64)}
        elif name == "tsl":
            assert {i: int(t) for i, t in got.items()} == {i: value(*divmod(i, 8)) for i in range(64)}
        elif name == "affine":
            assert got[6] == ",".join(map(str, value(1, 2)))
        elif name == "linear":
            assert got[0] == "T0:0" and got[1] == "T0:1" and len(got) == 64
        elif name == "metal":
            assert cell_count(browser, "#layout-view svg .cell.padding") == 117
            assert all(got[i] == str(i) for i in (0, 62, 63, 3338))
        # the facts table says what `unilayout show` says
        facts = js(browser, "return Array.from(document.querySelectorAll('#layout-facts tr')).map(function (r) {"
                            "return [r.cells[0].textContent, r.cells[1].textContent]; })")
        assert facts == text_view(text)["facts"], name
        shot(browser, f"family-{name}")


def test_hover_shows_the_cell_in_every_view_and_highlights_its_group(browser, server):
    browser.get(server.url + "?" + urllib.parse.urlencode({"layout": SEED}))
    wait(browser, lambda d: cell_count(d) == 3456)
    ml = unilayout.parse(SEED)
    i = 1 * 63 + 37  # logical (1, 37): core (0, 1), shard coordinate (1, 5)
    text = hover(browser, f'#layout-view .cell[data-index="{i}"]')
    G, q = ml.locate(1, 37)
    assert "(1, 37)" in text and str(G) in text and str(q) in text and "chip 0, core (0, 1)" in text
    assert f"{int(ml.index_map()[i])}" in text  # offset in shard()'s output
    lit = js(browser, "return document.querySelectorAll('#layout-view .cell.same').length")
    assert lit == 18 * 32  # all slots of core (0, 1), padding included
    shot(browser, "hover-metal")
    # A padding cell says so.
    text = hover(browser, '#layout-view .cell.padding')
    assert "padding" in text and "yes" in text
    # CuTe: offset, coordinate and the cells sharing its bank.
    enter(browser, "(4,8):(8,1)")
    wait(browser, lambda d: cell_count(d) == 32)
    text = hover(browser, '#layout-view .cell[data-index="5"]')
    assert "offset 9" in text.replace("\n", " ") or "offset\n9" in text
    L = cute.parse("(4,8):(8,1)")
    assert str(L(5)) in text and "(1,1)" in text
    # Clicking pins the cell: its details stay and it stays marked.
    browser.find_element("css selector", '#layout-view .cell[data-index="7"]').click()
    import time

    time.sleep(0.5)
    text = browser.find_element("id", "cell-details").text
    assert "offset 25" in text and L(7) == 25
    assert js(browser, "return document.querySelectorAll('#layout-view .cell.current').length") == 1


#: The tt-mlir seed's headline tensor: 49,152 slots on 2x4 cores, drawn in full (without labels).
SEED_BIG = ("tensor<2x3x64x128xf32, #tt.metal_layout<(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3), "
            "undef, <2x4>, memref<192x32xf32, #tt.memory_space<l1>>>>")


def painted(driver, box="layout-view"):
    return js(driver, "return document.getElementById(arguments[0]).getAttribute('data-painted') === '1'", box)


def canvas_js(driver, body, *args):
    """Run ``body`` with ``v`` = the CanvasView of #layout-view."""
    return js(driver, "var v = window.unilayoutExplorer.views['layout-view'].canvas;" + body, *args)


def canvas_hover(driver, index, cell_px=40):
    """Zoom so cells are ``cell_px`` wide around the cell of data-index ``index``; move the real mouse onto it."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    rc = canvas_js(driver, "return v.find(arguments[0]);", index)
    assert rc is not None, index
    canvas_js(driver, "v.centerOn(arguments[0], arguments[1], arguments[2]);", rc[0], rc[1], cell_px)
    x, y = canvas_js(driver, "return v.cellCenter(arguments[0], arguments[1]);", rc[0], rc[1])
    cv = driver.find_element(By.ID, "layout-canvas")
    js(driver, "arguments[0].scrollIntoView({block: 'center'});", cv)
    w, h = canvas_js(driver, "return [v.w, v.h];")
    ActionChains(driver).move_to_element_with_offset(cv, int(x - w / 2), int(y - h / 2)).perform()
    wait(driver, lambda d: f"data-index\n{index}" in d.find_element(By.ID, "cell-details").text
         or f"data-index {index}" in d.find_element(By.ID, "cell-details").text)
    return driver.find_element(By.ID, "cell-details").text


def test_seed_tensor_from_the_url_is_drawn_on_a_canvas(browser, server):
    browser.get(server.url + "?" + urllib.parse.urlencode({"layout": SEED_BIG}))
    wait(browser, lambda d: painted(d) or d.find_element("id", "layout-error").text, timeout=30)
    assert browser.find_element("id", "layout-error").text == ""
    assert cell_count(browser) == 0 and js(browser, "return document.querySelectorAll('#layout-canvas').length") == 1
    note = browser.find_element("id", "layout-note")
    assert note.is_displayed() and "49,152 cells drawn on a canvas" in note.text
    ml = unilayout.parse(SEED_BIG)
    i = ((1 * 3 + 2) * 64 + 5) * 128 + 70  # logical (1, 2, 5, 70): row 1*192 + 2*64 + 5 = 325 -> core (1, 2)
    text = canvas_hover(browser, i)
    G, q = ml.locate(1, 2, 5, 70)
    assert G == (1, 2) and q == (325 - 192, 70 - 64)
    slot = int(ml.index_map()[i])
    assert f"slot\n{slot}" in text or f"slot {slot}" in text
    assert f"core\n{G[0] * 4 + G[1]}" in text or f"core {G[0] * 4 + G[1]}" in text
    shot(browser, "seed-big-metal-canvas")
    # A CuTe layout of 90,000 cells is drawn whole on the canvas.
    enter(browser, "(300,300):(1,300)")
    wait(browser, painted)
    assert "90000 cells" in browser.find_element("id", "layout-summary").text.replace(",", "")
    text = canvas_hover(browser, 601)  # (1, 2): offset 1 + 2 * 300
    assert "value\n601" in text or "value 601" in text
    # A small layout afterwards is an <svg> again and hides the note.
    enter(browser, "(4,8):(8,1)")
    wait(browser, lambda d: cell_count(d) == 32)
    assert not browser.find_element("id", "layout-note").is_displayed()
    assert js(browser, "return document.querySelectorAll('#layout-canvas').length") == 0


METAL_300 = ("tensor<300x300xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <4x4>, "
             "memref<75x75xf32, #tt.memory_space<l1>>>>")


def test_metal_300x300_zoom_fit_and_hover(browser, server):
    from selenium.webdriver.common.by import By

    browser.get(server.url + "?" + urllib.parse.urlencode({"layout": METAL_300}))
    wait(browser, lambda d: painted(d) or d.find_element("id", "layout-error").text, timeout=30)
    assert browser.find_element("id", "layout-error").text == ""
    fit = canvas_js(browser, "return v.s;")
    browser.find_element(By.ID, "canvas-zoom-in").click()
    assert abs(canvas_js(browser, "return v.s;") / fit - 1.6) < 1e-6
    browser.find_element(By.ID, "canvas-zoom-out").click()
    browser.find_element(By.ID, "canvas-zoom-out").click()
    assert canvas_js(browser, "return v.s;") < fit
    # wheel zoom around the cursor keeps the point under it
    canvas_js(browser, "var b = v.canvas.getBoundingClientRect(); var cx = Math.round(b.left + v.w / 3),"
                       "cy = Math.round(b.top + v.h / 3), p = [cx - b.left, cy - b.top];"
                       "var x = (p[0] - v.tx) / v.s; v.canvas.dispatchEvent(new WheelEvent('wheel', {deltaY: -500,"
                       "clientX: cx, clientY: cy, bubbles: true, cancelable: true}));"
                       "window.__x = [x, (p[0] - v.tx) / v.s];")
    x0, x1 = js(browser, "return window.__x;")
    assert abs(x0 - x1) < 1e-6 and canvas_js(browser, "return v.s;") > fit / 1.6 / 1.6
    browser.find_element(By.ID, "canvas-fit").click()
    assert abs(canvas_js(browser, "return v.s;") - fit) < 1e-9
    # hover details: logical element (123, 45) -> core (1, 0), slot
    ml = unilayout.parse(METAL_300)
    i = 123 * 300 + 45
    text = canvas_hover(browser, i)
    G, q = ml.locate(123, 45)
    assert f"core\n{G[0] * 4 + G[1]}" in text or f"core {G[0] * 4 + G[1]}" in text
    assert str(int(ml.index_map()[i])) in text
    # zoomed in, the labels are drawn: the canvas shows ink inside the hovered cell
    shot(browser, "metal-300x300-zoomed")
    # a click pins the cell: moving away keeps its details
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(browser).click().perform()  # where the mouse is: on the hovered cell
    canvas_js(browser, "var b = v.canvas.getBoundingClientRect(); v.canvas.dispatchEvent(new MouseEvent('mousemove',"
                       "{clientX: Math.round(b.left + 5), clientY: Math.round(b.top + 5), bubbles: true}));")
    assert f"data-index {i}" in browser.find_element(By.ID, "cell-details").text.replace("\n", " ")


def test_linear_layout_of_2_to_the_20_cells(browser, server):
    from unilayout.linear import encodings as E

    L = E.blocked([1024, 1024], [1, 4], [8, 4], [2, 2], [1, 0])
    text = linear.to_attr(L)
    browser.get(server.url + "?" + urllib.parse.urlencode({"layout": text}))
    wait(browser, lambda d: painted(d) or d.find_element("id", "layout-error").text, timeout=60)
    assert browser.find_element("id", "layout-error").text == ""
    assert "1048576" in browser.find_element("id", "layout-summary").text.replace(",", "")
    # the cell of flat input 12345 holds the element L maps it to
    flat = 12345
    text = canvas_hover(browser, flat)
    regs, lanes = L.in_dim_size("register"), L.in_dim_size("lane")
    hw = {"register": flat % regs, "lane": (flat // regs) % lanes, "warp": flat // (regs * lanes), "block": 0}
    out = L.apply(hw)
    for k, v in list(hw.items()) + list(out.items()):
        assert f"{k}\n{v}" in text or f"{k} {v}" in text, (k, v, text)
    shot(browser, "linear-2-to-the-20")


def test_triton_encoding_built_from_the_form(browser, server):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from unilayout.linear import encodings as E

    browser.get(server.url + "?panel=encodings")
    wait(browser, lambda d: js(d, "return document.querySelectorAll('#enc-a-fields input').length") > 0)
    Select(browser.find_element(By.ID, "enc-a-kind")).select_by_value("amd_mfma")
    Select(browser.find_element(By.ID, "enc-b-kind")).select_by_value("none")
    fields = {"version": "3", "instr_shape": "32, 32, 8", "warps_per_cta": "2, 2"}
    for key, value in fields.items():
        el = browser.find_element(By.ID, f"enc-a-{key}")
        el.clear()
        el.send_keys(value)
    browser.find_element(By.ID, "enc-a-is_transposed").click()  # true
    shape = browser.find_element(By.ID, "enc-shape")
    shape.clear()
    shape.send_keys("64x64")
    wait(browser, lambda d: d.find_element(By.ID, "enc-a-text").text)  # the page's first answer (blocked)
    js(browser, "document.getElementById('enc-a-text').textContent = '';")
    browser.find_element(By.ID, "enc-run").click()
    wait(browser, lambda d: d.find_element(By.ID, "enc-a-text").text or d.find_element(By.ID, "enc-error").text)
    assert browser.find_element(By.ID, "enc-error").text == ""
    enc = E.AmdMfma(version=3, instr_shape=[32, 32, 8], is_transposed=True, warps_per_cta=[2, 2])
    assert browser.find_element(By.ID, "enc-a-text").text == str(enc)
    L = enc.to_linear([64, 64])
    wait(browser, lambda d: cell_count(d, "#enc-a-view .cell") == 64 * 64)  # 4,096 cells: still an <svg>
    got = dict(labels(browser, "#enc-a-view .cell"))
    regs, lanes = L.in_dim_size("register"), L.in_dim_size("lane")
    for flat in (0, 7, 100, 1000):
        if flat in got:
            hw = {"register": flat % regs, "lane": (flat // regs) % lanes, "warp": flat // (regs * lanes)}
            assert got[flat] == f"T{hw['lane'] + lanes * hw['warp']}:{hw['register']}"
    # the form state is in the URL and comes back
    url = browser.current_url
    browser.get("about:blank")
    browser.get(url)
    wait(browser, lambda d: js(d, "return document.getElementById('enc-a-instr_shape') &&"
                                  " document.getElementById('enc-a-instr_shape').value") == "32, 32, 8")
    assert browser.find_element(By.ID, "enc-a-is_transposed").is_selected()
    shot(browser, "encodings-form")


def test_linear_hover_names_thread_register_lane_warp(browser, server):
    text = FAMILIES["linear"]
    browser.get(server.url + "?" + urllib.parse.urlencode({"layout": text, "group": "thread"}))
    wait(browser, lambda d: cell_count(d) == 64)
    details = hover(browser, '#layout-view .cell[data-index="9"]')
    L = linear.parse(text)
    out = L.apply({"register": 1, "lane": 1, "warp": 0, "block": 0})
    assert f"({out['dim0']}, {out['dim1']})" in details and "thread" in details
    assert js(browser, "return document.querySelectorAll('#layout-view .cell.same').length") == 8


def test_malformed_text_shows_an_inline_error_with_its_position(browser, server):
    browser.get(server.url)
    for text, where in [("(2,2):(1,", 9), ("#tsl.tsl<[2, 4] -> (32, 4)", None), ("hello", 0),
                        ("tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
                         "memref<18x31xf32, #tt.memory_space<l1>>>>", None)]:
        enter(browser, text)
        err = browser.find_element("id", "layout-error").text
        assert err and "Traceback" not in err, text
        if where is not None:
            assert f"position {where}" in err
            assert "^" in err
        assert js(browser, "return document.body.innerText.length") > 100  # never a blank page
    shot(browser, "error-inline")
    enter(browser, "8:1")
    assert browser.find_element("id", "layout-error").text == ""
    wait(browser, lambda d: cell_count(d) == 8)


def test_metal_builder_shows_padding_per_core(browser, server):
    from selenium.webdriver.common.by import By

    browser.get(server.url + "?panel=metal")
    form = {"metal-shape": "53x63", "metal-grid": "3x2", "metal-tile": "", "metal-collapse": "0,-1", "metal-align": ""}
    for id_, value in form.items():
        el = browser.find_element(By.ID, id_)
        el.clear()
        el.send_keys(value)
    browser.find_element(By.ID, "metal-build").click()
    wait(browser, lambda d: cell_count(d) == 3456)
    assert cell_count(browser, "#layout-view svg .cell.padding") == 117
    assert unilayout.parse(browser.find_element(By.ID, "layout-input").get_attribute("value")) == \
        tt.MetalLayout.from_collapse((53, 63), (3, 2))
    # Padding per core: the last row of cores has 1 padding row, the last column 1 padding column.
    per_core = js(browser, "var n = {}; document.querySelectorAll('#layout-view .cell.padding').forEach(function (c) {"
                           "var k = c.getAttribute('data-core'); n[k] = (n[k] || 0) + 1; }); return n;")
    assert per_core == {"1": 18, "3": 18, "4": 32, "5": 49}
    table = browser.find_element(By.ID, "core-table").text
    assert "(2, 1) chip 0, core (2, 1) 17x31 1x1 49" in table
    shot(browser, "metal-builder-53x63")
    # Tilized: every 18x32 shard is padded to one 32x32 tile.
    el = browser.find_element(By.ID, "metal-tile")
    el.send_keys("32x32")
    browser.find_element(By.ID, "metal-build").click()
    wait(browser, painted)  # 6,144 slots: drawn on the canvas
    assert canvas_js(browser, "var p = v.arrays.padding, n = 0; for (var k = 0; k < p.length; k++) { n += p[k]; }"
                              " return n;") == 2805
    shot(browser, "metal-builder-53x63-tiled")
    # A bad form value is an inline error.
    el = browser.find_element(By.ID, "metal-grid")
    el.clear()
    el.send_keys("3xq")
    browser.find_element(By.ID, "metal-build").click()
    wait(browser, lambda d: d.find_element(By.ID, "metal-error").text != "")
    assert "grid" in browser.find_element(By.ID, "metal-error").text


def test_share_url_round_trip(browser, server):
    browser.get(server.url)
    text = "(d0, d1) -> (d0 + d1 * 3)"
    browser.find_element("id", "affine-shape").send_keys("3x5")
    enter(browser, text)
    wait(browser, lambda d: cell_count(d) == 15)
    url = browser.current_url
    query = urllib.parse.parse_qs(urllib.parse.urlparse(url).query)
    assert query["layout"] == [text] and query["shape"] == ["3x5"]
    browser.get("about:blank")
    browser.get(url)
    wait(browser, lambda d: cell_count(d) == 15)
    assert browser.find_element("id", "layout-input").get_attribute("value") == text
    assert dict(labels(browser))[7] == "7"  # index 7 of 3x5 is (1, 2) -> 1 + 2 * 3
    # The metal builder's state is in the link too.
    browser.get(server.url + "?panel=metal")
    browser.find_element("id", "metal-tile").send_keys("32x32")
    browser.find_element("id", "metal-build").click()
    wait(browser, painted)
    url = browser.current_url
    browser.get("about:blank")
    browser.get(url)
    wait(browser, painted)
    assert browser.find_element("id", "metal-tile").get_attribute("value") == "32x32"
    assert js(browser, "return !document.getElementById('panel-metal').hidden")
    shot(browser, "share-url")


def test_algebra_panel_side_by_side(browser, server):
    q = {"panel": "algebra", "aa": "(4,2):(1,4)", "ab": "(2,2):(2,1)", "aop": "composition"}
    browser.get(server.url + "?" + urllib.parse.urlencode(q))
    wait(browser, lambda d: cell_count(d, "#algebra-result-view .cell") > 0)
    R = cute.composition(cute.parse("(4,2):(1,4)"), cute.parse("(2,2):(2,1)"))
    assert cell_count(browser, "#algebra-a-view .cell") == 8
    assert cell_count(browser, "#algebra-b-view .cell") == 4
    assert cell_count(browser, "#algebra-result-view .cell") == cute.size(R)
    assert str(R) in browser.find_element("id", "algebra-result-text").text
    got = dict(labels(browser, "#algebra-result-view .cell"))
    assert {i: int(t) for i, t in got.items()} == {i: R(i) for i in range(cute.size(R))}
    details = hover(browser, '#algebra-result-view .cell[data-index="1"]')
    assert str(R(1)) in details and "in B" in details and "in A" in details
    # R(1) = A(B(1)): B's cell 1 and the A cell holding offset R(1) light up.
    A = cute.parse("(4,2):(1,4)")
    assert linked(browser, "#algebra-b-view") == [1]
    assert linked(browser, "#algebra-a-view") == [i for i in range(8) if A(i) == R(1)]
    shot(browser, "algebra-composition")


def test_encodings_panel_conversion_levels(browser, server):
    from unilayout.linear import analysis
    from unilayout.linear import encodings as E

    a = {"size_per_thread": [1, 2], "threads_per_warp": [8, 4], "warps_per_cta": [2, 1], "order": [1, 0]}
    b = {"version": [2, 0], "warps_per_cta": [2, 1], "instr_shape": [16, 8]}
    q = {"panel": "encodings", "es": "16x16", "eak": "blocked", "eap": json.dumps(a), "ebk": "nvidia_mma",
         "ebp": json.dumps(b)}
    browser.get(server.url + "?" + urllib.parse.urlencode(q))
    wait(browser, lambda d: cell_count(d, "#enc-b-view .cell") == 256)
    assert cell_count(browser, "#enc-a-view .cell") == 256
    La = E.blocked([16, 16], **a)
    Lb = E.nvidia_mma([16, 16], **b)
    assert f"crosses: {analysis.conversion_level(La, Lb)}" in browser.find_element("id", "enc-levels").text
    # Hovering an element in A shows where the same tensor element lives in B.
    def hardware(L, i):  # flat input -> in-dims, first in-dim least significant
        regs, lanes = L.in_dim_size("register"), L.in_dim_size("lane")
        return {"register": i % regs, "lane": (i // regs) % lanes, "warp": i // (regs * lanes), "block": 0}

    details = hover(browser, '#enc-a-view .cell[data-index="5"]')
    out = La.apply(hardware(La, 5))
    hits = linked(browser, "#enc-b-view")
    assert len(hits) == 1 and Lb.apply(hardware(Lb, hits[0])) == out  # the same tensor element
    assert f"({out['dim0']}, {out['dim1']})" in details.split("in B")[1]
    shot(browser, "encodings-blocked-mma")


def test_offline_html_file(browser, tmp_path):
    path = tmp_path / "seed.html"
    path.write_text(render_html(SEED), encoding="utf-8")
    browser.get(path.as_uri())
    wait(browser, lambda d: cell_count(d) == 3456)
    assert cell_count(browser, "#layout-view svg .cell.padding") == 117
    text = hover(browser, '#layout-view .cell[data-index="100"]')
    assert "(1, 37)" in text
    assert browser.find_element("id", "layout-error").text == ""
    shot(browser, "offline-html")


def test_every_example_button_draws_its_layout(browser, server):
    browser.get(server.url)
    wait(browser, lambda d: js(d, "return document.querySelectorAll('#examples button').length") > 0)
    examples = js(browser, "return Array.from(document.querySelectorAll('#examples button'))"
                           ".map(function (b) { return [b.textContent, b.getAttribute('data-example')]; })")
    assert {"TiledMMA", "TiledCopy", "Triton", "metal v2", "XLA"} <= {name for name, _ in examples}
    for k, (name, _text) in enumerate(examples):
        js(browser, "document.getElementById('layout-error').textContent = 'pending';"
                    "document.getElementById('layout-summary').textContent = '';"
                    "document.querySelectorAll('#examples button')[arguments[0]].click();", k)
        wait(browser, lambda d: d.find_element("id", "layout-error").text != "pending"
             and d.find_element("id", "layout-summary").text != "")
        assert browser.find_element("id", "layout-error").text == "", name
        assert cell_count(browser) > 0 or painted(browser), name
