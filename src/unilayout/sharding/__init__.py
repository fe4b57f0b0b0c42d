"""One checked bridge between sharding vocabularies: DTensor, JAX, HLO, Shardy, TTNN and tt devices.

People spread a tensor over devices in several vocabularies. Each answers
the same question — *which global indices does each device hold, and is it
a copy or a partial sum?* — and ``Sharding`` (``value.py``) stores exactly
that answer. Every vocabulary converts into it, and out of it where the
semantics agree; where they do not, ``NotRepresentableError`` says how:

>>> from unilayout import sharding
>>> s = sharding.from_dtensor(["Shard(0)", "Replicate()"], (2, 4), (5, 16))
>>> s.local_shape(0), s.local_shape(4)
((3, 16), (2, 16))
>>> sharding.to_hlo(s)
'{devices=[2,1,4]<=[8] last_tile_dim_replicate}'
>>> sharding.to_ttnn(s, (2, 4))
('PlacementShard(0)', 'PlacementReplicate()')
>>> sharding.to_shardy(s)[0]
'#sdy.sharding<@mesh, [{"d0"}, {}]>'

JAX would need a dim of 5 to divide by 2 (``to_jax`` refuses: "dim 0 of
size 5 is split 3+2: JAX needs 2 equal shards"); XLA's ceil tiles happen to
agree with ``torch.chunk`` here (3+2), but not for 5 over 2x2 (2+2+1+0
against 2+1+1+1).

| module | names |
|---|---|
| ``value`` | ``Sharding`` |
| ``manual`` | ``ManualGroups`` (XLA's ``last_tile_dims={manual}`` groups a ``Sharding`` may carry) |
| ``jax`` | ``from_jax``, ``to_jax`` |
| ``hlo`` | ``parse_hlo``, ``to_hlo`` |
| ``shardy`` | ``parse_shardy``, ``to_shardy`` |
| ``dtensor`` | ``from_dtensor``, ``to_dtensor`` |
| ``ttnn`` | ``from_ttnn``, ``to_ttnn``, ``shard_tensor_2d_mesh`` |

A tt metal layout on a device converts in ``unilayout.convert.tt_sharding``
(``from_metal``), a bridge since it names tt too; XLA tiled layouts
(``XlaLayout``, ``parse_xla_layout``) are their own family, ``unilayout.xla``.
``sharding.from_metal``, ``sharding.XlaLayout``, ``sharding.parse_xla_layout``
and the modules ``sharding.metal`` and ``sharding.xla_layout`` remain as aliases.

JAX and PyTorch are imported only by the functions that take or build
their objects; text forms need neither. Pictures: ``viz.sharding``.
"""

from .dtensor import from_dtensor, to_dtensor
from .hlo import parse_hlo, to_hlo
from .jax import from_jax, to_jax
from .manual import ManualGroups
from .shardy import parse_shardy, to_shardy
from .ttnn import from_ttnn, shard_tensor_2d_mesh, to_ttnn
from .value import Sharding

__all__ = ["Sharding", "ManualGroups", "from_jax", "to_jax", "parse_hlo", "to_hlo", "parse_shardy", "to_shardy",
           "from_dtensor", "to_dtensor", "from_metal",
           "from_ttnn", "to_ttnn", "shard_tensor_2d_mesh",
           "XlaLayout", "parse_xla_layout"]

_XLA_NAMES = ("XlaLayout", "parse_xla_layout")


def __getattr__(name):
    """``sharding.from_metal``, ``sharding.XlaLayout``, ``sharding.parse_xla_layout``: read on first use.

    Each is read from its deprecated alias module (``sharding.metal``,
    ``sharding.xla_layout``), so that importing ``sharding`` loads neither tt
    nor the xla family.
    """
    if name == "from_metal":
        from . import metal  # lazy: deprecated alias, moved to convert.tt_sharding

        return metal.from_metal
    if name in _XLA_NAMES:
        from . import xla_layout  # lazy: deprecated alias, moved to unilayout.xla

        return getattr(xla_layout, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
