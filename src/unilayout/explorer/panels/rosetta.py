"""The Rosetta panel (``/api/rosetta``): one instruction's operand as every system spells it, side by side.

A request ``{"instruction": "mma.sync.m16n8k16.f32.f16", "operand": "C"}``
(``operand`` defaults to the instruction's first; ``{"list": true}`` answers
the instruction names) is answered with the rosetta's table for that operand
(``unilayout.rosetta.table``) and, for each system, a picture of the operand
tile: every cell is an element, labelled with the thread and value that hold
it (``T3`` / ``V1``; ``+`` when more threads hold a copy) and coloured by
thread; cells whose holder is not the reference system's are outlined in red
and listed in ``differing`` (``[row, col]``, the first ``MAX_LISTED``; their
number in ``differing_count``). A copy's register side is in bits: its cells
are 32-bit words (``word`` rows of the copied tile, value = register), which
is how the instruction moves them. A tile of more than ``MAX_CELLS`` cells is
drawn as its top-left block of at most that many (at most ``MAX_SIDE`` rows;
``note`` says so), so that a picture stays a few hundred kilobytes of SVG.

Each system's ``view_text`` is its spelling as a text the explorer's layout
box reads (``/api/view``; the page links it), so the family's own picture
is one click away; ``None`` where the spelling is not such a text.

>>> v = rosetta_view({"instruction": "mma.sync.m16n8k16.f32.f16", "operand": "C"})
>>> v["reference"], v["shape"], [(s["system"], s["verdict"], s["differing_count"]) for s in v["systems"]][:2]
('cute', [16, 8], [('cute', 'reference', 0), ('tensor-layouts', 'same', 0)])
>>> rosetta_view({"instruction": "mfma.32x32x8.f16"})["systems"][1]["differing_count"]
1016
"""

from __future__ import annotations

import numpy as np

from ... import _families, draw, rosetta
from ...errors import LayoutError
from .._request import RequestError, text_of, with_field

__all__ = ["rosetta_view", "MAX_SIDE", "MAX_CELLS", "MAX_LISTED"]

#: The most rows a picture draws, and the most cells (bigger tiles: their top-left block).
MAX_SIDE = 64
MAX_CELLS = 1024
#: The most differing cells listed by position (``differing_count`` counts them all).
MAX_LISTED = 256
_DIFF_RGB = (220, 20, 20)


def _word_grid(name, n_words):
    """Rows x columns of a copy's 32-bit words, as its tile is laid out (row-major)."""
    if name.startswith(("ldmatrix", "stmatrix")):
        cols = 4  # an 8x8 b16 matrix row is 16 bytes
    elif ".32x32b." in name:
        cols = max(1, n_words // 32)
    elif name.startswith("tcgen05"):
        cols = max(1, n_words // 16)
    else:
        cols = min(8, n_words)
    return -(-n_words // cols), cols


def _holders(frag, name):
    """``(rows, cols, thread, value, copies)``: who holds each cell of the tile (the first holder, thread-major)."""
    coords = frag.coords
    T, V = coords.shape[:2]
    rows, cols = (int(x) for x in frag.shape)
    bits = cols == 1 and rows >= 32 and rows % 32 == 0 and V % 32 == 0 and not name.startswith(("mma", "wgmma"))
    if bits:  # a copy's register side in bits -> 32-bit words, value = register
        coords = coords[:, ::32].copy()
        coords[..., 0] //= 32
        V //= 32
        rows, cols = _word_grid(name, rows // 32)
        flat = coords[..., 0]
    else:
        flat = coords[..., 0] * cols + coords[..., 1]
    size = rows * cols
    t, v = np.meshgrid(np.arange(T), np.arange(V), indexing="ij")
    order = np.argsort(flat.ravel()[::-1], kind="stable")[::-1]  # last write wins: the first holder, thread-major
    cell = flat.ravel()[::-1][order]
    ok = (cell >= 0) & (cell < size)
    thread = np.full(size, -1, np.int64)
    value = np.full(size, -1, np.int64)
    thread[cell[ok]] = t.ravel()[::-1][order][ok]
    value[cell[ok]] = v.ravel()[::-1][order][ok]
    copies = np.bincount(flat.ravel()[(flat.ravel() >= 0) & (flat.ravel() < size)], minlength=size)
    return rows, cols, thread.reshape(rows, cols), value.reshape(rows, cols), copies.reshape(rows, cols), bits


def _crop(rows, cols):
    """The drawn block: at most ``MAX_SIDE`` rows and ``MAX_CELLS`` cells (at least 8 columns)."""
    r = min(rows, MAX_SIDE)
    return r, min(cols, max(8, MAX_CELLS // r))


_AXES = {"A": ("m", "k"), "B": ("k", "n"), "C": ("m", "n")}


def _picture(title, rows, cols, thread, value, copies, differs, bits, operand):
    r, c = _crop(rows, cols)
    th, va, cp, df = thread[:r, :c], value[:r, :c], copies[:r, :c], differs[:r, :c]
    plus = np.where(cp > 1, "+", "")
    labels = np.char.add(np.char.add(np.char.add("T", th.astype(str)), plus.astype(str)),
                         np.char.add("\nV", va.astype(str))).astype(object)
    labels[th < 0] = ""
    axes = ("row of words", "word") if bits else _AXES.get(operand, ("row", "col"))
    scene = draw.grid_scene(title, r, c, labels=labels, axes=axes)
    scene.fill = np.where((th >= 0)[..., None], draw.colors.categorical(th), draw.colors.EMPTY).astype(np.uint8)
    scene.attrs["thread"] = th
    scene.attrs["value"] = va
    scene.attrs["differs"] = df.astype(np.int64)
    for i, j in np.argwhere(df):
        scene.add_outline(scene.col_x[j], scene.row_y[i], scene.cell_w, scene.cell_h, _DIFF_RGB, 2.5, "differs")
    return draw.to_svg(scene)


def _view_text(spelling):
    """The part of a spelling the explorer's layout box reads, or None."""
    candidates = [spelling]
    for sep in (" = ", ": "):
        if sep in spelling:
            candidates.append(spelling.rsplit(sep, 1)[1])
    if spelling.endswith(")") and "(#" in spelling:
        candidates.append(spelling[spelling.index("(#") + 1:-1])
    for text in candidates:
        try:
            _families.read(text)
        except (LayoutError, ValueError, TypeError):
            continue
        return text
    return None


def rosetta_view(body) -> dict:
    """The answer to ``/api/rosetta`` (module docstring)."""
    if body.get("list"):
        return {"instructions": rosetta.instruction_names()}
    name = text_of(body, "instruction")
    rows = with_field(lambda: rosetta.table(name), "instruction")
    operands = list(dict.fromkeys(r.operand for r in rows))
    operand = body.get("operand") or operands[0]
    if operand not in operands:
        raise RequestError(f"{name} has no operand {operand!r}: it has {', '.join(operands)}", field="operand")
    rows = [r for r in rows if r.operand == operand]
    ins = rosetta.INSTRUCTIONS[name]
    frags = {s.system: s.build() for s in ins.spellings if s.operand == operand}
    ref = frags.get(ins.reference)
    ref_holders = _holders(ref, name) if ref is not None else None
    out, shape, note = [], None, ""
    for r in rows:
        entry = {"system": r.system, "spelling": r.spelling, "verdict": r.verdict, "detail": r.detail,
                 "view_text": _view_text(r.spelling), "svg": "", "differing": [], "differing_count": 0}
        frag = frags.get(r.system)
        if frag is not None and r.verdict != "error":
            n_rows, n_cols, th, va, cp, bits = _holders(frag, name)
            shape = shape or [n_rows, n_cols]
            if ref_holders is not None and ref_holders[:2] == (n_rows, n_cols):
                differs = (th != ref_holders[2]) | (va != ref_holders[3])
            else:
                differs = np.zeros((n_rows, n_cols), bool)
            where = np.argwhere(differs)
            entry.update(svg=_picture(f"{r.system}: {r.verdict}", n_rows, n_cols, th, va, cp, differs, bits,
                                            operand),
                         differing=where[:MAX_LISTED].tolist(), differing_count=int(len(where)))
            if _crop(n_rows, n_cols) != (n_rows, n_cols):
                r_, c_ = _crop(n_rows, n_cols)
                note = (f"the {n_rows}x{n_cols} tile is drawn as its top-left {r_}x{c_} block; differing cells are "
                        "counted over the whole tile")
        out.append(entry)
    return {"instruction": name, "operand": operand, "operands": operands, "reference": ins.reference,
            "shape": shape, "note": note, "systems": out}
