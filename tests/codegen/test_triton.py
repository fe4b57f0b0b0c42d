"""``codegen.emit(x, "triton")``: the ``@triton.jit`` helpers, run by Triton's CPU interpreter, equal ``index_map``.

One module per family holds every helper and a kernel per value that decomposes ``tl.arange`` into the
helper's inputs and stores its outputs; it runs in a subprocess with ``TRITON_INTERPRET=1`` (Triton reads the
flag at import, and aborts the interpreter on some bad input); its buffers are CPU torch tensors.
"""

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from codegen_layouts import FAMILIES, expected, random_values

from unilayout import NotRepresentableError, codegen

N = int(os.environ.get("UNILAYOUT_CODEGEN_TRITON_LAYOUTS", "1000"))

_RUNNER = r"""
import importlib.util, json, sys
import numpy as np
import torch
spec = importlib.util.spec_from_file_location("emitted", sys.argv[1])
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
out = []
for j, (n, nout, block) in enumerate(json.loads(open(sys.argv[2]).read())):
    buf = torch.zeros(block * nout, dtype=torch.int64)
    getattr(mod, f"k{j}")[(1,)](buf, n, block)
    out.append(buf.numpy().reshape(block, nout)[:n].tolist())
print(json.dumps(out))
"""


def _kernel_source(j, k):
    ext = [e for _, e in k.inputs]
    lines = ["@triton.jit", f"def k{j}(out_ptr, N: tl.constexpr, BLOCK: tl.constexpr):",
             "    offs = tl.arange(0, BLOCK)", "    rest = offs"]
    names = [f"x{a}" for a in range(len(ext))]
    order = range(len(ext)) if k.order == "F" else range(len(ext) - 1, -1, -1)
    for a in order:
        lines += [f"    {names[a]} = rest % {ext[a]}", f"    rest = rest // {ext[a]}"]
    outs = [f"o{b}" for b in range(len(k.outputs))]
    lines.append(f"    {', '.join(outs)} = f{j}({', '.join(names)})")
    for b, o in enumerate(outs):
        lines.append(f"    tl.store(out_ptr + offs * {len(outs)} + {b}, {o}.to(tl.int64), mask=offs < N)")
    return "\n".join(lines)


@pytest.mark.parametrize("family", FAMILIES)
def test_triton_helpers_in_the_interpreter_equal_index_map(tmp_path, family):
    pytest.importorskip("triton")
    pytest.importorskip("torch")  # the interpreter's tensors
    items = []
    for v in random_values(family, N, seed=31):
        try:
            items.append((v, *expected(v)))
        except NotRepresentableError:
            continue
    parts, meta = ["import triton", "import triton.language as tl"], []
    for j, (v, k, table) in enumerate(items):
        value, shape = v if isinstance(v, tuple) else (v, None)
        src = codegen.emit(value, "triton", name=f"f{j}", shape=shape)
        parts.append(src.replace("import triton.language as tl", "").replace("import triton", ""))
        parts.append(_kernel_source(j, k))
        n = table.shape[0]
        meta.append((n, len(k.outputs), 1 << max(n - 1, 0).bit_length()))
    (tmp_path / "emitted.py").write_text("\n\n".join(parts) + "\n")
    (tmp_path / "meta.json").write_text(json.dumps(meta))
    (tmp_path / "run.py").write_text(_RUNNER)
    env = dict(os.environ, TRITON_INTERPRET="1")
    r = subprocess.run([sys.executable, str(tmp_path / "run.py"), str(tmp_path / "emitted.py"),
                        str(tmp_path / "meta.json")], capture_output=True, text=True, env=env, timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    got = json.loads(r.stdout)
    assert len(got) == len(items) >= 0.9 * N
    for (v, _, table), g in zip(items, got):
        assert np.array_equal(np.array(g, dtype=np.int64).reshape(table.shape), table), (family, v)
