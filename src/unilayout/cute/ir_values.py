"""The CuTe IR types that are not layouts: int tuples with their kind, tiles and memrefs.

CuTe IR types every value: besides ``!cute.layout`` it has

- ``!cute.int_tuple``, ``!cute.shape``, ``!cute.stride``, ``!cute.coord``: an
  int tuple and what it is (``IRTuple(kind, value)``); a shape may hold 0 or a
  negative leaf (padding), a stride basis leaves ``1@0``, a coordinate ``_``
  (``None``, the slice marker);
- ``!cute.tile<"[L0;L1;...]">``: one layout per mode, ``_`` to pass a mode
  through, or a nested tile (``Tile(*modes)``; an int ``n`` is the layout
  ``n:1``, as in CuTe C++);
- ``!cute.memref<f16, smem, align<1024>, S<3,4,3>, "layout">``: a view of
  memory (``MemRef``): the element type, the memory space, the alignment of
  its pointer in bytes, the swizzle its pointer applies to byte addresses,
  and its layout. The CuTe DSL prints the same as
  ``tensor<ptr<f16, smem, align<1024>, S<3,4,3>> o layout>``.

Each value is immutable and hashable, ``repr`` pastes back, ``str`` is CuTe
IR's string (the DSL's tensor print for a memref), ``to_ir()`` the type:

>>> from unilayout.cute import Layout
>>> from unilayout.cute.dyn import Dyn
>>> c = IRTuple("coord", (None, Dyn(), 1))
>>> c, str(c), c.to_ir()
(IRTuple('coord', (None, Dyn(), 1)), '(_,?,1)', '!cute.coord<"(_,?,1)">')
>>> t = Tile(Layout((2, 3), (1, 2)), None)
>>> t, t.to_ir()
(Tile(Layout((2, 3), (1, 2)), None), '!cute.tile<"[(2,3):(1,2);_]">')
>>> m = MemRef("f16", "gmem", Layout((128, Dyn()), (1, Dyn(div=8, bits=64))), align=16)
>>> print(m)
tensor<ptr<f16, gmem, align<16>> o (128,?):(1,?{i64 div=8})>
>>> m.to_ir()
'!cute.memref<f16, gmem, align<16>, "(128,?):(1,?{i64 div=8})">'
"""

from __future__ import annotations

import re

from .._ints import as_int
from ..errors import LayoutError, NotRepresentableError
from .basis import ScaledBasis
from .dyn import Dyn, bind, dyn_leaves, has_dyn
from .ir_print import ir_string, swizzle_string, tuple_string
from .layout import Layout
from .swizzle import ComposedLayout, Swizzle

__all__ = ["IRTuple", "Tile", "MemRef", "KINDS", "element_bits", "bind_ir"]

#: The kinds of CuTe IR int tuple, as their type names spell them.
KINDS = ("int_tuple", "shape", "stride", "coord")


def _leaf_ok(kind, v, where):
    t = type(v)
    if t is int or t is Dyn:
        return v
    if v is None:
        if kind != "coord":
            raise LayoutError(f"IRTuple: a {kind} has no '_' leaf (only a coord does), at {where}")
        return None
    if t is ScaledBasis:
        if kind not in ("stride", "int_tuple"):
            raise LayoutError(f"IRTuple: a {kind} has no basis leaf {v} (a stride does), at {where}")
        return v
    if isinstance(v, bool):
        raise LayoutError(f"IRTuple: leaf {v!r} at {where} is not an integer")
    try:
        return as_int(v, "IRTuple leaf")
    except LayoutError:
        raise LayoutError(f"IRTuple: leaf {v!r:.40} at {where} is not an int, a Dyn, a basis stride or None") from None


def _check(kind, t, path=()):
    if isinstance(t, (tuple, list)):
        return tuple(_check(kind, v, path + (i,)) for i, v in enumerate(t))
    return _leaf_ok(kind, t, "mode " + ".".join(map(str, path)) if path else "the top")


class IRTuple:
    """An int tuple typed as CuTe IR types it: ``kind`` is ``int_tuple``, ``shape``, ``stride`` or ``coord``.

    >>> s = IRTuple("shape", (Dyn(div=64), (2, 4)))
    >>> str(s), s.to_ir(), s.rank, s.is_static
    ('(?{div=64},(2,4))', '!cute.shape<"(?{div=64},(2,4))">', 2, False)
    >>> IRTuple("int_tuple", (1, None))
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: IRTuple: a int_tuple has no '_' leaf (only a coord does), at mode 1
    """

    __slots__ = ("kind", "value")

    def __init__(self, kind, value):
        if kind not in KINDS:
            raise LayoutError(f"IRTuple: kind must be one of {', '.join(KINDS)}, got {kind!r:.40}")
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "value", _check(kind, value))

    def __setattr__(self, name, value):
        raise AttributeError("IRTuple is immutable")

    @property
    def rank(self) -> int:
        """Top-level modes (1 for a leaf, as CuTe)."""
        return len(self.value) if type(self.value) is tuple else 1

    @property
    def is_static(self) -> bool:
        """No ``?`` leaf."""
        return not has_dyn(self.value)

    def __eq__(self, other):
        return type(other) is IRTuple and self.kind == other.kind and self.value == other.value

    def __hash__(self):
        return hash(("IRTuple", self.kind, self.value))

    def __repr__(self):
        return f"IRTuple({self.kind!r}, {self.value!r})"

    def __str__(self):
        return tuple_string(self.value)

    def ir_string(self) -> str:
        """The string inside the type's quotes."""
        return tuple_string(self.value)

    def to_ir(self) -> str:
        """``!cute.<kind><"...">``."""
        return f'!cute.{self.kind}<"{tuple_string(self.value)}">'


def _mode(m, where):
    if m is None or isinstance(m, (Layout, Tile)):
        return m
    if type(m) is Dyn:
        return Layout(m, 1)
    if isinstance(m, bool):
        raise LayoutError(f"Tile: mode {where} {m!r} is not a layout, an int, None or a Tile")
    try:
        return Layout(as_int(m, "Tile mode"), 1)
    except LayoutError:
        raise LayoutError(f"Tile: mode {where} {m!r:.40} is not a layout, an int, None or a Tile") from None


class Tile:
    """CuTe IR's tile: one layout per mode, ``None`` (``_``) to pass a mode through, or a nested Tile.

    ``Tile(8, 4)`` is ``Tile(Layout(8, 1), Layout(4, 1))`` (an int mode is the
    layout ``n:1``, as CuTe C++ reads ``Tile<_8,_4>``).

    >>> t = Tile(8, None, Tile(Layout((2, 2), (1, 4)), None))
    >>> str(t), t.rank
    ('[8:1;_;[(2,2):(1,4);_]]', 3)
    >>> Tile()
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: Tile: a tile has at least one mode
    """

    __slots__ = ("modes",)

    def __init__(self, *modes):
        if not modes:
            raise LayoutError("Tile: a tile has at least one mode")
        object.__setattr__(self, "modes", tuple(_mode(m, i) for i, m in enumerate(modes)))

    def __setattr__(self, name, value):
        raise AttributeError("Tile is immutable")

    @property
    def rank(self) -> int:
        """Number of modes."""
        return len(self.modes)

    @property
    def is_static(self) -> bool:
        """No ``?`` in any mode's layout."""
        return all(_static_mode(m) for m in self.modes)

    def __eq__(self, other):
        return type(other) is Tile and self.modes == other.modes

    def __hash__(self):
        return hash(("Tile", self.modes))

    def __repr__(self):
        return f"Tile({', '.join(map(repr, self.modes))})"

    def ir_string(self) -> str:
        """``[m0;m1;...]``, ``_`` for a pass-through mode."""
        return "[" + ";".join("_" if m is None else ir_string(m) for m in self.modes) + "]"

    __str__ = ir_string

    def to_ir(self) -> str:
        """``!cute.tile<"[...]">``."""
        return f'!cute.tile<"{self.ir_string()}">'


def _static_mode(m) -> bool:
    if m is None:
        return True
    if isinstance(m, Tile):
        return m.is_static
    return not (has_dyn(m.shape) or has_dyn(m.stride))


_BITS = re.compile(r"[a-z]*?(\d+)")


def element_bits(element: str) -> int:
    """Bits of a CuTe IR element type: ``f16`` 16, ``bf16`` 16, ``tf32`` 32, ``f8E4M3FN`` 8, ``f4E2M1FN`` 4, ``i1`` 1.

    >>> [element_bits(e) for e in ("f16", "bf16", "tf32", "f8E4M3FN", "f4E2M1FN", "i8", "i1", "f64")]
    [16, 16, 32, 8, 4, 8, 1, 64]
    """
    m = _BITS.match(element)
    if m is None or m.group(1).startswith("0"):
        raise LayoutError(f"MemRef: cannot tell the bits of element type {element!r:.40} (f16, bf16, i8, f8E4M3FN...)")
    return int(m.group(1))


class MemRef:
    """A CuTe IR memref: ``element`` type, memory ``space``, its ``layout``, pointer ``align`` and ``swizzle``.

    ``align`` is the pointer's alignment in bytes (None when the type has
    none); ``swizzle`` a ``Swizzle`` the pointer applies to byte addresses
    (``S<3,4,3>`` in the type). ``str`` is the CuTe DSL's print;
    ``function()`` the function of element offsets (the swizzle moved from
    bytes to elements, as a ``ComposedLayout``).

    >>> m = MemRef("f16", "smem", Layout((8, 64), (64, 1)), align=1024, swizzle=Swizzle(3, 4, 3))
    >>> print(m)
    tensor<ptr<f16, smem, align<1024>, S<3,4,3>> o (8,64):(64,1)>
    >>> m.to_ir()
    '!cute.memref<f16, smem, align<1024>, S<3,4,3>, "(8,64):(64,1)">'
    >>> str(m.function())
    'Sw<3,3,3> o 0 o (8,64):(64,1)'
    """

    __slots__ = ("element", "space", "layout", "align", "swizzle")

    def __init__(self, element, space, layout, *, align=None, swizzle=None):
        for what, v in (("element", element), ("space", space)):
            if not isinstance(v, str) or not v or any(c in v for c in ',<>"'):
                raise LayoutError(f"MemRef: {what} must be a name such as 'f16' or 'gmem', got {v!r:.40}")
        if not isinstance(layout, (Layout, ComposedLayout)):
            raise LayoutError(f"MemRef: layout must be a Layout or a ComposedLayout, got {type(layout).__name__}")
        if align is not None:
            align = as_int(align, "MemRef align")
            if align < 1 or align & (align - 1):
                raise LayoutError(f"MemRef: align must be a power of two (bytes), got {align}")
        if swizzle is not None and not isinstance(swizzle, Swizzle):
            raise LayoutError(f"MemRef: swizzle must be a Swizzle, got {type(swizzle).__name__}")
        object.__setattr__(self, "element", element)
        object.__setattr__(self, "space", space)
        object.__setattr__(self, "layout", layout)
        object.__setattr__(self, "align", align)
        object.__setattr__(self, "swizzle", swizzle)

    def __setattr__(self, name, value):
        raise AttributeError("MemRef is immutable")

    @property
    def element_bits(self) -> int:
        """Bits of one element (``f16``: 16)."""
        return element_bits(self.element)

    def function(self):
        """The memref's function of element offsets: its layout, under its swizzle moved to element units.

        A pointer swizzle ``S<B,M,S>`` acts on byte addresses; on elements of
        ``b`` bits it is ``Sw<B, M - log2(b/8), S>``.

        >>> MemRef("f32", "smem", Layout(64, 1), swizzle=Swizzle(2, 4, 3)).function()
        ComposedLayout(Swizzle(2, 2, 3), 0, Layout(64, 1))
        """
        if self.swizzle is None:
            return self.layout
        sw, bits = self.swizzle, self.element_bits
        if isinstance(self.layout, ComposedLayout):
            raise NotRepresentableError(f"memref {self.to_ir()}: a swizzled pointer over a composed layout is two "
                                        "swizzles; unilayout composes one")
        if bits < 8 or bits & (bits - 1):
            raise NotRepresentableError(f"memref {self.to_ir()}: {self.element} elements are {bits} bits; a byte "
                                        "swizzle is a function of element offsets only for whole power-of-two bytes")
        base = sw.base - ((bits // 8).bit_length() - 1)  # log2(bytes per element)
        if base < 0:
            raise NotRepresentableError(f"memref {self.to_ir()}: {swizzle_string(sw)} on byte addresses moves bits "
                                        f"inside a {bits}-bit element: not a function of element offsets")
        return ComposedLayout(Swizzle(sw.bits, base, sw.shift), 0, self.layout)

    def _head(self, sep):
        parts = [self.element, self.space]
        if self.align is not None:
            parts.append(f"align<{self.align}>")
        if self.swizzle is not None:
            parts.append(swizzle_string(self.swizzle))
        return sep.join(parts)

    def __eq__(self, other):
        return type(other) is MemRef and (self.element, self.space, self.layout, self.align, self.swizzle) == (
            other.element, other.space, other.layout, other.align, other.swizzle)

    def __hash__(self):
        return hash(("MemRef", self.element, self.space, self.layout, self.align, self.swizzle))

    def __repr__(self):
        extra = "".join(f", {k}={getattr(self, k)!r}" for k in ("align", "swizzle") if getattr(self, k) is not None)
        return f"MemRef({self.element!r}, {self.space!r}, {self.layout!r}{extra})"

    def __str__(self):
        return f"tensor<ptr<{self._head(', ')}> o {ir_string(self.layout)}>"

    def ir_string(self) -> str:
        """The layout's string (what the type quotes)."""
        return ir_string(self.layout)

    def to_ir(self) -> str:
        """``!cute.memref<elem, space[, align<N>][, S<B,M,S>], "layout">``."""
        return f'!cute.memref<{self._head(", ")}, "{ir_string(self.layout)}">'


def _count(x) -> int:
    if isinstance(x, Tile):
        return sum(_count(m) for m in x.modes if m is not None)
    if isinstance(x, ComposedLayout):
        return _count(x.inner)
    return len(dyn_leaves(x))


def bind_ir(x, values):
    """``cute.bind``: the value of ``x`` once its dynamic leaves have ``values``, for every CuTe IR value.

    A Layout, ComposedLayout or int tuple binds as ``cute.dyn.bind`` does; a
    memref binds its layout, an IRTuple its value, a tile each mode. Values go
    to the dynamic leaves in reading order (the order they print in); a value
    a leaf does not admit (not a multiple of its ``div``, past its width, a
    size below 1) is a LayoutError naming the leaf.

    >>> bind_ir(Layout((Dyn(), 4), (1, Dyn(div=4))), [8, 8])
    Layout((8, 4), (1, 8))

    >>> bind_ir(MemRef("f32", "gmem", Layout((Dyn(), 4), (4, 1)), align=16), [8]).to_ir()
    '!cute.memref<f32, gmem, align<16>, "(8,4):(4,1)">'
    >>> bind_ir(Tile(Layout(Dyn(), 1), None, Layout(4, Dyn(div=2))), [16, 6])
    Tile(Layout(16, 1), None, Layout(4, 6))
    >>> bind_ir(IRTuple("coord", (None, Dyn())), [3])
    IRTuple('coord', (None, 3))
    """
    try:
        values = list(values)
    except TypeError:
        raise LayoutError(f"bind: the values must be a list of ints, got {values!r:.60}") from None
    if isinstance(x, MemRef):
        return MemRef(x.element, x.space, bind(x.layout, values), align=x.align, swizzle=x.swizzle)
    if isinstance(x, IRTuple):
        return IRTuple(x.kind, bind(x.value, values))
    if isinstance(x, Tile):
        need = _count(x)
        if need != len(values):
            raise LayoutError(f"bind: tile {x} has {need} dynamic leaves but {len(values)} values")
        out, at = [], 0
        for m in x.modes:
            n = 0 if m is None else _count(m)
            out.append(None if m is None else bind_ir(m, values[at:at + n]))
            at += n
        return Tile(*out)
    return bind(x, values)
