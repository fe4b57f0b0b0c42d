"""Moved: the encoding readers are :mod:`unilayout.linear.text` (``module.py``: ``parse``,
``parse_module``, ``parse_type``), a type's layout is :mod:`unilayout.linear.encodings.types`
(``layout``) and the printer is ``str(enc)`` (``to_text``); kept as an alias of the old
``linear.ttgir`` names.

>>> from unilayout.linear import ttgir
>>> ttgir.layout("tensor<64xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>>").bases[2]
('warp', [[32]])
"""

from __future__ import annotations

from .encodings._base import to_text
from .encodings.types import layout
from .text.module import parse, parse_module, parse_type

__all__ = ["parse", "parse_module", "to_text", "layout", "parse_type"]
