"""The encodings panel (``/api/encodings``): two Triton encodings of one tensor, side by side.

``a`` and ``b`` are ``{"kind": ..., "params": {...}}`` with a kind of
``ENCODINGS`` and its parameters (Python names of ``linear.encodings``); the
answer holds their views over ``shape``, their attribute texts
``a_text``/``b_text``, the levels a conversion between them crosses (or the
vector width and bank conflicts of a register <-> shared copy), and
``links`` (the same tensor element in both views).

>>> out = answer({"shape": [16, 16], "a": {"kind": "blocked", "params": {"size_per_thread": [1, 1],
...               "threads_per_warp": [4, 8], "warps_per_cta": [1, 1], "order": [1, 0]}}})
>>> out["a"]["count"], out["a_text"][:12]
(256, '#ttg.blocked')
"""

from __future__ import annotations

import json

from ...errors import LayoutError
from ...linear import analysis
from ...linear import encodings as E
from .. import views
from .._request import RequestError, ints_of

__all__ = ["answer", "ENCODINGS"]

#: Triton encodings of the encodings panel and the parameters each takes (Python names of ``linear.encodings``).
ENCODINGS = {
    "blocked": ("size_per_thread", "threads_per_warp", "warps_per_cta", "order"),
    "nvidia_mma": ("version", "warps_per_cta", "instr_shape"),
    "amd_mfma": ("version", "instr_shape", "is_transposed", "warps_per_cta", "element_bitwidth", "tiles_per_warp"),
    "swizzled_shared": ("vec", "per_phase", "max_phase", "order"),
}

#: The encoding value class of each kind (its ``str()`` is Triton's attribute text).
_ENCODING_CLASSES = {"blocked": "Blocked", "nvidia_mma": "NvidiaMma", "amd_mfma": "AmdMfma",
                     "swizzled_shared": "SwizzledShared"}


def _param(value, key):
    if isinstance(value, bool) or (isinstance(value, int) and abs(value) <= 1 << 20):
        return value
    if isinstance(value, list) and len(value) <= 16:
        return [_param(v, key) for v in value]
    raise RequestError(f"parameter '{key}' must be an integer, a boolean or a list of them, got {value!r}",
                       field=key)


def _encoding(spec, shape, key):
    """``(LinearLayout, attribute text)`` of the encoding ``spec`` (kind and parameters) for ``shape``."""
    if not isinstance(spec, dict):
        raise RequestError(f"'{key}' must be an object {{\"kind\": ..., \"params\": {{...}}}}", field=key)
    kind = spec.get("kind")
    if not isinstance(kind, str) or kind not in ENCODINGS:
        raise RequestError(f"'{key}.kind' must be one of {', '.join(ENCODINGS)}, got {kind!r}", field=key)
    params = spec.get("params", {})
    if isinstance(params, str):
        try:
            params = json.loads(params or "{}")
        except ValueError as exc:
            raise RequestError(f"'{key}.params' is not JSON: {exc}", field=key) from None
    if not isinstance(params, dict):
        raise RequestError(f"'{key}.params' must be an object of parameters", field=key)
    unknown = sorted(set(params) - set(ENCODINGS[kind]))
    if unknown:
        raise RequestError(f"{kind} takes {', '.join(ENCODINGS[kind])}; unknown parameter(s) {', '.join(unknown)}",
                           field=key)
    kw = {k: _param(v, k) for k, v in params.items()}
    try:
        enc = getattr(E, _ENCODING_CLASSES[kind])(**kw)
        return enc.to_linear(shape), str(enc)
    except TypeError as exc:  # a missing parameter
        raise RequestError(f"{kind}: {exc}".replace(f"{kind}() ", ""), field=key) from None
    except LayoutError as exc:
        exc.field = key
        raise


def answer(body) -> dict:
    """The views of encodings ``a`` (and ``b``) over ``shape``, and what converting between them costs."""
    shape = ints_of(body.get("shape"), "shape")
    a, a_text = _encoding(body.get("a"), shape, "a")
    out = {"a": views.layout_view(a), "b": None, "levels": None, "level": None, "notes": [], "links": [],
           "a_text": a_text, "b_text": None}
    if body.get("b") not in (None, ""):
        b, out["b_text"] = _encoding(body.get("b"), shape, "b")
        out["b"] = views.layout_view(b)
        out["links"] = [["a", "element", "b", "element"]]  # the same tensor element
        a_shared = "offset" in a.in_dim_names
        b_shared = "offset" in b.in_dim_names
        if not a_shared and not b_shared:
            out["levels"] = list(analysis.conversion_levels(a, b))
            out["level"] = analysis.conversion_level(a, b)
            out["notes"].append(f"converting a -> b crosses: {out['level']}"
                                f" (moves data across {', '.join(out['levels']) or 'nothing'})")
        elif a_shared != b_shared:
            reg, shared = (b, a) if a_shared else (a, b)
            vec = analysis.largest_vectorisation(reg.invert_and_compose(shared)).width
            conflicts = analysis.bank_conflicts(reg, shared)
            out["level"] = "shared"
            out["notes"].append(f"register <-> shared copy: vector width {vec}, {conflicts} extra wavefront(s) "
                                "per access from bank conflicts")
        else:
            out["notes"].append("both layouts are shared-memory layouts: " +
                                ("the same" if a == b else "different"))
    return out
