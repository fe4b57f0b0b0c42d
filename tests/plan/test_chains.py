"""plan.chain: the dynamic programme equals exhaustive search; the seed's exp/transpose/relu costs nothing."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unilayout import LayoutError, tt
from unilayout.plan import chain, grids, reshard_cost

DEV = tt.Device((4, 4), "(d0, d1) -> (0, d0, d1)")
SHAPE = (16, 16)
POOL = [
    tt.MetalLayout.from_collapse(SHAPE, (4, 4)),
    tt.MetalLayout.from_collapse(SHAPE, (2, 4)),
    tt.MetalLayout.from_collapse(SHAPE, (4, 1)),
    tt.MetalLayout(SHAPE, "(d0, d1) -> (d1, d0)", (4, 4)),
    tt.MetalLayout(SHAPE, "(d0, d1) -> (d1, d0)", (2, 2)),
    tt.MetalLayout.from_collapse(SHAPE, (1, 1), tile=(8, 8)),
]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.lists(st.sampled_from(range(len(POOL))), min_size=1, max_size=3, unique=True), min_size=1, max_size=4),
       st.sampled_from([0.5, 1, 3]))
def test_dp_equals_exhaustive_search(op_idx, weight):
    ops = [[POOL[i] for i in op] for op in op_idx]
    p = chain(ops, DEV, reinterpret=False, chip_weight=weight)
    best = None
    for combo in itertools.product(*ops):
        cost = sum(reshard_cost(a, b, DEV, reinterpret=False).moved_bytes for a, b in zip(combo, combo[1:]))
        best = cost if best is None else min(best, cost)
    assert p.total_bytes == best
    assert p.total_bytes == sum(e.moved_bytes for e in p.edges)
    assert tuple(ops[j][k] for j, k in enumerate(p.choices)) == p.layouts


def test_dp_with_reinterpreted_views_equals_search_over_views():
    from unilayout.plan import reinterpretations
    ops = [[POOL[0], POOL[1]], [POOL[3], POOL[4]], [POOL[0], POOL[3]]]
    p = chain(ops, DEV)
    views = [DEV] + [r.device for r in reinterpretations(DEV)]
    best = None
    for combo in itertools.product(*[[(ml, v) for ml in op for v in views
                                      if all(a <= b for a, b in zip(ml.grid, v.grid_shape)) and len(ml.grid) == len(v.grid_shape)]
                                     for op in ops]):
        cost = sum(reshard_cost(a, b, da, dst_device=db).moved_bytes for (a, da), (b, db) in zip(combo, combo[1:]))
        best = cost if best is None else min(best, cost)
    assert p.total_bytes == best


def test_seed_exp_transpose_relu():
    dev = tt.Device((8, 8), "(d0, d1) -> (0, d0, d1)")
    a = tt.MetalLayout.from_collapse((256, 256), (8, 8))
    aT = tt.MetalLayout((256, 256), "(d0, d1) -> (d1, d0)", (8, 8))
    p = chain([[a], [a], [aT]], dev)
    assert p.total_bytes == 0 and str(p.views[2]) == "transposed"
    assert p.edges[1].reinterpretation is not None and p.edges[1].reinterpretation.name == "transposed"
    plain = chain([[a], [a], [aT]], dev, reinterpret=False)
    assert plain.total_bytes == 56 * 32 * 32 * 4
    # a later op reading relu's output keeps the transposed view for free
    p4 = chain([[a], [a], [aT], [aT]], dev)
    assert p4.total_bytes == 0 and str(p4.views[3]) == "transposed"


def test_grid_choices_bring_their_device():
    g = grids(SHAPE, DEV)
    wide = [c for c in g if c.grid == (1, 16)][0]
    p = chain([[POOL[0]], [wide]], DEV, reinterpret=False)
    assert p.devices[1].grid_shape == (1, 16) and p.views[1] == "given"
    assert p.edges[0] == reshard_cost(POOL[0], wide.layout, DEV, dst_device=wide.device)
    assert "total moved" in p.table()


def test_chip_weight_prefers_staying_on_chip():
    dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (1, 2))
    a = tt.MetalLayout.from_collapse((64, 256), (8, 16))
    on_chip_only = tt.MetalLayout.from_collapse((64, 256), (8, 8), tile=None)
    b = tt.MetalLayout.from_collapse((64, 256), (4, 16))
    heavy = chain([[a], [on_chip_only, b]], dev, chip_weight=100, reinterpret=False)
    costs = [reshard_cost(a, x, dev, reinterpret=False) for x in (on_chip_only, b)]
    want = min(range(2), key=lambda i: costs[i].on_chip_bytes + 100 * costs[i].chip_to_chip_bytes)
    assert heavy.choices[1] == want


def test_bad_input():
    a = POOL[0]
    with pytest.raises(LayoutError, match="at least one op"):
        chain([], DEV)
    with pytest.raises(LayoutError, match="no candidate"):
        chain([[a], []], DEV)
    with pytest.raises(LayoutError, match="logical shape"):
        chain([[a], [tt.MetalLayout.from_collapse((8, 8), (2, 2))]], DEV)
    with pytest.raises(LayoutError, match="must be a tt.MetalLayout"):
        chain([[a], ["x"]], DEV)
    with pytest.raises(LayoutError, match="chip_weight"):
        chain([[a]], DEV, chip_weight=-1)
    with pytest.raises(LayoutError, match="chip_weight"):
        chain([[a]], DEV, chip_weight="heavy")
