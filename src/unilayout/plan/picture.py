"""Pictures of the planner's answers: reshard traffic as a core-to-core heat map, a chosen grid over the device.

The planner draws its own answers here, with the neutral picture kit
``unilayout.draw`` (as each family draws its values in its ``picture.py``);
``unilayout.viz.plan``, where these lived before, is kept as an alias.

``traffic_scene(cost)`` draws ``cost.traffic`` (a ``plan.ReshardCost``): row
= sending core, column = receiving core, both the physical cores
``(chip, y, x)`` in order, with a gap between chips. A cell's blue is the
bytes it carries (darker = more), the diagonal (bytes that stay on their
core) is outlined, empty pairs are pale grey. ``data-index`` is
``row * n + column``; ``data-bytes`` the bytes.

``grid_choice_scene(choice)`` draws the physical cores of the device a
``plan.GridChoice`` was made for (chips side by side): each core holding a
shard is coloured by the shard and labelled with its grid coordinate and
the share of its (tile-padded) shard that is data; idle cores are pale.

>>> from unilayout import plan, tt
>>> dev = tt.Device((2, 2), "(d0, d1) -> (0, d0, d1)")
>>> c = plan.reshard_cost(tt.MetalLayout.from_collapse((8, 8), (2, 2)), tt.MetalLayout.from_collapse((8, 8), (1, 2)), dev)
>>> s = traffic_scene(c)
>>> s.shape, int(s.attrs["bytes"].sum()) == c.total_bytes
((4, 4), True)
>>> g = grid_choice_scene(plan.grids((53, 63), tt.Device((8, 8), "(d0, d1) -> (0, d0, d1)"), virtual=False)[0])
>>> g.labels[7, 7]
'7,7\\n50%'
"""

from __future__ import annotations

import numpy as np

from ..draw.colors import EMPTY, categorical, gradient
from ..draw.scene import DEFAULT_MAX_CELLS, grid_scene
from ..errors import LayoutError
from .choose import GridChoice
from .reshard import ReshardCost

__all__ = ["traffic_scene", "grid_choice_scene"]

_GAP = 8.0


def _human(n, binary=False) -> str:
    """``4096`` -> ``4K`` (cell labels) or, with ``binary``, ``4 KiB`` (titles)."""
    n = int(n)
    for unit, size in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if n >= size:
            v = n / size
            num = f"{v:.0f}" if v >= 10 or v == int(v) else f"{v:.1f}"
            return f"{num} {unit}iB" if binary else f"{num}{unit}"
    return f"{n} B" if binary else str(n)


def _core_name(core, chips) -> str:
    c, y, x = (int(v) for v in core)
    return f"{y},{x}" if chips == 1 else f"c{c} {y},{x}"


def _chip_runs(chip_of):
    runs, start = [], 0
    for k in range(1, len(chip_of) + 1):
        if k == len(chip_of) or chip_of[k] != chip_of[start]:
            runs.append((start, k))
            start = k
    return runs


def traffic_scene(cost, *, max_cells=DEFAULT_MAX_CELLS, labels=None):
    """The core-to-core heat map of a ``plan.ReshardCost`` (see the module docstring).

    ``labels`` (default: only when at most 16 cores) writes the bytes in each
    non-empty cell (``4K`` = 4096).

    >>> from unilayout import plan, tt
    >>> dev = tt.Device((1, 2), "(d0, d1) -> (0, d0, d1)")
    >>> a = tt.MetalLayout.from_collapse((4, 4), (1, 2))
    >>> traffic_scene(plan.reshard_cost(a, a, dev)).labels.tolist()
    [['32', ''], ['', '32']]
    """
    if not isinstance(cost, ReshardCost):
        raise LayoutError(f"traffic_scene: expected a plan.ReshardCost, got {type(cost).__name__}")
    T = np.asarray(cost.traffic)
    n = T.shape[0]
    if n * n > int(max_cells):
        raise LayoutError(f"traffic map of {n} cores has {n * n:,} cells, more than max_cells={max_cells:,}")
    cores = np.asarray(cost.cores)
    chip_of = cores[:, 0].tolist()
    chips = len(set(chip_of))
    names = [_core_name(c, chips) for c in cores.tolist()]
    if labels is None:
        labels = n <= 16
    text = np.full((n, n), "", dtype=object)
    if labels:
        nz = T > 0
        text[nz] = [_human(v) for v in T[nz].tolist()]
    per_chip = n // chips if chips and n % chips == 0 and all(b - a == n // chips for a, b in _chip_runs(chip_of)) else 0
    moved = "" if cost.reinterpretation is None else f", under the {cost.reinterpretation} grid"
    title = f"reshard traffic: {_human(cost.moved_bytes, True)} moved, {_human(cost.local_bytes, True)} local{moved}"
    show_names = n <= 64
    # room on the left for row names longer than grid_scene's numeric headers
    room = max(0.0, 6.6 * max(map(len, names)) + 6 - 8.4 * (len(str(n - 1)) + 1)) if show_names else 0.0
    scene = grid_scene(title, n, n, labels=text, row_group=per_chip if chips > 1 else 0,
                       col_group=per_chip if chips > 1 else 0, gap=_GAP, headers=show_names,
                       row_names=names if show_names else None, col_names=[s.split(" ")[-1] for s in names] if show_names else None,
                       min_cell_w=26.0 if show_names else 10.0, cell_h=22.0 if show_names else 10.0,
                       origin=(room, 0.0))
    scene.kind = "traffic"
    fill = gradient(T.reshape(-1), lo=0, hi=max(int(T.max()), 1)).reshape(n, n, 3)
    fill[T == 0] = EMPTY
    scene.fill = fill
    scene.attrs["bytes"] = T.astype(np.int64)
    for i in range(n):
        scene.add_outline(*scene.cell_box(i, i, i + 1, i + 1), rgb=(200, 0, 0), width=1.5, cls="local")
    if chips > 1:
        for a, b in _chip_runs(chip_of):
            for c0, c1 in _chip_runs(chip_of):
                scene.add_outline(*scene.cell_box(a, c0, b, c1), rgb=(0, 0, 0), width=1.5, cls="chip")
    scene.notes = [
        "row: sending core, column: receiving core" + (" (chip y,x)" if chips > 1 else " (y,x)")
        + "; darker = more bytes" + ("; labels in bytes, K = 1024" if labels else "")
        + "; red: the diagonal, bytes that stay on their core",
        f"local {cost.local_bytes:,} B, on chip {cost.on_chip_bytes:,} B, chip to chip {cost.chip_to_chip_bytes:,} B; "
        f"max send {cost.max_send_bytes:,} B, max receive {cost.max_receive_bytes:,} B; {cost.transfers} transfers; "
        f"padding carried {cost.padding_bytes:,} B",
    ]
    if chips > 1:
        ids = sorted(set(chip_of))
        scene.notes.append(f"black blocks: chips {', '.join(map(str, ids))} in order, sender's chip by row block, "
                           "receiver's chip by column block")
    return scene


def grid_choice_scene(choice, *, max_cells=DEFAULT_MAX_CELLS):
    """The physical cores of the device with the shards of a ``plan.GridChoice`` on them (module docstring).

    >>> from unilayout import plan, tt
    >>> s = grid_choice_scene(plan.grids((64, 64), tt.Device((2, 2), "(d0, d1) -> (0, d0, d1)"))[0])
    >>> s.labels.tolist()
    [['0,0\\n100%', '0,1\\n100%'], ['1,0\\n100%', '1,1\\n100%']]
    """
    if not isinstance(choice, GridChoice):
        raise LayoutError(f"grid_choice_scene: expected a plan.GridChoice, got {type(choice).__name__}")
    base = choice._spec[4]
    phys = base.physical_cores().reshape(-1, 3)
    chip_ids = sorted(set(phys[:, 0].tolist()))
    P0 = int(phys[:, 1].max()) + 1
    P1 = int(phys[:, 2].max()) + 1
    rows, cols = P0, P1 * len(chip_ids)
    if rows * cols > int(max_cells):
        raise LayoutError(f"device of {rows * cols:,} cores is more than max_cells={max_cells:,}")
    ml = choice.layout
    placed = choice.device.place(ml).cores.reshape(-1, 3)
    grid = ml.grid
    G = np.indices(grid).reshape(len(grid), -1).T
    slots = int(np.prod(ml.padded_shard_shape))
    data = slots - ml.padding_summary().slots.reshape(-1)  # holes of alignment inside a collapsed group included
    col_of = {c: k for k, c in enumerate(chip_ids)}
    text = np.full((rows, cols), "", dtype=object)
    key = np.full((rows, cols), -1, dtype=np.int64)
    frac = np.zeros((rows, cols))
    for k, (core, g) in enumerate(zip(placed.tolist(), G.tolist())):
        c, y, x = core
        r, q = y, col_of[c] * P1 + x
        text[r, q] = ",".join(map(str, g)) + f"\n{100 * data[k] / slots:.0f}%"
        key[r, q] = k
        frac[r, q] = data[k] / slots
    where = choice.placement if choice.placement == "physical" else f"{choice.placement} view"
    title = (f"grid {'x'.join(map(str, grid))} ({where}) of {'x'.join(map(str, ml.logical_shape))}x{ml.element_type}: "
             f"{choice.cores_used} cores, padding {100 * choice.padding_fraction:.1f}%")
    scene = grid_scene(title, rows, cols, labels=text, col_group=P1 if len(chip_ids) > 1 else 0, gap=_GAP,
                       col_names=[str(x % P1) for x in range(cols)])
    scene.kind = "grid"
    fill = categorical(np.maximum(key, 0))
    fill[key < 0] = EMPTY
    scene.fill = fill.reshape(rows, cols, 3)
    scene.attrs["shard"] = key
    if len(chip_ids) > 1:
        for k in range(len(chip_ids)):
            scene.add_outline(*scene.cell_box(0, k * P1, rows, (k + 1) * P1), rgb=(0, 0, 0), width=2, cls="chip")
    scene.notes = [
        "label: the shard's grid coordinate and the share of its (tile-padded) shard that is data; pale: idle core"
        + (f"; chips {chip_ids} left to right" if len(chip_ids) > 1 else ""),
        f"{choice.bytes_per_core:,} B per core ({'fits' if choice.fits_l1 else 'does not fit'} in L1); "
        f"collapse {list(choice.collapse)}; {ml.attribute()}",
    ]
    return scene
