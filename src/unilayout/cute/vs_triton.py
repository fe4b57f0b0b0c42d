"""CuTe's MMA fragments against Triton's ``nvidia_mma`` / ``dot_op`` encodings: which agree, element by element.

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

from ..errors import LayoutError
from .atoms_mma import mma_atom

__all__ = ["compare_fragment", "triton_fragment", "fragment_table", "FRAGMENT_ROWS"]


def triton_fragment(atom, operand: str):
    """The Triton encoding (a ``linear.encodings`` value) and its shape for one operand of ``atom``'s tile.

    >>> enc, shape = triton_fragment(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), "B")
    >>> type(enc).__name__, enc.k_width, shape
    ('DotOperand', 2, [16, 8])
    """
    from ..linear.encodings import DotOperand, NvidiaMma

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
