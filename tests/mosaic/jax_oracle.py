"""jax (CPU) as the oracle of Mosaic GPU layouts: its own objects, its own attribute printer, its own index code.

``thread_idxs(layout, shape)`` runs jax's ``TiledLayout.thread_idxs`` (the
code Mosaic GPU emits to find each register's element) on numbers: jax's
``arith``/``c``/``thread_idx`` are swapped for integer numpy operations over
all 128 threads at once, so what comes back is jax's own answer, not ours.
``facts()`` gathers every fact the tests check; ``python
tests/mosaic/jax_oracle.py`` stores them in ``jax_facts.json`` so that CI
without jax still checks them.
"""

from __future__ import annotations

import json
import pathlib
import types

import numpy as np

FACTS = pathlib.Path(__file__).with_name("jax_facts.json")

#: (name, how to build it with jax, how with unilayout, shapes)
CASES = [
    ("WGMMA", "fa.WGMMA_LAYOUT", "mosaic.WGMMA", [(64, 8), (128, 32)]),
    ("WGMMA_8BIT", "fa.WGMMA_LAYOUT_8BIT", "mosaic.WGMMA_8BIT", [(64, 32)]),
    ("WGMMA_TRANSPOSED", "fa.WGMMA_TRANSPOSED_LAYOUT", "mosaic.WGMMA_TRANSPOSED", [(64, 16)]),
    ("WGMMA_UPCAST_2X", "fa.WGMMA_LAYOUT_UPCAST_2X", "mosaic.WGMMA_UPCAST_2X", [(64, 32)]),
    ("WGMMA_UPCAST_4X", "fa.WGMMA_LAYOUT_UPCAST_4X", "mosaic.WGMMA_UPCAST_4X", [(64, 64)]),
    ("_WGMMA_ACC_32BIT", "fa.WGMMA_LAYOUT_ACC_32BIT", "mosaic.WGMMA_ACC_32BIT", [(64, 16)]),
    ("WGMMA_ROW", "fa.WGMMA_ROW_LAYOUT", "mosaic.WGMMA_ROW", [(128,)]),
    ("WGMMA_COL", "fa.WGMMA_COL_LAYOUT", "mosaic.WGMMA_COL", [(32,)]),
    ("TCGEN05", "fa.TCGEN05_LAYOUT", "mosaic.TCGEN05", [(128, 16)]),
    ("TCGEN05_TRANSPOSED", "fa.TCGEN05_TRANSPOSED_LAYOUT", "mosaic.TCGEN05_TRANSPOSED", [(128, 16)]),
    ("TCGEN05_ROW", "fa.TCGEN05_ROW_LAYOUT", "mosaic.TCGEN05_ROW", [(256,)]),
    ("TCGEN05_COL", "fa.TCGEN05_COL_LAYOUT", "mosaic.TCGEN05_COL", [(16,)]),
    ("TCGEN05_TMEM_NATIVE", "fa.TMEM_NATIVE_LAYOUT", "mosaic.TCGEN05_TMEM_NATIVE", [(128, 4)]),
    ("tmem_native_layout(4)", "fa.tmem_native_layout(4)", "mosaic.tmem_native_layout(4)", [(128, 8)]),
    ("TCGEN05_M64_COLLECTIVE(32)", "tcgen05.fa_m64_collective_layout(32)", "mosaic.tcgen05_m64_collective(32)",
     [(64, 32)]),
    ("TCGEN05_M64_COLLECTIVE_NATIVE(32, 2)", "tcgen05.tmem_m64_collective_layout(32, 2).as_tiled_layout()",
     "mosaic.tcgen05_m64_collective_native(32, 2)", [(64, 32)]),
    ("TMA_INDICES", "fa.TMA_INDICES_LAYOUT", "mosaic.TMA_INDICES", [(32,)]),
    ("TMA_INDICES_4", "fa.TMA_INDICES_4_LAYOUT", "mosaic.TMA_INDICES_4", [(8,)]),
    ("SMEM_GMEM_COPY((64, 64), f16, 128)", "fa.tiled_copy_smem_gmem_layout(8, 1, 128, 16)",
     "mosaic.smem_gmem_copy((64, 64), 16, 128)", [(64, 64)]),
    ("SMEM_GMEM_COPY((16, 64), f32, 32)", "fa.tiled_copy_smem_gmem_layout(2, 8, 32, 32)",
     "mosaic.smem_gmem_copy((16, 64), 32, 32)", [(16, 64)]),
    ("WGMMA.reduce(0)", "fa.WGMMA_LAYOUT.reduce((0,))", "mosaic.WGMMA_COL", [(16,)]),
    ("WGMMA.reduce(1)", "fa.WGMMA_LAYOUT.reduce((1,))", "mosaic.WGMMA_ROW", [(64,)]),
    ("3-D WGMMA", "fa.WGMMA_LAYOUT", "mosaic.WGMMA", [(2, 64, 8)]),
]

#: jax's errors for bad layouts and shapes, as (what, jax expression, unilayout expression).
ERRORS = [
    ("warp dim out of range", "fa.TiledLayout(fa.Tiling(((64, 8), (16, 8), (8, 8), (2,))), (-9,), (-3, -2), -1)",
     "mosaic.TiledLayout(mosaic.Tiling(((64, 8), (16, 8), (8, 8), (2,))), (-9,), (-3, -2), -1)"),
    ("tile does not divide", "fa.WGMMA_LAYOUT.registers_shape((30, 8))", "mosaic.WGMMA.registers_shape((30, 8))"),
    ("warps not 4", "fa.TiledLayout(fa.Tiling(((64, 8), (16, 8), (8, 8), (2,))), (-3,), (-7, -2), -1)",
     "mosaic.TiledLayout(mosaic.Tiling(((64, 8), (16, 8), (8, 8), (2,))), (-3,), (-7, -2), -1)"),
    ("lanes not 32", "fa.TiledLayout(fa.Tiling(((64, 8), (16, 8), (8, 8), (2,))), (-7,), (-3,), -1)",
     "mosaic.TiledLayout(mosaic.Tiling(((64, 8), (16, 8), (8, 8), (2,))), (-7,), (-3,), -1)"),
    ("duplicate dims", "fa.TiledLayout(fa.Tiling(((64, 8), (16, 8), (8, 8), (2,))), (-7,), (-3, -2), -2)",
     "mosaic.TiledLayout(mosaic.Tiling(((64, 8), (16, 8), (8, 8), (2,))), (-7,), (-3, -2), -2)"),
    ("positive dim", "fa.TiledLayout(fa.Tiling(((64, 8), (16, 8), (8, 8), (2,))), (-7,), (-3, -2), 1)",
     "mosaic.TiledLayout(mosaic.Tiling(((64, 8), (16, 8), (8, 8), (2,))), (-7,), (-3, -2), 1)"),
    ("not canonical", "fa.TiledLayout(fa.Tiling(((64, 8), (64, 8), (16, 8), (8, 8), (2,))), (-7,), (-3, -2), -1)",
     "mosaic.TiledLayout(mosaic.Tiling(((64, 8), (64, 8), (16, 8), (8, 8), (2,))), (-7,), (-3, -2), -1)"),
    ("tiles grow", "fa.Tiling(((8,), (8, 8)))", "mosaic.Tiling(((8,), (8, 8)))"),
    ("strided does not divide", "fa.WGStridedFragLayout((100,), 2)", "mosaic.WGStridedFragLayout((100,), 2)"),
]

STRIDED = [((128, 8), 8), ((16, 64), 2), ((512,), 1)]
SPLATS = [(4, 8), (), (1,)]


def _patched(fa, thread):
    """jax's index code with its IR builders replaced by integer numpy operations (restored on exit)."""
    fake = types.SimpleNamespace(addi=lambda a, b: a + b, muli=lambda a, b: a * b, divui=lambda a, b: a // b,
                                 remui=lambda a, b: a % b, index_castui=lambda t, x: x, constant=lambda t, v: v)
    saved = (fa.arith, fa.c, fa.utils.thread_idx, fa.utils.arith)
    fa.arith, fa.c, fa.utils.thread_idx, fa.utils.arith = fake, (lambda v, t=None: v), (lambda: thread), fake
    return saved


def thread_idxs(layout, shape):
    """jax's ``thread_idxs`` evaluated for all 128 threads: ``(128, registers, rank)`` (first element of a vector)."""
    from jax._src.lib.mlir import ir
    from jax.experimental.mosaic.gpu import fragmented_array as fa

    thread = np.arange(128, dtype=np.int64)
    saved = _patched(fa, thread)
    try:
        with ir.Context(), ir.Location.unknown():
            regs = [np.stack([np.broadcast_to(np.asarray(i), thread.shape) for i in idx], axis=-1)
                    for idx in layout.thread_idxs(tuple(shape))]
    finally:
        fa.arith, fa.c, fa.utils.thread_idx, fa.utils.arith = saved
    return np.stack(regs, axis=1)


def _attr(layout):
    from jax._src.lib import mosaic_gpu_dialect as mgpu
    from jax._src.lib.mlir import ir
    from jax.experimental.mosaic.gpu import layouts

    ctx = ir.Context()
    mgpu.register_dialect(ctx)
    with ctx, ir.Location.unknown():
        return str(layouts.to_layout_attr(layout))


def facts() -> dict:
    """Every fact the tests check, computed by jax."""
    from jax.experimental.mosaic.gpu import fragmented_array as fa
    from jax.experimental.mosaic.gpu import tcgen05  # noqa: F401  (named in CASES)

    out = {"tiled": [], "errors": [], "strided": [], "splat": []}
    for name, jx, ours, shapes in CASES:
        lay = eval(jx)
        for shape in shapes:
            out["tiled"].append({"name": name, "ours": ours, "shape": list(shape), "attr": _attr(lay),
                                 "registers_shape": list(lay.registers_shape(shape)),
                                 "vector_length": lay.vector_length, "replication": lay.replication_factor,
                                 "thread_idxs": thread_idxs(lay, shape).tolist()})
    for what, jx, ours in ERRORS:
        try:
            eval(jx)
            msg = None
        except (ValueError, TypeError) as e:
            msg = str(e)
        out["errors"].append({"what": what, "ours": ours, "message": msg})
    for shape, vec in STRIDED:
        lay = fa.WGStridedFragLayout(shape, vec)
        out["strided"].append({"shape": list(shape), "vec": vec, "attr": _attr(lay),
                               "registers_shape": list(lay.registers_shape(shape))})
    for shape in SPLATS:
        out["splat"].append({"shape": list(shape), "attr": _attr(fa.WGSplatFragLayout(shape))})
    return out


if __name__ == "__main__":
    FACTS.write_text(json.dumps(facts(), separators=(",", ":")) + "\n")
    print(f"wrote {FACTS}")
