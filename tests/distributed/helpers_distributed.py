"""Shared checks for tests/distributed: each device's shard against tt's own answer."""

import numpy as np

from unilayout.tt.shard import fill_value


def device_blocks(x, ml, devs):
    """Yield (chip id, first grid cell, cells-per-dim, per-cell shards nb + S') for each addressable shard."""
    S = ml.padded_shard_shape
    g = len(S)
    for sh in x.addressable_shards:
        data = np.asarray(sh.data)
        start = tuple((sl.start or 0) for sl in sh.index)
        assert all(st % s == 0 for st, s in zip(start, S)), "a device's slice must start at a shard boundary"
        assert all(n % s == 0 for n, s in zip(data.shape, S)), "a device's slice must hold whole shards"
        nb = tuple(n // s for n, s in zip(data.shape, S))
        inter = data.reshape(tuple(v for b, s in zip(nb, S) for v in (b, s)))
        cells = inter.transpose(list(range(0, 2 * g, 2)) + list(range(1, 2 * g, 2)))
        yield devs.index(sh.device), tuple(st // s for st, s in zip(start, S)), nb, cells


def check_distributed(x, a, ml, dev, devs):
    """Every device's shard equals ml.shard(a) at the cells place() gives that chip, element by element.

    Returns {primary chip: [devices holding its block]}.
    """
    ref = ml.shard(a)
    place = dev.place(ml)
    chips = place.cores[..., 0]
    fill = fill_value(ml, a.dtype)
    mesh = dev.mesh_shape
    holders = {}
    covered = np.zeros(ml.grid, dtype=int)
    for chip, G0, nb, cells in device_blocks(x, ml, devs):
        box = tuple(slice(s, min(s + n, gn)) for s, n, gn in zip(G0, nb, ml.grid))
        inside = tuple(slice(0, b.stop - b.start) for b in box)
        owner = np.unique(chips[box])
        assert owner.size == 1, f"device {chip} holds cells of chips {owner.tolist()}"
        primary = int(owner[0])
        if chip != primary:
            # a copy: only along mesh axes where the layout sits on one chip
            m_c = np.unravel_index(dev.chip_ids.index(chip), mesh)
            m_p = np.unravel_index(dev.chip_ids.index(primary), mesh)
            for ax, (u, v) in enumerate(zip(m_c, m_p)):
                assert u == v or place.distribution[ax] == "single", (chip, primary, place.distribution)
        else:
            covered[box] += 1
        np.testing.assert_array_equal(cells[inside], ref[box])
        # cells beyond the grid (a short last block) are whole empty shards
        extra = np.ones(cells.shape[:len(nb)], dtype=bool)
        extra[inside] = False
        if extra.any():
            assert (cells[extra] == fill).all()
        holders.setdefault(primary, []).append(chip)
    assert (covered == 1).all(), "each grid cell must be on the chip place() names exactly once"
    return holders
