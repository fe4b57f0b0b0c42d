"""Moved to ``unilayout.linear.picture``; kept as an alias (one release)."""

from ..linear.picture import (  # noqa: F401
    COLOR_MODES,
    MAX_INPUTS,
    _HW,
    _check,
    _size,
    _in_digits,
    owners,
    _is_distributed,
    _hw_label,
    tensor_view,
    hardware_view,
    _brackets,
    _shared_points,
    shared_tensor_view,
    shared_hardware_view,
    _runs,
    _boundaries,
    linear_scene,
    warp_summary_scene,
)
