"""Shared-memory swizzle atoms across CuTe (GMMA/UMMA), Triton (``nvmma_shared``) and TMA, in one table.

Hopper's and Blackwell's tensor cores and TMA read shared memory in one of four
swizzle modes: none (interleaved), 32, 64 or 128 bytes. The same mode has a
name in each system:

=========================  ==============================================================  ==============================
CuTe (``GMMA::``, ``UMMA::``)  Triton ``#ttg.nvmma_shared``                                  TMA (``CUtensorMapSwizzle``)
=========================  ==============================================================  ==============================
``Layout_K_INTER_Atom<T>``  ``swizzlingByteWidth = 0, transposed = false``                  ``CU_TENSOR_MAP_SWIZZLE_NONE``
``Layout_K_SW32_Atom<T>``   ``swizzlingByteWidth = 32, transposed = false``                 ``CU_TENSOR_MAP_SWIZZLE_32B``
``Layout_K_SW64_Atom<T>``   ``swizzlingByteWidth = 64, transposed = false``                 ``CU_TENSOR_MAP_SWIZZLE_64B``
``Layout_K_SW128_Atom<T>``  ``swizzlingByteWidth = 128, transposed = false``                ``CU_TENSOR_MAP_SWIZZLE_128B``
``Layout_MN_*_Atom<T>``     the same widths, ``transposed = true``                           the same modes
=========================  ==============================================================  ==============================

``smem_atom(kind, element_bits)`` is CuTe's atom as a function of element
offsets. C++ defines it in bits (``Sw<B,4,3> o (8,1024):(1024,1)`` for K
SW128) and prints ``Layout_K_SW128_Atom<half_t>`` as ``Sw<3,4,3> o _0 o
(_8,_64):(_64,_1)``, the swizzle acting on the shared-memory *byte* address;
unilayout returns the position-independent form C++ builds for a tensor
(``as_position_independent_swizzle_tensor``), where the swizzle acts on
element offsets: ``Sw<B, 7 - log2(bits), 3>``:

>>> str(smem_atom("K_SW128", 16)), str(smem_atom("MN_SW64", 32))
('Sw<3,3,3> o 0 o (8,64):(64,1)', 'Sw<2,2,3> o 0 o (16,8):(1,16)')
>>> smem_equivalents("K_SW128", 16)["triton"]
'#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>'

``check_equivalents(kind, element_bits)`` checks the three names as functions:
the CuTe atom composed with Triton's ``nvmma_shared`` linear layout (through
``unilayout.convert.cute_to_linear``) is the identity on the atom's tile, and
the atom's swizzle in element units is TMA's byte swizzle (``Sw<B,4,3>`` on
byte addresses) seen through the element size.
"""

from __future__ import annotations

from ..errors import LayoutError
from .algebra import upcast
from .layout import Layout
from .swizzle import ComposedLayout, Swizzle

__all__ = ["SMEM_KINDS", "smem_atom", "smem_equivalents", "check_equivalents", "smem_table"]

SMEM_KINDS = ("K_INTER", "K_SW32", "K_SW64", "K_SW128", "MN_INTER", "MN_SW32", "MN_SW64", "MN_SW128")
_B = {"INTER": 0, "SW32": 1, "SW64": 2, "SW128": 3}
_BYTES = {"INTER": 0, "SW32": 32, "SW64": 64, "SW128": 128}
_TMA = {"INTER": "CU_TENSOR_MAP_SWIZZLE_NONE", "SW32": "CU_TENSOR_MAP_SWIZZLE_32B",
        "SW64": "CU_TENSOR_MAP_SWIZZLE_64B", "SW128": "CU_TENSOR_MAP_SWIZZLE_128B"}


def _split(kind):
    if kind not in SMEM_KINDS:
        raise LayoutError(f"smem_atom: kind must be one of {', '.join(SMEM_KINDS)}, got {kind!r}")
    major, mode = kind.split("_", 1)
    return major, mode


def _bits(element_bits):
    if isinstance(element_bits, bool) or element_bits not in (4, 8, 16, 32, 64):
        raise LayoutError(f"smem_atom: element_bits must be 4, 8, 16, 32 or 64, got {element_bits!r}")
    return element_bits


def smem_atom_bits(kind: str) -> ComposedLayout:
    """CUTLASS's ``GMMA::Layout_<kind>_Atom_Bits``: ``Sw<B,4,3> o 0 o`` a layout of bits.

    >>> str(smem_atom_bits("MN_SW32"))
    'Sw<1,4,3> o 0 o (256,8):(1,256)'
    """
    major, mode = _split(kind)
    w = 128 << _B[mode]  # bits in one swizzle row: 128, 256, 512, 1024
    inner = Layout((8, w), (w, 1)) if major == "K" else Layout((w, 8), (1, w))
    return ComposedLayout(Swizzle(_B[mode], 4, 3), 0, inner)


def smem_atom(kind: str, element_bits: int) -> ComposedLayout:
    """CuTe's GMMA/UMMA shared-memory atom ``Layout_<kind>_Atom<T>`` for ``element_bits``-wide T, on elements.

    ``kind``: ``K_INTER, K_SW32, K_SW64, K_SW128, MN_INTER, MN_SW32, MN_SW64, MN_SW128``. The
    inner layout is ``upcast<bits>`` of the bit layout; the swizzle ``Sw<B,4,3>`` on bytes is
    ``Sw<B, 7 - log2(bits), 3>`` on element offsets.

    >>> str(smem_atom("K_INTER", 8)), smem_atom("K_SW32", 16).inner.shape
    ('Sw<0,4,3> o 0 o (8,16):(16,1)', (8, 16))
    """
    bits = _bits(element_bits)
    major, mode = _split(kind)
    raw = smem_atom_bits(kind)
    return ComposedLayout(Swizzle(_B[mode], 7 - bits.bit_length() + 1, 3), 0, upcast(bits, raw.inner))


def smem_equivalents(kind: str, element_bits: int) -> dict:
    """The names of one atom in each system: ``cute``, ``umma``, ``triton`` (printed attribute), ``tma``.

    >>> e = smem_equivalents("MN_SW64", 16)
    >>> e["cute"], e["tma"]
    ('GMMA::Layout_MN_SW64_Atom<T>', 'CU_TENSOR_MAP_SWIZZLE_64B')
    """
    bits = _bits(element_bits)
    major, mode = _split(kind)
    trans = "true" if major == "MN" else "false"
    return {
        "cute": f"GMMA::Layout_{kind}_Atom<T>",
        "umma": f"UMMA::Layout_{kind}_Atom<T>",
        "triton": (f"#ttg.nvmma_shared<{{swizzlingByteWidth = {_BYTES[mode]}, transposed = {trans}, "
                   f"elementBitWidth = {bits}}}>"),
        "tma": _TMA[mode],
        "layout": smem_atom(kind, bits),
    }


def _triton_linear(kind, bits, shape):
    from ..linear.encodings import nvmma_shared

    major, mode = _split(kind)
    return nvmma_shared(list(shape), _BYTES[mode], bits, transposed=(major == "MN"))


def check_equivalents(kind: str, element_bits: int) -> None:
    """Check that the CuTe atom, Triton's ``nvmma_shared`` and the TMA swizzle are one function; raise if not.

    Triton's layout maps ``offset -> (dim0, dim1)``; the CuTe atom maps ``(dim0, dim1) -> offset``
    over its tile (dim0 = the M/N rows of a K-major atom, the contiguous MN of an MN-major one). The
    check: ``triton(cute(c)) == c`` for every coordinate ``c`` of the tile, with the CuTe side taken
    through ``convert.cute_to_linear``; and for every offset ``o``, TMA's byte swizzle of
    ``o * bytes`` is ``bytes *`` the atom's element swizzle of ``o`` (for 8-bit and wider elements).

    >>> check_equivalents("K_SW128", 16)
    """
    from ..convert import cute_to_linear

    bits = _bits(element_bits)
    atom = smem_atom(kind, bits)
    shape = atom.inner.shape
    tri = _triton_linear(kind, bits, shape)
    cl = cute_to_linear(atom)
    m = shape[0]
    for c in range(atom.inner.size):
        x, y = c % m, c // m
        off = cl.apply({"dim0": x, "dim1": y})["offset"]
        got = tri.apply({"offset": off, "block": 0})
        if (got["dim0"], got["dim1"]) != (x, y):
            raise LayoutError(f"{kind} ({bits}-bit): CuTe puts ({x}, {y}) at offset {off}, Triton's nvmma_shared "
                              f"reads ({got['dim0']}, {got['dim1']}) there")
    if bits >= 8:
        nbytes = bits // 8
        byte_sw = Swizzle(atom.outer.bits, 4, 3)
        for o in range(atom.inner.cosize):
            if byte_sw(o * nbytes) != nbytes * atom.outer(o):
                raise LayoutError(f"{kind} ({bits}-bit): TMA's byte swizzle moves element {o} elsewhere")


def smem_table(element_bits: int = 16) -> list:
    """One row per kind: ``(kind, CuTe atom text, Triton attribute, TMA mode)`` for the docs' table.

    >>> smem_table(16)[3][:2]
    ('K_SW128', 'Sw<3,3,3> o 0 o (8,64):(64,1)')
    """
    rows = []
    for kind in SMEM_KINDS:
        e = smem_equivalents(kind, element_bits)
        rows.append((kind, str(e["layout"]), e["triton"], e["tma"]))
    return rows
