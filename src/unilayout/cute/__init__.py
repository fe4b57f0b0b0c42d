"""CuTe layouts, their algebra, swizzles and tensors, with CuTe C++ semantics.

A CuTe layout is a pair of congruent nested int tuples ``shape:stride``: a
function from the coordinates of ``shape`` to offsets, ``sum(c_i * d_i)``. Every
layout is also a function of one integer, the colexicographic (column-major)
1-D coordinate, so layouts compose like functions:

>>> from unilayout import cute
>>> L = cute.Layout(((2, 2), 2), ((4, 1), 2))     # a 4x2 row-major matrix, hierarchically
>>> [L(i) for i in range(L.size)]
[0, 4, 1, 5, 2, 6, 3, 7]
>>> str(cute.coalesce(cute.Layout((2, 4), (1, 2))))
'8:1'
>>> A = cute.blocked_product(cute.Layout((2, 2), (1, 2)), cute.Layout((2, 3), (3, 1)))
>>> str(A), A((0, 1), (1, 1))
('((2,2),(2,3)):((1,12),(2,4))', 18)

Beyond the algebra, the hardware's vocabulary: MMA and copy atoms
(``mma_atom``, ``copy_atom``) and their tilings over threads
(``make_tiled_mma``, ``make_tiled_copy``), basis strides and identity tensors
(``E``, ``make_identity_tensor``), common vectors (``max_common_vector``) and
the shared-memory swizzle atoms (``smem_atom``):

>>> mma = cute.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
>>> mma.size, mma.tile_size_mnk()
(128, (32, 16, 16))
>>> str(cute.smem_atom("K_SW128", 16))
'Sw<3,3,3> o 0 o (8,64):(64,1)'

CuTe IR (the CuTe DSL's MLIR dialect) types every value; ``parse`` reads its
types, the DSL's prints, FlyDSL's and Mojo's, and ``to_ir`` prints the type.
A leaf known only at run time is a ``Dyn`` (``?``, ``?{div=N}``, ``?{i64
div=N}``); ``bind`` gives it its value:

>>> L = cute.parse('!cute.layout<"(?,8):(8,1)">')
>>> cute.to_ir(L), str(cute.bind(L, [4]))
('!cute.layout<"(?,8):(8,1)">', '(4,8):(8,1)')
>>> cute.parse('!cute.tile<"[(4,2):(1,4);_]">')
Tile(Layout((4, 2), (1, 4)), None)

Invariants: shapes are positive, strides congruent to shapes, values are
immutable and hashable. ``str`` is C++'s printed form; ``parse`` reads it.
Deliberate differences from pycute and from C++ are listed in
``shared/reference/cute.md`` and docs/cute.md: unilayout follows C++ and raises
``LayoutError`` where C++ would return a wrong layout.

Relation to the other families: a CuTe layout with power-of-two shapes and
strides is a linear layout over GF(2) (``unilayout.convert``); a TSL is a CuTe layout
plus an offset; a metal-layout shard is a CuTe layout.
"""

from ..errors import LayoutError
from .algebra import (
    append,
    blocked_product,
    coalesce,
    complement,
    composition,
    dice,
    downcast,
    filter,
    flat_divide,
    flat_product,
    left_inverse,
    logical_divide,
    logical_product,
    prepend,
    raked_product,
    recast_layout,
    right_inverse,
    slice_,
    tile_to_shape,
    tiled_divide,
    tiled_product,
    upcast,
    zipped_divide,
    zipped_product,
)
from .atoms_copy import CopyAtom, copy_atom, copy_atoms
from .atoms_mma import MMAAtom, mma_atom, mma_atoms
from .basis import ArithTuple, E, ScaledBasis, make_basis_like
from .dyn import Dyn
from .evaluate import evaluate, index_map
from .fit import MAX_SWIZZLE_BITS, find_swizzle, fit_layout, fit_mode
from .identity import CoordTensor, make_identity_layout, make_identity_tensor
from .inttuple import (
    ceil_div,
    congruent,
    crd2idx,
    idx2crd,
    prefix_product,
    product,
    product_each,
    shape_div,
    shape_mod,
)
from .inttuple import flatten as _flatten_tuple
from .ir_dump import ir_types
from .ir_print import to_ir
from .ir_values import IRTuple, MemRef, Tile
from .ir_values import bind_ir as bind
from .layout import (
    Layout,
    column_major,
    cosize,
    flatten_layout,
    make_layout,
    make_layout_like,
    make_ordered_layout,
    rank,
    row_major,
    select,
    size,
    slice_and_offset,
)
from .layout import depth_of as depth
from .layout import group as group
from .printing import layout_table, print_layout
from .swizzle import ComposedLayout, Swizzle, swizzle_layout
from .tensor import Tensor, local_partition, local_tile
from .text import parse
from .tiled import ThrMMA, TiledMMA, make_tiled_mma
from .tiled_copy import ThrCopy, TiledCopy, make_tiled_copy, make_tiled_copy_A, make_tiled_copy_B, make_tiled_copy_C
from .tiled_text import parse_tiled_mma
from .tv import make_layout_tv, tv_owner, tv_table
from .vector import max_common_layout, max_common_vector, nullspace


def flatten(x):
    """Flatten a layout's (or an int tuple's) hierarchy to its leaves (C++ ``flatten``).

    >>> flatten(Layout(((2, 2), 2), ((4, 1), 2))), flatten(((1, 2), 3))
    (Layout((2, 2, 2), (4, 1, 2)), (1, 2, 3))
    """
    if isinstance(x, Layout):
        return flatten_layout(x)
    if isinstance(x, ComposedLayout):
        return ComposedLayout(x.outer, x.offset, flatten_layout(x.inner))
    if not isinstance(x, (tuple, int, Dyn)):  # a Swizzle, a string...: nothing to flatten (CuTe IR refuses them)
        raise LayoutError(f"flatten: expected a layout, a composed layout or an int tuple, got {type(x).__name__}")
    return _flatten_tuple(x)


_SMEM_NAMES = ("SMEM_KINDS", "check_equivalents", "smem_atom", "smem_equivalents", "smem_table")


def __getattr__(name):
    """``cute.smem_atom`` & co., read from their deprecated alias ``cute.smem`` on first use."""
    if name in _SMEM_NAMES:
        from . import smem  # lazy: deprecated alias, moved to convert.cute_triton

        return getattr(smem, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Layout", "Swizzle", "ComposedLayout", "swizzle_layout", "Tensor", "parse",
    "size", "cosize", "rank", "depth", "make_layout", "column_major", "row_major", "make_ordered_layout",
    "make_layout_like", "coalesce", "filter", "composition", "complement", "right_inverse", "left_inverse",
    "logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "logical_product", "zipped_product",
    "tiled_product", "flat_product", "blocked_product", "raked_product", "tile_to_shape", "select", "group",
    "flatten", "idx2crd", "crd2idx", "prefix_product", "shape_div", "shape_mod", "ceil_div", "product",
    "product_each", "congruent", "upcast", "downcast", "recast_layout", "local_tile", "local_partition",
    "slice_and_offset", "index_map", "evaluate", "print_layout", "layout_table", "make_layout_tv",
    "tv_owner", "tv_table", "find_swizzle", "fit_mode", "fit_layout", "MAX_SWIZZLE_BITS",
    "ScaledBasis", "E", "ArithTuple", "CoordTensor", "make_basis_like", "make_identity_layout",
    "make_identity_tensor", "MMAAtom", "mma_atom", "mma_atoms", "TiledMMA", "ThrMMA", "make_tiled_mma", "parse_tiled_mma",
    "CopyAtom", "copy_atom", "copy_atoms", "TiledCopy", "ThrCopy", "make_tiled_copy", "make_tiled_copy_A",
    "make_tiled_copy_B", "make_tiled_copy_C", "max_common_vector", "max_common_layout", "nullspace",
    "smem_atom", "smem_equivalents", "check_equivalents", "smem_table", "SMEM_KINDS",
    "Dyn", "bind", "to_ir", "ir_types", "IRTuple", "Tile", "MemRef", "append", "prepend", "dice", "slice_",
]
