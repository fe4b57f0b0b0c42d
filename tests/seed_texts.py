"""The seeds' texts of several families, shared by the top-level and convert tests."""

SEED_TENSOR = """tensor<2x3x64x128xf32,
  #tt.metal_layout<
    (d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3),
    undef,
    <1x1>,
    memref<384x128xf32, #tt.memory_space<l1>>
  >
>"""
SEED_TILED = """tensor<16x3x64x128xf32,
#tt.metal_layout<(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3),
undef,
<2x2x4>,
memref<8x3x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>
>
>"""
SEED_DEVICE = """#tt.device<
workerGrid = #tt.grid<8x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0, d1 mod 8)>,
meshShape = 1x2,
chipIds = [0, 1]
>"""
SEED_LINEAR = ("#ttg.linear<{register = [[1, 0], [2, 0], [0, 32]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], "
               "[4, 0], [8, 0]], warp = [[0, 16], [16, 0]], block = []}>")
