"""Tenstorrent metal layouts and devices (placeholder docstring, rewritten below)."""
from .metal import MetalLayout
