"""Benchmark: the explorer in headless Chromium — first paint of huge layouts, hover latency, canvas vs SVG.

Run: ``python bench/explorer.py`` (needs ``chromium``, ``chromedriver`` and
``selenium``, as tests/explorer do; ``--load``: the load part only, no
browser). Prints, in one run:

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

4. load (first, and alone with ``--load``; needs no browser): 8 threads x
   200 requests each, on one keep-alive connection per thread, of a
   realistic mix (``LOAD_MIX``: small layouts of every family, a 65,536-cell
   canvas, huge layouts that are summarised, the metal, algebra and
   encodings panels, the planner): latency p50/p90/p99/max over all 1,600
   requests and the count of 5xx answers; target p99 < 300 ms, no 5xx. Run
   twice: the mix repeated (the server answers a body it has seen from
   memory, as when the page repeats a request) and every body distinct
   (each request computed).
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


BLOCKED = {"kind": "blocked", "params": {"size_per_thread": [1, 2], "threads_per_warp": [8, 4],
                                         "warps_per_cta": [2, 1], "order": [1, 0]}}
#: The load mix: (path, body); huge layouts are summarised by the explorer, never drawn in full.
LOAD_MIX = [
    ("/api/view", {"text": "((2,2),2):((4,1),2)"}),
    ("/api/view", {"text": "Sw<2,0,3> o 0 o (8,8):(8,1)"}),
    ("/api/view", {"text": "#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1)>"}),
    ("/api/view", {"text": "tensor<32x64xf16, #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
                           "warpsPerCTA = [4, 1], order = [1, 0]}>>"}),
    ("/api/view", {"text": "tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
                           "memref<18x32xf32, #tt.memory_space<l1>>>>"}),
    ("/api/view", {"text": "(d0, d1) -> (d0 * 4 + d1, d1 floordiv 2)", "shape": [8, 8]}),
    ("/api/view", {"text": "f32[8,256]{1,0:T(8,128)}"}),
    ("/api/view", {"text": "{devices=[2,1,2]<=[4] last_tile_dim_replicate}", "shape": [8, 6]}),
    ("/api/view", {"text": "SM80_16x8x16_F32F16F16F32_TN (2,2,1)"}),
    ("/api/view", {"text": "(256,256):(256,1)"}),  # 65,536 cells: a canvas
    ("/api/view", {"text": "(4096,4096):(1,4096)"}),  # 2^24 cells: summarised
    ("/api/view", {"text": "#tsl.tsl<[4611686018427387904] -> (1)>"}),  # 2^62 cells: summarised
    ("/api/view", {"text": "f32[1,16777216]{1,0}"}),
    ("/api/view", {"text": "(4,8):(8,"}),  # a parse error: 400
    ("/api/metal", {"shape": "53x63", "grid": "3x2"}),
    ("/api/algebra", {"a": "(4,2):(1,4)", "b": "(2,2):(2,1)", "op": "composition"}),
    ("/api/algebra", {"a": "4611686018427387904:1", "b": "2", "op": "blocked_product"}),
    ("/api/encodings", {"shape": "16x16", "a": BLOCKED, "b": BLOCKED}),
    ("/api/plan", {"shape": "53x63", "mesh": [1, 2], "tile": [32, 32], "top": 5}),
    ("/api/plan", {"shape": "1024x1024", "top": 5}),
]


def load(threads=8, per_thread=200, distinct=False):
    """Latencies (s) of ``threads`` x ``per_thread`` requests of ``LOAD_MIX`` at once, and the 5xx count.

    ``distinct``: every body differs (a request number the API ignores), so no answer comes from the server's
    memory of recent answers: each request is computed.
    """
    import http.client
    import threading

    from unilayout.explorer import serve

    srv = serve(port=0)
    times, errors, lock = [], [], threading.Lock()
    bodies = [(path, json.dumps(body)) for path, body in LOAD_MIX]

    def client(k):
        conn = http.client.HTTPConnection(srv.host, srv.port, timeout=60)
        mine, bad = [], []
        for i in range(per_thread):
            path, body = bodies[(k * 7 + i) % len(bodies)]
            if distinct:
                body = body[:-1] + f', "request": {k * per_thread + i}}}'
            t0 = time.perf_counter()
            try:
                conn.request("POST", path, body, {"Content-Type": "application/json"})
                resp = conn.getresponse()
                resp.read()
                status = resp.status
            except OSError as exc:  # a dropped connection counts as a failure
                status = f"dropped: {exc}"
                conn.close()
                conn = http.client.HTTPConnection(srv.host, srv.port, timeout=60)
            mine.append(time.perf_counter() - t0)
            if not isinstance(status, int) or status >= 500:
                bad.append((path, status))
        conn.close()
        with lock:
            times.extend(mine)
            errors.extend(bad)

    t0 = time.perf_counter()
    workers = [threading.Thread(target=client, args=(k,)) for k in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    wall = time.perf_counter() - t0
    srv.shutdown()
    return sorted(times), errors, wall


def print_load(threads=8, per_thread=200):
    for distinct in (False, True):
        _print_load(threads, per_thread, distinct)


def _print_load(threads, per_thread, distinct):
    times, errors, wall = load(threads, per_thread, distinct)

    def pct(p):
        return times[min(len(times) - 1, int(p * len(times)))] * 1000

    print(f"load, {'every body distinct (all computed)' if distinct else 'the mix repeated (as the page repeats)'}: "
          f"{threads} threads x {per_thread} requests ({len(LOAD_MIX)} kinds, huge layouts and the planner "
          f"included), {len(times)} answers in {wall:.1f} s ({len(times) / wall:.0f}/s)")
    print(f"  latency ms: p50 {pct(0.50):.1f}  p90 {pct(0.90):.1f}  p99 {pct(0.99):.1f}  max {times[-1] * 1000:.1f}"
          f"   (target p99 < 300 ms: {'met' if pct(0.99) < 300 else 'NOT met'})")
    print(f"  5xx or dropped: {len(errors)}" + (f" e.g. {errors[:3]}" if errors else "") + "   (target 0)")


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
    html = html.replace(">8:1</textarea>", f">{text}</textarea>")
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
    print_load()
    if "--load" in sys.argv[1:]:
        return
    print()
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
