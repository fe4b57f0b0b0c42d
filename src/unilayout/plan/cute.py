"""What a CuTe copy costs: the widest common vector and the number of transactions.

``copy(src_tensor, dst_tensor)`` moves element ``i`` (1-D coordinate) from
offset ``src(i)`` to offset ``dst(i)``. It can move ``v`` elements per
instruction when the coordinates split into groups of ``v`` that are ``v``
consecutive, ``v``-aligned offsets on *both* sides, in the same order — the
idea of CuTe's ``max_common_vector`` (contiguous elements of
``composition(src, right_inverse(dst))``), with the alignment CuTe assumes
of the base pointers made explicit. ``cute_copy`` finds the largest such
``v`` (a power of two, at most ``max_vector_bits`` wide) from the two index
maps, exactly:

==================  ==========================================================
field               meaning
==================  ==========================================================
``vector``          elements per instruction; ``vector_bits = vector * element_bits``
``transactions``    instructions for the whole copy, ``size / vector``
``bytes``           ``size * element_bits / 8``
==================  ==========================================================

>>> from unilayout import cute
>>> c = cute_copy(cute.Layout((8, 8), (8, 1)), cute.Layout((8, 8), (8, 1)), element_bits=16)
>>> c.vector, c.vector_bits, c.transactions
(8, 128, 8)
>>> cute_copy(cute.Layout((8, 8), (8, 1)), cute.Layout((8, 8), (1, 8)), element_bits=16).vector   # transpose
1
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .. import cute
from .._ints import as_pow2
from ..errors import LayoutError

__all__ = ["CopyCost", "cute_copy"]


class CopyCost(NamedTuple):
    """The price of a CuTe copy (fields in the module docstring).

    >>> CopyCost(4, 128, 16, 256).transactions
    16
    """

    vector: int
    vector_bits: int
    transactions: int
    bytes: int


def _index_map(layout, what):
    if not isinstance(layout, (cute.Layout, cute.ComposedLayout)):
        raise LayoutError(f"cute_copy: {what} must be a cute.Layout or ComposedLayout, got {type(layout).__name__}")
    return np.asarray(cute.index_map(layout), dtype=np.int64).reshape(-1)


def cute_copy(src, dst, element_bits=32, max_vector_bits=128) -> CopyCost:
    """Price copying ``src`` to ``dst`` (CuTe layouts of one size) with elements of ``element_bits``.

    **Pre-conditions**: ``size(src) == size(dst)``; ``dst`` injective (a
    copy writes each destination once).
    **Post-conditions**: ``vector`` is a power of two dividing the size;
    sorting the coordinates by ``dst`` offset and cutting them into runs of
    ``vector``, every run is ``vector`` consecutive offsets starting at a
    multiple of ``vector`` in both ``dst`` and ``src``; twice ``vector`` fails
    (or exceeds ``max_vector_bits``).

    >>> from unilayout import cute
    >>> cute_copy(cute.Layout((4, 32), (32, 1)), cute.Layout((4, (4, 8)), (4, (1, 16))), element_bits=32).vector
    4
    """
    s = _index_map(src, "src")
    d = _index_map(dst, "dst")
    bits = as_pow2(element_bits, "element_bits")
    max_bits = as_pow2(max_vector_bits, "max_vector_bits")
    if s.size != d.size:
        raise LayoutError(f"cute_copy: src has {s.size} elements but dst has {d.size}: a copy needs equal sizes")
    order = np.argsort(d, kind="stable")
    ds, ss = d[order], s[order]
    if ds.size and (ds[1:] == ds[:-1]).any():
        k = int(np.flatnonzero(ds[1:] == ds[:-1])[0])
        raise LayoutError(f"cute_copy: dst is not injective: coordinates {int(order[k])} and {int(order[k + 1])} "
                          f"both write offset {int(ds[k])}")
    n = ds.size
    v = 1
    limit = max(1, max_bits // bits)
    while v * 2 <= limit and n % (v * 2) == 0:
        w = v * 2
        step = np.arange(w, dtype=np.int64)
        okd = (ds.reshape(-1, w) == ds.reshape(-1, w)[:, :1] + step).all() and (ds[::w] % w == 0).all()
        oks = (ss.reshape(-1, w) == ss.reshape(-1, w)[:, :1] + step).all() and (ss[::w] % w == 0).all()
        if not (okd and oks):
            break
        v = w
    return CopyCost(v, v * bits, n // v if n else 0, n * bits // 8)
