"""unilayout: one exact, fast model of tensor layouts.

Families, each in its own subpackage: ``cute`` (CuTe layouts), ``linear``
(Triton linear layouts over GF(2)), ``affine`` (MLIR affine maps), ``tsl``
(snax tiled-strided layouts) and ``tt`` (Tenstorrent metal layouts and
devices); ``convert`` holds the conversions between them.

The top level reads any layout text, tabulates any layout and compares
layouts across families:

>>> import unilayout
>>> L = unilayout.parse("((2,2),2):((4,1),2)")
>>> unilayout.family_of(L), unilayout.index_map(L).tolist()
('cute', [0, 4, 1, 5, 2, 6, 3, 7])
>>> t = unilayout.parse("#tsl.tsl<[2, 2] -> (1, 4), [2] -> (2)>")
>>> unilayout.equivalent(L, t)
True
"""

from __future__ import annotations

from . import _families
from .errors import LayoutError, NotRepresentableError, ParseError

__version__ = "0.1.0"

__all__ = [
    "LayoutError", "ParseError", "NotRepresentableError", "parse", "index_map", "equivalent", "family_of",
    "__version__",
]

#: Largest number of points ``equivalent`` tabulates on each side.
MAX_COMPARE_POINTS = 1 << 24


def parse(text):
    """Read the text of any family and return its value; the family is detected from the text.

    ======================================================  ==========================
    text starts with (after spaces)                         family (value)
    ======================================================  ==========================
    ``#tsl.tsl<`` or ``[`` (a bare TSL body)                tsl (TiledStridedLayout)
    ``#ttg.linear<`` or Triton's toString (``- ``)          linear (LinearLayout)
    ``tensor<``, ``#tt.device<`` (``#ttcore.`` too)         tt (MetalLayout, Device)
    ``affine_map<``, or any text holding ``->``             affine (AffineMap)
    a digit, ``(``, ``_`` or ``Sw``                         cute (Layout, Swizzle,
                                                            ComposedLayout)
    ======================================================  ==========================

    The registry of families (``unilayout._families``) does the detection.
    Errors are ``ParseError`` with the position in ``text`` (leading spaces
    counted); text of no family points at its first character.

    >>> parse("Sw<3,4,3> o 0 o (8,64):(64,1)")
    ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, 64), (64, 1)))
    >>> print(parse("affine_map<(d0, d1) -> (d1, d0)>"))
    (d0, d1) -> (d1, d0)
    >>> parse("  #ttg.blocked<{sizePerThread = [1]}>")
    Traceback (most recent call last):
    ...
    unilayout.errors.ParseError: #ttg.blocked is not read here: write it as #ttg.linear<{...}> (or build it with unilayout.linear.encodings) at position 2
      #ttg.blocked<{sizePerThread = [1]}>
      ^
    """
    return _families.parse(text)


def family_of(value) -> str:
    """The family of a unilayout value: ``cute``, ``linear``, ``affine``, ``tsl``, ``metal`` or ``device``.

    >>> family_of(parse("#tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1, chipIds = [0]>"))
    'device'
    """
    return _families.family_of(value)


def index_map(layout, shape=None):
    """The layout's value at every point of its domain, as a numpy int64 array.

    Domain order is the family's own: CuTe enumerates 1-D coordinates (a bare
    ``Swizzle``: ``[0, size)``, or ``[0, shape[0])``), linear layouts the
    flattened input (first in-dim least significant; one column per
    out-dim), TSL/affine/metal layouts their index box in row-major order,
    a device its worker grid (columns chip id, y, x). Shape ``(N,)`` for one
    value per point, ``(N, k)`` for k. An affine map needs ``shape`` (its
    box); a dynamic TSL takes ``shape`` to ``resolve`` its ``?``.

    >>> from unilayout import cute
    >>> index_map(cute.Layout(4, 2)).tolist()
    [0, 2, 4, 6]
    >>> index_map(parse("(d0, d1) -> (d0 * 2 + d1)"), shape=(2, 2)).tolist()
    [[0], [1], [2], [3]]
    >>> index_map(parse("(d0) -> (d0)"))
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: index_map: an affine map has no box of its own; pass the shape of its 1 dim(s)
    """
    return _families.index_map(layout, shape)


# --- equivalence ----------------------------------------------------------------------------


def _linear_equivalent(a, b) -> bool:
    """Same in-dims (names, sizes), same out-dim names, same image of every input bit (orders ignored)."""
    if dict(a.in_dims) != dict(b.in_dims) or set(a.out_dim_names) != set(b.out_dim_names):
        return False
    bb = dict(b.bases)
    bo = b.out_dim_names
    for name, vecs in a.bases:
        for va, vb in zip(vecs, bb[name]):
            if dict(zip(a.out_dim_names, va)) != dict(zip(bo, vb)):
                return False
    return True


def _own_box(x, fam):
    """The box a value has by itself (None for an affine map or a dynamic TSL)."""
    if fam == "cute":
        if type(x).__name__ == "Swizzle":
            return (x.size,)
        from .cute import product_each

        ext = product_each(x.shape)
        return tuple(ext) if isinstance(ext, tuple) else (ext,)
    if fam == "linear":
        return tuple(s for _, s in x.in_dims)
    if fam == "tsl":
        return None if x.is_dynamic else tuple(x.shape)
    if fam == "metal":
        return tuple(x.logical_shape)
    if fam == "device":
        return tuple(x.grid_shape)
    return None


def _fit_box(box, ndims):
    """``box`` with ``ndims`` entries, dropping size-1 entries if needed; None if impossible."""
    box = tuple(int(v) for v in box)
    if len(box) == ndims:
        return box
    squeezed = tuple(v for v in box if v != 1)
    return squeezed if len(squeezed) == ndims else None


def _view(x, fam, box):
    """The function tabulated over its box: (N, k) int64 values, first extent fastest (colexicographic)."""
    import numpy as np

    def colex(table, shape):
        k = table.shape[1] if table.ndim == 2 else 1
        t = table.reshape(tuple(shape) + (k,))
        return t.transpose(tuple(reversed(range(len(shape)))) + (len(shape),)).reshape(-1, k)

    n = 1
    for v in box:
        n *= int(v)
    if n > MAX_COMPARE_POINTS:
        raise LayoutError(f"equivalent: {n} points are more than {MAX_COMPARE_POINTS} to compare one by one")
    if fam == "cute":
        if type(x).__name__ == "Swizzle":
            return x(np.arange(x.size, dtype=np.int64)).reshape(-1, 1)
        return x.index_map().reshape(-1, 1)
    if fam == "linear":
        return x.index_map()
    if fam == "tsl":
        if x.is_dynamic:
            x = x.resolve(box)
        return colex(x.index_map(), x.shape)
    if fam == "affine":
        return colex(x.index_map(box), box)
    if fam == "metal":
        return colex(x.index_map(), x.logical_shape)
    return colex(x.physical_cores().reshape(-1, 3), x.grid_shape)  # device


def _bit_images(x, fam):
    """The flattened image of each input bit (1-D order) if ``x`` is GF(2)-linear there, else None."""
    from .convert import cute_to_linear

    if fam == "cute":
        if x.size & (x.size - 1):
            return None
        try:
            x = cute_to_linear(x, in_dims="i")
        except NotRepresentableError:
            return None
    return [v for _, vals in x.flat_bases() for v in vals]


def _flatten_outs(values, sizes):
    import numpy as np

    out = np.zeros(values.shape[0], dtype=np.int64)
    shift = 0
    for j, s in enumerate(sizes):
        out |= values[:, j] << shift
        shift += s.bit_length() - 1
    return out.reshape(-1, 1)


def equivalent(a, b, shape=None) -> bool:
    """True iff ``a`` and ``b`` are the same function on the same domain, across families.

    Same family: ``==`` values are equivalent; otherwise the family's own
    notion (CuTe: same size and value at every 1-D coordinate; linear: same
    in-dims and sizes, same out-dim names, same image of every input bit, in
    any dim order; TSL/affine: same box and values; metal layouts and
    devices: their ``equivalent``). Different families: ``b`` is compared as
    a's family sees it, which is what converting ``b`` to a's family and
    comparing gives whenever that conversion exists, and ``False`` when b's
    function has no form in a's family at all:

    - CuTe vs linear: 1-D coordinates against the flattened input (first
      in-dim least significant), out-dims flattened into one offset;
    - CuTe vs TSL/affine/metal/device: natural coordinates (the box
      ``product_each(shape)``) against the box;
    - linear vs a box family: the in-dims (in order) against the box;
    - a metal layout's value is its flat position in ``shard()``'s output,
      or against several values its coordinates there (grid, then shard);
    - an affine map (or a TSL with ``?``) takes ``shape``, else the other
      side's box.

    Boxes are compared with size-1 dims ignored. Different domains (sizes,
    boxes, number of values per point) give ``False``, not an error.
    CuTe and linear layouts on a power-of-two 1-D domain are compared by the
    images of their input bits (exact at any size); everything else is
    tabulated. Raises ``LayoutError`` for two affine maps without ``shape``,
    non-layout arguments, and tabulations over ``MAX_COMPARE_POINTS`` points;
    ``NotRepresentableError`` only when neither direction can be compared: no
    common box exists (two TSLs with ``?`` values and no ``shape``).

    >>> from unilayout import cute, linear
    >>> equivalent(cute.parse("(2,4):(1,2)"), cute.parse("8:1"))
    True
    >>> equivalent(cute.parse("Sw<1,0,1> o 0 o 4:1"), linear.LinearLayout({"i": [[1], [3]]}, {"o": 4}))
    True
    >>> equivalent(parse("(d0, d1) -> (d0 + d1 * 4)"), cute.parse("(4,2):(1,4)"))
    True
    >>> equivalent(cute.parse("8:1"), cute.parse("4:1"))
    False
    """
    import numpy as np

    fa, fb = family_of(a), family_of(b)
    if shape is not None:
        from ._ints import as_shape

        shape = as_shape(shape, "equivalent: shape")
    if fa == fb:
        if a == b:
            return True
        if fa == "linear":
            return _linear_equivalent(a, b)
        if fa in ("metal", "device"):
            return a.equivalent(b)
    own_a, own_b = _own_box(a, fa), _own_box(b, fb)
    box_a = own_a or (tuple(shape) if shape is not None else None) or own_b
    box_b = own_b or (tuple(shape) if shape is not None else None) or own_a
    if box_a is None or box_b is None:
        if "affine" in (fa, fb):
            raise LayoutError("equivalent: an affine map is compared on a box: pass shape=")
        raise NotRepresentableError(
            f"equivalent: {a} and {b} have '?' values and no box to resolve them: pass shape=, or compare with =="
        )
    for fam, x, which in ((fa, a, "a"), (fb, b, "b")):
        box = box_a if which == "a" else box_b
        if fam == "affine":
            if x.num_symbols:
                raise LayoutError(f"equivalent: {x} has symbols: substitute them first")
            box = _fit_box(box, x.num_dims)
        elif fam == "tsl" and x.is_dynamic:
            box = _fit_box(box, x.rank)
            if box is not None:
                try:
                    x.resolve(box)
                except LayoutError:
                    box = None
        if box is None:
            return False
        if which == "a":
            box_a = box
        else:
            box_b = box
    if {fa, fb} <= {"cute", "linear"}:
        if int(np.prod(box_a, dtype=object)) != int(np.prod(box_b, dtype=object)):
            return False
        # on a power-of-two 1-D domain, compare the images of the input bits (no tabulation)
        ba, bb = _bit_images(a, fa), _bit_images(b, fb)
        if ba is not None or bb is not None:
            return ba == bb
    elif tuple(v for v in box_a if v != 1) != tuple(v for v in box_b if v != 1):
        return False
    va = _view(a, fa, box_a)
    vb = _view(b, fb, box_b)
    if va.shape[1] != vb.shape[1]:
        # one offset against a linear layout's several out-dims: flatten them, first least significant
        if fa == "linear" and vb.shape[1] == 1:
            va = _flatten_outs(va, [s for _, s in a.out_dims])
        elif fb == "linear" and va.shape[1] == 1:
            vb = _flatten_outs(vb, [s for _, s in b.out_dims])
        elif fa == "metal" and vb.shape[1] == len(a.shards_shape):
            va = np.stack(np.unravel_index(va[:, 0], a.shards_shape), axis=1).astype(np.int64)
        elif fb == "metal" and va.shape[1] == len(b.shards_shape):
            vb = np.stack(np.unravel_index(vb[:, 0], b.shards_shape), axis=1).astype(np.int64)
        else:
            return False
    return bool(np.array_equal(va, vb))


def __getattr__(name):
    # Families are imported on first use so `import unilayout` stays cheap.
    if name in ("cute", "linear", "affine", "tsl", "tt", "convert", "viz", "distributed"):
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'unilayout' has no attribute {name!r}")
