"""``codegen.emit(x, "cute-cpp")``: the C++ expression, compiled by g++ against the CUTLASS headers, is the layout.

The program includes ``cute/layout.hpp`` and ``cute/swizzle_layout.hpp`` of the ``nvidia-cutlass`` wheel
(CUDA's headers from the ``nvidia-cuda-runtime-cu12``, ``-cccl-cu12`` and ``-nvcc-cu12`` wheels, which
``.ci/run`` installs; host code only) and prints ``L(i)`` for every 1-D coordinate of each emitted layout.
"""

import os
import shutil
import subprocess

import numpy as np
import pytest
from codegen_layouts import random_values

from unilayout import codegen, cute


def _includes():
    dirs = []
    try:
        import cutlass_library

        dirs.append(os.path.join(os.path.dirname(cutlass_library.__file__), "source", "include"))
        import nvidia

        for sub in ("cuda_runtime", "cuda_cccl", "cuda_nvcc"):
            dirs.append(next(os.path.join(p, sub, "include") for p in nvidia.__path__
                             if os.path.isdir(os.path.join(p, sub, "include"))))
    except (ImportError, StopIteration):
        return None
    return dirs


INCLUDES = _includes()
pytestmark = pytest.mark.skipif(INCLUDES is None or shutil.which("g++") is None,
                                reason="the CUTLASS headers with CUDA's (pip install nvidia-cutlass "
                                       "nvidia-cuda-runtime-cu12 nvidia-cuda-cccl-cu12 nvidia-cuda-nvcc-cu12) "
                                       "or g++ are missing")
N = int(os.environ.get("UNILAYOUT_CODEGEN_CUTE_LAYOUTS", "300"))


def _is_basis(x):
    strides = x.stride if isinstance(x.stride, tuple) else (x.stride,)
    return isinstance(x, cute.Layout) and any(not isinstance(d, int) for d in cute.flatten(strides))


def _table(x):
    if _is_basis(x):
        return np.array([[int(c) for c in (x(i) if isinstance(x(i), tuple) else (x(i),))]
                         for i in range(cute.size(x))], dtype=np.int64)
    return np.asarray(x.index_map(), dtype=np.int64).reshape(-1, 1)


def _print_call(j, x):
    n = cute.size(x.inner if isinstance(x, cute.ComposedLayout) else x)
    if _is_basis(x):
        width = len(_table(x)[0])
        get = " ".join('printf("%d ", int(get<' + str(b) + '>(c)));' for b in range(width))
        zeros = ", ".join(["0"] * width)  # a single basis element as a full coordinate tuple
        return (f"  for (int i = 0; i < {n}; ++i) {{ auto c = make_arithmetic_tuple({zeros}) + L{j}()(i); {get} "
                f"printf(\"\\n\"); }}")
    return f"  for (int i = 0; i < {n}; ++i) printf(\"%d\\n\", int(L{j}()(i)));"


def test_cute_cpp_compiled_against_cutlass_equals_index_map(tmp_path):
    values = [v for v in random_values("cute", N, seed=37)]
    values += [cute.parse(t) for t in ("Sw<3,4,3> o 0 o ((8,64),(1,4)):((64,1),(0,512))", "(4,5):(1@0,1@1)",
                                       "Sw<2,0,-2> o 4 o (16,4):(1,16)")]
    parts = ["#include <cstdio>", "#include <cute/layout.hpp>", "#include <cute/swizzle_layout.hpp>",
             "using namespace cute;"]
    main = ["int main() {"]
    for j, x in enumerate(values):
        parts.append(codegen.emit(x, "cute-cpp", name=f"L{j}"))
        main.append(_print_call(j, x))
    main.append("}")
    src = tmp_path / "t.cpp"
    src.write_text("\n".join(parts + main) + "\n")
    exe = tmp_path / "t"
    flags = [f"-I{d}" for d in INCLUDES]
    r = subprocess.run(["g++", "-std=c++17", "-O0", *flags, str(src), "-o", str(exe)], capture_output=True,
                       text=True, timeout=900)
    assert r.returncode == 0, r.stderr[:4000]
    lines = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split("\n")
    pos = 0
    for x in values:
        want = _table(x)
        got = np.array([list(map(int, line.split())) for line in lines[pos:pos + len(want)]], dtype=np.int64)
        pos += len(want)
        assert np.array_equal(got, want), x
