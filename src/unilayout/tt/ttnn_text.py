"""Moved to ``unilayout.tt.ttnn.text``; kept as an alias.

>>> from unilayout import tt
>>> from unilayout.tt.ttnn_text import read_memory_config
>>> tt.parse("#ttnn.memory_config<#l1, <interleaved>>").buffer_type
'l1'
"""

from __future__ import annotations

from .ttnn.text import read_memory_config, read_nd_shard_spec, read_ttnn_attribute, read_ttnn_tensor

__all__ = ["read_ttnn_tensor", "read_ttnn_attribute", "read_memory_config", "read_nd_shard_spec"]
