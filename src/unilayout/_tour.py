"""``unilayout tour``: one worked example of each family, printed as ``show`` prints it and drawn to files.

Each stop of ``TOUR`` is ``(file stem, heading, explanation, text, options)``;
``write_tour`` prints the facts (``unilayout.facts``) and the small tables
(``unilayout.viz.text``) of each, and writes its picture (``unilayout.viz``).

>>> [stop[0] for stop in TOUR][:2]
['1-cute-blocked-product', '2-linear-mfma']
"""

from __future__ import annotations

import os

from . import facts as F
from . import viz
from ._families import family_of, parse
from .viz.text import MAX_TABLE_CELLS, tables

__all__ = ["TOUR", "write_tour"]

#: The tour: (file stem, heading, explanation, text, render options).
TOUR = (
    ("1-cute-blocked-product", "CuTe: blocked_product((2,2):(1,2), (2,3):(3,1))",
     "A 2x2 tile repeated over a 2x3 grid of tiles; element ((0,1),(1,1)) is storage[18].",
     "((2,2),(2,3)):((1,12),(2,4))", {}),
    ("2-linear-mfma", "Triton linear layout: AMD MFMA 16x16, warpsPerCTA [2, 2], on tensor<32x64xf32>",
     "Registers walk dim0 in 4s, 16 lanes walk dim1, lanes 16-63 step dim0 by 4; warps tile 16x16 blocks.",
     "#ttg.linear<{register = [[1, 0], [2, 0], [0, 32]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [4, 0], "
     "[8, 0]], warp = [[0, 16], [16, 0]], block = []}>", {}),
    ("3-tsl-offset", "snax TSL: 8x8 in 4x4 tiles, tile (I, J) at 32*I + 16*J, base offset 5",
     "Every dim has tiles of tiles; the offset is added to every address.",
     "#tsl.tsl<[2, 4] -> (32, 4), [2, 4] -> (16, 1), offset: 5>", {}),
    ("4-metal-53x63-padded", "Tenstorrent metal layout: 53x63 f32 on a 3x2 grid, tilized 32x32",
     "Each 18x32 shard is padded to one 32x32 tile: 14 padding rows per core, 15 on the last row of cores.",
     "tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
     "memref<1x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>", {}),
    ("5-device-2-chips", "Tenstorrent device: two 8x8 chips side by side as one 8x16 grid",
     "Columns 8..15 wrap to chip 1; a 256x1024 tensor on a 4x16 grid spans the upper half of both chips.",
     "#tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0, d1 mod 8)>, "
     "meshShape = 1x2, chipIds = [0, 1]>",
     {"place": "tensor<256x1024xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <4x16>, "
               "memref<2x2x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>"}),
)


def write_tour(out, formats=(".svg", ".png"), progress=None, scale=1) -> list:
    """Print every stop of the tour and write its pictures under ``out``; return the paths written.

    Each stop's heading is printed once (on standard output); ``progress(k, n)``
    is called before stop ``k`` of ``n`` (the command draws a bar from it).
    PNGs are ``scale`` times the SVG's size.

    >>> import contextlib, io, os, tempfile
    >>> with tempfile.TemporaryDirectory() as d, contextlib.redirect_stdout(io.StringIO()) as text:
    ...     paths = write_tour(d, [".svg"])
    >>> [os.path.basename(p) for p in paths][-1], "contiguity:" in text.getvalue()
    ('5-device-2-chips.svg', True)
    """
    os.makedirs(out, exist_ok=True)
    written = []
    for k, (stem, heading, why, text, opts) in enumerate(TOUR, 1):
        if progress:
            progress(k, len(TOUR))
        value = parse(text)
        print(f"== {k}. {heading}")
        print(why)
        print(f"$ unilayout show '{text}'")
        print(F.format_facts(F.describe(value)))
        for title, body in tables(value, None, 256 if family_of(value) != "metal" else MAX_TABLE_CELLS):
            if "not shown" in body or title.startswith(("tensor view", "hardware view")):
                continue
            print()
            if title:
                print(title + ":")
            print(body)
        options = {}
        if "place" in opts:
            placed = parse(opts["place"])
            where = value.place(placed)
            print(f"\nplacing {opts['place']}")
            last = tuple(g - 1 for g in placed.grid)
            first_core = tuple(where.cores[(0,) * len(last)].tolist())
            print(f"  shards on chips {list(where.chips)}, mesh distribution {where.distribution}; "
                  f"shard {(0,) * len(last)} on (chip, y, x) {first_core}, shard {last} on {tuple(where.cores[last].tolist())}")
            options["layout"] = placed
        s = viz.scene(value, **options)
        for ext in formats:
            path = os.path.join(out, stem + ext)
            viz.render(s, path, scale=scale)
            written.append(path)
            print(f"picture: {path}")
        print()
    return written
