"""The one registry of layout families: how each is recognised, read, tabulated, drawn and boxed.

Every place that must know "which family is this?" asks here: ``unilayout.parse``,
``unilayout.index_map``, ``unilayout.equivalent``, ``viz.scene``, the explorer
and the command. A family is one ``Family`` record plus its folder; adding a
family, or a text form of one, is a record (or a ``detect`` clause) here.

===========  ====================  =================================================  ==========================
family       folder (value types)  text it detects (after leading spaces)             index_map domain order
===========  ====================  =================================================  ==========================
``tsl``      ``tsl``               ``#tsl.tsl<``, a bare body ``[``                   index box, row-major
``linear``   ``linear``            ``#ttg.``/``#ttng.`` texts, Triton ``tensor<..>``,    flattened input bits
                                   ``!ttg.memdesc<``, alias lines, ``toString``
``metal``    ``tt``                ``tensor<``, ``#tt.``/``#ttcore.``/``#ttnn.``       logical box, row-major
``device``   ``tt``                ``#tt.device<``, ``#ttcore.device<``               worker grid, row-major
``xla``      ``sharding``          an XLA shape ``f32[128,256]{1,0:T(8,128)}``        its dims, row-major
``affine``   ``affine``            ``affine_map<``, any text holding ``->``           the box ``shape=``
``cute``     ``cute``              a digit, ``(``, ``_``, ``Sw``                       1-D coordinates
===========  ====================  =================================================  ==========================

The order of the table is the order of detection (a TSL body and Triton's
``toString`` both hold ``->``, so they come before affine maps).

>>> from unilayout import cute
>>> family_of(cute.Layout(4, 1)), detect("#tsl.tsl<[2] -> (1)>").name, detect("8:1").name
('cute', 'tsl', 'cute')
>>> detect("hello") is None
True

The registry imports no family: a record's functions import their folder when
called, and ``family_of`` only looks at folders already imported (a value of
a family that was never imported cannot exist).
"""

from __future__ import annotations

import sys

from .errors import LayoutError, ParseError

__all__ = ["Family", "FAMILIES", "family_of", "record", "detect", "parse", "index_map", "EXPECTED"]

#: What ``parse`` says when text belongs to no family.
EXPECTED = (
    "expected a layout: CuTe 'shape:stride' or 'Sw<B,M,S> o 0 o shape:stride', an affine map "
    "'(d0, ..) -> (..)' or 'affine_map<..>', '#tsl.tsl<..>', '#ttg.linear<{..}>', 'tensor<64x64xf16, #ttg.blocked<..>>', "
    "'tensor<..., #tt.metal_layout<..>>' or '#tt.device<..>'"
)


class Family:
    """One family: its name, its folder, and what the rest of unilayout needs of it (immutable).

    - ``types()``: the value classes (imports the folder; only called when it is imported);
    - ``detect(body)``: whether text (leading spaces removed, non-empty) is this family's;
    - ``parse(text)``: the family's reader (``ParseError`` with position on bad text);
    - ``index_map(value, shape)``: numpy int64 table in the family's domain order, ``(N,)`` or ``(N, k)``;
    - ``picture(value, **options)``: the ``viz.Scene`` that draws it;
    - ``box(value)``: the domain as a box of sizes, or None when it has none of its own.

    (A plain slotted class rather than a ``NamedTuple``: ``typing`` alone would triple ``import unilayout``.)

    >>> record("cute")
    Family('cute', 'unilayout.cute')
    """

    __slots__ = ("name", "package", "types", "detect", "parse", "index_map", "picture", "box")

    def __init__(self, name, package, types, detect, parse, index_map, picture, box):
        for slot, value in zip(self.__slots__, (name, package, types, detect, parse, index_map, picture, box)):
            object.__setattr__(self, slot, value)

    def __setattr__(self, name, value):
        raise AttributeError("Family is immutable")

    def __repr__(self):
        return f"Family({self.name!r}, {self.package!r})"


def _no_shape(name, shape):
    if shape is not None:
        raise LayoutError(f"index_map: shape is only for affine maps, swizzles and dynamic TSLs, not a {name} layout")


# ------------------------------------------------------------------------------------------ cute
def _cute_types():
    from . import cute

    return (cute.Layout, cute.ComposedLayout, cute.Swizzle)


def _cute_parse(text):
    from . import cute

    return cute.parse(text)


def _cute_detect(body):
    return body[0] in "0123456789(_" or body.startswith(("Sw", "SW"))


def _cute_index_map(x, shape):
    import numpy as np

    from . import cute
    from ._ints import as_shape, check_table

    if isinstance(x, cute.Swizzle):
        if shape is None:
            n = x.size
        else:
            dims = as_shape(shape, "index_map: a swizzle's shape")
            if len(dims) != 1:
                raise LayoutError(f"index_map: a swizzle's domain is [0, n): pass shape=(n,), got {shape!r}")
            n = dims[0]
        return x(np.arange(check_table(n, "index_map of a swizzle"), dtype=np.int64))
    _no_shape("cute", shape)
    return x.index_map()


def _cute_picture(x, *, color=None, tv=None, element_bytes=4, max_cells, labels=True, **rest):
    from . import cute
    from .viz import cute as draw

    _only_options("cute", rest)
    if isinstance(x, cute.Swizzle):
        x = draw.swizzle_layout(x)
    if tv is not None:
        if color not in (None, "thread"):
            raise LayoutError("a thread-value picture is coloured by thread")
        return draw.tv_scene(x, tuple(tv), max_cells=max_cells)
    return draw.layout_scene(x, color, element_bytes=element_bytes, max_cells=max_cells, labels=labels is not False)


def _cute_box(x):
    from . import cute

    if isinstance(x, cute.Swizzle):
        return (x.size,)
    ext = cute.product_each(x.shape)
    return tuple(ext) if isinstance(ext, tuple) else (ext,)


# ---------------------------------------------------------------------------------------- linear
def _linear_types():
    from .linear import LinearLayout

    return (LinearLayout,)


_LINEAR_TEXTS = ("#ttg.linear", "- ", "where out dims", "(empty layout")
_TRITON_TEXTS = ("#ttg.", "#triton_gpu.", "#ttng.", "!ttg.memdesc")


def _linear_parse(text):
    from . import linear

    if text.lstrip().startswith(_LINEAR_TEXTS) and not text.lstrip().startswith("#ttg.linear_"):
        return linear.parse(text)
    from .linear import ttgir

    return ttgir.layout(text)  # Triton's tensor types, encodings and alias lines


def _linear_detect(body):
    if body.startswith(_LINEAR_TEXTS) or body.startswith(_TRITON_TEXTS):
        return True
    triton = any(t in body for t in _TRITON_TEXTS[:3])
    # a Triton tensor type, or '#alias = #ttg...' lines above one
    return triton and (body.startswith("tensor") or (body.startswith("#") and "=" in body.split("\n", 1)[0]))


def _linear_index_map(x, shape):
    _no_shape("linear", shape)
    return x.index_map()


def _linear_picture(x, *, color=None, max_cells, labels=True, **rest):
    from .viz import linear as draw

    _only_options("linear", rest)
    return draw.linear_scene(x, color or "thread", max_cells=max_cells, labels=labels is not False)


def _linear_box(x):
    return tuple(s for _, s in x.in_dims)


# ---------------------------------------------------------------------------------------- affine
def _affine_types():
    from .affine import AffineMap

    return (AffineMap,)


def _affine_parse(text):
    from . import affine

    return affine.parse(text)


def _affine_detect(body):
    return body.startswith("affine_map") or "->" in body


def _affine_index_map(x, shape):
    return x.index_map(shape)


def _affine_picture(x, *, shape=None, max_cells, labels=True, **rest):
    from .viz import box as draw

    _only_options("affine", rest)
    return draw.affine_scene(x, shape, max_cells=max_cells, labels=labels is not False)


def _affine_box(x):
    return None


# ------------------------------------------------------------------------------------------- tsl
def _tsl_types():
    from .tsl import TiledStridedLayout

    return (TiledStridedLayout,)


def _tsl_parse(text):
    from . import tsl

    return tsl.parse(text)


def _tsl_detect(body):
    return body.startswith(("#tsl.", "["))


def _tsl_index_map(x, shape):
    if shape is not None:
        x = x.resolve(shape)
    return x.index_map().reshape(-1)  # the family gives the box's shape; the top level is (N,)


def _tsl_picture(x, *, max_cells, labels=True, **rest):
    from .viz import box as draw

    _only_options("tsl", rest)
    return draw.tsl_scene(x, max_cells=max_cells, labels=labels is not False)


def _tsl_box(x):
    return None if x.is_dynamic else tuple(x.shape)


# ------------------------------------------------------------------------------------ metal, device
def _metal_types():
    from .tt import MetalLayout

    return (MetalLayout,)


def _device_types():
    from .tt import Device

    return (Device,)


def _tt_parse(text):
    from . import tt

    return tt.parse(text)


_DEVICE_PREFIXES = ("#tt.device", "#ttcore.device")


def _metal_detect(body):
    return body.startswith(("tensor<", "tensor <", "#tt.", "#ttcore.", "#ttnn.")) and not body.startswith(_DEVICE_PREFIXES)


def _device_detect(body):
    return body.startswith(_DEVICE_PREFIXES)


def _metal_index_map(x, shape):
    _no_shape("metal", shape)
    return x.index_map()


def _device_index_map(x, shape):
    _no_shape("device", shape)
    return x.physical_cores().reshape(-1, 3)


def _metal_picture(x, *, max_cells, labels=True, **rest):
    from .viz import tt as draw

    _only_options("metal", rest)
    return draw.metal_scene(x, max_cells=max_cells, labels=labels)


def _device_picture(x, *, layout=None, max_cells, **rest):
    from .viz import tt as draw

    _only_options("device", rest)
    return draw.device_scene(x, layout, max_cells=max_cells)


# ------------------------------------------------------------------------------------------- xla
def _xla_types():
    from .sharding import XlaLayout

    return (XlaLayout,)


def _xla_parse(text):
    from .sharding import parse_xla_layout

    return parse_xla_layout(text)


def _xla_detect(body):
    import re

    return re.match(r"[A-Za-z_][A-Za-z0-9_]*\[", body) is not None  # f32[128,256]{1,0:T(8,128)}


def _xla_index_map(x, shape):
    _no_shape("xla", shape)
    return x.offsets().reshape(-1)


def _xla_picture(x, *, max_cells, labels=True, **rest):
    from .viz import box as draw

    _only_options("xla", rest)
    import numpy as np

    m = x.to_affine()  # exact: XLA's linear index as floordiv/mod terms
    scene = draw.box_scene(f"XLA layout {x}: buffer offset of each element",
                           lambda *crd: np.stack(np.broadcast_arrays(*m.evaluate(*crd)), axis=-1), tuple(x.dims),
                           max_cells=max_cells, labels=labels is not False)
    scene.kind = "xla"
    return scene


def _only_options(name, rest):
    """Refuse picture options that do not apply to this family (``None`` values are "not given")."""
    given = sorted(k for k, v in rest.items() if v is not None and k not in ("element_bytes", "labels"))
    if given:
        if "color" in given:
            raise LayoutError(f"colour modes apply to CuTe and linear layouts, not to a {name} value")
        if "tv" in given:
            raise LayoutError("tv= (a thread-value tile) applies to CuTe layouts only")
        raise LayoutError(f"picture options {given} do not apply to a {name} value")


#: The families in detection order.
FAMILIES = (
    Family("tsl", "unilayout.tsl", _tsl_types, _tsl_detect, _tsl_parse, _tsl_index_map, _tsl_picture, _tsl_box),
    Family("linear", "unilayout.linear", _linear_types, _linear_detect, _linear_parse, _linear_index_map,
           _linear_picture, _linear_box),
    Family("device", "unilayout.tt", _device_types, _device_detect, _tt_parse, _device_index_map,
           _device_picture, lambda x: tuple(x.grid_shape)),
    Family("metal", "unilayout.tt", _metal_types, _metal_detect, _tt_parse, _metal_index_map, _metal_picture,
           lambda x: tuple(x.logical_shape)),
    Family("xla", "unilayout.sharding", _xla_types, _xla_detect, _xla_parse, _xla_index_map, _xla_picture,
           lambda x: tuple(x.dims)),
    Family("affine", "unilayout.affine", _affine_types, _affine_detect, _affine_parse, _affine_index_map,
           _affine_picture, _affine_box),
    Family("cute", "unilayout.cute", _cute_types, _cute_detect, _cute_parse, _cute_index_map, _cute_picture,
           _cute_box),
)

_BY_NAME = {f.name: f for f in FAMILIES}


def record(value_or_name) -> Family:
    """The ``Family`` of a layout value, or of a family name (a ``str``).

    >>> record("tsl").package
    'unilayout.tsl'
    """
    if isinstance(value_or_name, str):
        try:
            return _BY_NAME[value_or_name]
        except KeyError:
            raise LayoutError(f"unknown family {value_or_name!r}; choose one of {', '.join(_BY_NAME)}") from None
    return _of_value(value_or_name)


def _of_value(value) -> Family:
    for fam in FAMILIES:
        if fam.package in sys.modules and isinstance(value, fam.types()):
            return fam
    raise LayoutError(
        "expected a unilayout layout value (CuTe Layout/ComposedLayout/Swizzle, LinearLayout, AffineMap, "
        f"TiledStridedLayout, MetalLayout or Device), got {type(value).__name__}"
    )


def family_of(value) -> str:
    """The family name of a layout value: ``cute``, ``linear``, ``affine``, ``tsl``, ``metal`` or ``device``.

    >>> from unilayout import cute
    >>> family_of(cute.Swizzle(1, 0, 1))
    'cute'
    >>> family_of(cute.Tensor([1, 2], cute.Layout(2, 1)))
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: expected a unilayout layout value (CuTe Layout/ComposedLayout/Swizzle, LinearLayout, AffineMap, TiledStridedLayout, MetalLayout or Device), got Tensor
    """
    return _of_value(value).name


def detect(text: str):
    """The ``Family`` whose text ``text`` is (leading spaces ignored), or None.

    >>> detect("  affine_map<(d0) -> (d0)>").name, detect("#tt.device<...>").name
    ('affine', 'device')
    """
    body = text.lstrip()
    if not body:
        return None
    for fam in FAMILIES:
        if fam.detect(body):
            return fam
    return None


def parse(text):
    """Read the text of any family (see ``unilayout.parse``): ``ParseError`` with the position on bad text."""
    if not isinstance(text, str):
        raise LayoutError(f"parse: expected text, got {type(text).__name__}")
    at = len(text) - len(text.lstrip())
    if at == len(text):
        raise ParseError(f"empty text: {EXPECTED}", text, at)
    fam = detect(text)
    if fam is None:
        raise ParseError(EXPECTED, text, at)
    try:
        return fam.parse(text)
    except LayoutError:
        raise
    except (ValueError, TypeError, IndexError, KeyError, AttributeError, ArithmeticError, RecursionError) as e:
        # a family parser's slip: still a positioned error, never a traceback
        raise ParseError(f"unreadable {fam.name} text ({type(e).__name__}: {e})", text, at) from None


def index_map(value, shape=None):
    """``value``'s table in its family's domain order (see ``unilayout.index_map``)."""
    return _of_value(value).index_map(value, shape)
