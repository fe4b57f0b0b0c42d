"""Benchmark: PNG and SVG pictures of every tour stop, and the picture of a big layout.

Run: ``python bench/pictures.py``. Prints, in one run:

1. the scene (``viz.scene``), SVG (``viz.svg.to_svg``) and PNG (``viz.png.to_png``,
   Pillow with its scalable font) of each picture ``unilayout tour`` writes, and
   all PNGs together against the issue's target of 2 s (ratio = target / time,
   > 1 meets it), plus ``--scale 2``;
2. a 128x128 CuTe layout (16,384 labelled cells, the default ``max_cells``) as
   PNG and as SVG, and ``Image.save`` of the same pixels alone (Pillow's PNG
   encoder: the floor of any PNG writer), ratio = floor / unilayout.

Times are the best of several repetitions (wall clock, one thread).
"""

from __future__ import annotations

import io
import platform

import numpy as np

from _timing import best  # bench/ is on sys.path
from unilayout import _families, cute, viz
from unilayout._tour import TOUR
from unilayout.viz.png import rasterise, to_png
from unilayout.viz.svg import to_svg


def tour_scenes():
    out = []
    for stem, _, _, text, opts in TOUR:
        value = _families.parse(text)
        options = {"layout": _families.parse(opts["place"])} if "place" in opts else {}
        out.append((stem, value, options))
    return out


def main():
    from PIL import Image

    print(f"unilayout pictures benchmark ({platform.python_implementation()} {platform.python_version()}, "
          f"numpy {np.__version__}, Pillow {Image.__version__})")
    print()
    print(f"{'tour picture':<26} {'pixels':>11} {'scene ms':>9} {'svg ms':>8} {'png ms':>8} {'png x2 ms':>10}")
    total_png = total_png2 = total_all = 0.0
    for stem, value, options in tour_scenes():
        ts, s = best(lambda: viz.scene(value, **options), 5)
        tsvg, _ = best(lambda: to_svg(s), 5)
        tpng, data = best(lambda: to_png(s), 5)
        tpng2, _ = best(lambda: to_png(s, 2), 3)
        total_png += tpng
        total_png2 += tpng2
        total_all += ts + tpng
        print(f"{stem:<26} {int(s.width):>5}x{int(s.height):<5} {ts * 1e3:>9.1f} {tsvg * 1e3:>8.1f} {tpng * 1e3:>8.1f} "
              f"{tpng2 * 1e3:>10.1f}")
    print(f"all tour PNGs: {total_png:.3f} s (scenes included: {total_all:.3f} s); target 2 s: "
          f"ratio {2.0 / total_all:.1f}x; at --scale 2: {total_png2:.3f} s")
    print()
    L = cute.Layout((128, 128), (128, 1))
    ts, s = best(lambda: viz.scene(L), 3)
    tpng, data = best(lambda: to_png(s), 3)
    tsvg, _ = best(lambda: to_svg(s), 3)
    img = rasterise(s)

    def save():
        buf = io.BytesIO()
        Image.fromarray(img, "RGB").save(buf, format="PNG", compress_level=6)
        return buf

    tsave, _ = best(save, 3)
    print(f"128x128 CuTe layout (16,384 labelled cells, {int(s.width)}x{int(s.height)} px): scene {ts * 1e3:.0f} ms, "
          f"PNG {tpng * 1e3:.0f} ms, SVG {tsvg * 1e3:.0f} ms")
    print(f"  Pillow PNG encoder alone {tsave * 1e3:.0f} ms: floor / unilayout PNG = {tsave / tpng:.2f}")


if __name__ == "__main__":
    main()
