"""convert.tt_sharding: from_metal against tt's own answer (locate + place) for every element of random layouts and devices."""

import random

import numpy as np
import pytest

from unilayout import LayoutError, NotRepresentableError, tt
from unilayout.convert.tt_sharding import _from_plan, from_metal, owners_to_sharding
from unilayout.sharding import to_ttnn


def brute(ml, dev):
    """{chip: set of logical indices} from MetalLayout.locate and Device.place, one element at a time."""
    cores = dev.place(ml).cores
    out = {c: set() for c in dev.chip_ids}
    for x in np.ndindex(*ml.logical_shape):
        G, _ = ml.locate(*x)
        out[int(cores[G][0])].add(x)
    return out



def elements(s):
    out = {}
    for d, boxes in s.device_boxes.items():
        pts = set()
        for b in boxes:
            for y in np.ndindex(*[z - a for a, z in b]):
                pts.add(tuple(a + v for (a, _), v in zip(b, y)))
        out[d] = pts
    return out


def test_random_layouts_match_locate_and_place():
    rng = random.Random(4)
    chip = (2, 2)
    checked = 0
    for _ in range(150):
        mesh = rng.choice([(2, 1), (1, 2), (2, 2), (1, 4), (4, 1)])
        dev = tt.Device.from_mesh(tt.SystemDesc(chip, num_chips=int(np.prod(mesh))), mesh)
        G = dev.grid_shape
        grid = (rng.randint(1, G[0]), rng.randint(1, G[1]))
        shape = (rng.randint(1, 3), grid[0] * rng.randint(1, 3) - rng.randint(0, 1), grid[1] * rng.randint(1, 2) + rng.randint(0, 2))
        try:
            ml = tt.MetalLayout.from_collapse(shape, grid, [(0, 2)])
        except LayoutError:
            continue
        want = brute(ml, dev)
        s = from_metal(ml, dev)
        got = elements(s)
        single = [a for a, d in enumerate(dev.place(ml).distribution) if d == "single"]
        if single:
            # replicated along single-chip mesh axes: a chip holds what the used chip of its line holds
            pos = {c: list(np.unravel_index(k, mesh)) for k, c in enumerate(dev.chip_ids)}
            used = {a: next(pos[c][a] for c in dev.chip_ids if want[c]) for a in single}
            expect = {}
            for c in dev.chip_ids:
                m = list(pos[c])
                for a in single:
                    m[a] = used[a]
                expect[c] = want[dev.chip_ids[int(np.ravel_multi_index(m, mesh))]]
            assert got == expect, (shape, grid, mesh)
        else:
            assert got == want, (shape, grid, mesh)
        checked += 1
    assert checked > 100


def test_seed_placements_and_replicas():
    dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=4), (2, 1, 2))
    ml = tt.MetalLayout.from_collapse((64, 256, 1024), (2, 4, 16), [])
    s = from_metal(ml, dev)
    assert s.device_boxes[3] == [((32, 64), (0, 256), (512, 1024))]
    # a layout on one chip of a 1x2 mesh is replicated on both (TTNN's ReplicateTensorToMesh)
    dev2 = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (1, 2))
    r = from_metal(tt.MetalLayout.from_collapse((64, 64), (2, 2)), dev2)
    assert r.is_fully_replicated and r.num_devices == 2


def test_padded_grid_versus_ttnn_chunks():
    """20 rows on a 16-cell grid over 2 chips: shards of 2 rows, chip 1 gets 4 rows; TTNN's chunk gives 10+10."""
    dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (2, 1))
    ml = tt.MetalLayout.from_collapse((20, 64), (16, 1))
    s = from_metal(ml, dev)
    assert [s.local_shape(c) for c in (0, 1)] == [(16, 64), (4, 64)]
    with pytest.raises(NotRepresentableError, match=r"held as 16\+4 .* as 10\+10"):
        to_ttnn(s, (2, 1))


def test_owners_to_sharding_and_errors():
    own = np.array([[0, 1], [1, 0]])
    s = owners_to_sharding(own, [0, 1])
    assert s.device_boxes == {0: [((0, 1), (0, 1)), ((1, 2), (1, 2))], 1: [((0, 1), (1, 2)), ((1, 2), (0, 1))]}
    assert (s.owners() == own).all()
    with pytest.raises(LayoutError, match="expected a tt.MetalLayout"):
        from_metal("ml", tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (2, 1)))
    with pytest.raises(LayoutError, match="expected a tt.Device"):
        from_metal(tt.MetalLayout.from_collapse((4, 4), (1, 1)), "dev")


def test_identity_maps_take_the_block_plan_and_agree_with_enumeration():
    rng = random.Random(12)
    used = 0
    for _ in range(80):
        mesh = rng.choice([(2, 1), (1, 2), (2, 2), (1, 4)])
        dev = tt.Device.from_mesh(tt.SystemDesc((2, 2), num_chips=int(np.prod(mesh))), mesh)
        G = dev.grid_shape
        grid = (rng.randint(1, G[0]), rng.randint(1, G[1]))
        shape = (rng.randint(1, 3 * grid[0]), rng.randint(1, 3 * grid[1]))
        try:
            ml = tt.MetalLayout.from_collapse(shape, grid)
        except LayoutError:
            continue
        fast = _from_plan(ml, dev)
        if fast is None:
            continue
        # enumeration, written out: the chip of every element, then the replicas as from_metal adds them
        cores = dev.place(ml).cores
        want = {c: set() for c in dev.chip_ids}
        for x in np.ndindex(*shape):
            want[int(cores[ml.locate(*x)[0]][0])].add(x)
        got = elements(fast)
        for c in dev.chip_ids:
            if want[c]:
                assert got[c] == want[c], (shape, grid, mesh)
        used += 1
    assert used > 40
    # a large identity layout needs no element table
    big = tt.MetalLayout.from_collapse((1 << 16, 1 << 16), (8, 16))
    two = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (1, 2))
    assert from_metal(big, two).device_boxes[1] == [((0, 65536), (32768, 65536))]


def test_the_old_sharding_paths_are_aliases():
    from unilayout import sharding
    from unilayout.convert import tt_sharding
    from unilayout.sharding import metal

    assert sharding.from_metal is metal.from_metal is from_metal
    assert [getattr(metal, n) for n in metal.__all__] == [getattr(tt_sharding, n) for n in metal.__all__]
