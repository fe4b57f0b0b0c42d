"""TileLang's named swizzled layouts: as TileLang builds and prints them, and CuTe's swizzle atoms."""

import json
import pathlib

import numpy as np
import pytest

from unilayout import LayoutError, cute, tilelang

FACTS = {f["named"]: f["text"] for f in json.loads((pathlib.Path(__file__).with_name("data") / "facts.json")
                                                   .read_text()) if "named" in f}


@pytest.mark.parametrize("name", ["make_swizzled_layout", "make_full_bank_swizzled_layout",
                                  "make_half_bank_swizzled_layout", "make_quarter_bank_swizzled_layout"])
def test_named_layouts_are_tilelangs_byte_for_byte(name):
    assert str(getattr(tilelang, name)(64, 64, 16)) == FACTS[name]


@pytest.mark.parametrize("bits", [8, 16, 32])
@pytest.mark.parametrize("bank, B", [("full", 3), ("half", 2), ("quarter", 1)])
def test_each_bank_is_the_cute_swizzle_of_its_row_width(bank, B, bits):
    width = {"full": 1024, "half": 512, "quarter": 256}[bank] // bits
    vec = 128 // bits
    L = getattr(tilelang, f"make_{bank}_bank_swizzled_layout")(16, width * 2, bits)
    m = L.index_map()  # (column atom, row atom, offset in the atom)
    i, j = np.indices((16, width * 2)).reshape(2, -1)
    M = vec.bit_length() - 1
    atom = cute.ComposedLayout(cute.Swizzle(B, M, 3 + (width // vec).bit_length() - 1 - B), 0,
                               cute.Layout((8, width), (width, 1)))
    assert np.array_equal(m[:, 0], j // width) and np.array_equal(m[:, 1], i // 8)
    assert np.array_equal(m[:, 2], atom.index_map()[(i % 8) + 8 * (j % width)])


def test_the_widest_bank_that_fits_or_linear():
    assert tilelang.make_swizzled_layout(64, 32, 16).output_shape == (1, 8, 256)  # 64-byte rows: half bank
    assert str(tilelang.make_swizzled_layout(64, 24, 16)) == \
        "Layout((64, 24) -> (1536,), transform: (_i, _j) -> (_i * 24 + _j,))"
    with pytest.raises(LayoutError, match="multiple of 64"):
        tilelang.make_full_bank_swizzled_layout(64, 48, 16)
