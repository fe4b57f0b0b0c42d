"""Conversions between layout families: the only package where two families meet.

Every function here is **exact** (the result is the same function on the same
domain) or raises ``NotRepresentableError`` saying why the target cannot
express it. Methods such as ``TiledStridedLayout.to_cute()`` are thin
delegates to these functions; ``convert_to(value, family)`` dispatches.

=================  ==========  ==========  ==========  ==========================
from \\ to          cute        linear      affine      tsl
=================  ==========  ==========  ==========  ==========================
cute Layout        --          if no carry always      always
Swizzle/Composed   --          if no carry always      never (XOR)
linear             if 1 swz.   --          always      if no swizzle
tsl                offset 0    offset 0    always      --
affine (+ box)     if strided  if GF(2)    --          if strided
metal layout       per shard   --          always      --
device             --          --          if ids AP   --
=================  ==========  ==========  ==========  ==========================

One file per pair of families ("ids AP": chip ids in arithmetic progression):

===============  ==============================================================================
file             functions
===============  ==============================================================================
``cute_linear``  ``cute_to_linear``, ``linear_to_cute`` (``MAX_SWIZZLE_BITS``)
``cute_affine``  ``cute_to_affine``, ``linear_to_affine``
``tsl``          ``tsl_to_cute``, ``tsl_to_affine``, ``tsl_to_linear`` (read a TSL, never import it)
``to_tsl``       ``cute_to_tsl``, ``linear_to_tsl`` (build a TSL)
``affine_fit``   ``affine_to_cute``, ``affine_to_tsl``, ``affine_to_linear`` (on a box, ``MAX_POINTS``)
``tt``           ``metal_to_affine``, ``metal_to_cute`` (``ShardLayout``), ``device_to_affine``
``xla``          ``xla_to_affine``, ``xla_to_cute``, ``xla_to_linear``, ``xla_to_tsl`` (XLA tiled layouts)
``equivalence``  the implementation of ``unilayout.equivalent``
===============  ==============================================================================

The searches these lean on live with their family: ``cute.find_swizzle``,
``cute.fit_layout``, ``LinearLayout.flat_bases`` and ``affine.linear_part``.

"no carry": a CuTe layout is GF(2)-linear exactly when every in-dim has a
power-of-two size and the integer images of the input bits have pairwise
disjoint bits (then ``+`` equals XOR); a swizzle is XOR, so it is linear too.
"1 swz.": a linear layout is a CuTe ``Layout`` when its flattened bases have
disjoint bits, a ``ComposedLayout`` ``Sw<B,M,S> o 0 o Layout`` when one
swizzle makes them so. See docs/convert.md for the reasons in each cell.

>>> from unilayout import cute
>>> L = cute_to_linear(cute.parse("(4,2):(2,1)"))
>>> L.bases, str(linear_to_cute(L)), str(cute_to_tsl(linear_to_cute(L)))
([('dim0', [[2], [4]]), ('dim1', [[1]])], '(4,2):(2,1)', '#tsl.tsl<[4] -> (2), [2] -> (1)>')
>>> print(convert_to(L, "affine"))
(d0, d1) -> (d0 * 2 + d1)
"""

from __future__ import annotations

import inspect

from .. import cute
from .._families import family_of
from .._ints import as_shape
from ..errors import LayoutError, NotRepresentableError
from ._common import MAX_POINTS
from .affine_fit import affine_to_cute, affine_to_linear, affine_to_tsl
from .cute_affine import cute_to_affine, linear_to_affine
from .cute_linear import MAX_SWIZZLE_BITS, cute_to_linear, linear_to_cute
from .to_tsl import cute_to_tsl, linear_to_tsl
from .tsl import tsl_to_affine, tsl_to_cute, tsl_to_linear
from .tt import ShardLayout, device_to_affine, metal_form, metal_to_affine, metal_to_cute
from .xla import xla_to_affine, xla_to_cute, xla_to_linear, xla_to_tsl

__all__ = [
    "cute_to_linear", "linear_to_cute", "cute_to_affine", "linear_to_affine", "tsl_to_affine", "tsl_to_cute",
    "cute_to_tsl", "tsl_to_linear", "linear_to_tsl", "affine_to_cute", "affine_to_tsl", "affine_to_linear",
    "metal_to_affine", "metal_to_cute", "metal_form", "ShardLayout", "device_to_affine", "convert_to", "family_of", "FAMILIES",
    "MAX_POINTS", "MAX_SWIZZLE_BITS", "xla_to_affine", "xla_to_cute", "xla_to_linear", "xla_to_tsl",
]

#: Target family names accepted by ``convert_to``.
FAMILIES = ("cute", "linear", "affine", "tsl")

#: ``(source family, target family) -> function``; an affine source also gets ``shape=``.
_TABLE = {
    ("cute", "linear"): cute_to_linear,
    ("cute", "affine"): cute_to_affine,
    ("cute", "tsl"): cute_to_tsl,
    ("linear", "cute"): linear_to_cute,
    ("linear", "affine"): linear_to_affine,
    ("linear", "tsl"): linear_to_tsl,
    ("tsl", "cute"): tsl_to_cute,
    ("tsl", "affine"): tsl_to_affine,
    ("tsl", "linear"): tsl_to_linear,
    ("affine", "cute"): affine_to_cute,
    ("affine", "tsl"): affine_to_tsl,
    ("affine", "linear"): affine_to_linear,
    ("metal", "affine"): metal_to_affine,
    ("metal", "cute"): metal_to_cute,
    ("device", "affine"): device_to_affine,
}

_TABLE.update({("xla", "affine"): xla_to_affine, ("xla", "cute"): xla_to_cute, ("xla", "linear"): xla_to_linear,
               ("xla", "tsl"): xla_to_tsl})

_NO_PAIR = {
    "metal": "a metal layout maps onto a grid of shards; convert it to affine, or to cute shard by shard",
    "device": "a device maps grid coordinates to chips and cores; its map converts to affine",
}


def convert_to(value, family, **options):
    """Convert ``value`` to ``family`` (``cute``, ``linear``, ``affine`` or ``tsl``) with the function above for the pair.

    ``options`` go to that function (``in_dims``/``out_dims`` for linear
    targets, ``shape`` for an affine source or to resolve a TSL's ``?``,
    ``flat`` for a metal layout to affine, ``tiles`` for one to CuTe).
    Converting to the value's own family returns it unchanged (a TSL
    resolved by ``shape``). A metal layout converts to ``cute`` as its tuple
    of ``ShardLayout``; a device to ``affine`` with ``device_to_affine``.

    >>> from unilayout import cute
    >>> print(convert_to(cute.parse("(2,2):(2,1)"), "affine"))
    (d0, d1) -> (d0 * 2 + d1)
    >>> convert_to(cute.parse("(2,2):(2,1)"), "metal")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: convert_to: unknown target family 'metal'; choose one of cute, linear, affine, tsl
    """
    if family not in FAMILIES:
        raise LayoutError(f"convert_to: unknown target family {family!r}; choose one of {', '.join(FAMILIES)}")
    src = family_of(value)
    shape = options.pop("shape", None)
    if shape is not None and src == "tsl":
        value = value.resolve(as_shape(shape, "convert_to: shape"))
    elif shape is not None and src != "affine":
        raise LayoutError(
            f"convert_to: shape is the box of an affine map (or resolves a TSL's '?'); a {src} value has its own domain"
        )
    if src == family:
        return value
    fn = _TABLE.get((src, family))
    if fn is None:
        why = _NO_PAIR.get(src, f"no {src} value converts to {family}")
        raise NotRepresentableError(f"convert_to: {src} -> {family}: {why}")
    if src == "cute" and family == "tsl" and not isinstance(value, cute.Layout):
        raise NotRepresentableError(
            f"convert_to: {value} is a {type(value).__name__}: a TSL only adds strides (no swizzle, no composition)"
        )
    if src == "affine":
        options["shape"] = shape
    try:
        inspect.signature(fn).bind(value, **options)
    except TypeError as e:
        given = sorted(k for k in options if k != "shape")
        raise LayoutError(f"convert_to: {src} -> {family} does not take the options {given}: {e}") from None
    return fn(value, **options)
