"""Conversions between layout families: the only package where two families meet.

Every function here is **exact** (the result is the same function on the same
domain) or raises ``NotRepresentableError`` saying why the target cannot
express it. ``convert_to(value, family)`` dispatches through one table of
pairs, which each pair file declares as its ``PAIRS``; a family without a
pair to the target goes through the affine hub (its record's ``to_affine``,
then ``affine -> target`` on its box). Older methods such as
``TiledStridedLayout.to_cute()`` and ``XlaLayout.to_cute()`` are deprecated
delegates to these functions.

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
xla layout         if no pad   via cute    always      via cute (+ ``metal``)
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
``xla``          ``xla_to_affine``, ``xla_to_cute``, ``xla_to_linear``, ``xla_to_tsl``, ``xla_to_metal``
``equivalence``  the implementation of ``unilayout.equivalent``
``cute_triton``  CuTe's smem atoms and MMA fragments checked against Triton's encodings (no pair)
``tt_sharding``  ``from_metal``: a metal layout on a device -> ``sharding.Sharding`` (no pair)
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
from .._families import family_of, record
from .._family import Family
from .._ints import as_shape
from ..errors import LayoutError, NotRepresentableError
from . import affine_fit, axe, cute_affine, cute_linear, mosaic, tilelang, to_tsl, tsl, tt, xla
from ._common import MAX_POINTS
from .affine_fit import affine_to_cute, affine_to_linear, affine_to_tsl
from .cute_affine import cute_to_affine, linear_to_affine
from .cute_linear import MAX_SWIZZLE_BITS, cute_to_linear, linear_to_cute
from .to_tsl import cute_to_tsl, linear_to_tsl
from .tsl import tsl_to_affine, tsl_to_cute, tsl_to_linear
from .tt import ShardLayout, device_to_affine, metal_form, metal_to_affine, metal_to_cute
from .xla import xla_to_affine, xla_to_cute, xla_to_linear, xla_to_metal, xla_to_tsl

__all__ = [
    "cute_to_linear", "linear_to_cute", "cute_to_affine", "linear_to_affine", "tsl_to_affine", "tsl_to_cute",
    "cute_to_tsl", "tsl_to_linear", "linear_to_tsl", "affine_to_cute", "affine_to_tsl", "affine_to_linear",
    "metal_to_affine", "metal_to_cute", "metal_form", "ShardLayout", "device_to_affine", "convert_to", "family_of", "FAMILIES",
    "MAX_POINTS", "MAX_SWIZZLE_BITS", "xla_to_affine", "xla_to_cute", "xla_to_linear", "xla_to_tsl", "xla_to_metal",
]

#: Target family names accepted by ``convert_to`` (and a pair's own target, such as ``xla -> metal``).
FAMILIES = ("cute", "linear", "affine", "tsl")

#: The pair files, one line each: every one declares ``PAIRS = {(source, target): function}``.
PAIR_MODULES = (
    cute_linear,  # cute <-> linear
    cute_affine,  # cute, linear -> affine
    to_tsl,       # cute, linear -> tsl
    tsl,          # tsl -> cute, affine, linear
    affine_fit,   # affine (on a box) -> cute, tsl, linear
    tt,           # metal -> affine, cute; device -> affine
    xla,          # xla -> affine, cute, linear, tsl, metal
    mosaic,       # mosaic -> linear, cute, xla (a TPU memref); xla -> mosaic
    tilelang,     # tilelang -> linear, cute (proved over the whole domain)
    axe,          # axe (TIRx) -> cute (one basis per axis), linear (in-dims per axis)
)

#: ``(source family, target family) -> function``; an affine source also gets ``shape=``.
_TABLE = {pair: fn for module in PAIR_MODULES for pair, fn in module.PAIRS.items()}

#: Why a family with no pair to a target (and no affine hub to go through) does not convert there.
_NO_PAIR = {
    "metal": "a metal layout maps onto a grid of shards; convert it to affine, or to cute shard by shard",
    "device": "a device maps grid coordinates to chips and cores; its map converts to affine",
}


def _unknown(family):
    return LayoutError(f"convert_to: unknown target family {family!r}; choose one of {', '.join(FAMILIES)}")


def convert_to(value, family, **options):
    """Convert ``value`` to ``family`` (``cute``, ``linear``, ``affine`` or ``tsl``) with the function above for the pair.

    ``options`` go to that function (``in_dims``/``out_dims`` for linear
    targets, ``shape`` for an affine source or to resolve a TSL's ``?``,
    ``flat`` for a metal layout to affine, ``tiles`` for one to CuTe).
    Converting to the value's own family returns it unchanged (a TSL
    resolved by ``shape``). A metal layout converts to ``cute`` as its tuple
    of ``ShardLayout``; a device to ``affine`` with ``device_to_affine``; an
    XLA layout also to ``metal``. A family with no pair to the target but an
    affine form (its record's ``to_affine``) goes through the affine hub, on
    its box.

    >>> from unilayout import cute
    >>> print(convert_to(cute.parse("(2,2):(2,1)"), "affine"))
    (d0, d1) -> (d0 * 2 + d1)
    >>> convert_to(cute.parse("(2,2):(2,1)"), "metal")
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: convert_to: unknown target family 'metal'; choose one of cute, linear, affine, tsl
    """
    if family not in FAMILIES:
        try:
            src = family_of(value)
        except LayoutError:
            src = None
        if (src, family) not in _TABLE:
            raise _unknown(family)
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
    given, fn = src, _TABLE.get((src, family))
    if fn is None:
        # no pair: through the affine hub, when the family gives an affine form (its record overrides to_affine)
        rec = record(value)
        if src in _NO_PAIR or type(rec).to_affine is Family.to_affine:
            why = _NO_PAIR.get(src, f"no {src} value converts to {family}")
            raise NotRepresentableError(f"convert_to: {src} -> {family}: {why}")
        value, shape = rec.to_affine(value), rec.box(value)
        if family == "affine":
            return value
        if shape is None:
            raise NotRepresentableError(
                f"convert_to: {src} -> {family}: a {src} value has no box to tabulate its affine map on")
        src, fn = "affine", _TABLE[("affine", family)]
    if src == "cute" and family == "tsl" and not isinstance(value, cute.Layout):
        raise NotRepresentableError(
            f"convert_to: {value} is a {type(value).__name__}: a TSL only adds strides (no swizzle, no composition)"
        )
    if src == "affine":
        options["shape"] = shape
    try:
        inspect.signature(fn).bind(value, **options)
    except TypeError as e:
        names = sorted(k for k in options if k != "shape")
        raise LayoutError(f"convert_to: {given} -> {family} does not take the options {names}: {e}") from None
    return fn(value, **options)
