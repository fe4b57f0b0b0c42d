"""TIRx's layout values: ``TileLayout`` (shard iters, replica iters, offsets) and ``ComposeLayout`` (a swizzle on ``m``).

A ``TileLayout`` maps a logical index to coordinates on named axes. Its
*shard* iters ``Iter(extent, stride, axis)`` split the index row-major (the
last iter fastest) into one coordinate per iter; iter ``t`` adds
``coordinate * stride`` to its axis. Its *replica* iters do the same for a
second index that copies every element (the same element held by every warp,
say), and ``offset`` adds a constant per axis. So the paper's
``S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1@m)]`` sends index ``i = (a, b, c,
d)`` to ``laneid = 4a + c``, ``warpid = b``, ``m = d``.

``apply(*index)`` answers as ``tvm_tirx.tirx.layout.TileLayout.apply`` does:
the outermost coordinate of a linear index is not reduced (floor division
and modulo, so ``-1`` is the last element one step before the start); a
multi-index gives each shard iter its coordinate as is. The result is
``{axis: value}`` over the shard and offset axes; with replica iters it is
the set of such dicts (each a ``frozenset`` of items, the replica axes
included), one per replica; ``replicas=False`` gives TIRx's own dict (every
replica coordinate 0).

>>> L = TileLayout([Iter(8, 4, "laneid"), Iter(2, 1, "warpid"), Iter(4, 1, "laneid"), Iter(2, 1, "m")])
>>> L.apply(5) == {"m": 1, "warpid": 0, "laneid": 2}, L.size, L.box
(True, 128, (8, 2, 4, 2))
>>> R = TileLayout([Iter(2, 1, "m")], [Iter(2, 1, "warpid")], {"m": 3})
>>> sorted(sorted(d) for d in R.apply(1))
[[('m', 4), ('warpid', 0)], [('m', 4), ('warpid', 1)]]
>>> R.apply(1, replicas=False)
{'m': 4}
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

import numpy as np

from .._ints import as_int
from ..errors import LayoutError

__all__ = ["Iter", "TileLayout", "ComposeLayout", "MAX_POINTS", "paper_text", "tirx_text"]

#: The most points ``table`` evaluates at once (64 Mi).
MAX_POINTS = 1 << 26
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_BIG = 1 << 62


def _axis(a, what):
    if not isinstance(a, str) or not _NAME.match(a):
        raise LayoutError(f"{what}: an axis is a name such as 'm' or 'laneid', got {a!r}")
    return a


def _small(v, what):
    v = as_int(v, what)
    if abs(v) >= _BIG:
        raise LayoutError(f"{what}: {v} is beyond the 64-bit range this evaluates in")
    return v


class Iter(NamedTuple):
    """One factor of a layout: ``extent`` positions, each adding ``stride`` to the coordinate on ``axis``.

    >>> Iter(8, 4, "laneid")
    Iter(8, 4, 'laneid')
    >>> str(Iter(8, 4, "laneid")), Iter.of((2, 1, "m")).axis
    ('8:4@laneid', 'm')
    """

    extent: int
    stride: int
    axis: str

    @classmethod
    def of(cls, x, what="Iter"):
        """An ``Iter`` from an ``Iter`` or an ``(extent, stride, axis)`` triple, checked."""
        try:
            e, s, a = x
        except (TypeError, ValueError):
            raise LayoutError(f"{what}: expected Iter(extent, stride, axis), got {x!r}") from None
        e = _small(e, f"{what} extent")
        if e < 0:
            raise LayoutError(f"{what}: an extent is >= 0, got {e}")
        return cls(e, _small(s, f"{what} stride"), _axis(a, what))

    def __repr__(self):
        return f"Iter({self.extent}, {self.stride}, {self.axis!r})"

    def __str__(self):
        return f"{self.extent}:{self.stride}@{self.axis}"


def _decompose(index, extents):
    """Row-major coordinates of ``index`` (an int array) over ``extents``; the outermost is not reduced."""
    crd = [None] * len(extents)
    rest = index
    for t in range(len(extents) - 1, 0, -1):
        e = extents[t]
        if e == 0:
            raise LayoutError(f"apply: shard iter {t} has extent 0 (an empty layout has no index to apply)")
        rest, crd[t] = np.divmod(rest, e)
    if extents:
        crd[0] = rest
    return crd


def _split(i, extents):
    """``_decompose`` of one Python int, exactly (no int64): apply's arithmetic."""
    crd = [0] * len(extents)
    for t in range(len(extents) - 1, 0, -1):
        if extents[t] == 0:
            raise LayoutError(f"apply: shard iter {t} has extent 0 (an empty layout has no index to apply)")
        i, crd[t] = divmod(i, extents[t])
    if extents:
        crd[0] = i
    return crd


class TileLayout:
    """A TIRx ``TileLayout``: ``shard`` iters, ``replica`` iters and an ``offset`` per axis (module docstring).

    Immutable; ``repr`` pastes back (with ``from unilayout.axe import TileLayout, Iter``), ``str`` is the paper's
    text and ``to_tirx()`` what TIRx prints.

    >>> L = TileLayout([(4, 2, "m"), (2, 1, "laneid")], offset={"warpid": 1})
    >>> L
    TileLayout([Iter(4, 2, 'm'), Iter(2, 1, 'laneid')], [], {'warpid': 1})
    >>> L.apply(3) == {"m": 2, "laneid": 1, "warpid": 1}, L.span("m")
    (True, 7)
    """

    __slots__ = ("shard", "replica", "offset", "_hash")

    def __init__(self, shard=(), replica=(), offset=None):
        sh = tuple(Iter.of(x, "TileLayout shard") for x in _seq(shard, "TileLayout shard"))
        rp = tuple(Iter.of(x, "TileLayout replica") for x in _seq(replica, "TileLayout replica"))
        if offset is None:
            offset = {}
        if not isinstance(offset, dict):
            raise LayoutError(f"TileLayout: offset is a dict {{axis: value}}, got {type(offset).__name__}")
        off = tuple(sorted((_axis(a, "TileLayout offset"), _small(v, "TileLayout offset")) for a, v in offset.items()))
        object.__setattr__(self, "shard", sh)
        object.__setattr__(self, "replica", rp)
        object.__setattr__(self, "offset", off)
        object.__setattr__(self, "_hash", hash((sh, rp, off)))

    def __setattr__(self, name, value):
        raise AttributeError("TileLayout is immutable")

    def __eq__(self, other):
        return isinstance(other, TileLayout) and (self.shard, self.replica, self.offset) == (
            other.shard, other.replica, other.offset)

    def __hash__(self):
        return self._hash

    def __repr__(self):
        return (f"TileLayout([{', '.join(map(repr, self.shard))}], [{', '.join(map(repr, self.replica))}], "
                f"{dict(self.offset)!r})")

    def __str__(self):
        return paper_text(self)

    def to_tirx(self) -> str:
        """What TIRx prints for this layout (``str(tvm_tirx TileLayout)``).

        >>> TileLayout([(8, 1, "m")]).to_tirx()
        'T.TileLayout.from_iters(shard=[T.Iter(8, 1, "m")], replica=[])'
        """
        return tirx_text(self)

    # -- shape ------------------------------------------------------------------------------------------------
    @property
    def box(self) -> tuple:
        """The shard extents: the logical domain, row-major (TIRx's default shape)."""
        return tuple(it.extent for it in self.shard)

    @property
    def size(self) -> int:
        """The number of logical elements (the product of the shard extents; TIRx's ``size()``)."""
        return math.prod(self.box)

    @property
    def replicas(self) -> int:
        """How many copies of each element (the product of the replica extents)."""
        return math.prod(it.extent for it in self.replica)

    @property
    def axes(self) -> tuple:
        """The axes ``apply`` answers with (TIRx's keys): shard axes in order of first use, then offset axes.

        >>> TileLayout([(2, 1, "m"), (2, 1, "laneid"), (2, 2, "m")], offset={"bx": 1}).axes
        ('m', 'laneid', 'bx')
        """
        return tuple(dict.fromkeys([it.axis for it in self.shard] + [a for a, _ in self.offset]))

    @property
    def all_axes(self) -> tuple:
        """``axes`` then the axes only replica iters use."""
        return tuple(dict.fromkeys(self.axes + tuple(it.axis for it in self.replica)))

    def span(self, axis: str) -> int:
        """TIRx's ``span(axis)``: the offset plus ``(extent - 1) * stride`` of every shard and replica iter on
        ``axis``, plus 1 (the extent of the axis the layout reaches, for non-negative strides).

        >>> TileLayout([(8, 4, "laneid"), (4, 1, "laneid")], [(2, 16, "laneid")]).span("laneid")
        48
        """
        _axis(axis, "span")
        return (dict(self.offset).get(axis, 0) + 1
                + sum((it.extent - 1) * it.stride for it in self.shard + self.replica if it.axis == axis))

    # -- evaluation ---------------------------------------------------------------------------------------------
    def _fits(self, first):
        """LayoutError unless every coordinate fits int64 when the outermost shard coordinate is at most ``first``."""
        its = self.shard[1:] + self.replica
        bound = sum((it.extent - 1) * abs(it.stride) for it in its) + sum(abs(v) for _, v in self.offset)
        if self.shard:
            bound += first * abs(self.shard[0].stride)
        if bound >= 1 << 63:
            raise LayoutError(f"{self}: coordinates reach {bound:,}, beyond int64 (use apply, which is exact)")

    def evaluate(self, index, *, replica=0):
        """``{axis: int64 array}`` at linear ``index`` (an int or array; vectorised), replica number ``replica``.

        >>> L = TileLayout([(4, 2, "m"), (2, 1, "laneid")])
        >>> {a: v.tolist() for a, v in L.evaluate(np.arange(4)).items()}
        {'m': [0, 0, 2, 2], 'laneid': [0, 1, 0, 1]}
        """
        try:
            index = np.asarray(index, dtype=np.int64)
        except (TypeError, ValueError, OverflowError):
            raise LayoutError(f"evaluate: the index must be integers, got {index!r:.60}") from None
        inner = math.prod(self.box[1:])
        self._fits((int(np.abs(index).max()) // inner + 1 if inner else 0) if index.size else 0)
        out = self._from_coords(_decompose(index, self.box), index.shape)
        if self.replica:
            if not 0 <= replica < self.replicas:
                raise LayoutError(f"evaluate: replica {replica} outside [0, {self.replicas})")
            rc = _decompose(np.asarray(replica, dtype=np.int64), [it.extent for it in self.replica])
            for it, c in zip(self.replica, rc):
                out[it.axis] = out.get(it.axis, np.zeros(index.shape, np.int64)) + int(c) * it.stride
        return out

    def _from_coords(self, crd, shape):
        out = {}
        for it, c in zip(self.shard, crd):
            out[it.axis] = out.get(it.axis, 0) + c * it.stride
        for a, v in self.offset:
            out[a] = out.get(a, 0) + v
        return {a: np.broadcast_to(np.asarray(v, dtype=np.int64), shape).copy() for a, v in out.items()}

    def table(self, *, replicas=False) -> np.ndarray:
        """Every element's coordinates at once: int64 ``(size, len(axes))`` in ``axes`` order (replica 0);
        with ``replicas``, ``(size, replicas, len(all_axes))``.

        >>> TileLayout([(2, 1, "laneid"), (2, 4, "m")], [(2, 1, "warpid")]).table(replicas=True)[3].tolist()
        [[1, 4, 0], [1, 4, 1]]
        """
        n = self.size * (self.replicas if replicas else 1)
        if n > MAX_POINTS:
            raise LayoutError(f"table: {n:,} points is more than {MAX_POINTS:,}")
        self._fits(self.box[0] - 1 if self.box else 0)
        ev = self._separable()
        if not replicas:
            out = np.empty((self.size, len(self.axes)), dtype=np.int64)
            for k, a in enumerate(self.axes):
                out[:, k] = ev[a]
            return out
        axes = self.all_axes
        out = np.zeros((self.size, self.replicas, len(axes)), dtype=np.int64)
        for k, a in enumerate(axes):
            if a in ev:
                out[:, :, k] = ev[a][:, None]
        r = np.arange(self.replicas, dtype=np.int64)
        for it, c in zip(self.replica, _decompose(r, [it.extent for it in self.replica])):
            out[:, :, axes.index(it.axis)] += (c * it.stride)[None, :]
        return out

    def index_map(self) -> np.ndarray:
        """``table()``: the family's table, each element's coordinates on ``axes`` (replica 0)."""
        return self.table()

    def _separable(self):
        """``{axis: int64 (size,)}`` over the whole box: each iter's ``arange(extent) * stride`` broadcast along its
        own dim and summed (no division: the box is a product, so the table is a sum of outer terms)."""
        box, n = self.box, len(self.shard)
        acc = {}
        for t, it in enumerate(self.shard):
            shape = [1] * n
            shape[t] = it.extent
            term = (np.arange(it.extent, dtype=np.int64) * it.stride).reshape(shape)
            acc[it.axis] = term if it.axis not in acc else acc[it.axis] + term
        for a, v in self.offset:
            acc[a] = acc.get(a, np.zeros([1] * n, np.int64)) + v
        return {a: np.broadcast_to(v, box).reshape(-1) for a, v in acc.items()}

    def apply(self, *index, shape=None, replicas=True):
        """``{axis: value}`` at ``index`` exactly as TIRx's ``TileLayout.apply`` (module docstring).

        One integer is a linear index (row-major over the shard extents); ``len(shard)`` integers are one
        coordinate per shard iter; ``shape=`` linearises ``index`` over that shape first (inside its box).

        >>> L = TileLayout([(4, 8, "m"), (8, 1, "m")])
        >>> L.apply(1, 2), L.apply(10), L.apply(0, 10, shape=(2, 16))
        ({'m': 10}, {'m': 10}, {'m': 10})
        >>> L.apply(1, 2, 3)
        Traceback (most recent call last):
        ...
        unilayout.errors.LayoutError: apply: 3 coordinates for 2 shard iters (give one linear index, one per iter, or shape=)
        """
        if not index:
            raise LayoutError("apply: give an index")
        idx = [_small(i, "apply index") for i in index]
        if shape is not None:
            shape = [_small(s, "apply shape") for s in shape]
            if len(shape) != len(idx):
                raise LayoutError(f"apply: {len(idx)} coordinates for a shape of {len(shape)} dims")
            if any(not 0 <= c < s for c, s in zip(idx, shape)):
                raise LayoutError(f"apply: {tuple(idx)} is outside the shape {tuple(shape)} (inside it TIRx's "
                                  "regrouping and the row-major linear index agree; outside this refuses)")
            flat = 0
            for c, n in zip(idx, shape):
                flat = flat * n + c
            crd = _split(flat, self.box)
        elif len(idx) == 1:
            crd = _split(idx[0], self.box)
        elif len(idx) == len(self.shard):
            crd = idx
        else:
            raise LayoutError(f"apply: {len(idx)} coordinates for {len(self.shard)} shard iters (give one linear "
                              "index, one per iter, or shape=)")
        base = {}
        for it, c in zip(self.shard, crd):
            base[it.axis] = base.get(it.axis, 0) + c * it.stride
        for a, v in self.offset:
            base[a] = base.get(a, 0) + v
        return self._with_replicas(base, replicas)

    def _with_replicas(self, base, replicas, post=None):
        post = post or (lambda d: d)
        if not self.replica or not replicas:
            return post(base)
        members = set()
        r = np.arange(self.replicas, dtype=np.int64)
        rc = _decompose(r, [it.extent for it in self.replica])
        for k in range(self.replicas):
            d = dict(base)
            for it, c in zip(self.replica, rc):
                d[it.axis] = d.get(it.axis, 0) + int(c[k]) * it.stride
            members.add(frozenset(post(d).items()))
        return members


def _swizzle(m, per_element, swizzle_len, atom_len, inner):
    """TIRx's XOR swizzle of memory coordinates ``m`` (int or int64 array)."""
    low = m & ((1 << per_element) - 1)
    q = m >> per_element
    mask = (1 << swizzle_len) - 1
    q = q ^ ((q >> atom_len) & mask) if inner else q ^ ((q & mask) << atom_len)
    return (q << per_element) + low


class ComposeLayout:
    """TIRx's ``ComposeLayout(per_element, swizzle_len, atom_len, tile_layout, swizzle_inner=True)``: the tile
    layout, then an XOR swizzle of its ``m`` coordinate (other axes pass through).

    With ``q = m >> per_element``: inner, ``q ^= (q >> atom_len) & mask``; outer, ``q ^= (q & mask) << atom_len``
    (``mask = 2**swizzle_len - 1``); then ``m = q << per_element | m % 2**per_element``: CuTe's
    ``Swizzle<swizzle_len, per_element, ±atom_len>``.

    >>> C = ComposeLayout(0, 2, 3, TileLayout([(8, 8, "m"), (8, 1, "m")]))
    >>> C.apply(1, 2), C.size
    ({'m': 11}, 64)
    """

    __slots__ = ("per_element", "swizzle_len", "atom_len", "tile_layout", "swizzle_inner")

    def __init__(self, per_element, swizzle_len, atom_len, tile_layout, swizzle_inner=True):
        vals = [as_int(v, f"ComposeLayout {n}") for v, n in
                ((per_element, "per_element"), (swizzle_len, "swizzle_len"), (atom_len, "atom_len"))]
        if min(vals) < 0 or max(vals) > 30:
            raise LayoutError(f"ComposeLayout: bit counts are in [0, 30], got {tuple(vals)}")
        if vals[2] < vals[1]:
            raise LayoutError(f"ComposeLayout: atom_len {vals[2]} must be at least swizzle_len {vals[1]}")
        if not isinstance(tile_layout, TileLayout):
            raise LayoutError(f"ComposeLayout: expected a TileLayout, got {type(tile_layout).__name__}")
        if not isinstance(swizzle_inner, (bool, np.bool_)):
            raise LayoutError(f"ComposeLayout: swizzle_inner is True or False, got {swizzle_inner!r}")
        for n, v in zip(("per_element", "swizzle_len", "atom_len"), vals):
            object.__setattr__(self, n, v)
        object.__setattr__(self, "tile_layout", tile_layout)
        object.__setattr__(self, "swizzle_inner", bool(swizzle_inner))

    def __setattr__(self, name, value):
        raise AttributeError("ComposeLayout is immutable")

    def _key(self):
        return (self.per_element, self.swizzle_len, self.atom_len, self.tile_layout, self.swizzle_inner)

    def __eq__(self, other):
        return isinstance(other, ComposeLayout) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        inner = "" if self.swizzle_inner else ", swizzle_inner=False"
        return f"ComposeLayout({self.per_element}, {self.swizzle_len}, {self.atom_len}, {self.tile_layout!r}{inner})"

    def __str__(self):
        return paper_text(self)

    def to_tirx(self) -> str:
        """What TIRx prints for this layout."""
        return tirx_text(self)

    box = property(lambda self: self.tile_layout.box, doc="The tile layout's shard extents.")
    size = property(lambda self: self.tile_layout.size, doc="The tile layout's size.")
    replicas = property(lambda self: self.tile_layout.replicas, doc="The tile layout's replica count.")
    axes = property(lambda self: self.tile_layout.axes, doc="The tile layout's axes.")
    all_axes = property(lambda self: self.tile_layout.all_axes, doc="The tile layout's axes, replica axes included.")

    def span(self, axis="m"):
        """The tile layout's span on ``axis`` (a swizzle inside an atom keeps it)."""
        return self.tile_layout.span(axis)

    def _sw(self, m):
        return _swizzle(m, self.per_element, self.swizzle_len, self.atom_len, self.swizzle_inner)

    def _post(self, d):
        if "m" in d:
            d = dict(d, m=self._sw(d["m"]))
        return d

    def evaluate(self, index, *, replica=0):
        """As ``TileLayout.evaluate``, the swizzle applied to ``m``."""
        return self._post(self.tile_layout.evaluate(index, replica=replica))

    def table(self, *, replicas=False):
        """As ``TileLayout.table``, the swizzle applied to ``m``."""
        t = self.tile_layout.table(replicas=replicas)
        axes = self.all_axes if replicas else self.axes
        if "m" in axes:
            k = axes.index("m")
            t[..., k] = self._sw(t[..., k])
        return t

    def index_map(self) -> np.ndarray:
        """``table()``: each element's coordinates on ``axes`` (replica 0), ``m`` swizzled."""
        return self.table()

    def apply(self, *index, shape=None, replicas=True):
        """As ``TileLayout.apply``, the swizzle applied to ``m`` (TIRx's ``ComposeLayout.apply``)."""
        base = self.tile_layout.apply(*index, shape=shape, replicas=False)
        if self.tile_layout.replica and replicas:
            return self.tile_layout._with_replicas(base, True, lambda d: {a: int(v) for a, v in self._post(d).items()})
        return {a: int(v) for a, v in self._post(base).items()}


def _iters_text(its, kind):
    if len(its) == 1:
        return f"{kind}[{its[0]}]"
    return (f"{kind}[({','.join(str(i.extent) for i in its)}):"
            f"({','.join(f'{i.stride}@{i.axis}' for i in its)})]")


def _layout_arg(x, what):
    if not isinstance(x, (TileLayout, ComposeLayout)):
        raise LayoutError(f"{what}: expected a TileLayout or ComposeLayout, got {type(x).__name__}")


def _seq(v, what):
    """``v`` as a tuple, or ``LayoutError`` when it is not a sequence."""
    try:
        if isinstance(v, (str, bytes)):
            raise TypeError
        return tuple(v)
    except TypeError:
        raise LayoutError(f"{what} must be a sequence of iters, got {v!r:.60}") from None


def paper_text(x) -> str:
    """The paper's text of a ``TileLayout`` (``S[..] + R[..] + v@axis``) or ``ComposeLayout(P, B, A, <that>)``.

    >>> paper_text(TileLayout([(8, 1, "m")], offset={"bx": 2}))
    'S[8:1@m] + 2@bx'
    """
    _layout_arg(x, "paper_text")
    if isinstance(x, ComposeLayout):
        inner = "" if x.swizzle_inner else ", swizzle_inner=False"
        return f"ComposeLayout({x.per_element}, {x.swizzle_len}, {x.atom_len}, {paper_text(x.tile_layout)}{inner})"
    parts = [_iters_text(x.shard, "S") if x.shard else "S[()]"]
    if x.replica:
        parts.append(_iters_text(x.replica, "R"))
    parts += [f"{v}@{a}" for a, v in x.offset]
    return " + ".join(parts)


def tirx_text(x) -> str:
    """What TIRx prints (``str()`` of its ``TileLayout`` or ``ComposeLayout``).

    >>> tirx_text(TileLayout([(8, 1, "m")], offset={"bx": 2}))
    'T.TileLayout.from_iters(shard=[T.Iter(8, 1, "m")], replica=[], offset={"bx": 2})'
    """
    _layout_arg(x, "tirx_text")
    if isinstance(x, ComposeLayout):
        inner = "" if x.swizzle_inner else ", swizzle_inner=False"
        return f"T.ComposeLayout({x.per_element}, {x.swizzle_len}, {x.atom_len}, {tirx_text(x.tile_layout)}{inner})"
    its = lambda v: ", ".join(f'T.Iter({i.extent}, {i.stride}, "{i.axis}")' for i in v)  # noqa: E731
    off = "" if not x.offset else ", offset={" + ", ".join(f'"{a}": {v}' for a, v in x.offset) + "}"
    return f"T.TileLayout.from_iters(shard=[{its(x.shard)}], replica=[{its(x.replica)}]{off})"
