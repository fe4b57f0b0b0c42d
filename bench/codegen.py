"""Benchmark: codegen — emission time per layout, and the integer operations of the emitted C against a hand-written
reference expression.

Run: ``python bench/codegen.py``. Prints, in one run:

1. emission: ``codegen.emit(x, "c")`` for a set of CuTe (plain and swizzled), Triton (blocked, mma, shared),
   affine, TSL and XLA layouts, the best time per layout (target: under 1 ms), beside the time of
   ``unilayout.index_map`` of the same value (the work a table of the layout costs; ratio printed);
2. operation counts: the emitted C of the CuTe 128-byte swizzle ``Sw<3,3,3> o 0 o (8,64):(64,1)`` and of a Triton
   blocked layout, counted operator by operator in the function body (shared locals once), beside the
   expression an engineer writes by hand (target: no more operations than the hand-written one).

Times are the best of several repetitions (wall clock, one thread).
"""

from __future__ import annotations

import platform
import re

import unilayout
from _timing import best_time  # bench/ is on sys.path
from unilayout import codegen

CASES = {
    "cute (4,8):(8,1)": "(4,8):(8,1)",
    "cute ((2,4),(2,8)):((1,16),(2,64))": "((2,4),(2,8)):((1,16),(2,64))",
    "cute Sw<3,3,3> o 0 o (8,64):(64,1)": "Sw<3,3,3> o 0 o (8,64):(64,1)",
    "triton blocked 64x64": "tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], "
                            "warpsPerCTA = [4, 1], order = [1, 0]}>>",
    "triton mma v2 64x64": "tensor<64x64xf32, #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], "
                           "instrShape = [16, 8]}>>",
    "triton nvmma_shared 128x64": "tensor<128x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
                                  "elementBitWidth = 16}>>",
    "tsl [2,4]x[2,4]": "#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1)>",
    "xla f32[64,96]{1,0:T(8,128)}": "f32[64,96]{1,0:T(8,128)}",
}

#: What an engineer writes by hand (C), for the operation count.
HAND = {
    "cute Sw<3,3,3> o 0 o (8,64):(64,1)": ["o = r * 64 + c", "o ^ ((o >> 3) & 0x38)"],
    "triton blocked 64x64": ["row = 16 * (reg >> 3) + 4 * warp + (lane >> 3)", "col = 8 * (lane & 7) + (reg & 7)"],
}

_OPS = re.compile(r"<<|>>|[-+*/%^|&]")


def _count(lines):
    return sum(len(_OPS.findall(line.split("=", 1)[1] if "=" in line else line)) for line in lines)


def _body(c_source):
    body = c_source.split("{", 1)[1].rsplit("}", 1)[0]
    return [line.strip().rstrip(";").replace("return ", "= ") for line in body.splitlines() if line.strip()]


def main():
    print(f"codegen benchmark  (python {platform.python_version()}, {platform.machine()})")
    print("\n1. emission (best of 20), target < 1 ms per layout")
    print(f"{'layout':42} {'emit c':>10} {'index_map':>10} {'emit/map':>9}")
    for label, text in CASES.items():
        x = unilayout.parse(text)
        t_emit = best_time(lambda x=x: codegen.emit(x, "c"), 20)
        t_map = best_time(lambda x=x: unilayout.index_map(x), 20)
        print(f"{label:42} {t_emit * 1e3:8.3f}ms {t_map * 1e3:8.3f}ms {t_emit / t_map:8.2f}x")
    print("\n2. integer operations in the emitted C (body, shared locals once) vs a hand-written expression")
    for label, hand in HAND.items():
        src = codegen.emit(unilayout.parse(CASES[label]), "c")
        ours = _count(_body(src))
        theirs = _count(hand)
        print(f"{label:42} emitted {ours:2d}  hand-written {theirs:2d}  {'ok' if ours <= theirs else 'MORE'}")
        for line in _body(src):
            print(f"    {line}")


if __name__ == "__main__":
    main()
