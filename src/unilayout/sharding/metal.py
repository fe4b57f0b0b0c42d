"""Moved to ``unilayout.convert.tt_sharding`` (a bridge: it names tt and sharding); kept as an alias module.

Old imports keep working:

>>> from unilayout import tt
>>> from unilayout.sharding.metal import from_metal
>>> dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (1, 2))
>>> from_metal(tt.MetalLayout.from_collapse((4, 8), (1, 2)), dev).devices
(0, 1)
"""

# deprecated alias: re-exports convert.tt_sharding (an import upward, from the sharding family to the bridge floor)
from ..convert.tt_sharding import from_metal, owners_to_sharding, physical_sharding

__all__ = ["from_metal", "owners_to_sharding", "physical_sharding"]
