"""TTNN's placement vocabulary, and the metal layout a placement gives a tensor.

A TTNN placement names a **buffer** (``dram``, ``l1``, ...), a **memory
layout** (``interleaved``, ``height_sharded``, ``width_sharded``,
``block_sharded``, ...) and, when sharded, a **shard spec**: the legacy 2-D
``ShardSpec`` (core ranges, shard rows x columns, orientation) or an
``NdShardSpec``. It has no tensor shape; ``to_metal`` gives the metal layout
it means for one. TTNN collapses every dim but the last into rows, so the
map is always ``collapse_map(shape, 2)``; the grid follows from the cores:

===============  ==============================================  =========================================
memory layout    grid                                            exact when
===============  ==============================================  =========================================
interleaved      1x1 (L1 over several banks: pages, refused)     always (DRAM, system)
height_sharded   (cores, 1)                                      the spec is the shard the grid gives
width_sharded    (1, cores)                                      same
block_sharded    the core rectangle (y, x); COL_MAJOR (x, y)     one rectangle, and the same shard rule
===============  ==============================================  =========================================

An ND spec is exact as a grid split in two cases (``legacy_spec``): GRID_2D
with a 2-D shard is block sharding; ROUND_ROBIN_1D with at most one shard per
core and full-width (full-height) shards is height (width) sharding.

>>> from unilayout.tt.ttnn_view import CoreRange, ShardSpec
>>> spec = ShardSpec((CoreRange((0, 0), (3, 1)),), (32, 64), "ROW_MAJOR")
>>> print(to_metal("l1", "block_sharded", spec, (64, 256)).attribute())
#tt.metal_layout<(d0, d1) -> (d0, d1), undef, <2x4>, memref<32x64xf32, #tt.memory_space<l1>>>

``MemoryConfig.to_metal`` and ``NdShardSpec.to_metal`` both answer through
``to_metal``, so neither value module needs the other's.
"""

from __future__ import annotations

from ...errors import LayoutError, NotRepresentableError
from .._mlir import xs
from ..metal.collapse import collapse_map
from ..metal.metal import MetalLayout
from ..ttnn_view import CoreRange, ShardSpec

__all__ = ["BUFFER_TYPES", "TTNN_MEMORY_LAYOUTS", "check_buffer_type", "core_range_text", "check_core_ranges",
           "to_metal", "legacy_spec"]

BUFFER_TYPES = ("dram", "l1", "system_memory", "l1_small", "trace")
TTNN_MEMORY_LAYOUTS = ("interleaved", "single_bank", "height_sharded", "width_sharded", "block_sharded")
# The metal memory space of each TTNN buffer type.
_SPACE = {"dram": "dram", "l1": "l1", "l1_small": "l1", "system_memory": "system", "trace": "dram"}
_SHARDED = ("height_sharded", "width_sharded", "block_sharded")


def check_buffer_type(buffer_type) -> str:
    """``buffer_type`` itself when it is one of ``BUFFER_TYPES``, else ``LayoutError``.

    >>> check_buffer_type("l1")
    'l1'
    >>> check_buffer_type("sram")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: buffer type 'sram' is not one of dram, l1, system_memory, l1_small, trace
    """
    if buffer_type not in BUFFER_TYPES:
        raise LayoutError(f"buffer type {buffer_type!r} is not one of {', '.join(BUFFER_TYPES)}")
    return buffer_type


def core_range_text(r) -> str:
    """``#ttnn.core_range<(x0,y0), (x1,y1)>``, as tt-mlir prints a ``CoreRange``.

    >>> core_range_text(CoreRange((0, 0), (3, 1)))
    '#ttnn.core_range<(0,0), (3,1)>'
    """
    return f"#ttnn.core_range<({r.start[0]},{r.start[1]}), ({r.end[0]},{r.end[1]})>"


def check_core_ranges(value, what="core_ranges"):
    """``value`` as a tuple of ``CoreRange`` (None stays None), or ``LayoutError`` naming ``what``.

    >>> check_core_ranges([((0, 0), (7, 0))])
    (CoreRange(start=(0, 0), end=(7, 0)),)
    >>> check_core_ranges([((2, 0), (1, 0))])
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: core_ranges: CoreRange(start=(2, 0), end=(1, 0)) ends before it starts
    """
    if value is None:
        return None
    try:
        out = tuple(r if isinstance(r, CoreRange) else CoreRange(tuple(r[0]), tuple(r[1])) for r in value)
    except (TypeError, IndexError):
        raise LayoutError(f"{what} must be CoreRange values or ((x0, y0), (x1, y1)) pairs, got {value!r}") from None
    for r in out:
        if len(r.start) != 2 or len(r.end) != 2 or any(int(v) < 0 for v in r.start + r.end):
            raise LayoutError(f"{what}: {r} must hold two (x, y) coordinates >= 0")
        if r.end[0] < r.start[0] or r.end[1] < r.start[1]:
            raise LayoutError(f"{what}: {r} ends before it starts")
    return out


def to_metal(buffer_type, memory_layout, shard_spec, logical_shape, element_type="f32", tile=None,
             tile_dtype=None) -> MetalLayout:
    """The metal layout a placement gives a tensor of ``logical_shape``, or ``NotRepresentableError`` with the reason.

    **Pre-conditions**: ``buffer_type`` and ``memory_layout`` are TTNN's names
    (``memory_layout`` None or non-sharded needs no spec); ``shard_spec`` is a
    ``ShardSpec`` or an ``NdShardSpec``. The grid rules are the module's table;
    the shard spec must be the shard that grid gives (tile-padded when tiled).

    >>> to_metal("dram", "interleaved", None, (64, 64)).grid
    (1, 1)
    >>> spec = ShardSpec((CoreRange((0, 0), (7, 0)),), (30, 64), "ROW_MAJOR")
    >>> to_metal("l1", "height_sharded", spec, (256, 64))
    Traceback (most recent call last):
    ...
    unilayout.errors.NotRepresentableError: shard spec 30x64 is not the shard 32x64 of 256x64 on grid 8x1
    """
    shape = tuple(logical_shape) if hasattr(logical_shape, "__iter__") else (logical_shape,)
    linear = collapse_map(shape, 2)
    space = _SPACE[buffer_type]
    lay = memory_layout
    if lay is None or lay in ("interleaved", "single_bank"):
        if lay == "interleaved" and buffer_type == "l1":
            raise NotRepresentableError("L1-interleaved pages go round robin over the L1 banks: not a grid split")
        return MetalLayout(shape, linear, (1, 1), element_type, space, "undef", tile, tile_dtype)
    sp = shard_spec
    if not isinstance(sp, ShardSpec):  # an ND shard spec: exact as a grid split in two cases
        sp = legacy_spec(sp, shape)
    n = sp.num_cores
    if lay == "height_sharded":
        grid = (n, 1)
    elif lay == "width_sharded":
        grid = (1, n)
    else:
        if len(sp.grid) != 1:
            raise NotRepresentableError(f"block sharding over {len(sp.grid)} core ranges is not one grid")
        r = sp.grid[0]
        gx, gy = r.end[0] - r.start[0] + 1, r.end[1] - r.start[1] + 1
        grid = (gy, gx) if sp.orientation == "ROW_MAJOR" else (gx, gy)
    ml = MetalLayout(shape, linear, grid, element_type, space, "undef", tile, tile_dtype)
    if ml.padded_shard_shape != sp.shape:
        raise NotRepresentableError(f"shard spec {xs(sp.shape)} is not the shard {xs(ml.padded_shard_shape)} of "
                                    f"{xs(shape)} on grid {xs(grid)}")
    return ml


def legacy_spec(nd, shape) -> ShardSpec:
    """The 2-D ``ShardSpec`` an ND spec equals on ``shape``, or ``NotRepresentableError`` why none does.

    GRID_2D with a 2-D shard is block sharding; ROUND_ROBIN_1D with at most
    one shard per core and full-width (full-height) shards is height (width)
    sharding.

    >>> from unilayout.tt.ttnn.ndshard import NdShardSpec
    >>> legacy_spec(NdShardSpec((32, 256), (8, 1)), (256, 256)).shape
    (32, 256)
    >>> legacy_spec(NdShardSpec((32, 64), (8, 1)), (64, 256))
    Traceback (most recent call last):
    ...
    unilayout.errors.NotRepresentableError: round-robin shards 32x64 of 64x256 are neither full-width nor full-height
    """
    if len(nd.shard_shape) != 2:
        raise NotRepresentableError(f"an ND shard {xs(nd.shard_shape)} is not a 2-D grid split")
    h = 1
    for v in shape[:-1]:
        h *= v
    w = shape[-1]
    grid = nd.shard_grid(shape)
    if nd.distribution == "ROUND_ROBIN_1D":
        if grid[0] * grid[1] > nd.num_cores:
            raise NotRepresentableError(f"{grid[0] * grid[1]} round-robin shards on {nd.num_cores} cores: some cores "
                                        "hold several, which no grid split does")
        if grid[1] != 1 and grid[0] != 1:
            raise NotRepresentableError(f"round-robin shards {xs(nd.shard_shape)} of {h}x{w} are neither full-width "
                                        "nor full-height")
    return ShardSpec(nd.core_grid, nd.shard_shape, nd.orientation)
