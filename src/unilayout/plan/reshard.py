"""What a reshard costs: bytes that stay on their core, cross the NoC, cross chips.

A *reshard* moves one logical tensor from layout ``src`` (on ``device``) to
layout ``dst`` (on ``dst_device``, by default the same device). Every
element has a source core and a destination core — ``locate`` on each
layout gives its grid coordinate, the device's grid map the physical core
``(chip, y, x)``. ``reshard_cost`` counts, exactly:

=======================  =========================================================
field                    what it counts (bytes = elements x element bytes)
=======================  =========================================================
``local_bytes``          elements whose source and destination core are the same
``on_chip_bytes``        elements that change core but not chip (NoC traffic)
``chip_to_chip_bytes``   elements that change chip (Ethernet traffic)
``max_send_bytes``       the most bytes one core sends to other cores
``max_receive_bytes``    the most bytes one core receives from other cores
``transfers``            distinct (source core, destination core) pairs that move data
``padding_bytes``        padding slots carried along when whole source pages move
``reinterpretation``     None, or the grid reinterpretation under which nothing moves
``in_place_bytes``       elements that keep their core *and* their slot in its buffer
                         (``relaid_bytes = local_bytes - in_place_bytes``: local reblocking)
=======================  =========================================================

A *page* is what tt-metal moves: a tile of a tilized layout, one shard row
(a "stick") of a scalar layout (as ``tt.memory.page_bytes``). For every
(source page, other destination core) pair the page's padding slots ride
along: that is ``padding_bytes``, the bytes moved for nothing.

Example: a 64x64 f32 tensor on a 2x2 grid, resharded to width sharding
(1x4 on an extra-wide view of the same 2x2 cores):

>>> from unilayout import tt
>>> dev = tt.Device((2, 2), "(d0, d1) -> (0, d0, d1)")
>>> src = tt.MetalLayout.from_collapse((64, 64), (2, 2))
>>> dst = tt.MetalLayout.from_collapse((64, 64), (1, 4))
>>> from unilayout.plan.regrid import reinterpret
>>> c = reshard_cost(src, dst, dev, dst_device=reinterpret(dev, "extra_wide").device)
>>> c.local_bytes, c.on_chip_bytes, c.chip_to_chip_bytes, c.transfers, c.max_send_bytes
(4096, 12288, 0, 6, 4096)

When ``dst`` is ``src`` seen through one of the device seed's grid
reinterpretations (transposed, extra wide, extra tall, staircase), nothing
crosses a core: the result names the reinterpretation and moves zero bytes.
The seed's ``exp -> transpose -> relu``: the transposed tensor, in the same
8x8 layout, is the original tensor with ``linear = (d1, d0)``:

>>> dev = tt.Device((8, 8), "(d0, d1) -> (0, d0, d1)")
>>> a = tt.MetalLayout.from_collapse((256, 256), (8, 8))
>>> aT = tt.MetalLayout((256, 256), "(d0, d1) -> (d1, d0)", (8, 8))
>>> c = reshard_cost(a, aT, dev)
>>> str(c.reinterpretation), c.moved_bytes, c.local_bytes
('transposed', 0, 262144)
>>> reshard_cost(a, aT, dev, reinterpret=False).moved_bytes   # without it, 56 of 64 blocks move
229376

The counting (``transfer_table``: exact element counts per source page and
destination core, without enumerating the whole tensor) is in
``unilayout.plan.transfers``; this module prices its table on the devices.
"""

from __future__ import annotations

import numpy as np

from .. import tt
from .._ints import as_positive
from ..errors import LayoutError
from .regrid import reinterpretations
from .transfers import _check_layout, _in_place_count, _in_place_tables, _Terms, transfer_table

__all__ = ["ReshardCost", "reshard_cost", "transfer_table"]


def _fits(grid, device):
    """True iff ``grid`` has the rank of ``device``'s grid and every dim at most the device's."""
    d = device.grid_shape
    return len(grid) == len(d) and all(a <= b for a, b in zip(grid, d))


def _check_fits(ml, device, what):
    if not isinstance(device, tt.Device):
        raise LayoutError(f"reshard_cost: {what} device must be a tt.Device, got {type(device).__name__}")
    if not _fits(ml.grid, device):
        g, d = ml.grid, device.grid_shape
        raise LayoutError(
                f"reshard_cost: the {what} grid {'x'.join(map(str, g))} does not fit the device grid "
                f"{'x'.join(map(str, d))}: same rank and every dim <= the device's"
            )


class ReshardCost:
    """The price of a reshard (fields in the module docstring); immutable, ``==`` by value.

    Besides the counters: ``element_bytes``; ``cores`` (int64 ``(n, 3)``, the
    physical cores ``(chip_id, y, x)`` of the devices, sorted) and
    ``traffic`` (int64 ``(n, n)``: bytes from core ``cores[i]`` to core
    ``cores[j]``; the diagonal is what stays local), which the heat map
    draws; ``src_device`` / ``dst_device``, the devices used.

    >>> from unilayout import tt
    >>> ml = tt.MetalLayout.from_collapse((32, 32), (2, 2))
    >>> c = reshard_cost(ml, ml, tt.Device((2, 2), "(d0, d1) -> (0, d0, d1)"))
    >>> c.moved_bytes, c.local_bytes, c.total_bytes, int(c.traffic.trace())
    (0, 4096, 4096, 4096)
    """

    __slots__ = ("local_bytes", "on_chip_bytes", "chip_to_chip_bytes", "max_send_bytes", "max_receive_bytes",
                 "transfers", "padding_bytes", "reinterpretation", "in_place_bytes", "element_bytes", "cores",
                 "traffic", "src_device", "dst_device")

    def __init__(self, **fields):
        for k in self.__slots__:
            object.__setattr__(self, k, fields[k])

    def __setattr__(self, name, value):
        raise AttributeError("ReshardCost is immutable")

    def _replace(self, **changes):
        fields = {k: getattr(self, k) for k in self.__slots__}
        fields.update(changes)
        return ReshardCost(**fields)

    @property
    def relaid_bytes(self) -> int:
        """Bytes that stay on their core but change slot (local reblocking: a local transpose, tilizing).

        >>> from unilayout import tt
        >>> dev = tt.Device((1, 1), "(d0, d1) -> (0, d0, d1)")
        >>> a = tt.MetalLayout.from_collapse((64, 64), (1, 1))
        >>> reshard_cost(a, a.tilize((32, 32)), dev).relaid_bytes       # tilizing in place: most elements move within the core
        15872
        """
        return self.local_bytes - self.in_place_bytes

    @property
    def moved_bytes(self) -> int:
        """Bytes that leave their core: ``on_chip_bytes + chip_to_chip_bytes``.

        >>> from unilayout import tt
        >>> a = tt.MetalLayout.from_collapse((8, 8), (2, 1))
        >>> reshard_cost(a, a.with_grid((1, 2)), tt.Device((2, 2), "(d0, d1) -> (0, d0, d1)")).moved_bytes
        192
        """
        return self.on_chip_bytes + self.chip_to_chip_bytes

    @property
    def total_bytes(self) -> int:
        """Bytes of the tensor: local plus moved.

        >>> from unilayout import tt
        >>> a = tt.MetalLayout.from_collapse((8, 8), (2, 1))
        >>> reshard_cost(a, a, tt.Device((2, 2), "(d0, d1) -> (0, d0, d1)")).total_bytes
        256
        """
        return self.local_bytes + self.moved_bytes

    def _key(self):
        return (self.local_bytes, self.on_chip_bytes, self.chip_to_chip_bytes, self.max_send_bytes,
                self.max_receive_bytes, self.transfers, self.padding_bytes,
                None if self.reinterpretation is None else self.reinterpretation.name, self.in_place_bytes,
                self.element_bytes)

    def __eq__(self, other):
        return (type(other) is ReshardCost and self._key() == other._key()
                and np.array_equal(self.cores, other.cores) and np.array_equal(self.traffic, other.traffic))

    def __hash__(self):
        return hash(self._key())

    def summary(self) -> dict:
        """The counters as a plain dict (``reinterpretation`` by name).

        >>> from unilayout import tt
        >>> ml = tt.MetalLayout.from_collapse((4, 4), (1, 1))
        >>> reshard_cost(ml, ml, tt.Device((1, 1), "(d0, d1) -> (0, d0, d1)")).summary()["local_bytes"]
        64
        """
        names = ("local_bytes", "on_chip_bytes", "chip_to_chip_bytes", "max_send_bytes", "max_receive_bytes",
                 "transfers", "padding_bytes", "reinterpretation", "in_place_bytes", "element_bytes")
        return dict(zip(names, self._key()))

    def __repr__(self):
        parts = ", ".join(f"{k}={v!r}" for k, v in self.summary().items())
        return f"ReshardCost({parts})"


def _physical(ml, device):
    cores = device.physical_cores()[tuple(slice(0, n) for n in ml.grid)]
    return cores.reshape(-1, 3)


def _price(table, src, dst, src_dev, dst_dev, eb, reinterpretation, core_ids=None):
    page, dcore, count = table
    st = _Terms(src, True)
    scores = page // st.pages_per_core
    sp = _physical(src, src_dev)
    dp = _physical(dst, dst_dev)
    if core_ids is None:
        every = np.concatenate([src_dev.physical_cores().reshape(-1, 3), dst_dev.physical_cores().reshape(-1, 3)])
        core_ids = np.unique(every, axis=0)
    cores = core_ids
    span = cores.max(axis=0) + 1 if cores.size else np.ones(3, dtype=np.int64)

    def code(a):
        return (a[:, 0] * span[1] + a[:, 1]) * span[2] + a[:, 2]

    lookup = {int(c): i for i, c in enumerate(code(cores))}
    s_idx = np.array([lookup[int(c)] for c in code(sp)], dtype=np.int64)[scores]
    d_idx = np.array([lookup[int(c)] for c in code(dp)], dtype=np.int64)[dcore]
    n = len(cores)
    traffic = np.bincount(s_idx * n + d_idx, weights=count, minlength=n * n).astype(np.int64).reshape(n, n) * eb
    same = s_idx == d_idx
    same_chip = cores[s_idx, 0] == cores[d_idx, 0]
    local = int(count[same].sum()) * eb
    on_chip = int(count[~same & same_chip].sum()) * eb
    c2c = int(count[~same_chip].sum()) * eb
    off = traffic.copy()
    np.fill_diagonal(off, 0)
    # padding carried by whole pages sent to another core
    moving = ~same
    if moving.any():
        up, inv = np.unique(page, return_inverse=True)
        per_page = np.bincount(inv.reshape(-1), weights=count).astype(np.int64)
        pad = st.page_slots - per_page[inv.reshape(-1)]
        padding = int(pad[moving].sum()) * eb
    else:
        padding = 0
    return ReshardCost(
        local_bytes=local, on_chip_bytes=on_chip, chip_to_chip_bytes=c2c,
        max_send_bytes=int(off.sum(axis=1).max()) if n else 0, max_receive_bytes=int(off.sum(axis=0).max()) if n else 0,
        transfers=int(np.count_nonzero(off)), padding_bytes=padding, reinterpretation=reinterpretation,
        in_place_bytes=None, element_bytes=eb, cores=cores, traffic=traffic, src_device=src_dev, dst_device=dst_dev,
    )


def _local_pairs(src, dst, src_dev, dst_dev):
    """``(k, 2)`` int64: (src grid flat, dst grid flat) pairs placed on the same physical core."""
    sp, dp = _physical(src, src_dev), _physical(dst, dst_dev)
    where = {tuple(c): b for b, c in enumerate(dp.tolist())}
    pairs = [(a, where[tuple(c)]) for a, c in enumerate(sp.tolist()) if tuple(c) in where]
    return np.array(pairs, dtype=np.int64).reshape(-1, 2)


def _with_in_place(cost, src, dst, tables=None):
    """``cost`` with ``in_place_bytes``: elements that keep their core and their slot in its buffer."""
    if tables is None:
        tables = _in_place_tables(src, dst)
    n = _in_place_count(tables, _local_pairs(src, dst, cost.src_device, cost.dst_device))
    return cost._replace(in_place_bytes=n * cost.element_bytes)


def reshard_cost(src, dst, device, *, dst_device=None, reinterpret=True, element_bytes=None) -> ReshardCost:
    """Price moving a tensor from layout ``src`` on ``device`` to layout ``dst`` (see the module docstring).

    ``dst_device`` (default ``device``) is where ``dst``'s grid lives. With
    ``reinterpret=True`` and no ``dst_device``: if ``dst`` does not fit
    ``device``'s grid, or something moves, the device seed's
    reinterpretations of ``device`` are tried in order and the first under
    which nothing leaves its core is returned (``reinterpretation`` set);
    otherwise the plain device's price (or, when ``dst`` fits only
    reinterpreted grids, the cheapest of those, with ``reinterpretation``
    None and ``dst_device`` saying which). ``element_bytes`` defaults to the
    size of ``src``'s element type.

    **Pre-conditions**: same logical shape; both maps injective on it; each
    grid of the device's rank and within its grid.
    **Post-conditions**: ``local + on_chip + chip_to_chip == volume * element_bytes``;
    ``traffic.sum()`` is that total and ``traffic.trace() == local_bytes``;
    ``reinterpretation`` is not None only when ``moved_bytes == 0``.

    >>> from unilayout import tt
    >>> dev = tt.Device.from_mesh(tt.SystemDesc(num_chips=2), (1, 2))          # 8x16 over two chips
    >>> a = tt.MetalLayout.from_collapse((256, 1024), (8, 16))
    >>> b = tt.MetalLayout.from_collapse((256, 1024), (8, 8))
    >>> c = reshard_cost(a, b, dev)
    >>> c.local_bytes, c.on_chip_bytes, c.chip_to_chip_bytes, c.max_receive_bytes
    (65536, 458752, 524288, 16384)
    """
    _check_layout(src, "src")
    _check_layout(dst, "dst")
    _check_fits(src, device, "src")
    if element_bytes is None:
        eb = tt.memory.element_bytes(src.element_type)
    else:
        eb = as_positive(element_bytes, "element_bytes")
    if dst_device is not None:
        _check_fits(dst, dst_device, "dst")
        table = transfer_table(src, dst)
        return _with_in_place(_price(table, src, dst, device, dst_device, eb, None), src, dst)
    table = transfer_table(src, dst)
    plain = _price(table, src, dst, device, device, eb, None) if _fits(dst.grid, device) else None
    if plain is not None and (plain.moved_bytes == 0 or not reinterpret):
        return _with_in_place(plain, src, dst)
    cands = [r for r in reinterpretations(device) if _fits(dst.grid, r.device)]
    priced = []
    for r in cands:
        try:
            r.device.physical_cores()
        except LayoutError:
            continue
        c = _price(table, src, dst, device, r.device, eb, None)
        if c.moved_bytes == 0:
            return _with_in_place(c._replace(reinterpretation=r), src, dst)
        priced.append(c)
    if plain is not None:
        return _with_in_place(plain, src, dst)
    if not priced:
        raise LayoutError(
            f"reshard_cost: the dst grid {'x'.join(map(str, dst.grid))} fits neither the device grid "
            f"{'x'.join(map(str, device.grid_shape))} nor any of its reinterpretations: pass dst_device"
        )
    return _with_in_place(min(priced, key=lambda c: (c.moved_bytes, c.chip_to_chip_bytes)), src, dst)
