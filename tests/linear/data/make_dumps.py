"""Regenerate the TTGIR dumps beside this file (Triton 3.9.0, no GPU needed): python make_dumps.py"""

import pathlib
import re

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


TARGETS = {"sm80": ("cuda", 80, 32), "sm90": ("cuda", 90, 32), "sm100": ("cuda", 100, 32),
           "sm120": ("cuda", 120, 32), "gfx942": ("hip", "gfx942", 64), "gfx950": ("hip", "gfx950", 64),
           "gfx1100": ("hip", "gfx1100", 32), "gfx1200": ("hip", "gfx1200", 32), "gfx1250": ("hip", "gfx1250", 32)}

if __name__ == "__main__":
    signature = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32",
                 "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}
    src = ASTSource(fn=matmul, signature=signature, constexprs={"BM": 128, "BN": 128, "BK": 64})
    for name, target in TARGETS.items():
        ttgir = triton.compile(src, target=GPUTarget(*target)).asm["ttgir"]
        lines = [line for line in ttgir.splitlines() if not line.startswith("#loc")]
        text = "\n".join(re.sub(r' loc\((#loc\d*|"[^"]*"\(#loc\d*\))\)', "", line) for line in lines) + "\n"
        (pathlib.Path(__file__).parent / f"matmul_{name}.ttgir").write_text(text)
