"""``unilayout sharding``: read any sharding text, say who holds what, convert it to every other vocabulary.

    unilayout sharding TEXT [--shape 8x6] [--mesh MESH] [--mesh-shape 2x4] [--to hlo|shardy|dtensor|ttnn]
                            [--json] [-o PICTURE.svg|.png]

``TEXT`` is one of (recognised by its start):

- HLO ``{devices=[2,1,4]<=[8] last_tile_dim_replicate}`` (``sharding=`` prefix allowed; needs ``--shape``);
- Shardy ``#sdy.sharding<@mesh, [{"x"}, {}]>`` (needs ``--shape`` and ``--mesh 'sdy.mesh @mesh = <["x"=2]>'``
  unless the mesh is inline);
- DTensor placements ``Shard(0), Replicate()`` or TTNN ``PlacementShard(0), PlacementReplicate()`` (needs
  ``--shape`` and ``--mesh-shape``);
- an XLA tiled layout ``f32[128,256]{1,0:T(8,128)(2,1)}`` (its own shape): buffer, affine map, CuTe and
  metal layouts.

For a sharding it prints who holds what, then the same sharding in every
other vocabulary (or why that one cannot say it); ``-o`` draws which device
holds which block.

>>> main_for_tests(["{devices=[2,1,2]<=[4] last_tile_dim_replicate}", "--shape", "8x6"])
sharding of 8x6 over 4 devices
  [0:4, 0:6]  devices 0, 1
  [4:8, 0:6]  devices 2, 3
hlo:     {devices=[2,1,2]<=[4] last_tile_dim_replicate}
shardy:  #sdy.sharding<@mesh, [{"d0"}, {}]>  over  sdy.mesh @mesh = <["d0"=2, "r"=2]>
dtensor: Shard(0), Replicate()  on mesh 2x2
ttnn:    PlacementShard(0), PlacementReplicate()  on mesh 2x2
0
"""

from __future__ import annotations

import argparse
import json
import re

from ..errors import LayoutError, NotRepresentableError

__all__ = ["add_parser", "run", "main_for_tests", "read", "is_sharding_text", "show"]

_EXAMPLES = """examples:
  unilayout sharding "{devices=[2,1,4]<=[8] last_tile_dim_replicate}" --shape 8x6
  unilayout sharding '#sdy.sharding<@mesh, [{"x"}, {}]>' --mesh 'sdy.mesh @mesh = <["x"=2, "y"=4]>' --shape 8x6
  unilayout sharding "Shard(0), Shard(0)" --mesh-shape 2x2 --shape 5x3 --to hlo
  unilayout sharding "bf16[128,256]{1,0:T(8,128)(2,1)}"
  unilayout sharding "{devices=[2,2]<=[2,2]T(1,0)}" --shape 8x8 -o who.svg"""

_PLACEMENT = re.compile(r"^\s*\[?\s*(Shard|Replicate|Partial|_StridedShard|_S|S\(|R\b|P\b|Placement)")


def add_parser(sub):
    """Register ``sharding`` on ``sub`` (argparse subparsers).

    >>> p = argparse.ArgumentParser(prog="unilayout")
    >>> add_parser(p.add_subparsers(dest="command"))
    >>> p.parse_args(["sharding", "{replicated}", "--shape", "4"]).shape
    '4'
    """
    q = sub.add_parser("sharding", help="who holds what, in every sharding vocabulary (unilayout.sharding)",
                       epilog=_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    q.add_argument("text", metavar="TEXT", help="HLO or Shardy sharding, DTensor/TTNN placements, or an XLA tiled layout")
    q.add_argument("--shape", help="the global tensor's shape, e.g. 8x6 (not for an XLA layout)")
    q.add_argument("--mesh", metavar="MESH", help="the Shardy mesh text (sdy.mesh @m = <[...]>)")
    q.add_argument("--mesh-shape", metavar="MxN", help="the mesh of DTensor/TTNN placements (and of --to dtensor/ttnn)")
    q.add_argument("--to", choices=["hlo", "shardy", "dtensor", "ttnn"], help="print only this vocabulary")
    q.add_argument("--json", action="store_true", help="print one JSON object")
    q.add_argument("-o", "--output", metavar="PICTURE", help="write which device holds which block (.svg or .png)")
    q.set_defaults(run=run)


def _dims(text, what):
    if text is None:
        return None
    parts = [p for p in text.replace(",", "x").lower().split("x") if p.strip()]
    try:
        dims = tuple(int(p) for p in parts)
    except ValueError:
        raise LayoutError(f"{what}: expected sizes like 8x8, got {text!r}") from None
    if any(d < 0 for d in dims):
        raise LayoutError(f"{what}: expected sizes like 8x8, got {text!r}")
    return dims


def _placements(text):
    body = text.strip()
    if body.startswith("[") and body.endswith("]"):
        body = body[1:-1]
    out, depth, cur = [], 0, ""
    for ch in body:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def read(text, shape=None, mesh=None, mesh_shape=None):
    """``(kind, value)``: kind ``"sharding"`` (a ``Sharding``) or ``"xla"`` (an ``XlaLayout``), from any text.

    >>> read("Shard(0), Replicate()", (4, 2), mesh_shape=(2, 2))[1].device_boxes[3]
    [((2, 4), (0, 2))]
    """
    from . import from_dtensor, from_ttnn, parse_hlo, parse_shardy, parse_xla_layout
    body = text.strip()
    if re.match(r"^[A-Za-z_][A-Za-z0-9_]*\[", body):
        return "xla", parse_xla_layout(body)
    if shape is None:
        raise LayoutError("a sharding text needs the tensor's shape: give --shape, e.g. --shape 8x6")
    if body.startswith("{") or body.startswith("sharding"):
        return "sharding", parse_hlo(body, shape)
    if body.startswith("#sdy.sharding"):
        return "sharding", parse_shardy(body, mesh, shape)
    if _PLACEMENT.match(body):
        if mesh_shape is None:
            raise LayoutError("placements need the mesh: give --mesh-shape, e.g. --mesh-shape 2x4")
        pl = _placements(body)
        if any(p.startswith("Placement") for p in pl):
            return "sharding", from_ttnn(pl, mesh_shape, shape)
        return "sharding", from_dtensor(pl, mesh_shape, shape)
    raise LayoutError("expected an HLO sharding '{devices=[...]...}', a Shardy '#sdy.sharding<...>', DTensor or TTNN "
                      "placements 'Shard(0), Replicate()', or an XLA layout 'f32[8,8]{1,0:T(8,128)}'")


def _mesh_for(s, mesh_shape):
    """The mesh to print placements on: --mesh-shape, else the HLO tile assignment's shape."""
    if mesh_shape is not None:
        return mesh_shape
    from .hlo import tile_assignment
    T, R, _ = tile_assignment(s, "HLO")
    dims = tuple(t for t in T if t > 1) + ((R,) if R > 1 else ())
    return dims or (1,)


def _conversions(s, mesh_shape, only=None):
    from . import to_dtensor, to_hlo, to_shardy, to_ttnn
    out = {}
    names = [only] if only else ["hlo", "shardy", "dtensor", "ttnn"]
    for name in names:
        try:
            if name == "hlo":
                out[name] = to_hlo(s)
            elif name == "shardy":
                st, mt = to_shardy(s)
                out[name] = f"{st}  over  {mt}"
            else:
                m = _mesh_for(s, mesh_shape)
                ds = s
                if s.devices != tuple(range(s.num_devices)):
                    raise NotRepresentableError(f"device ids {list(s.devices)} are not ranks 0..{s.num_devices - 1}")
                pl = to_dtensor(ds, m, as_text=True) if name == "dtensor" else to_ttnn(ds, m)
                out[name] = f"{', '.join(pl)}  on mesh {'x'.join(map(str, m))}"
        except (NotRepresentableError, LayoutError) as e:
            out[name] = f"not representable: {e}"
    return out


def run(args) -> int:
    """Run ``unilayout sharding`` for parsed ``args``; 0 on success."""
    shape = _dims(args.shape, "--shape")
    mesh_shape = _dims(args.mesh_shape, "--mesh-shape")
    kind, value = read(args.text, shape, args.mesh, mesh_shape)
    if kind == "xla":
        d = {"kind": "xla_layout", "text": str(value), "buffer_shape": list(value.buffer_shape),
             "storage_size": value.storage_size, "padded": value.padded, "affine": str(value.to_affine())}
        for key, make in (("cute", value.to_cute), ("metal", value.to_metal)):
            try:
                d[key] = str(make())
            except NotRepresentableError as e:
                d[key] = f"not representable: {e}"
        if args.output:
            raise LayoutError("-o draws shardings; for an XLA layout, render its affine map or CuTe layout")
        if args.json:
            print(json.dumps({"schema": "unilayout/1", "command": "sharding", "ok": True, **d}, indent=2))
        else:
            for k in ("text", "buffer_shape", "storage_size", "padded", "affine", "cute", "metal"):
                v = d[k]
                print(f"{k + ':':14s}{'x'.join(map(str, v)) if k == 'buffer_shape' else v}")
        return 0
    conv = _conversions(value, mesh_shape, args.to)
    if args.output:
        from .. import viz
        from ..viz.sharding import sharding_scene
        viz.render(sharding_scene(value), args.output)
    if args.json:
        d = {"schema": "unilayout/1", "command": "sharding", "ok": True, "kind": "sharding",
             "shape": list(value.shape), "devices": {str(k): [list(map(list, b)) for b in v]
                                                     for k, v in value.device_boxes.items()},
             "partial": [k for k, v in value.partial.items() if v], "conversions": conv}
        print(json.dumps(d, indent=2))
        return 0
    if not args.to:
        print(value)
    for name, text in conv.items():
        print(f"{name + ':':9s}{text}")
    return 0


def is_sharding_text(text) -> bool:
    """Whether ``unilayout show`` should hand ``text`` to this command: HLO, Shardy or an XLA layout.

    No other family's text starts with ``{``, ``sharding=``, ``#sdy.`` or ``name[``.

    >>> is_sharding_text("{replicated}"), is_sharding_text("f32[4,4]{1,0}"), is_sharding_text("(4,2):(2,1)")
    (True, True, False)
    """
    body = text.lstrip() if isinstance(text, str) else ""
    return body.startswith(("{", "sharding=", "#sdy.sharding")) or bool(re.match(r"^[A-Za-z_][A-Za-z0-9_]*\[", body))


def show(text, shape=None, as_json=False) -> int:
    """What ``unilayout show TEXT [--shape S] [--json]`` prints for a sharding or XLA layout text.

    >>> show("{devices=[2]0,1}", (4,))
    sharding of 4 over 2 devices
      [0:2]  device 0
      [2:4]  device 1
    hlo:     {devices=[2]<=[2]}
    shardy:  #sdy.sharding<@mesh, [{"d0"}]>  over  sdy.mesh @mesh = <["d0"=2]>
    dtensor: Shard(0)  on mesh 2
    ttnn:    PlacementShard(0)  on mesh 2
    0
    """
    args = argparse.Namespace(text=text, shape=None if shape is None else "x".join(map(str, shape)), mesh=None,
                              mesh_shape=None, to=None, json=as_json, output=None)
    return run(args)


def main_for_tests(argv) -> int:
    """``unilayout sharding ARGV`` without the rest of the command (for examples and tests).

    >>> main_for_tests(["f32[3,5]{1,0:T(2,2)}"])
    text:         f32[3,5]{1,0:T(2,2)}
    buffer_shape: 2x3x2x2
    storage_size: 24
    padded:       True
    affine:       (d0, d1) -> ((d0 floordiv 2) * 12 + (d1 floordiv 2) * 4 + (d0 mod 2) * 2 + d1 mod 2)
    cute:         not representable: tile (2, 2) pads dim 0 (size 3) to 4: a CuTe layout has no padding (to_affine is exact)
    metal:        tensor<3x5xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <1x1>, memref<2x3x!tt.tile<2x2, f32>, #tt.memory_space<l1>>>>
    0
    """
    p = argparse.ArgumentParser(prog="unilayout")
    add_parser(p.add_subparsers(dest="command"))
    return run(p.parse_args(["sharding", *argv]))
