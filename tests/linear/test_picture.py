"""unilayout.linear.picture: who holds each element; Triton's tensor and hardware views (Triton oracle)."""

import importlib.util
import json
import random
import subprocess
import sys

import numpy as np
import pytest

from svgcheck import cells, label_text, parse_svg, texts
from unilayout import LayoutError, linear
from unilayout.linear import encodings as E
from unilayout.linear.picture import (
    hardware_view,
    linear_scene,
    owners,
    shared_hardware_view,
    shared_tensor_view,
    tensor_view,
)
from unilayout.viz import to_svg

MFMA = E.amd_mfma([32, 64], 3, [16, 16, 16], False, [2, 2])

_ORACLE = r"""
import json, os, sys
try:
    from triton.tools import LinearLayout as LL
except Exception:
    print("NO_TRITON"); sys.stdout.flush(); os._exit(0)
out = []
for c in json.load(sys.stdin):
    L = LL.from_bases([(n, b) for n, b in c["bases"]], [n for n, _ in c["outs"]], [s for _, s in c["outs"]], False)
    if c.get("shared"):
        out.append([L.get_shared_view(False), L.get_shared_view(True)])
    else:
        out.append([L.get_distributed_view(False), L.get_distributed_view(True)])
print(json.dumps(out)); sys.stdout.flush(); os._exit(0)
"""


def _random_layouts(n, seed=0):
    rng = random.Random(seed)
    cases = []
    while len(cases) < n:
        rank = rng.choice([1, 2, 3])
        sizes = [2 ** rng.randint(0, 3) for _ in range(rank)]
        outs = [(f"dim{i}", s) for i, s in enumerate(sizes)]
        bases = [(name, [[rng.randrange(s) for s in sizes] for _ in range(rng.randint(0, 3))])
                 for name in ("register", "lane", "warp", "block")]
        L = linear.LinearLayout(dict(bases), dict(outs), require_surjective=False)
        cases.append(({"bases": bases, "outs": outs}, L))
    return cases


def _random_shared(n, seed=1):
    rng = random.Random(seed)
    cases = []
    while len(cases) < n:
        rank = rng.choice([1, 2, 3])
        sizes = [2 ** rng.randint(0, 4) for _ in range(rank)]
        outs = [(f"dim{i}", s) for i, s in enumerate(sizes)]
        nb = rng.randint(0, 2)
        if 2 ** nb > max(1, sizes[0] * (sizes[1] if rank > 1 else 1) * (sizes[2] if rank > 2 else 1)):
            continue
        bases = [("offset", [[rng.randrange(s) for s in sizes] for _ in range(rng.randint(1, 5))]),
                 ("block", [[rng.randrange(s) for s in sizes] for _ in range(nb)])]
        L = linear.LinearLayout(dict(bases), dict(outs), require_surjective=False)
        cases.append(({"bases": bases, "outs": outs, "shared": True}, L))
    for sh in (E.swizzled_shared([32, 32], 1, 1, 4, [1, 0]), E.swizzled_shared([16, 64], 4, 2, 4, [0, 1])):
        cases.append(({"bases": [[n, b] for n, b in sh.bases], "outs": [[n, s] for n, s in sh.out_dims],
                       "shared": True}, sh))
    return cases


def test_views_match_triton():
    if importlib.util.find_spec("triton") is None:
        pytest.skip("triton is not installed")
    mfma = {"bases": [[n, b] for n, b in MFMA.bases], "outs": [[n, s] for n, s in MFMA.out_dims]}
    cases = _random_layouts(120) + [(mfma, MFMA)] + _random_shared(120)
    proc = subprocess.run([sys.executable, "-c", _ORACLE], input=json.dumps([c for c, _ in cases]),
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0 or proc.stdout.startswith("NO_TRITON"):
        pytest.skip("triton is not importable here")
    want = json.loads(proc.stdout)
    assert len(want) == len(cases)
    for (case, L), (tv, hv) in zip(cases, want):
        if case.get("shared"):
            assert shared_tensor_view(L) == tv, case
            assert shared_hardware_view(L) == hv, case
        else:
            assert tensor_view(L) == tv, case
            assert hardware_view(L) == hv, case


def test_shared_views_refuse_other_layouts():
    with pytest.raises(LayoutError):
        shared_tensor_view(MFMA)
    with pytest.raises(LayoutError, match="blocks"):
        shared_hardware_view(linear.LinearLayout({"offset": [[1]], "block": [[0], [0]]}, {"dim0": 2},
                                                 require_surjective=False))


def test_seed_mfma_views():
    tv = tensor_view(MFMA).splitlines()
    assert tv[0].startswith("[[  T0:0,   T1:0,") and len(tv) == 32
    hv = hardware_view(MFMA).splitlines()
    assert hv[0] == "Warp0:" and hv[1].startswith("( 0, 0), ( 0, 1)") and len(hv) == 4 * 9


def test_scene_cells_are_the_holders():
    s = linear_scene(MFMA)
    root = parse_svg(to_svg(MFMA))
    cs = cells(root)
    assert len(cs) == 32 * 64 == len(texts(root, "label"))
    for g in cs[:: 37]:
        flat = int(g.get("data-index"))
        reg, lane, warp = int(g.get("data-register")), int(g.get("data-lane")), int(g.get("data-warp"))
        assert flat == reg + 8 * (lane + 64 * warp)
        assert label_text(g) == f"T{lane + 64 * warp}:{reg}"
    # Every cell holds the element its hardware input maps to, at the tensor coordinate it says.
    seen = set()
    for y, x in zip(*np.nonzero(s.drawn)):
        hw = {k: int(s.attrs[k][y, x]) for k in ("register", "lane", "warp", "block")}
        m, n = int(s.attrs["dim0"][y, x]), int(s.attrs["dim1"][y, x])
        assert MFMA.apply(hw) == {"dim0": m, "dim1": n}
        seen.add((m, n))
    assert len(seen) == 32 * 64
    # rows of 64 wrap into two bands of 32 columns: dim1 32..63 continues below
    assert s.shape == (64, 32) and int(s.attrs["dim1"][32, 0]) == 32 and int(s.attrs["dim0"][32, 0]) == 0


def test_lanes_have_distinct_colours_and_warps_are_outlined():
    s = linear_scene(MFMA)
    for w in range(4):
        mask = s.attrs["warp"] == w
        lane_of = {}
        for lane, rgb in zip(s.attrs["lane"][mask].tolist(), s.fill[mask].tolist()):
            lane_of.setdefault(lane, set()).add(tuple(rgb))
        assert len(lane_of) == 64 and all(len(c) == 1 for c in lane_of.values())
        assert len({next(iter(c)) for c in lane_of.values()}) == 64  # 64 lanes, 64 colours
    lines = [ln for ln in s.lines if ln[6] == "warp"]
    assert lines
    # each warp line separates two cells of different warps
    for x0, y0, x1, _y1, *_ in lines[:200]:
        if x0 == x1:  # vertical: cells left and right
            r = int(np.searchsorted(s.row_y, y0, side="right") - 1)
            c = int(np.searchsorted(s.col_x, x0))
            assert s.attrs["warp"][r, c - 1] != s.attrs["warp"][r, c]
        else:
            r = int(np.searchsorted(s.row_y, y0))
            c = int(np.searchsorted(s.col_x, x0, side="right") - 1)
            assert s.attrs["warp"][r - 1, c] != s.attrs["warp"][r, c]
    svg = to_svg(s)
    assert svg.count('<line class="warp"') == len(lines)


def test_broadcast_shows_first_holder_and_a_note():
    L = linear.parse("#ttg.linear<{register = [[1, 0]], lane = [[0, 1], [0, 0]], warp = [], block = []}>")
    s = linear_scene(L)
    assert s.labels.tolist() == [["T0:0", "T1:0"], ["T0:1", "T1:1"]]
    assert (s.attrs["holders"] == 2).all()
    assert any("held by 2" in n for n in s.notes)


def test_unheld_elements_are_blank():
    L = linear.LinearLayout({"register": [[1, 0]], "lane": [[0, 1]], "warp": [], "block": []},
                            {"dim0": 4, "dim1": 2}, require_surjective=False)
    s = linear_scene(L)
    assert s.count_cells() == 4 and (s.index[2:] == -1).all()
    assert len(cells(parse_svg(to_svg(L)))) == 4


def test_shared_layout_is_labelled_by_input():
    sh = E.swizzled_shared([8, 8], 1, 1, 4, [1, 0])
    s = linear_scene(sh)
    pos, first, count = owners(sh)
    assert s.count_cells() == 64 and s.labels[0, 1] == str(first[1])
    with pytest.raises(LayoutError):
        tensor_view(sh)


@pytest.mark.parametrize("color", ["thread", "warp", "register", "block", "index"])
def test_colour_modes(color):
    s = linear_scene(MFMA, color=color)
    assert s.fill.shape == (64, 32, 3)
    if color == "warp":
        assert len({tuple(c) for c in s.fill.reshape(-1, 3).tolist()}) == 4


def test_crop():
    s = linear_scene(MFMA, max_cells=100)
    assert s.shape == (10, 10) and any("showing" in n for n in s.notes)


def test_errors():
    with pytest.raises(LayoutError):
        linear_scene(MFMA, color="lane")
    with pytest.raises(LayoutError):
        owners(np.zeros(3))


def test_too_many_inputs_is_a_clear_error():
    big = linear.identity_1d(1 << 25, "register", "dim0")
    with pytest.raises(LayoutError, match="too large to draw"):
        linear_scene(big)


def test_warp_summary_counts_and_ranges_each_warps_elements():
    from unilayout.linear.picture import warp_summary_scene

    L = E.blocked([64, 32], [2, 2], [4, 8], [2, 2], [0, 1])
    s = warp_summary_scene(L)
    nw, lanes, regs = L.in_dim_size("warp"), L.in_dim_size("lane"), L.in_dim_size("register")
    assert s.shape == (1, nw) and s.cell_class == "warp"
    for w in range(nw):
        elems = {tuple(L.apply({"register": r, "lane": t, "warp": w, "block": 0}).values())
                 for r in range(regs) for t in range(lanes)}
        lines = s.labels[0, w].split("\n")
        assert lines[-1] == f"{len(elems)} elements"
        for d, line in enumerate(lines[:-1]):
            lo = min(e[d] for e in elems)
            assert line.startswith(f"dim{d} {lo}")


def _png_size(layout):
    from unilayout.draw.png import rasterise

    s = linear_scene(layout)
    h, w, _ = rasterise(s).shape
    return s, w, h


def test_a_1d_layout_of_2_16_elements_folds_into_a_readable_png():
    # issue 23: the picture was one row 327,713 px wide
    import unilayout

    L = unilayout.parse("tensor<65536xf32, #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], "
                        "warpsPerCTA = [4], order = [0]}>>")
    s, w, h = _png_size(L)
    R, C = s.shape
    assert R > 1 and w < 8000 and h < 8000
    assert s.attrs["dim0"][:, 0].tolist() == list(range(0, R * C, C))  # row k starts at element k * C
    assert [t[2] for t in s.texts if t[6] == "header" and t[4] == "end"] == [str(i) for i in range(0, R * C, C)]


def test_a_tall_3d_layout_is_drawn_in_panels_side_by_side():
    # issue 23: a 3-D Triton layout was 11,382 px tall and a few thousand wide
    import unilayout

    L = unilayout.parse("tensor<8x64x32xf16, #ttg.blocked<{sizePerThread = [1, 1, 8], threadsPerWarp = [1, 8, 4], "
                        "warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>>")
    s, w, h = _png_size(L)
    height, cols = s.shape
    panels = cols // 32
    assert panels == 2 and height * panels == 8 * 64 and h < 2 * w
    # panel p, row i, column j is element (row p*height + i, dim2 j): dim0/dim1 of that flat row
    flat_row = (np.arange(panels)[None, :, None] * height + np.arange(height)[:, None, None]).repeat(32, 2)
    assert np.array_equal(s.attrs["dim0"], (flat_row // 64).reshape(height, cols))
    assert np.array_equal(s.attrs["dim1"], (flat_row % 64).reshape(height, cols))
    assert np.array_equal(s.attrs["dim2"], np.tile(np.arange(32), (height, panels)))
    right = sorted(t[2] for t in s.texts if t[6] == "header" and t[4] == "end" and t[0] > s.col_x[31])
    assert sorted(map(int, right)) == list(range(height, 2 * height))  # the right panel's own row numbers
