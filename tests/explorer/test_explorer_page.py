"""The layout box of the page (issue 23): multi-line text (TTGIR alias lines), a mesh field for Shardy shardings,
nothing of one view left over in the next, a TiledMMA's picture shown whole (not clipped).

The API checks run without a browser; the page checks drive headless
Chromium (``conftest.browser``) and save screenshots to ``artifacts/``.
"""

import json
import time
import urllib.parse

from unilayout.explorer import render_html
from unilayout.explorer.api import handle, mesh_of

from .conftest import ARTIFACTS

TTGIR = ("#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], "
         "order = [1, 0]}>\ntensor<32x64xf16, #blocked>")
SHARDY = '#sdy.sharding<@mesh, [{"a"}, {"b"}]>'


def view(body):
    status, out = handle("/api/view", json.dumps(body).encode())
    return status, out


def test_the_mesh_field_gives_a_shardy_sharding_its_mesh_as_axes_or_text():
    for mesh in ("a=2,b=4", "a = 2, b = 4", 'sdy.mesh @mesh = <["a"=2, "b"=4]>', '<["a"=2, "b"=4]>'):
        status, out = view({"text": SHARDY, "shape": "8x8", "mesh": mesh})
        assert status == 200, (mesh, out)
        assert out["family"] == "sharding" and out["count"] == 8 and "over 8 devices" in out["summary"]
    status, out = view({"text": "Shard(0), Replicate()", "shape": "4x2", "mesh": "2x2"})  # placements: mesh sizes
    assert status == 200 and "over 4 devices" in out["summary"]
    status, out = view({"text": SHARDY, "shape": "8x8"})
    assert status == 400 and "mesh" in out["error"]["message"]
    assert mesh_of({"mesh": "x=2"}) == ('<["x"=2]>', None)


def test_a_multi_line_ttgir_text_with_alias_lines_is_one_layout():
    status, out = view({"text": TTGIR})
    assert status == 200 and out["family"] == "linear" and out["count"] == 32 * 64


def test_the_offline_page_puts_multi_line_text_in_the_layout_box():
    html = render_html(TTGIR)
    box = html[html.index('<textarea id="layout-input"'):]
    assert box[box.index(">") + 1:box.index("</textarea>")] == TTGIR.replace("<", "&lt;").replace(">", "&gt;")


def wait(driver, predicate, timeout=15):
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < timeout:
        v = predicate(driver)
        if v:
            return v
        time.sleep(0.05)
    raise AssertionError("timed out")


def show(driver, server, **query):
    driver.get(server.url + "?" + urllib.parse.urlencode(query))
    return wait(driver, lambda d: d.execute_script(
        "return document.getElementById('layout-summary').textContent || "
        "document.getElementById('layout-error').textContent"))


def test_the_layout_box_takes_lines_and_shows_them_as_one_layout(server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    show(browser, server, layout="8:1")
    box = browser.find_element(By.ID, "layout-input")
    assert box.tag_name == "textarea"
    browser.execute_script("arguments[0].value = '';", box)
    first, second = TTGIR.split("\n")
    box.send_keys(first)
    box.send_keys(Keys.SHIFT, Keys.ENTER)  # a new line, not a request
    box.send_keys(second)
    assert box.get_attribute("value") == TTGIR
    box.send_keys(Keys.ENTER)
    summary = wait(browser, lambda d: d.execute_script(
        "var s = document.getElementById('layout-summary').textContent; return s.indexOf('linear') === 0 && s;"))
    assert "2048 cells" in summary
    assert urllib.parse.parse_qs(urllib.parse.urlparse(browser.current_url).query)["layout"] == [TTGIR]
    browser.save_screenshot(str(ARTIFACTS / "page-ttgir.png"))


def test_the_mesh_field_is_sent_and_kept_in_the_url(server, browser):
    summary = show(browser, server, layout=SHARDY, shape="8x8", mesh="a=2,b=4")
    assert "over 8 devices" in summary
    assert browser.find_element("id", "layout-mesh").get_attribute("value") == "a=2,b=4"
    browser.save_screenshot(str(ARTIFACTS / "page-shardy-mesh.png"))


def test_an_error_leaves_nothing_of_the_previous_view(server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    show(browser, server, layout="tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
                                 "memref<18x32xf32, #tt.memory_space<l1>>>>")
    state = ("var $ = function (i) { return document.getElementById(i); };"
             "return [$('layout-view').innerHTML.length, $('facts-box').hidden, $('core-table-box').hidden,"
             " $('group-by').options.length, $('layout-summary').textContent, $('layout-error').textContent];")
    before = browser.execute_script(state)
    assert before[0] > 0 and before[1] is False and before[2] is False and before[3] > 0 and before[4]
    box = browser.find_element(By.ID, "layout-input")
    browser.execute_script("arguments[0].value = '';", box)
    box.send_keys("(4,8):(8,")
    box.send_keys(Keys.ENTER)
    wait(browser, lambda d: d.execute_script("return document.getElementById('layout-error').textContent"))
    after = browser.execute_script(state)
    assert after[:5] == [0, True, True, 0, ""] and "position 9" in after[5]
    browser.save_screenshot(str(ARTIFACTS / "page-error-clears.png"))
    show(browser, server, layout="(4,8):(8,1)")  # and the next good answer clears the error
    assert browser.execute_script(state)[5] == ""


def test_a_tiled_mma_picture_is_shown_whole(server, browser):
    show(browser, server, layout="SM80_16x8x16_F32F16F16F32_TN (2,2,1)")
    box, svg = browser.execute_script(
        "var v = document.getElementById('layout-view'), r = v.getBoundingClientRect(), s = v.querySelector('svg');"
        "var q = s.getBoundingClientRect();"
        "return [[v.scrollWidth, v.clientWidth, v.scrollHeight, v.clientHeight, r.left, r.right],"
        "        [q.left, q.right, q.width, q.height, +s.getAttribute('width'), +s.getAttribute('height')]];")
    assert svg[4] > box[1]  # the picture is wider than the box ...
    assert box[0] <= box[1] and box[2] <= box[3]  # ... yet nothing of it needs scrolling: not clipped
    assert box[4] <= svg[0] and svg[1] <= box[5]
    assert abs(svg[3] / svg[2] - svg[5] / svg[4]) < 0.01  # scaled, not squeezed
    browser.save_screenshot(str(ARTIFACTS / "page-tiled-mma.png"))


def test_the_code_box_shows_the_layouts_code_in_the_chosen_language(server, browser):
    # issue 29: the explorer's code tab with a language switch
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from unilayout import codegen, cute

    show(browser, server, layout="Sw<3,3,3> o 0 o (8,64):(64,1)")
    browser.execute_script("document.getElementById('code-box').open = true;")
    code = wait(browser, lambda d: d.execute_script("return document.getElementById('layout-code').textContent;"))
    assert code == codegen.emit(cute.parse("Sw<3,3,3> o 0 o (8,64):(64,1)"), "c")
    Select(browser.find_element(By.ID, "code-lang")).select_by_value("triton")
    code = wait(browser, lambda d: d.execute_script(
        "var t = document.getElementById('layout-code').textContent; return t.indexOf('@triton.jit') >= 0 && t;"))
    assert "t0 ^ ((t0 & 448) >> 3)" in code
    Select(browser.find_element(By.ID, "code-lang")).select_by_value("mlir-affine")
    err = wait(browser, lambda d: d.execute_script("return document.getElementById('code-error').textContent;"))
    assert "XOR is not quasi-affine" in err
    Select(browser.find_element(By.ID, "code-lang")).select_by_value("python")
    wait(browser, lambda d: d.execute_script("return document.getElementById('layout-code').textContent;"))
    browser.save_screenshot(str(ARTIFACTS / "page-code.png"))
    browser.execute_script("var b = document.getElementById('layout-input'); b.value = '(4,8):(8,1)';")
    browser.find_element(By.ID, "layout-apply").click()  # a new layout: the open box follows it
    code = wait(browser, lambda d: d.execute_script(
        "var t = document.getElementById('layout-code').textContent; return t.indexOf('(4,8):(8,1)') >= 0 && t;"))
    assert "(i0 << 3) + i1" in code


def test_a_shape_the_value_ignores_is_not_carried_to_the_next_view(server, browser):
    # issue 23: no field of one view leaks into the next
    status, out = view({"text": "(4,8):(8,1)", "shape": "4x4"})
    assert status == 200 and out["uses_shape"] is False
    status, out = view({"text": "(d0) -> (d0 * 2)", "shape": "8"})
    assert status == 200 and out["uses_shape"] is True
    show(browser, server, layout="(4,8):(8,1)", shape="4x4")
    assert wait(browser, lambda d: d.execute_script("return document.getElementById('affine-shape').value === '';"))
    assert "shape" not in urllib.parse.parse_qs(urllib.parse.urlparse(browser.current_url).query)
