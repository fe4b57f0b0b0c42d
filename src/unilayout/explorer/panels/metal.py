"""The metal builder panel (``/api/metal``): a Tenstorrent metal layout from its shape, grid and collapse.

The fields are ``tt.MetalLayout.from_collapse``'s: ``shape``, ``grid``,
``collapse`` (pairs of dims, ``0,-1`` by default), ``alignments``, ``tile``,
``oob_val``, ``element_type``, ``memory_space``; the answer is the built
layout's view, whose ``text`` is its ``tensor<...>``.

>>> v = answer({"shape": "53x63", "grid": [3, 2], "collapse": "0,-1"})
>>> v["family"], v["count"], v["text"][:14]
('metal', 3456, 'tensor<53x63xf')
"""

from __future__ import annotations

from ... import tt
from .. import views
from .._request import RequestError, ints_of, with_field

__all__ = ["answer"]


def answer(body) -> dict:
    """The view of the metal layout the request describes."""
    shape = ints_of(body.get("shape"), "shape")
    grid = ints_of(body.get("grid"), "grid")
    collapse = body.get("collapse")
    if collapse in (None, "", []):
        collapse = ((0, -1),)
    else:
        if isinstance(collapse, str):
            nums = ints_of(collapse, "collapse", negative=True)
            if len(nums) % 2:
                raise RequestError("'collapse' needs pairs of dims, e.g. 0,-1 or 0,2,3,-1", field="collapse")
            collapse = [nums[i:i + 2] for i in range(0, len(nums), 2)]
        if not isinstance(collapse, list) or not all(isinstance(p, list) and len(p) == 2 for p in collapse):
            raise RequestError(f"'collapse' must be a list of [start, end) pairs, got {collapse!r}", field="collapse")
        collapse = [tuple(ints_of(p, "collapse", negative=True)) for p in collapse]
    align = body.get("alignments")
    align = None if align in (None, "", []) else tuple(ints_of(align, "alignments"))
    tile = body.get("tile")
    tile = None if tile in (None, "", []) else tuple(ints_of(tile, "tile"))
    kw = {}
    for key in ("oob_val", "element_type", "memory_space"):
        v = body.get(key)
        if v not in (None, ""):
            if not isinstance(v, str):
                raise RequestError(f"'{key}' must be a string, got {v!r}", field=key)
            kw[key] = v
    ml = with_field(lambda: tt.MetalLayout.from_collapse(shape, grid, collapse, tile=tile, dim_alignments=align,
                                                         **kw), "shape")
    return views.layout_view(ml)
