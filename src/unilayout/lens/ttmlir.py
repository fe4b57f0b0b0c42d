"""tt-mlir dumps (TTIR, TTNN, D2M): every metal / TTNN layout, every layout change priced with ``plan.reshard_cost``.

A tt-mlir tensor carries its layout as an encoding, usually through an alias
line: ``#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, memref<..>, <block_sharded>>``
or ``#layout = #ttcore.metal_layout<logical_shape = .., ..>`` on a
device-shaped tensor. ``unilayout.parse`` reads each (the ``tt`` family);
the ops that change a tensor's layout are

``ttnn.to_layout``, ``ttnn.to_memory_config``, ``d2m.to_layout``, ``d2m.view_layout``

and each is priced by ``plan.reshard_cost`` on the dump's ``#ttcore.device``
(or, when the dump has none, a single-chip device just big enough for the
grids, said in the note): bytes that stay on their core, cross the NoC, or
cross chips, and the distinct (source core, destination core) transfers. A
side without a device layout (a host tensor) is a host transfer of the
tensor's bytes.

>>> from unilayout import lens
>>> d = lens.read('''#l1 = #ttcore.metal_layout<logical_shape = 32x256, dim_alignments = 32x32, collapsed_intervals = dense<> : tensor<0x2xi64>, undef, l1, sharded>
... module {
...   func.func @f(%a: tensor<1x1x32x256xf32, #l1>, %b: tensor<1x2x32x128xf32, #l1>) {
...     %0 = d2m.to_layout %a, %b : tensor<1x1x32x256xf32, #l1> into tensor<1x2x32x128xf32, #l1>
...       -> tensor<1x2x32x128xf32, #l1>
...     return
...   }
... }''')
>>> m = d.moves[0]
>>> m.op, m.level, m.moved_bytes, m.on_chip_bytes, m.transfers
('d2m.to_layout', 'on chip (NoC)', 32768, 16384, 1)
"""

from __future__ import annotations

from typing import NamedTuple

from .. import _families
from ..errors import LayoutError

__all__ = ["Move", "Layouts", "moves", "LAYOUT_OPS"]

LAYOUT_OPS = ("ttnn.to_layout", "ttnn.to_memory_config", "d2m.to_layout", "d2m.view_layout", "ttir.to_layout")


class Move(NamedTuple):
    """One layout change of a tt-mlir dump, priced by ``plan.reshard_cost`` (fields as ``ReshardCost``'s).

    >>> Move("f", "d2m.view_layout", 4, None, "%1", "%2", "a", "b", "local", 0, 0, 0, 0, 0, 0, "").op
    'd2m.view_layout'
    """

    function: str
    op: str
    line: int
    location: object
    source_value: str
    destination_value: str
    source: str
    destination: str
    level: str
    moved_bytes: object
    local_bytes: object
    on_chip_bytes: object
    chip_to_chip_bytes: object
    transfers: object
    padding_bytes: object
    note: str


class Layouts:
    """The tt family's value of each type text (the registry's ``read``, as ``unilayout.parse``), cached.

    >>> from unilayout.lens import mlir
    >>> L = Layouts(mlir.read_module("#l = #ttcore.metal_layout<logical_shape = 32x32, dim_alignments = 32x32, "
    ...     "collapsed_intervals = dense<> : tensor<0x2xi64>, undef, l1, sharded>"))
    >>> L.get("tensor<1x1x32x32xf32, #l>").grid
    (1, 1)
    """

    def __init__(self, module):
        self.module = module
        self._cache: dict = {}

    def get(self, type_text: str):
        """The layout value (None for a tensor without an encoding; the error when it does not read)."""
        if type_text not in self._cache:
            if "#" not in type_text:
                self._cache[type_text] = None
            else:
                try:
                    self._cache[type_text] = _families.read(self.module.with_aliases(type_text))
                except LayoutError as e:
                    self._cache[type_text] = e
        return self._cache[type_text]

    def device(self):
        """The dump's ``#ttcore.device`` (an alias, or the module's ``ttcore.device`` attribute), or None."""
        for name, body in self.module.aliases.items():
            if body.startswith(("#ttcore.device<", "#tt.device<")):
                try:
                    return _families.read(f"#{name} = {body}")
                except LayoutError:
                    return None
        return None


def _device_for(layouts, values):
    from .. import tt  # lazy: the tt family, for a stand-in device

    dev = layouts.device()
    if dev is not None:
        return dev, ""
    grids = [tuple(v.grid) for v in values if hasattr(v, "grid")]
    rank = max((len(g) for g in grids), default=2)
    shape = tuple(max([8] + [g[i] for g in grids if len(g) == rank]) for i in range(rank))
    dims = ", ".join(f"d{i}" for i in range(rank))
    return tt.Device(shape, f"({dims}) -> (0, {dims})"), f"no #ttcore.device: a single chip of {'x'.join(map(str, shape))} cores assumed"


def moves(module, layouts: Layouts) -> list:
    """Every layout-changing op of a tt-mlir ``module``, priced (:class:`Move`).

    >>> from unilayout.lens import mlir
    >>> moves(mlir.read_module("module {\\n}"), None)
    []
    """
    ops = [(fn.name, op) for fn in module.functions for op in fn.ops if op.name in LAYOUT_OPS]
    if not ops:
        return []
    values = [layouts.get(s.text) for _, op in ops for s in op.spans]
    device, assumed = _device_for(layouts, [v for v in values if v is not None and not isinstance(v, Exception)])
    return [_price(fname, op, module, layouts, device, assumed) for fname, op in ops]


def _price(fname, op, module, layouts, device, assumed) -> Move:
    from ..plan import reshard_cost  # lazy: the planner loads numpy-heavy transfer tables only when pricing

    loc = module.location(op.location)
    srcv = op.operands[0] if op.operands else ""
    dstv = op.results[0] if op.results else ""
    if not op.spans:
        return Move(fname, op.name, op.line, loc, srcv, dstv, "", "", "unknown", None, None, None, None, None, None,
                    "no tensor type on the line")
    src, dst = op.spans[0].text, op.spans[-1].text
    a, b = layouts.get(src), layouts.get(dst)
    base = (fname, op.name, op.line, loc, srcv, dstv, src, dst)
    for x in (a, b):
        if isinstance(x, Exception):
            return Move(*base, "unknown", None, None, None, None, None, None, str(x))
    if a is None or b is None:
        side = b if a is None else a
        nbytes = _host_bytes(side)
        level = "host to device" if a is None else "device to host"
        return Move(*base, level, nbytes, None, None, None, None, None, "")
    try:
        c = reshard_cost(a, b, device)
    except LayoutError as e:
        return Move(*base, "unknown", None, None, None, None, None, None, str(e))
    if c.moved_bytes == 0:
        level = "in place" + (f" ({c.reinterpretation})" if c.reinterpretation is not None else "")
    elif c.chip_to_chip_bytes:
        level = "chip to chip"
    elif c.on_chip_bytes:
        level = "on chip (NoC)"
    else:
        level = "local reblocking"
    total = c.local_bytes + c.on_chip_bytes + c.chip_to_chip_bytes
    return Move(*base, level, total, c.local_bytes, c.on_chip_bytes, c.chip_to_chip_bytes, c.transfers,
                c.padding_bytes, assumed)


def _host_bytes(layout):
    try:
        from .. import tt  # lazy: as above

        n = 1
        for s in layout.logical_shape:
            n *= int(s)
        return n * tt.memory.element_bytes(layout.element_type)
    except (AttributeError, LayoutError, TypeError):
        return None
