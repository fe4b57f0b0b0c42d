"""One checked bridge between sharding vocabularies (see ``value.py`` for the canonical ``Sharding``)."""

from .value import Sharding
from .jax import from_jax, to_jax
from .metal import from_metal

__all__ = ["Sharding", "from_jax", "to_jax", "from_metal"]
