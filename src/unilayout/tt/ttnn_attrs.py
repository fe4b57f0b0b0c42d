"""Moved to ``unilayout.tt.ttnn``: ``layout`` (``TTNNTensorLayout``), ``memory_config`` (``MemoryConfig``),
``placement`` (the vocabulary) and ``facts`` (``config_facts``); kept as an alias.

>>> from unilayout.tt.ttnn_attrs import MemoryConfig, config_facts
>>> config_facts(MemoryConfig("dram", "interleaved"))["kind"]
'memory_config'
"""

from __future__ import annotations

from .ttnn.facts import config_facts
from .ttnn.layout import TTNNTensorLayout
from .ttnn.memory_config import MemoryConfig
from .ttnn.placement import BUFFER_TYPES, TTNN_MEMORY_LAYOUTS

__all__ = ["TTNNTensorLayout", "MemoryConfig", "BUFFER_TYPES", "TTNN_MEMORY_LAYOUTS", "config_facts"]
