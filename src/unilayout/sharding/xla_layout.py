"""Moved to ``unilayout.xla`` (the XLA family's own folder); kept as an alias (a deprecated module path).

XLA tiled layouts are a layout family, not a sharding vocabulary: the value
is ``unilayout.xla.layout.XlaLayout``, its reader ``unilayout.xla.text``.
Old imports keep working:

>>> from unilayout.sharding.xla_layout import XlaLayout, parse_xla_layout
>>> parse_xla_layout("f32[2,2]{0,1}") == XlaLayout("f32", (2, 2), (0, 1))
True
"""

# deprecated alias: re-exports unilayout.xla (an import across families, sharding -> xla)
from ..xla.layout import XlaLayout
from ..xla.text import parse_xla_layout

__all__ = ["XlaLayout", "parse_xla_layout"]
