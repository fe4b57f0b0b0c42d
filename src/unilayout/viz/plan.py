"""Moved to ``unilayout.plan.picture`` (the planner draws its own answers); kept as an alias.

>>> from unilayout import plan, tt
>>> from unilayout.viz.plan import grid_choice_scene
>>> grid_choice_scene(plan.grids((64, 64), tt.Device((2, 2), "(d0, d1) -> (0, d0, d1)"))[0]).shape
(2, 2)
"""

from __future__ import annotations

from ..plan.picture import grid_choice_scene, traffic_scene

__all__ = ["traffic_scene", "grid_choice_scene"]
