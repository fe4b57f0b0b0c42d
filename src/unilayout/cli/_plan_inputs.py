"""What ``unilayout plan`` reads from its options, and where it writes its pictures.

- ``device(args)``: ``--device TEXT`` or ``--mesh MxN`` (Wormhole chips), else one 8x8 chip;
- ``metal(text, what)``: a ``tensor<..., #tt.metal_layout<...>>`` text, or a ``LayoutError`` naming the option;
- ``collapse_intervals("0:-1,2:4")``: ``--collapse`` as ``[(0, -1), (2, 4)]``;
- ``write_picture(scene, path)``: an .svg or .png file, reported on standard error.

>>> collapse_intervals("0:-1,2:4"), collapse_intervals(None)
([(0, -1), (2, 4)], None)
>>> import argparse
>>> device(argparse.Namespace(device=None, mesh="1x2")).mesh_shape
(1, 2)
"""

from __future__ import annotations

import math
import os
import sys

from .. import viz
from ..errors import LayoutError
from ._common import sizes

__all__ = ["device", "metal", "collapse_intervals", "write_picture"]


def device(args):
    """The device of ``--device`` (a ``#tt.device<...>`` text) or ``--mesh`` (Wormhole chips); one 8x8 chip by default."""
    from .. import tt  # lazy: tt-metal's family (~0.2 s) loads only for a plan

    if args.device and args.mesh:
        raise LayoutError("give --device or --mesh, not both")
    if args.mesh:
        mesh = sizes(args.mesh, "--mesh", devices=True)
        return tt.Device.from_mesh(tt.SystemDesc.wormhole_b0(math.prod(mesh)), mesh)
    if args.device:
        d = tt.parse(args.device)
        if not isinstance(d, tt.Device):
            raise LayoutError("--device takes a #tt.device<...> text")
        return d
    return tt.Device((8, 8), "(d0, d1) -> (0, d0, d1)")


def metal(text, what):
    """The metal layout of ``text``; anything else is a ``LayoutError`` naming ``what`` (the option)."""
    from .. import tt  # lazy: tt-metal's family (~0.2 s) loads only for a plan

    v = tt.parse(text)
    if not isinstance(v, tt.MetalLayout):
        raise LayoutError(f"{what} must be a tensor<..., #tt.metal_layout<...>>, got a {type(v).__name__}")
    return v


def collapse_intervals(text):
    """``--collapse B:E,...`` as a list of ``(begin, end)`` pairs; None stays None."""
    if text is None:
        return None
    out = []
    for part in text.split(","):
        try:
            b, e = (int(v) for v in part.split(":"))
        except ValueError:
            raise LayoutError(f"--collapse: expected intervals like 0:-1,2:4, got {text!r}") from None
        out.append((b, e))
    return out


def write_picture(scene, path):
    """Write ``scene`` to ``path`` (.svg or .png) and say so on standard error."""
    if os.path.splitext(path)[1].lower() not in viz.FORMATS:
        raise LayoutError(f"cannot write {path!r}: the file name must end in .svg or .png")
    viz.render(scene, path)
    print(f"wrote {path} ({os.path.getsize(path):,} bytes)", file=sys.stderr)
