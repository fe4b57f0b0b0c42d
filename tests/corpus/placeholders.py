"""Which tt-mlir test texts are hand-written placeholders tt-mlir's own builders never make (used by bench/corpus.py).

tt-mlir's parser reads a ``#ttnn.ttnn_layout`` or ``#ttcore.metal_layout`` without checking it against its
tensor, so a lit test may write a memref, a map or a tensor shape that tt-mlir itself would never build for
that tensor (its D2M lowering then recomputes what it needs from the tensor's shape). Such a text says
nothing about tt-mlir's layout rules: the corpus marks it ``placeholder`` with the reason this module gives,
and ``agree.py`` counts it apart (unilayout may read or refuse it, never crash).

>>> placeholder("ttnn", "t.mlir", "tensor<384x64xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <6x2>, "
...             "memref<2x1x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>>>", [2, 1], "12x1x1x2").split(":")[0]
"memref 2x1 but the shard tt-mlir's D2M cast computes for this tensor is 1x2"
"""

from __future__ import annotations

import re


def placeholder(producer: str, path: str, text: str, memref, device: str) -> str | None:
    """Why a tt-mlir test text is a hand-written placeholder tt-mlir never builds, or None.

    - a TTNN ``linear`` map other than the collapse ``TTNNLayoutAttr::get`` builds for the tensor's shape
      (all dims but the last into rows: ``(d0 * S1 * .. + .., d_last)``);
    - a TTNN memref other than the shard of the metal tensor tt-mlir's D2M cast printed for it (the cast
      computes the shard from the tensor's shape and grid), or any memref of the mixed L1/DRAM operand test
      (it writes memref<32x32 tiles> for every tensor);
    - a metal layout on a tensor that is not device-shaped (grid ++ shard: twice the physical rank).
    """
    shape = re.match(r"tensor<((?:\d+x)+)", text)
    dims = [int(x) for x in shape.group(1).rstrip("x").split("x")] if shape else None
    if producer == "ttcore":
        phys = re.search(r"collapsed_intervals = dense<\[(.*?)\]>", text)
        rank = len(re.findall(r"\[", phys.group(1))) if phys else None
        if dims is not None and rank and len(dims) != 2 * rank:
            return (f"a tensor of rank {len(dims)} for a layout with {rank} physical dims: tt-mlir's metal "
                    "tensors are device-shaped (getDeviceShape: grid ++ shard), its parser does not check the "
                    "tensor's rank")
        return None
    if path.endswith("ttnn_mixed_l1_dram_operand_translation.mlir"):
        return ("the test writes memref<32x32 tiles> for every tensor, a placeholder tt-mlir never checks (its "
                "D2M cast computes the shard from the tensor's shape)")
    lin = re.search(r"ttnn_layout<\((d\d+(?:, d\d+)*)\) -> \(([^)]*)\)", text)
    if dims and lin and len(dims) >= 2:
        rows = []
        for i in range(len(dims) - 1):
            c = 1
            for s in dims[i + 1:-1]:
                c *= s
            rows.append(f"d{i}" if c == 1 else f"d{i} * {c}")
        want = f"{' + '.join(rows)}, d{len(dims) - 1}"
        if lin.group(2).strip() != want:
            return (f"linear map ({lin.group(2)}) for a {'x'.join(map(str, dims))} tensor: TTNNLayoutAttr::get "
                    f"builds ({want}); tt-mlir's parser does not check it and its D2M cast ignores it")
    if memref and device != "-":
        dev = [int(x) for x in device.split("x")]
        if dev[len(dev) // 2:] != memref:
            return (f"memref {'x'.join(map(str, memref))} but the shard tt-mlir's D2M cast computes for this "
                    f"tensor is {'x'.join(map(str, dev[len(dev) // 2:]))}: tt-mlir's parser does not check the "
                    "memref against the tensor")
    return None
