"""unilayout: one exact, fast model of tensor layouts.

Families, each a folder that declares itself in its ``family.py``: ``cute``
(CuTe layouts, tiled MMAs and copies), ``linear`` (Triton linear layouts over
GF(2) and the encodings that give them), ``affine`` (MLIR affine maps, the
hub), ``tsl`` (snax tiled-strided layouts), ``tt`` (Tenstorrent metal layouts,
devices, TTNN configs), ``xla`` (XLA tiled layouts), ``sharding`` (a tensor
over devices), ``mosaic`` (JAX Pallas Mosaic GPU/TPU layouts), ``tilelang``
(TileLang's expression layouts and fragments) and ``axe`` (TVM TIRx's
named-axis layouts); ``convert`` holds the
conversions between them. Services above them: ``codegen`` (index code in C,
CUDA, CuTe C++, Triton, MLIR, numpy, Python) and ``rosetta`` (one
instruction's fragments in every system, checked).
``families()`` names them; docs/architecture.md tells how to add one.

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
from ._version import __version__
from .errors import LayoutError, NotRepresentableError, ParseError

__all__ = [
    "LayoutError", "ParseError", "NotRepresentableError", "parse", "read", "index_map", "equivalent", "family_of",
    "families", "__version__",
]

#: Largest number of points ``equivalent`` tabulates on each side.
MAX_COMPARE_POINTS = 1 << 24

if "IPython" in __import__("sys").modules:  # inside IPython/Jupyter: values display as pictures (_notebook)
    from ._notebook import register as _register_notebook

    _register_notebook()


def parse(text):
    """Read the text of any family and return its value; the family is detected from the text.

    ======================================================  ==========================
    text starts with (after spaces)                         family (value)
    ======================================================  ==========================
    HLO ``{..}``, ``#sdy.sharding<``, ``Shard(0), ..``      sharding (Sharding; needs
                                                            ``read(.., shape=)``)
    ``#tsl.tsl<`` or ``[`` (a bare TSL body)                tsl (TiledStridedLayout)
    ``#ttg.linear<`` or Triton's toString (``- ``)          linear (LinearLayout)
    Triton's ``tensor<..., #ttg.*>``, ``!ttg.memdesc<``,     linear (LinearLayout; a
    ``#alias = #ttg...`` lines above one                    padded buffer: AffineMap)
    ``tensor<``, ``#tt.device<`` (``#ttcore.`` too)         tt (MetalLayout, Device,
                                                            TTNN configs)
    ``SM80_..`` atoms, ``make_tiled_mma/copy(..)``           tiled (TiledMMA, TiledCopy)
    an XLA shape ``f32[128,256]{1,0:T(8,128)}``             xla (XlaLayout)
    ``affine_map<``, or any text holding ``->``             affine (AffineMap)
    a digit, ``(``, ``_`` or ``Sw``                         cute (Layout, Swizzle,
                                                            ComposedLayout)
    ======================================================  ==========================

    The registry of families (``unilayout._families``, one line per family)
    does the detection; ``read`` is ``parse`` with a shape or mesh beside the text.
    Errors are ``ParseError`` with the position in ``text`` (leading spaces
    counted); text of no family points at its first character.

    >>> parse("Sw<3,4,3> o 0 o (8,64):(64,1)")
    ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, 64), (64, 1)))
    >>> print(parse("affine_map<(d0, d1) -> (d1, d0)>"))
    (d0, d1) -> (d1, d0)
    >>> parse("tensor<8xf16, #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [4], warpsPerCTA = [1], order = [0]}>>").bases[:2]
    [('register', [[1]]), ('lane', [[2], [4]])]
    >>> parse("  #ttg.blocked<{sizePerThread = [1]}>")
    Traceback (most recent call last):
    ...
    unilayout.errors.ParseError: #ttg.blocked needs the field 'threadsPerWarp' at position 36
        #ttg.blocked<{sizePerThread = [1]}>
                                          ^
    """
    return _families.parse(text)


def read(text, *, shape=None, mesh=None, mesh_shape=None):
    """``parse`` with what a text may need beside it: ``shape`` (a tensor's, or the box that resolves a dynamic
    layout), ``mesh`` / ``mesh_shape`` (a sharding's devices).

    >>> read("{devices=[2]<=[2]}", shape=(4,)).device_boxes
    {0: [((0, 2),)], 1: [((2, 4),)]}
    >>> read("#tsl.tsl<[?] -> (1)>", shape=(8,)).shape
    (8,)
    """
    return _families.read(text, shape=shape, mesh=mesh, mesh_shape=mesh_shape)


def family_of(value) -> str:
    """The family of a unilayout value: ``cute``, ``linear``, ``affine``, ``tsl``, ``metal``, ``device`` ...
    (one of ``families()``).

    >>> family_of(parse("#tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1, chipIds = [0]>"))
    'device'
    """
    return _families.family_of(value)


def families() -> tuple:
    """The names of the registered families, in the order their texts are recognised.

    Each is a folder with its ``family.py`` (see ``docs/architecture.md``);
    ``family_of(value)`` is one of these names.

    >>> families()
    ('sharding', 'tsl', 'linear', 'device', 'metal', 'ttnn', 'tiled', 'axe', 'xla', 'tilelang', 'affine', 'cute', 'mosaic')
    """
    return _families.families()


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


# --- equivalence (implemented in convert/equivalence.py) ------------------------------


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
    tabulated. Two affine maps without ``shape`` are compared exactly over
    all integers (dims and symbols): equal linear parts
    (``affine.linear_part``) and equal values on one period box. Raises
    ``LayoutError`` for non-layout arguments, symbols as factors or
    divisors in that exact comparison, and tabulations (or period boxes)
    over ``MAX_COMPARE_POINTS`` points;
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
    >>> equivalent(parse("(d0) -> ((d0 floordiv 2) floordiv 2)"), parse("(d0) -> (d0 floordiv 4)"))
    True
    """
    from .convert.equivalence import equivalent as _equivalent  # lazy: the bridge loads every family

    return _equivalent(a, b, shape, max_points=MAX_COMPARE_POINTS)


def __getattr__(name):
    # Families are imported on first use so `import unilayout` stays cheap.
    if name in ("cute", "linear", "affine", "tsl", "tt", "xla", "sharding", "mosaic", "tilelang", "axe", "convert", "viz",
                "distributed", "plan", "draw", "facts", "codegen", "rosetta"):
        import importlib  # lazy: a folder loads on its first use (import unilayout stays cheap)

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'unilayout' has no attribute {name!r}")
