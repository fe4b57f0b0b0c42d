"""The explorer's JSON requests: each one parses or builds layouts and renders them — nothing else.

``handle(path, body)`` answers one POST request (``body`` is the raw JSON
bytes) with ``(status, payload)``. The five requests:

==================  ==========================================================  ====================================
path                body                                                        answer
==================  ==========================================================  ====================================
``/api/view``       ``{"text": "...", "shape": [4, 4]}`` (shape: affine box)   a view (see ``views``)
``/api/metal``      ``{"shape": [53, 63], "grid": [3, 2], "collapse":           the built layout's view; ``text`` is
                    [[0, -1]], "alignments": null, "tile": [32, 32],            its ``tensor<...>``
                    "oob_val": "undef"}``
``/api/algebra``    ``{"a": "4:2", "b": "16", "op": "complement"}``             ``a``, ``b``, ``result`` views, links
``/api/encodings``  ``{"shape": [32, 32], "a": {"kind": "blocked", "params":    ``a``, ``b`` views, their attribute
                    {...}}, "b": {...}}``                                       texts ``a_text``/``b_text``, the
                                                                                levels a conversion crosses, links
``/api/plan``       ``{"shape": "53x63", "mesh": [1, 2], "tile": [32, 32],      ranked ``grids``, the chosen one's
                    "collapse": "0,-1", "top": 20, "choice": 0,                 ``svg``, and ``reshard`` counters
                    "reshard_from": "tensor<...>"}``                            (see ``unilayout.plan.panel``)
==================  ==========================================================  ====================================

``links`` lists ``[view, key, view, key]``: cells of the two views whose
``keys`` agree stand for the same thing (the same tensor element; for
``composition``, result cell i and B cell i, and the A cells holding the
result's offset).

Errors answer 4xx with ``{"error": {"message": ..., "position": ..., "field": ...}}``:
``position`` is the 0-based character offset in the text of ``field`` for
text that does not parse (else null).

>>> status, view = handle("/api/view", b'{"text": "(2,2):(1,2)"}')
>>> status, view["count"], view["family"]
(200, 4, 'cute')
>>> status, err = handle("/api/view", b'{"text": "(2,2):(1,"}')
>>> status, err["error"]["position"]
(400, 9)
>>> handle("/api/run", b"{}")[0]
404
"""

from __future__ import annotations

import json

from .._families import family_of
from ..errors import LayoutError, ParseError
from .views import layout_view

__all__ = ["handle", "MAX_REQUEST_BYTES", "MAX_RANK", "ALGEBRA_OPS", "ENCODINGS", "RequestError"]

#: Largest request body accepted (bytes); larger ones get 413.
MAX_REQUEST_BYTES = 64 * 1024
#: Longest layout text accepted (characters).
MAX_TEXT = 8192
#: Most modes (CuTe flat modes, linear in+out dims, affine dims+symbols+results, ...) a drawn layout may have:
#: with at most ``views.MAX_CELLS`` cells, an answer is bounded by cells x rank as well as by cells.
MAX_RANK = 64

#: CuTe operations of the algebra panel: name -> number of layout operands (``b`` of complement is a cotarget).
ALGEBRA_OPS = {
    "composition": 2, "complement": 1, "logical_divide": 2, "zipped_divide": 2, "tiled_divide": 2,
    "flat_divide": 2, "logical_product": 2, "zipped_product": 2, "tiled_product": 2, "flat_product": 2,
    "blocked_product": 2, "raked_product": 2, "right_inverse": 1, "left_inverse": 1, "coalesce": 1,
}

#: Triton encodings of the encodings panel and the parameters each takes (Python names of ``linear.encodings``).
ENCODINGS = {
    "blocked": ("size_per_thread", "threads_per_warp", "warps_per_cta", "order"),
    "nvidia_mma": ("version", "warps_per_cta", "instr_shape"),
    "amd_mfma": ("version", "instr_shape", "is_transposed", "warps_per_cta", "element_bitwidth", "tiles_per_warp"),
    "swizzled_shared": ("vec", "per_phase", "max_phase", "order"),
}


class RequestError(LayoutError):
    """A request the explorer refuses; ``status`` is the HTTP status to answer with.

    >>> RequestError("no such request", 404).status
    404
    """

    def __init__(self, message, status=400, field=None):
        super().__init__(message)
        self.status = status
        self.field = field


def _error(exc, field=None):
    position = None
    message = str(exc)
    text = None
    if isinstance(exc, ParseError):
        position, message, text = exc.position, exc.message, exc.text
    return {"error": {"message": message, "position": position, "field": getattr(exc, "field", None) or field,
                      "text": text, "detail": str(exc)}}


def _text(body, key, required=True):
    value = body.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise RequestError(f"'{key}' must be a string of layout text, got {type(value).__name__}", field=key)
    if len(value) > MAX_TEXT:
        raise RequestError(f"'{key}' is {len(value)} characters long; at most {MAX_TEXT} are accepted", 413, key)
    return value


def _ints(value, key, *, allow_none=False, negative=False):
    if value is None and allow_none:
        return None
    if isinstance(value, str):  # "53x63", "3, 2"
        parts = [p for p in value.replace("x", ",").replace(" ", ",").split(",") if p]
        try:
            value = [int(p) for p in parts]
        except ValueError:
            raise RequestError(f"'{key}' must be integers like 53x63, got {value!r}", field=key) from None
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise RequestError(f"'{key}' must be a list of integers, got {value!r}", field=key)
    if len(value) > 16:
        raise RequestError(f"'{key}' has {len(value)} entries; at most 16 are accepted", field=key)
    if not negative and any(v < 1 for v in value):
        raise RequestError(f"'{key}' entries must be >= 1, got {value}", field=key)
    if any(abs(v) > 1 << 40 for v in value):
        raise RequestError(f"'{key}' entries are too large: {value}", field=key)
    return value


def _with_field(fn, field):
    try:
        return fn()
    except LayoutError as exc:
        if not getattr(exc, "field", None):
            exc.field = field
        raise


def _rank(value) -> int:
    """How many numbers describe one cell of ``value``'s view (flat modes, dims, results): a view's size per cell."""
    fam = family_of(value)
    if fam == "cute":
        inner = getattr(value, "inner", value)
        return len(inner.flat()[0]) if hasattr(inner, "flat") else 1
    if fam == "linear":
        return len(value.in_dim_names) + len(value.out_dim_names)
    if fam == "affine":
        return value.num_dims + value.num_symbols + value.num_results
    if fam == "tsl":
        return sum(len(ts.strides) for ts in value.tstrides)
    if fam == "metal":
        return len(value.logical_shape) + len(value.grid)
    if fam == "device":
        return len(value.grid_shape) + len(value.mesh_shape)
    return 0


def _check_rank(value, key):
    """``value`` if its view's size per cell is at most ``MAX_RANK`` (so an answer is bounded by cells x rank), else 413."""
    r = _rank(value)
    if r > MAX_RANK:
        raise RequestError(f"'{key}' has {r} modes/dims; the explorer draws layouts of at most {MAX_RANK}", 413, key)
    return value


def _view(body):
    from .. import facts
    from .adapter import parse_any

    text = _text(body, "text")
    shape = _ints(body.get("shape"), "shape", allow_none=True) if body.get("shape") not in ("", None) else None
    from ..sharding import command as sharding_command

    if sharding_command.is_sharding_text(text):  # HLO / Shardy (``shape``: the tensor's), XLA layouts
        if len(shape or ()) > MAX_RANK or len(text.split(",")) > 4 * MAX_RANK:
            raise RequestError(f"'text' is too large a sharding: at most {MAX_RANK} dims are drawn", 413, "text")
        return _with_field(lambda: sharding_command.view(text, shape), "text")
    tiled = _with_field(lambda: _tiled(text), "text")  # a TiledMMA / TiledCopy description (#14)
    if tiled is not None:
        from .views import tiled_view

        return _with_field(lambda: tiled_view(tiled), "text")
    value = _with_field(lambda: parse_any(text), "text")
    if facts._ttnn_config(value):  # a memory config / ND shard spec needs the tensor's shape; an ND tensor has its own
        if shape is None and not hasattr(value, "logical_shape"):
            raise RequestError("a #ttnn.memory_config / #ttnn.nd_shard_spec has no tensor shape: give 'shape' "
                               "(e.g. 64x256)", field="shape")
        value = _with_field(lambda: value.to_metal(shape), "text")
        shape = None
    value = _check_rank(value, "text")
    return _with_field(lambda: layout_view(value, shape), "text")


def _tiled(text):
    """The ``cute.TiledMMA`` (``SM80_16x8x16_F32F16F16F32_TN (2,2,1)``) or ``cute.TiledCopy``
    (``make_tiled_copy(Copy_Atom<OP, TYPE>, thr, val)``) that ``text`` describes, else None."""
    from ..cute.tiled import parse_tiled_mma
    from ..cute.tiled_copy import parse_tiled_copy

    mma = parse_tiled_mma(text)
    return mma if mma is not None else parse_tiled_copy(text)


def _metal(body):
    from .. import tt

    shape = _ints(body.get("shape"), "shape")
    grid = _ints(body.get("grid"), "grid")
    collapse = body.get("collapse")
    if collapse in (None, "", []):
        collapse = ((0, -1),)
    else:
        if isinstance(collapse, str):
            nums = _ints(collapse, "collapse", negative=True)
            if len(nums) % 2:
                raise RequestError("'collapse' needs pairs of dims, e.g. 0,-1 or 0,2,3,-1", field="collapse")
            collapse = [nums[i:i + 2] for i in range(0, len(nums), 2)]
        if not isinstance(collapse, list) or not all(isinstance(p, list) and len(p) == 2 for p in collapse):
            raise RequestError(f"'collapse' must be a list of [start, end) pairs, got {collapse!r}", field="collapse")
        collapse = [tuple(_ints(p, "collapse", negative=True)) for p in collapse]
    align = body.get("alignments")
    align = None if align in (None, "", []) else tuple(_ints(align, "alignments"))
    tile = body.get("tile")
    tile = None if tile in (None, "", []) else tuple(_ints(tile, "tile"))
    kw = {}
    for key, name in (("oob_val", "oob_val"), ("element_type", "element_type"), ("memory_space", "memory_space")):
        v = body.get(key)
        if v not in (None, ""):
            if not isinstance(v, str):
                raise RequestError(f"'{key}' must be a string, got {v!r}", field=key)
            kw[name] = v
    ml = _with_field(lambda: tt.MetalLayout.from_collapse(shape, grid, collapse, tile=tile, dim_alignments=align,
                                                          **kw), "shape")
    return layout_view(ml)


def _algebra(body):
    from .. import cute
    from .adapter import parse_any

    op = body.get("op")
    if not isinstance(op, str) or op not in ALGEBRA_OPS:
        raise RequestError(f"'op' must be one of {', '.join(ALGEBRA_OPS)}, got {op!r}", field="op")

    def layout(key):
        text = _text(body, key)
        value = _check_rank(_with_field(lambda: parse_any(text), key), key)
        if family_of(value) != "cute" or isinstance(value, cute.Swizzle):
            raise RequestError(f"'{key}' must be a CuTe layout such as (4,8):(8,1), got a {family_of(value)} value",
                               field=key)
        return value

    a = layout("a")
    out = {"op": op, "a": layout_view(a)}
    fn = getattr(cute, op)
    if op == "complement":
        b_text = body.get("b")
        if b_text in (None, ""):
            result = _with_field(lambda: fn(a), "b")
        else:
            cotarget = _ints(str(b_text), "b")
            if len(cotarget) != 1:
                raise RequestError("'b' of complement is one cotarget size, e.g. 16", field="b")
            result = _with_field(lambda: fn(a, cotarget[0]), "b")
        out["b"] = None
    elif ALGEBRA_OPS[op] == 1:
        result = _with_field(lambda: fn(a), "a")
        out["b"] = None
    else:
        b = layout("b")
        out["b"] = layout_view(b)
        result = _with_field(lambda: fn(a, b), "b")
    out["result"] = layout_view(_check_rank(result, "result"))
    out["text"] = str(result)
    out["links"] = [list(link) for link in _ALGEBRA_LINKS.get(op, ())]
    return out


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


def _param(value, key):
    if isinstance(value, bool) or (isinstance(value, int) and abs(value) <= 1 << 20):
        return value
    if isinstance(value, list) and len(value) <= 16:
        return [_param(v, key) for v in value]
    raise RequestError(f"parameter '{key}' must be an integer, a boolean or a list of them, got {value!r}",
                       field=key)


#: The encoding value class of each kind (its ``str()`` is Triton's attribute text).
_ENCODING_CLASSES = {"blocked": "Blocked", "nvidia_mma": "NvidiaMma", "amd_mfma": "AmdMfma",
                     "swizzled_shared": "SwizzledShared"}


def _encoding(spec, shape, key):
    """``(LinearLayout, attribute text)`` of the encoding ``spec`` (kind and parameters) for ``shape``."""
    from ..linear import encodings as E

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


def _encodings(body):
    from ..linear import analysis

    shape = _ints(body.get("shape"), "shape")
    a, a_text = _encoding(body.get("a"), shape, "a")
    out = {"a": layout_view(a), "b": None, "levels": None, "level": None, "notes": [], "links": [], "a_text": a_text,
           "b_text": None}
    if body.get("b") not in (None, ""):
        b, out["b_text"] = _encoding(body.get("b"), shape, "b")
        out["b"] = layout_view(b)
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


def _plan(body):
    """The planner panel (``unilayout.plan.panel.answer``): ranked grids, the chosen one's picture, a reshard's price."""
    from ..plan.panel import answer

    return answer(body)


_ROUTES = {"/api/view": _view, "/api/metal": _metal, "/api/algebra": _algebra, "/api/encodings": _encodings,
           "/api/plan": _plan}


def handle(path, body):
    """Answer one POST request: ``(status, payload)`` with payload a JSON-ready dict.

    ``body`` is the request body (bytes or str) holding one JSON object.
    Bad requests answer 4xx with ``{"error": {"message": ...}}``; nothing but
    parsing, building and rendering layouts ever runs.

    >>> handle("/api/view", b"[1, 2]")
    (400, {'error': {'message': 'the request body must be a JSON object', 'position': None, 'field': None, \
'text': None, 'detail': 'the request body must be a JSON object'}})
    >>> status, out = handle("/api/algebra", b'{"a": "4:2", "b": "16", "op": "complement"}')
    >>> status, out["text"]
    (200, '(2,2):(1,8)')
    """
    route = _ROUTES.get(path)
    try:
        if route is None:
            raise RequestError(f"no such request {path!r}: use one of {', '.join(_ROUTES)}", 404)
        if isinstance(body, (bytes, bytearray)):
            if len(body) > MAX_REQUEST_BYTES:
                raise RequestError(f"request body of {len(body)} bytes is larger than {MAX_REQUEST_BYTES}", 413)
            try:
                body = body.decode("utf-8")
            except UnicodeDecodeError:
                raise RequestError("the request body is not UTF-8") from None
        try:
            data = json.loads(body)
        except (ValueError, TypeError) as exc:
            raise RequestError(f"the request body is not JSON: {exc}") from None
        if not isinstance(data, dict):
            raise RequestError("the request body must be a JSON object")
        return 200, route(data)
    except RequestError as exc:
        return exc.status, _error(exc)
    except LayoutError as exc:
        return 400, _error(exc)
    except RecursionError:
        return 400, _error(RequestError("the text is nested too deeply"))
