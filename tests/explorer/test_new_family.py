"""A family the explorer has never heard of is drawn from its record alone.

The toy family of tests/toyfamily gives only ``types``, ``parse``,
``index_map`` and ``box``; once registered, ``/api/view`` answers its text
with a full view (cells, details, groups, facts), above ``canvas.SVG_CELLS``
a canvas picture, and a positioned error for bad text. No file of the
explorer names it.
"""

import json

import numpy as np
import pytest

from unilayout import _families
from unilayout.explorer.api import handle
from unilayout.explorer.canvas import SVG_CELLS, decode


@pytest.fixture()
def toy():
    _families.register(_families.Wing("toy", "toyfamily.family", r"toy<"), before="cute")
    yield
    _families.unregister("toy")


def view(**body):
    return handle("/api/view", json.dumps(body).encode())


def test_the_view_of_a_toy_value_is_its_cells_from_the_default_hook(toy):
    status, v = view(text="toy<6, 5>")
    assert status == 200, v
    assert (v["family"], v["count"], v["total"], v["text"]) == ("toy", 6, 6, "toy<6, 5>")
    assert v["svg"].count('class="cell"') == 6 and v["columns"] == ["index", "coordinate", "value"]
    assert v["details"][2] == ["2", "(2)", "10"]
    assert v["groups"]["value"] == [0, 1, 2, 3, 4, 5] and v["keys"] == {} and v["note"] == ""
    facts = dict(v["facts"])
    assert facts["family"] == "toy" and facts["size"] == "6" and facts["contiguity"].startswith("1 ")
    # data-cell of each drawn cell is its row of details, data-index its position in the domain
    cells = [(int(i), int(k)) for i, k in
             zip(*[[m.split('"')[1] for m in v["svg"].split(attr)[1:]] for attr in ("data-index=", "data-cell=")],
                 strict=True)]
    assert all(v["details"][k][0] == str(i) for i, k in cells) and sorted(k for _, k in cells) == list(range(6))


def test_a_big_toy_value_is_drawn_on_the_canvas(toy):
    n = SVG_CELLS + 10
    status, v = view(text=f"toy<{n}, 2>")
    assert status == 200, v
    assert v["family"] == "toy" and v["svg"] == "" and v["details"] == [] and v["total"] == n
    index = decode(v["canvas"]["arrays"]["index"])
    assert np.array_equal(np.sort(index[index >= 0]), np.arange(n))


def test_a_toy_text_that_does_not_parse_is_a_positioned_400(toy):
    status, err = view(text="toy<4; 3>")
    assert status == 400 and err["error"]["position"] == 5 and err["error"]["field"] == "text"


def test_without_the_registration_the_text_is_nobody_s():
    status, err = view(text="toy<4, 3>")
    assert status == 400 and err["error"]["position"] == 0
