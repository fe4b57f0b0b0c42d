"""TileLang's ``Layout`` and ``Fragment``: index maps written as expressions, as TileLang prints them.

A ``Layout`` maps each coordinate of its input shape to an output coordinate
by one expression per output dim; TileLang derives the output shape as each
expression's constant bound plus one (``expr.bound``, TVM's
``ConstIntBound``), which a padded layout may exceed what it reaches:

>>> L = parse("Layout((64, 64) -> (4096,), transform: (_i, _j) -> (_i * 64 + _j,))")
>>> L.output_shape, L.index_map()[65].tolist()
((4096,), [65])

A ``Fragment`` distributes a tile over threads: ``forward_thread`` gives the
thread holding each element (``_rep`` numbers the ``replicate`` copies) and
``forward_index`` the position in that thread's local buffer; ``thread`` is
the thread extent (bound + 1), ``thread_range`` (when printed) TVM's
``Range(begin, end)`` of the threads, added to every thread:

>>> F = parse("Fragment((8, 8) -> (2,), replicate: 1, thread: 32, forward_thread: _i * 4 + _j // 2, "
...           "forward_index: (_j % 2,))")
>>> F.thread_map()[:4, 0].tolist(), F.index_map()[:3].tolist()
([0, 0, 1, 1], [[0, 0], [0, 1], [1, 0]])

Both print back byte for byte (``str``). Invariants: expressions read only
the input placeholders (``_i, _j, ..`` in order; ``_rep`` in a fragment's
thread); every evaluation is vectorised over the whole input box, and a box
past ``MAX_POINTS`` is refused before anything is built. The conversions to
CuTe and linear layouts (proved over the whole domain) are the bridge's
(``unilayout.convert.tilelang``).
"""

from __future__ import annotations

import math

import numpy as np

from .._ints import check_table
from .._text import Scanner
from ..errors import LayoutError, ParseError
from . import expr as E
from .grid_eval import evaluate_grid

__all__ = ["Layout", "Fragment", "parse", "placeholders", "MAX_POINTS"]

#: Most input points a layout is evaluated over at once.
MAX_POINTS = 1 << 26

_NAMES = "ijklmnopqrstuvwxyzabcdefgh"


def placeholders(rank: int) -> tuple:
    """TileLang's names of the input coordinates: ``_i, _j, _k, ..``.

    >>> placeholders(3)
    ('_i', '_j', '_k')
    """
    if isinstance(rank, bool) or not isinstance(rank, (int, np.integer)) or not 0 <= rank <= len(_NAMES):
        raise LayoutError(f"a TileLang layout has 0 to {len(_NAMES)} input dims, got {rank!r}")
    return tuple(f"_{c}" for c in _NAMES[:rank])


def _shape(shape, what):
    try:
        if any(isinstance(s, bool) or not isinstance(s, (int, np.integer)) for s in shape):
            raise TypeError
        out = tuple(int(s) for s in shape)
    except TypeError:
        raise LayoutError(f"{what} must be a tuple of integers, got {shape!r}"[:300]) from None
    if not out:
        raise LayoutError(f"{what} must have at least one dim")
    if any(s < 1 for s in out):
        raise LayoutError(f"{what} {out} has an extent below 1")
    return out


def _exprs(index, what):
    try:
        index = tuple(index)
    except TypeError:
        raise LayoutError(f"{what} must be a sequence of expressions, got {index!r}") from None
    return tuple(E.check(e, what) for e in index)


def _check_vars(e, allowed, what):
    extra = E.variables(e) - set(allowed)
    if extra:
        raise LayoutError(f"{what} reads {', '.join(sorted(extra))}, which is not one of {', '.join(allowed)}")


def _shape_text(s):
    return "(" + ", ".join("pos_inf" if v is None else str(v) for v in s) + ("," if len(s) == 1 else "") + ")"


def _output_shape(index, ext, input_shape):
    """TileLang's output shape: each dim's interval max + 1; where the interval set cannot bound it (a bit
    operation), the constant bound's ``max - min + 1`` if it is bounded and non-negative, else the input
    extent of the same position (or 1). None is an unbounded dim (printed ``pos_inf``)."""
    out = []
    for i, e in enumerate(index):
        lo, hi = E.interval(e, ext)
        if lo is None and hi is None:
            b = E.bound(e, ext)
            out.append(b[1] - b[0] + 1 if b is not None and b[0] >= 0 else
                       input_shape[i] if i < len(input_shape) else 1)
        else:
            out.append(None if hi is None else hi + 1)
    return tuple(out)


def _tuple_text(exprs):
    return "(" + ", ".join(E.to_text(e) for e in exprs) + ("," if len(exprs) == 1 else "") + ")"


class _Base:
    __slots__ = ()

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _grid(self, extra=0):
        """Each placeholder's values along its own axis of ``input_shape`` (+ ``extra`` trailing axes of 1).

        An open grid, not ``np.indices``: an expression broadcasts, so a term of ``_j`` alone is computed on
        one row, and only where two placeholders meet is a whole-domain array built.
        """
        check_table(math.prod(self.input_shape), f"{type(self).__name__}: the points of {self.input_shape}",
                    MAX_POINTS)
        d = len(self.input_shape)
        return {name: np.arange(n, dtype=np.int64).reshape((1,) * k + (n,) + (1,) * (d - k - 1 + extra))
                for k, (name, n) in enumerate(zip(placeholders(d), self.input_shape))}

    def _column(self, e, env, shape):
        """``e`` evaluated on the open grid ``env``, as an int64 array of ``shape`` (the whole domain)."""
        extents = {k: v.size for k, v in env.items()}
        return np.broadcast_to(evaluate_grid(e, env, extents), shape)

    def _flat(self, exprs, sizes):
        """int64 ``(N,)``: the outputs ``exprs`` flattened row-major over ``sizes``, as one expression."""
        flat = ("int", 0)
        for e, s in zip(exprs, sizes):
            flat = ("+", ("*", flat, ("int", s or 1)), e)
        return self._column(flat, self._grid(), self.input_shape).reshape(-1)

    @property
    def size(self) -> int:
        return math.prod(self.input_shape)

    def __eq__(self, other):
        return type(other) is type(self) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return f"parse({str(self)!r})"


class Layout(_Base):
    """``Layout(input_shape, index)``: one expression per output dim (``index``), output shape as TileLang's.

    >>> Layout((4, 8), [E.parse("_j * 4 + _i")]).output_shape
    (32,)
    """

    __slots__ = ("input_shape", "index", "output_shape")

    def __init__(self, input_shape, index, output_shape=None):
        shape = _shape(input_shape, "Layout: the input shape")
        index = _exprs(index, "Layout: the output expressions")
        if not index:
            raise LayoutError("Layout: needs at least one output expression")
        names = placeholders(len(shape))
        for e in index:
            _check_vars(e, names, "Layout: an output expression")
        ext = dict(zip(names, shape))
        derived = _output_shape(index, ext, shape)
        if output_shape is not None and tuple(output_shape) != derived:
            raise LayoutError(f"Layout: the printed output shape {_shape_text(tuple(output_shape))} is not the bound "
                              f"of the expressions, {_shape_text(derived)}")
        object.__setattr__(self, "input_shape", shape)
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "output_shape", derived)

    def _key(self):
        return self.input_shape, self.index

    def __str__(self):
        names = placeholders(len(self.input_shape))
        return (f"Layout({_shape_text(self.input_shape)} -> {_shape_text(self.output_shape)}, transform: "
                f"{_shape_text(names).replace(chr(39), '')} -> {_tuple_text(self.index)})")

    def index_map(self) -> np.ndarray:
        """int64 ``(N, outputs)``: the output coordinate of every input point (row-major).

        >>> parse("Layout((2, 2) -> (2, 2), transform: (_i, _j) -> (_j, _i))").index_map().tolist()
        [[0, 0], [1, 0], [0, 1], [1, 1]]
        """
        env = self._grid()
        return np.stack([self._column(e, env, self.input_shape).reshape(-1) for e in self.index], axis=1)

    def offsets(self) -> np.ndarray:
        """int64 ``(N,)``: the output coordinate flattened row-major over ``output_shape`` (a buffer offset).

        >>> parse("Layout((2, 2) -> (2, 2), transform: (_i, _j) -> (_j, _i))").offsets().tolist()
        [0, 2, 1, 3]
        """
        return self._flat(self.index, self.output_shape)


class Fragment(_Base):
    """``Fragment(input_shape, thread, index, replicate=1, thread_range=None)``: which thread holds each element.

    ``thread`` reads the input placeholders and ``_rep``; ``thread_extent``
    is its bound + 1 (TileLang's ``thread``; None where TVM's interval sets
    do not bound it, a bit operation, printed ``pos_inf``); ``thread_range`` is
    ``(begin, end)`` when the text gives one.

    >>> Fragment((64,), E.parse("_rep * 32 + _i % 32"), [E.parse("_i // 32")], replicate=2).thread_extent
    64
    """

    __slots__ = ("input_shape", "thread", "index", "replicate", "thread_range", "output_shape", "thread_extent",
                 "form")

    def __init__(self, input_shape, thread, index, replicate=1, thread_range=None, *, output_shape=None,
                 thread_extent="unknown", form="forward"):
        shape = _shape(input_shape, "Fragment: the input shape")
        index = _exprs(index, "Fragment: the index expressions")
        E.check(thread, "Fragment: the thread expression")
        if isinstance(replicate, bool) or not isinstance(replicate, (int, np.integer)):
            raise LayoutError(f"Fragment: replicate must be an integer, got {replicate!r}")
        replicate = int(replicate)
        if replicate < 1:
            raise LayoutError(f"Fragment: replicate must be >= 1, got {replicate}")
        names = placeholders(len(shape))
        _check_vars(thread, names + ("_rep",), "Fragment: the thread expression")
        for e in index:
            _check_vars(e, names, "Fragment: an index expression")
        ext = dict(zip(names, shape), _rep=replicate)
        derived = _output_shape(index, {k: v for k, v in ext.items() if k != "_rep"}, shape) or (1,)
        hi = E.interval(thread, ext)[1]
        extent = None if hi is None else hi + 1
        if output_shape is not None and tuple(output_shape) != derived:
            raise LayoutError(f"Fragment: the printed output shape {_shape_text(tuple(output_shape))} is not the "
                              f"bound of the index expressions, {_shape_text(derived)}")
        if thread_extent != "unknown" and thread_extent != extent:
            raise LayoutError(f"Fragment: the printed thread extent {thread_extent} is not the bound of the thread "
                              f"expression, {extent if extent is not None else 'pos_inf'}")
        if thread_range is not None:
            thread_range = tuple(int(v) for v in thread_range)
        for k, v in (("input_shape", shape), ("thread", thread), ("index", index), ("replicate", replicate),
                     ("thread_range", thread_range), ("output_shape", derived), ("thread_extent", extent),
                     ("form", form)):
            object.__setattr__(self, k, v)

    def _key(self):
        return self.input_shape, self.thread, self.index, self.replicate, self.thread_range

    def __str__(self):
        if self.form == "forward":
            return (f"Fragment({_shape_text(self.input_shape)} -> {_shape_text(self.output_shape)}, replicate: "
                    f"{self.replicate}, thread: {self.thread_extent if self.thread_extent is not None else 'pos_inf'}, "
                    f"forward_thread: {E.to_text(self.thread)}, "
                    f"forward_index: {_tuple_text(self.index)})")
        rng = f", thread_range: I.Range({self.thread_range[0]}, {self.thread_range[1]})" if self.thread_range else ""
        return (f"Fragment({_shape_text(self.input_shape)} -> {_shape_text(self.output_shape)}, replicate: "
                f"{self.replicate}, thread: {E.to_text(self.thread)}, index: {_tuple_text(self.index)}{rng})")

    def thread_map(self) -> np.ndarray:
        """int64 ``(N, replicate)``: the thread holding each input point, per replica (offset by ``thread_range``).

        >>> parse("Fragment((4,) -> (1,), replicate: 2, thread: 8, forward_thread: _rep * 4 + _i, "
        ...       "forward_index: (0,))").thread_map().tolist()
        [[0, 4], [1, 5], [2, 6], [3, 7]]
        """
        env = self._grid(extra=1)
        env["_rep"] = np.arange(self.replicate, dtype=np.int64)
        t = self._column(self.thread, env, self.input_shape + (self.replicate,)).reshape(self.size, self.replicate)
        return t + np.int64(self.thread_range[0]) if self.thread_range else t

    def index_columns(self) -> np.ndarray:
        """int64 ``(N, outputs)``: the forward index of every input point, one column per output dim.

        >>> parse("Fragment((2, 2) -> (2,), replicate: 1, thread: 2, forward_thread: _i, forward_index: (_j,))"
        ...       ).index_columns().tolist()
        [[0], [1], [0], [1]]
        """
        env = self._grid()
        return np.stack([self._column(e, env, self.input_shape).reshape(-1) for e in self.index], axis=1)

    def local_index(self) -> np.ndarray:
        """int64 ``(N,)``: the position of each input point in its thread's buffer (row-major over the outputs)."""
        return self._flat(self.index, self.output_shape)

    def index_map(self) -> np.ndarray:
        """int64 ``(N, 2)``: (first replica's thread, local index) of every input point (row-major).

        >>> parse("Fragment((2, 2) -> (2,), replicate: 1, thread: 2, forward_thread: _i, forward_index: (_j,))"
        ...       ).index_map().tolist()
        [[0, 0], [0, 1], [1, 0], [1, 1]]
        """
        return np.stack([self.thread_map()[:, 0], self.local_index()], axis=1)


def _tuple_of(s, what, item):
    s.expect("(", f"'(' to open {what}")
    out = []
    if s.accept(")"):
        return out
    while True:
        out.append(item(s))
        if s.accept(")"):
            return out
        s.expect(",", f"',' or ')' in {what}")
        if s.accept(")"):
            return out


def _ints(s, what, signs=""):
    return tuple(_tuple_of(s, what, lambda s: s.integer(signs=signs, what="an extent")))


def _extent(s):
    """An output extent: an integer (a bound + 1, so possibly below 1) or ``pos_inf`` (None)."""
    return None if s.keyword("pos_inf") else s.integer(signs="-", what="an extent or pos_inf")


def _key(s, word):
    s.skip()
    start = s.pos
    got = s.identifier(f"'{word}'")
    if got != word:
        s.fail(f"expected '{word}', found '{got}'", start)
    s.expect(":")


def parse(text: str):
    """A TileLang ``Layout(...)`` or ``Fragment(...)`` as TileLang prints it -> its value.

    Both fragment forms are read: ``thread: EXTENT, forward_thread: ..,
    forward_index: (..)`` (``print(fragment)``) and ``thread: EXPR, index:
    (..)[, thread_range: I.Range(a, b)]`` (layout inference's messages).

    >>> str(parse("Fragment((2,) -> (2,), replicate: 256, thread: _rep, index: (_i,), thread_range: I.Range(0, 256))"))
    'Fragment((2,) -> (2,), replicate: 256, thread: _rep, index: (_i,), thread_range: I.Range(0, 256))'
    """
    if not isinstance(text, str):
        raise LayoutError(f"tilelang.parse: expected text, got {type(text).__name__}")
    s = Scanner(text)
    s.skip()
    start = s.pos
    kind = s.identifier("Layout or Fragment")
    if kind not in ("Layout", "Fragment"):
        s.fail(f"expected Layout( or Fragment(, found {kind!r}", start)
    s.expect("(")
    in_shape = _ints(s, "the input shape")
    s.expect("->")
    out_shape = tuple(_tuple_of(s, "the output shape", _extent))
    s.expect(",")
    pos = s.pos
    try:
        if kind == "Layout":
            _key(s, "transform")
            s.skip()
            names_pos = s.pos
            names = _tuple_of(s, "the placeholders", lambda s: s.identifier("a placeholder"))
            if tuple(names) != placeholders(len(in_shape)):
                s.fail(f"the placeholders of a rank-{len(in_shape)} layout are "
                       f"{', '.join(placeholders(len(in_shape)))}", names_pos)
            s.expect("->")
            index = _tuple_of(s, "the output expressions", E.parse_at)
            s.expect(")")
            s.expect_end()
            return Layout(in_shape, index, out_shape)
        _key(s, "replicate")
        replicate = s.integer(what="the replica count")
        s.expect(",")
        _key(s, "thread")
        s.skip()
        thread_pos = s.pos
        thread = ("int", None) if s.keyword("pos_inf") else E.parse_at(s)
        s.expect(",")
        s.skip()
        word_pos = s.pos
        word = s.identifier("forward_thread or index")
        s.expect(":")
        if word == "forward_thread":
            if thread[0] != "int":
                s.fail("with forward_thread, 'thread' is the thread extent (an integer)", thread_pos)
            fwd = E.parse_at(s)
            s.expect(",")
            _key(s, "forward_index")
            index = _tuple_of(s, "the index expressions", E.parse_at)
            s.expect(")")
            s.expect_end()
            return Fragment(in_shape, fwd, index, replicate, output_shape=out_shape, thread_extent=thread[1])
        if word != "index":
            s.fail(f"expected forward_thread or index, found {word!r}", word_pos)
        index = _tuple_of(s, "the index expressions", E.parse_at)
        rng = None
        if s.accept(","):
            _key(s, "thread_range")
            s.expect("I.Range")
            s.expect("(")
            a = s.integer(what="the first thread")
            s.expect(",")
            b = s.integer(what="the thread count")
            s.expect(")")
            rng = (a, b)
        s.expect(")")
        s.expect_end()
        return Fragment(in_shape, thread, index, replicate, rng, output_shape=out_shape, form="index")
    except ParseError:
        raise
    except LayoutError as e:  # a rule of the value (a printed shape that is not the bound ...) at the fields
        s.fail(str(e), pos)
