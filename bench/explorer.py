"""Benchmark: the explorer in headless Chromium — first paint of huge layouts, hover latency, canvas vs SVG.

Run: ``python bench/explorer.py`` (needs ``chromium``, ``chromedriver`` and
``selenium``, as tests/explorer do). Prints, in one run:

1. first paint of 1024x1024-cell layouts (2^20 cells: a metal layout on 8x8
   cores and Triton's blocked encoding on tensor<1024x1024>) served by
   ``unilayout serve``: from navigation start (the page's own
   ``performance.now()``) to the canvas being painted, the request, the
   server's view and the drawing included; target < 1.5 s (ratio = target /
   time, > 1 meets it);
2. hover: the time the page takes to answer a ``mousemove`` over a cell
   (find the cell, redraw, fill ``#cell-details``), median and worst of 200
   cells at fit and zoomed in; target < 50 ms;
3. the 65,536-cell case (metal 256x256 on 1x1 core), build + load + paint, as
   the canvas page today and as the per-cell SVG page the explorer drew before
   (the same view with its ``<svg>`` of 65,536 ``<g>`` cells, written by
   ``explorer.views`` bypassing the canvas); target: canvas at least 3x faster.

Times are the best of 3 runs.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
import urllib.parse

METAL_1M = ("tensor<1024x1024xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <8x8>, "
            "memref<128x128xf32, #tt.memory_space<l1>>>>")
METAL_64K = ("tensor<256x256xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <1x1>, "
             "memref<256x256xf32, #tt.memory_space<l1>>>>")


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium = os.environ.get("UNILAYOUT_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    driver = os.environ.get("UNILAYOUT_CHROMEDRIVER") or shutil.which("chromedriver")
    if not chromium or not driver:
        sys.exit("needs chromium and chromedriver (apt-get install chromium chromium-driver)")
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1400,1000"):
        opts.add_argument(arg)
    d = webdriver.Chrome(service=Service(driver), options=opts)
    d.set_page_load_timeout(120)
    return d


def wait(d, script, timeout=120.0):
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < timeout:
        v = d.execute_script(script)
        if v:
            return v
        time.sleep(0.01)
    raise TimeoutError(script)


def first_paint(d, url):
    d.get("about:blank")
    d.get(url)
    wait(d, "return window.__unilayoutFirstPaint !== undefined || document.getElementById('layout-error').textContent")
    err = d.execute_script("return document.getElementById('layout-error').textContent")
    if err:
        raise RuntimeError(err)
    return d.execute_script("return window.__unilayoutFirstPaint") / 1000.0


def hover_times(d, zoom):
    return d.execute_script("""
        var v = window.unilayoutExplorer.views['layout-view'].canvas, c = v.c, times = [];
        if (arguments[0]) { v.centerOn(Math.floor(c.rows / 2), Math.floor(c.cols / 2), 30); } else { v.fit(); v.draw(); }
        var b = v.canvas.getBoundingClientRect();
        for (var i = 0; i < 200; i++) {
          var x = Math.round(b.left + 2 + Math.random() * (v.w - 4)), y = Math.round(b.top + 2 + Math.random() * (v.h - 4));
          var t0 = performance.now();
          v.canvas.dispatchEvent(new MouseEvent('mousemove', {clientX: x, clientY: y, bubbles: true}));
          document.getElementById('cell-details').innerHTML.length;
          times.push(performance.now() - t0);
        }
        times.sort(function (a, b) { return a - b; });
        return [times[100], times[199]];
    """, zoom)


def svg_page(text, path):
    """The explorer page as it was before the canvas: the view's per-cell <svg> and details, embedded."""
    from unilayout.explorer import render_html, views
    from unilayout.explorer.adapter import parse_any

    value = parse_any(text)
    view = views.svg_view(value)  # the per-cell SVG view, any size
    html = render_html("8:1")  # the page shell with script and style; swap its data for the big view
    start = html.index('<script id="embedded-view" type="application/json">') + len(
        '<script id="embedded-view" type="application/json">')
    end = html.index("</script>", start)
    data = json.dumps({"text": text, "shape": None, "view": view}).replace("</", "<\\/")
    html = html[:start] + data + html[end:]
    html = html.replace('<div id="layout-view">', '<div id="layout-view">' + view["svg"], 1)
    html = html.replace('value="8:1"', f'value="{text}"')
    with open(path, "w", encoding="utf-8") as f:
        f.write(html)
    return os.path.getsize(path)


def load_svg(d, path, n):
    t0 = time.perf_counter()
    d.get("about:blank")
    d.get("file://" + path)
    wait(d, f"return document.querySelectorAll('#layout-view svg .cell').length >= {n}")
    d.execute_script("return document.body.getBoundingClientRect().height")  # layout done
    return time.perf_counter() - t0


def main():
    from unilayout.explorer import render_html, serve
    from unilayout.linear import encodings as E
    from unilayout.linear import to_attr

    linear_1m = to_attr(E.blocked([1024, 1024], [1, 4], [8, 4], [2, 2], [1, 0]))
    d = browser()
    srv = serve(port=0)
    print("unilayout explorer benchmark (headless Chromium; best of 3)")
    try:
        print()
        print(f"{'layout (2^20 cells)':<34} {'first paint s':>14} {'target 1.5 s':>13}")
        for name, text in (("metal 1024x1024 on 8x8", METAL_1M), ("blocked tensor<1024x1024>", linear_1m)):
            url = srv.url + "?" + urllib.parse.urlencode({"layout": text})
            t = min(first_paint(d, url) for _ in range(3))
            print(f"{name:<34} {t:>14.3f} {1.5 / t:>12.1f}x")
        print()
        print(f"{'hover (200 cells)':<34} {'median ms':>10} {'worst ms':>9} {'target 50 ms':>13}")
        for zoom in (False, True):
            med, worst = hover_times(d, zoom)
            print(f"{'blocked 2^20, ' + ('zoomed in' if zoom else 'fit'):<34} {med:>10.2f} {worst:>9.2f} "
                  f"{50 / max(worst, 1e-3):>12.0f}x")
        print()
        with tempfile.TemporaryDirectory() as tmp:
            old = os.path.join(tmp, "svg.html")
            new = os.path.join(tmp, "canvas.html")
            t_svg = float("inf")
            t_canvas = float("inf")
            for _ in range(3):
                t0 = time.perf_counter()
                size_svg = svg_page(METAL_64K, old)
                build_svg = time.perf_counter() - t0
                t_svg = min(t_svg, build_svg + load_svg(d, old, 65536))
                t0 = time.perf_counter()
                with open(new, "w", encoding="utf-8") as f:
                    f.write(render_html(METAL_64K))
                build = time.perf_counter() - t0
                d.get("about:blank")
                t1 = time.perf_counter()
                d.get("file://" + new)
                wait(d, "return document.getElementById('layout-view').getAttribute('data-painted') === '1'")
                t_canvas = min(t_canvas, build + time.perf_counter() - t1)
            size_canvas = os.path.getsize(new)
            print("65,536-cell metal layout, build + load + paint (offline page):")
            print(f"  per-cell SVG page (before): {t_svg:.3f} s, {size_svg / 1e6:.1f} MB")
            print(f"  canvas page (now):          {t_canvas:.3f} s, {size_canvas / 1e6:.2f} MB")
            print(f"  speed-up {t_svg / t_canvas:.1f}x (target >= 3x), {size_svg / size_canvas:.0f}x smaller")
    finally:
        srv.shutdown()
        d.quit()


if __name__ == "__main__":
    main()
