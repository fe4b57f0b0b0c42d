"""plan.panel: the explorer panel's answers are JSON and agree with grids / reshard_cost."""

import json

import pytest

from unilayout import LayoutError, plan, tt
from unilayout.plan.panel import answer

DEV8 = tt.Device((8, 8), "(d0, d1) -> (0, d0, d1)")


def test_rows_are_the_ranked_grids_and_json():
    a = answer({"shape": [16, 3, 64, 128], "mesh": [2, 1, 1], "collapse": [[1, -1]], "top": 5, "tile": [32, 32]})
    json.dumps(a)
    two = tt.Device.from_mesh(tt.SystemDesc.wormhole_b0(2), (2, 1, 1))
    g = plan.grids((16, 3, 64, 128), two, collapse=[(1, -1)], tile=(32, 32))
    assert a["count"] == len(g)
    assert [r["grid"] for r in a["grids"]] == [list(c.grid) for c in g[:5]]
    assert a["grids"][0]["bytes_per_core"] == g[0].bytes_per_core
    assert tt.parse(a["layout"]) == g[0].layout
    assert a["svg"].count('class="cell') == 128


def test_reshard_into_the_chosen_layout():
    src = tt.MetalLayout.from_collapse((53, 63), (3, 2))
    a = answer({"shape": "53x63", "choice": 1, "reshard_from": str(src)})
    chosen = plan.grids((53, 63), DEV8)[1]
    want = plan.reshard_cost(src, chosen.layout, DEV8)
    assert a["reshard"]["moved_bytes"] == want.moved_bytes and a["reshard"]["transfers"] == want.transfers
    # a virtual choice is priced on its own device view
    v = answer({"shape": "53x63", "choice": 0, "reshard_from": str(src)})
    best = plan.grids((53, 63), DEV8)[0]
    assert v["reshard"]["moved_bytes"] == plan.reshard_cost(src, best.layout, DEV8, dst_device=best.device).moved_bytes


@pytest.mark.parametrize("body,match", [
    ({}, "shape"),
    ({"shape": "53xq"}, "integers"),
    ({"shape": [4, 4], "device": "(4,4):(4,1)"}, "device"),
    ({"shape": [4, 4], "choice": 10 ** 6}, "past"),
    ({"shape": [4, 4], "collapse": "0:1"}, "collapse"),
    ({"shape": [4, 4], "reshard_from": "(4,4):(4,1)"}, "tensor<"),
    ({"shape": [4, 4], "reshard_from": "#tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1, chipIds = [0]>"}, "reshard_from"),
    ([1, 2], "JSON object"),
])
def test_bad_requests_are_layout_errors(body, match):
    with pytest.raises(LayoutError, match=match):
        answer(body)


def test_collapse_as_the_form_types_it():
    typed = answer({"shape": "2x3x64x128", "collapse": "0,2, 2,-1", "top": 3})
    listed = answer({"shape": [2, 3, 64, 128], "collapse": [[0, 2], [2, -1]], "top": 3})
    assert typed == listed
    want = plan.grids((2, 3, 64, 128), DEV8, collapse=[(0, 2), (2, -1)])
    assert typed["count"] == len(want) and tt.parse(typed["layout"]) == want[0].layout
    with pytest.raises(LayoutError, match="pairs"):
        answer({"shape": "2x3x64x128", "collapse": "0,2,2"})


def test_a_virtual_source_grid_sits_row_major():
    g = plan.grids((53, 63), DEV8)
    src = next(c for c in g if c.placement == "row_major" and c.grid == (1, 63))
    r = answer({"shape": "53x63", "choice": 1, "reshard_from": src.layout.tensor_type()})["reshard"]
    want = plan.reshard_cost(src.layout, g[1].layout, plan.row_major(DEV8, (1, 63)).device, dst_device=DEV8)
    assert r["source"] == "row_major view" and r["moved_bytes"] == want.moved_bytes > 0
    assert r["max_send_bytes"] == want.max_send_bytes and r["transfers"] == want.transfers
    # a source on the plain device keeps the reinterpretation search
    assert answer({"shape": "53x63", "choice": 1, "reshard_from": str(tt.MetalLayout.from_collapse((53, 63), (3, 2)))}
                  )["reshard"]["source"] == "device"


def test_requests_stay_bounded():
    from unilayout.plan.panel import MAX_RESHARD_POINTS, MAX_TOP

    with pytest.raises(LayoutError, match="64-bit"):
        answer({"shape": [2 ** 40, 2 ** 40]})
    with pytest.raises(LayoutError, match=">= 1"):
        answer({"shape": [4, 0]})
    with pytest.raises(LayoutError, match="at most"):
        answer({"shape": [4, 4], "top": MAX_TOP + 1})
    # a map linking both dims of a 4096x4096 tensor: one group of 2**24 points, over the panel's bound
    mixed = tt.MetalLayout((4096, 4096), "(d0, d1) -> ((d0 * 4096 + d1) floordiv 4096, (d0 * 4096 + d1) mod 4096)",
                           (8, 8))
    assert 4096 * 4096 > MAX_RESHARD_POINTS
    with pytest.raises(LayoutError, match="unilayout plan reshard"):
        answer({"shape": [4096, 4096], "collapse": [[0, -1]], "reshard_from": mixed.tensor_type()})
    # the same dims unlinked are two groups of 4096 points: priced
    plain = tt.MetalLayout.from_collapse((4096, 4096), (8, 8))
    assert answer({"shape": [4096, 4096], "collapse": [[0, -1]], "reshard_from": plain.tensor_type(), "top": 1}
                  )["reshard"]["moved_bytes"] == 0
