"""Conversion levels: which hardware levels (register, lane, warp, block) a layout conversion moves data across.

>>> from unilayout.linear import encodings as E
>>> src = E.blocked([32, 32], [1, 1], [1, 32], [1, 1], [1, 0])
>>> conversion_level(src, src), conversion_level(src, E.blocked([32, 32], [1, 1], [32, 1], [1, 1], [0, 1]))
('none', 'lane')
"""

from __future__ import annotations

from ..layout import LinearLayout
from ._common import _check

__all__ = ["HARDWARE_LEVELS", "minimal_conversion", "conversion_levels", "conversion_level"]


#: Distributed in-dims from fastest to slowest.
HARDWARE_LEVELS = ("register", "lane", "warp", "block")


def minimal_conversion(src: LinearLayout, dst: LinearLayout) -> LinearLayout:
    """The smallest part of ``dst.invert_and_compose(src)`` that is not the identity
    (Triton ``minimalCvtLayout``).

    ``cvt`` maps each destination slot to the source slot holding its element.
    The in-dims common to both layouts at the end of their lists (normally
    ``register, lane, warp, block``) are quotiented out one at a time,
    slowest first, stopping at the first that does not quotient; what remains
    is the data movement the conversion really needs.

    **Pre-conditions:** the same out-dims; ``src`` surjective; dst's out sizes <= src's.

    >>> from unilayout.linear import LinearLayout
    >>> src = LinearLayout({"register": [[2], [1]], "lane": [[4], [8]]}, ["dim0"])
    >>> dst = LinearLayout({"register": [[1], [2]], "lane": [[4], [8]]}, ["dim0"])
    >>> minimal_conversion(src, dst)
    LinearLayout({'register': [[2], [1]]}, {'register': 4})
    """
    _check(src, "minimal_conversion")
    _check(dst, "minimal_conversion")
    cvt = dst.invert_and_compose(src)
    a, b = src.in_dim_names, dst.in_dim_names
    suffix = []
    for x, y in zip(reversed(a), reversed(b)):
        if x != y:
            break
        suffix.append(x)
    for dim in suffix:  # slowest (last) first
        q = cvt.quotient([dim])
        if q is None:
            break
        cvt = q
    return cvt


def conversion_levels(src: LinearLayout, dst: LinearLayout) -> tuple[str, ...]:
    """The in-dims a ``src -> dst`` conversion still moves data across (``minimal_conversion``'s in-dims).

    >>> from unilayout.linear import identity_1d
    >>> L = identity_1d(4, "register", "dim0") * identity_1d(32, "lane", "dim0")
    >>> conversion_levels(L, L)
    ()
    """
    return tuple(minimal_conversion(src, dst).in_dim_names)


def conversion_level(src: LinearLayout, dst: LinearLayout) -> str:
    """The slowest hardware level a ``src -> dst`` conversion crosses:

    - ``"none"``: the layouts agree, nothing moves;
    - ``"register"``: registers are permuted within each thread;
    - ``"lane"``: data moves between lanes of a warp (shuffles or shared memory);
    - ``"warp"``: data moves between warps (shared memory);
    - ``"block"``: data moves between CTAs of a cluster.

    For in-dims outside ``register, lane, warp, block`` the slowest remaining
    in-dim name is returned.

    >>> from unilayout.linear import LinearLayout
    >>> src = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [32]], "warp": [[64], [128]]}, ["dim0"])
    >>> dst = LinearLayout({"register": [[128]], "lane": [[1], [2], [4], [8], [16]], "warp": [[32], [64]]}, ["dim0"])
    >>> conversion_level(src, dst)
    'warp'
    """
    dims = conversion_levels(src, dst)
    if not dims:
        return "none"
    known = [d for d in HARDWARE_LEVELS if d in dims]
    others = [d for d in dims if d not in HARDWARE_LEVELS]
    if others:
        return others[-1]
    return known[-1]
