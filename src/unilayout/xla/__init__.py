"""XLA layouts: where each element of an array lives in XLA's (tiled, possibly padded) linear buffer.

An XLA shape with a layout, ``f32[3,5]{1,0:T(2,2)}``, names an element type,
the dims, ``minor_to_major`` (``{1,0}``: dim 1 varies fastest) and tiles
(``T(2,2)``: the two most minor dims cut into 2x2 tiles, tile indices first,
then the offset inside the tile, all row-major). The value is the function
"element index -> buffer offset" over the dims; where a tile does not divide
its dim the buffer is padded. XLA's own example, 2x3 tiles of 2x2 (24 slots
for 15 elements):

>>> from unilayout import xla
>>> L = xla.parse("f32[3,5]{1,0:T(2,2)}")
>>> L.offsets().tolist()
[[0, 1, 4, 5, 8], [2, 3, 6, 7, 10], [12, 13, 16, 17, 20]]
>>> L.buffer_shape, L.storage_size, L.padded
((2, 3, 2, 2), 24, True)

Its affine map is exact (a floordiv/mod term per tile level), the family's
bridge to every other:

>>> print(L.to_affine())
(d0, d1) -> ((d0 floordiv 2) * 12 + (d1 floordiv 2) * 4 + (d0 mod 2) * 2 + d1 mod 2)

| module | names |
|---|---|
| ``layout`` | ``XlaLayout`` (value, offsets, ``to_affine``, JAX ``from_jax``/``to_jax``) |
| ``text`` | ``parse_xla_layout`` (also ``xla.parse``) |
| ``family`` | ``XLA``, the family's record for the registry |

Relation to the other families: ``unilayout.convert.xla`` gives the CuTe
layout where no tile pads a dim (``xla_to_cute``), linear and TSL forms
through it, and the one-shard tt metal layout (``xla_to_metal``). The
module paths ``unilayout.sharding.xla_layout``, ``sharding.XlaLayout`` and
``sharding.parse_xla_layout`` are kept as aliases (XLA layouts lived there).
"""

from .layout import XlaLayout
from .text import parse_xla_layout

#: ``xla.parse(text)``, as every family's package offers it.
parse = parse_xla_layout

__all__ = ["XlaLayout", "parse", "parse_xla_layout"]
