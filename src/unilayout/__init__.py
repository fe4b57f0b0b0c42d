"""unilayout: one exact, fast model of tensor layouts.

Families, each in its own subpackage: ``cute`` (CuTe layouts), ``linear``
(Triton linear layouts over GF(2)), ``affine`` (MLIR affine maps), ``tsl``
(snax tiled-strided layouts) and ``tt`` (Tenstorrent metal layouts and devices).

>>> import unilayout
>>> from unilayout import cute
>>> unilayout.index_map(cute.Layout((2, 2), (2, 1))).tolist()
[0, 2, 1, 3]
"""

from __future__ import annotations

from .errors import LayoutError, NotRepresentableError, ParseError

__version__ = "0.1.0"

__all__ = ["LayoutError", "ParseError", "NotRepresentableError", "index_map", "__version__"]


def index_map(layout):
    """The layout's value at every point of its domain, as a numpy int64 array.

    The domain order is the family's own (see design.md): CuTe enumerates 1-D
    coordinates, linear layouts the flattened input (first in-dim least
    significant), TSL/affine/metal layouts their index box in row-major order.

    >>> from unilayout import cute
    >>> index_map(cute.Layout(4, 2)).tolist()
    [0, 2, 4, 6]
    """
    method = getattr(layout, "index_map", None)
    if method is None or not callable(method):
        raise LayoutError(f"index_map: expected a unilayout layout value, got {type(layout).__name__}")
    return method()


def __getattr__(name):
    # Families are imported on first use so `import unilayout` stays cheap.
    if name in ("cute", "linear", "affine", "tsl", "tt", "convert", "viz", "distributed"):
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'unilayout' has no attribute {name!r}")
