"""Read what bench/rosetta_hw/run.py measured as rosetta ``Fragment`` values, and compare every system with it.

``fragments(path)`` -> ``{instruction: {operand: Fragment}}`` (system
``"hardware"``), in the rosetta's terms (``unilayout.rosetta.fragment``):

- ``ldmatrix.x4`` ``D``: the register side in bits — value ``32 * register +
  bit`` holds bit ``16 * id + bit % 16`` of the copied tile, ``id`` the
  16-bit element (``64 * matrix + 8 * row + col``) the hardware put in that
  half of the register;
- ``mma.sync.m16n8k16.f32.f16`` ``A`` (``(m, k)``, value ``2 * register +
  half``), ``B`` (``(k, n)``) and ``C`` (``(m, n)``);
- ``wgmma.m64n64k16.f32.f16`` ``C`` (``(m, n)`` of each of the 128 threads'
  32 registers).

A probe whose exact product check failed (``product_max_error`` not 0) or
that did not run is refused (``ValueError``), never compared.

    python bench/rosetta_hw/load.py DIR/hardware.json     # the verdict of every system against the hardware
"""

from __future__ import annotations

import json
import pathlib
import sys

import numpy as np

from unilayout import rosetta
from unilayout.rosetta import Fragment


def _checked(rec, name):
    if "error" in rec:
        raise ValueError(f"{name}: the probe did not run: {rec['error'][-200:]}")
    if rec.get("product_max_error", 0) != 0:
        raise ValueError(f"{name}: the hardware's product is not A B (max error {rec['product_max_error']}): "
                         "the operands are not what the probe assumed")
    return rec


def fragments(path) -> dict:
    """``{instruction: {operand: Fragment}}`` measured by run.py (module docstring)."""
    data = json.loads(pathlib.Path(path).read_text())
    out = {}
    if "ldmatrix_x4" in data:
        rec = _checked(data["ldmatrix_x4"], "ldmatrix_x4")
        ids = np.asarray(rec["D"], dtype=np.int64)  # (32, 8): value 2 * register + half
        v = np.arange(128)
        bits = 16 * ids[:, v // 16] + v % 16
        out["ldmatrix.x4"] = {"D": Fragment(np.stack([bits, np.zeros_like(bits)], axis=-1), (4096, 1), "hardware",
                                            rec["device"])}
    if "mma_m16n8k16" in data:
        rec = _checked(data["mma_m16n8k16"], "mma_m16n8k16")
        a = np.asarray(rec["A"], dtype=np.int64)
        b = np.asarray(rec["B"], dtype=np.int64)
        c = np.asarray(rec["C"], dtype=np.int64).reshape(32, 4, 2)
        out["mma.sync.m16n8k16.f32.f16"] = {
            "A": Fragment(np.stack([a // 16, a % 16], axis=-1), (16, 16), "hardware", rec["device"]),
            "B": Fragment(np.stack([b % 16, b // 16], axis=-1), (16, 8), "hardware", rec["device"]),
            "C": Fragment(c, (16, 8), "hardware", rec["device"])}
    if "wgmma_m64n64k16" in data:
        rec = _checked(data["wgmma_m64n64k16"], "wgmma_m64n64k16")
        c = np.asarray(rec["C"], dtype=np.int64).reshape(128, 32, 2)
        out["wgmma.m64n64k16.f32.f16"] = {"C": Fragment(c, (64, 64), "hardware", rec["device"])}
    return out


def report(path) -> list:
    """One line per (instruction, operand, system): the system's verdict against the hardware."""
    lines = []
    for name, ops in fragments(path).items():
        systems = rosetta.fragments(name)
        for op, hw in ops.items():
            for system in sorted(systems):
                if op in systems[system]:
                    v = rosetta.compare(hw, systems[system][op])
                    lines.append(f"{name:28} {op} {system:15} {v.describe()}")
    return lines


if __name__ == "__main__":
    for line in report(sys.argv[1]):
        print(line)
