"""TIRx (axe) -> CuTe / linear and linear -> axe: the same function on every element (TIRx's recorded answers)."""

import json
import pathlib

import numpy as np
import pytest

import unilayout
from unilayout import NotRepresentableError, axe, cute
from unilayout.convert import convert_to
from unilayout.convert.axe import IN_DIM, axe_to_cute, axe_to_linear, cute_tv_to_axe, linear_to_axe
from unilayout.linear import evaluate

FACTS = json.loads((pathlib.Path(__file__).parents[1] / "axe" / "data" / "facts.json").read_text())


def _value(rec):
    tile = axe.TileLayout(rec["shard"], rec["replica"], rec["offset"])
    if rec["kind"] == "compose":
        return axe.ComposeLayout(rec["per_element"], rec["swizzle_len"], rec["atom_len"], tile, rec["swizzle_inner"])
    return tile


def _tirx_table(rec, axes):
    """TIRx's own apply on every index, as columns in ``axes`` order."""
    return np.array([[d.get(a, 0) for a in axes] for d in rec["apply"]], dtype=np.int64).reshape(-1, len(axes))


@pytest.mark.parametrize("rec", FACTS["layouts"], ids=lambda r: r["tirx"][:60])
def test_to_cute_is_tirx_apply_on_every_index_or_says_why_not(rec):
    x = _value(rec)
    tile = x.tile_layout if isinstance(x, axe.ComposeLayout) else x
    named = set(x.axes) - {"m"}
    why = tile.replica or (named and any(v for _, v in tile.offset)) or (named and tile is not x)
    if why:
        with pytest.raises(NotRepresentableError, match="axe -> cute: "):
            axe_to_cute(x)
        return
    c = axe_to_cute(x)
    want = _tirx_table(rec, x.axes)
    got = np.asarray(unilayout.index_map(c)).reshape(len(want), -1)
    if got.shape[1] < want.shape[1]:  # an axis that only carries a zero offset has no basis of its own
        got = np.pad(got, ((0, 0), (0, want.shape[1] - got.shape[1])))
    assert np.array_equal(got, want)


def test_the_paper_example_becomes_one_basis_per_axis():
    L = axe.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1@m)]")
    c = convert_to(L, "cute")
    assert c.shape == (2, 4, 2, 8) and c.stride == (cute.ScaledBasis(1, 2), cute.ScaledBasis(1, 0),
                                                      cute.ScaledBasis(1, 1), cute.ScaledBasis(4, 0))
    assert tuple(c(77)) == tuple(L.apply(77)[a] for a in L.axes)


@pytest.mark.parametrize("rec", FACTS["layouts"], ids=lambda r: r["tirx"][:60])
def test_to_linear_sends_every_placement_back_to_its_element(rec):
    x = _value(rec)
    try:
        L = axe_to_linear(x)
    except NotRepresentableError:
        return
    # independent of the proof inside: TIRx's own coordinates of each element, through the linear layout
    axes = x.axes
    want = _tirx_table(rec, axes)
    env = {IN_DIM.get(a, a): want[:, k] for k, a in enumerate(axes)}
    env.update({d: np.zeros(len(want), np.int64) for d, _ in L.bases if d not in env})
    assert np.array_equal(evaluate(L, env)["dim0"], np.arange(len(want)))


def test_some_recorded_layouts_are_linear_and_every_refusal_names_its_reason():
    ok = refused = 0
    for rec in FACTS["layouts"]:
        try:
            axe_to_linear(_value(rec))
            ok += 1
        except NotRepresentableError as e:
            assert str(e).startswith("axe -> linear: ")
            refused += 1
    assert ok and refused


def test_replicas_are_zero_bases_and_round_trip():
    L = axe.parse("S[(2,16,2):(1@warpid,2@laneid,1@m)] + R[2:1@laneid]")
    lin = axe_to_linear(L)
    assert dict(lin.bases)["lane"][0] == [0]
    back = linear_to_axe(lin)
    assert np.array_equal(back.table(replicas=True), L.table(replicas=True))


def test_a_triton_blocked_encoding_reads_into_named_axes():
    enc = unilayout.parse("tensor<16x16xf16, #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], "
                          "warpsPerCTA = [2, 1], order = [1, 0]}>>")
    lin = enc if hasattr(enc, "bases") else enc.to_linear()
    x = linear_to_axe(lin)
    assert set(x.axes) == {"m", "laneid", "warpid"} and x.size == 256
    t = x.table()
    env = {IN_DIM[a]: t[:, k] for k, a in enumerate(x.axes)}
    env.update({d: np.zeros(256, np.int64) for d, _ in lin.bases if d not in env})  # block: one CTA
    out = evaluate(lin, env)
    assert np.array_equal(out["dim0"] * 16 + out["dim1"], np.arange(256))


@pytest.mark.parametrize("text, match", [
    ("S[(3,2):(1@laneid,1@m)]", "extent of 3:1@laneid 3 is not a power of two"),
    ("S[(2,2):(1@laneid,1@laneid)]", "used twice"),
    ("S[4:1@m] + 1@laneid", "a linear layout maps 0 to 0"),
])
def test_to_linear_refuses_with_the_reason(text, match):
    with pytest.raises(NotRepresentableError, match=match):
        axe_to_linear(axe.parse(text))


def test_to_cute_refuses_replicas_and_named_offsets():
    with pytest.raises(NotRepresentableError, match="replicas of each element"):
        axe_to_cute(axe.parse("S[4:1@m] + R[2:1@warpid]"))
    with pytest.raises(NotRepresentableError, match="starts at the origin"):
        axe_to_cute(axe.parse("S[4:1@laneid] + 2@laneid"))


def test_a_cute_mma_fragment_reads_into_lane_warp_and_register():
    tm = cute.make_tiled_mma(cute.mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
    tv = tm.get_layoutC_TV()
    M, N = tm.tile_size_mnk()[:2]
    x = cute_tv_to_axe(tv, (M, N))
    assert x.size == M * N and set(x.axes) == {"laneid", "warpid", "m"}
    # every element of the tile, placed by the TIRx layout, is where CuTe's own TV layout puts it
    t = x.table()
    col = dict(zip(x.axes, t.T))
    thread = col["laneid"] + 32 * col["warpid"]
    nthreads = cute.size(tv, 0)
    e = cute.index_map(tv).reshape(-1, nthreads).T  # [thread, value] -> column-major element
    r, c = np.divmod(np.arange(M * N), N)
    assert np.array_equal(e[thread, col["m"]], r + M * c)


def test_a_cute_tv_layout_that_is_not_linear_says_why():
    with pytest.raises(NotRepresentableError, match="in-dim 'thread' .* has size 3, not a power of two"):
        cute_tv_to_axe(cute.parse("(3,2):(2,1)"), (6,))


def test_convert_to_axe_reads_a_linear_layout_into_named_axes():
    lin = axe_to_linear(axe.parse("S[(4,8,2):(1@warpid,1@laneid,1@m)] + R[4:8@laneid]"))
    back = convert_to(lin, "axe")
    assert unilayout.family_of(back) == "axe" and str(back) == "S[(4,8,2):(1@warpid,1@laneid,1@m)] + R[4:8@laneid]"


@pytest.mark.parametrize("rec", [r for r in FACTS["named"] if r["call"].startswith("mma_atom_layout")],
                         ids=lambda r: r["call"])
def test_tirxs_mma_swizzle_atoms_are_cutes_swizzle_atoms(rec):
    # TIRx's shared-memory atom for a dtype and swizzle mode (0 none, 1/2/3: 32/64/128-byte) is CuTe's
    # Sw<mode, log2(16 bytes / element bytes), 3> over the atom's elements
    x = unilayout.parse(rec["tirx"])
    bytes_ = {"float16": 2, "float32": 4, "int8": 1}[rec["call"].split("'")[1]]
    mode = int(rec["call"].rstrip(")").split(",")[-1])
    c = convert_to(x, "cute")
    assert str(c) == f"Sw<{mode},{(16 // bytes_).bit_length() - 1},{3 if mode else 0}> o 0 o {x.size}:1"
    assert np.array_equal(unilayout.index_map(c), [d["m"] for d in rec["apply"]])
