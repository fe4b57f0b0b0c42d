"""Benchmark: Mosaic GPU layouts — building the linear layout of WGMMA, and finding who holds every element.

Run: ``python bench/mosaic.py``. Prints, in one run:

1. ``to_linear``: ``unilayout.convert.mosaic.mosaic_to_linear(mosaic.WGMMA, (128, 256))`` (a fresh
   ``TiledLayout`` each time, so nothing is cached) beside what jax (CPU) does for the same layout and
   shape: ``registers_shape`` and every register's index (``thread_idxs``, the index code Mosaic GPU
   emits, built as MLIR in a function body). Target: unilayout at least 10x faster.
2. owners: ``mosaic.WGMMA.owner_index((256, 256))`` (``thread * values + value`` of every element,
   vectorised) beside ``np.arange(65536)``. Target: within 3x. ``owners`` (the six named arrays) is
   printed too.

Times are the best of several repetitions (wall clock, one thread). Without jax, part 1 prints
unilayout's time alone.
"""

from __future__ import annotations

import platform

import numpy as np

from _timing import best_time  # bench/ is on sys.path
from unilayout import mosaic
from unilayout.convert.mosaic import mosaic_to_linear

WGMMA_TILES = ((64, 8), (16, 8), (8, 8), (2,))


def fresh_wgmma():
    """A new WGMMA ``TiledLayout`` (equal to ``mosaic.WGMMA``, but no cache knows it)."""
    return mosaic.TiledLayout(mosaic.Tiling(WGMMA_TILES), (-7,), (-3, -2), -1)


def jax_time(shape, reps):
    """jax's ``registers_shape`` + ``thread_idxs`` of WGMMA_LAYOUT on ``shape``, best of ``reps`` (None without jax)."""
    try:
        from jax._src.interpreters import mlir as jmlir
        from jax._src.lib.mlir import ir
        from jax._src.lib.mlir.dialects import func
        from jax.experimental.mosaic.gpu import fragmented_array as fa
    except ImportError:
        return None
    with jmlir.make_ir_context(), ir.Location.unknown():
        module = ir.Module.create()
        with ir.InsertionPoint(module.body):
            f = func.FuncOp("f", ir.FunctionType.get([], []))
            with ir.InsertionPoint(f.add_entry_block()):
                def run():
                    layout = fa.TiledLayout(fa.Tiling(WGMMA_TILES), (-7,), (-3, -2), -1)
                    return layout.registers_shape(shape), list(layout.thread_idxs(shape))
                return best_time(run, reps)


def main():
    print(f"unilayout bench/mosaic.py  (python {platform.python_version()}, numpy {np.__version__})")
    shape = (128, 256)
    ours = best_time(lambda: mosaic_to_linear(fresh_wgmma(), shape), 50)
    theirs = jax_time(shape, 10)
    print(f"\n1. WGMMA on {shape[0]}x{shape[1]}")
    print(f"   unilayout mosaic_to_linear              {ours * 1e3:8.3f} ms")
    if theirs is None:
        print("   jax registers_shape + thread_idxs        (jax not installed)")
    else:
        print(f"   jax registers_shape + thread_idxs       {theirs * 1e3:8.3f} ms")
        print(f"   speed-up                                {theirs / ours:8.1f}x  (target >= 10x)")
    n = 256 * 256
    arange = best_time(lambda: np.arange(n), 500)
    owner = best_time(lambda: mosaic.WGMMA.owner_index((256, 256)), 500)
    owners = best_time(lambda: mosaic.WGMMA.owners((256, 256)), 100)
    print("\n2. owner of every element of a 256x256 WGMMA tile")
    print(f"   np.arange({n})                        {arange * 1e6:8.1f} us")
    print(f"   owner_index (thread * values + value)   {owner * 1e6:8.1f} us  {owner / arange:5.2f}x arange  "
          "(target <= 3x)")
    print(f"   owners (warp, lane, thread, register, element, value)  {owners * 1e6:8.1f} us  "
          f"{owners / arange:5.2f}x arange")


if __name__ == "__main__":
    main()
