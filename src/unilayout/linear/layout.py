"""The ``LinearLayout`` value: Triton's linear layouts over GF(2).

Overview
--------
A linear layout L maps a *hardware location* to a *logical tensor index*.
Inputs and outputs are tuples of named integer dimensions ("in-dims" such as
``register, lane, warp, block`` or ``offset``; "out-dims" ``dim0, dim1, ...``),
and every dimension size is a power of two. L is *linear over GF(2)*:

    L(x ^ y) == L(x) ^ L(y)   (XOR on every dimension)

so L is fixed by its values at the powers of two of each in-dim, its *bases*:
``bases[d][i] = L(d = 2**i, every other in-dim 0)``, one int per out-dim.

A worked table (Triton's LinearLayout.h example): 4 threads ``t`` and 4 warps
``w`` onto a 4x4 tensor, with bases ``L(t=1)=(1,1)``, ``L(t=2)=(2,2)``,
``L(w=1)=(0,1)``, ``L(w=2)=(0,2)``. Everything else is XORs of those:
``L(3,0) = (1,1)^(2,2) = (3,3)``, ``L(3,3) = (3,3)^(0,3) = (3,0)``::

    t\\w    0      1      2      3
    0    (0,0)  (0,1)  (0,2)  (0,3)
    1    (1,1)  (1,0)  (1,3)  (1,2)
    2    (2,2)  (2,3)  (2,0)  (2,1)
    3    (3,3)  (3,2)  (3,1)  (3,0)

which is the classic swizzle ``(t, w) -> (t, t ^ w)``:

>>> from unilayout.linear import LinearLayout
>>> L = LinearLayout({"t": [[1, 1], [2, 2]], "w": [[0, 1], [0, 2]]}, ["x", "y"])
>>> L.apply({"t": 3, "w": 3})
{'x': 3, 'y': 0}
>>> L.out_dims
[('x', 4), ('y', 4)]

Canonical examples: the identity ``[1, 2, 4]`` (``identity_1d(8, "i", "o")``),
zeros ``[0, 0, 0]`` (broadcast: several hardware slots hold one element), a
1-D "transpose" ``[4, 8, 1, 2]`` (x -> 0 4 8 C 1 5 9 D ...), and a 2-D -> 1-D
broadcast ``{x: [1, 2], y: [0, 0]}``.

Invariants (checked once, at construction; violations raise ``LayoutError``)
-------------------------------------------------------------------------
- in-dim names are unique, out-dim names are unique (the two sets may share
  names, e.g. ``block``);
- every basis has exactly one entry per out-dim, in out-dim order;
- out-dim sizes are powers of two (1 allowed) and ``0 <= entry < size``;
- with ``require_surjective`` (the default) every output is reached:
  GF(2) rank == sum of log2 out sizes.
- Both dim lists are ordered **minor to major**: the first dim supplies the
  lowest bits when the layout is flattened. Order matters for reshape,
  flatten, ``*``, ``==``, ``str`` and the matrix view, not for ``apply``,
  ``compose`` or ``invert_and_compose``.

Why hardware -> tensor and not the reverse? One tensor element may live in
several places (broadcast), so only this direction is a function. Layouts
are therefore usually surjective and rarely injective.

Comparison with CuTe
--------------------
CuTe layouts map a (nested) integer coordinate to an offset by an inner
product with strides, over the integers, with any sizes; they compose and
divide, and swizzles are a separate functor. Linear layouts have named,
flat, power-of-two dims, work over GF(2) (XOR instead of +), so swizzles are
just more bases; inverses and "which slot holds element e" are one linear
solve (:meth:`LinearLayout.invert_and_compose`). CuTe can express padding and
non-power-of-two shapes; linear layouts cannot.

Deliberate differences from Triton 3.9.0
----------------------------------------
- No 64-bit caps and no int32 sizes: any number of in/out bits works
  (Triton asserts at 64 input bits, 64 output bits and 64 solver columns).
- Every Triton ``assert`` / fatal error becomes ``LayoutError`` with the
  reason and the fix (``None`` for the optional-returning operations
  ``divide_left``, ``divide_right``, ``quotient``); nothing aborts.
- ``apply`` rejects inputs outside ``[0, size)`` (Triton drops the high bits).
- Repeated dim names raise: in the bases (Triton's binding keeps one), in
  ``concat_ins``/``concat_outs`` (Triton keeps self's), and ``a * b`` with
  common dims in conflicting orders (Triton's release build returns an
  arbitrary order).
- ``divide_right`` returns ``None`` unless ``C * B == A`` (Triton skips
  some checks and then asserts); ``is_trivial_over`` is False for a name that
  is not both an in- and an out-dim (Triton aborts).
See ``docs/linear.md`` for the full list, including the encodings.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Iterable, Sequence

from .._ints import as_int, as_pow2
from ..errors import LayoutError
from . import _bases, _tables, gf2
from ._bases import _as_name

__all__ = [
    "LinearLayout",
    "empty",
    "identity_1d",
    "zeros_1d",
    "strided_1d",
    "from_bases",
    "identity_standard_nd",
]


#: The in-dims of a ``#ttg.linear`` attribute, in order.
ATTR_IN_DIMS = ("register", "lane", "warp", "block")


def _name_str(name: str) -> str:
    """A dim name as ``str`` prints it: bare if it is an identifier, else in double quotes with ``\\`` escapes."""
    if name.isascii() and name.isidentifier():
        return name
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


class LinearLayout:
    """A linear map over GF(2) from named in-dims to named out-dims (Triton's LinearLayout).

    ``bases`` maps each in-dim name to its basis vectors (``bases[d][i] =
    L(d=2**i)``, one int per out-dim, out-dims in order), as a dict or a
    sequence of ``(name, vectors)`` pairs. ``out_dims`` is ``{name: size}``
    (or ``(name, size)`` pairs), or a list of names whose sizes are inferred
    as the smallest power of two above the largest entry (Triton's rule; the
    result must then be surjective). Both orders are minor-to-major.

    Values are immutable, hashable and compare by value (names, order, sizes,
    bases). ``repr`` pastes back as code; ``str`` is Triton's ``toString``.

    **Pre-conditions:** see the module invariants; violations raise LayoutError.

    >>> L = LinearLayout({"register": [[1, 0], [0, 1]], "lane": [[2, 0]]}, {"dim0": 4, "dim1": 2})
    >>> L
    LinearLayout({'register': [[1, 0], [0, 1]], 'lane': [[2, 0]]}, {'dim0': 4, 'dim1': 2})
    >>> L.apply({"register": 3, "lane": 1})
    {'dim0': 3, 'dim1': 1}
    >>> print(L)
    <BLANKLINE>
     - register=1 -> (1, 0)
       register=2 -> (0, 1)
     - lane=1 -> (2, 0)
    where out dims are: [dim0 (size 4), dim1 (size 2)]
    >>> LinearLayout({"i": [[3]]}, {"o": 4})
    Traceback (most recent call last):
    ...
    unilayout.errors.LayoutError: layout is not surjective: it reaches 2 of the 4 points of out-dims [o (size 4)] (GF(2) rank 1 < 2 output bits); pass require_surjective=False if that is intended
    """

    __slots__ = ("_bases", "_outs", "_cols", "_rank", "_hash", "_plan")

    # ------------------------------------------------------------------ build
    def __init__(self, bases: Any, out_dims: Any, require_surjective: bool = True):
        # Every check but surjectivity is ``_bases.check``; the rank comes back when a fast path
        # knows it (columns and rank are otherwise derived lazily: ``_columns``, ``rank``).
        nbases, outs, rank, check_surjective, inferred = _bases.check(bases, out_dims, require_surjective)
        setattr_ = object.__setattr__
        setattr_(self, "_bases", nbases)
        setattr_(self, "_outs", outs)
        setattr_(self, "_cols", None)
        setattr_(self, "_rank", rank)
        if check_surjective and not self.is_surjective():
            raise LayoutError(
                f"layout is not surjective: it reaches {1 << self.rank} of the {self.total_out_dim_size} "
                f"points of out-dims {self._outs_str()} (GF(2) rank {self.rank} < "
                f"{self.total_out_dim_size_log2} output bits); pass require_surjective=False if that is intended"
                + ("" if not inferred else " and explicit out-dim sizes")
            )

    @classmethod
    def _make(cls, bases, outs) -> "LinearLayout":
        # Trusted constructor for results of operations: no validation.
        self = object.__new__(cls)
        object.__setattr__(self, "_bases", bases)
        object.__setattr__(self, "_outs", outs)
        object.__setattr__(self, "_cols", None)
        object.__setattr__(self, "_rank", None)
        return self

    def __setattr__(self, name, value):
        raise AttributeError("LinearLayout is immutable")

    def __delattr__(self, name):
        raise AttributeError("LinearLayout is immutable")

    def __reduce__(self):
        return (LinearLayout._make, (self._bases, self._outs))

    # -------------------------------------------------------- constructors
    @staticmethod
    def empty() -> "LinearLayout":
        """The layout with no in- or out-dims; it maps everything to 0 and is the unit of ``*``.

        >>> str(LinearLayout.empty())
        '\\n(empty layout)'
        >>> LinearLayout.empty() * identity_1d(4, "i", "o") == identity_1d(4, "i", "o")
        True
        """
        return _EMPTY

    @staticmethod
    def identity_1d(size: int, in_dim: str, out_dim: str) -> "LinearLayout":
        """L(x) = x for x in [0, size): bases 1, 2, 4, ..., size/2; size 0 gives ``empty()``.

        >>> identity_1d(8, "i", "o").bases
        [('i', [[1], [2], [4]])]
        """
        return LinearLayout.strided_1d(size, 1, in_dim, out_dim)

    @staticmethod
    def strided_1d(size: int, stride: int, in_dim: str, out_dim: str) -> "LinearLayout":
        """L(x) = stride * x for x in [0, size): bases s, 2s, 4s, ...; out size size*stride.

        ``size*stride`` must be a power of two (so stride is 1, 2, 4, ...); size 0 gives ``empty()``.

        >>> strided_1d(4, 2, "i", "o")
        LinearLayout({'i': [[2], [4]]}, {'o': 8}, require_surjective=False)
        """
        size = as_int(size, "size")
        stride = as_int(stride, "stride")
        in_dim = _as_name(in_dim, "in-dim name")
        out_dim = _as_name(out_dim, "out-dim name")
        if size == 0:
            return _EMPTY
        as_pow2(size, f"size of in-dim {in_dim!r}")
        as_pow2(size * stride, f"out-dim {out_dim!r} size = size*stride = {size}*{stride} =")
        vecs = tuple((stride << i,) for i in range(size.bit_length() - 1))
        return LinearLayout._make(((in_dim, vecs),), ((out_dim, size * stride),))

    @staticmethod
    def zeros_1d(size: int, in_dim: str, out_dim: str, out_dim_size: int = 1) -> "LinearLayout":
        """L(x) = 0 for x in [0, size) (broadcast); out size ``out_dim_size`` (1: surjective).

        >>> zeros_1d(4, "i", "o")
        LinearLayout({'i': [[0], [0]]}, {'o': 1})
        >>> zeros_1d(4, "i", "o", 8).is_surjective()
        False
        """
        size = as_int(size, "size")
        in_dim = _as_name(in_dim, "in-dim name")
        out_dim = _as_name(out_dim, "out-dim name")
        if size == 0:
            return _EMPTY
        as_pow2(size, f"size of in-dim {in_dim!r}")
        out_dim_size = as_pow2(out_dim_size, f"size of out-dim {out_dim!r}")
        vecs = tuple((0,) for _ in range(size.bit_length() - 1))
        return LinearLayout._make(((in_dim, vecs),), ((out_dim, out_dim_size),))

    @staticmethod
    def from_bases(
        bases: Any,
        out_dim_names: Sequence[str],
        out_dim_sizes: Sequence[int] | None = None,
        require_surjective: bool = True,
    ) -> "LinearLayout":
        """Triton's ``from_bases``: bases as ``[(in_dim, [[...], ...]), ...]``, out-dim
        names, and optional sizes (inferred when omitted, which requires surjectivity).

        >>> from_bases([("i", [[1, 0], [0, 1], [2, 0]])], ["a", "b"]).out_dims
        [('a', 4), ('b', 2)]
        >>> from_bases([("i", [[1]])], ["o"], [4], require_surjective=False).is_surjective()
        False
        """
        return LinearLayout(bases, *_bases.from_bases_args(out_dim_names, out_dim_sizes, require_surjective))

    # ----------------------------------------------------------- accessors
    @property
    def bases(self) -> list[tuple[str, list[list[int]]]]:
        """The bases as Triton's binding returns them: ``[(in_dim, [[entry per out-dim], ...]), ...]``.

        >>> identity_1d(4, "i", "o").bases
        [('i', [[1], [2]])]
        """
        return [(name, [list(v) for v in vecs]) for name, vecs in self._bases]

    @property
    def out_dims(self) -> list[tuple[str, int]]:
        """``[(out_dim, size), ...]`` in order (minor to major).

        >>> identity_1d(4, "i", "o").out_dims
        [('o', 4)]
        """
        return list(self._outs)

    @property
    def in_dims(self) -> list[tuple[str, int]]:
        """``[(in_dim, size), ...]`` in order (minor to major).

        >>> (identity_1d(4, "i", "o") * identity_1d(2, "j", "o")).in_dims
        [('i', 4), ('j', 2)]
        """
        return [(name, 1 << len(vecs)) for name, vecs in self._bases]

    @property
    def in_dim_names(self) -> list[str]:
        """In-dim names in order.

        >>> identity_1d(4, "i", "o").in_dim_names
        ['i']
        """
        return [name for name, _ in self._bases]

    @property
    def out_dim_names(self) -> list[str]:
        """Out-dim names in order.

        >>> identity_1d(4, "i", "o").out_dim_names
        ['o']
        """
        return [name for name, _ in self._outs]

    def get_in_dim_names(self) -> list[str]:
        """Same as :attr:`in_dim_names` (Triton binding name).

        >>> zeros_1d(2, "i", "o").get_in_dim_names()
        ['i']
        """
        return self.in_dim_names

    def get_out_dim_names(self) -> list[str]:
        """Same as :attr:`out_dim_names` (Triton binding name).

        >>> zeros_1d(2, "i", "o").get_out_dim_names()
        ['o']
        """
        return self.out_dim_names

    @property
    def num_in_dims(self) -> int:
        """Number of in-dims.

        >>> LinearLayout.empty().num_in_dims
        0
        """
        return len(self._bases)

    @property
    def num_out_dims(self) -> int:
        """Number of out-dims.

        >>> identity_1d(2, "i", "o").num_out_dims
        1
        """
        return len(self._outs)

    def has_in_dim(self, name: str) -> bool:
        """Whether ``name`` is an in-dim.

        >>> identity_1d(2, "i", "o").has_in_dim("o")
        False
        """
        return any(n == name for n, _ in self._bases)

    def has_out_dim(self, name: str) -> bool:
        """Whether ``name`` is an out-dim.

        >>> identity_1d(2, "i", "o").has_out_dim("o")
        True
        """
        return any(n == name for n, _ in self._outs)

    def _in_index(self, name: str) -> int:
        for k, (n, _) in enumerate(self._bases):
            if n == name:
                return k
        raise LayoutError(f"{name!r} is not an in-dim of this layout; in-dims are {self.in_dim_names}")

    def _out_index(self, name: str) -> int:
        for k, (n, _) in enumerate(self._outs):
            if n == name:
                return k
        raise LayoutError(f"{name!r} is not an out-dim of this layout; out-dims are {self.out_dim_names}")

    def in_dim_size(self, name: str) -> int:
        """Size of in-dim ``name`` (2 ** number of its bases).

        >>> identity_1d(8, "i", "o").in_dim_size("i")
        8
        """
        return 1 << len(self._bases[self._in_index(name)][1])

    def in_dim_size_log2(self, name: str) -> int:
        """log2 of the size of in-dim ``name``.

        >>> identity_1d(8, "i", "o").in_dim_size_log2("i")
        3
        """
        return len(self._bases[self._in_index(name)][1])

    def out_dim_size(self, name: str) -> int:
        """Size of out-dim ``name``.

        >>> zeros_1d(8, "i", "o", 4).out_dim_size("o")
        4
        """
        return self._outs[self._out_index(name)][1]

    def out_dim_size_log2(self, name: str) -> int:
        """log2 of the size of out-dim ``name``.

        >>> zeros_1d(8, "i", "o", 4).out_dim_size_log2("o")
        2
        """
        return self._outs[self._out_index(name)][1].bit_length() - 1

    @property
    def total_in_dim_size_log2(self) -> int:
        """Number of input bits.

        >>> identity_1d(8, "i", "o").total_in_dim_size_log2
        3
        """
        return sum(len(v) for _, v in self._bases)

    @property
    def total_in_dim_size(self) -> int:
        """Number of inputs (product of in-dim sizes).

        >>> (identity_1d(8, "i", "o") * identity_1d(4, "j", "p")).total_in_dim_size
        32
        """
        return 1 << self.total_in_dim_size_log2

    @property
    def total_out_dim_size_log2(self) -> int:
        """Number of output bits.

        >>> identity_1d(8, "i", "o").total_out_dim_size_log2
        3
        """
        return sum(s.bit_length() - 1 for _, s in self._outs)

    @property
    def total_out_dim_size(self) -> int:
        """Number of outputs (product of out-dim sizes).

        >>> identity_1d(8, "i", "o").total_out_dim_size
        8
        """
        return 1 << self.total_out_dim_size_log2

    def get_basis(self, in_dim: str, pos: int, out_dim: str | None = None):
        """``L(in_dim = 2**pos)``: the basis tuple, or one entry of it when ``out_dim`` is given.

        >>> L = LinearLayout({"i": [[1, 0], [0, 1]]}, ["a", "b"])
        >>> L.get_basis("i", 1), L.get_basis("i", 1, "b")
        ((0, 1), 1)
        """
        vecs = self._bases[self._in_index(in_dim)][1]
        pos = as_int(pos, "basis position")
        if not 0 <= pos < len(vecs):
            raise LayoutError(
                f"in-dim {in_dim!r} has {len(vecs)} bases (size {1 << len(vecs)}); position {pos} is out of range"
            )
        if out_dim is None:
            return vecs[pos]
        return vecs[pos][self._out_index(out_dim)]

    # ---------------------------------------------------------- GF(2) view
    def _shifts(self) -> list[int]:
        shifts = []
        s = 0
        for _, size in self._outs:
            shifts.append(s)
            s += size.bit_length() - 1
        return shifts

    def _columns(self) -> tuple[int, ...]:
        """Flattened columns: one int per input bit (in-dims in order, low bit
        first); out-dim j occupies bits [shift_j, shift_j + log2 size_j)."""
        cols = self._cols
        if cols is None:
            n = len(self._outs)
            if n == 1:
                cols = tuple([v[0] for _, vecs in self._bases for v in vecs])
            elif n == 2:
                s1 = self._outs[0][1].bit_length() - 1
                cols = tuple([e0 | (e1 << s1) for _, vecs in self._bases for e0, e1 in vecs])
            elif n == 0:
                cols = tuple([0 for _, vecs in self._bases for v in vecs])
            else:
                shifts = self._shifts()
                out = []
                for _, vecs in self._bases:
                    for v in vecs:
                        acc = 0
                        for e, sh in zip(v, shifts):
                            acc |= e << sh
                        out.append(acc)
                cols = tuple(out)
            object.__setattr__(self, "_cols", cols)
        return cols

    @property
    def rank(self) -> int:
        """GF(2) rank of the layout's bit matrix (number of independent bases).

        >>> LinearLayout({"i": [[1], [1], [2]]}, ["o"]).rank
        2
        """
        r = self._rank
        if r is None:
            r = gf2.rank(self._columns())
            object.__setattr__(self, "_rank", r)
        return r

    def is_surjective(self) -> bool:
        """Every output is reached: rank == number of output bits.

        >>> zeros_1d(2, "i", "o", 2).is_surjective()
        False
        """
        return self.rank == self.total_out_dim_size_log2

    def is_injective(self) -> bool:
        """No two inputs share an output: rank == number of input bits.

        >>> zeros_1d(2, "i", "o").is_injective()
        False
        """
        return self.rank == self.total_in_dim_size_log2

    def is_invertible(self) -> bool:
        """Surjective with as many inputs as outputs (a bijection).

        >>> identity_1d(4, "i", "o").is_invertible()
        True
        """
        return self.is_surjective() and self.total_in_dim_size_log2 == self.total_out_dim_size_log2

    def get_matrix_view(self) -> list[list[int]]:
        """The bit matrix: row r = output bit r (out-dims in order, low bit
        first), column c = input bit c (in-dims in order, low bit first).

        >>> LinearLayout({"r": [[1, 0], [0, 1]], "l": [[2, 0]]}, ["d0", "d1"]).get_matrix_view()
        [[1, 0, 0], [0, 0, 1], [0, 1, 0]]
        """
        cols = self._columns()
        nrows = self.total_out_dim_size_log2
        return [[(c >> r) & 1 for c in cols] for r in range(nrows)]

    def flat_bases(self) -> list[tuple[str, list[int]]]:
        """Each in-dim's bases as single ints: out-dims flattened, the first one least significant.

        Out-dim ``j`` takes the bits above those of the out-dims before it, so
        for out-dims ``dim0`` (size M), ``dim1`` a basis ``[a, b]`` is
        ``a + M * b``: CuTe's offset of a thread-value index.

        >>> LinearLayout({"r": [[1, 0], [0, 1]], "l": [[2, 0]]}, {"d0": 4, "d1": 2}).flat_bases()
        [('r', [1, 4]), ('l', [2])]
        """
        cols = iter(self._columns())
        return [(name, [next(cols) for _ in vecs]) for name, vecs in self._bases]

    # ---------------------------------------------------------- evaluation
    def apply(self, ins: Any) -> dict[str, int]:
        """L at one point: ``{in_dim: value}`` (every in-dim, any order) -> ``{out_dim: value}``.

        Values must lie in ``[0, in_dim_size)`` (Triton silently drops higher bits).

        >>> L = identity_1d(4, "i", "o") * zeros_1d(2, "i", "o")
        >>> L.apply({"i": 6})
        {'o': 2}
        """
        try:
            plan = self._plan  # built on first use (slot unset until then)
        except AttributeError:
            plan = self._make_plan()
        in_plan, outs, cols = plan
        if type(ins) is dict and len(ins) == len(in_plan):
            acc = 0
            try:
                for name, c, limit in in_plan:
                    v = ins[name]
                    if type(v) is not int or not 0 <= v < limit:
                        raise LayoutError
                    while v:
                        low = v & -v
                        acc ^= cols[c + low.bit_length() - 1]
                        v ^= low
            except (KeyError, LayoutError):
                return self._apply_checked(ins)
            if len(outs) == 1:
                return {outs[0][0]: acc}
            res = {}
            for name, mask, shift in outs:
                res[name] = (acc >> shift) & mask
            return res
        return self._apply_checked(ins)

    def _make_plan(self):
        in_plan = []
        c = 0
        for name, vecs in self._bases:
            in_plan.append((name, c, 1 << len(vecs)))
            c += len(vecs)
        outs = tuple((name, size - 1, sh) for (name, size), sh in zip(self._outs, self._shifts()))
        plan = (tuple(in_plan), outs, self._columns())
        object.__setattr__(self, "_plan", plan)
        return plan

    def _apply_checked(self, ins: Any) -> dict[str, int]:
        if not isinstance(ins, (Mapping, list, tuple)):
            raise LayoutError(f"apply: expected {{in_dim: value}} or (in_dim, value) pairs, got {type(ins).__name__} "
                              f"{ins!r:.60}")
        items = ins.items() if isinstance(ins, Mapping) else ins
        vals = {}
        for item in items:
            try:
                k, v = item
            except (TypeError, ValueError):
                raise LayoutError(f"apply: expected {{in_dim: value}} or (in_dim, value) pairs, got {item!r}") from None
            if k in vals:
                raise LayoutError(f"apply: in-dim {k!r} given twice")
            vals[k] = v
        names = self.in_dim_names
        _tables.check_in_dims(names, vals, "apply: expected a value for")
        cols = self._columns()
        acc = 0
        c = 0
        for name, vecs in self._bases:
            v = as_int(vals[name], f"apply: value of in-dim {name!r}")
            n = len(vecs)
            if not 0 <= v < (1 << n):
                raise LayoutError(f"apply: {name}={v} is outside [0, {1 << n})")
            i = 0
            while v:
                if v & 1:
                    acc ^= cols[c + i]
                v >>= 1
                i += 1
            c += n
        return self._unflatten(acc)

    def _unflatten(self, flat: int) -> dict[str, int]:
        out = {}
        for name, size in self._outs:
            out[name] = flat & (size - 1)
            flat >>= size.bit_length() - 1
        return out

    def evaluate(self, ins: Mapping[str, Any]) -> dict[str, Any]:
        """Vectorised ``apply``: ``{in_dim: array}`` (broadcastable) -> ``{out_dim: int64 array}``.

        >>> import numpy as np
        >>> L = identity_1d(4, "i", "o") * zeros_1d(2, "i", "o")
        >>> L.evaluate({"i": np.arange(8)})["o"].tolist()
        [0, 1, 2, 3, 0, 1, 2, 3]
        """
        return _tables.evaluate(self, ins)

    def index_map(self):
        """Every input's image: int64 array (N, num_out_dims), inputs flattened
        with the first in-dim least significant, columns = out-dims in order.

        >>> (zeros_1d(2, "i", "o") * identity_1d(4, "i", "o")).index_map()[:, 0].tolist()
        [0, 0, 1, 1, 2, 2, 3, 3]
        """
        return _tables.index_map(self)

    # ---------------------------------------------------------- value type
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LinearLayout):
            return NotImplemented
        return self is other or (self._outs == other._outs and self._bases == other._bases)

    def __ne__(self, other: object) -> bool:
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    def __hash__(self) -> int:
        try:
            return self._hash  # computed on first use (slot unset until then)
        except AttributeError:
            h = hash((self._bases, self._outs))
            object.__setattr__(self, "_hash", h)
            return h

    def equal_ignoring_out_dim_sizes(self, other: "LinearLayout") -> bool:
        """Same out-dim names (in order), in-dims and bases; out sizes may differ.

        >>> zeros_1d(2, "i", "o").equal_ignoring_out_dim_sizes(zeros_1d(2, "i", "o", 4))
        True
        """
        if not isinstance(other, LinearLayout):
            raise LayoutError(f"equal_ignoring_out_dim_sizes: expected a LinearLayout, got {type(other).__name__}")
        return (
            [n for n, _ in self._outs] == [n for n, _ in other._outs] and self._bases == other._bases
        )

    def _outs_str(self) -> str:
        return "[" + ", ".join(f"{_name_str(n)} (size {s})" for n, s in self._outs) + "]"

    def __str__(self) -> str:
        """Triton's ``LinearLayout::toString``; ``linear.parse`` reads it back (names that are not
        identifiers are printed in double quotes, a departure Triton's own names never need).

        >>> print(LinearLayout({"register": [[0, 1]], "lane": []}, {"dim0": 1, "dim1": 2}))
        <BLANKLINE>
         - register=1 -> (0, 1)
         - lane is a size 1 dimension
        where out dims are: [dim0 (size 1), dim1 (size 2)]
        """
        if not self._bases:
            if not self._outs:
                return "\n(empty layout)"
            return f"\n(empty layout with out-dims {self._outs_str()})"
        parts = ["\n"]
        for name, vecs in self._bases:
            name = _name_str(name)
            if not vecs:
                parts.append(f" - {name} is a size 1 dimension\n")
                continue
            lines = [
                f"{name}={1 << i} -> (" + ", ".join(str(e) for e in v) + ")" for i, v in enumerate(vecs)
            ]
            parts.append(" - " + "\n   ".join(lines) + "\n")
        parts.append("where out dims are: " + self._outs_str())
        return "".join(parts)

    def __repr__(self) -> str:
        bases = "{" + ", ".join(f"{n!r}: {[list(v) for v in vecs]!r}" for n, vecs in self._bases) + "}"
        outs = "{" + ", ".join(f"{n!r}: {s}" for n, s in self._outs) + "}"
        extra = "" if self.is_surjective() else ", require_surjective=False"
        return f"LinearLayout({bases}, {outs}{extra})"

    # ------------------------------------------------------------- algebra
    def __mul__(self, outer: "LinearLayout") -> "LinearLayout":
        """Direct sum ``inner * outer`` (Triton ``operator*``); see :func:`algebra.product`.

        >>> (identity_1d(4, "i", "o") * zeros_1d(2, "i", "o")).bases
        [('i', [[1], [2], [0]])]
        """
        if not isinstance(outer, LinearLayout):
            return NotImplemented
        return _alg.product(self, outer)

    def compose(self, outer: "LinearLayout") -> "LinearLayout":
        """``outer(self(x))``; see :func:`algebra.compose`.

        >>> a = LinearLayout({"i": [[1], [2], [4]]}, ["x"])
        >>> a.compose(LinearLayout({"x": [[4], [1], [2]]}, ["y"])).bases
        [('i', [[4], [1], [2]])]
        """
        return _alg.compose(self, outer)

    def invert_and_compose(self, outer: "LinearLayout") -> "LinearLayout":
        """C with ``outer(C(x)) == self(x)``; see :func:`algebra.invert_and_compose`.

        >>> a = identity_1d(4, "i", "o")
        >>> b = zeros_1d(2, "j", "o") * identity_1d(4, "j", "o")
        >>> a.invert_and_compose(b)
        LinearLayout({'i': [[2], [4]]}, {'j': 8}, require_surjective=False)
        """
        return _alg.invert_and_compose(self, outer)

    def invert(self) -> "LinearLayout":
        """The inverse of an invertible layout; see :func:`algebra.invert`.

        >>> LinearLayout({"i": [[2], [1]]}, ["o"]).invert()
        LinearLayout({'o': [[2], [1]]}, {'i': 4})
        """
        return _alg.invert(self)

    def pseudoinvert(self) -> "LinearLayout":
        """A right inverse R of a surjective layout (``L(R(y)) == y``); see :func:`algebra.pseudoinvert`.

        >>> LinearLayout({"i": [[0], [1], [2]]}, ["o"]).pseudoinvert()
        LinearLayout({'o': [[2], [4]]}, {'i': 8}, require_surjective=False)
        """
        return _alg.pseudoinvert(self)

    def sublayout(self, in_dims: Iterable[str], out_dims: Iterable[str]) -> "LinearLayout":
        """Restriction to some in-dims (others act as 0) and out-dims (others dropped).

        >>> L = identity_1d(4, "i", "x") * identity_1d(2, "j", "y")
        >>> L.sublayout(["j"], ["y"])
        LinearLayout({'j': [[1]]}, {'y': 2})
        """
        return _alg.sublayout(self, in_dims, out_dims)

    def sublayout_is_zero(self, in_dims: Iterable[str], out_dims: Iterable[str]) -> bool:
        """Whether ``sublayout(in_dims, out_dims)`` has only zero bases.

        >>> (identity_1d(4, "i", "x") * identity_1d(2, "j", "y")).sublayout_is_zero(["j"], ["x"])
        True
        """
        return _alg.sublayout_is_zero(self, in_dims, out_dims)

    def is_trivial_over(self, dims: Iterable[str]) -> bool:
        """Whether the layout is the identity on ``dims`` and does not mix them with others.

        >>> identity_1d(4, "block", "block").is_trivial_over(["block"])
        True
        """
        return _alg.is_trivial_over(self, dims)

    def quotient(self, dims: Iterable[str]) -> "LinearLayout | None":
        """The layout on the other dims if it is trivial over ``dims``, else None.

        >>> L = LinearLayout({"dim1": [[1, 0]], "dim2": [[0, 0]]}, {"dim1": 2, "dim2": 1})
        >>> L.quotient(["dim1"])
        LinearLayout({'dim2': [[0]]}, {'dim2': 1})
        """
        return _alg.quotient(self, dims)

    def transpose_ins(self, names: Sequence[str]) -> "LinearLayout":
        """The same function with in-dims reordered to ``names``.

        >>> (identity_1d(2, "a", "o") * identity_1d(2, "b", "o")).transpose_ins(["b", "a"]).in_dim_names
        ['b', 'a']
        """
        return _alg.transpose_ins(self, names)

    def transpose_outs(self, names: Sequence[str]) -> "LinearLayout":
        """The same function with out-dims reordered to ``names``.

        >>> LinearLayout({"i": [[1, 0], [0, 1]]}, ["a", "b"]).transpose_outs(["b", "a"]).bases
        [('i', [[0, 1], [1, 0]])]
        """
        return _alg.transpose_outs(self, names)

    def reshape_ins(self, new_in_dims: Sequence[tuple[str, int]]) -> "LinearLayout":
        """Flatten the inputs (first in-dim lowest) and re-split into ``[(name, size), ...]``.

        >>> identity_1d(8, "i", "o").reshape_ins([("a", 2), ("b", 4)]).bases
        [('a', [[1]]), ('b', [[2], [4]])]
        """
        return _alg.reshape_ins(self, new_in_dims)

    def reshape_outs(self, new_out_dims: Sequence[tuple[str, int]]) -> "LinearLayout":
        """Flatten the outputs (first out-dim lowest) and re-split into ``[(name, size), ...]``.

        >>> L = LinearLayout({"in1": [[1], [4], [8]], "in2": [[3]]}, {"out": 16})
        >>> L.reshape_outs([("o2", 2), ("o3", 8)]).bases
        [('in1', [[1, 0], [0, 2], [0, 4]]), ('in2', [[1, 1]])]
        """
        return _alg.reshape_outs(self, new_out_dims)

    def flatten_ins(self) -> "LinearLayout":
        """One in-dim, named after the first, of the total size.

        >>> (identity_1d(2, "a", "o") * identity_1d(2, "b", "o")).flatten_ins().in_dims
        [('a', 4)]
        """
        return _alg.flatten_ins(self)

    def flatten_outs(self) -> "LinearLayout":
        """One out-dim, named after the first, of the total size.

        >>> LinearLayout({"i": [[1, 0], [0, 1]]}, ["a", "b"]).flatten_outs().bases
        [('i', [[1], [2]])]
        """
        return _alg.flatten_outs(self)

    def concat_ins(self, other: "LinearLayout") -> "LinearLayout":
        """Put ``other``'s in-dims after ours (same out-dims and sizes required).

        >>> identity_1d(2, "a", "o").concat_ins(identity_1d(2, "b", "o")).bases
        [('a', [[1]]), ('b', [[1]])]
        """
        return _alg.concat_ins(self, other)

    def concat_outs(self, other: "LinearLayout") -> "LinearLayout":
        """Put ``other``'s out-dims after ours (same in-dims and sizes required).

        >>> identity_1d(2, "i", "a").concat_outs(identity_1d(2, "i", "b")).bases
        [('i', [[1, 1]])]
        """
        return _alg.concat_outs(self, other)

    def resize_in_dim(self, in_dim: str, new_size: int) -> "LinearLayout":
        """Shrink (drop the top bases) or grow (append zero bases) one in-dim.

        >>> identity_1d(4, "i", "o").resize_in_dim("i", 8).bases
        [('i', [[1], [2], [0]])]
        """
        return _alg.resize_in_dim(self, in_dim, new_size)

    def resize_out_dim(self, out_dim: str, new_size: int) -> "LinearLayout":
        """Shrink one out-dim; entries that no longer fit become 0.

        >>> identity_1d(4, "i", "o").resize_out_dim("o", 2).bases
        [('i', [[1], [0]])]
        """
        return _alg.resize_out_dim(self, out_dim, new_size)

    def rename_in_dim(self, old: str, new: str) -> "LinearLayout":
        """Rename an in-dim (the new name must be unused).

        >>> identity_1d(2, "i", "o").rename_in_dim("i", "j").in_dim_names
        ['j']
        """
        return _alg.rename_in_dim(self, old, new)

    def remove_zero_bases_along_dim(self, in_dim: str) -> "LinearLayout":
        """Drop the all-zero bases of one in-dim (Triton ``removeZeroBasesAlongDim``).

        >>> LinearLayout({"r": [[1], [0], [2]]}, ["o"]).remove_zero_bases_along_dim("r").bases
        [('r', [[1], [2]])]
        """
        return _alg.remove_zero_bases_along_dim(self, in_dim)

    def free_variable_masks(self) -> dict[str, int]:
        """Per in-dim, the bits that lie in the span of earlier input bits (0 everywhere iff injective).

        >>> LinearLayout({"in1": [[1, 1], [2, 2], [0, 0]], "in2": [[1, 0], [0, 1], [2, 0]]}, ["a", "b"]).free_variable_masks()
        {'in1': 4, 'in2': 2}
        """
        return _alg.free_variable_masks(self)

    def num_consecutive_in_out(self) -> int:
        """How many consecutive values of the first in-dim map to consecutive first-out-dim values.

        >>> LinearLayout({"i": [[1], [2], [4], [10]]}, {"o": 16}).num_consecutive_in_out()
        2
        """
        return _alg.num_consecutive_in_out(self)

    def to_attr(self) -> str:
        """Triton's ``#ttg.linear<{...}>`` attribute text; ``linear.parse`` reads it back.

        **Pre-conditions:** in-dims exactly ``register, lane, warp, block`` (in
        order), out-dims ``dim0..dim{r-1}`` (r >= 1) whose sizes are the ones
        Triton infers from the bases (the attribute does not carry sizes).

        >>> L = identity_1d(2, "register", "dim0") * identity_1d(2, "lane", "dim0")
        >>> (L * zeros_1d(1, "warp", "dim0") * zeros_1d(1, "block", "dim0")).to_attr()
        '#ttg.linear<{register = [[1]], lane = [[2]], warp = [], block = []}>'

        A shared layout (in-dims ``offset`` and optionally ``block``) prints as
        ``#ttg.shared_linear<{offset = [...], block = [...]}, alignment = 16>``
        (``block`` only when it has bases), its out sizes the ones the bases imply:

        >>> identity_1d(4, "offset", "dim0").to_attr()
        '#ttg.shared_linear<{offset = [[1], [2]]}, alignment = 16>'
        """
        names = self.in_dim_names
        if tuple(names) in (("offset",), ("offset", "block")):
            return _shared_linear_attr(self)
        if tuple(names) != ATTR_IN_DIMS:
            raise LayoutError(f"#ttg.linear needs exactly the in-dims {list(ATTR_IN_DIMS)} in that order, got {names}")
        outs = self.out_dim_names
        if not outs or outs != [f"dim{i}" for i in range(len(outs))]:
            raise LayoutError(f"#ttg.linear needs out-dims dim0, dim1, ... in order, got {outs}")
        try:
            inferred = LinearLayout(self._bases, outs)  # the sizes Triton infers; surjective
        except LayoutError:
            inferred = None
        if inferred != self:
            raise LayoutError(
                f"#ttg.linear cannot carry this layout: its out-dims {self.out_dims} are not the sizes Triton "
                "infers from the bases, or it is not surjective"
            )
        body = ", ".join(f"{name} = {_vectors(vecs)}" for name, vecs in self._bases)
        return "#ttg.linear<{" + body + "}>"


def _shared_linear_attr(self: LinearLayout) -> str:
    """``#ttg.shared_linear`` text of an ``offset[, block]`` layout (see ``LinearLayout.to_attr``)."""
    outs = self.out_dim_names
    if not outs or outs != [f"dim{i}" for i in range(len(outs))]:
        raise LayoutError(f"#ttg.shared_linear needs out-dims dim0, dim1, ... in order, got {outs}")
    vecs = [v for _, vs in self._bases for v in vs]
    implied = [1 << max((v[j] for v in vecs), default=0).bit_length() for j in range(len(outs))]
    if implied != [s for _, s in self._outs]:
        raise LayoutError(f"#ttg.shared_linear cannot carry this layout: its out-dims {self.out_dims} are not the "
                          f"sizes {implied} its bases imply")
    bases = dict(self._bases)
    if not bases.get("offset"):
        raise LayoutError("#ttg.shared_linear needs at least one offset basis")
    # the text ``SharedLinear(offset, block)`` prints (``encodings.SharedLinear``; alignment 16)
    block = f", block = {_vectors(bases['block'])}" if bases.get("block") else ""
    return f"#ttg.shared_linear<{{offset = {_vectors(bases['offset'])}{block}}}, alignment = 16>"


def _vectors(vecs) -> str:
    """``[[a, b], [c, d]]``: bases as Triton's attributes print them."""
    return "[" + ", ".join("[" + ", ".join(str(e) for e in v) + "]" for v in vecs) + "]"


_EMPTY = LinearLayout._make((), ())

empty = LinearLayout.empty
identity_1d = LinearLayout.identity_1d
zeros_1d = LinearLayout.zeros_1d
strided_1d = LinearLayout.strided_1d
from_bases = LinearLayout.from_bases


def identity_standard_nd(in_dim: str, shape: Sequence[int], order: Sequence[int]) -> LinearLayout:
    """``prod_k identity_1d(shape[order[k]], in_dim, f"dim{order[k]}")``: a 1-D -> N-D
    identity whose most minor dim is ``order[0]``. Out-dims come in ``order`` order.

    **Pre-conditions:** ``order`` is a permutation of ``range(len(shape))``;
    sizes are powers of two.

    >>> print(identity_standard_nd("register", [2, 4, 8], [2, 1, 0]))
    <BLANKLINE>
     - register=1 -> (1, 0, 0)
       register=2 -> (2, 0, 0)
       register=4 -> (4, 0, 0)
       register=8 -> (0, 1, 0)
       register=16 -> (0, 2, 0)
       register=32 -> (0, 0, 1)
    where out dims are: [dim2 (size 8), dim1 (size 4), dim0 (size 2)]
    """
    parts = _bases.standard_nd(in_dim, shape, order)
    return _EMPTY if parts is None else LinearLayout._make(*parts)

from . import algebra as _alg  # noqa: E402  (algebra imports LinearLayout from here)
