"""The explorer's answers are lean but say the same: details built column-wise equal the library's per-cell values,
and the compact SVG draws every cell as the scene says once inherited attributes and SVG defaults are resolved.

(The server's p99 under load depends on these answers being cheap to build and send; bench/fuzz.py times it.)
"""

import json
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import unilayout
from unilayout import cute, tt
from unilayout.explorer.adapter import picture
from unilayout.explorer.views import MAX_CELLS, layout_view, text_view
from unilayout.viz.colors import hex_color, text_color
from unilayout.viz.picture import LABEL_PX, grid_scene
from unilayout.viz.svg import to_svg

NS = "{http://www.w3.org/2000/svg}"
SEED_53x63 = tt.MetalLayout.from_collapse((53, 63), (3, 2))


def details(view, k):
    return dict(zip(view["columns"], view["details"][k]))


def drawn_cells(view):
    """``(data-index, data-cell)`` of every cell ``<g>`` of the view's SVG."""
    root = ET.fromstring(view["svg"])
    return [(int(g.get("data-index")), int(g.get("data-cell"))) for g in root.iter(NS + "g")
            if "cell" in g.get("class", "").split()]


@pytest.mark.parametrize("text", ["((2,3),4,(5,)):((1,2),6,(24,))", "(4,(2,2)):(1,(4,8))", "7:3", "((2,2),(4,2)):((1,16),(2,4))",
                                  "Sw<3,4,3> o 5 o (8,64):(64,1)", "Sw<2,0,3> o 0 o ((4,2),8):((8,32),1)"])
def test_cute_details_are_idx2crd_and_the_layout(text):
    L = cute.parse(text)
    composed = isinstance(L, cute.ComposedLayout)
    inner = L.inner if composed else L
    nrows = cute.size(inner[0]) if inner.rank > 1 else 1
    view = text_view(text)
    for i, k in drawn_cells(view):
        d = details(view, k)
        off = L.outer(inner(i) + L.offset) if composed else L(i)
        assert d["index"] == str(i)
        assert d["coordinate"] == str(cute.idx2crd(i, inner.shape)).replace(" ", "")
        assert d["(row, col) = (thread, value) of a TV layout"] == str((i % nrows, i // nrows))
        assert d["offset"] == str(off) and d["bank (4-byte words, 32 banks)"] == str(off % 32)
        if composed:
            assert d["offset before the swizzle"] == str(inner(i) + L.offset)


@pytest.mark.parametrize("ml", [SEED_53x63, tt.MetalLayout.from_collapse((40, 30), (1, 1), tile=(32, 32)),
                                tt.MetalLayout.from_collapse((4, 6, 10), (3, 2)),
                                tt.MetalLayout.from_collapse((20, 4), (10, 1))], ids=str)
def test_metal_details_are_each_slot_s(ml):
    view = layout_view(ml)
    full = tuple(ml.grid) + tuple(ml.padded_shard_shape)
    r = len(ml.grid)
    owner = np.full(int(np.prod(full)), -1)
    owner[ml.index_map()] = np.arange(ml.volume)
    try:
        cores = tt.Device.from_mesh(tt.SystemDesc.wormhole_b0(1), (1, 1)).place(ml).cores.reshape(-1, 3)
    except unilayout.LayoutError:
        cores = None
    for i, k in drawn_cells(view):
        d = details(view, k)
        slot = tuple(int(v) for v in np.unravel_index(k, full))
        G, q = slot[:r], slot[r:]
        assert d["offset (position in shard())"] == str(k) and owner[k] == i
        assert d["grid coordinate (core)"] == str(G) and d["shard coordinate"] == str(q)
        beyond = any(q[j] >= ml.shard_shape[j] for j in range(r))
        if i < 0:
            assert d["logical index"] == "padding"
            assert d["padding"] == ("yes (tile padding)" if beyond else "yes (beyond the tensor)")
        else:
            x = tuple(int(v) for v in np.unravel_index(i, ml.logical_shape))
            assert d["logical index"] == str(x) and d["padding"] == "no" and ml.locate(*x) == (G, q)
        if ml.tile is not None:
            th, tw = ml.tile
            assert d["tile coordinate"] == str(q[:-2] + (q[-2] // th, q[-1] // tw))
            assert d["in-tile coordinate"] == str((q[-2] % th, q[-1] % tw))
        g = int(np.ravel_multi_index(G, ml.grid))
        where = "(grid larger than one 8x8 chip: not placed)" if cores is None else \
            f"chip {cores[g][0]}, core ({cores[g][1]}, {cores[g][2]})"
        assert d["chip and core (y, x)"] == where


def test_affine_tsl_and_device_details_are_the_values():
    m = unilayout.parse("(d0, d1, d2) -> (d2, d0 + d1)")
    view = layout_view(m, (2, 3, 4))
    for i, k in drawn_cells(view):
        crd = tuple(int(v) for v in np.unravel_index(i, (2, 3, 4)))
        assert view["details"][k] == [str(i), str(crd), str(tuple(int(v) for v in m(*crd)))]
    t = unilayout.parse("#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5>")
    view = layout_view(t)
    addr = unilayout.index_map(t)
    for i, k in drawn_cells(view):
        crd = tuple(int(v) for v in np.unravel_index(i, (8, 8)))
        assert view["details"][k] == [str(i), str(crd), str((crd[0] // 4, crd[1] // 4)), str(int(addr[i]))]
    dev = unilayout.parse("#tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1 floordiv 2)>, "
                          "meshShape = 1, chipIds = [0]>")
    view = layout_view(dev)
    cores = np.asarray(dev.physical_cores()).reshape(-1, 3)
    for i, k in drawn_cells(view):
        assert view["details"][k] == [str(divmod(i, 8)), str(cores[i, 0]), str((int(cores[i, 1]), int(cores[i, 2])))]


def _resolved(root):
    """Every element with its presentation attributes as drawn: inherited from its ancestors, SVG defaults filled."""
    out = []

    def walk(el, inherited):
        own = dict(el.attrib)
        here = {**inherited, **{k: v for k, v in own.items() if k in ("fill", "stroke", "font-size", "text-anchor",
                                                                        "stroke-width")}}
        out.append((el, {"fill": "#000000", "stroke": "none", "stroke-width": "1", "text-anchor": "start",
                         **here, **own}))
        for ch in el:
            walk(ch, here)

    walk(root, {})
    return out


def _colour(c):
    return {"#fff": "#ffffff", "#000": "#000000"}.get(c, c)


@pytest.mark.parametrize("scene", [
    picture(SEED_53x63, None, max_cells=MAX_CELLS, labels=True),
    picture(unilayout.parse("Sw<3,4,3> o 0 o (8,64):(64,1)"), None, max_cells=MAX_CELLS, labels=True),
    grid_scene("dark & light", 2, 2, labels=[["1", "<2>"], ["T0\nV1", ""]]),
], ids=["metal", "swizzle", "grid"])
def test_compact_svg_draws_what_the_scene_says(scene):
    if scene.title == "dark & light":
        scene.fill[0, 0] = (8, 69, 148)  # white ink on this one
    root = ET.fromstring(to_svg(scene))
    cells = [(el, a) for el, a in _resolved(root) if el.tag == NS + "g" and "cell" in a.get("class", "").split()]
    rr, cc = np.nonzero(scene.drawn)
    assert len(cells) == rr.size
    resolved = dict((id(el), a) for el, a in _resolved(root))
    for (g, _), r, c in zip(cells, rr.tolist(), cc.tolist()):
        rect = g.find(NS + "rect")
        a = resolved[id(rect)]
        assert (float(a["x"]), float(a["y"])) == pytest.approx((scene.col_x[c], scene.row_y[r]), abs=0.05)
        assert (float(a["width"]), float(a["height"])) == pytest.approx((scene.cell_w, scene.cell_h), abs=0.05)
        assert _colour(a["fill"]) == hex_color(scene.fill[r, c])
        assert _colour(a["stroke"]) == "#ffffff" and float(a["stroke-width"]) == 1
        text = g.find(NS + "text")
        label = str(scene.labels[r, c])
        assert (text is not None) == bool(label)
        if text is None:
            continue
        t = resolved[id(text)]
        assert float(t["font-size"]) == (LABEL_PX - 1 if "\n" in "".join(map(str, scene.labels.ravel())) else LABEL_PX)
        assert t["text-anchor"] == "middle" and _colour(t["stroke"]) != "#ffffff"
        assert _colour(t["fill"]) == ("#ffffff" if text_color([scene.fill[r, c]])[0, 0] else "#000000")
        spans = text.findall(NS + "tspan")
        assert ("\n".join(s.text for s in spans) if spans else text.text) == label
        x = float(spans[0].get("x") if spans else t["x"])
        assert x == pytest.approx(scene.col_x[c] + scene.cell_w / 2, abs=0.05)


def test_the_53x63_metal_answer_is_lean():
    view = layout_view(SEED_53x63)
    svg = view["svg"]
    n = svg.count('class="cell')
    assert n == 3456 and svg.count("font-size") < 700 and svg.count("stroke-width") < 20  # said once, not per cell
    size = len(json.dumps(view, separators=(",", ":")))
    assert size < 1_100_000, size  # was 1.39 MB with every attribute on every cell
