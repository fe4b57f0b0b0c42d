"""The CuTe families' records: layouts (``CUTE``) and tiled MMAs/copies (``TILED``).

``CUTE`` holds ``Layout``, ``ComposedLayout`` and a bare ``Swizzle`` (drawn
and tabulated as its layout view, ``swizzle_layout``); its domain is the 1-D
coordinate, its box ``product_each(shape)``. ``TILED`` holds ``TiledMMA`` and
``TiledCopy`` as CUTLASS describes them (``SM80_16x8x16_F32F16F16F32_TN
(2,2,1)``, ``make_tiled_copy(Copy_Atom<..>, thr, val)``); their table is the
thread-value layout (C for an MMA, the copy's ``layout_tv``).

>>> from unilayout import cute
>>> CUTE.box(cute.parse("(2,(2,2)):(4,(1,2))")), CUTE.rank(cute.parse("(2,(2,2)):(4,(1,2))"))
((2, 4), 3)
>>> CUTE.facts(cute.Layout((2, 4), (4, 1)), None)["contiguity"]
1
>>> mma = TILED.parse("SM80_16x8x16_F32F16F16F32_TN (2,2,1)")
>>> TILED.facts(mma, None)["tile_mnk"], TILED.box(mma), TILED.canonical(mma)
([32, 16, 16], (128, 4), 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (2,2,1):(1,2,0), (_,_,_))')
>>> TILED.parse(TILED.canonical(mma)) == mma
True
"""

from __future__ import annotations

import numpy as np

from .._family import Family, only_options
from .._ints import as_shape, check_table
from .._measures import MAX_TABULATE, table_facts
from ..draw.table import grid_text, too_big
from ..errors import LayoutError, NotRepresentableError, ParseError
from .basis import ScaledBasis, has_basis
from .coords import coordinate_columns, coordinate_labels
from .dyn import dyn_leaves, has_dyn
from .dyn_facts import dyn_facts
from .evaluate import index_map as _cute_index_map
from .inttuple import product_each
from .ir_print import ir_string, to_ir
from .ir_values import IRTuple, MemRef, Tile, bind_ir
from .layout import Layout, size
from .printing import layout_table
from .swizzle import ComposedLayout, Swizzle, swizzle_layout
from .text import parse
from .tiled import TiledMMA
from .tiled_copy import TiledCopy
from .tiled_copy_text import parse_tiled_copy
from .tiled_text import parse_tiled_mma

__all__ = ["CUTE", "TILED", "CuteFamily", "TiledFamily"]

def _picture():
    """This family's ``picture`` module, imported when a value is first drawn: reading a text loads no drawing kit."""
    from . import picture  # lazy: import time (the first parse of a text does not load the pictures)

    return picture


def _picture_basis():
    """The ``picture_basis`` module, imported when a basis-stride layout is first drawn."""
    from . import picture_basis  # lazy: import time (the first parse of a text does not load the pictures)

    return picture_basis


def _is_basis(x) -> bool:
    """A Layout whose values are coordinates (``(4,5):(1@0,1@1)``)."""
    return isinstance(x, Layout) and has_basis(x.stride)


def _picture_tiled():
    """The ``picture_tiled`` module, imported when a TiledMMA is first drawn: reading a text loads no drawing kit."""
    from . import picture_tiled  # lazy: import time (the first parse of a text does not load the pictures)

    return picture_tiled



def _tuple_text(t):
    return "(" + ",".join(_tuple_text(x) for x in t) + ")" if isinstance(t, tuple) else str(t)


def _onto(d) -> str:
    """The offsets a surjective layout covers: ``d["offsets"]`` when negative strides reach below 0."""
    return d.get("offsets") or f"0..{d['cosize'] - 1}"


def _basis_facts(d, L):
    """Facts of a layout with basis strides (``(4,8):(1@0,1@1)``): its values are coordinates, not offsets.

    ``coshape`` is the extent along each basis mode (``4@0,8@1``); injectivity is
    tabulated over coordinate rows, never over the (possibly huge) coordinate space.
    """
    shapes, strides, _ = L.flat()
    ext = {}
    for s, st in zip(shapes, strides):
        key, v = (st.mode, st.value) if type(st) is ScaledBasis else ("offset", st)
        ext[key] = ext.get(key, 0) + (s - 1) * abs(v)
    d["size"], d["rank"], d["depth"] = int(L.size), int(L.rank), int(L.depth)
    d["values"] = "coordinates (basis strides)"
    d["coshape"] = ",".join(f"{e + 1}@{_tuple_text(k)}" if k != "offset" else f"{e + 1}"
                            for k, e in ext.items() if e or k != "offset")
    if L.size > MAX_TABULATE or max(ext.values(), default=0) >= 1 << 62:
        d["note"] = f"size {L.size:,} or its coordinates are too large: injectivity not tabulated"
        return d
    keys = list(ext)
    rows = np.zeros((int(L.size), len(keys)), dtype=np.int64)
    idx, inner = np.arange(int(L.size), dtype=np.int64), 1
    for s, st in zip(shapes, strides):
        key, v = (st.mode, st.value) if type(st) is ScaledBasis else ("offset", st)
        rows[:, keys.index(key)] += (idx // inner % s) * v
        inner *= s
    d["injective"] = bool(len(np.unique(rows, axis=0)) == len(rows)) if len(keys) else int(L.size) <= 1
    return d


def _is_dynamic(x) -> bool:
    """A Layout or ComposedLayout whose layout still holds ``?`` leaves."""
    inner = x.inner if isinstance(x, ComposedLayout) else x
    return isinstance(inner, Layout) and (has_dyn(inner.shape) or has_dyn(inner.stride))


def _function(x):
    """The function a CuTe value stands for when tabulated or drawn: a memref its element offsets; a dynamic
    layout, a tile or an int tuple has none (LayoutError saying what is missing)."""
    if isinstance(x, MemRef):
        x = x.function()
    if isinstance(x, (IRTuple, Tile)):
        what = f"a {x.kind}" if isinstance(x, IRTuple) else "a tile"
        raise NotRepresentableError(f"{to_ir(x)} is {what}, not a layout: it has facts but no table or picture")
    if _is_dynamic(x):
        inner = x.inner if isinstance(x, ComposedLayout) else x
        named = ", ".join(f"{d} ({where})" for d, where in dyn_leaves(inner))
        raise LayoutError(f"layout {ir_string(x)} has dynamic leaves {named}: give their values to tabulate or draw "
                          "it (cute.bind(layout, values); --shape V0xV1.. on the command line, in reading order)")
    return x


def _ir_facts(x) -> dict:
    """Facts of the CuTe IR values that are not layouts (int tuples, tiles) and the head of a memref."""
    if isinstance(x, IRTuple):
        leaves = dyn_leaves(x.value)
        d = {"kind": x.kind, "value": str(x), "rank": x.rank, "static": x.is_static}
        if leaves:
            d["dynamic leaves"] = "; ".join(f"{leaf} ({where})" for leaf, where in leaves)
        return d
    if isinstance(x, Tile):
        return {"kind": "tile", "rank": x.rank, "modes": "; ".join("_ (pass-through)" if m is None else str(m)
                                                                    for m in x.modes), "static": x.is_static}
    d = {"kind": "memref", "element": x.element, "element_bits": x.element_bits, "space": x.space}
    if x.align is not None:
        d["align"] = x.align
    if x.swizzle is not None:
        d["pointer swizzle"] = f"S<{x.swizzle.bits},{x.swizzle.base},{x.swizzle.shift}> (on byte addresses)"
    d["layout"] = ir_string(x.layout)
    return d


class CuteFamily(Family):
    """CuTe ``Layout``/``ComposedLayout``/``Swizzle``: ``shape:stride``, ``Sw<B,M,S> o off o shape:stride``; CuTe
    IR's other values (``IRTuple``, ``Tile``, ``MemRef``: a memref stands for its function of element offsets)."""

    name, types = "cute", (Layout, ComposedLayout, Swizzle, MemRef, IRTuple, Tile)
    glosses = {"surjective": lambda v, d: f"yes (onto {_onto(d)})" if v is True else None}
    index_order, flat_domain = "F", True  # the 1-D coordinate, mode 0 fastest

    def parse(self, text, **given):
        return parse(text)

    def with_shape(self, x, shape):
        """A value with dynamic leaves and a ``shape``: the shape's numbers are their values, in reading order."""
        if _is_dynamic(x.layout if isinstance(x, MemRef) else x) or (isinstance(x, (IRTuple, Tile)) and
                                                                      not x.is_static):
            return bind_ir(x, shape)
        return x

    def canonical(self, x):
        return to_ir(x) if isinstance(x, (MemRef, IRTuple, Tile)) else str(x)

    def concrete(self, x):
        return _function(x)

    def index_map(self, x, shape=None):
        x = _function(x)
        if isinstance(x, Swizzle):
            if shape is None:
                n = x.size
            else:
                dims = as_shape(shape, "index_map: a swizzle's shape")
                if len(dims) != 1:
                    raise LayoutError(f"index_map: a swizzle's domain is [0, n): pass shape=(n,), got {shape!r}")
                n = dims[0]
            return x(np.arange(check_table(n, "index_map of a swizzle"), dtype=np.int64))
        self.refuse_shape(shape)
        if _is_basis(x):  # one column per basis mode the strides name: (N, k) coordinates
            return coordinate_columns(x)[1]
        return x.index_map()

    def box(self, x):
        if _is_dynamic(x.layout if isinstance(x, MemRef) else x):
            return None  # no box until its values are given (--shape: the values of its ? leaves, in order)
        x = _function(x)
        if isinstance(x, Swizzle):
            return (x.size,)
        ext = product_each(x.shape)
        return tuple(ext) if isinstance(ext, tuple) else (ext,)

    def facts(self, L, shape):
        d = {}
        if isinstance(L, (IRTuple, Tile)):
            return _ir_facts(L)
        if isinstance(L, MemRef):
            d = _ir_facts(L)
            try:
                L = L.function()
            except NotRepresentableError as e:
                d["note"] = str(e)
                return d
        if _is_dynamic(L):
            if isinstance(L, ComposedLayout):
                d.setdefault("swizzle", str(L.outer))
                d["offset"] = L.offset
                L = L.inner
            d.update(dyn_facts(L))
            return d
        if isinstance(L, Swizzle):
            d["bits"], d["base"], d["shift"] = L.bits, L.base, L.shift
            L = swizzle_layout(L)
            d["view"] = str(L)
        elif isinstance(L, ComposedLayout):
            d["swizzle"], d["offset"], d["inner"] = str(L.outer), L.offset, str(L.inner)
        else:
            d["shape"], d["stride"] = _tuple_text(L.shape), _tuple_text(L.stride)
        if isinstance(L, Layout) and has_basis(L.stride):
            return _basis_facts(d, L)
        d["size"], d["cosize"], d["rank"], d["depth"] = int(L.size), int(L.cosize), int(L.rank), int(L.depth)
        if L.size > MAX_TABULATE:
            d["note"] = f"size {L.size:,} is above {MAX_TABULATE:,}: injectivity and contiguity not tabulated"
            return d
        vals = _cute_index_map(L)
        # Negative strides (CuTe allows them) reach below 0: the offsets span lo..lo + cosize - 1.
        lo = sum((s - 1) * min(st, 0) for s, st in zip(*L.flat()[:2])) if isinstance(L, Layout) else 0
        hi = lo + int(L.cosize) - 1
        if vals.size:
            lo, hi = min(lo, int(vals.min())), max(hi, int(vals.max()))
        if lo:
            d["offsets"] = f"{lo}..{hi}"
        table_facts(d, vals, lo, hi)
        return d

    def tables(self, L, shape, max_cells):
        try:
            L = _function(L)
        except LayoutError as e:  # a dynamic layout, a tile, an int tuple: its facts say what is known
            return [("", str(e))]
        if isinstance(L, Swizzle):
            L = swizzle_layout(L)
        if L.size > max_cells:
            return [too_big("table", L.size, max_cells)]
        if _is_basis(L) and L.rank > 2:
            rows = size(L[0])
            labels = coordinate_labels(*coordinate_columns(L)).reshape(-1, rows).T
            w = max(len(t) for t in labels.reshape(-1))
            return [(f"rank {L.rank}: rows = mode 0, columns = modes 1.. (1-D order); values are coordinates",
                     "\n".join(" ".join(f"{t:>{w}}" for t in row) for row in labels))]
        if L.rank <= 2:
            return [("", layout_table(L))]
        rows = size(L[0])
        vals = _cute_index_map(L).reshape(-1, rows).T
        return [(f"rank {L.rank}: rows = mode 0, columns = modes 1.. (1-D order)",
                 grid_text(vals.reshape(-1), vals.shape))]

    def picture(self, x, *, color=None, tv=None, element_bytes=4, max_cells, labels=True, **rest):
        only_options(self.name, rest)
        x = _function(x)
        if isinstance(x, Swizzle):
            x = swizzle_layout(x)
        if _is_basis(x):
            if tv is not None or color not in (None, "index"):
                raise LayoutError(f"layout {x} has basis strides: its cells are coordinates, drawn without tv= or a "
                                  "colour mode")
            return _picture_basis().basis_scene(x, max_cells=max_cells, labels=labels is not False)
        if tv is not None:
            if color not in (None, "thread"):
                raise LayoutError("a thread-value picture is coloured by thread")
            return _picture().tv_scene(x, tuple(tv), max_cells=max_cells)
        return _picture().layout_scene(x, color, element_bytes=element_bytes, max_cells=max_cells,
                                       labels=labels is not False)

    def cells(self, x, shape=None, *, details=True):
        x = _function(x)
        if _is_basis(x):
            return _picture_basis().basis_cells(x, details=details)
        return _picture().layout_cells(x, details=details)

    def size(self, x, shape=None):
        x = _function(x)
        if isinstance(x, Swizzle):
            return x.size
        return size(x.inner if isinstance(x, ComposedLayout) else x)

    def rank(self, x):
        x = _function(x)
        inner = getattr(x, "inner", x)
        return len(inner.flat()[0]) if hasattr(inner, "flat") else 1


class TiledFamily(Family):
    """``TiledMMA``/``TiledCopy`` as CUTLASS names them; the table is the thread-value layout (C, or the copy's)."""

    name, types = "tiled", (TiledMMA, TiledCopy)
    index_order, flat_domain = "F", True  # the TV layout's 1-D coordinate

    def parse(self, text, **given):
        value = parse_tiled_mma(text)
        if value is None:
            value = parse_tiled_copy(text)
        if value is None:
            at = len(text) - len(text.lstrip())
            raise ParseError("expected a TiledMMA ('SM80_16x8x16_F32F16F16F32_TN (2,2,1)', 'make_tiled_mma(...)', "
                             "C++'s print(tiled_mma)) or a TiledCopy ('make_tiled_copy(Copy_Atom<OP, T>, thr, val)', "
                             "C++'s print(tiled_copy))", text, at)
        return value

    def with_shape(self, x, shape):
        """A value with dynamic leaves and a ``shape``: the shape's numbers are their values, in reading order."""
        if _is_dynamic(x.layout if isinstance(x, MemRef) else x) or (isinstance(x, (IRTuple, Tile)) and
                                                                      not x.is_static):
            return bind_ir(x, shape)
        return x

    def canonical(self, x):
        """CUTLASS's description that ``parse`` reads back: ``make_tiled_mma(ATOM, layout, perm)`` or
        ``make_tiled_copy_impl(Copy_Atom<OP, BITS>, layout_tv, tiler)``."""
        if isinstance(x, TiledCopy):
            tiler = "(" + ",".join(map(str, x.tiler_mn)) + ")"
            return f"make_tiled_copy_impl(Copy_Atom<{x.atom.name}, {x.atom.element_bits}>, {x.layout_tv}, {tiler})"
        return f"make_tiled_mma({x.atom.name}, {x.atom_layout_mnk}, {x._perm_str()})"

    @staticmethod
    def _tv(x):
        return x.layout_tv if isinstance(x, TiledCopy) else x.get_layoutC_TV()

    def index_map(self, x, shape=None):
        return _cute_index_map(self._tv(x))

    def box(self, x):
        ext = product_each(self._tv(x).shape)
        return tuple(ext) if isinstance(ext, tuple) else (ext,)

    def facts(self, x, shape):
        if isinstance(x, TiledCopy):
            return {"kind": "TiledCopy", "atom": x.atom.name, "element_bits": x.atom.element_bits,
                    "tiler_mn": list(x.tiler_mn), "threads": x.size, "layout_tv": str(x.layout_tv),
                    "layoutS_TV": str(x.get_layoutS_TV()), "layoutD_TV": str(x.get_layoutD_TV())}
        m, n, k = x.tile_size_mnk()
        return {"kind": "TiledMMA", "atom": x.atom.name, "thr_layout_vmnk": str(x.thr_layout_vmnk),
                "tile_mnk": [m, n, k], "threads": x.size, "layoutA_TV": str(x.get_layoutA_TV()),
                "layoutB_TV": str(x.get_layoutB_TV()), "layoutC_TV": str(x.get_layoutC_TV())}

    def checks(self, x, facts):
        return []

    def tables(self, x, shape, max_cells):
        """CuTe's own ``print`` of the TiledMMA / TiledCopy (its atom and layouts)."""
        return [("CuTe's print", str(x))]

    def picture(self, x, *, max_cells, **rest):
        only_options(self.name, rest)
        pictures = _picture_tiled()
        scene = pictures.tiled_copy_scene if isinstance(x, TiledCopy) else pictures.tiled_mma_scene  # source | dest.
        return scene(x, max_cells=max(max_cells, pictures.MAX_MMA_CELLS))

    canvas = False  # the explorer draws every operand cell with its holders

    def cells(self, x, shape=None, *, details=True):
        return _picture().tiled_cells(x)

    def rank(self, x):
        return 2


CUTE, TILED = CuteFamily(), TiledFamily()
FAMILIES = (CUTE, TILED)
