"""TTNN's own text: ``#ttnn.ttnn_layout<...>`` on a tensor, and ``#ttnn.memory_config<...>``.

tt-mlir's TTNN dialect prints a tensor's layout as

.. code-block:: text

    tensor<32x384xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x6>,
        memref<1x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, <block_sharded>>>

— the collapse map, the grid (optionally with its virtual-to-physical map),
one shard as a memref in a buffer (``dram``, ``l1``, ``system_memory``), and
the ``TensorMemoryLayout``. Its semantics are the seed form's (tt-mlir's
``calculateLogicalShardShapeForSharding``: ``shard = ceilDiv(linear(S - 1) +
1, grid)``, then tiles), so ``TTNNTensorLayout`` *is* a ``MetalLayout``:
``locate``, ``shard``, ``unshard``, ``padding_mask`` and pictures apply.
The one exception is L1 *interleaved* on several cores, whose memref counts
pages per bank (``calculateLogicalShardShapeForL1Interleaved``: ``1 x
ceilDiv(tiles, cores)`` tiles): its pages are not a grid split but go round
robin, tt-metal's interleaved buffer (page ``i`` = tile ``i`` of the
tile-padded image, row-major, is page slot ``i div n`` of core ``i mod n``,
the grid's cores row-major); ``shard``, ``locate``, ``index_map`` and the
padding follow the pages, ``to_metal`` refuses.

>>> from unilayout import tt
>>> L = tt.parse("tensor<32x384xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x6>, "
...              "memref<1x2x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>>>")
>>> L.shard_shape, L.memref_shape, L.locate(5, 300)
((32, 64), (1, 2), ((0, 4), (5, 44)))
>>> print(L.memory_config())
#ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<<[#ttnn.core_range<(0,0), (5,0)>]>, <32x64>, <row_major>>>

A ``MemoryConfig`` is TTNN's placement without a shape; ``to_metal(shape)``
gives the metal layout it means for a tensor, where one exists.
"""

from __future__ import annotations

import numpy as np

from ..affine import AffineMap
from ..errors import LayoutError, NotRepresentableError
from ._mlir import replaced, xs
from .metal.collapse import collapse_map
from .metal.metal import MetalLayout
from .ttnn.view import CoreRange, ShardSpec, TTNNLayout, core_ranges

__all__ = ["TTNNTensorLayout", "MemoryConfig", "BUFFER_TYPES", "TTNN_MEMORY_LAYOUTS", "config_facts"]

BUFFER_TYPES = ("dram", "l1", "system_memory", "l1_small", "trace")
TTNN_MEMORY_LAYOUTS = ("interleaved", "single_bank", "height_sharded", "width_sharded", "block_sharded")
_SPACE = {"dram": "dram", "l1": "l1", "l1_small": "l1", "system_memory": "system", "trace": "dram"}
_SHARDED = ("height_sharded", "width_sharded", "block_sharded")


def _core_range_text(r):
    return f"#ttnn.core_range<({r.start[0]},{r.start[1]}), ({r.end[0]},{r.end[1]})>"


def _ranges(value, what="core_ranges"):
    if value is None:
        return None
    try:
        out = tuple(r if isinstance(r, CoreRange) else CoreRange(tuple(r[0]), tuple(r[1])) for r in value)
    except (TypeError, IndexError):
        raise LayoutError(f"{what} must be CoreRange values or ((x0, y0), (x1, y1)) pairs, got {value!r}") from None
    for r in out:
        if len(r.start) != 2 or len(r.end) != 2 or any(int(v) < 0 for v in r.start + r.end):
            raise LayoutError(f"{what}: {r} must hold two (x, y) coordinates >= 0")
        if r.end[0] < r.start[0] or r.end[1] < r.start[1]:
            raise LayoutError(f"{what}: {r} ends before it starts")
    return out


class TTNNTensorLayout(MetalLayout):
    """A tensor with a ``#ttnn.ttnn_layout``: a ``MetalLayout`` that prints as TTNN text; immutable, ``==`` by value.

    ``TTNNTensorLayout(logical_shape, linear, grid, element_type="bf16",
    buffer_type="dram", memory_layout="interleaved", tile=None,
    tile_dtype=None, grid_map=None, core_ranges=None, exact_grid=None,
    tensor_mesh=None)``. ``memory_layout`` is None exactly for
    ``system_memory`` (tt-mlir's verifier). ``grid_map`` is the grid's
    virtual-to-physical map, carried; ``tensor_mesh`` is the name of the
    device mesh a multi-device tensor lives on (``mesh = <"mesh">``, tt-mlir's
    ``#ttcore.tensor_mesh``), carried and printed: each device holds this
    layout of its own shard.

    >>> L = TTNNTensorLayout((64, 128), "(d0, d1) -> (d0, d1)", (2, 4), buffer_type="l1",
    ...                      memory_layout="block_sharded", tile=(32, 32))
    >>> print(L)
    tensor<64x128xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <2x4>, memref<1x1x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, <block_sharded>>>
    >>> L.to_metal() == MetalLayout.from_collapse((64, 128), (2, 4), element_type="bf16", tile=(32, 32))
    True
    """

    __slots__ = ("buffer_type", "memory_layout", "grid_map", "core_ranges", "exact_grid", "interleaved_pages",
                 "tensor_mesh")

    def __init__(self, logical_shape, linear, grid, element_type="bf16", buffer_type="dram",
                 memory_layout="interleaved", tile=None, tile_dtype=None, grid_map=None, core_ranges=None,
                 exact_grid=None, tensor_mesh=None):
        if buffer_type not in BUFFER_TYPES:
            raise LayoutError(f"buffer type {buffer_type!r} is not one of {', '.join(BUFFER_TYPES)}")
        if memory_layout is not None and memory_layout not in TTNN_MEMORY_LAYOUTS:
            raise LayoutError(f"memory layout {memory_layout!r} is not one of {', '.join(TTNN_MEMORY_LAYOUTS)}")
        if buffer_type == "system_memory" and memory_layout is not None:
            raise LayoutError("Memory layout is not allowed for SystemMemory buffer type.")
        if buffer_type != "system_memory" and memory_layout is None:
            raise LayoutError("Memory layout is required for non-SystemMemory buffer type.")
        if isinstance(grid_map, str):
            grid_map = AffineMap.parse(grid_map)
        if grid_map is not None and not isinstance(grid_map, AffineMap):
            raise LayoutError(f"grid_map must be an AffineMap or its text, got {type(grid_map).__name__}")
        if exact_grid is not None and not isinstance(exact_grid, bool):
            raise LayoutError(f"exact_grid must be True, False or None, got {exact_grid!r}")
        if tensor_mesh is not None and (not isinstance(tensor_mesh, str) or not tensor_mesh or '"' in tensor_mesh
                                        or "\\" in tensor_mesh):
            raise LayoutError(f"tensor_mesh must be a mesh name (a non-empty string without quotes), got {tensor_mesh!r}")
        super().__init__(logical_shape, linear, grid, element_type, _SPACE[buffer_type], "undef", tile, tile_dtype)
        pages = buffer_type == "l1" and memory_layout == "interleaved" and len(self.grid) >= 1 and \
            any(g > 1 for g in self.grid)
        s = object.__setattr__
        if pages:
            if self.tile is None:
                raise LayoutError("an L1-interleaved TTNN layout on several cores must be tiled (its memref counts tiles)")
            phys = self.physical_shape
            tiles = 1
            for i, p in enumerate(phys):
                tiles *= -(-p // self.tile[i - len(phys) + 2]) if i >= len(phys) - 2 else p
            cores = 1
            for g in self.grid:
                cores *= g
            per = -(-tiles // cores)
            s(self, "shard_shape", (1,) * (len(self.grid) - 2) + (self.tile[0], per * self.tile[1]))
        s(self, "buffer_type", buffer_type)
        s(self, "memory_layout", memory_layout)
        s(self, "grid_map", grid_map)
        s(self, "core_ranges", _ranges(core_ranges))
        s(self, "exact_grid", exact_grid)
        s(self, "tensor_mesh", tensor_mesh)
        s(self, "interleaved_pages", pages)
        s(self, "_hash", hash(self._key()))

    @staticmethod
    def from_metal(ml) -> "TTNNTensorLayout":
        """The TTNN text form of a metal layout with the same placement, or ``NotRepresentableError`` why not.

        The memory layout is the one ``to_ttnn`` names (TTNN's collapse and a
        2-D grid are needed); a v2 layout goes through ``to_v1()``.

        >>> print(TTNNTensorLayout.from_metal(MetalLayout.from_collapse((64, 128), (2, 4), tile=(32, 32))).attribute())
        #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <2x4>, memref<1x1x!ttcore.tile<32x32, f32>, #ttnn.buffer_type<l1>>, <block_sharded>>
        """
        if not isinstance(ml, MetalLayout):
            raise LayoutError(f"from_metal: expected a MetalLayout, got {type(ml).__name__}")
        if isinstance(ml, TTNNTensorLayout):
            return ml
        if hasattr(ml, "to_v1") and type(ml) is not MetalLayout:
            ml = ml.to_v1()
        view = ml.to_ttnn()
        if ml.memory_space in ("system", "mmio"):
            buffer, layout = "system_memory", None
        else:
            buffer, layout = ml.memory_space, view.memory_layout.lower()
        return TTNNTensorLayout(ml.logical_shape, ml.linear, ml.grid, ml.element_type, buffer, layout, ml.tile,
                                ml.tile_dtype)

    def _key(self):
        return (self.logical_shape, self.linear, self.grid, self.element_type, self.buffer_type, self.memory_layout,
                self.tile, self.tile_dtype, self.grid_map, self.core_ranges, self.exact_grid, self.tensor_mesh)

    def _fields(self):
        return dict(logical_shape=self.logical_shape, linear=self.linear, grid=self.grid,
                    element_type=self.element_type, buffer_type=self.buffer_type, memory_layout=self.memory_layout,
                    tile=self.tile, tile_dtype=self.tile_dtype, grid_map=self.grid_map,
                    core_ranges=self.core_ranges, exact_grid=self.exact_grid, tensor_mesh=self.tensor_mesh)

    def __eq__(self, other):
        return type(other) is TTNNTensorLayout and other._hash == self._hash and other._key() == self._key()

    def __hash__(self):
        return self._hash

    def __reduce__(self):
        return (_rebuild, (tuple(self._fields().items()),))

    def __repr__(self):
        f = self._fields()
        parts = [repr(self.logical_shape), repr(str(self.linear)), repr(self.grid)]
        defaults = dict(element_type="bf16", buffer_type="dram", memory_layout="interleaved", tile=None,
                        tile_dtype=None, grid_map=None, core_ranges=None, exact_grid=None, tensor_mesh=None)
        for k, d in defaults.items():
            v = f[k]
            if v != d:
                parts.append(f"grid_map={str(v)!r}" if k == "grid_map" else f"{k}={v!r}")
        return f"TTNNTensorLayout({', '.join(parts)})"

    def replace(self, **changes) -> "TTNNTensorLayout":
        """A copy with some fields changed (validated again).

        >>> TTNNTensorLayout((64, 64), "(d0, d1) -> (d0, d1)", (1, 1)).replace(buffer_type="l1").memory_space
        'l1'
        """
        fields = self._fields()
        fields = replaced(fields, changes)
        return TTNNTensorLayout(**fields)

    # --- text ------------------------------------------------------------------------------
    def memref_type(self) -> str:
        """The shard's memref in its TTNN buffer.

        >>> TTNNTensorLayout((32, 32), "(d0, d1) -> (d0, d1)", (1, 1), tile=(32, 32), element_type="f32").memref_type()
        'memref<1x1x!ttcore.tile<32x32, f32>, #ttnn.buffer_type<dram>>'
        """
        elem = f"!ttcore.tile<{xs(self.tile)}, {self.tile_dtype}>" if self.tile else self.element_type
        return f"memref<{xs(self.memref_shape)}x{elem}, #ttnn.buffer_type<{self.buffer_type}>>"

    def attribute(self) -> str:
        """The ``#ttnn.ttnn_layout<...>`` attribute (one line).

        >>> TTNNTensorLayout((32, 32), "(d0, d1) -> (d0, d1)", (1, 1), buffer_type="system_memory",
        ...                  memory_layout=None).attribute()
        '#ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x32xbf16, #ttnn.buffer_type<system_memory>>>'
        """
        grid = xs(self.grid) + (f", {self.grid_map}" if self.grid_map is not None else "")
        parts = [str(self.linear), f"<{grid}>"]
        if self.tensor_mesh is not None:
            parts.append(f'mesh = <"{self.tensor_mesh}">')
        parts.append(self.memref_type())
        if self.memory_layout is not None:
            parts.append(f"<{self.memory_layout}>")
        if self.core_ranges is not None:
            parts.append("core_ranges = #ttnn.core_range_set<[" + ", ".join(_core_range_text(r) for r in
                                                                           self.core_ranges) + "]>")
        if self.exact_grid is not None:
            parts.append(f"exactGrid = {'true' if self.exact_grid else 'false'}")
        return f"#ttnn.ttnn_layout<{', '.join(parts)}>"

    def tensor_type(self) -> str:
        """``tensor<shape x elem, #ttnn.ttnn_layout<...>>``; ``tt.parse`` reads it back.

        >>> t = TTNNTensorLayout((32, 32), "(d0, d1) -> (d0, d1)", (1, 1))
        >>> t.tensor_type().startswith("tensor<32x32xbf16, #ttnn.ttnn_layout<")
        True
        """
        return f"tensor<{xs(self.logical_shape)}x{self.element_type}, {self.attribute()}>"

    def __str__(self):
        """``tensor_type()``: ``tt.parse(str(L)) == L``.

        >>> t = TTNNTensorLayout((32, 32), "(d0, d1) -> (d0, d1)", (1, 1))
        >>> str(t) == t.tensor_type()
        True
        """
        return self.tensor_type()

    # --- views ---------------------------------------------------------------------------
    def _refuse_pages(self, what):
        if self.interleaved_pages:
            raise NotRepresentableError(
                f"{what}: an L1-interleaved tensor spreads its {xs(self.memref_shape)}-tile pages round robin over "
                f"the {xs(self.grid)} banks, not as a grid split (shard/locate/index_map follow the pages)")

    def to_metal(self) -> MetalLayout:
        """The seed-form ``MetalLayout`` with the same placement (exact; L1-interleaved pages excepted).

        >>> L = TTNNTensorLayout((64, 64), "(d0, d1) -> (d0, d1)", (2, 2), buffer_type="l1",
        ...                      memory_layout="block_sharded")
        >>> L.to_metal().attribute()
        '#tt.metal_layout<(d0, d1) -> (d0, d1), undef, <2x2>, memref<32x32xbf16, #tt.memory_space<l1>>>'
        """
        self._refuse_pages("to_metal")
        return MetalLayout(self.logical_shape, self.linear, self.grid, self.element_type, self.memory_space,
                           "undef", self.tile, self.tile_dtype)

    def memory_config(self, orientation="row_major") -> "MemoryConfig":
        """The ``#ttnn.memory_config`` that places this tensor (the shard spec from ``core_ranges`` or the grid).

        >>> L = TTNNTensorLayout((256, 64), "(d0, d1) -> (d0, d1)", (8, 1), buffer_type="l1",
        ...                      memory_layout="height_sharded")
        >>> L.memory_config().shard_spec
        ShardSpec(grid=(CoreRange(start=(0, 0), end=(7, 0)),), shape=(32, 64), orientation='ROW_MAJOR')
        """
        if self.memory_layout not in _SHARDED:
            return MemoryConfig(self.buffer_type, self.memory_layout)
        o = str(orientation).upper()
        if self.core_ranges is not None:
            ranges = self.core_ranges
        elif len(self.grid) != 2:
            raise NotRepresentableError(f"TTNN shards over a 2-D grid, this layout's is {xs(self.grid)}")
        elif self.memory_layout == "block_sharded":
            gy, gx = self.grid if o == "ROW_MAJOR" else self.grid[::-1]
            ranges = (CoreRange((0, 0), (gx - 1, gy - 1)),)
        else:
            n = self.grid[0] if self.memory_layout == "height_sharded" else self.grid[1]
            ranges = core_ranges(n, (max(8, -(-n // 8)), 8) if o == "ROW_MAJOR" else (8, max(8, -(-n // 8))), o)
        shape = self.padded_shard_shape
        if len(shape) != 2:
            raise NotRepresentableError(f"a TTNN shard spec is 2-D, this shard is {xs(shape)}")
        return MemoryConfig(self.buffer_type, self.memory_layout, ShardSpec(ranges, shape, o))

    def view(self, orientation="row_major") -> TTNNLayout:
        """The ``TTNNLayout`` view (shape, PyTorch strides, shard shapes, tile, grid, memory layout, shard spec).

        >>> TTNNTensorLayout((2, 3, 64, 128), "(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)", (2, 4),
        ...                  buffer_type="l1", memory_layout="block_sharded").view().stride
        (24576, 8192, 128, 1)
        """
        cfg = self.memory_config(orientation)
        return TTNNLayout(shape=self.logical_shape, stride=self.get_stride(), shard_shape=self.shard_shape,
                          physical_shard_shape=self.padded_shard_shape, tile_shape=self.tile, grid_shape=self.grid,
                          memory_layout=(self.memory_layout or "interleaved").upper(),
                          buffer_type=self.buffer_type.upper(), shard_spec=cfg.shard_spec)

    # --- L1-interleaved pages ---------------------------------------------------------------
    # tt-metal's interleaved buffer puts page i in bank i mod n, as that bank's (i div n)-th page; a page of a
    # tiled tensor is one tile, tiles numbered row-major over the tile-padded physical (rows, columns) image.
    # tt-mlir's layout takes the grid's n cores as the banks (calculateLogicalShardShapeForL1Interleaved), so
    # here bank k is core k of the grid in row-major order, and a core's memref 1 x ceilDiv(tiles, n) tiles
    # holds its pages left to right: page slot j is columns j*tw .. j*tw+tw-1 of its (th, per*tw) shard.
    def _pages(self):
        """(image, tiles_per_row, pages, banks, per): the tile-padded physical image as a one-core layout, ..."""
        image = MetalLayout(self.logical_shape, self.linear, (1,) * len(self.grid), self.element_type,
                            self.memory_space, "undef", self.tile, self.tile_dtype)
        rows = 1
        for v in image.padded_shard_shape[:-1]:
            rows *= v
        per_row = image.padded_shard_shape[-1] // self.tile[1]
        banks = 1
        for g in self.grid:
            banks *= g
        return image, per_row, rows // self.tile[0] * per_row, banks, self.shard_shape[-1] // self.tile[1]

    def _page_slots(self, r, c):
        """Flat positions in ``shard()``'s output of physical (row, column) arrays (rows over all leading dims)."""
        th, tw = self.tile
        _, per_row, _, banks, per = self._pages()
        page = (r // th) * per_row + c // tw
        return (page % banks) * (th * per * tw) + (r % th) * (per * tw) + (page // banks) * tw + c % tw

    def _page_index_map(self):
        image = self._pages()[0]
        pos = image.index_map()  # row-major position in the padded physical image (one core)
        width = image.padded_shard_shape[-1]
        return self._page_slots(pos // width, pos % width)

    def index_map(self):
        """int64 (N,): each logical element's flat position in ``shard()``'s output (L1-interleaved: its page slot).

        >>> L = TTNNTensorLayout((64, 96), "(d0, d1) -> (d0, d1)", (1, 2), buffer_type="l1", tile=(32, 32))
        >>> int(L.index_map()[32 * 96 + 32]) // (32 * 64), L.shards_shape    # tile (1, 1) is page 4: bank 0
        (0, (1, 2, 32, 96))
        """
        if not self.interleaved_pages:
            return super().index_map()
        return self._page_index_map()

    def shard(self, array, out=None):
        """Elements per core, ``shards_shape``; L1-interleaved: pages round robin over the grid's cores (banks).

        Page ``i`` (tile ``i`` of the tile-padded physical image, row-major)
        is page slot ``i div n`` of core ``i mod n`` (row-major over the
        grid). Padding slots get ``oob_val``'s fill. ``unshard`` inverts it.

        >>> L = TTNNTensorLayout((32, 96), "(d0, d1) -> (d0, d1)", (1, 2), buffer_type="l1", tile=(32, 32))
        >>> s = L.shard(np.arange(32 * 96).reshape(32, 96))     # 3 tiles: pages 0, 2 on core 0, page 1 on core 1
        >>> s.shape, int(s[0, 0, 0, 32]), int(s[0, 1, 0, 0]), int(s[0, 1, 0, 32])
        ((1, 2, 32, 64), 64, 32, 0)
        """
        if not self.interleaved_pages:
            return super().shard(array, out=out)
        from .metal.shard import fill_value

        a = np.asarray(array)
        if a.shape != self.logical_shape:
            raise LayoutError(f"shard: array of shape {a.shape} is not the tensor's {self.logical_shape}")
        fill = fill_value(self, a.dtype)
        if out is None:
            out = np.empty(self.shards_shape, dtype=a.dtype)
        elif out.shape != self.shards_shape or out.dtype != a.dtype or not out.flags.c_contiguous:
            raise LayoutError(f"shard: out must be a C-contiguous {a.dtype} array of shape {self.shards_shape}")
        image, per_row, pages, banks, per = self._pages()
        th, tw = self.tile
        img = image.shard(a)  # the tile-padded physical image on one core (any linear map, tile padding filled)
        rows = pages // per_row
        if per_row % banks == 0:  # each tile row fills whole rounds of banks: one transposed copy
            q = per_row // banks  # tile column = j * banks + bank, page slot = tile row * q + j
            out.reshape(banks, th, rows, q, tw)[...] = img.reshape(rows, th, q, banks, tw).transpose(3, 1, 0, 2, 4)
            return out
        tiles = img.reshape(pages // per_row, th, per_row, tw).transpose(0, 2, 1, 3)  # (tile row, tile col, th, tw)
        tiles = tiles.reshape(pages, th, tw)
        full, rem = divmod(pages, banks)
        o = out.reshape(banks, th, per, tw)  # bank, tile row, page slot, tile column
        o[:, :, :full, :] = tiles[:full * banks].reshape(full, banks, th, tw).transpose(1, 2, 0, 3)
        if full < per:
            o[:rem, :, full, :] = tiles[full * banks:]
            o[rem:, :, full, :] = fill
            o[:, :, full + 1:, :] = fill
        return out

    def unshard(self, shards, out=None):
        """The tensor back from ``shard``'s output (padding slots ignored).

        >>> L = TTNNTensorLayout((40, 70), "(d0, d1) -> (d0, d1)", (2, 2), buffer_type="l1", tile=(32, 32))
        >>> a = np.arange(40 * 70).reshape(40, 70)
        >>> bool((L.unshard(L.shard(a)) == a).all())
        True
        """
        if not self.interleaved_pages:
            return super().unshard(shards, out=out)
        s = np.asarray(shards)
        if s.shape != self.shards_shape:
            raise LayoutError(f"unshard: shards of shape {s.shape} do not match {self.shards_shape}")
        image, per_row, pages, banks, per = self._pages()
        th, tw = self.tile
        if per_row % banks == 0:  # the inverse of shard's one transposed copy
            q, rows = per_row // banks, pages // per_row
            img = np.empty(image.shards_shape, dtype=s.dtype)
            img.reshape(rows, th, q, banks, tw)[...] = s.reshape(banks, th, rows, q, tw).transpose(2, 1, 3, 0, 4)
            return image.unshard(img, out=out)
        o = np.ascontiguousarray(s).reshape(banks, th, per, tw)
        tiles = np.empty((pages, th, tw), dtype=s.dtype)
        full, rem = divmod(pages, banks)
        tiles[:full * banks].reshape(full, banks, th, tw)[...] = o[:, :, :full, :].transpose(2, 0, 1, 3)
        if rem:
            tiles[full * banks:] = o[:rem, :, full, :]
        img = tiles.reshape(pages // per_row, per_row, th, tw).transpose(0, 2, 1, 3).reshape(image.shards_shape)
        return image.unshard(img, out=out)

    def padding_mask(self):
        """Boolean ``shards_shape``: True where no logical element lives (L1-interleaved: by page slot).

        >>> L = TTNNTensorLayout((32, 96), "(d0, d1) -> (d0, d1)", (1, 2), buffer_type="l1", tile=(32, 32))
        >>> L.padding_mask()[0, :, 0, ::32].tolist()       # core 1's second page slot holds no page
        [[False, False], [False, True]]
        """
        if not self.interleaved_pages:
            return super().padding_mask()
        mask = np.ones(self.shards_shape, dtype=bool)
        mask.reshape(-1)[self._page_index_map()] = False
        return mask

    def padding_summary(self):
        """Per-core extents, padding per dim and padding slots (L1-interleaved: the bounding box of held slots).

        >>> L = TTNNTensorLayout((32, 96), "(d0, d1) -> (d0, d1)", (1, 2), buffer_type="l1", tile=(32, 32))
        >>> L.padding_summary().slots.tolist(), L.padding_summary().total
        ([[0, 1024]], 1024)
        """
        if not self.interleaved_pages:
            return super().padding_summary()
        from .metal.shard import PaddingSummary

        held = ~self.padding_mask()
        g = len(self.grid)
        inner = tuple(range(g, held.ndim))
        ext = []
        for k in range(g, held.ndim):
            other = tuple(i for i in inner if i != k)
            used = held.any(axis=other) if other else held
            idx = np.arange(held.shape[k])
            ext.append(np.where(used.any(axis=-1), (used * (idx + 1)).max(axis=-1), 0))
        extent = np.stack(ext, axis=-1).astype(np.int64)
        padded = np.asarray(self.shards_shape[g:], dtype=np.int64)
        counts = (~held).sum(axis=inner).astype(np.int64)
        return PaddingSummary(extent, padded - extent, counts, int(counts.sum()))

    def locate(self, *index):
        """Logical index -> ``(grid_coord, shard_coord)`` (L1-interleaved: the core and slot of its page).

        >>> L = TTNNTensorLayout((32, 96), "(d0, d1) -> (d0, d1)", (1, 2), buffer_type="l1", tile=(32, 32))
        >>> L.locate(5, 70)                                  # tile 2 = page 2: core 0, second page slot
        ((0, 0), (5, 38))
        """
        if not self.interleaved_pages:
            return super().locate(*index)
        image = self._pages()[0]
        _, q = image.locate(*index)
        width = image.padded_shard_shape[-1]
        r = 0
        for v, n in zip(q[:-1], image.padded_shard_shape[:-1]):
            r = r * n + v
        flat = int(self._page_slots(np.int64(r), np.int64(q[-1])))
        coords = np.unravel_index(flat, self.shards_shape)
        g = len(self.grid)
        return tuple(int(v) for v in coords[:g]), tuple(int(v) for v in coords[g:])

    def logical_index(self, grid_coord, shard_coord):
        """``(G, q)`` -> the logical index stored there, or None for a padding slot (pages as in ``shard``).

        >>> L = TTNNTensorLayout((32, 96), "(d0, d1) -> (d0, d1)", (1, 2), buffer_type="l1", tile=(32, 32))
        >>> L.logical_index((0, 0), (5, 38)), L.logical_index((0, 1), (0, 32))
        ((5, 70), None)
        """
        if not self.interleaved_pages:
            return super().logical_index(grid_coord, shard_coord)
        G, q = tuple(int(v) for v in grid_coord), tuple(int(v) for v in shard_coord)
        if len(G) != len(self.grid) or any(not 0 <= v < n for v, n in zip(G, self.grid)):
            raise LayoutError(f"grid coordinate {G} is outside the grid {xs(self.grid)}")
        if len(q) != len(self.shard_shape) or any(not 0 <= v < n for v, n in zip(q, self.shard_shape)):
            raise LayoutError(f"shard coordinate {q} is outside the shard {xs(self.shard_shape)}")
        th, tw = self.tile
        image, per_row, pages, banks, _ = self._pages()
        bank = int(np.ravel_multi_index(G, self.grid))
        page = (q[-1] // tw) * banks + bank
        if page >= pages:
            return None
        r = (page // per_row) * th + q[-2]
        c = (page % per_row) * tw + q[-1] % tw
        lead = np.unravel_index(r, image.padded_shard_shape[:-1])
        return image.logical_index((0,) * len(self.grid), tuple(int(v) for v in lead) + (c,))

    def to_tiles(self, shards):
        """``shards`` tile-major as a core holds them (``grid + memref + tile``; L1-interleaved: its pages in order).

        >>> L = TTNNTensorLayout((32, 96), "(d0, d1) -> (d0, d1)", (1, 2), buffer_type="l1", tile=(32, 32))
        >>> L.to_tiles(L.shard(np.arange(32 * 96).reshape(32, 96))).shape
        (1, 2, 1, 2, 32, 32)
        """
        return super().to_tiles(shards)
    locate.__doc__ = MetalLayout.locate.__doc__.split("\n\n")[0]


def _rebuild(items):
    return TTNNTensorLayout(**dict(items))


class MemoryConfig:
    """TTNN's ``MemoryConfig``: buffer, memory layout and shard spec, without a tensor shape. Immutable, ``==`` by value.

    ``MemoryConfig(buffer_type, memory_layout=None, shard_spec=None, shard_mode=None)``;
    ``shard_spec`` is a ``tt.ShardSpec`` (core ranges in TTNN's (x, y), shard
    (rows, columns) in elements, orientation); ``shard_mode`` is the
    optional ``physical``/``logical`` of newer prints.

    >>> from unilayout import tt
    >>> c = tt.parse("#ttnn.memory_config<#l1, <block_sharded>, #ttnn.shard_spec<<[#ttnn.core_range<(0,0), (3,1)>]>, "
    ...              "<32x64>, <row_major>>>")
    >>> c.shard_spec.num_cores, c.to_metal((64, 256)).grid
    (8, (2, 4))
    """

    __slots__ = ("buffer_type", "memory_layout", "shard_spec", "shard_mode", "_hash")

    def __init__(self, buffer_type, memory_layout=None, shard_spec=None, shard_mode=None):
        if buffer_type not in BUFFER_TYPES:
            raise LayoutError(f"buffer type {buffer_type!r} is not one of {', '.join(BUFFER_TYPES)}")
        if memory_layout is not None and memory_layout not in TTNN_MEMORY_LAYOUTS:
            raise LayoutError(f"memory layout {memory_layout!r} is not one of {', '.join(TTNN_MEMORY_LAYOUTS)}")
        from .ndshard import NdShardSpec

        if isinstance(shard_spec, NdShardSpec):
            if shard_mode is not None:
                raise LayoutError("a shard mode goes with a 2-D shard spec, not an ND one")
        elif shard_spec is not None:
            if not isinstance(shard_spec, ShardSpec):
                raise LayoutError(f"shard_spec must be a tt.ShardSpec or tt.NdShardSpec, got {type(shard_spec).__name__}")
            o = str(shard_spec.orientation).upper()
            if o not in ("ROW_MAJOR", "COL_MAJOR"):
                raise LayoutError(f"orientation must be row_major or col_major, got {shard_spec.orientation!r}")
            shape = tuple(int(v) for v in shard_spec.shape)
            if len(shape) != 2 or min(shape) < 1:
                raise LayoutError(f"shard shape must be two sizes >= 1, got {shard_spec.shape!r}")
            shard_spec = ShardSpec(_ranges(shard_spec.grid, "shard spec cores"), shape, o)
        if memory_layout in _SHARDED and shard_spec is None:
            raise LayoutError(f"a {memory_layout} memory config needs a shard spec")
        if shard_mode is not None and shard_mode not in ("physical", "logical"):
            raise LayoutError(f"shard mode {shard_mode!r} is not physical or logical")
        for k, v in (("buffer_type", buffer_type), ("memory_layout", memory_layout), ("shard_spec", shard_spec),
                     ("shard_mode", shard_mode)):
            object.__setattr__(self, k, v)
        object.__setattr__(self, "_hash", hash((buffer_type, memory_layout, shard_spec, shard_mode)))

    def __setattr__(self, name, value):
        raise AttributeError("MemoryConfig is immutable")

    def _key(self):
        return (self.buffer_type, self.memory_layout, self.shard_spec, self.shard_mode)

    def __eq__(self, other):
        return type(other) is MemoryConfig and other._key() == self._key()

    def __hash__(self):
        return self._hash

    def __reduce__(self):
        return (MemoryConfig, self._key())

    def __repr__(self):
        return f"MemoryConfig({', '.join(repr(v) for v in self._key())})"

    def __str__(self):
        """The ``#ttnn.memory_config<...>`` text; ``tt.parse(str(c)) == c``.

        >>> print(MemoryConfig("dram", "interleaved"))
        #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>
        """
        parts = [f"#ttnn.buffer_type<{self.buffer_type}>"]
        if self.memory_layout is not None:
            parts.append(f"<{self.memory_layout}>")
        if self.shard_spec is not None and not isinstance(self.shard_spec, ShardSpec):
            parts.append(str(self.shard_spec))  # an NdShardSpec
        elif self.shard_spec is not None:
            sp = self.shard_spec
            inner = [f"<[{', '.join(_core_range_text(r) for r in sp.grid)}]>", f"<{xs(sp.shape)}>",
                     f"<{sp.orientation.lower()}>"]
            if self.shard_mode is not None:
                inner.append(f"<{self.shard_mode}>")
            parts.append(f"#ttnn.shard_spec<{', '.join(inner)}>")
        return f"#ttnn.memory_config<{', '.join(parts)}>"

    def to_metal(self, logical_shape, element_type="f32", tile=None, tile_dtype=None) -> MetalLayout:
        """The metal layout this config gives a tensor of ``logical_shape``, or ``NotRepresentableError`` with the reason.

        TTNN collapses all dims but the last into rows. Interleaved: grid 1x1
        (pages, not a grid split, in L1 over several banks: refused). Height /
        width / block sharding: the grid is the core count along rows /
        columns / the core rectangle (COL_MAJOR block transposes it); the
        shard spec must be the shard that grid gives (tile-padded when tiled).

        >>> MemoryConfig("dram", "interleaved").to_metal((64, 64)).attribute()
        '#tt.metal_layout<(d0, d1) -> (d0, d1), undef, <1x1>, memref<64x64xf32, #tt.memory_space<dram>>>'
        >>> c = MemoryConfig("l1", "height_sharded", ShardSpec((CoreRange((0, 0), (7, 0)),), (30, 64), "ROW_MAJOR"))
        >>> c.to_metal((256, 64))
        Traceback (most recent call last):
        ...
        unilayout.errors.NotRepresentableError: shard spec 30x64 is not the shard 32x64 of 256x64 on grid 8x1
        """
        shape = tuple(logical_shape) if hasattr(logical_shape, "__iter__") else (logical_shape,)
        rank = len(shape)
        linear = collapse_map(shape, 2)
        space = _SPACE[self.buffer_type]
        lay = self.memory_layout
        if lay is None or lay in ("interleaved", "single_bank"):
            if lay == "interleaved" and self.buffer_type == "l1":
                raise NotRepresentableError("L1-interleaved pages go round robin over the L1 banks: not a grid split")
            return MetalLayout(shape, linear, (1, 1), element_type, space, "undef", tile, tile_dtype)
        sp = self.shard_spec
        if not isinstance(sp, ShardSpec):  # an ND shard spec: exact as a grid split in two cases
            sp = _legacy(sp, shape)
        n = sp.num_cores
        if lay == "height_sharded":
            grid = (n, 1)
        elif lay == "width_sharded":
            grid = (1, n)
        else:
            if len(sp.grid) != 1:
                raise NotRepresentableError(f"block sharding over {len(sp.grid)} core ranges is not one grid")
            r = sp.grid[0]
            gx, gy = r.end[0] - r.start[0] + 1, r.end[1] - r.start[1] + 1
            grid = (gy, gx) if sp.orientation == "ROW_MAJOR" else (gx, gy)
        ml = MetalLayout(shape, linear, grid, element_type, space, "undef", tile, tile_dtype)
        if ml.padded_shard_shape != sp.shape:
            raise NotRepresentableError(f"shard spec {xs(sp.shape)} is not the shard {xs(ml.padded_shard_shape)} of "
                                        f"{xs(shape)} on grid {xs(grid)}")
        del rank
        return ml


def config_facts(value) -> dict:
    """The fields of a ``MemoryConfig``, ``NdShardSpec`` or ``TTNNNDTensorLayout`` as an ordered dict (``show``).

    A config has no tensor shape, so it is no layout: the facts are its
    fields, plus the cores it names; ``to_metal(shape)`` gives the layout it
    means for a tensor (``unilayout show TEXT --shape 64x256``). An ND
    tensor layout adds its shard grid, shards per core and its metal layout
    (``metal``: the text, or ``none:`` and why).

    >>> from unilayout import tt
    >>> f = config_facts(tt.parse("#ttnn.memory_config<#l1, <block_sharded>, #ttnn.shard_spec<<[#ttnn.core_range<"
    ...                           "(0,0), (3,1)>]>, <32x64>, <row_major>>>"))
    >>> f["kind"], f["memory_layout"], f["cores"], f["shard_shape"], f["core_ranges"]
    ('memory_config', 'block_sharded', 8, [32, 64], ['(0,0)-(3,1)'])
    >>> config_facts(tt.NdShardSpec((2, 32, 32), (8, 8)))["distribution"]
    'round_robin_1d'
    """
    from .ndshard import NdShardSpec

    def spec_facts(sp, d):
        if isinstance(sp, NdShardSpec):
            d["shard_shape"], d["distribution"] = list(sp.shard_shape), sp.distribution.lower()
            ranges = sp.core_grid
        else:
            d["shard_shape"] = list(sp.shape)
            ranges = sp.grid
        d["orientation"] = sp.orientation.lower()
        d["core_ranges"] = [f"({r.start[0]},{r.start[1]})-({r.end[0]},{r.end[1]})" for r in ranges]
        d["cores"] = sp.num_cores

    from .ttnn_nd import TTNNNDTensorLayout

    d = {}
    if isinstance(value, TTNNNDTensorLayout):  # a tensor with an ND layout: its fields, the spec, the metal form
        d["kind"] = "ttnn_nd_layout"
        d["logical_shape"], d["element_type"] = list(value.logical_shape), value.element_type
        d["grid"], d["memref_shape"] = list(value.grid), list(value.shard_shape)
        d["tile"] = list(value.tile) if value.tile else None
        d["buffer_type"], d["memory_layout"] = value.buffer_type, value.memory_layout
        spec_facts(value.nd_shard_spec(), d)
        try:
            d["shard_grid"] = list(value.nd_shard_spec().shard_grid(value.logical_shape))
            d["shards_per_core"] = list(value.shards_per_core())
            d["metal"] = value.to_metal().tensor_type()
        except LayoutError as e:
            d["metal"] = f"none: {e}"
        return d
    if isinstance(value, NdShardSpec):
        d["kind"] = "nd_shard_spec"
        spec_facts(value, d)
    elif isinstance(value, MemoryConfig):
        d["kind"] = "memory_config"
        d["buffer_type"], d["memory_layout"] = value.buffer_type, value.memory_layout
        if value.shard_spec is not None:
            d["shard_spec"] = "nd_shard_spec" if isinstance(value.shard_spec, NdShardSpec) else "shard_spec"
            spec_facts(value.shard_spec, d)
            if value.shard_mode is not None:
                d["shard_mode"] = value.shard_mode
    else:
        raise LayoutError(f"config_facts: expected a MemoryConfig or NdShardSpec, got {type(value).__name__}")
    d["note"] = "no tensor shape: give one (--shape 64x256) to see the layout it gives that tensor"
    return d


def _legacy(nd, shape):
    """The 2-D ``ShardSpec`` an ND spec equals on ``shape``, or ``NotRepresentableError`` why none does.

    GRID_2D with a 2-D shard is block sharding; ROUND_ROBIN_1D with at most
    one shard per core and full-width (full-height) shards is height (width)
    sharding.
    """
    if len(nd.shard_shape) != 2:
        raise NotRepresentableError(f"an ND shard {xs(nd.shard_shape)} is not a 2-D grid split")
    h = 1
    for v in shape[:-1]:
        h *= v
    w = shape[-1]
    grid = nd.shard_grid(shape)
    if nd.distribution == "ROUND_ROBIN_1D":
        if grid[0] * grid[1] > nd.num_cores:
            raise NotRepresentableError(f"{grid[0] * grid[1]} round-robin shards on {nd.num_cores} cores: some cores "
                                        "hold several, which no grid split does")
        if grid[1] != 1 and grid[0] != 1:
            raise NotRepresentableError(f"round-robin shards {xs(nd.shard_shape)} of {h}x{w} are neither full-width "
                                        "nor full-height")
    return ShardSpec(nd.core_grid, nd.shard_shape, nd.orientation)
