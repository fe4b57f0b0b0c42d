"""Moved to ``unilayout.tt.picture``; kept as an alias (one release)."""

from ..tt.picture import (  # noqa: F401
    _GAP,
    _fold,
    _grid_2d,
    _to_padded,
    _check_metal,
    _core_names,
    metal_scene,
    _row_name,
    _logical_ticks,
    _metal_summary,
    device_scene,
    _boxes,
    shard_table,
    shard_grid,
    _default_device,
    _placed_cores,
    _cores_table,
    metal_cells,
    device_cells,
)
