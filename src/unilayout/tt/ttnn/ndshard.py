"""TTNN's N-dimensional sharding: ``NdShardSpec`` — which core holds each shard, and moving real arrays by it.

An ``NdShardSpec(shard_shape, core_grid, orientation, distribution)`` cuts a
tensor into boxes of ``shard_shape`` (the last dims of the tensor; leading
dims the shard does not cover are folded into its outermost dim, as
tt-metal's ``squeeze_shape_ranks`` does). The shards are numbered row-major
over the **shard grid** ``ceil(shape / shard_shape)``; the cores of
``core_grid`` (a set of ``CoreRange``, TTNN's ``(x, y)``) are listed range by
range, x fastest for ``ROW_MAJOR``, y fastest for ``COL_MAJOR``
(``corerange_to_cores``). Then, as ``BufferDistributionSpec`` does:

- ``ROUND_ROBIN_1D``: shard ``k`` goes to core ``k mod n``, as its
  ``k // n``-th shard;
- ``GRID_2D``: the shard grid seen as 2-D (rows = all dims but the last)
  maps one to one onto the core rectangle: ROW_MAJOR shard ``(r, c)`` on core
  ``(x0 + c, y0 + r)``, COL_MAJOR on ``(x0 + r, y0 + c)`` (how legacy block
  sharding places its shards).

A 3x5 tensor in 2x2 shards on the four cores of ``(0,0)-(1,1)``:

===========  ==========  =====================  ===================
shard        box         ROUND_ROBIN_1D (x, y)  GRID_2D (x, y)
===========  ==========  =====================  ===================
0 = (0, 0)   rows 0-1    (0, 0)                 (0, 0)
1 = (0, 1)   cols 2-3    (1, 0)                 (1, 0)
2 = (0, 2)   col 4       (0, 1)                 needs 3 columns
3 = (1, 0)   row 2       (1, 1)                 --
===========  ==========  =====================  ===================

>>> spec = NdShardSpec((2, 2), [((0, 0), (1, 1))])
>>> spec.shard_grid((3, 5)), spec.core_of_shards((3, 5)).tolist()
((2, 3), [[[0, 0], [1, 0], [0, 1]], [[1, 1], [0, 0], [1, 0]]])
>>> spec.shards_per_core((3, 5))
(2, 2, 1, 1)

``shard(a)`` gives ``(cores, max shards per core) + shard_shape`` (padding
filled), ``unshard`` inverts it exactly; both are vectorised. The helpers
``height_sharded``, ``width_sharded``, ``block_sharded`` and
``sharded_across_dims`` build specs as ``TensorSpec``'s methods of those names
do (``memory_config.create_sharded_memory_config`` gives the legacy 2-D
``MemoryConfig`` from them); ``to_metal`` gives the metal layout a spec means
for a tensor, where a grid split is the same (``placement.to_metal``).
"""

from __future__ import annotations

import math

import numpy as np

from ..._ints import as_int, as_items, check_table
from ...errors import LayoutError, NotRepresentableError
from ..ttnn_view import CoreRange
from .placement import check_buffer_type
from .placement import to_metal as placement_to_metal

__all__ = ["NdShardSpec", "ROUND_ROBIN_1D", "GRID_2D", "corerange_to_cores", "height_sharded", "width_sharded",
           "block_sharded", "sharded_across_dims"]

ROUND_ROBIN_1D = "ROUND_ROBIN_1D"
GRID_2D = "GRID_2D"

#: the most cores one spec's ranges may hold, checked before they are listed
#: (a device has about a hundred; a galaxy of them some thousands)
MAX_CORES = 1 << 16


def _orientation(value):
    o = str(value).upper()
    if o not in ("ROW_MAJOR", "COL_MAJOR"):
        raise LayoutError(f"orientation must be 'row_major' or 'col_major', got {value!r}")
    return o


def _core_grid(value):
    if isinstance(value, CoreRange):
        value = [value]
    elif isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, int) for v in value):
        value = [CoreRange((0, 0), (value[0] - 1, value[1] - 1))]  # a CoreCoord grid size (x, y)
    out = []
    try:
        for r in value:
            r = r if isinstance(r, CoreRange) else CoreRange(tuple(r[0]), tuple(r[1]))
            (x0, y0), (x1, y1) = ((as_int(v, "core coordinate") for v in r.start),
                                  (as_int(v, "core coordinate") for v in r.end))
            if min(x0, y0) < 0 or x1 < x0 or y1 < y0:
                raise LayoutError(f"core range {r} must start at (x, y) >= 0 and end at or after its start")
            out.append(CoreRange((x0, y0), (x1, y1)))
    except (TypeError, ValueError, IndexError):
        raise LayoutError(f"core_grid must be CoreRanges, ((x0, y0), (x1, y1)) pairs or a grid size (x, y), "
                          f"got {value!r}") from None
    if not out:
        raise LayoutError("core_grid has no cores")
    total = sum(r.num_cores for r in out)
    if total > MAX_CORES:
        raise LayoutError(f"core_grid: {total} cores are more than the MAX_CORES = {MAX_CORES} one spec may hold")
    seen = set()
    for c in corerange_to_cores(out):
        if c in seen:
            raise LayoutError(f"core ranges overlap at core {c}")
        seen.add(c)
    return tuple(out)


def corerange_to_cores(core_grid, orientation="row_major") -> tuple:
    """The cores of the ranges, range by range, x fastest (ROW_MAJOR) or y fastest (COL_MAJOR).

    >>> corerange_to_cores([((0, 0), (1, 1))]), corerange_to_cores([((0, 0), (1, 1))], "col_major")
    (((0, 0), (1, 0), (0, 1), (1, 1)), ((0, 0), (0, 1), (1, 0), (1, 1)))
    """
    o = _orientation(orientation)
    out = []
    for r in core_grid:
        r = r if isinstance(r, CoreRange) else CoreRange(tuple(r[0]), tuple(r[1]))
        (x0, y0), (x1, y1) = r.start, r.end
        if o == "ROW_MAJOR":
            out.extend((x, y) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1))
        else:
            out.extend((x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1))
    return tuple(out)


class NdShardSpec:
    """TTNN ``NdShardSpec``: immutable, ``==`` by value (see the module docstring for the placement rules).

    ``NdShardSpec(shard_shape, core_grid, orientation="row_major",
    distribution="ROUND_ROBIN_1D")``; ``core_grid`` is CoreRanges,
    ``((x0, y0), (x1, y1))`` pairs, or a grid size ``(x, y)``.

    >>> NdShardSpec((32, 32), (8, 8)).num_cores
    64
    """

    __slots__ = ("shard_shape", "core_grid", "orientation", "distribution")

    def __init__(self, shard_shape, core_grid, orientation="row_major", distribution=ROUND_ROBIN_1D):
        shape = tuple(as_int(v, "shard dim") for v in as_items(shard_shape))
        if not shape or min(shape) < 1:
            raise LayoutError(f"shard_shape {shape} must have rank >= 1 and every dim >= 1")
        dist = str(distribution).upper()
        if dist not in (ROUND_ROBIN_1D, GRID_2D):
            raise LayoutError(f"distribution must be ROUND_ROBIN_1D or GRID_2D, got {distribution!r}")
        grid = _core_grid(core_grid)
        if dist == GRID_2D and len(grid) != 1:
            raise LayoutError(f"GRID_2D maps shards onto one core rectangle, got {len(grid)} ranges")
        for k, v in (("shard_shape", shape), ("core_grid", grid), ("orientation", _orientation(orientation)),
                     ("distribution", dist)):
            object.__setattr__(self, k, v)

    def __setattr__(self, name, value):
        raise AttributeError("NdShardSpec is immutable")

    def _key(self):
        return (self.shard_shape, self.core_grid, self.orientation, self.distribution)

    def __eq__(self, other):
        return type(other) is NdShardSpec and other._key() == self._key()

    def __hash__(self):
        return hash(self._key())

    def __reduce__(self):
        return (NdShardSpec, self._key())

    def __repr__(self):
        ranges = ", ".join(f"(({r.start[0]}, {r.start[1]}), ({r.end[0]}, {r.end[1]}))" for r in self.core_grid)
        return (f"NdShardSpec({self.shard_shape!r}, [{ranges}], {self.orientation.lower()!r}, "
                f"{self.distribution!r})")

    def __str__(self):
        """tt-mlir's ``#ttnn.nd_shard_spec<...>`` text; ``tt.parse(str(spec)) == spec``.

        >>> print(NdShardSpec((32, 32), [((0, 0), (0, 0))], distribution="GRID_2D"))
        #ttnn.nd_shard_spec<<[#ttnn.core_range<(0,0), (0,0)>]>, <32x32>, <row_major>, <grid_2d>>
        """
        ranges = ", ".join(f"#ttnn.core_range<({r.start[0]},{r.start[1]}), ({r.end[0]},{r.end[1]})>"
                           for r in self.core_grid)
        shape = "x".join(str(v) for v in self.shard_shape)
        return (f"#ttnn.nd_shard_spec<<[{ranges}]>, <{shape}>, <{self.orientation.lower()}>, "
                f"<{self.distribution.lower()}>>")

    def to_metal(self, tensor_shape, buffer_type="l1", element_type="f32", tile=None, tile_dtype=None):
        """The metal layout this spec gives a tensor of ``tensor_shape``, or ``NotRepresentableError`` why none.

        As a ``#ttnn.memory_config`` in ``buffer_type`` would: GRID_2D is
        block sharding, ROUND_ROBIN_1D with full-width (full-height) shards,
        at most one per core, is height (width) sharding
        (``MemoryConfig.to_metal``).

        >>> NdShardSpec((32, 64), [((0, 0), (3, 1))], distribution="GRID_2D").to_metal((64, 256)).grid
        (2, 4)
        >>> NdShardSpec((32, 64), (8, 1)).to_metal((64, 256))
        Traceback (most recent call last):
        ...
        unilayout.errors.NotRepresentableError: round-robin shards 32x64 of 64x256 are neither full-width nor full-height
        """
        if self.distribution == GRID_2D:
            layout = "block_sharded"
        else:
            grid = self.shard_grid(tensor_shape)
            layout = "width_sharded" if len(grid) == 2 and grid[0] == 1 and grid[1] > 1 else "height_sharded"
        check_buffer_type(buffer_type)
        return placement_to_metal(buffer_type, layout, self, tensor_shape, element_type, tile, tile_dtype)

    @property
    def cores(self) -> tuple:
        """The cores in placement order (``corerange_to_cores`` with this orientation).

        >>> NdShardSpec((1, 1), [((0, 0), (2, 0))]).cores
        ((0, 0), (1, 0), (2, 0))
        """
        return corerange_to_cores(self.core_grid, self.orientation)

    @property
    def num_cores(self) -> int:
        """Number of cores.

        >>> NdShardSpec((4,), [((0, 0), (1, 2)), ((5, 5), (5, 5))]).num_cores
        7
        """
        return sum(r.num_cores for r in self.core_grid)

    def _squeezed(self, shape):
        shape = tuple(as_int(v, "tensor dim") for v in shape)
        if not shape or min(shape) < 1:
            raise LayoutError(f"tensor shape {shape} must have rank >= 1 and every dim >= 1")
        r = len(self.shard_shape)
        if len(shape) < r:
            shape = (1,) * (r - len(shape)) + shape
        lead = math.prod(shape[:len(shape) - r + 1])
        return (lead,) + shape[len(shape) - r + 1:]

    def shard_grid(self, tensor_shape) -> tuple:
        """Shards per dim: ``ceil(shape / shard_shape)`` (leading dims folded into the shard's outermost).

        >>> NdShardSpec((2, 32, 32), (8, 8)).shard_grid((3, 4, 64, 64))
        (6, 2, 2)
        """
        shape = self._squeezed(tensor_shape)
        return tuple(-(-s // k) for s, k in zip(shape, self.shard_shape))

    def core_of_shards(self, tensor_shape) -> np.ndarray:
        """int64 array ``shard_grid + (2,)``: the core ``(x, y)`` holding each shard.

        >>> NdShardSpec((32, 32), [((0, 0), (1, 0))], distribution="GRID_2D").core_of_shards((32, 64)).tolist()
        [[[0, 0], [1, 0]]]
        """
        idx, _ = self._placement(tensor_shape)
        cores = np.asarray(self.cores, dtype=np.int64).reshape(-1, 2)
        return cores[idx].reshape(self.shard_grid(tensor_shape) + (2,))

    def _grid_2d(self, grid):
        """GRID_2D: (shard rows, shard columns, range width, range height), or why the range is too small."""
        rows, cols = math.prod(grid[:-1]), grid[-1]
        r = self.core_grid[0]
        gx, gy = r.end[0] - r.start[0] + 1, r.end[1] - r.start[1] + 1
        need = (cols, rows) if self.orientation == "ROW_MAJOR" else (rows, cols)
        if need[0] > gx or need[1] > gy:
            raise NotRepresentableError(
                f"GRID_2D: a {rows}x{cols} grid of shards needs {need[0]}x{need[1]} cores (x by y) but the range "
                f"{r.start}-{r.end} has {gx}x{gy}")
        return rows, cols, gx, gy

    def _placement(self, tensor_shape):
        """(core index, slot) per shard, row-major over the shard grid."""
        grid = self.shard_grid(tensor_shape)
        n = check_table(math.prod(grid), f"the placement of a {'x'.join(map(str, grid))} grid of shards")
        k = np.arange(n, dtype=np.int64)
        if self.distribution == ROUND_ROBIN_1D:
            return k % self.num_cores, k // self.num_cores
        rows, cols, gx, gy = self._grid_2d(grid)
        rr, cc = k // cols, k % cols
        x, y = (cc, rr) if self.orientation == "ROW_MAJOR" else (rr, cc)
        # index of core (x0 + x, y0 + y) in self.cores order
        core = x * gy + y if self.orientation == "COL_MAJOR" else y * gx + x
        return core, np.zeros_like(k)

    def shards_per_core(self, tensor_shape) -> tuple:
        """How many shards each core (in ``cores`` order) holds.

        >>> NdShardSpec((1, 1), (2, 1)).shards_per_core((1, 5))
        (3, 2)
        """
        grid = self.shard_grid(tensor_shape)
        cores = self.num_cores  # counted, not tabulated: the shards may be far more than any table
        if self.distribution == ROUND_ROBIN_1D:
            q, extra = divmod(math.prod(grid), cores)
            return tuple(q + (i < extra) for i in range(cores))
        rows, cols, gx, gy = self._grid_2d(grid)
        if self.orientation == "ROW_MAJOR":  # shard (rr, cc) on core (cc, rr); core index y * gx + x
            return tuple(int(i % gx < cols and i // gx < rows) for i in range(cores))
        return tuple(int(i // gy < rows and i % gy < cols) for i in range(cores))  # core (rr, cc), index x * gy + y

    def shard(self, array, fill=0) -> np.ndarray:
        """``array`` laid out per core: ``(num_cores, max shards per core) + shard_shape``, padding = ``fill``.

        Core ``i`` is ``cores[i]``; its shards keep increasing shard order.
        **Post-condition**: ``unshard(shard(a), a.shape) == a``.

        >>> spec = NdShardSpec((2, 2), [((0, 0), (1, 0))])
        >>> spec.shard(np.arange(12).reshape(3, 4))[1].tolist()
        [[[2, 3], [6, 7]], [[10, 11], [0, 0]]]
        """
        a = np.asarray(array)
        shards = self._boxes(a, fill)
        core, slot = self._placement(a.shape)
        per = int(np.bincount(core).max()) if core.size else 0
        out = np.full((self.num_cores, per) + self.shard_shape, fill, dtype=a.dtype)
        out[core, slot] = shards
        return out

    def unshard(self, shards, tensor_shape) -> np.ndarray:
        """Inverse of ``shard``: the tensor of ``tensor_shape`` back from the per-core shards (padding ignored).

        >>> spec = NdShardSpec((2, 2), [((0, 0), (1, 0))], distribution="GRID_2D")
        >>> a = np.arange(8).reshape(2, 4)
        >>> bool((spec.unshard(spec.shard(a), (2, 4)) == a).all())
        True
        """
        s = np.asarray(shards)
        tensor_shape = tuple(tensor_shape)
        core, slot = self._placement(tensor_shape)
        per = int(np.bincount(core).max()) if core.size else 0
        want = (self.num_cores, per) + self.shard_shape
        if s.shape != want:
            raise LayoutError(f"unshard: shards of shape {s.shape} do not match the expected {want}")
        boxes = s[core, slot]
        grid = self.shard_grid(tensor_shape)
        r = len(grid)
        full = boxes.reshape(grid + self.shard_shape)
        full = full.transpose([j for i in range(r) for j in (i, r + i)])
        padded = full.reshape(tuple(g * k for g, k in zip(grid, self.shard_shape)))
        sq = self._squeezed(tensor_shape)
        return np.ascontiguousarray(padded[tuple(slice(0, v) for v in sq)]).reshape(tensor_shape)

    def _boxes(self, a, fill):
        sq = self._squeezed(a.shape)
        grid = tuple(-(-s // k) for s, k in zip(sq, self.shard_shape))
        padded_shape = tuple(g * k for g, k in zip(grid, self.shard_shape))
        b = a.reshape(sq)
        if padded_shape != sq:
            p = np.full(padded_shape, fill, dtype=a.dtype)
            p[tuple(slice(0, v) for v in sq)] = b
            b = p
        r = len(grid)
        inter = b.reshape(tuple(v for g, k in zip(grid, self.shard_shape) for v in (g, k)))
        order = [2 * i for i in range(r)] + [2 * i + 1 for i in range(r)]
        return inter.transpose(order).reshape((math.prod(grid),) + self.shard_shape)


def _hw(shape):
    shape = tuple(shape)
    return (math.prod(shape[:-1]) if len(shape) > 1 else 1), shape[-1]


def _align(v, a):
    return -(-v // a) * a


def _round_robin(tensor_shape, core_grid, orientation, tile, axis) -> NdShardSpec:
    """ROUND_ROBIN_1D spec of the 2-D view ``_hw(tensor_shape)`` split over all cores along ``axis``
    (0: height, 1: width), both sides rounded up to ``tile`` when given."""
    n = NdShardSpec((1,), core_grid).num_cores
    hw = list(_hw(tensor_shape))
    hw[axis] = -(-hw[axis] // n)
    if tile:
        hw = [_align(hw[0], tile[0]), _align(hw[1], tile[1])]
    return NdShardSpec(tuple(hw), core_grid, orientation, ROUND_ROBIN_1D)


def height_sharded(tensor_shape, core_grid, orientation="row_major", tile=None) -> NdShardSpec:
    """``TensorSpec.height_sharded``: rows (all dims but the last, collapsed) split over the cores, round robin.

    Shard = ``(ceil(H / cores), W)``, the height rounded up to the tile when tiled.

    >>> height_sharded((4, 64, 96), (8, 1)).shard_shape
    (32, 96)
    """
    return _round_robin(tensor_shape, core_grid, orientation, tile, 0)


def width_sharded(tensor_shape, core_grid, orientation="row_major", tile=None) -> NdShardSpec:
    """``TensorSpec.width_sharded``: the last dim split over the cores, round robin.

    >>> width_sharded((64, 1000), (4, 2)).shard_shape
    (64, 125)
    """
    return _round_robin(tensor_shape, core_grid, orientation, tile, 1)


def block_sharded(tensor_shape, core_grid, orientation="row_major", tile=None) -> NdShardSpec:
    """``TensorSpec.block_sharded``: rows over the grid's y and columns over its x (COL_MAJOR: swapped), GRID_2D.

    >>> s = block_sharded((256, 512), (4, 2))     # grid 4 wide (x), 2 tall (y)
    >>> s.shard_shape, s.core_of_shards((256, 512))[1, 3].tolist()
    ((128, 128), [3, 1])
    """
    grid = _core_grid(core_grid)
    if len(grid) != 1:
        raise NotRepresentableError(f"block sharding needs one core rectangle, got {len(grid)} ranges")
    r = grid[0]
    gx, gy = r.end[0] - r.start[0] + 1, r.end[1] - r.start[1] + 1
    o = _orientation(orientation)
    ny, nx = (gy, gx) if o == "ROW_MAJOR" else (gx, gy)
    h, w = _hw(tensor_shape)
    sh, sw = -(-h // ny), -(-w // nx)
    if tile:
        sh, sw = _align(sh, tile[0]), _align(sw, tile[1])
    return NdShardSpec((sh, sw), grid, o, GRID_2D)


def sharded_across_dims(tensor_shape, dims, core_grid, orientation="row_major") -> NdShardSpec:
    """``TensorSpec.sharded_across_dims``: one index of each dim in ``dims`` per shard, round robin over the cores.

    The shard is the tensor with every dim of ``dims`` set to 1.

    >>> s = sharded_across_dims((2, 3, 32, 32), [0, 1], (2, 2))
    >>> s.shard_shape, s.shard_grid((2, 3, 32, 32)), s.shards_per_core((2, 3, 32, 32))
    ((1, 1, 32, 32), (2, 3, 1, 1), (2, 2, 1, 1))
    """
    shape = as_items(tensor_shape)
    rank = len(shape)
    norm = set()
    for d in as_items(dims):
        d = as_int(d, "dim")
        if not -rank <= d < rank:
            raise LayoutError(f"dim {d} is out of range for rank {rank}")
        norm.add(d % rank)
    return NdShardSpec(tuple(1 if i in norm else s for i, s in enumerate(shape)), core_grid, orientation,
                       ROUND_ROBIN_1D)
