"""The explorer's JSON requests: each one parses or builds layouts and renders them — nothing else.

``handle(path, body)`` answers one POST request (``body`` is the raw JSON
bytes) with ``(status, payload)``. The eight requests:

==================  ==========================================================  ====================================
path                body                                                        answer
==================  ==========================================================  ====================================
``/api/view``       ``{"text": "...", "shape": [4, 4], "mesh": "a=2,b=4"}``      a view (see ``views``)
                    (shape: affine box, a sharding's or a TTNN memory
                    config's tensor; mesh: a Shardy sharding's, ``mesh_of``)
``/api/metal``      ``{"shape": [53, 63], "grid": [3, 2], "collapse":           the built layout's view; ``text`` is
                    [[0, -1]], "alignments": null, "tile": [32, 32],            its ``tensor<...>``
                    "oob_val": "undef"}``                                       (``panels.metal``)
``/api/algebra``    ``{"a": "4:2", "b": "16", "op": "complement"}``             ``a``, ``b``, ``result`` views, links
                                                                                (``panels.algebra``)
``/api/encodings``  ``{"shape": [32, 32], "a": {"kind": "blocked", "params":    ``a``, ``b`` views, their attribute
                    {...}}, "b": {...}}``                                       texts ``a_text``/``b_text``, the
                                                                                levels a conversion crosses, links
                                                                                (``panels.encodings``)
``/api/plan``       ``{"shape": "53x63", "mesh": [1, 2], "tile": [32, 32],      ranked ``grids``, the chosen one's
                    "collapse": "0,-1", "top": 20, "choice": 0,                 ``svg``, and ``reshard`` counters
                    "reshard_from": "tensor<...>"}``                            (see ``unilayout.plan.panel``)
``/api/code``       ``{"text": "...", "lang": "c", "inverse": false, "shape":    ``{"lang", "code"}``: the layout's
                    .., "mesh": ..}``                                           index code (``unilayout.codegen``)
``/api/rosetta``    ``{"instruction": "mma.sync.m16n8k16.f32.f16", "operand":   each system's spelling, verdict,
                    "C"}`` (or ``{"list": true}``: the instructions)            picture and differing cells
                                                                                (``panels.rosetta``)
``/api/lens``       ``{"text": "<a whole TTGIR/tt-mlir dump>", "function":       the dump's lines, each layout
                    null}`` (up to ``panels.lens.MAX_DUMP``)                    type's span and view text, each
                                                                                move priced (``panels.lens``)
==================  ==========================================================  ====================================

``/api/view`` reads any family's text through the registry's one front
door (``unilayout._families.read``) and draws it from the family's record;
the panels import their family when first asked. ``links`` lists ``[view,
key, view, key]``: cells of the two views whose ``keys`` agree stand for the
same thing (the same tensor element; for ``composition``, result cell i and
B cell i, and the A cells holding the result's offset).

Errors answer 4xx with ``{"error": {"message": ..., "position": ..., "field": ...}}``
(``_request``): ``position`` is the 0-based character offset in the text of
``field`` for text that does not parse (else null).

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
import math
import re

from .._families import read, record
from ..errors import LayoutError
from ._request import MAX_RANK, MAX_REQUEST_BYTES, RequestError, check_rank, error_payload, ints_of, text_of, with_field
from .views import view_of

__all__ = ["handle", "MAX_REQUEST_BYTES", "MAX_RANK", "ALGEBRA_OPS", "ENCODINGS", "RequestError"]  # noqa: F822


def __getattr__(name):
    """``ALGEBRA_OPS`` and ``ENCODINGS``, the panels' tables, read from their panel modules when asked."""
    if name == "ALGEBRA_OPS":
        from .panels.algebra import ALGEBRA_OPS  # lazy: the panel imports cute; the explorer loads no family eagerly

        return ALGEBRA_OPS
    if name == "ENCODINGS":
        from .panels.encodings import ENCODINGS  # lazy: the panel imports linear; the explorer loads no family eagerly

        return ENCODINGS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_MESH_AXES = re.compile(r"\s*[A-Za-z_]\w*\s*=\s*\d+\s*(?:,\s*[A-Za-z_]\w*\s*=\s*\d+\s*)*,?\s*")
_MESH_SIZES = re.compile(r"\s*\d+(?:\s*[x,]\s*\d+)*\s*")


def mesh_of(body):
    """``(mesh, mesh_shape)`` for the reader from the request's ``mesh`` field (both None when absent).

    A Shardy mesh is given as its text (``sdy.mesh @m = <["a"=2, "b"=4]>``,
    ``<["a"=2]>``) or as axes ``a=2,b=4``; sizes alone (``2x4``) are the
    mesh shape of DTensor/TTNN placements.

    >>> mesh_of({"mesh": "a=2, b=4"}), mesh_of({"mesh": "2x4"}), mesh_of({})
    (('<["a"=2, "b"=4]>', None), (None, [2, 4]), (None, None))
    """
    if body.get("mesh") in (None, ""):
        return None, None
    text = text_of(body, "mesh")
    if _MESH_SIZES.fullmatch(text):
        return None, ints_of(text, "mesh")
    if _MESH_AXES.fullmatch(text):
        axes = [part.split("=") for part in text.split(",") if part.strip()]
        return "<[" + ", ".join(f'"{a.strip()}"={int(n)}' for a, n in axes) + "]>", None
    return text.strip(), None


def _view(body):
    """Any family's text (and the ``shape`` a value without one of its own needs, the ``mesh`` of a Shardy
    sharding): its view."""
    text = text_of(body, "text")
    shape = ints_of(body.get("shape"), "shape", allow_none=True) if body.get("shape") not in ("", None) else None
    mesh, mesh_shape = mesh_of(body)
    value = with_field(lambda: read(text, shape=shape, mesh=mesh, mesh_shape=mesh_shape), "text")
    rec = record(value)
    if shape is None and rec.box(value) is None and rec.default_shape(value) is None:
        head = text.strip().split("<", 1)[0]
        raise RequestError(f"{head} (a {rec.name} value) has no shape of its own: give 'shape' (e.g. 64x256)",
                           field="shape")
    value = check_rank(value, "text")
    out = with_field(lambda: view_of(value, shape, source=text.strip()), "text")
    # whether this value read the shape box (a box of its own ignores it: the page then empties the box, so that
    # the shape typed for one value is not carried to the next)
    box = rec.box(value)
    out["uses_shape"] = shape is None or box is None or tuple(box) == tuple(shape)
    return out


def _metal(body):
    from .panels import metal  # lazy: the panel imports tt; the explorer loads no family until asked

    return metal.answer(body)


def _algebra(body):
    from .panels import algebra  # lazy: the panel imports cute; the explorer loads no family until asked

    return algebra.answer(body)


def _encodings(body):
    from .panels import encodings  # lazy: the panel imports linear; the explorer loads no family until asked

    return encodings.answer(body)


#: Most chips the planner's ``mesh`` may have (a Galaxy has 32): a mesh's device is built chip by chip, core by core.
MAX_MESH_CHIPS = 1024


def _plan(body):
    """The planner panel (``unilayout.plan.panel.answer``): ranked grids, the chosen one's picture, a reshard's price.

    A ``mesh`` of more than ``MAX_MESH_CHIPS`` chips is refused (413) before any device is built.

    >>> handle("/api/plan", b'{"shape": "64x64", "mesh": [1048576, 1048576]}')[1]["error"]["message"]
    "'mesh' has 1,099,511,627,776 chips; the planner takes meshes of at most 1,024"
    """
    mesh = body.get("mesh") if isinstance(body, dict) else None
    if mesh not in (None, "", []):
        try:
            chips = math.prod(ints_of(mesh, "mesh"))
        except RequestError:  # not a list of sizes: the panel says what it expects
            chips = 0
        if chips > MAX_MESH_CHIPS:
            raise RequestError(f"'mesh' has {chips:,} chips; the planner takes meshes of at most {MAX_MESH_CHIPS:,}",
                               413, "mesh")
    from ..plan import panel  # lazy: the planner imports tt; the explorer loads no family until asked

    return panel.answer(body)


def _code(body):
    """The index code of any family's text in ``lang`` (``unilayout.codegen``; ``inverse`` for its inverse).

    >>> handle("/api/code", b'{"text": "(4,8):(8,1)", "lang": "python"}')[1]["code"].splitlines()[-1]
    '    return (i0 << 3) + i1'
    """
    from ..codegen import LANGS, emit, emit_inverse  # lazy: the code generator loads for the code box only

    text = text_of(body, "text")
    lang = body.get("lang", "c")
    if lang not in LANGS:
        raise RequestError(f"unknown language {lang!r}: choose one of {', '.join(LANGS)}", field="lang")
    shape = ints_of(body.get("shape"), "shape", allow_none=True) if body.get("shape") not in ("", None) else None
    mesh, mesh_shape = mesh_of(body)
    value = with_field(lambda: read(text, shape=shape, mesh=mesh, mesh_shape=mesh_shape), "text")
    if body.get("inverse"):
        code = with_field(lambda: emit_inverse(value, lang), "lang")
    else:
        code = with_field(lambda: emit(value, lang, shape=shape if record(value).box(value) is None else None), "lang")
    return {"lang": lang, "code": code}


def _rosetta(body):
    from .panels import rosetta  # lazy: the panel loads the rosetta table; the explorer loads no family until asked

    return rosetta.rosetta_view(body)


def _lens(body):
    from .panels import lens  # lazy: the panel imports the lens and a family; the explorer loads no family until asked

    return lens.lens_view(body)


_ROUTES = {"/api/view": _view, "/api/metal": _metal, "/api/algebra": _algebra, "/api/encodings": _encodings,
           "/api/plan": _plan, "/api/code": _code, "/api/rosetta": _rosetta, "/api/lens": _lens}

#: Bodies larger than ``MAX_REQUEST_BYTES`` a route takes: a whole dump (the panel bounds the dump itself to
#: ``panels.lens.MAX_DUMP``, 4 MiB; JSON escaping may double it).
BODY_LIMITS = {"/api/lens": 8 * 1024 * 1024}


def body_limit(path) -> int:
    """The largest request body ``path`` takes, in bytes.

    >>> body_limit("/api/view"), body_limit("/api/lens")
    (65536, 8388608)
    """
    return BODY_LIMITS.get(path, MAX_REQUEST_BYTES)


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
            if len(body) > body_limit(path):
                raise RequestError(f"request body of {len(body)} bytes is larger than {body_limit(path)}", 413)
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
        return exc.status, error_payload(exc)
    except LayoutError as exc:
        return 400, error_payload(exc)
    except RecursionError:
        return 400, error_payload(RequestError("the text is nested too deeply"))
