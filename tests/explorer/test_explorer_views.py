"""The explorer's views: every family's cells, their details and groups agree with the library."""

import json
import re
import time

import numpy as np
import pytest

import unilayout
from unilayout import LayoutError, ParseError, cute, linear, tt
from unilayout.explorer import handle, layout_view, render_html, text_view
from unilayout.explorer.views import LABELLED_CELLS, MAX_CELLS

SEED_53x63 = ("tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
              "memref<18x32xf32, #tt.memory_space<l1>>>>")
#: The headline tensor of the tt-mlir seed: 2x4 cores of 192x32, 49,152 slots (more than LABELLED_CELLS).
SEED_BIG = ("tensor<2x3x64x128xf32, #tt.metal_layout<(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3), "
            "undef, <2x4>, memref<192x32xf32, #tt.memory_space<l1>>>>")
SEED_53x63_TILED = ("tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
                    "memref<1x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>")

CELL = re.compile(r'<g class="(cell(?: padding)?)" data-index="(-?\d+)"[^>]*data-cell="(\d+)"')


def cells(view):
    """(class, data-index, data-cell) of every drawn cell, in document order."""
    return [(m.group(1), int(m.group(2)), int(m.group(3))) for m in CELL.finditer(view["svg"])]


def details(view, k):
    return dict(zip(view["columns"], view["details"][k]))


TEXTS = {
    "cute": "((2,2),2):((4,1),2)",
    "swizzle": "Sw<2,0,3> o 0 o (8,8):(8,1)",
    "linear": "#ttg.linear<{register = [[0, 1], [0, 4], [4, 0]], lane = [[0, 2], [1, 0], [2, 0]], warp = [], "
              "block = []}>",
    "affine": "(d0, d1) -> (d0 * 4 + d1, d1 floordiv 2)",
    "tsl": "#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5>",
    "metal": SEED_53x63,
    "device": "#tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, "
              "meshShape = 1x2, chipIds = [0, 1]>",
}


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_every_cell_is_drawn_once_with_its_domain_position(name):
    view = text_view(TEXTS[name])
    drawn = cells(view)
    assert len(drawn) == view["count"] > 0
    assert sorted(k for _, _, k in drawn) == list(range(view["count"]))
    assert view["family"] == unilayout.family_of(unilayout.parse(TEXTS[name]))
    index = sorted(i for cls, i, _ in drawn if cls == "cell")
    if name == "device":
        assert index == list(range(view["count"]))
    elif name == "affine":  # drawn on the default 4x4 box
        assert index == list(range(16))
    else:  # data-index enumerates the domain of index_map exactly once
        n = len(unilayout.index_map(unilayout.parse(TEXTS[name])))
        assert index == list(range(n))
    for name_, values in view["groups"].items():
        assert len(values) == view["count"], name_
    json.dumps(view)  # JSON-ready


def test_cute_details_are_the_layout_values():
    L = cute.parse(TEXTS["cute"])
    view = text_view(TEXTS["cute"])
    for _, i, k in cells(view):
        d = details(view, k)
        assert int(d["index"]) == i
        assert int(d["offset"]) == L(i)
        assert d["coordinate"] == str(cute.idx2crd(i, L.shape)).replace(" ", "")
        assert int(d["bank (4-byte words, 32 banks)"]) == L(i) % 32
    same = view["groups"]["offset"]
    offs = [int(details(view, k)["offset"]) for k in range(view["count"])]
    assert all((same[a] == same[b]) == (offs[a] == offs[b]) for a in range(8) for b in range(8))


def test_swizzled_offsets_include_the_swizzle():
    C = cute.parse(TEXTS["swizzle"])
    view = text_view(TEXTS["swizzle"])
    offs = [int(details(view, k)["offset"]) for k in range(view["count"])]
    assert offs == [C(i) for i in range(64)]
    assert sorted(offs) == list(range(64)) and offs != [cute.parse("(8,8):(8,1)")(i) for i in range(64)]


def test_bare_swizzle_is_drawn_as_its_block():
    view = text_view("Sw<2,0,2>")
    C = cute.ComposedLayout(cute.Swizzle(2, 0, 2), 0, cute.Layout((4, 4), (4, 1)))
    assert view["count"] == 16 and view["text"] == str(C)
    assert [int(details(view, k)["offset"]) for k in range(16)] == [C(i) for i in range(16)]


def test_linear_cells_name_their_holders():
    L = linear.parse(TEXTS["linear"])
    view = text_view(TEXTS["linear"])
    assert view["count"] == 64 and view["columns"][:2] == ["tensor coordinate", "input index"]
    for _, i, k in cells(view):
        d = details(view, k)
        hw = {n: int(d[n]) for n in ("register", "lane", "warp", "block")}
        out = L.apply(hw)
        assert d["tensor coordinate"] == f"({out['dim0']}, {out['dim1']})"
        assert int(d["thread"]) == hw["lane"] + 8 * hw["warp"]
        flat = hw["register"] + 8 * (hw["lane"] + 8 * (hw["warp"] + hw["block"]))
        assert flat == i == int(d["input index"])
    # The thread group gathers exactly the 8 registers of each of the 8 threads.
    assert sorted(np.bincount(view["groups"]["thread"]).tolist()) == [8] * 8


def test_broadcast_linear_layout_lists_every_holder():
    text = "#ttg.linear<{register = [[1, 0]], lane = [[0, 1], [0, 0]], warp = [], block = []}>"
    view = text_view(text)
    assert view["count"] == 4
    assert {details(view, k)["holders"] for k in range(4)} == {"T0:0 T2:0", "T1:0 T3:0", "T0:1 T2:1", "T1:1 T3:1"}


def test_affine_box_and_results():
    view = text_view(TEXTS["affine"], shape=(3, 5))
    assert view["count"] == 15
    m = unilayout.parse(TEXTS["affine"])
    for _, i, k in cells(view):
        d0, d1 = divmod(i, 5)
        assert details(view, k)["results"] == "(" + ", ".join(map(str, m(d0, d1))) + ")"
    with pytest.raises(LayoutError, match="2 dims but the shape"):
        text_view(TEXTS["affine"], shape=(3,))


def test_tsl_addresses_and_tiles():
    t = unilayout.parse(TEXTS["tsl"])
    view = text_view(TEXTS["tsl"])
    for _, i, k in cells(view):
        d = details(view, k)
        assert int(d["address"]) == t(*divmod(i, 8))
    assert sorted(np.bincount(view["groups"]["tile"]).tolist()) == [16] * 4


@pytest.mark.parametrize("text, padding", [(SEED_53x63, 117)])
def test_seed_53x63_padding_per_core(text, padding):
    ml = unilayout.parse(text)
    view = text_view(text)
    drawn = cells(view)
    pads = [k for cls, _, k in drawn if cls == "cell padding"]
    assert len(pads) == view["padding"] == padding == int(ml.padding_mask().sum())
    assert all(i == -1 for cls, i, _ in drawn if cls == "cell padding")
    slots = ml.index_map()
    for cls, i, k in drawn[::7]:
        d = details(view, k)
        if cls == "cell padding":
            assert d["logical index"] == "padding" and d["padding"].startswith("yes")
            continue
        x = tuple(int(v) for v in np.unravel_index(i, ml.logical_shape))
        G, q = ml.locate(*x)
        assert d["logical index"] == str(x)
        assert d["grid coordinate (core)"] == str(G) and d["shard coordinate"] == str(q)
        assert int(d["offset (position in shard())"]) == slots[i] == k
        assert d["padding"] == "no"
        assert d["chip and core (y, x)"] == f"chip 0, core ({G[0]}, {G[1]})"
    # The last row of cores holds 18 - 17 = 1 padding row; the last column 64 - 63 = 1 column.
    shard = view["groups"]["shard"]
    per_core = np.bincount([shard[k] for k in pads], minlength=6).tolist()
    assert [int(r[4]) for r in view["cores"]["rows"]] == per_core
    if padding == 117:
        assert per_core == [0, 18, 0, 18, 32, 49]
        assert [r[2] for r in view["cores"]["rows"]] == ["18x32", "18x31"] * 2 + ["17x32", "17x31"]


def test_tiled_metal_details_give_tile_coordinates():
    ml = tt.MetalLayout.from_collapse((40, 70), (1, 2), tile=(32, 32))
    view = layout_view(ml)
    for _cls, _i, k in cells(view)[::13]:
        d = details(view, k)
        q = tuple(int(v) for v in d["shard coordinate"].strip("()").split(", "))
        assert d["tile coordinate"] == str((q[0] // 32, q[1] // 32))
        assert d["in-tile coordinate"] == str((q[0] % 32, q[1] % 32))


def _slot_owner(ml):
    """data-index each slot of ``shard()``'s output should carry: its logical element, -1 for padding."""
    pos = unilayout.index_map(ml)
    owner = np.full(int(np.prod(ml.shards_shape)), -1, dtype=np.int64)
    owner[pos] = np.arange(pos.size)
    return owner


def canvas_arrays(view):
    """The canvas payload's per-cell arrays, decoded (row-major over the picture grid)."""
    from unilayout.explorer.canvas import decode

    c = view["canvas"]
    return {name: decode(d).reshape(c["rows"], c["cols"]) for name, d in c["arrays"].items()}


def test_views_above_svg_cells_are_canvas_pictures():
    from unilayout.explorer.canvas import SVG_CELLS

    small = text_view(SEED_53x63)  # 3,456 cells: the design.md <svg> hooks
    assert small["count"] == 3456 <= SVG_CELLS and "canvas" not in small and small["svg"].startswith("<svg")
    big = text_view(SEED_53x63_TILED)  # 6,144 cells: a canvas, no per-cell markup or details
    assert big["count"] == 6144 > SVG_CELLS and big["svg"] == "" and big["details"] == []
    assert len(json.dumps(big)) < 200_000 and big["canvas"]["rows"] * big["canvas"]["cols"] == 6144


@pytest.mark.parametrize("text", [SEED_53x63_TILED, SEED_BIG])
def test_metal_canvas_cells_are_the_slots_of_shard(text):
    ml = unilayout.parse(text)
    view = text_view(text)
    a = canvas_arrays(view)
    drawn = a["color"] > 0
    owner = _slot_owner(ml)
    assert view["count"] == int(drawn.sum()) == owner.size
    # every slot once, carrying the logical element shard() puts there (-1: padding)
    assert sorted(a["slot"][drawn].tolist()) == list(range(owner.size))
    assert (a["index"][drawn] == owner[a["slot"][drawn]]).all()
    assert (a["padding"][drawn].astype(bool) == (owner[a["slot"][drawn]] < 0)).all()
    assert view["padding"] == int((owner < 0).sum()) == ml.padding_summary().total
    # padding has the PNG's padding colour
    from unilayout.viz.colors import PADDING, hex_color

    pal = view["canvas"]["palette"]
    assert {pal[k] for k in a["color"][a["padding"].astype(bool)].tolist()} <= {hex_color(PADDING)}
    assert "canvas" in view["note"] and view["cores"]["rows"]


def _slot_owner(ml):
    """data-index each slot of ``shard()``'s output should carry: its logical element, -1 for padding."""
    pos = unilayout.index_map(ml)
    owner = np.full(int(np.prod(ml.shards_shape)), -1, dtype=np.int64)
    owner[pos] = np.arange(pos.size)
    return owner


def test_big_padded_metal_layout_marks_its_padding():
    ml = tt.MetalLayout.from_collapse((197, 150), (3, 4))
    a = canvas_arrays(layout_view(ml))
    drawn = a["color"] > 0
    owner = _slot_owner(ml)
    assert (a["index"][drawn] == owner[a["slot"][drawn]]).all() and int(a["padding"].sum()) == int((owner < 0).sum())


@pytest.mark.parametrize("text, shape", [
    ("(1000,1000):(1,1000)", None),
    ("Sw<3,4,3> o 0 o (512,512):(512,1)", None),
    ("#tsl.tsl<[16, 64] -> (1, 16), [8, 128] -> (1024, 8192)>", None),
    ("(d0, d1) -> (d0 + d1 * 7, d1 floordiv 3)", (300, 300)),
    ("tensor<300x300xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <4x4>, memref<75x75xf32, "
     "#tt.memory_space<l1>>>>", None),
])
def test_big_layouts_are_drawn_whole_on_the_canvas(text, shape):
    value = unilayout.parse(text)
    view = text_view(text, shape)
    full = unilayout.index_map(value) if shape is None else value.index_map(shape)
    n = int(np.prod(shape)) if shape else len(full)
    full = np.asarray(full).reshape(n, -1)
    a = canvas_arrays(view)
    drawn = a["color"] > 0
    idx = a["index"][drawn]
    assert view["total"] == view["count"] == n > MAX_CELLS // 16
    assert sorted(idx.tolist()) == list(range(n))  # every domain point exactly once
    if view["family"] == "metal":
        assert (a["slot"][drawn] == full[idx, 0]).all()
    else:
        assert (a["value"][drawn] == full[idx, 0]).all()  # the picture's value is the layout's


def test_huge_layouts_are_cropped_or_summarised_not_refused():
    from unilayout.explorer.views import MAX_CANVAS_CELLS

    cases = [
        ("(4096,4096):(1,4096)", None, "showing rows 0..127 and columns 0..127 of 4096x4096"),
        ("tensor<4096x4096xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <1x1>, "
         "memref<4096x4096xf32, #tt.memory_space<l1>>>>", None, "summary"),
        ("#tsl.tsl<[1048576, 1048576] -> (1048576, 1), [1048576] -> (1)>", None, "showing rows"),
        ("(d0, d1) -> (d0 + d1)", (1 << 30, 1 << 30), "showing rows"),
    ]
    for text, shape, note in cases:
        start = time.perf_counter()
        view = text_view(text, shape)
        assert time.perf_counter() - start < 1.0, text  # summarised: a block of CROP_CELLS (issue 30)
        assert view["count"] <= MAX_CANVAS_CELLS < view["total"] and note in view["note"], text
        status, answer = handle("/api/view", json.dumps({"text": text, "shape": list(shape) if shape else None}).encode())
        assert status == 200 and answer["count"] == view["count"]
    metal = text_view(cases[1][0])
    assert metal["canvas"]["cell_class"] == "core" and metal["count"] == 1
    # a CuTe layout of 2^80 cells: its top-left block is drawn, with exact offsets
    view = text_view("(1099511627776,1099511627776):(1099511627776,1)")
    assert view["total"] == 1 << 80 and "showing rows 0..127 and columns 0..127" in view["note"]
    a = canvas_arrays(view)
    drawn = a["color"] > 0
    L = cute.parse("(1099511627776,1099511627776):(1099511627776,1)")
    for i, v in list(zip(a["index"][drawn].tolist(), a["value"][drawn].tolist()))[::99991]:
        assert L(int(i)) == int(v)


@pytest.mark.parametrize("text", ["", "   ", "(2,2):(1,", "#tsl.tsl<[2, 4] -> (32, 4)", "tensor<53x63xf32",
                                  "hello", "__import__('os').system('true')"])
def test_malformed_text_is_a_positioned_parse_error(text):
    with pytest.raises(ParseError) as info:
        text_view(text)
    assert 0 <= info.value.position <= len(text)


def test_requests_answer_views_or_4xx_messages():
    status, view = handle("/api/view", json.dumps({"text": TEXTS["cute"]}).encode())
    assert status == 200 and view["count"] == 8
    status, err = handle("/api/view", json.dumps({"text": "(2,2):(1,"}).encode())
    assert status == 400 and err["error"]["position"] == 9 and err["error"]["text"] == "(2,2):(1,"
    for body, status_ in [(b"not json", 400), (b"[]", 400), (b'{"text": 5}', 400), (b"\xff\xfe", 400),
                          (b'{"text": "' + b"1" * 70000 + b'"}', 413)]:
        status, err = handle("/api/view", body)
        assert status == status_ and err["error"]["message"], body[:20]
    status, err = handle("/api/view", json.dumps({"text": "8:1" + " " * 9000}).encode())
    assert status == 413 and "at most" in err["error"]["message"]
    assert handle("/api/shutdown", b"{}")[0] == 404


def test_metal_builder_request():
    status, view = handle("/api/metal", json.dumps({"shape": "53x63", "grid": "3x2"}).encode())
    assert status == 200 and view["padding"] == 117
    assert unilayout.parse(view["text"]) == tt.MetalLayout.from_collapse((53, 63), (3, 2))
    body = {"shape": [2, 3, 32, 64], "grid": [2, 2, 2], "collapse": "1,-1", "tile": "32x32", "oob_val": "zero"}
    status, view = handle("/api/metal", json.dumps(body).encode())
    assert status == 200, view
    ml = tt.MetalLayout.from_collapse((2, 3, 32, 64), (2, 2, 2), [(1, -1)], tile=(32, 32), oob_val="zero")
    assert unilayout.parse(view["text"]) == ml
    assert view["count"] == 8 * 64 * 32 and view["padding"] == int(ml.padding_mask().sum()) > 0
    body = {"shape": [2, 8, 32], "grid": [1, 2], "alignments": "1x32x1"}
    status, view = handle("/api/metal", json.dumps(body).encode())
    assert status == 200 and "d0 * 32 + d1" in view["text"]
    for bad, field in [({"shape": "53x63"}, "grid"), ({"shape": "53xa", "grid": "3x2"}, "shape"),
                       ({"shape": "53x63", "grid": "3x2", "oob_val": "nan"}, "shape"),
                       ({"shape": "53x63", "grid": "3x2", "collapse": "0"}, "collapse"),
                       ({"shape": "53x63", "grid": "0x2"}, "grid")]:
        status, err = handle("/api/metal", json.dumps(bad).encode())
        assert status == 400 and err["error"]["message"] and err["error"]["field"] == field, (bad, err)


def test_algebra_request_matches_cute():
    status, out = handle("/api/algebra", json.dumps({"a": "(4,2):(1,4)", "b": "(2,2):(2,1)",
                                                     "op": "logical_divide"}).encode())
    assert status == 200
    expected = cute.logical_divide(cute.parse("(4,2):(1,4)"), cute.parse("(2,2):(2,1)"))
    assert out["text"] == str(expected) and out["result"]["count"] == cute.size(expected)
    assert out["a"]["count"] == 8 and out["b"]["count"] == 4
    status, out = handle("/api/algebra", json.dumps({"a": "4:2", "b": "16", "op": "complement"}).encode())
    assert status == 200 and out["text"] == str(cute.complement(cute.parse("4:2"), 16)) and out["b"] is None
    for bad in [{"a": "4:2", "b": "2:1", "op": "eval"}, {"a": "(d0) -> (d0)", "b": "2:1", "op": "composition"},
                {"a": "4:2", "b": "(2,", "op": "composition"}]:
        status, err = handle("/api/algebra", json.dumps(bad).encode())
        assert status == 400 and err["error"]["message"]


def test_encodings_request_gives_conversion_levels():
    from unilayout.linear import analysis
    from unilayout.linear import encodings as E

    a = {"kind": "blocked", "params": {"size_per_thread": [1, 2], "threads_per_warp": [8, 4], "warps_per_cta": [2, 1],
                                       "order": [1, 0]}}
    b = {"kind": "nvidia_mma", "params": json.dumps({"version": [2, 0], "warps_per_cta": [2, 1],
                                                    "instr_shape": [16, 8]})}
    status, out = handle("/api/encodings", json.dumps({"shape": "16x16", "a": a, "b": b}).encode())
    assert status == 200, out
    La = E.blocked([16, 16], [1, 2], [8, 4], [2, 1], [1, 0])
    Lb = E.nvidia_mma([16, 16], [2, 0], [2, 1], [16, 8])
    assert out["level"] == analysis.conversion_level(La, Lb)
    assert out["levels"] == list(analysis.conversion_levels(La, Lb))
    assert linear.parse(out["a"]["text"]) == La and out["b"]["count"] == 256
    status, out = handle("/api/encodings", json.dumps({"shape": [16, 16], "a": a, "b": {
        "kind": "swizzled_shared", "params": {"vec": 2, "per_phase": 1, "max_phase": 4, "order": [1, 0]}}}).encode())
    assert status == 200 and out["level"] == "shared" and "bank" in out["notes"][0]
    for bad in [{"shape": [16, 16], "a": {"kind": "os.system", "params": {}}},
                {"shape": [16, 16], "a": {"kind": "blocked", "params": {"size_per_thread": [1, 2], "evil": 1}}},
                {"shape": [16, 16], "a": {"kind": "blocked", "params": {"size_per_thread": [1, 2]}}},
                {"shape": [16, 16], "a": {"kind": "blocked", "params": "{not json"}}]:
        status, err = handle("/api/encodings", json.dumps(bad).encode())
        assert status == 400 and err["error"]["message"], bad


def test_render_html_is_self_contained():
    html = render_html(SEED_53x63)
    assert html.count('class="cell padding"') == 117
    assert 'src="' not in html and 'href="' not in html and "<link" not in html
    assert 'id="embedded-view"' in html and "</script" not in html.split('id="embedded-view"')[1].split("</script>")[0]
    with pytest.raises(ParseError):
        render_html("(2,2):(1,")


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_cell_data_in_the_svg_is_the_scene_s_data(name):
    """data-index and data-cell of every drawn cell are the scene's index and the explorer's cell numbers."""
    from unilayout.explorer.adapter import picture

    value = unilayout.parse(TEXTS[name])
    view = layout_view(value)
    shape = (4, 4) if name == "affine" else None
    scene = picture(value, shape, max_cells=MAX_CELLS, labels=view["count"] <= LABELLED_CELLS)
    drawn = scene.drawn
    from_svg = cells(view)
    assert [i for _, i, _ in from_svg] == scene.index[drawn].tolist()  # the writer's row-major order
    assert [cls == "cell padding" for cls, _, _ in from_svg] == scene.padding[drawn].tolist()
    # data-cell: the row of details describing that very cell
    numbers = [k for _, _, k in from_svg]
    assert sorted(numbers) == list(range(view["count"]))
    if name == "metal":
        assert numbers == scene.attrs["slot"][drawn].tolist()  # details list the slots in order
        return
    for _, i, k in from_svg:
        d = details(view, k)
        if name == "device":
            assert d["grid coordinate"] == str(tuple(int(c) for c in np.unravel_index(i, (8, 16))))
        else:
            assert int(d["input index" if name == "linear" else "index"]) == i


def test_explorer_svg_has_no_regex_rewrite():
    """The explorer writes the scene with viz.svg.to_svg: its svg is exactly the scene's, data-cell included."""
    from unilayout.explorer.adapter import picture
    from unilayout.viz.svg import to_svg

    value = cute.Layout((2, 3), (3, 1))
    view = layout_view(value)
    scene = picture(value, max_cells=MAX_CELLS)
    scene.attrs["cell"] = scene.index.copy()  # cute: details list cells in 1-D order, row k = index k
    assert view["svg"] == to_svg(scene)


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_explorer_and_cli_say_the_same_facts(name, capsys):
    from unilayout.cli import main

    text = TEXTS[name]
    argv = ["show", text] + (["--shape", "4x4"] if name == "affine" else [])
    assert main(argv) == 0
    out = capsys.readouterr().out
    view = text_view(text)
    printed = out.split("\n\n", 1)[0].splitlines()
    assert printed == [f"{k + ':':<15} {v}" for k, v in view["facts"]]
    assert dict(view["facts"])["family"] == view["family"]
    for key in ("size", "injective", "contiguity"):
        if key in dict(view["facts"]):
            assert any(line.startswith(key + ":") for line in printed)


def test_shape_resolves_a_dynamic_tsl():
    from unilayout import tsl

    dyn = "#tsl.tsl<[?, 4] -> (32, 4), [?, 4] -> (?, 1)>"
    view = text_view(dyn, (16, 16))
    assert view["text"] == str(tsl.parse(dyn).resolve((16, 16))) and view["count"] == 256
    status, answer = handle("/api/view", json.dumps({"text": dyn, "shape": "64x64"}).encode())
    assert status == 200 and answer["count"] == 64 * 64
    with pytest.raises(LayoutError):
        text_view(dyn)


def test_huge_distributed_linear_layout_is_summarised_per_warp():
    from unilayout.linear import encodings as E

    L = E.blocked([2048, 2048], [1, 4], [8, 4], [2, 2], [1, 0])
    view = text_view(linear.to_attr(L))
    assert view["total"] == 2048 * 2048 and view["count"] == 4 and view["canvas"]["cell_class"] == "warp"
    assert "summarised per warp" in view["summary"] and "summary" in view["note"]
    assert view["canvas"]["labels"][0].endswith(f"{2048 * 2048 // 4} elements")


def test_xla_layouts_and_shardings_have_views_from_text_and_from_values():
    from unilayout import parse
    from unilayout.explorer.views import layout_view, text_view

    x = parse("f32[8,256]{1,0:T(8,128)}")
    by_value, by_text = layout_view(x), text_view(str(x))
    assert by_value["family"] == by_text["family"] == "xla" and by_value["count"] == 8 * 256
    assert by_value["svg"] == by_text["svg"]
    hlo = text_view("{devices=[2,1,4]<=[8] last_tile_dim_replicate}", (8, 8))
    assert hlo["family"] == "sharding" and hlo["count"] == 2  # two row blocks, each held by four replicas
