"""Reading ``#tt.device<...>`` / ``#ttcore.device<...>``: a device's worker grid, mesh and chips.

Grammar (whitespace and newlines free between tokens; ``ttcore`` accepted for ``tt``)::

    device ::= '#tt.device<' 'workerGrid' '=' '#tt.grid<' INT ('x' INT)* ',' map '>' ','
               'meshShape' '=' INT ('x' INT)* ',' 'chipIds' '=' '[' INT (',' INT)* ']'
               [',' 'meshTopology' '=' '[' topology (',' topology)* ']'] '>'

Newer tt-mlir output is read too: ``l1Map = <map>, dramMap = <map>`` before
``meshShape`` are parsed and dropped (tt-mlir derives them from the system),
and an empty ``meshShape =`` means one chip (printed back as ``meshShape = 1``);
so are today's ``virt_to_physical_map = ..., physical_to_virt_map = ...`` grid
maps (the second is the first's inverse) and ``dramGrid = #ttcore.grid<..>``.

>>> d = parse_device("#ttcore.device<workerGrid = #ttcore.grid<8x8, virt_to_physical_map = (d0, d1) -> (0, d0, d1), "
...                  "physical_to_virt_map = (d0, d1, d2) -> (d1, d2)>, dramGrid = #ttcore.grid<1x12>, "
...                  "meshShape = , chipIds = [0]>")
>>> d.grid_shape, d.mesh_shape
((8, 8), (1,))
"""

from __future__ import annotations

from ..errors import LayoutError
from ._mlir import xs
from ._reader import Reader
from .device import TOPOLOGIES, Device

__all__ = ["read_device", "parse_device"]


def read_device(p):
    """'#tt.device<' ... '>' -> ``Device`` (the reader at the '#')."""
    p.expect_dialect("#device", "'#tt.device<' or 'tensor<'")
    p.expect("workerGrid", "'workerGrid'")
    p.expect("=", "'=' after 'workerGrid'")
    gpos = p.expect_dialect("#grid", "'#tt.grid<'")
    grid = p.dims("a grid dim")
    if any(g < 1 for g in grid):
        raise p.error(f"worker grid {xs(grid)}: every dim must be >= 1", gpos)
    p.expect(",", "',' before the worker grid map")
    if p.accept("virt_to_physical_map"):  # today's tt-mlir names both directions
        p.expect("=", "'=' after 'virt_to_physical_map'")
    gmap, mpos = p.affine_map()
    if p.accept(","):
        p.expect("physical_to_virt_map", "'physical_to_virt_map'")
        p.expect("=", "'=' after 'physical_to_virt_map'")
        p.affine_map()  # the inverse of the worker-grid map: derived, so dropped
    p.expect(">", "'>' to close '#tt.grid<'")
    p.expect(",", "',' after the worker grid")
    if p.accept("dramGrid"):  # the DRAM bank grid (1x12 on Wormhole): a property of the system, dropped
        p.expect("=", "'=' after 'dramGrid'")
        p.expect_dialect("#grid", "'#ttcore.grid<'")
        p.dims("a DRAM grid dim")
        p.expect(">", "'>' to close the DRAM grid")
        p.expect(",", "',' after the DRAM grid")
    for name in ("l1Map", "dramMap"):  # newer tt-mlir prints these; derived from the system, so dropped
        if p.accept(name):
            p.expect("=", f"'=' after '{name}'")
            p.affine_map()
            p.expect(",", f"',' after the {name}")
    p.expect("meshShape", "'meshShape'")
    p.expect("=", "'=' after 'meshShape'")
    spos = p.ws()
    # newer tt-mlir prints an empty mesh shape for a single device
    mesh = (1,) if p.peek(",") else p.dims("a mesh dim")
    if any(m < 1 for m in mesh):
        raise p.error(f"mesh shape {xs(mesh)}: every dim must be >= 1", spos)
    p.expect(",", "',' after the mesh shape")
    p.expect("chipIds", "'chipIds'")
    p.expect("=", "'=' after 'chipIds'")
    cpos = p.ws()
    p.expect("[", "'['")
    ids = [p.integer("a chip id")[0]]
    while p.accept(","):
        ids.append(p.integer("a chip id")[0])
    p.expect("]", "',' or ']'")
    topo, tpos = None, None
    if p.accept(","):
        p.expect("meshTopology", "'meshTopology'")
        p.expect("=", "'=' after 'meshTopology'")
        tpos = p.ws()
        p.expect("[", "'['")
        topo = []
        while True:
            name, npos = p.ident("a topology (ring, linear, disabled)")
            if name not in TOPOLOGIES:
                raise p.error(f"topology {name!r} is not one of {', '.join(TOPOLOGIES)}", npos)
            topo.append(name)
            if not p.accept(","):
                break
        p.expect("]", "',' or ']'")
    p.expect(">", "'>' to close '#tt.device<'")
    try:
        return Device(grid, gmap, mesh, ids, topo)
    except LayoutError as e:
        msg = str(e)
        pos = mpos if "map" in msg else tpos if "Topology" in msg else cpos
        raise p.error(msg, pos) from None


def parse_device(text: str) -> Device:
    """Parse ``#tt.device<workerGrid = ..., meshShape = ..., chipIds = [...]>`` into a ``Device``.

    >>> parse_device("#tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1, chipIds = [0]>").grid_shape
    (8, 8)
    """
    p = Reader(text)
    d = read_device(p)
    p.end()
    return d
