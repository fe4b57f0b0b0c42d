"""axe.layout against TIRx's recorded answers: apply on every index, outside the domain, multi-index; size, span."""

import numpy as np
import pytest

from unilayout import LayoutError, axe

from ._facts import FACTS, build

CASES = FACTS["layouts"]


def _ids(rec):
    return rec["tirx"][:60]


@pytest.mark.parametrize("rec", CASES, ids=_ids)
def test_apply_on_every_index_is_tirx_apply(rec):
    L = build(rec)
    assert L.size == rec["size"]
    for i, want in enumerate(rec["apply"]):
        assert L.apply(i, replicas=False) == want, i
    for i, want in rec["apply_outside"]:
        assert L.apply(i, replicas=False) == want, i
    for crd, want in rec.get("apply_multi", []):
        assert L.apply(*crd, replicas=False) == want, crd


@pytest.mark.parametrize("rec", CASES, ids=_ids)
def test_the_vectorised_table_is_tirx_apply(rec):
    L = build(rec)
    t = L.table()
    want = np.array([[d[a] for a in L.axes] for d in rec["apply"]], dtype=np.int64).reshape(t.shape)
    assert set(L.axes) == (set(rec["apply"][0]) if rec["apply"] else set(L.axes))
    assert np.array_equal(t, want)
    ev = L.evaluate(np.arange(L.size))
    assert all(np.array_equal(ev[a], want[:, k]) for k, a in enumerate(L.axes))


@pytest.mark.parametrize("rec", [r for r in CASES if r["replica"]], ids=_ids)
def test_with_replicas_apply_is_a_set_holding_tirx_answer(rec):
    L = build(rec)
    t = L.table(replicas=True)
    for i, want in enumerate(rec["apply"]):
        got = L.apply(i)
        assert isinstance(got, set) and len(got) == len({tuple(r) for r in t[i].tolist()})
        first = {a: v for a, v in zip(L.all_axes, t[i, 0].tolist())}
        assert frozenset(first.items()) in got
        assert {a: first[a] for a in want} == want and all(first[a] == 0 for a in first if a not in want)


@pytest.mark.parametrize("rec", [r for r in CASES if r["kind"] == "tile"], ids=_ids)
def test_span_per_axis_is_tirx_span(rec):
    L = build(rec)
    assert {a: L.span(a) for a in rec["span"]} == rec["span"]


def test_apply_refuses_a_wrong_number_of_coordinates_and_an_index_outside_a_shape():
    L = axe.parse("S[(4,2):(2,1@laneid)]")
    with pytest.raises(LayoutError, match="3 coordinates for 2 shard iters"):
        L.apply(1, 1, 1)
    with pytest.raises(LayoutError, match="outside the shape"):
        L.apply(2, 0, shape=(2, 4))
    assert L.apply(1, 3, shape=(2, 4)) == {"m": 6, "laneid": 1}


def test_values_are_immutable_hashable_and_their_repr_pastes_back():
    from unilayout.axe import ComposeLayout, Iter, TileLayout  # noqa: F401  (names the reprs use)

    for rec in CASES[:20]:
        L = build(rec)
        assert eval(repr(L)) == L and hash(eval(repr(L))) == hash(L)  # noqa: S307
    with pytest.raises(AttributeError):
        L.offset = ()


@pytest.mark.parametrize("bad, match", [
    (lambda: axe.TileLayout([(-1, 1, "m")]), "extent is >= 0"),
    (lambda: axe.TileLayout([(2, 1, "9x")]), "an axis is a name"),
    (lambda: axe.TileLayout([(2, 1)]), "expected Iter"),
    (lambda: axe.TileLayout([(2, 1, "m")], offset=[1]), "offset is a dict"),
    (lambda: axe.ComposeLayout(0, 3, 2, axe.TileLayout()), "atom_len 2 must be at least swizzle_len 3"),
    (lambda: axe.TileLayout([(2, 1 << 63, "m")]), "beyond the 64-bit range"),
])
def test_bad_values_are_layout_errors(bad, match):
    with pytest.raises(LayoutError, match=match):
        bad()


def test_apply_is_exact_beyond_int64_and_the_tables_refuse_to_overflow():
    L = axe.TileLayout([(8, 1 << 61, "m"), (2, 1, "laneid")])
    assert L.apply(15, replicas=False) == {"m": 7 << 61, "laneid": 1}  # 7 * 2**61 > int64's max
    with pytest.raises(LayoutError, match="beyond int64"):
        L.table()
    with pytest.raises(LayoutError, match="beyond int64"):
        L.evaluate(np.arange(16))
    assert axe.TileLayout([(2, 1 << 61, "m")]).table()[:, 0].tolist() == [0, 1 << 61]
