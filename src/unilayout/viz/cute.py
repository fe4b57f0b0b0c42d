"""Moved to ``unilayout.cute.picture``; kept as an alias (one release)."""

from ..cute.picture import (  # noqa: F401
    COLOR_MODES,
    swizzle_layout,
    _is_cute,
    _values,
    _grid_shape,
    _first_leaf_group,
    offset_bank_conflicts,
    _swizzle_of,
    _axes,
    layout_scene,
    tv_scene,
)
