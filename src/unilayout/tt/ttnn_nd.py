"""Moved to ``unilayout.tt.ttnn.nd``; kept as an alias.

>>> from unilayout.tt.ttnn_nd import TTNNNDTensorLayout
>>> TTNNNDTensorLayout((64, 96), (2, 3), (1, 1), tile=(32, 32)).to_metal().grid
(2, 3)
"""

from __future__ import annotations

from .ttnn.nd import TTNNNDTensorLayout

__all__ = ["TTNNNDTensorLayout"]
