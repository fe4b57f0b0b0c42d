"""XLA's shape text ``f32[128,256]{1,0:T(8,128)(2,1)}`` -> ``XlaLayout``, with the position of any error.

The grammar read here (a subset of the shape-with-layout text XLA prints):

    element_type "[" dims "]" [ "{" minor_to_major [ ":" ( "T" tile* | "S(" n ")" )* ] "}" ]

``{1,0}`` is ``minor_to_major`` (dim 1 fastest); each ``T(..)`` is one tile
level, ``S(n)`` the memory space. ``str()`` of the value prints it back:

>>> L = parse_xla_layout("bf16[128,256]{1,0:T(8,128)(2,1)}")
>>> L.dims, L.minor_to_major, L.tiles
((128, 256), (1, 0), ((8, 128), (2, 1)))
>>> str(parse_xla_layout("f32[4,5]"))
'f32[4,5]{1,0}'
"""

from __future__ import annotations

from .._text import Scanner, check_text
from .layout import XlaLayout

__all__ = ["parse_xla_layout"]


def parse_xla_layout(text) -> XlaLayout:
    """An ``XlaLayout`` from XLA's shape text ``f32[128,256]{1,0:T(8,128)(2,1)}`` (``S(n)`` memory space allowed).

    The ``{...}`` layout may be left out (row-major). Dynamic dims (``<=``,
    ``?``), tuple shapes and the ``*`` tile dim (combine) are refused with
    the position.

    >>> parse_xla_layout("f32[8,256]{0,1:T(8,128)S(1)}").memory_space
    1
    >>> parse_xla_layout("f32[8,?]{1,0}")
    Traceback (most recent call last):
    ...
    unilayout.errors.ParseError: expected a dim size (dynamic dims are not modelled), found '?' at position 6
      f32[8,?]{1,0}
            ^
    """
    check_text(text, "XLA shape text")
    sc = Scanner(text)
    sc.skip()
    if sc.at("("):
        sc.fail("a tuple shape holds several arrays: give one")
    et = sc.identifier("an element type (f32, bf16, s8, ...)")
    sc.expect("[")
    dims = []
    if not sc.accept("]"):
        while True:
            dims.append(sc.integer(what="a dim size (dynamic dims are not modelled)"))
            if not sc.accept(","):
                break
        sc.expect("]")
    mtm, tiles, space, tiled = None, [], None, 0
    if sc.accept("{"):
        at = sc.skip()
        mtm = []
        if not sc.at("}") and not sc.at(":"):
            mtm.append(sc.integer(what="a dim number"))
            while sc.accept(","):
                mtm.append(sc.integer(what="a dim number"))
        if sorted(mtm) != list(range(len(dims))):
            sc.fail(f"minor_to_major {mtm} is not a permutation of the {len(dims)} dims", at)
        if sc.accept(":"):
            while True:
                k = sc.skip()
                if sc.keyword("T"):
                    while sc.at("("):
                        sc.expect("(")
                        t = [sc.integer(what="a tile size ('*' combine dims are not modelled)")]
                        while sc.accept(","):
                            t.append(sc.integer(what="a tile size ('*' combine dims are not modelled)"))
                        sc.expect(")")
                        if any(v < 1 for v in t):
                            sc.fail(f"tile sizes must be >= 1, got {t}", k)
                        if len(t) > len(dims) + tiled:  # the shape a tile tiles has the dims of those before
                            sc.fail(f"tile {tuple(t)} has more dims than the shape it tiles", k)
                        tiles.append(tuple(t))
                        tiled += len(t)
                elif sc.keyword("S"):
                    sc.expect("(")
                    space = sc.integer(what="a memory space")
                    sc.expect(")")
                elif sc.at("}"):
                    break
                else:
                    sc.fail("expected T(...) tiles or S(n) (element size, dynamic shape and other layout fields "
                            "are not modelled)", k)
        sc.expect("}", "'}' to close the layout")
    sc.expect_end()
    return XlaLayout(et, dims, mtm, tiles, space)
