"""The algebra panel (``/api/algebra``): one CuTe operation on the layouts ``a`` and ``b``, and what ties them.

``op`` is one of ``ALGEBRA_OPS`` (the number of layout operands of each;
``b`` of ``complement`` is a cotarget size). The answer holds the views of
``a``, ``b`` and ``result``, the result's text, and ``links``: ``[view, key,
view, key]``, cells of two views whose ``keys`` agree stand for the same
thing (for ``composition``, result cell i and B cell i, and the A cells
holding the result's offset).

>>> out = answer({"a": "4:2", "b": "16", "op": "complement"})
>>> out["text"], out["b"], out["result"]["count"]
('(2,2):(1,8)', None, 4)
"""

from __future__ import annotations

from ... import cute
from ..._families import read, record
from .. import views
from .._request import RequestError, check_rank, ints_of, text_of, with_field

__all__ = ["answer", "ALGEBRA_OPS"]

#: CuTe operations of the algebra panel: name -> number of layout operands (``b`` of complement is a cotarget).
ALGEBRA_OPS = {
    "composition": 2, "complement": 1, "logical_divide": 2, "zipped_divide": 2, "tiled_divide": 2,
    "flat_divide": 2, "logical_product": 2, "zipped_product": 2, "tiled_product": 2, "flat_product": 2,
    "blocked_product": 2, "raked_product": 2, "right_inverse": 1, "left_inverse": 1, "coalesce": 1,
}

# Cells of two views that stand for the same thing: (view, key, view, key) with the keys of ``views``.
# composition: R(i) = A(B(i)); divides and products take their offsets from A; coalesce is the same
# function; right_inverse: A(R(i)) = i; left_inverse: R(A(i)) = i.
_ALGEBRA_LINKS = {
    "composition": (("result", "offset", "a", "offset"), ("result", "index", "b", "index")),
    **{op: (("result", "offset", "a", "offset"),) for op in ALGEBRA_OPS if op.endswith(("_divide", "_product"))},
    "coalesce": (("result", "index", "a", "index"), ("result", "offset", "a", "offset")),
    "right_inverse": (("result", "offset", "a", "index"),),
    "left_inverse": (("result", "index", "a", "offset"),),
}


def _layout(body, key):
    """The CuTe layout (not a bare swizzle) in field ``key``."""
    text = text_of(body, key)
    value = check_rank(with_field(lambda: read(text), key), key)
    if not isinstance(value, (cute.Layout, cute.ComposedLayout)):
        raise RequestError(f"'{key}' must be a CuTe layout such as (4,8):(8,1), got a {record(value).name} value",
                           field=key)
    return value


def answer(body) -> dict:
    """The views of ``a``, ``b`` and ``op(a, b)``, the result's text and the links between their cells."""
    op = body.get("op")
    if not isinstance(op, str) or op not in ALGEBRA_OPS:
        raise RequestError(f"'op' must be one of {', '.join(ALGEBRA_OPS)}, got {op!r}", field="op")
    a = _layout(body, "a")
    out = {"op": op, "a": views.layout_view(a)}
    fn = getattr(cute, op)
    if op == "complement":
        b_text = body.get("b")
        if b_text in (None, ""):
            result = with_field(lambda: fn(a), "b")
        else:
            cotarget = ints_of(str(b_text), "b")
            if len(cotarget) != 1:
                raise RequestError("'b' of complement is one cotarget size, e.g. 16", field="b")
            result = with_field(lambda: fn(a, cotarget[0]), "b")
        out["b"] = None
    elif ALGEBRA_OPS[op] == 1:
        result = with_field(lambda: fn(a), "a")
        out["b"] = None
    else:
        b = _layout(body, "b")
        out["b"] = views.layout_view(b)
        result = with_field(lambda: fn(a, b), "b")
    out["result"] = views.layout_view(check_rank(result, "result"))
    out["text"] = str(result)
    out["links"] = [list(link) for link in _ALGEBRA_LINKS.get(op, ())]
    return out
