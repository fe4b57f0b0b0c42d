"""TileLang -> linear / CuTe: exact where the table is one (proved on every element), else the breaking element."""

import json
import pathlib

import numpy as np
import pytest

from unilayout import NotRepresentableError, cute, linear, tilelang
from unilayout.convert import convert_to
from unilayout.convert.tilelang import tilelang_to_cute, tilelang_to_linear

FACTS = json.loads((pathlib.Path(__file__).parents[1] / "tilelang" / "data" / "facts.json").read_text())
NAMED = {f["named"]: f["text"] for f in FACTS if "named" in f}


def test_tilelangs_swizzled_layouts_are_cutes_swizzle_atoms():
    # TileLang's full/half/quarter-bank swizzles of a 64x64 f16 buffer (as TileLang prints them) are CuTe's
    # 128/64/32-byte swizzles Sw<3,3,3>, Sw<2,3,3>, Sw<1,3,3> of row-major 64-element rows, element by element
    for name, sw, cols in (("make_full_bank_swizzled_layout", (3, 3, 3), 64),
                           ("make_half_bank_swizzled_layout", (2, 3, 3), 32),
                           ("make_quarter_bank_swizzled_layout", (1, 3, 3), 16)):
        L = tilelang.parse(NAMED[name])
        i, j = np.indices((64, 64)).reshape(2, -1)
        atom = cute.ComposedLayout(cute.Swizzle(*sw), 0, cute.Layout((8, cols), (cols, 1)))
        # the 64 columns are 64 // cols atoms side by side, then 8-row atoms stacked: TileLang's (j // cols, i // 8)
        want = (j // cols) * (64 * 64 // (64 // cols)) * 0 + atom.index_map()[(i % 8) + 8 * (j % cols)]
        got = L.index_map()
        assert np.array_equal(got[:, -1], want), name
        C = tilelang_to_cute(L)
        assert np.array_equal(C.index_map()[np.ravel_multi_index((i, j), (64, 64), order="F")], L.offsets()), name


@pytest.mark.parametrize("fact", [f for f in FACTS if "index" in f], ids=lambda f: f["text"][:50])
def test_every_fact_converts_exactly_or_names_the_element_that_breaks_it(fact):
    x = tilelang.parse(fact["text"])
    for target, convert in (("linear", tilelang_to_linear), ("cute", tilelang_to_cute)):
        try:
            y = convert(x)
        except NotRepresentableError as e:
            assert "tilelang" in str(e)
            continue
        if isinstance(x, tilelang.Layout) and target == "cute":
            crd = np.indices(x.input_shape).reshape(len(x.input_shape), -1)
            order = np.ravel_multi_index(crd, x.input_shape, order="F")
            assert np.array_equal(np.asarray(y.index_map())[order], x.offsets()), fact["text"]
        elif isinstance(x, tilelang.Layout):
            grid = dict(zip([f"dim{k}" for k in range(len(x.input_shape))],
                            np.indices(x.input_shape).reshape(len(x.input_shape), -1)))
            out = linear.evaluate(y, grid)
            got = np.stack([np.broadcast_to(out[f"out{k}"], (x.size,)) for k in range(len(x.output_shape))], 1)
            assert np.array_equal(got, x.index_map()), fact["text"]


def test_a_fragment_is_the_linear_and_cute_layout_of_its_threads():
    F = tilelang.parse(NAMED["make_gemm_fragment_8x8"])
    L = convert_to(F, "linear")
    out = linear.evaluate(L, {"register": np.arange(2)[:, None], "lane": np.arange(32)[None, :], "warp": 0})
    for t in range(32):
        for v in range(2):
            i, j = int(out["dim0"][v, t]), int(out["dim1"][v, t])
            assert F.thread_map()[i * 8 + j, 0] == t and F.local_index()[i * 8 + j] == v
    C = convert_to(F, "cute")
    from unilayout import rosetta

    assert rosetta.compare(C, L, shape=(8, 8)).same


def test_not_representable_says_which_element():
    x = tilelang.parse("Layout((4, 4) -> (13,), transform: (_i, _j) -> (_i * 3 + _j,))")
    with pytest.raises(NotRepresentableError, match=r"output extent of out0 13 is not a power of two"):
        tilelang_to_linear(x)
    carry = tilelang.parse("Layout((4, 4) -> (16,), transform: (_i, _j) -> ((_i + 1) % 4 * 4 + _j,))")
    with pytest.raises(NotRepresentableError, match=r"not a linear layout: at dim0=0, dim1=0 the value is \(4,\)"):
        tilelang_to_linear(carry)
    assert tilelang_to_cute(x) == cute.Layout((4, 4), (3, 1))
    y = tilelang.parse("Layout((4, 4) -> (12,), transform: (_i, _j) -> (_i // 2 * 8 + _j % 3 + _i % 2,))")
    with pytest.raises(NotRepresentableError, match=r"tilelang -> cute, dim 1: not a CuTe mode"):
        tilelang_to_cute(y)
