"""Moved to ``unilayout.linear.picture``; kept as an alias (one release)."""

from ..linear.picture import (  # noqa: F401
    _HW,
    COLOR_MODES,
    MAX_INPUTS,
    _boundaries,
    _brackets,
    _check,
    _hw_label,
    _in_digits,
    _is_distributed,
    _runs,
    _shared_points,
    _size,
    hardware_view,
    linear_scene,
    owners,
    shared_hardware_view,
    shared_tensor_view,
    tensor_view,
    warp_summary_scene,
)
