"""CuTe against Triton: shared-memory swizzle atoms (with TMA) and MMA register fragments, checked as functions.

Both halves name one hardware object in two (or three) systems and check, element by element, that the
names mean the same function; the checks go through ``cute_to_linear`` and Triton's encodings, so they live
here, on the bridge floor, rather than in ``unilayout.cute`` (whose ``smem_atom``, ``check_equivalents``, ...
and the module paths ``unilayout.cute.smem`` and ``unilayout.cute.vs_triton`` remain as aliases).

**Shared-memory swizzle atoms across CuTe (GMMA/UMMA), Triton (``nvmma_shared``) and TMA, in one table.**

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

**CuTe's MMA fragments against Triton's ``nvidia_mma`` / ``dot_op`` encodings: which agree, element by element.**

Triton describes the same tensor-core fragments as CuTe, as linear layouts
``(register, lane, warp, block) -> (dim0, dim1)``: ``#ttg.nvidia_mma`` (C, version
2 for ``mma.sync``, version 3 for Hopper's ``wgmma``) and ``#ttg.dot_op`` (A and B
in registers, ``kWidth`` consecutive K elements per 32-bit register). CuTe's atom
layouts map ``(thread, value) -> m + M*n``. ``compare_fragment(atom, operand)``
puts both on the atom's tile (thread ``t`` is lane ``t % 32`` of warp
``t // 32``) and says:

- ``"same"``: for every thread and value, CuTe's value ``v`` is Triton's register ``v``
  at the same (m, n): the two are one function;
- ``"same per thread"``: every thread holds the same elements, in another register order;
- ``"different"``: some thread holds other elements.

>>> compare_fragment("SM80_16x8x16_F32F16F16F32_TN", "C")
'same'
>>> compare_fragment("SM80_16x8x16_F32F16F16F32_TN", "A")
'same'
>>> compare_fragment("SM90_64x64x16_F32F16F16_SS", "C")
'same'

``fragment_table()`` is the table docs/cute.md shows; each row is a test.
"""

from __future__ import annotations

import numpy as np

from ..cute import ComposedLayout, Layout, Swizzle, mma_atom, upcast
from ..errors import LayoutError
from ..linear.encodings import DotOperand, NvidiaMma, nvmma_shared
from .cute_linear import cute_to_linear

__all__ = ["SMEM_KINDS", "smem_atom", "smem_atom_bits", "smem_equivalents", "check_equivalents", "smem_table",
           "compare_fragment", "triton_fragment", "fragment_table", "FRAGMENT_ROWS"]

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


# --- MMA fragments against Triton's encodings -----------------------------------------------------------
def triton_fragment(atom, operand: str):
    """The Triton encoding (a ``linear.encodings`` value) and its shape for one operand of ``atom``'s tile.

    >>> enc, shape = triton_fragment(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), "B")
    >>> type(enc).__name__, enc.k_width, shape
    ('DotOperand', 2, [16, 8])
    """
    if operand not in ("A", "B", "C"):
        raise LayoutError(f"operand must be 'A', 'B' or 'C', got {operand!r}")
    m, n, k = atom.shape_mnk
    if atom.name.startswith("SM90_64x"):
        parent = NvidiaMma([3, 0], [4, 1], [16, n, k])
    elif atom.num_threads == 32 and m == 16 and n == 8:
        parent = NvidiaMma([2, 0], [1, 1], [16, 8])
    else:
        raise LayoutError(f"{atom.name}: Triton has no mma encoding of a {m}x{n}x{k} {atom.num_threads}-thread atom")
    if operand == "C":
        return parent, [m, n]
    k_width = max(1, 32 // atom.bits_a)
    if k != 8 * k_width:
        raise LayoutError(f"{atom.name}: Triton's dot_op tile with kWidth={k_width} is K={8 * k_width}, this atom's "
                          f"K is {k} (Triton emits the k{8 * k_width} instruction for {atom.bits_a}-bit operands)")
    if operand == "A":
        return DotOperand(0, parent, k_width), [m, k]
    return DotOperand(1, parent, k_width), [k, n]


def _cute_coords(atom, operand):
    """``(threads, values, 2)``: (row, col) in Triton's dims of each (thread, value) of the CuTe atom."""
    m, n, k = atom.shape_mnk
    lay = {"A": atom.layout_a, "B": atom.layout_b, "C": atom.layout_c}[operand]
    rows = {"A": m, "B": n, "C": m}[operand]
    nt, nv = lay[0].size, lay[1].size
    pos = lay.index_map().reshape(nv, nt).T  # [thread, value]
    r, c = pos % rows, pos // rows
    if operand == "B":  # CuTe's B is (n, k); Triton's is (k, n)
        r, c = c, r
    return np.stack([r, c], axis=-1)


def _triton_coords(enc, shape, nt):
    ll = enc.to_linear(shape)
    names = [d for d, _ in ll.in_dims]
    sizes = dict(ll.in_dims)
    im = ll.index_map()  # inputs flattened, first in-dim least significant
    nreg, nlane = sizes.get("register", 1), sizes.get("lane", 1)
    nwarp = sizes.get("warp", 1)
    if names[:3] != ["register", "lane", "warp"][: len(names[:3])]:
        raise LayoutError(f"unexpected in-dims {names}")
    im = im[: nreg * nlane * nwarp].reshape(nwarp, nlane, nreg, -1)
    outs = [d for d, _ in ll.out_dims]
    im = im[..., [outs.index("dim0"), outs.index("dim1")]]
    if nlane * nwarp < nt:
        raise LayoutError("Triton's layout has fewer threads than the atom")
    return im.reshape(nwarp * nlane, nreg, 2)[:nt]


def compare_fragment(atom, operand: str) -> str:
    """``"same"``, ``"same per thread"`` or ``"different"``: CuTe's fragment against Triton's (see the module).

    >>> compare_fragment("SM80_16x8x8_F32TF32TF32F32_TN", "B")
    'same'
    """
    if isinstance(atom, str):
        atom = mma_atom(atom)
    enc, shape = triton_fragment(atom, operand)
    ours = _cute_coords(atom, operand)
    nt, nv = ours.shape[:2]
    theirs = _triton_coords(enc, shape, nt)
    if theirs.shape[1] == nv and np.array_equal(ours, theirs):
        return "same"
    key = np.array(shape[0], dtype=np.int64)
    a = np.sort(ours[..., 0] + key * ours[..., 1], axis=1)
    b = np.sort(theirs[..., 0] + key * theirs[..., 1], axis=1)
    if a.shape == b.shape and np.array_equal(a, b):
        return "same per thread"
    return "different"


#: (atom, operand) rows of the table in docs/cute.md (SM90 A/B from shared memory have no Triton register layout).
FRAGMENT_ROWS = [
    (name, op)
    for name in ("SM80_16x8x8_F16F16F16F16_TN", "SM80_16x8x4_F32TF32TF32F32_TN", "SM80_16x8x16_F32F16F16F32_TN", "SM80_16x8x16_F32BF16BF16F32_TN",
                 "SM80_16x8x8_F32TF32TF32F32_TN", "SM80_16x8x32_S32S8S8S32_TN", "SM89_16x8x32_F32E4M3E4M3F32_TN")
    for op in "ABC"
] + [(f"SM90_64x{n}x16_F32F16F16_SS", "C") for n in (8, 64, 128, 256)] + [
    ("SM90_64x64x16_F16F16F16_RS", "A"), ("SM90_64x128x8_F32TF32TF32_RS_TN", "A"),
    ("SM90_64x64x32_S32S8S8_RS_TN", "A"),
]


def fragment_table() -> list:
    """``[(atom, operand, Triton encoding text, verdict)]`` for ``FRAGMENT_ROWS``.

    >>> name, operand, encoding, verdict = fragment_table()[2]
    >>> name, operand, verdict
    ('SM80_16x8x8_F16F16F16F16_TN', 'C', 'same')
    """
    out = []
    for name, op in FRAGMENT_ROWS:
        atom = mma_atom(name)
        try:
            enc, shape = triton_fragment(atom, op)
            out.append((name, op, f"{enc} on {shape[0]}x{shape[1]}", compare_fragment(atom, op)))
        except LayoutError as e:
            out.append((name, op, "-", f"no Triton counterpart: {e}"))
    return out
