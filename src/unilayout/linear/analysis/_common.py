"""What the analyses share: the argument check and a layout's bases of one in-dim.

>>> from unilayout.linear import identity_1d
>>> _bases_of(identity_1d(4, "lane", "offset"), "lane")
((1,), (2,))
>>> _bases_of(identity_1d(4, "lane", "offset"), "warp")
()
"""

from __future__ import annotations

from ...errors import LayoutError
from ..layout import LinearLayout


def _bases_of(layout: LinearLayout, name: str):
    for n, vecs in layout._bases:
        if n == name:
            return vecs
    return ()


def _check(layout, what):
    if not isinstance(layout, LinearLayout):
        raise LayoutError(f"{what}: expected a LinearLayout, got {type(layout).__name__}")
