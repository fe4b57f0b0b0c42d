"""The TTNN view of a metal layout: shape, stride, shard shapes, tile, grid and TTNN's memory layouts.

TTNN has no affine map: it always collapses dims ``[0, r-1)`` into rows and
keeps the last dim as columns, which it records in PyTorch-style strides.
A metal layout has a TTNN view when its grid is 2-D and its map is TTNN's
collapse ``(sum_{i<r-1} c_i * x_i, x_{r-1})`` with ``c_{r-2} = 1`` (outer
stride bumps allowed).

>>> from unilayout.tt import MetalLayout
>>> v = MetalLayout.from_collapse((2, 3, 64, 128), (2, 4), tile=(32, 32)).to_ttnn()
>>> v.shape, v.stride, v.shard_shape, v.physical_shard_shape, v.tile_shape, v.grid_shape
((2, 3, 64, 128), (24576, 8192, 128, 1), (192, 32), (192, 32), (32, 32), (2, 4))
>>> v.memory_layout, v.shard_spec.shape, v.shard_spec.grid
('BLOCK_SHARDED', (192, 32), (CoreRange(start=(0, 0), end=(3, 1)),))

TTNN's ``TensorMemoryLayout`` follows from the grid and the memory space:

=================  ===================  ==================================================
grid (gy, gx)      memory space         TTNN
=================  ===================  ==================================================
1x1                dram, system, mmio   INTERLEAVED: pages (tiles or rows) round-robin
gy, gx > 1         l1                   BLOCK_SHARDED, shard (sy, sx)
N x 1              l1, dram             HEIGHT_SHARDED on N cores
1 x N              l1, dram             WIDTH_SHARDED on N cores
1x1                l1                   BLOCK_SHARDED on core (0, 0), the whole tensor
=================  ===================  ==================================================

Core coordinates are TTNN's ``CoreCoord`` order **(x, y)**. ROW_MAJOR gives
shards to cores x fastest, COL_MAJOR y fastest (for block sharding
COL_MAJOR lays the grid's shard rows along x: TTNN's
``create_sharded_memory_config`` splits the height over ``grid.x`` then, so
the same shards sit on the transposed core rectangle). The spec's ``grid_shape`` formula
``[divup(stride[0] // stride[-2], shard[0]), divup(stride[-2], shard[0])]``
has a typo (the second ``shard[0]`` means ``shard[1]``) and, with PyTorch
strides, counts the rows of one ``x_0`` slice only; unilayout reports the
layout's grid.
"""

from __future__ import annotations

from typing import NamedTuple

from ..errors import LayoutError, NotRepresentableError
from ._mlir import _linear_terms, xs

__all__ = ["CoreRange", "ShardSpec", "TTNNLayout", "to_ttnn", "core_ranges"]


class CoreRange(NamedTuple):
    """An inclusive rectangle of cores, TTNN ``CoreRange(start, end)`` with ``(x, y)`` coordinates.

    >>> CoreRange((0, 0), (3, 1)).num_cores
    8
    """

    start: tuple
    end: tuple

    @property
    def num_cores(self) -> int:
        """Cores in the rectangle.

        >>> CoreRange((0, 1), (3, 1)).num_cores
        4
        """
        return (self.end[0] - self.start[0] + 1) * (self.end[1] - self.start[1] + 1)


class ShardSpec(NamedTuple):
    """TTNN ``ShardSpec``: the cores (a tuple of ``CoreRange``), the shard shape (rows, columns), the orientation.

    >>> ShardSpec((CoreRange((0, 0), (7, 0)),), (32, 1024), "ROW_MAJOR").num_cores
    8
    """

    grid: tuple
    shape: tuple
    orientation: str

    @property
    def num_cores(self) -> int:
        """Cores over all ranges.

        >>> ShardSpec((CoreRange((0, 0), (7, 0)), CoreRange((0, 1), (3, 1))), (16, 1024), "ROW_MAJOR").num_cores
        12
        """
        return sum(r.num_cores for r in self.grid)


class TTNNLayout(NamedTuple):
    """The TTNN view of a metal layout (see the module docstring).

    ``tile_shape`` is None and ``physical_shard_shape == shard_shape`` for a
    scalar (row-major) layout; ``shard_spec`` is None for INTERLEAVED.

    >>> from unilayout.tt import MetalLayout
    >>> MetalLayout.from_collapse((64, 1024), (1, 8), memory_space="dram").to_ttnn().memory_layout
    'WIDTH_SHARDED'
    """

    shape: tuple
    stride: tuple
    shard_shape: tuple
    physical_shard_shape: tuple
    tile_shape: tuple
    grid_shape: tuple
    memory_layout: str
    buffer_type: str
    shard_spec: ShardSpec


def _orientation(value):
    o = str(value).upper()
    if o not in ("ROW_MAJOR", "COL_MAJOR"):
        raise LayoutError(f"orientation must be 'row_major' or 'col_major', got {value!r}")
    return o


def core_ranges(n: int, worker_grid=(8, 8), orientation="row_major") -> tuple:
    """``n`` cores filled over ``worker_grid`` (rows, columns), x fastest (ROW_MAJOR) or y fastest: at most 2 ranges.

    >>> core_ranges(12)
    (CoreRange(start=(0, 0), end=(7, 0)), CoreRange(start=(0, 1), end=(3, 1)))
    >>> core_ranges(12, orientation="col_major")
    (CoreRange(start=(0, 0), end=(0, 7)), CoreRange(start=(1, 0), end=(1, 3)))
    """
    wy, wx = worker_grid
    if n > wx * wy:
        raise NotRepresentableError(f"{n} shards need more cores than the {wy}x{wx} worker grid has")
    o = _orientation(orientation)
    fast, slow = (wx, wy) if o == "ROW_MAJOR" else (wy, wx)
    full, rem = divmod(n, fast)
    ranges = []
    if full:
        ranges.append(((0, 0), (fast - 1, full - 1)))
    if rem:
        ranges.append(((0, full), (rem - 1, full)))
    if o == "COL_MAJOR":
        ranges = [((a[1], a[0]), (b[1], b[0])) for a, b in ranges]
    return tuple(CoreRange(a, b) for a, b in ranges)


def _fill_grid(n, worker_grid, orientation):
    """The grid height/width-sharded cores are filled over: the given one, else 8 wide and as tall as needed."""
    if worker_grid is not None:
        return tuple(worker_grid)
    extra = max(8, -(-n // 8))
    return (extra, 8) if orientation == "ROW_MAJOR" else (8, extra)


def to_ttnn(ml, orientation="row_major", worker_grid=None, device=None) -> TTNNLayout:
    """The ``TTNNLayout`` of ``ml``; ``NotRepresentableError`` when TTNN cannot express it.

    The cores are checked against a worker grid only when one is given:
    ``device`` (a ``tt.Device``: its worker grid) or ``worker_grid`` (rows,
    columns; for DRAM sharding the DRAM bank grid, e.g. ``(1, 12)``). Without
    either, a block grid of any size is accepted (a 4x16 block-sharded spec
    is valid TTNN; whether it fits is a property of the device), and height
    or width shards are filled 8 cores wide.

    >>> from unilayout.tt import MetalLayout
    >>> ml = MetalLayout.from_collapse((2, 3, 64, 128), (2, 4))
    >>> to_ttnn(ml, "col_major").shard_spec
    ShardSpec(grid=(CoreRange(start=(0, 0), end=(1, 3)),), shape=(192, 32), orientation='COL_MAJOR')
    """
    o = _orientation(orientation)
    if device is not None:
        if worker_grid is not None:
            raise LayoutError("to_ttnn: give device or worker_grid, not both")
        if len(device.grid_shape) != 2:
            raise NotRepresentableError(f"TTNN places shards on a 2-D worker grid, the device's is {xs(device.grid_shape)}")
        worker_grid = tuple(device.grid_shape)
    if len(ml.grid) != 2:
        raise NotRepresentableError(f"TTNN needs a 2-D grid, the layout's is {xs(ml.grid)}")
    r = ml.rank
    t0, t1 = (_linear_terms(e) for e in ml.linear.results)
    ok = t0 is not None and t1 is not None and t1 == (0, {r - 1: 1}) and t0[0] == 0
    if ok:
        ok = (r - 1 not in t0[1]) and (r == 1 or t0[1].get(r - 2) == 1 or ml.logical_shape[r - 2] == 1)
    if not ok:
        raise NotRepresentableError(
            f"{ml.linear} is not TTNN's collapse (rows = sum c_i * x_i over the leading dims with c_(r-2) = 1, "
            "columns = the last dim)"
        )
    gy, gx = ml.grid
    space = ml.memory_space
    buffer = {"l1": "L1", "dram": "DRAM"}.get(space, "SYSTEM_MEMORY")
    spec = None
    if (gy, gx) == (1, 1) and space != "l1":
        layout = "INTERLEAVED"
    elif space in ("system", "mmio"):
        raise NotRepresentableError(f"a host ({space}) tensor is not sharded over cores, got grid {xs(ml.grid)}")
    elif gx == 1 and gy > 1:
        layout = "HEIGHT_SHARDED"
        spec = ShardSpec(core_ranges(gy, _fill_grid(gy, worker_grid, o), o), ml.shard_shape, o)
    elif gy == 1 and gx > 1:
        layout = "WIDTH_SHARDED"
        spec = ShardSpec(core_ranges(gx, _fill_grid(gx, worker_grid, o), o), ml.shard_shape, o)
    else:
        if space == "dram":
            raise NotRepresentableError("DRAM allows height or width sharding only, not a block grid "
                                        f"{xs(ml.grid)}")
        layout = "BLOCK_SHARDED"
        ny, nx = (gy, gx) if o == "ROW_MAJOR" else (gx, gy)
        if worker_grid is not None:
            wy, wx = worker_grid
            if ny > wy or nx > wx:
                raise NotRepresentableError(f"block grid {ny}x{nx} does not fit the {wy}x{wx} worker grid")
        shape = ml.shard_shape  # COL_MAJOR lays the grid's rows along x: same shards, transposed rectangle
        spec = ShardSpec((CoreRange((0, 0), (nx - 1, ny - 1)),), shape, o)
    return TTNNLayout(
        shape=ml.logical_shape,
        stride=ml.get_stride(),
        shard_shape=ml.shard_shape,
        physical_shard_shape=ml.padded_shard_shape,
        tile_shape=ml.tile,
        grid_shape=ml.grid,
        memory_layout=layout,
        buffer_type=buffer,
        shard_spec=spec,
    )
