"""Moved: ``tsl_scene`` to ``unilayout.tsl.picture``, ``affine_scene`` to ``unilayout.affine.picture`` and
``box_scene`` to ``unilayout.draw.grid``; kept as an alias (one release)."""

from ..affine.picture import affine_scene  # noqa: F401
from ..draw.grid import box_scene  # noqa: F401
from ..tsl.picture import tsl_scene  # noqa: F401
