"""``TTNNTensorLayout``: a tensor with a ``#ttnn.ttnn_layout<...>``, TTNN's text for a metal layout.

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
the grid's cores row-major; ``pages.py``); ``shard``, ``locate``,
``index_map`` and the padding follow the pages, ``to_metal`` refuses.

>>> from unilayout import tt
>>> L = tt.parse("tensor<32x384xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x6>, "
...              "memref<1x2x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>>>")
>>> L.shard_shape, L.memref_shape, L.locate(5, 300)
((32, 64), (1, 2), ((0, 4), (5, 44)))
>>> print(L.memory_config())
#ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<<[#ttnn.core_range<(0,0), (5,0)>]>, <32x64>, <row_major>>>

``memory_config()`` is TTNN's placement of the tensor without its shape
(``memory_config.py``); ``view()`` is the ``TTNNLayout`` view (``view.py``).
"""

from __future__ import annotations

import numpy as np  # noqa: F401  (used by the examples)

from ...affine import AffineMap
from ...errors import LayoutError, NotRepresentableError
from .._mlir import replaced, xs
from ..metal.metal import MetalLayout
from ..ttnn_view import CoreRange, ShardSpec, TTNNLayout, core_ranges
from .memory_config import MemoryConfig
from .pages import Pages, page_shard_shape
from .placement import _SHARDED, _SPACE, BUFFER_TYPES, TTNN_MEMORY_LAYOUTS, check_core_ranges, core_range_text
from .virtual import VirtualGrid

__all__ = ["TTNNTensorLayout"]


def _verify(grid, buffer_type, memory_layout, core_ranges):
    """tt-mlir's ``TTNNLayoutAttr::verify`` beyond the buffer / memory-layout pairing (a ``LayoutError`` naming the rule).

    - only L1, and DRAM when sharded, may use a grid other than 1x1;
    - DRAM does not block-shard;
    - a DRAM-sharded layout carries its core ranges (DRAM sharding came to
      tt-mlir together with the core range set; before, DRAM had to be
      interleaved), and a layout that is not sharded carries none.

    An L1-sharded layout without core ranges is accepted: older tt-mlir
    printed them so (with ``exactGrid`` or nothing), and the cores follow
    from the grid.
    """
    sharded = memory_layout in _SHARDED
    if buffer_type == "dram" and memory_layout == "block_sharded":
        raise LayoutError("BlockSharded layout is not supported for DRAM buffer type; use WidthSharded, "
                          "HeightSharded or Interleaved")
    if not (buffer_type == "l1" or (buffer_type == "dram" and sharded)) and tuple(grid) != (1, 1):
        how = " with interleaved memory layout" if buffer_type == "dram" else ""
        raise LayoutError(f"expected (1, 1) grid shape for {buffer_type} buffer type{how}, got "
                          f"({', '.join(map(str, grid))})")
    if buffer_type == "dram" and sharded and core_ranges is None:
        raise LayoutError(f"sharded TTNN layout ({memory_layout}) must carry a core_range_set: tt-mlir shards DRAM "
                          "only with core_ranges = <[...]> (older revisions: DRAM buffer type must have Interleaved "
                          "memory layout)")
    if not sharded and core_ranges is not None:
        raise LayoutError(f"non-sharded TTNN layout must not carry a core_range_set (got "
                          f"{memory_layout or 'no memory layout'})")


def _virtual_grid(grid, memory_layout):
    """The one-column (height) or one-row (width) grid of every core a 2-D height/width-sharded layout uses, or None.

    tt-mlir reads ``<6x2>`` height-sharded as 12 shards of whole rows, shard
    ``k`` on core ``(k div 2, k mod 2)`` (row-major): the grid the rows are
    split over is ``12x1``. None when that is the grid itself.

    >>> _virtual_grid((6, 2), "height_sharded"), _virtual_grid((2, 6), "width_sharded"), _virtual_grid((8, 1), "height_sharded")
    ((12, 1), (1, 12), None)
    """
    if len(grid) != 2 or memory_layout not in ("height_sharded", "width_sharded"):
        return None
    n = grid[0] * grid[1]
    virtual = (n, 1) if memory_layout == "height_sharded" else (1, n)
    return None if tuple(grid) == virtual else virtual

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
        if pages:  # pages (tiles, or rows of a row-major layout) round robin over the cores
            s(self, "shard_shape", page_shard_shape(self.physical_shape, self.tile, self.grid))
        _verify(self.grid, buffer_type, memory_layout, core_ranges)
        virtual = _virtual_grid(self.grid, memory_layout)
        if virtual is not None:  # height / width sharding over every core of a 2-D grid
            s(self, "shard_shape", tuple(-(-p // g) for p, g in zip(self.physical_shape, virtual)))
        s(self, "buffer_type", buffer_type)
        s(self, "memory_layout", memory_layout)
        s(self, "grid_map", grid_map)
        s(self, "core_ranges", check_core_ranges(core_ranges))
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
        # tt-mlir shards DRAM only with its core ranges (the shard spec's cores); L1 may leave them to the grid
        ranges = view.shard_spec.grid if buffer == "dram" and layout in _SHARDED and view.shard_spec else None
        return TTNNTensorLayout(ml.logical_shape, ml.linear, ml.grid, ml.element_type, buffer, layout, ml.tile,
                                ml.tile_dtype, core_ranges=ranges)

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
            parts.append("core_ranges = <[" + ", ".join(core_range_text(r) for r in self.core_ranges) + "]>")
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
        virtual = _virtual_grid(self.grid, self.memory_layout)
        if virtual is not None:
            raise NotRepresentableError(
                f"{what}: {self.memory_layout} over the {xs(self.grid)} grid cuts {xs(virtual)} shards laid "
                f"row-major over its cores, not a split of each grid dim")
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

    def to_v2(self, memory_layout="sharded") -> MetalLayout:
        """The v2 ``#ttcore.metal_layout`` of the same shards (``MetalLayout.to_v2``), on the grid the shards are cut over.

        Height / width sharding over a 2-D grid cuts ``n`` = all the grid's
        cores shards along one dim, so its v2 grid is ``n x 1`` / ``1 x n``, the
        metal tensor tt-mlir's D2M lowering casts the TTNN tensor to
        (``ttir.ttnn_metal_layout_cast``, its ``getLegacyGrid``); virtual core
        ``k`` is physical core ``k`` of the grid, row-major, which tt-mlir
        carries on the cast as its virtual-grid maps, not in the type.

        >>> L = TTNNTensorLayout((384, 32), "(d0, d1) -> (d0, d1)", (6, 2), buffer_type="l1",
        ...                      memory_layout="height_sharded", tile=(32, 32))
        >>> L.to_v2().device_shape
        (12, 1, 1, 1)
        """
        virtual = _virtual_grid(self.grid, self.memory_layout)
        if virtual is None:
            return super().to_v2(memory_layout)
        cut = MetalLayout(self.logical_shape, self.linear, virtual, self.element_type, self.memory_space,
                          self.oob_val, self.tile, self.tile_dtype)
        return cut.to_v2(memory_layout)

    def memory_config(self, orientation="row_major") -> MemoryConfig:
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
            n = self.grid[0] * self.grid[1]  # height/width: every core of the grid holds one shard
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

    # --- L1-interleaved pages (pages.py) ----------------------------------------------------
    def _pages(self):
        """The placement that is not a grid split, built once: ``Pages`` (L1-interleaved on several cores),
        ``VirtualGrid`` (height/width sharding over a 2-D grid), or None (the metal layout's own)."""
        if "pages" not in self._cache:
            virtual = _virtual_grid(self.grid, self.memory_layout)
            self._cache["pages"] = Pages(self) if self.interleaved_pages else \
                VirtualGrid(self, virtual) if virtual is not None else None
        return self._cache["pages"]

    def index_map(self):
        """int64 (N,): each logical element's flat position in ``shard()``'s output (L1-interleaved: its page slot).

        >>> L = TTNNTensorLayout((64, 96), "(d0, d1) -> (d0, d1)", (1, 2), buffer_type="l1", tile=(32, 32))
        >>> int(L.index_map()[32 * 96 + 32]) // (32 * 64), L.shards_shape    # tile (1, 1) is page 4: bank 0
        (0, (1, 2, 32, 96))
        """
        if self._pages() is None:
            return super().index_map()
        return self._pages().index_map()

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
        if self._pages() is None:
            return super().shard(array, out=out)
        return self._pages().shard(array, out)

    def unshard(self, shards, out=None):
        """The tensor back from ``shard``'s output (padding slots ignored).

        >>> L = TTNNTensorLayout((40, 70), "(d0, d1) -> (d0, d1)", (2, 2), buffer_type="l1", tile=(32, 32))
        >>> a = np.arange(40 * 70).reshape(40, 70)
        >>> bool((L.unshard(L.shard(a)) == a).all())
        True
        """
        if self._pages() is None:
            return super().unshard(shards, out=out)
        return self._pages().unshard(shards, out)

    def padding_mask(self):
        """Boolean ``shards_shape``: True where no logical element lives (L1-interleaved: by page slot).

        >>> L = TTNNTensorLayout((32, 96), "(d0, d1) -> (d0, d1)", (1, 2), buffer_type="l1", tile=(32, 32))
        >>> L.padding_mask()[0, :, 0, ::32].tolist()       # core 1's second page slot holds no page
        [[False, False], [False, True]]
        """
        if self._pages() is None:
            return super().padding_mask()
        return self._pages().padding_mask()

    def padding_summary(self):
        """Per-core extents, padding per dim and padding slots (L1-interleaved: the bounding box of held slots).

        >>> L = TTNNTensorLayout((32, 96), "(d0, d1) -> (d0, d1)", (1, 2), buffer_type="l1", tile=(32, 32))
        >>> L.padding_summary().slots.tolist(), L.padding_summary().total
        ([[0, 1024]], 1024)
        """
        if self._pages() is None:
            return super().padding_summary()
        return self._pages().padding_summary()

    def locate(self, *index):
        """Logical index -> ``(grid_coord, shard_coord)`` (L1-interleaved: the core and slot of its page).

        >>> L = TTNNTensorLayout((32, 96), "(d0, d1) -> (d0, d1)", (1, 2), buffer_type="l1", tile=(32, 32))
        >>> L.locate(5, 70)                                  # tile 2 = page 2: core 0, second page slot
        ((0, 0), (5, 38))
        """
        if self._pages() is None:
            return super().locate(*index)
        return self._pages().locate(index)

    def logical_index(self, grid_coord, shard_coord):
        """``(G, q)`` -> the logical index stored there, or None for a padding slot (pages as in ``shard``).

        >>> L = TTNNTensorLayout((32, 96), "(d0, d1) -> (d0, d1)", (1, 2), buffer_type="l1", tile=(32, 32))
        >>> L.logical_index((0, 0), (5, 38)), L.logical_index((0, 1), (0, 32))
        ((5, 70), None)
        """
        if self._pages() is None:
            return super().logical_index(grid_coord, shard_coord)
        return self._pages().logical_index(grid_coord, shard_coord)


    def to_tiles(self, shards):
        """``shards`` tile-major as a core holds them (``grid + memref + tile``; L1-interleaved: its pages in order).

        >>> L = TTNNTensorLayout((32, 96), "(d0, d1) -> (d0, d1)", (1, 2), buffer_type="l1", tile=(32, 32))
        >>> L.to_tiles(L.shard(np.arange(32 * 96).reshape(32, 96))).shape
        (1, 2, 1, 2, 32, 32)
        """
        return super().to_tiles(shards)


def _rebuild(items):
    return TTNNTensorLayout(**dict(items))
