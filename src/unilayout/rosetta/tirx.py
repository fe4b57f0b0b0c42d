"""TIRx's fragments: the ``TileLayout`` over a CUDA tile pattern's atom, read as a ``Fragment``.

TIRx (``apache-tvm-tirx``, the Axe paper's layouts) fixes each instruction's
register image in its CUDA tile patterns: over the pattern's atom (``mma``'s
A ``(16, k/2)`` b32 words, B ``(8, k/2)`` words as ``(n, k)``, D ``(16, 8)``
f32; ``ldmatrix``'s ``(matrix, row, word)``; ``tcgen05.ld/st``'s TMEM
``(row, column)``, ``(half, row, column)`` for ``16x32bx2``), which lane holds
each point and as which PTX register. ``bench/rosetta_tirx.py`` records that
image, from TIRx's own patterns, as the ``TileLayout`` a buffer holding the
fragment carries (atom index, row-major -> ``laneid`` and ``m`` = the
register) in ``tirx_spellings``; ``from_tirx`` evaluates it with
``unilayout.axe`` (exactly TIRx's ``apply``) and puts it in the rosetta's
terms:

- mma A/B: each b32 word is two 16-bit K elements, low half first (PTX's
  packing): value ``2 * register + half``, column ``2 * word + half``; B's
  ``(n, k)`` atom is turned to ``(k, n)``;
- ldmatrix/stmatrix/tcgen05: the register side in bits, as CuTe's copy atoms
  write it: value ``32 * register + bit``, the bit ``32 * point + bit`` of the
  atom in row-major order; a ``16x32bx2`` access's second half is columns
  ``[N, 2N)`` of one 16-row tile (CuTe's order). ``.pack16b`` copies have the
  plain copy's register image (the 16-bit packing is on the TMEM side).

>>> f = from_tirx("mma.sync.m16n8k16.f32.f16", "C")
>>> f.system, f.shape, f.coords[1].tolist()
('tirx', (16, 8), [[0, 2], [0, 3], [8, 2], [8, 3]])
"""

from __future__ import annotations

import numpy as np

from ..errors import LayoutError
from .fragment import Fragment

__all__ = ["from_tirx", "tirx_layout", "tirx_spelling_text", "instructions"]


def _spelling(instruction, operand):
    from .tirx_spellings import SPELLINGS  # lazy: the stored spellings load with the first TIRx fragment

    try:
        return SPELLINGS[instruction][operand]
    except KeyError:
        raise LayoutError(f"rosetta: TIRx describes no operand {operand!r} of {instruction!r}") from None


def tirx_layout(instruction, operand):
    """The ``axe.TileLayout`` TIRx gives ``operand`` of ``instruction``, and its atom shape.

    >>> L, atom = tirx_layout("ldmatrix.x1", "D")
    >>> atom, L.apply(5)
    ((1, 8, 4), {'laneid': 5})
    """
    from .. import axe  # lazy: the axe family reads TIRx's text

    atom, _unit, text = _spelling(instruction, operand)
    return axe.parse(text), tuple(atom)


def tirx_spelling_text(instruction, operand) -> str:
    """TIRx's text of the layout, with its atom and unit (what the rosetta's table shows).

    >>> tirx_spelling_text("ldmatrix.x1", "D")[:40]
    'TileLayout over the (1, 8, 4) atom (b32 '
    """
    atom, unit, text = _spelling(instruction, operand)
    return f"TileLayout over the {tuple(atom)} atom ({unit}): {text}"


def _image(layout, atom):
    """(lanes, registers, rank): the atom coordinate each lane holds as each register."""
    table = layout.table()
    axes = list(layout.axes)
    lane = table[:, axes.index("laneid")] if "laneid" in axes else np.zeros(len(table), np.int64)
    reg = table[:, axes.index("m")] if "m" in axes else np.zeros(len(table), np.int64)
    nl, nr = int(lane.max()) + 1, int(reg.max()) + 1
    if nl * nr != len(table):
        raise LayoutError(f"rosetta: {layout} does not give each (lane, register) one point of its atom")
    img = np.full((nl, nr, len(atom)), -1, dtype=np.int64)
    img[lane, reg] = np.stack(np.unravel_index(np.arange(len(table)), atom), axis=-1)
    return img


def from_tirx(instruction, operand) -> Fragment:
    """TIRx's fragment of ``operand`` of ``instruction`` as a ``Fragment`` (module docstring for the units).

    >>> from_tirx("tcgen05.ld.32x32b.x2", "D").coords[1, :2, 0].tolist()
    [64, 65]
    """
    layout, atom = tirx_layout(instruction, operand)
    img = _image(layout, atom)
    text = str(layout)
    if instruction.startswith("mma.sync"):
        if operand == "C":
            return Fragment(img, atom, "tirx", text)
        rows, words = atom
        half = np.arange(2)
        r = np.repeat(img[..., 0], 2, axis=1)
        c = (2 * img[..., 1])[:, :, None] + half
        c = c.reshape(r.shape)
        coords = np.stack([c, r] if operand == "B" else [r, c], axis=-1)
        return Fragment(coords, (2 * words, rows) if operand == "B" else (rows, 2 * words), "tirx", text)
    if len(atom) == 3 and ".16x32bx2." in instruction:  # (half, row, column) -> (row, half * N + column)
        halves, rows, cols = atom
        point = img[..., 1] * (halves * cols) + img[..., 0] * cols + img[..., 2]
    else:
        point = np.ravel_multi_index(tuple(np.moveaxis(img, -1, 0)), atom)
    bits = (32 * point[:, :, None] + np.arange(32)).reshape(point.shape[0], -1)
    coords = np.stack([bits, np.zeros_like(bits)], axis=-1)
    return Fragment(coords, (32 * int(np.prod(atom)), 1), "tirx", text)


def instructions() -> dict:
    """``{instruction: operands}`` TIRx describes.

    >>> instructions()["mma.sync.m16n8k8.f32.bf16"]
    ('A', 'B', 'C')
    """
    from .tirx_spellings import SPELLINGS  # lazy: the stored spellings

    return {name: tuple(ops) for name, ops in SPELLINGS.items()}
