"""``SystemDesc``: the chips a device is a view over (tt-mlir's ``#tt.system_desc``, one uniform chip kind).

A system is ``num_chips`` identical chips, each a ``chip_grid`` of Tensix
worker cores with ``l1_size`` bytes of L1 SRAM each, plus ``num_dram_channels``
DRAM channels of ``dram_channel_size`` bytes. tt-mlir's descriptor lists each
chip (harvested chips may have smaller grids; tt-mlir then uses the minimum);
unilayout keeps one chip description for all chips.

>>> wh = SystemDesc.wormhole_b0(2)
>>> wh.chip_grid, wh.l1_size, wh.num_dram_channels, wh.num_cores
((8, 8), 1499136, 12, 128)
>>> SystemDesc.blackhole().chip_grid
(10, 13)
"""

from __future__ import annotations

from .._ints import as_int
from ..errors import LayoutError

__all__ = ["SystemDesc", "SUPPORTED_TILE_SHAPES"]

# tt-mlir's supported_tile_sizes of Wormhole and Blackhole (height x width).
SUPPORTED_TILE_SHAPES = ((4, 16), (16, 16), (32, 16), (4, 32), (16, 32), (32, 32))


def _pos_int(value, what, minimum=1):
    v = as_int(value, what)
    if v < minimum:
        raise LayoutError(f"{what} must be >= {minimum}, got {v}")
    return v


class SystemDesc:
    """A system of ``num_chips`` identical chips: immutable, hashable, ``==`` by value.

    ``SystemDesc(chip_grid=(8, 8), num_chips=1, *, arch="wormhole_b0",
    l1_size=1499136, num_dram_channels=12, dram_channel_size=1 << 30,
    l1_alignment=16, dram_alignment=32, l1_unreserved_base=1024,
    dram_unreserved_base=1024, tile_shapes=SUPPORTED_TILE_SHAPES)``.
    The defaults are tt-mlir's Wormhole B0 numbers.

    >>> s = SystemDesc((8, 8), 8)
    >>> s.num_chips, s.chip_ids
    (8, (0, 1, 2, 3, 4, 5, 6, 7))
    >>> s == SystemDesc.wormhole_b0(8)
    True
    """

    __slots__ = ("chip_grid", "num_chips", "arch", "l1_size", "num_dram_channels", "dram_channel_size",
                 "l1_alignment", "dram_alignment", "l1_unreserved_base", "dram_unreserved_base", "tile_shapes")

    def __init__(self, chip_grid=(8, 8), num_chips=1, *, arch="wormhole_b0", l1_size=1499136, num_dram_channels=12,
                 dram_channel_size=1 << 30, l1_alignment=16, dram_alignment=32, l1_unreserved_base=1024,
                 dram_unreserved_base=1024, tile_shapes=SUPPORTED_TILE_SHAPES):
        try:
            grid = tuple(chip_grid)
        except TypeError:
            raise LayoutError(f"chip_grid must be (rows, columns), got {chip_grid!r}") from None
        if len(grid) != 2:
            raise LayoutError(f"chip_grid must be (rows, columns), got {chip_grid!r}")
        grid = tuple(_pos_int(v, "chip grid dim") for v in grid)
        if not isinstance(arch, str) or not arch:
            raise LayoutError(f"arch must be a name, got {arch!r}")
        try:
            tiles = tuple((_pos_int(h, "tile height"), _pos_int(w, "tile width")) for h, w in tile_shapes)
        except (TypeError, ValueError):
            raise LayoutError(f"tile_shapes must be (height, width) pairs, got {tile_shapes!r}") from None
        s = object.__setattr__
        s(self, "chip_grid", grid)
        s(self, "num_chips", _pos_int(num_chips, "num_chips"))
        s(self, "arch", arch)
        s(self, "l1_size", _pos_int(l1_size, "l1_size"))
        s(self, "num_dram_channels", _pos_int(num_dram_channels, "num_dram_channels"))
        s(self, "dram_channel_size", _pos_int(dram_channel_size, "dram_channel_size"))
        s(self, "l1_alignment", _pos_int(l1_alignment, "l1_alignment"))
        s(self, "dram_alignment", _pos_int(dram_alignment, "dram_alignment"))
        s(self, "l1_unreserved_base", _pos_int(l1_unreserved_base, "l1_unreserved_base", 0))
        s(self, "dram_unreserved_base", _pos_int(dram_unreserved_base, "dram_unreserved_base", 0))
        s(self, "tile_shapes", tiles)
        if self.l1_unreserved_base >= self.l1_size:
            raise LayoutError(f"l1_unreserved_base {self.l1_unreserved_base} must be below l1_size {self.l1_size}")

    @classmethod
    def wormhole_b0(cls, num_chips: int = 1) -> "SystemDesc":
        """Wormhole B0 chips: 8x8 workers, 1,499,136 B L1 each, 12 DRAM channels of 1 GiB, alignment 16/32 B.

        >>> SystemDesc.wormhole_b0().dram_channel_size
        1073741824
        """
        return cls((8, 8), num_chips)

    @classmethod
    def blackhole(cls, num_chips: int = 1) -> "SystemDesc":
        """Blackhole chips: 10x13 workers, 1,572,864 B L1 each, 8 DRAM channels of 4 GiB, alignment 16/64 B.

        >>> SystemDesc.blackhole(2).num_cores
        260
        """
        return cls((10, 13), num_chips, arch="blackhole", l1_size=1572864, num_dram_channels=8,
                   dram_channel_size=4 << 30, dram_alignment=64)

    @property
    def chip_ids(self) -> tuple:
        """The ids of the chips, ``0 .. num_chips - 1``.

        >>> SystemDesc(num_chips=3).chip_ids
        (0, 1, 2)
        """
        return tuple(range(self.num_chips))

    @property
    def num_cores(self) -> int:
        """Worker cores over all chips.

        >>> SystemDesc((8, 8), 4).num_cores
        256
        """
        return self.chip_grid[0] * self.chip_grid[1] * self.num_chips

    def _fields(self):
        return tuple(getattr(self, k) for k in self.__slots__)

    def __setattr__(self, name, value):
        raise AttributeError("SystemDesc is immutable")

    def __eq__(self, other):
        return type(other) is SystemDesc and other._fields() == self._fields()

    def __hash__(self):
        return hash(self._fields())

    def __reduce__(self):
        return (_rebuild, (self._fields(),))

    def __repr__(self):
        if self == SystemDesc.wormhole_b0(self.num_chips):
            return f"SystemDesc.wormhole_b0({self.num_chips})"
        if self == SystemDesc.blackhole(self.num_chips):
            return f"SystemDesc.blackhole({self.num_chips})"
        default = SystemDesc()
        extra = "".join(
            f", {k}={getattr(self, k)!r}" for k in self.__slots__[2:] if getattr(self, k) != getattr(default, k)
        )
        return f"SystemDesc({self.chip_grid!r}, {self.num_chips}{extra})"


def _rebuild(fields):
    names = SystemDesc.__slots__
    kw = dict(zip(names[2:], fields[2:]))
    return SystemDesc(fields[0], fields[1], **kw)
