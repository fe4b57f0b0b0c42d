"""Moved to ``unilayout.sharding.picture``; kept as an alias (one release)."""

from ..sharding.picture import (  # noqa: F401
    MAX_PAIRS,
    block_holders,
    holders_text,
    sharding_scene,
)
