"""TileLang's swizzled shared-memory layouts by name (``tilelang.layout.make_*_swizzled_layout``).

TileLang lays a ``rows x cols`` buffer out in 8-row atoms whose rows are one
"bank" wide — 1024 bits (full), 512 (half) or 256 (quarter) — and XORs the
16-byte chunk index of each row with the row's index inside the atom: the
same function as CuTe's ``Sw<3,3,3>``, ``Sw<2,3,3>``, ``Sw<1,3,3>`` atoms on
16-bit elements (``tests/convert/test_tilelang.py`` checks it, and these
constructors against the layouts TileLang itself builds). The output is
``(column atom, row atom, offset in the atom)``; the XOR is written as
TileLang writes it, ``(a + b) % 2`` per bit. ``make_swizzled_layout`` picks
the widest bank the row holds a multiple of, as TileLang's GEMM layouts do
(a linear layout when none fits). They print as TileLang prints them for a
16-bit 64x64 buffer (``tests/tilelang``); the tuples are ``expr``'s trees.

>>> L = make_full_bank_swizzled_layout(64, 64, 16)
>>> L.output_shape, L.index_map()[64 + 8].tolist()
((1, 8, 512), [0, 0, 64])
"""

from __future__ import annotations

from ..errors import LayoutError
from .layout import Layout

__all__ = ["make_full_bank_swizzled_layout", "make_half_bank_swizzled_layout", "make_quarter_bank_swizzled_layout",
           "make_linear_layout", "make_swizzled_layout"]

_BANK_BITS = {"full": 1024, "half": 512, "quarter": 256}


def _v(name):
    return ("var", name)


def _c(v):
    return ("int", v)


def _ints(*vals):
    for v in vals:
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise LayoutError(f"rows, cols and element bits must be positive integers, got {v!r}")


def _bank(rows, cols, element_bits, bank):
    _ints(rows, cols, element_bits)
    if element_bits not in (8, 16, 32, 64):
        raise LayoutError(f"a swizzled layout needs 8-, 16-, 32- or 64-bit elements, got {element_bits}")
    width = _BANK_BITS[bank] // element_bits  # elements in one bank-wide row of an atom
    vec = 128 // element_bits  # elements in one 16-byte chunk
    if cols % width or rows % 8:
        raise LayoutError(f"a {bank}-bank swizzled layout needs rows a multiple of 8 and cols a multiple of {width} "
                          f"({element_bits}-bit elements), got {rows}x{cols}")
    i, j = _v("_i"), _v("_j")
    offset = ("*", ("%", i, _c(8)), _c(width))
    nb = (width // vec).bit_length() - 1  # chunk bits XORed: 3, 2 or 1 for 128-, 64-, 32-byte rows
    for b in reversed(range(nb)):  # chunk bit b XOR row bit b + 3 - nb, written (a + b) % 2 as TileLang does
        top = b == nb - 1
        if top:
            chunk = ("//", j if cols == width else ("%", j, _c(width)), _c(vec << b))
        else:
            chunk = ("//", ("%", j, _c(vec << (b + 1))), _c(vec << b))
        r = b + 3 - nb
        row = ("%", i, _c(2)) if r == 0 else ("//", ("%", i, _c(2 << r)), _c(1 << r))
        offset = ("+", offset, ("*", ("%", ("+", chunk, row), _c(2)), _c(vec << b)))
    offset = ("+", offset, ("%", j, _c(vec)))
    return Layout((rows, cols), [("//", j, _c(width)) if cols > width else _c(0), ("//", i, _c(8)), offset])


def make_full_bank_swizzled_layout(rows, cols, element_bits):
    """TileLang's full-bank (128-byte rows) swizzle of a ``rows x cols`` buffer: CuTe's ``Sw<3,3,3>`` on 16 bits."""
    return _bank(rows, cols, element_bits, "full")


def make_half_bank_swizzled_layout(rows, cols, element_bits):
    """TileLang's half-bank (64-byte rows) swizzle.

    >>> make_half_bank_swizzled_layout(64, 64, 16).output_shape
    (2, 8, 256)
    """
    return _bank(rows, cols, element_bits, "half")


def make_quarter_bank_swizzled_layout(rows, cols, element_bits):
    """TileLang's quarter-bank (32-byte rows) swizzle.

    >>> make_quarter_bank_swizzled_layout(64, 64, 16).output_shape
    (4, 8, 128)
    """
    return _bank(rows, cols, element_bits, "quarter")


def make_linear_layout(rows, cols):
    """The row-major layout ``(_i, _j) -> (_i * cols + _j,)``.

    >>> str(make_linear_layout(64, 64))
    'Layout((64, 64) -> (4096,), transform: (_i, _j) -> (_i * 64 + _j,))'
    """
    _ints(rows, cols)
    return Layout((rows, cols), [("+", ("*", _v("_i"), _c(cols)), _v("_j"))])


def make_swizzled_layout(rows, cols, element_bits):
    """The widest bank swizzle a row of ``cols`` elements holds a multiple of (else the linear layout).

    >>> make_swizzled_layout(64, 24, 16).output_shape  # 48-byte rows: no bank fits
    (1536,)
    """
    _ints(rows, cols, element_bits)
    for bank in ("full", "half", "quarter"):
        if (cols * element_bits) % _BANK_BITS[bank] == 0 and rows % 8 == 0:
            return _bank(rows, cols, element_bits, bank)
    return make_linear_layout(rows, cols)

