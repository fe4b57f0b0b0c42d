"""Texts of every family and ``run`` (main(argv) -> status, out, err) shared by the tests of tests/cli."""

import shutil
import sys

from unilayout.cli import main

CUTE = "((2,2),(2,3)):((1,12),(2,4))"
LINEAR = ("#ttg.linear<{register = [[1, 0], [2, 0], [0, 32]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [4, 0], [8, 0]], "
          "warp = [[0, 16], [16, 0]], block = []}>")
TSL = "#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5>"
AFFINE = "(d0, d1) -> (d0 * 8 + d1)"
METAL = ("tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
         "memref<1x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>")
DEVICE = ("#tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0, d1 mod 8)>, "
          "meshShape = 1x2, chipIds = [0, 1]>")
ALL = [CUTE, LINEAR, TSL, AFFINE, METAL, DEVICE]
FAMILIES = ["cute", "linear", "tsl", "affine", "metal", "device"]

PLACED = ("tensor<256x1024xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <8x16>, "
          "memref<32x64xf32, #tt.memory_space<l1>>>>")
TWO_CHIPS = ("#tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, "
             "meshShape = 1x2, chipIds = [0, 1]>")
MEMCFG = ("#ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<<[#ttnn.core_range<(0,0), "
          "(3,1)>]>, <32x64>, <row_major>>>")


def run(capsys, *argv):
    """``main(argv)`` in-process: ``(status, stdout, stderr)``; never a traceback."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


def console():
    """The ``unilayout`` console script, or ``python -m unilayout.cli`` where it is not installed."""
    exe = shutil.which("unilayout")
    return [exe] if exe else [sys.executable, "-m", "unilayout.cli"]
