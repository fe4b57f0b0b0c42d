"""One metal layout in each of tt-mlir's text forms: v1 ``#tt.metal_layout``, v2 ``#ttcore.metal_layout``, TTNN's
``#ttnn.ttnn_layout`` (``convert --to v1|v2|ttnn``, the ``METAL`` record's forms).

Every form places each element in the same slot, or the conversion says why
it cannot (``NotRepresentableError``).
"""

from __future__ import annotations

from ..errors import LayoutError
from .metal.metal import MetalLayout
from .metal.v2 import MetalLayoutV2
from .ttnn.layout import TTNNTensorLayout

__all__ = ["FORMS", "metal_form"]

#: tt-mlir's text forms of a metal layout.
FORMS = ("v1", "v2", "ttnn")


def metal_form(ml, form):
    """A metal layout in another of tt-mlir's text forms, placing every element in the same slot.

    ``form``: ``"v1"`` (the seed's ``#tt.metal_layout<map, oob, grid, memref>``),
    ``"v2"`` (``#ttcore.metal_layout<logical_shape = ...>``) or ``"ttnn"``
    (``#ttnn.ttnn_layout``). ``NotRepresentableError`` with the reason when the
    target form cannot place the elements the same way (v2 pads a group's
    end that v1 cannot; TTNN needs its collapse and a 2-D grid).

    >>> from unilayout import tt
    >>> v1 = tt.MetalLayout.from_collapse((2, 3, 64, 128), (2, 4), tile=(32, 32))
    >>> metal_form(v1, "v2").device_shape, metal_form(metal_form(v1, "ttnn"), "v1") == v1
    ((2, 4, 6, 1), True)
    >>> metal_form(tt.MetalLayout.from_v2((3, 43, 7), (1, 1)), "ttnn")
    Traceback (most recent call last):
    ...
    unilayout.errors.NotRepresentableError: the v1 form derives shard 171x7 from (d0, d1, d2) -> (d0 * 64 + d1, d2) on grid 1x1, this layout's shard is 192x32: v1 cannot pad a group's end
    """
    if not isinstance(ml, MetalLayout):
        raise LayoutError(f"metal_form: expected a MetalLayout, got {type(ml).__name__}")
    if form not in ("v1", "v2", "ttnn"):
        raise LayoutError(f"metal_form: form must be 'v1', 'v2' or 'ttnn', got {form!r}")
    if isinstance(ml, MetalLayoutV2):
        v1 = ml.to_v1() if form != "v2" else None
    elif isinstance(ml, TTNNTensorLayout):
        v1 = ml.to_metal()
    else:
        v1 = ml
    if form == "v1":
        return v1
    if form == "v2":
        return ml if isinstance(ml, MetalLayoutV2) else v1.to_v2()
    return TTNNTensorLayout.from_metal(v1)
