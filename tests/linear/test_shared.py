"""encodings/shared.py: AMD's #ttg.amd_rotating_shared against Triton 3.9.0.

CI reads Triton's recorded answers (data/amd_rotating_shared.json, written by data/make_shared_facts.py);
a small live sample asks Triton itself (skipped where it is not installed).
"""

import json
import pathlib
import random

import linear_helpers as H
import pytest

import unilayout
from unilayout import LayoutError, ParseError
from unilayout.linear import encodings as E
from unilayout.linear.encodings import types as T

FACTS = json.loads((pathlib.Path(__file__).parent / "data" / "amd_rotating_shared.json").read_text())


def _injective_once_zero_bases_are_removed(L):
    moved = [tuple(v) for _, vecs in L.bases for v in vecs if any(v)]
    return L.remove_zero_bases_along_dim("offset").remove_zero_bases_along_dim("block").is_injective() and \
        len(set(moved)) == len(moved)


def _check(fact):
    enc = E.parse(fact["enc"])
    assert type(enc) is E.AmdRotatingShared
    assert str(enc) == fact.get("text", fact["enc"])  # Triton's printer: field order, a missing vec printed as 0
    assert E.parse(str(enc)) == enc
    L = enc.to_linear(fact["shape"])
    if "error" in fact:  # Triton computes it, then refuses it as a #ttg.shared_linear: not injective
        assert "bijective" in fact["error"]
        assert not _injective_once_zero_bases_are_removed(L)
        return
    assert dict(L.bases) == {"offset": fact["offset"], "block": fact["block"]}, fact["enc"]
    assert L.out_dims == [(f"dim{i}", s) for i, s in enumerate(fact["shape"])]


def test_amd_rotating_shared_reads_prints_and_lays_out_as_triton_recorded():
    assert FACTS["triton"] == "3.9.0" and len(FACTS["layouts"]) >= 400
    kinds = {(len(f["shape"]), f["ctas"], "error" in f) for f in FACTS["layouts"]}
    assert {(1, 1, False), (2, 1, False), (3, 1, False), (2, 2, False), (2, 2, True)} <= kinds
    for fact in FACTS["layouts"]:
        _check(fact)


def test_amd_rotating_shared_matches_triton_live():
    rng = random.Random(7)
    cases = [H.random_rotating(rng) for _ in range(24)]
    got = H.triton_shared_via_reshape([{"enc": str(e), "shape": s, "ctas": c} for e, s, c in cases])
    for (enc, shape, ctas), g in zip(cases, got):
        _check({"enc": str(enc), "shape": shape, "ctas": ctas, **g})


def test_the_reshape_oracle_is_gluons_conversion_on_swizzled_shared():
    """The oracle reads toLinearLayout off a same-shape memdesc_reshape: on #ttg.swizzled_shared (which Gluon
    converts directly) both routes agree, so the route is Triton's conversion."""
    rng = random.Random(11)
    cases = []
    for _ in range(12):
        text, enc, shape = H.random_case(rng, "shared")
        if enc.vec >= 1 and not enc.cga_layout:  # a CGA layout may make it non-injective: no #ttg.shared_linear
            cases.append((text, enc, shape))
    direct = H.triton_encoding_oracle([{"layout": t, "shape": s} for t, _, s in cases])
    via = H.triton_shared_via_reshape([{"enc": str(e), "shape": s} for _, e, s in cases])
    assert len(cases) >= 8
    for d, v in zip(direct, via):
        assert {"offset": d["offset"], "block": d["block"]} == {"offset": v["offset"], "block": v["block"]}


def test_rotating_phase_is_the_swizzle_phase_xor_its_block():
    enc = E.AmdRotatingShared(1, 2, 2, [1, 0])
    rows = dict(enc.to_linear([16, 4]).bases)["offset"][2:]
    # rows 1, 2, 4, 8: phases (r // 2) % 2 = 0, 1, 0, 0; blocks (r // 4) % 2 = 0, 0, 1, 0
    assert rows == [[1, 0], [2, 1], [4, 1], [8, 0]]
    swz = dict(E.SwizzledShared(1, 2, 2, [1, 0]).to_linear([16, 4]).bases)["offset"][2:]
    assert swz == [[1, 0], [2, 1], [4, 0], [8, 0]]
    assert enc != E.SwizzledShared(1, 2, 2, [1, 0])  # same fields, another encoding (and another cached layout)


def test_vec_zero_is_no_swizzle_as_triton_takes_it():
    for cls in (E.SwizzledShared, E.AmdRotatingShared):
        L = cls(0, 1, 4, [1, 0]).to_linear([8, 8])
        assert dict(L.bases)["offset"] == [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]
    assert E.parse("#ttg.swizzled_shared<{perPhase = 1, maxPhase = 4, order = [1, 0]}>").vec == 0


@pytest.mark.parametrize("fact", FACTS["rejected"], ids=lambda f: f["enc"][26:-2])
def test_what_triton_refuses_is_a_parse_error(fact):
    t = "!ttg.memdesc<%sxf16, %s, #ttg.shared_memory, mutable>" % ("x".join(map(str, fact["shape"])), fact["enc"])
    with pytest.raises(ParseError) as e:
        T.layout(t)
    assert 0 <= e.value.position < len(t)
    with pytest.raises((ParseError, LayoutError)):
        E.parse(fact["enc"]).to_linear(fact["shape"])


_GFX1200 = pathlib.Path(__file__).parent / "data" / "matmul_gfx1200.ttgir"


def test_the_gfx1200_dumps_rotating_memdescs_read_through_their_alias_lines():
    text = _GFX1200.read_text()
    head = "\n".join(line for line in text.splitlines() if line.startswith("#"))
    rotating = head.splitlines()[6].split(" = ", 1)[1]
    fact = next(f for f in FACTS["layouts"] if f["enc"] == rotating and f["shape"] == [64, 128])
    one = unilayout.parse(head + "\n!ttg.memdesc<64x128xf16, #shared1, #smem, mutable>")
    assert dict(one.bases) == {"offset": fact["offset"], "block": fact["block"]}
    # the dump's one-buffer allocation: the buffer index is dim0, of size 1
    alloc = unilayout.parse(head + "\n!ttg.memdesc<1x64x128xf16, #shared1, #smem, mutable>")
    assert alloc.out_dims == [("dim0", 1), ("dim1", 64), ("dim2", 128)]
    assert dict(alloc.bases)["offset"] == [[0] + v for v in fact["offset"]]
