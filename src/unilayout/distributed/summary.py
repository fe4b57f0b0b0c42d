"""What each device holds: a per-device table (plain data and text) and an SVG picture. numpy only, no JAX.

``shard_summary(ml, device)`` lists, for every device ``distribute`` puts
data on, its chip id, the grid cells it holds, the shape of its block,
its bytes, the fraction of padding slots, and whether the block is a
replica. ``shard_svg(ml, device)`` draws the grid with each cell coloured by
its chip.

The seed's "data parallel over batch" (mesh 2x1x1, grid 2x2x4, tilized to
bfp_bf8 32x32 tiles: 8x3x1 tiles per core, 1088 bytes each):

>>> from unilayout import tt
>>> dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (2, 1, 1))
>>> ml = tt.MetalLayout.from_collapse((16, 3, 64, 128), (2, 2, 4), [(1, -1)], tile=(32, 32), tile_dtype="bfp_bf8")
>>> print(shard_summary(ml, dev))
tensor 16x3x64x128 f32 on grid 2x2x4 over 2 device(s), device mesh 2x1x1
block array 16x192x128, NamedSharding over the device mesh: (mesh0, None, None)
chip  cells            shard      bytes    padding  replica
   0  [0:1, 0:2, 0:4]  8x192x128  208,896  0.0%     no
   1  [1:2, 0:2, 0:4]  8x192x128  208,896  0.0%     no
"""

from __future__ import annotations

import math
from typing import NamedTuple
from xml.sax.saxutils import escape

import numpy as np

from ..errors import NotRepresentableError
from ..tt.blocks import plan
from ..tt.memory import element_bytes, tile_bytes
from ..tt.metal import xs
from .sharding import spec_entries

__all__ = ["DeviceShard", "ShardSummary", "shard_summary", "shard_svg"]


class DeviceShard(NamedTuple):
    """One device's part: chip id, grid cells ``((start, stop), ...)`` per grid dim, block shape, bytes,
    padding fraction, and ``replica_of`` (the chip ``place`` names for the block; equal to ``chip_id``
    for the original) and ``replicated`` (the block is on more than one device).

    >>> DeviceShard(1, ((1, 2), (0, 4)), (8, 128), 4096, 0.0, 1, False).replicated
    False
    """

    chip_id: int
    cells: tuple
    shape: tuple
    bytes: int
    padding_fraction: float
    replica_of: int
    replicated: bool


class ShardSummary(NamedTuple):
    """Result of ``shard_summary``: plain data, and ``str()`` gives a readable table.

    Fields: ``logical_shape``, ``element_type``, ``grid``, ``mesh_shape``,
    ``global_shape`` (the array ``distribute`` returns), ``spec`` (PartitionSpec
    entries over the device's mesh axes ``mesh0, mesh1, ...``, or None when
    ``distribute`` places device by device), ``reason`` (why not, else None),
    ``devices`` (``DeviceShard`` per device, in mesh order).

    >>> from unilayout import tt
    >>> s = shard_summary(tt.MetalLayout.from_collapse((64, 64), (2, 2)), tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (1, 2)))
    >>> [(d.chip_id, d.replicated) for d in s.devices], s.spec
    ([(0, True), (1, True)], (None, None))
    """

    logical_shape: tuple
    element_type: str
    grid: tuple
    mesh_shape: tuple
    global_shape: tuple
    spec: tuple
    reason: str
    devices: tuple

    def text(self) -> str:
        """The table ``str()`` prints.

        >>> from unilayout import tt
        >>> s = shard_summary(tt.MetalLayout.from_collapse((64, 64), (2, 2)), tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (1, 2)))
        >>> print(s.text().splitlines()[-1])
           1  [0:2, 0:2]  64x64  16,384  0.0%     of chip 0
        """
        lines = [f"tensor {xs(self.logical_shape)} {self.element_type} on grid {xs(self.grid)} over "
                 f"{len(self.devices)} device(s), device mesh {xs(self.mesh_shape)}"]
        if self.spec is not None:
            how = "NamedSharding over the device mesh: (" + ", ".join(
                "None" if e is None else e if isinstance(e, str) else "(" + ", ".join(e) + ")" for e in self.spec) + ")"
        else:
            how = f"placed device by device ({self.reason})"
        lines.append(f"block array {xs(self.global_shape)}, {how}")
        rows = [("chip", "cells", "shard", "bytes", "padding", "replica")]
        for d in self.devices:
            rep = "no" if not d.replicated else "yes" if d.replica_of == d.chip_id else f"of chip {d.replica_of}"
            rows.append((str(d.chip_id), "[" + ", ".join(f"{a}:{b}" for a, b in d.cells) + "]", xs(d.shape),
                         f"{d.bytes:,}", f"{100 * d.padding_fraction:.1f}%", rep))
        width = [max(len(r[k]) for r in rows) for k in range(6)]
        for r in rows:
            lines.append("  ".join([r[0].rjust(width[0])] + [v.ljust(w) for v, w in zip(r[1:5], width[1:5])] + [r[5]]))
        return "\n".join(lines)

    def __str__(self):
        return self.text()


def _slot_bytes(ml):
    """Bytes of one padded shard on a core: whole tiles when tilized, else elements."""
    if ml.tile is not None:
        return math.prod(ml.memref_shape) * tile_bytes(ml.tile_dtype, ml.tile)
    return math.prod(ml.padded_shard_shape) * element_bytes(ml.element_type)


def shard_summary(metal_layout, device) -> ShardSummary:
    """Per device: the grid cells, block shape, bytes, padding fraction and replication ``distribute`` gives.

    Bytes count whole shards as a core stores them (tiles of ``tile_dtype``
    when tilized, else ``element_type`` scalars), empty cells that pad a short
    last block included. Raises ``NotRepresentableError`` where ``distribute``
    does (a chip's cells are not one box of a regular tiling).

    >>> from unilayout import tt
    >>> dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (1, 2))
    >>> s = shard_summary(tt.MetalLayout.from_collapse((250, 900), (4, 12)), dev)
    >>> [(d.chip_id, d.cells, d.shape, round(d.padding_fraction, 3)) for d in s.devices]
    [(0, ((0, 4), (0, 8)), (252, 600), 0.008), (1, ((0, 4), (8, 12)), (252, 600), 0.504)]
    >>> s.spec is None, s.reason
    (True, 'grid dim 1 has 12 cells in blocks of 8 per chip: the last chip gets 4, and a NamedSharding needs equal shards (distribute pads the block instead)')
    """
    p = plan(metal_layout, device)
    ml = metal_layout
    try:
        spec, reason = tuple(spec_entries(p, {a: f"mesh{a}" for a in range(len(device.mesh_shape))})), None
    except NotRepresentableError as e:
        spec, reason = None, str(e)
    per_core = math.prod(ml.padded_shard_shape)
    pad = ml.padding_summary().slots
    cells_per_block = math.prod(p.block)
    out = []
    for h in p.holders:
        box = tuple(slice(a, b) for a, b in h.cells)
        pad_slots = int(np.asarray(pad)[box].sum()) + (cells_per_block - math.prod(b - a for a, b in h.cells)) * per_core
        out.append(DeviceShard(h.chip_id, h.cells, p.device_shape, cells_per_block * _slot_bytes(ml),
                               pad_slots / (cells_per_block * per_core), h.primary, h.replicated))
    return ShardSummary(ml.logical_shape, ml.element_type, ml.grid, device.mesh_shape, p.padded_global_shape,
                        spec, reason, tuple(out))


_PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7",
            "#9c755f", "#bab0ac")


def shard_svg(metal_layout, device, cell_size=28) -> str:
    """A self-contained SVG of the layout's grid, each cell coloured by the chip that holds it.

    Grids of rank > 2 are drawn as rows of the flattened leading dims by
    the last dim. Each cell is a ``<rect class="cell">`` with ``data-index``
    (its row-major position in the grid), ``data-chip`` and ``data-cell``;
    cells that hold only padding also have class ``padding``. A legend lists
    each chip and the devices holding copies of its block.

    >>> from unilayout import tt
    >>> svg = shard_svg(tt.MetalLayout.from_collapse((256, 1024), (4, 16)),
    ...                 tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (1, 2)))
    >>> svg.startswith("<svg"), svg.count('class="cell'), 'data-index="63"' in svg
    (True, 64, True)
    """
    p = plan(metal_layout, device)
    ml = metal_layout
    grid = ml.grid
    cols = grid[-1]
    rows = math.prod(grid[:-1])
    chips = p.chips.reshape(rows, cols)
    empty = np.asarray(ml.padding_summary().slots).reshape(rows, cols) == math.prod(ml.padded_shard_shape)
    order = sorted(set(int(c) for c in chips.reshape(-1)))
    colour = {c: _PALETTE[k % len(_PALETTE)] for k, c in enumerate(order)}
    copies = {}
    for h in p.holders:
        if h.chip_id != h.primary:
            copies.setdefault(h.primary, []).append(h.chip_id)
    pad, top = 10, 34
    legend_h = 18 * len(order) + 8
    w = max(2 * pad + cols * cell_size, 360)
    h = top + rows * cell_size + pad + legend_h
    title = f"{xs(ml.logical_shape)} {ml.element_type} on grid {xs(grid)}, device mesh {xs(device.mesh_shape)}"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
           'font-family="monospace" font-size="11">',
           f"<title>{escape(title)}</title>",
           '<style>.cell{stroke:#fff;stroke-width:1}.padding{fill-opacity:0.35}</style>',
           f'<text x="{pad}" y="20" font-size="13">{escape(title)}</text>']
    for r in range(rows):
        for c in range(cols):
            G = tuple(int(v) for v in np.unravel_index(r * cols + c, grid))
            chip = int(chips[r, c])
            cls = "cell padding" if empty[r, c] else "cell"
            x, y = pad + c * cell_size, top + r * cell_size
            out.append(f'<rect class="{cls}" data-index="{r * cols + c}" data-chip="{chip}" '
                       f'data-cell="{escape(",".join(map(str, G)))}" x="{x}" y="{y}" width="{cell_size}" '
                       f'height="{cell_size}" fill="{colour[chip]}"><title>{escape(f"cell {G}: chip {chip}")}</title></rect>')
            out.append(f'<text x="{x + cell_size / 2}" y="{y + cell_size / 2 + 4}" text-anchor="middle" '
                       f'fill="#fff" pointer-events="none">{chip}</text>')
    y0 = top + rows * cell_size + pad
    for k, c in enumerate(order):
        y = y0 + 18 * k
        extra = f" (copies on chips {', '.join(map(str, copies[c]))})" if c in copies else ""
        out.append(f'<rect x="{pad}" y="{y}" width="12" height="12" fill="{colour[c]}"/>')
        out.append(f'<text x="{pad + 18}" y="{y + 10}">{escape(f"chip {c}{extra}")}</text>')
    out.append("</svg>")
    return "\n".join(out)
