"""Moved to ``unilayout.tt.picture``; kept as an alias (one release)."""

from ..tt.picture import (  # noqa: F401
    _GAP,
    _boxes,
    _check_metal,
    _core_names,
    _cores_table,
    _default_device,
    _fold,
    _grid_2d,
    _logical_ticks,
    _metal_summary,
    _placed_cores,
    _row_name,
    _to_padded,
    device_cells,
    device_scene,
    metal_cells,
    metal_scene,
    shard_grid,
    shard_table,
)
