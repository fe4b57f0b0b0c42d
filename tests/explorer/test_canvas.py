"""unilayout.explorer.canvas: the canvas payload holds exactly the scene's cells, compactly."""

import json

import numpy as np
import pytest

from unilayout import cute, tt
from unilayout.explorer.canvas import MAX_LABELS, decode, encode, payload
from unilayout.viz import scene
from unilayout.viz.colors import hex_color


@pytest.mark.parametrize("values", [[0], [0, 1, 255], [3, 300, 65535], [-5, 7], [1 << 40, -(1 << 41), 3],
                                    list(range(10000)), [7] * 1000, [True, False]])
def test_encode_decode_round_trip(values):
    a = np.asarray(values)
    assert decode(encode(a)).tolist() == a.astype(np.int64).tolist()


def test_smallest_type_and_delta():
    assert encode(np.arange(200))["dtype"] == "u1"
    assert encode(np.arange(100000))["delta"] and len(encode(np.arange(100000))["z"]) < 1000
    assert encode(np.array([0, 70000]))["dtype"] in ("i4", "u2") and encode(np.array([1, 0, 1]))["dtype"] == "u1"


@pytest.mark.parametrize("value", [
    cute.parse("Sw<3,4,3> o 0 o (64,64):(64,1)"),
    tt.MetalLayout.from_collapse((100, 90), (3, 4), tile=(32, 32)),
])
def test_payload_is_the_scene(value):
    s = scene(value, max_cells=1 << 20)
    p = payload(s)
    R, C = s.shape
    assert (p["rows"], p["cols"]) == (R, C) and p["row_y"] == pytest.approx(s.row_y.tolist(), abs=0.01)
    color = decode(p["arrays"]["color"]).reshape(R, C)
    assert ((color > 0) == s.drawn).all()
    rgb = np.array([[int(h[i:i + 2], 16) for i in (1, 3, 5)] for h in p["palette"]])
    assert (rgb[color][s.drawn] == s.fill[s.drawn]).all()  # every drawn cell has its scene colour
    assert (decode(p["arrays"]["index"]).reshape(R, C) == s.index).all()
    assert (decode(p["arrays"]["padding"]).reshape(R, C).astype(bool) == s.padding).all()
    for name, a in s.attrs.items():
        assert (decode(p["arrays"][name]).reshape(R, C) == a).all(), name
    assert len(p["outlines"]) == len(s.outlines) and len(p["texts"]) == len(s.texts)
    assert [o[4] for o in p["outlines"]] == [hex_color(o[4]) for o in s.outlines]
    json.dumps(p)  # JSON-ready


def test_labels_sent_once():
    s = scene(tt.MetalLayout.from_collapse((20, 20), (2, 2)), labels=True)
    assert payload(s)["labels_from"] == "index" and payload(s)["labels"] is None
    t = scene(cute.parse("(8,8):(8,1)"), color="bank")  # labels "offset\nbank": sent as strings
    p = payload(t)
    assert p["labels_from"] is None and p["labels"][1] == t.labels.reshape(-1)[1]
    big = scene(cute.parse("(512,512):(512,1)"), max_cells=1 << 20, labels=False)
    assert big.count_cells() > MAX_LABELS and payload(big)["labels"] is None


def test_a_picture_that_names_its_labels_array_skips_reading_them_back():
    from unilayout import cute
    from unilayout.cute.picture import layout_scene
    from unilayout.explorer.canvas import _labels_source

    scene = layout_scene(cute.parse("(16,16):(16,1)"))
    assert scene.labels_of == "value"
    assert (scene.labels[scene.drawn].astype(str) == scene.attrs["value"][scene.drawn].astype(str)).all()
    assert _labels_source(scene) == "value"
    banks = layout_scene(cute.parse("(16,16):(16,1)"), color="bank")
    assert banks.labels_of == "" and _labels_source(banks) is None  # "v\nbN" labels are not numbers
