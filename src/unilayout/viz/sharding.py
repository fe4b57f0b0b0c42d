"""Moved to ``unilayout.sharding.picture``; kept as an alias (one release)."""

from ..sharding.picture import (  # noqa: F401
    holders_text,
    MAX_PAIRS,
    block_holders,
    sharding_scene,
)
