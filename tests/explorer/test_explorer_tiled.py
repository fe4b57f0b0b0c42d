"""The explorer draws TiledMMA / TiledCopy descriptions; hovering a thread's cell lights every cell it holds.

In process: ``/api/view`` answers a TiledMMA or TiledCopy text with
``views.tiled_view``, checked against the TV layouts themselves (each cell's
holders recomputed here by evaluating the layouts). In headless Chromium (as
tests/explorer/test_explorer_browser.py, skipped without chromium): typing a
TiledMMA and hovering a C cell lights exactly the cells its thread holds in
A, B and C, and #cell-details names operand and coordinate.
"""

import json

from unilayout import cute
from unilayout.cute.tiled_copy import parse_tiled_copy
from unilayout.explorer.api import handle
from unilayout.explorer.views import tiled_view

from .test_explorer_browser import cell_count, enter, hover, js, shot, wait

MMA_TEXT = "SM80_16x8x16_F32F16F16F32_TN (2,2,1)"
COPY_TEXT = "make_tiled_copy(Copy_Atom<SM75_U32x4_LDSM_N, half_t>, (32,1), (1,8))"


def held(tv, rows):
    """{(row, col): {threads}} of a TV layout over a tile with ``rows`` rows (element m + rows*n)."""
    out = {}
    nt, nv = tv[0].size, tv[1].size
    for t in range(nt):
        for v in range(nv):
            e = int(tv(t + nt * v))
            out.setdefault(divmod(e, rows)[::-1], set()).add(t)
    return out


def view(text):
    status, v = handle("/api/view", json.dumps({"text": text}).encode())
    assert status == 200, v
    return v


def test_a_tiled_mma_text_is_drawn_with_every_operand_cell():
    v = view(MMA_TEXT)
    mma = cute.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
    m, n, k = mma.tile_size_mnk()
    assert v["family"] == "cute.TiledMMA" and v["count"] == m * k + n * k + m * n
    assert v["svg"].count('class="cell"') == v["count"]
    assert [o for o, *_ in v["details"]].count("A") == m * k and [o for o, *_ in v["details"]].count("C") == m * n
    assert dict(v["facts"])["layoutC_TV"] == str(mma.get_layoutC_TV())
    assert list(v["groups"])[0] == "thread"


def test_thread_cells_are_what_the_tv_layouts_give_each_thread():
    mma = cute.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
    m, n, k = mma.tile_size_mnk()
    v = tiled_view(mma)
    want = {"A": held(mma.get_layoutA_TV(), m), "B": held(mma.get_layoutB_TV(), n), "C": held(mma.get_layoutC_TV(), m)}
    for t in (0, 5, 37, 127):
        got = {(v["details"][c][0], v["details"][c][1].split(" = ")[1]) for c in v["thread_cells"][t]}
        exp = {(op, f"({r}, {c})") for op, cells in want.items() for (r, c), ts in cells.items() if t in ts}
        assert got == exp, t
    # each C element is held by exactly one thread; A elements of this tiling by two (the warps along N)
    c_rows = [d for d in v["details"] if d[0] == "C"]
    assert all(len(d[4].split(", ")) == 1 for d in c_rows)
    assert all(len(d[4].split(", ")) == 2 for d in v["details"] if d[0] == "A")


def test_a_tiled_copy_text_is_drawn_source_and_destination():
    v = view(COPY_TEXT)
    tc = parse_tiled_copy(COPY_TEXT)
    assert v["family"] == "cute.TiledCopy" and v["count"] == 2 * 32 * 8
    src = held(tc.get_layoutS_TV(), 32)
    for d in v["details"]:
        if d[0] == "source":
            r, c = map(int, d[1].split(" = ")[1].strip("()").split(", "))
            assert int(d[2]) == min(src[(r, c)])


def test_a_misspelt_atom_is_a_positioned_400():
    status, err = handle("/api/view", json.dumps({"text": "SM80_16x8x16_F32F16F16F32_TX (2,2,1)"}).encode())
    assert status == 400 and "no MMA atom" in err["error"]["message"] and err["error"]["position"] == 0
    status, err = handle("/api/view", json.dumps({"text": "Copy_Atom<SM75_U32x4_LDSM_N, half> (32,1)"}).encode())
    assert status == 400 and err["error"]["position"] == 29


def test_hovering_a_c_cell_lights_its_threads_a_b_and_c_cells(browser, server):
    browser.get(server.url)
    wait(browser, lambda d: js(d, "return document.readyState") == "complete")
    mma = cute.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
    m, n, k = mma.tile_size_mnk()
    enter(browser, MMA_TEXT)
    assert browser.find_element("id", "layout-error").text == ""
    wait(browser, lambda d: cell_count(d) == m * k + n * k + m * n)
    t = 37
    sel = f'#layout-view .cell[data-thread="{t}"][data-operand="2"]'
    text = hover(browser, sel)
    assert "C" in text and "(m, n)" in text
    lit = js(browser, "return Array.from(document.querySelectorAll('#layout-view .cell.same, #layout-view .cell.current'))"
                      ".map(function (c) { return [+c.getAttribute('data-operand'), +c.getAttribute('data-row'),"
                      " +c.getAttribute('data-col')]; })")
    want = set()
    for op, (tv, rows) in enumerate(((mma.get_layoutA_TV(), m), (mma.get_layoutB_TV(), n), (mma.get_layoutC_TV(), m))):
        for (r, c), ts in held(tv, rows).items():
            if t in ts:
                want.add((op, c, r) if op == 1 else (op, r, c))  # B is drawn k x n
    assert {tuple(x) for x in lit} == want
    assert {x[0] for x in lit} == {0, 1, 2}
    shot(browser, "tiled-mma-hover")
    enter(browser, COPY_TEXT)
    wait(browser, lambda d: cell_count(d) == 512)
    hover(browser, '#layout-view .cell[data-thread="3"][data-operand="1"]')
    ops = js(browser, "return Array.from(document.querySelectorAll('#layout-view .cell.same'))"
                      ".map(function (c) { return +c.getAttribute('data-operand'); })")
    assert set(ops) == {0, 1} and len(ops) == 16  # 8 halves read, 8 written
    shot(browser, "tiled-copy-hover")
