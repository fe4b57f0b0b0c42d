"""One checked bridge between sharding vocabularies (see ``value.py`` for the canonical ``Sharding``)."""

from .value import Sharding
from .jax import from_jax, to_jax
from .hlo import parse_hlo, to_hlo
from .shardy import parse_shardy, to_shardy
from .dtensor import from_dtensor, to_dtensor
from .metal import from_metal
from .ttnn import from_ttnn, shard_tensor_2d_mesh, to_ttnn
from .xla_layout import XlaLayout, parse_xla_layout

__all__ = ["Sharding", "from_jax", "to_jax", "parse_hlo", "to_hlo", "parse_shardy", "to_shardy",
           "from_dtensor", "to_dtensor", "from_metal",
           "from_ttnn", "to_ttnn", "shard_tensor_2d_mesh",
           "XlaLayout", "parse_xla_layout"]
