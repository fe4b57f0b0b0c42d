"""Moved to ``unilayout.cute.picture``; kept as an alias (one release)."""

from ..cute.picture import (  # noqa: F401
    COLOR_MODES,
    _axes,
    _first_leaf_group,
    _grid_shape,
    _is_cute,
    _swizzle_of,
    _values,
    layout_scene,
    offset_bank_conflicts,
    swizzle_layout,
    tv_scene,
)
