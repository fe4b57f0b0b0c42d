"""The CuTe layout algebra: coalesce, composition, complement, inverses, divides, products, casts.

Every function is pure, follows CuTe C++ (see ``shared/reference/cute.md`` for
where pycute differs) and states its post-conditions as checkable predicates:

>>> from unilayout.cute import Layout
>>> A, B = Layout((6, 2), (8, 2)), Layout((4, 3), (3, 1))
>>> R = composition(A, B)
>>> str(R), all(R(i) == A(B(i)) for i in range(B.size))
('((2,2),3):((24,2),8)', True)
>>> str(complement(Layout(4, 2), 24))
'(2,3):(1,8)'
>>> str(logical_divide(Layout((6, 8), (8, 1)), (3, 4)))
'((3,2),(4,2)):((8,24),(1,4))'
>>> str(blocked_product(Layout((3, 4), (4, 1)), Layout((2, 5), (1, 2))))
'((3,2),(4,5)):((4,12),(1,24))'

A ``ComposedLayout`` (swizzle o offset o layout) is accepted wherever a layout
is: the operation acts on its inner layout.

The algebra lives in two files, and every name is importable from here:

=================  ===============================================================
``cute.compose``   coalesce, filter, composition, complement, right/left inverse
``cute.divide``    logical/zipped/tiled/flat divide and product, blocked/raked
                   product, tile_to_shape, upcast, downcast, recast_layout
=================  ===============================================================
"""

from __future__ import annotations

from .compose import coalesce, complement, composition, filter, left_inverse, right_inverse
from .divide import (
    blocked_product,
    downcast,
    flat_divide,
    flat_product,
    logical_divide,
    logical_product,
    raked_product,
    recast_layout,
    tile_to_shape,
    tiled_divide,
    tiled_product,
    upcast,
    zipped_divide,
    zipped_product,
)

__all__ = [
    "coalesce", "filter", "composition", "complement", "right_inverse", "left_inverse",
    "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
    "logical_product", "zipped_product", "tiled_product", "flat_product",
    "blocked_product", "raked_product", "tile_to_shape", "upcast", "downcast", "recast_layout",
]
