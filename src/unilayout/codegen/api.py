"""``emit`` and ``emit_inverse``: the public entry points of ``unilayout.codegen``."""

from __future__ import annotations

import keyword
import re

from .. import _families
from ..errors import LayoutError, NotRepresentableError
from .lower import inverse_kernel, kernel
from .printers import LANGS, print_kernel

__all__ = ["emit", "emit_inverse"]

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _check(lang, name):
    if lang not in LANGS:
        raise LayoutError(f"codegen: unknown language {lang!r}: expected one of {', '.join(LANGS)}")
    if not isinstance(name, str) or not _IDENT.match(name) or keyword.iskeyword(name):
        raise LayoutError(f"codegen: the function name {name!r} is not an identifier")


def emit(x, lang: str, name: str = "layout", shape=None) -> str:
    """Source text of a function computing ``x`` in ``lang`` (one of ``codegen.LANGS``).

    Inputs: a CuTe layout's modes (``i`` or ``i0, i1, ..``); a linear
    layout's in-dims (``register``, ``lane``, ``warp``, ``block``, or
    ``offset``); ``d0, d1, ..`` over the box of any other family (``shape=``
    for an affine map). Outputs: the offset, or one value per out-dim /
    result / coordinate position.

    >>> from unilayout import affine
    >>> print(emit(affine.parse("(d0, d1) -> (d0 * 16 + d1 mod 16)"), "mlir-affine", shape=(4, 32)))
    affine_map<(d0, d1) -> (d0 * 16 + d1 mod 16)>
    """
    _check(lang, name)
    if lang == "cute-cpp":
        if _families.family_of(x) != "cute":
            raise NotRepresentableError(f"codegen: cute-cpp writes CuTe values, not a {_families.family_of(x)} value")
        from .cute_cpp import cute_cpp  # lazy: only this language needs it

        return cute_cpp(x, name)
    return print_kernel(kernel(x, name, shape), lang)


def emit_inverse(x, lang: str, name: str = "layout_inverse") -> str:
    """Source text of the inverse of ``x`` (an invertible linear layout, a bijective CuTe layout) in ``lang``.

    >>> from unilayout import cute
    >>> print(emit_inverse(cute.parse("(4,8):(8,1)"), "c", name="coord_of"))
    #include <stdint.h>
    /* offset -> coordinate of (4,8):(8,1) (1-D, colexicographic) */
    static inline int64_t coord_of(int64_t i) {
        return ((i & 7) << 2) + (i >> 3);
    }
    """
    _check(lang, name)
    k = inverse_kernel(x, name)
    if lang == "cute-cpp":
        from .. import cute  # lazy: the inverse's CuTe form
        from .cute_cpp import cute_cpp  # lazy: only this language needs it

        if _families.family_of(x) != "cute":
            raise NotRepresentableError("codegen: cute-cpp writes CuTe values; this inverse is not one")
        return cute_cpp(cute.coalesce(cute.right_inverse(x)), name)
    return print_kernel(k, lang)
