"""The CuTe ``Layout`` value: a shape and a congruent stride, a function from coordinates to offsets.

>>> L = Layout(((2, 2), 2), ((4, 1), 2))
>>> L
Layout(((2, 2), 2), ((4, 1), 2))
>>> str(L), L.size, L.cosize, L.rank, L.depth
('((2,2),2):((4,1),2)', 8, 8, 2, 2)
>>> [L(i) for i in range(8)]
[0, 4, 1, 5, 2, 6, 3, 7]
>>> L(1, 1), L((1, 0), 1), L((0, 1), 1)
(6, 6, 3)

Invariants, checked once on construction: shape and stride are congruent
IntTuples and every shape leaf is positive. The default stride is column-major
(LayoutLeft). Values are immutable, hashable and compare by structure (``6:1``
and ``(6):(1)`` are different layouts with the same function).
"""

from __future__ import annotations

from .._ints import as_int
from ..errors import LayoutError
from ._flat import basis_cosize, table
from .basis import as_coord, has_basis, normalize_stride
from .dyn import Dyn, DynFlat, check_bound, dyn_crd2idx, has_dyn, normalize_dyn
from .inttuple import _crd2idx as crd2idx
from .inttuple import (
    at_mode,
    congruent,
    depth,
    flatten,
    int_tuple_str,
    leaves,
    normalize,
    prefix_product,
    product,
    suffix_product,
    unflatten,
)

__all__ = [
    "Layout", "make_layout", "column_major", "row_major", "make_ordered_layout", "make_layout_like",
    "select", "group", "flatten_layout", "slice_and_offset", "size", "cosize", "rank", "depth_of", "DynLayout",
]


class Layout:
    """A CuTe layout ``shape:stride``: coordinates of ``shape`` to ``sum(crd * stride)``.

    ``Layout(shape, stride=None)`` takes nested tuples of ints (numpy ints too);
    the default stride is column-major. ``L(i)`` evaluates a 1-D coordinate,
    ``L(crd)`` / ``L(*crd)`` a natural or hierarchical one; a coordinate holding
    ``None`` (CuTe's ``_``) slices and gives the sub-layout of the kept modes.

    >>> L = Layout((4, 2), (2, 1))
    >>> L(5), L(1, 1), L(None, 1)
    (3, 3, Layout((4,), (2,)))
    >>> Layout((2, 3), (1,))
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: Layout: shape (2,3) and stride (1) are not congruent
    """

    __slots__ = ("shape", "stride", "_flat", "_hash")

    def __init__(self, shape, stride=None):
        if type(shape) is not int:
            try:
                shape = normalize(shape, "Layout shape")
            except LayoutError:
                if not has_dyn(shape) and not has_dyn(stride):
                    raise
                _init_dyn(self, shape, stride)
                return
        for s in leaves(shape):
            if s <= 0:
                raise LayoutError(f"Layout: shape {int_tuple_str(shape)} has a size {s}; sizes must be positive")
        if stride is None:
            stride = prefix_product(shape)
        else:
            if type(stride) is not int:
                try:
                    stride = normalize_stride(stride, "Layout stride")
                except LayoutError:
                    if not has_dyn(stride):
                        raise
                    _init_dyn(self, shape, stride)
                    return
            if not congruent(shape, stride):
                raise LayoutError(
                    f"Layout: shape {int_tuple_str(shape)} and stride {int_tuple_str(stride)} are not congruent"
                )
        _set_shape(self, shape)
        _set_stride(self, stride)
        _set_flat(self, None)
        _set_hash(self, None)

    def __setattr__(self, name, value):
        raise AttributeError("Layout is immutable")

    def flat(self):
        """``(leaf shapes, leaf strides, size)``, computed once per layout.

        >>> Layout(((2, 2), 3), ((1, 6), 2)).flat()
        ((2, 2, 3), (1, 6, 2), 12)
        """
        f = self._flat
        if f is None:
            shape = self.shape
            if type(shape) is not tuple:
                f = ((shape,), (self.stride,), shape)
            else:
                shapes = flatten(shape)
                n = 1
                for v in shapes:
                    n *= v
                f = (shapes, flatten(self.stride), n)
            _set_flat(self, f)
        return f

    # -- value semantics ---------------------------------------------------
    def __eq__(self, other):
        return type(other) is Layout and self.shape == other.shape and self.stride == other.stride

    def __hash__(self):
        h = self._hash
        if h is None:
            h = hash((self.shape, self.stride))
            _set_hash(self, h)
        return h

    def __repr__(self):
        return f"Layout({self.shape!r}, {self.stride!r})"

    def __str__(self):
        return f"{int_tuple_str(self.shape)}:{int_tuple_str(self.stride)}"

    def __reduce__(self):
        return (Layout, (self.shape, self.stride))

    # -- queries -----------------------------------------------------------
    @property
    def size(self) -> int:
        """Number of coordinates: the product of the shape. ``Layout((2, 3)).size == 6``."""
        f = self._flat
        return f[2] if f is not None else self.flat()[2]

    @property
    def cosize(self) -> int:
        """``1 + sum((s - 1) * |d|)`` over the leaves (C++ coshape): ``Layout(4, -1).cosize == 4``."""
        shapes, strides, _ = self.flat()
        try:
            return 1 + sum((s - 1) * abs(d) for s, d in zip(shapes, strides))
        except LayoutError:  # basis strides: C++'s size(coshape)
            return basis_cosize(shapes, strides)

    @property
    def rank(self) -> int:
        """Number of top-level modes (an integral shape has rank 1)."""
        return len(self.shape) if isinstance(self.shape, tuple) else 1

    @property
    def depth(self) -> int:
        """Nesting depth of the shape (an integral shape has depth 0)."""
        return depth(self.shape)

    def __len__(self):
        return self.rank

    def __getitem__(self, i) -> "Layout":
        """Mode ``i`` as a layout; ``L[0]`` of an integral layout is ``L`` itself.

        >>> Layout(((2, 2), 2), ((4, 1), 2))[0]
        Layout((2, 2), (4, 1))
        """
        if not isinstance(self.shape, tuple):
            if i in (0, -1):
                return self
            raise LayoutError(f"mode {i} of rank-1 layout {self}")
        try:
            return _make(self.shape[i], self.stride[i])
        except (IndexError, TypeError):
            raise LayoutError(f"mode {i!r} of rank-{self.rank} layout {self}") from None

    def __iter__(self):
        return (self[i] for i in range(self.rank))

    # -- evaluation --------------------------------------------------------
    def __call__(self, *crd):
        if len(crd) == 1:
            crd = crd[0]
        elif not crd:
            raise LayoutError("Layout: call with a coordinate, e.g. L(3) or L(1, 2)")
        if type(crd) is int:
            if crd < 0:
                raise LayoutError(f"Layout: coordinate {crd} is negative")
            try:
                r = crd2idx(crd, self.shape, self.stride)
            except (LayoutError, TypeError):
                check_bound(self)
                raise
            return r if type(r) is int else _value(self, r)
        crd = _normalize_coord(crd)
        if _has_none(crd):
            return slice_and_offset(crd, self)[0]
        _check_coord(crd, self.shape)
        try:
            r = crd2idx(crd, self.shape, self.stride)
        except (LayoutError, TypeError):
            check_bound(self)
            raise
        return r if type(r) is int else _value(self, r)

    def index_map(self):
        """``L(i)`` for every 1-D coordinate ``i < size``, vectorised (int64).

        >>> Layout((2, 2), (2, 1)).index_map().tolist()
        [0, 2, 1, 3]
        """
        check_bound(self)
        if has_basis(self.stride):
            raise LayoutError(f"index_map: layout {self} has basis strides; its values are coordinates, not offsets")
        return table(*self.flat()[:2])


class DynLayout(Layout):
    """A Layout holding dynamic leaves (``cute.Dyn``): what ``Layout(...)`` builds when a leaf is ``?``.

    A ``Layout`` whose size and cosize may be dynamic; the algebra dispatches on this class (static layouts
    keep their fast paths). Evaluating it raises a LayoutError naming its dynamic leaves (``cute.bind``).

    >>> from unilayout.cute.dyn import Dyn
    >>> L = Layout((Dyn(), 4), (4, 1))
    >>> type(L).__name__, str(L), L.size, L.cosize, str(L[1])
    ('DynLayout', '(?,4):(4,1)', Dyn(div=4), Dyn(), '4:1')
    """

    __slots__ = ()

    def __eq__(self, other):
        return type(other) is DynLayout and self.shape == other.shape and self.stride == other.stride

    __hash__ = Layout.__hash__

    @property
    def cosize(self):
        """``1 + sum((s - 1) * |d|)`` over the leaves, dynamic where a leaf is (computed once per layout)."""
        f = self._flat or self.flat()
        if type(f) is not DynFlat:
            _set_flat(self, f := DynFlat.of(f))
        return f.cosize

    def __getitem__(self, i):
        return _retag(Layout.__getitem__(self, i))


def _retag(r):
    """``r`` as a DynLayout when it holds a dynamic leaf (algebra results are built as plain Layouts)."""
    if type(r) is Layout and (has_dyn(r.shape) or has_dyn(r.stride)):
        object.__setattr__(r, "__class__", DynLayout)
    return r


def _make_any(shape, stride):
    """``_make`` for results that may hold dynamic leaves."""
    return _retag(_make(shape, stride))


def _value(layout, r):
    """A non-int result of evaluating ``layout``: a coordinate (basis strides), never an unbound dynamic value."""
    return as_coord(r) if type(r) is not Dyn else check_bound(layout)


def _init_dyn(self, shape, stride):
    """``Layout.__init__`` for a shape or stride with ``Dyn`` leaves (kept off the static path)."""
    shape = normalize_dyn(shape, "Layout shape")
    for s in leaves(shape):
        if type(s) is not Dyn and s <= 0:
            raise LayoutError(f"Layout: shape {int_tuple_str(shape)} has a size {s}; sizes must be positive")
    if stride is None:
        stride = prefix_product(shape)
    else:
        stride = normalize_dyn(stride, "Layout stride")
        if not congruent(shape, stride):
            raise LayoutError(
                f"Layout: shape {int_tuple_str(shape)} and stride {int_tuple_str(stride)} are not congruent"
            )
    _set_shape(self, shape)
    _set_stride(self, stride)
    _set_flat(self, None)
    _set_hash(self, None)
    if has_dyn(shape) or has_dyn(stride):
        object.__setattr__(self, "__class__", DynLayout)


_new = object.__new__
_set_shape = Layout.__dict__["shape"].__set__
_set_stride = Layout.__dict__["stride"].__set__
_set_flat = Layout.__dict__["_flat"].__set__
_set_hash = Layout.__dict__["_hash"].__set__


def _make(shape, stride, flat=None) -> Layout:
    """A Layout built without validation (algebra results, valid by construction; ``flat``: its flat() if known)."""
    self = _new(Layout)
    _set_shape(self, shape)
    _set_stride(self, stride)
    _set_flat(self, flat)
    _set_hash(self, None)
    return self


def _normalize_coord(crd):
    if isinstance(crd, (tuple, list)):
        return tuple(_normalize_coord(c) for c in crd)
    if crd is None or isinstance(crd, slice) and crd == slice(None):
        return None
    try:
        return normalize(crd, "coordinate")
    except LayoutError:
        if type(crd) is Dyn:  # a dynamic coordinate (CuTe IR's slice at `?`): the offset becomes dynamic
            return crd
        raise


def _has_none(crd) -> bool:
    if crd is None:
        return True
    return isinstance(crd, tuple) and any(map(_has_none, crd))


def _check_coord(crd, shape):
    """Reject negative coordinates and coordinates whose profile does not fit the shape."""
    if isinstance(crd, tuple):
        if not isinstance(shape, tuple) or len(crd) != len(shape):
            raise LayoutError(f"coordinate {int_tuple_str(crd)} does not match shape {int_tuple_str(shape)}")
        for c, s in zip(crd, shape):
            _check_coord(c, s)
    elif type(crd) is int and crd < 0:
        raise LayoutError(f"coordinate {crd} is negative")


def slice_and_offset(crd, layout: Layout):
    """``(sub-layout, offset)`` of ``layout`` sliced at ``crd`` (C++ ``slice_and_offset``).

    Modes whose coordinate is ``None`` (CuTe's ``_``) are kept, each as one
    top-level mode of the result, in order (C++ ``filter_tuple``); the offset is
    the layout at ``crd`` with ``None`` read as 0.

    >>> slice_and_offset((None, 2), Layout((4, 8), (1, 4)))
    (Layout((4,), (1,)), 8)
    >>> slice_and_offset(((None, 1), None), Layout(((2, 2), 8), ((1, 2), 4)))
    (Layout((2, 8), (1, 4)), 2)
    """
    if not isinstance(layout, Layout):
        raise LayoutError(f"slice_and_offset: expected a CuTe Layout, got {type(layout).__name__} {layout!s:.60}")
    crd = _normalize_coord(crd)
    if crd is None:
        return layout, 0
    shape, stride = layout.shape, layout.stride
    if not isinstance(crd, tuple):
        _check_coord(crd, shape)
        return _make((), ()), crd2idx(crd, shape, stride)
    if not isinstance(shape, tuple) or len(crd) != len(shape):
        raise LayoutError(f"slice coordinate {crd!r} does not match shape {int_tuple_str(shape)}")
    s, d = _slice(crd, shape, stride)
    if type(layout) is DynLayout or has_dyn(crd):  # a dynamic leaf: the offset may be dynamic (CuTe IR's slice)
        return _make_any(s, d), dyn_crd2idx(_none_to_zero(crd), shape, stride)
    return _make(s, d), crd2idx(_none_to_zero(crd), shape, stride)


def _slice(crd, shape, stride, out_s=None, out_d=None):
    """Collect the modes kept by ``None`` entries of ``crd``, in order, into one flat list (C++ filter_tuple)."""
    if out_s is None:
        out_s, out_d = [], []
    for c, s, d in zip(crd, shape, stride):
        if c is None:
            out_s.append(s)
            out_d.append(d)
        elif isinstance(c, tuple):
            if not isinstance(s, tuple) or len(c) != len(s):
                raise LayoutError(f"slice coordinate {c!r} does not match shape {int_tuple_str(s)}")
            _slice(c, s, d, out_s, out_d)
        else:
            _check_coord(c, s)
    return tuple(out_s), tuple(out_d)


def _none_to_zero(crd):
    if crd is None:
        return 0
    if isinstance(crd, tuple):
        return tuple(map(_none_to_zero, crd))
    return crd


# -- constructors ------------------------------------------------------------


def make_layout(*args) -> Layout:
    """One mode per layout argument (C++ ``make_layout(L0, L1, ...)``), or ``make_layout(shape, stride=None)``.

    >>> make_layout(Layout(3, 1), Layout(4, 3))
    Layout((3, 4), (1, 3))
    >>> make_layout(Layout(3, 1))
    Layout((3,), (1,))
    >>> make_layout((2, 4))
    Layout((2, 4), (1, 2))
    """
    shapes, strides = [], []
    dyn = False
    for a in args:
        if type(a) is not Layout:
            if type(a) is not DynLayout:
                break
            dyn = True
        shapes.append(a.shape)
        strides.append(a.stride)
    else:
        r = _make(tuple(shapes), tuple(strides))
        return _retag(r) if dyn else r
    if len(args) in (1, 2) and not any(isinstance(a, Layout) for a in args):
        return Layout(*args)
    raise LayoutError("make_layout: pass layouts (one mode each) or a shape and an optional stride")


def column_major(shape) -> Layout:
    """Compact column-major layout (LayoutLeft): ``column_major((2, 3)) == Layout((2, 3), (1, 2))``.

    >>> str(column_major((2, (3, 4))))
    '(2,(3,4)):(1,(2,6))'
    """
    return Layout(shape)


def _static_compact(shape) -> Layout:
    """C++'s ``Layout<Shape<...>>``: column-major, a size-1 top-level mode given stride 0 (an int shape as ``Layout``).

    >>> _static_compact((2, 1, 4)), _static_compact(1)
    (Layout((2, 1, 4), (1, 0, 2)), Layout(1, 1))
    """
    lay = Layout(shape)
    if not isinstance(lay.shape, tuple):
        return lay
    return Layout(lay.shape, tuple(0 if s == 1 else d for s, d in zip(lay.shape, lay.stride)))


def row_major(shape) -> Layout:
    """Compact row-major layout (LayoutRight), right to left over the flattened leaves.

    >>> str(row_major((2, (3, 4))))
    '(2,(3,4)):(12,(4,1))'
    """
    shape = normalize(shape, "row_major shape")
    return Layout(shape, suffix_product(shape))


def make_ordered_layout(shape, order) -> Layout:
    """Compact layout whose modes are laid out in the order given by ``order``.

    A leaf with order ``o`` gets the product of all leaves of strictly smaller
    order as its stride; an order entry covering a sub-shape lays that sub-shape
    out column-major; equal orders share a start stride (as C++).

    >>> str(make_ordered_layout((4, 3, 8, 2), (2, 1, 3, 0)))
    '(4,3,8,2):(6,2,24,1)'
    >>> str(make_ordered_layout(((2, 2), 3), (1, 0)))
    '((2,2),3):((3,6),1)'
    """
    shape = normalize(shape, "make_ordered_layout shape") if not has_dyn(shape) else normalize_dyn(shape)  # `?` sizes
    order = normalize(order, "make_ordered_layout order")
    groups = []  # (order, sub-shape) in leaf order

    def collect(s, o):
        if isinstance(o, tuple):
            if not isinstance(s, tuple) or len(s) != len(o):
                raise LayoutError(
                    f"make_ordered_layout: order {int_tuple_str(order)} does not fit shape {int_tuple_str(shape)}"
                )
            for si, oi in zip(s, o):
                collect(si, oi)
        else:
            groups.append((o, s))

    collect(shape, order)
    starts = [product(tuple(product(s) for o2, s in groups if o2 < o)) for o, s in groups]
    it = iter(starts)

    def build(s, o):
        if isinstance(o, tuple):
            return tuple(build(si, oi) for si, oi in zip(s, o))
        return prefix_product(s, next(it))

    return _make_any(shape, build(shape, order))


def make_layout_like(layout: Layout) -> Layout:
    """Compact layout of the same shape with strides ordered like ``layout``'s; stride-0 leaves stay 0.

    A swizzled layout gives its inner layout's; dynamic strides rank after static ones, in mode order (CuTe IR).

    >>> str(make_layout_like(Layout((2, 3, 4, 5), (0, 42, 1, 0))))
    '(2,3,4,5):(0,4,1,0)'
    """
    if hasattr(layout, "inner") and type(layout.outer).__name__ == "Swizzle":
        layout = layout.inner
    if not isinstance(layout, Layout) or has_basis(layout.stride):
        raise LayoutError(f"make_layout_like: expected a CuTe Layout with integral strides (or a swizzled one), "
                          f"got {type(layout).__name__} {layout!s:.60}")
    shp, std = leaves(layout.shape), leaves(layout.stride)
    live = [i for i in range(len(shp)) if std[i] != 0 and shp[i] != 1]
    key = std if type(layout) is Layout else [(1, i) if type(d) is Dyn else (0, d) for i, d in enumerate(std)]
    out = [0] * len(shp)
    for i in live:
        out[i] = product(tuple(shp[j] for j in live if key[j] < key[i]))
    stride = unflatten(tuple(out), layout.shape) if isinstance(layout.shape, tuple) else out[0]
    return _make_any(layout.shape, stride) if type(layout) is DynLayout else _make(layout.shape, stride)


def select(layout: Layout, *modes) -> Layout:
    """The layout of the chosen top-level modes (C++ ``select<I...>``).

    >>> select(Layout((2, 3, 4)), 2, 0)
    Layout((4, 2), (6, 1))
    """
    if len(modes) == 1 and isinstance(modes[0], (tuple, list)):
        modes = tuple(modes[0])
    return make_layout(*(layout[m] for m in modes)) if modes else _make((), ())


def group(layout: Layout, begin: int, end: int) -> Layout:
    """Nest top-level modes ``[begin, end)`` into one mode (C++ ``group<B,E>``; of a composed layout's inner one).

    >>> group(Layout((2, 3, 4, 5)), 1, 3)
    Layout((2, (3, 4), 5), (1, (2, 6), 24))
    """
    if hasattr(layout, "inner") and isinstance(layout.inner, Layout):  # a ComposedLayout: its inner layout's modes
        return type(layout)(layout.outer, layout.offset, group(layout.inner, begin, end))
    if not isinstance(layout, Layout):
        raise LayoutError(f"group: expected a CuTe Layout, got {type(layout).__name__} {layout!r:.60}")
    begin, end = as_int(begin, "group: begin"), as_int(end, "group: end")
    if not (0 <= begin < end <= layout.rank):  # an empty group (begin == end) is refused, as CuTe IR does
        raise LayoutError(f"group: need 0 <= begin < end <= rank {layout.rank}, got [{begin}, {end})")
    modes = list(layout)
    return make_layout(*modes[:begin], make_layout(*modes[begin:end]), *modes[end:])


def flatten_layout(layout: Layout) -> Layout:
    """The layout with shape and stride flattened to their leaves (C++ ``flatten``).

    >>> flatten_layout(Layout(((2, 2), 2), ((4, 1), 2)))
    Layout((2, 2, 2), (4, 1, 2))
    """
    r = _make(flatten(layout.shape), flatten(layout.stride))
    return _retag(r) if type(layout) is DynLayout else r


def size(x, mode=None) -> int:
    """Size of a layout (or int tuple), or of its mode ``mode`` or mode path (C++ ``size<I>``, ``size<I, J>``).

    >>> size(Layout((2, (3, 4)))), size(Layout((2, (3, 4))), 1), size((2, 3))
    (24, 12, 6)
    """
    if mode is not None:  # a mode, or a path of modes (C++ size<I, J...>)
        return size(at_mode(x, mode, "size"))
    if isinstance(x, Layout) or hasattr(x, "size"):
        return x.size
    if not isinstance(x, (tuple, int, Dyn)) or isinstance(x, bool):
        raise LayoutError(f"size: expected a layout or an int tuple, got {type(x).__name__}")
    return product(normalize(x) if not has_dyn(x) else normalize_dyn(x))  # a dynamic leaf: size ?{div=..}


def cosize(x, mode=None) -> int:
    """``1 + sum((s - 1) * |d|)`` of a layout or of its mode ``mode``.

    >>> cosize(Layout((2, 3), (3, 1))), cosize(Layout((2, 3), (3, 1)), 0)
    (6, 4)
    """
    if not hasattr(x, "cosize"):
        raise LayoutError(f"cosize: expected a CuTe layout, got {type(x).__name__} {x!r:.60}")
    return at_mode(x, mode, "cosize").cosize if mode is not None else x.cosize


def rank(x) -> int:
    """Number of top-level modes of a layout or int tuple.

    >>> rank(Layout(((2, 2), 2))), rank(5)
    (2, 1)
    """
    return x.rank if hasattr(x, "rank") else (len(x) if isinstance(x, tuple) else 1)


def depth_of(x) -> int:
    """Nesting depth of a layout's shape or of an int tuple.

    >>> depth_of(Layout(((2, 2), 2))), depth_of(5)
    (2, 0)
    """
    return x.depth if hasattr(x, "depth") else depth(x)
