"""``AffineMap``: dims and symbols to a tuple of affine expressions, with MLIR semantics.

>>> m = AffineMap.parse("(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)")
>>> m(1, 1, 6, 100)
(262, 100)
>>> m.bounds((2, 3, 64, 128))
((0, 383), (0, 127))
"""

from __future__ import annotations

import numpy as np

from .._ints import check_table
from ..errors import LayoutError
from . import analysis as _analysis
from .evaluate import compile_numpy, compile_scalar
from .expr import AffineExpr, Constant, Dim, Symbol, _as_int, _coerce, print_expr
from .fold import _replace, fold, replacements
from .simplify import simplify_expr

__all__ = ["AffineMap", "identity", "permutation", "constant_map"]

#: Most dims (and, separately, symbols) a map may have: its text and its box grow with them.
MAX_INPUTS = 1 << 16


class AffineMap:
    """An MLIR affine map ``(d0, ..)[s0, ..] -> (r0, r1, ..)``: immutable, hashable, ``==`` by structure.

    ``AffineMap(num_dims, num_symbols, results)``; results are ``AffineExpr``
    (or ints) whose dims/symbols are below ``num_dims``/``num_symbols``.
    ``str()`` is MLIR's printed form; ``m(*ints)`` evaluates exactly (dims
    then symbols); ``m.evaluate(*arrays)`` is the vectorised form.

    >>> from unilayout.affine import dim
    >>> m = AffineMap(2, 0, [dim(0).floordiv(8), dim(1) % 8])
    >>> str(m), m(17, -1)
    ('(d0, d1) -> (d0 floordiv 8, d1 mod 8)', (2, 7))
    >>> m == AffineMap.parse("(a, b) -> (a floordiv 8, b mod 8)")
    True
    """

    __slots__ = ("num_dims", "num_symbols", "results", "_hash", "_scalar", "_numpy")

    def __init__(self, num_dims: int, num_symbols: int, results):
        nd = _as_int(num_dims, "num_dims")
        ns = _as_int(num_symbols, "num_symbols")
        if nd < 0 or ns < 0:
            raise LayoutError(f"num_dims and num_symbols must be >= 0, got {nd} and {ns}")
        if nd > MAX_INPUTS or ns > MAX_INPUTS:
            raise LayoutError(f"num_dims and num_symbols must be <= {MAX_INPUTS}, got {nd} and {ns}")
        if isinstance(results, (AffineExpr, int, str, bytes, bytearray, memoryview, dict, set, frozenset)):
            raise LayoutError(f"results must be a sequence of affine expressions, got {type(results).__name__}")
        try:
            res = tuple(fold(_coerce(r)) for r in results)
        except TypeError:
            raise LayoutError("results must be a sequence of affine expressions") from None
        for i, r in enumerate(res):
            bad_d = [d for d in r.dims() if d >= nd]
            bad_s = [s for s in r.symbols() if s >= ns]
            if bad_d or bad_s:
                name = f"d{max(bad_d)}" if bad_d else f"s{max(bad_s)}"
                raise LayoutError(
                    f"result {i} ({r}) uses {name} but the map has {nd} dim(s) and {ns} symbol(s)"
                )
        s = object.__setattr__
        s(self, "num_dims", nd)
        s(self, "num_symbols", ns)
        s(self, "results", res)
        s(self, "_hash", hash((nd, ns, res)))
        s(self, "_scalar", None)
        s(self, "_numpy", None)

    def __setattr__(self, name, value):
        raise AttributeError("AffineMap is immutable")

    def __reduce__(self):
        return (AffineMap, (self.num_dims, self.num_symbols, self.results))

    # ``AffineMap.parse`` is ``affine.text.parse``, attached by the text module (which imports this one).

    # --- value semantics ---------------------------------------------------
    def __eq__(self, other):
        return (
            type(other) is AffineMap
            and other._hash == self._hash
            and other.num_dims == self.num_dims
            and other.num_symbols == self.num_symbols
            and other.results == self.results
        )

    def __hash__(self):
        return self._hash

    def __str__(self):
        return print_map(self.num_dims, self.num_symbols, self.results)

    def __repr__(self):
        text = str(self)
        try:
            if AffineMap.parse(text) == self:
                return f"AffineMap.parse({text!r})"
        except LayoutError:
            pass
        inner = ", ".join(r._structural_repr() for r in self.results)
        return f"AffineMap({self.num_dims}, {self.num_symbols}, ({inner}{',' if len(self.results) == 1 else ''}))"

    @property
    def num_results(self) -> int:
        """Number of results.

        >>> AffineMap.parse("(d0) -> (d0, d0 + 1)").num_results
        2
        """
        return len(self.results)

    @property
    def num_inputs(self) -> int:
        """``num_dims + num_symbols`` (MLIR's ``getNumInputs``).

        >>> AffineMap.parse("(d0)[s0] -> (d0)").num_inputs
        2
        """
        return self.num_dims + self.num_symbols

    def is_identity(self) -> bool:
        """True iff the results are exactly ``d0, d1, ..`` for all dims.

        >>> identity(2).is_identity(), AffineMap.parse("(d0, d1) -> (d1, d0)").is_identity()
        (True, False)
        """
        return self.results == tuple(Dim(i) for i in range(self.num_dims))

    def is_permutation(self) -> bool:
        """True iff the results are the dims in some order, each once.

        >>> permutation((2, 0, 1)).is_permutation()
        True
        """
        return len(self.results) == self.num_dims and sorted(
            r.position if type(r) is Dim else -1 for r in self.results
        ) == list(range(self.num_dims))

    # --- evaluation ----------------------------------------------------------
    def _args(self, args):
        if len(args) != self.num_inputs:
            raise LayoutError(
                f"{self} takes {self.num_dims} dim(s) and {self.num_symbols} symbol(s), got {len(args)} value(s)"
            )
        return [_as_int(a, "affine map operand") for a in args]

    def __call__(self, *ints) -> tuple:
        """Exact scalar evaluation: dims then symbols (MLIR operand order) -> tuple of ints.

        >>> AffineMap.parse("(d0)[s0] -> (d0 floordiv s0, d0 mod s0, d0 ceildiv s0)")(-7, 4)
        (-2, 1, -1)
        """
        vals = self._args(ints)
        if self._scalar is None:
            object.__setattr__(self, "_scalar", compile_scalar(self.results, self.num_dims, self.num_symbols))
        return self._scalar(*vals)

    def evaluate(self, *arrays) -> tuple:
        """Vectorised evaluation with numpy broadcasting -> tuple of int64 arrays, one per result.

        Compiled once to numpy operations. Raises ``LayoutError`` if int64
        could overflow on these operands or a symbolic divisor is < 1.

        >>> import numpy as np
        >>> m = AffineMap.parse("(d0, d1) -> (d0 * 4 + d1, d1 floordiv 2)")
        >>> [r.tolist() for r in m.evaluate(np.arange(2)[:, None], np.arange(4))]
        [[[0, 1, 2, 3], [4, 5, 6, 7]], [[0, 0, 1, 1], [0, 0, 1, 1]]]
        """
        if self._numpy is None:
            object.__setattr__(self, "_numpy", compile_numpy(self.results, self.num_dims, self.num_symbols))
        return self._numpy(*arrays)

    def _box(self, shape, what):
        try:
            shp = tuple(_as_int(n, f"{what} shape") for n in shape)
        except TypeError:
            raise LayoutError(f"{what}: shape must be a sequence of ints, got {shape!r}") from None
        if len(shp) != self.num_dims:
            raise LayoutError(f"{what}: the map has {self.num_dims} dim(s) but the shape {shp} has {len(shp)}")
        if any(n < 0 for n in shp):
            raise LayoutError(f"{what}: box sizes must be >= 0, got {shp}")
        return shp

    def _symbols(self, symbols, what):
        syms = tuple(_as_int(s, "symbol value") for s in symbols)
        if len(syms) != self.num_symbols:
            raise LayoutError(f"{what}: the map has {self.num_symbols} symbol(s); {len(syms)} value(s) given")
        return syms

    def index_map(self, shape=None, symbols=()) -> np.ndarray:
        """Every result at every point of the box ``shape`` (row-major order) -> int64 (N, num_results).

        A map has no box of its own, so ``shape`` is required (a map without
        dims needs ``()``).

        >>> AffineMap.parse("(d0, d1) -> (d1, d0 * 2)").index_map((2, 2)).tolist()
        [[0, 0], [1, 0], [0, 2], [1, 2]]
        """
        if shape is None:
            raise LayoutError(
                f"index_map: an affine map has no box of its own; pass the shape of its {self.num_dims} dim(s)"
            )
        shp = self._box(shape, "index_map")
        syms = self._symbols(symbols, "index_map")
        total = int(np.prod(shp, dtype=object)) if shp else 1
        check_table(total * max(self.num_results, 1), f"index_map: the box {shp} has {total} points")
        n = len(shp)
        grids = [np.arange(s, dtype=np.int64).reshape((-1,) + (1,) * (n - 1 - i)) for i, s in enumerate(shp)]
        out = np.empty((total, self.num_results), dtype=np.int64)
        if total == 0 or not self.results:
            return out
        vals = self.evaluate(*grids, *syms)
        for j, v in enumerate(vals):
            out[:, j] = np.broadcast_to(v, shp).reshape(-1)
        return out

    # --- algebra -------------------------------------------------------------
    def compose(self, other: "AffineMap") -> "AffineMap":
        """``self o other`` (MLIR's ``compose``): ``self.compose(other)(x) == self(other(x))``.

        Needs ``self.num_dims == other.num_results``; the result has other's
        dims, and self's symbols followed by other's.

        >>> a = AffineMap.parse("(d0, d1) -> (d1, d0)")
        >>> print(a.compose(AffineMap.parse("(d0) -> (d0 floordiv 8, d0 mod 8)")))
        (d0) -> (d0 mod 8, d0 floordiv 8)
        """
        if not isinstance(other, AffineMap):
            raise LayoutError(f"compose: expected an AffineMap, got {type(other).__name__}")
        if self.num_dims != other.num_results:
            raise LayoutError(
                f"compose: {self} has {self.num_dims} dim(s) but {other} has {other.num_results} result(s)"
            )
        k = self.num_symbols
        shifted = [
            _replace(r, None, [Symbol(k + i) for i in range(other.num_symbols)]) for r in other.results
        ]
        results = [_replace(r, shifted, None) for r in self.results]
        return AffineMap(other.num_dims, k + other.num_symbols, results)

    def simplify(self, shape=None) -> "AffineMap":
        """Exact simplification of every result (see ``unilayout.affine.simplify``).

        With ``shape``, also uses that dims lie in the box ``0 <= d_i < shape[i]``.

        >>> m = AffineMap.parse("(d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0, d1 mod 8)")
        >>> print(m.simplify((8, 16)))
        (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)
        """
        shp = None if shape is None else self._box(shape, "simplify")
        return AffineMap(self.num_dims, self.num_symbols, [simplify_expr(r, shp) for r in self.results])

    def replace(self, dims=None, symbols=None, num_dims=None, num_symbols=None) -> "AffineMap":
        """MLIR's ``replaceDimsAndSymbols``: substitute expressions, then rebuild with the folds.

        >>> print(AffineMap.parse("(d0, d1) -> (d0 + d1)").replace(dims=[Dim(0), Constant(3)], num_dims=1))
        (d0) -> (d0 + 3)
        """
        dims, symbols = replacements(dims, "dims"), replacements(symbols, "symbols")
        nd = self.num_dims if num_dims is None else num_dims
        ns = self.num_symbols if num_symbols is None else num_symbols
        return AffineMap(nd, ns, [_replace(r, dims, symbols) for r in self.results])

    def bounds(self, shape, symbols=()) -> tuple:
        """Exact inclusive ``(min, max)`` of each result over the box ``0 <= d_i < shape[i]``.

        Interval arithmetic where it is provably exact, else (numpy, chunked)
        enumeration of the dims the result depends on; never a loose bound.

        >>> AffineMap.parse("(d0) -> ((d0 * 2) mod 4)").bounds((8,))
        ((0, 2),)
        """
        return _analysis.bounds(self, shape, symbols)

    def inverse(self, shape) -> "AffineMap":
        """Inverse of a map that is a bijection from the box ``shape`` onto the box of its bounds.

        Returns ``inv`` with ``inv(*m(*x)) == x`` on the box and
        ``m(*inv(*y)) == y`` on the image box; raises ``LayoutError`` if the
        map is not such a bijection, ``NotRepresentableError`` if no affine
        inverse is found (``inverse_table`` still works then).

        >>> m = AffineMap.parse("(d0, d1) -> (d1 * 4 + d0)")
        >>> print(m.inverse((4, 3)))
        (d0) -> (d0 mod 4, d0 floordiv 4)
        """
        return _analysis.inverse(self, shape)

    def inverse_table(self, shape) -> np.ndarray:
        """The inverse as a table: row r holds the box point mapped to the r-th image-box point.

        The image box is ``[lo_j, hi_j]`` of ``bounds(shape)``, enumerated in
        row-major order; raises ``LayoutError`` unless the map is a bijection onto it.

        >>> AffineMap.parse("(d0, d1) -> (d1, d0)").inverse_table((2, 3)).tolist()
        [[0, 0], [1, 0], [0, 1], [1, 1], [0, 2], [1, 2]]
        """
        return _analysis.inverse_table(self, shape)


def identity(num_dims: int, num_symbols: int = 0) -> AffineMap:
    """``(d0, .., d{n-1}) -> (d0, .., d{n-1})`` (MLIR ``getMultiDimIdentityMap``).

    >>> print(identity(3))
    (d0, d1, d2) -> (d0, d1, d2)
    """
    n = _as_int(num_dims, "num_dims")
    if n < 0:
        raise LayoutError(f"num_dims must be >= 0, got {n}")
    if n > MAX_INPUTS:  # before building one Dim per dim
        raise LayoutError(f"num_dims and num_symbols must be <= {MAX_INPUTS}, got {n} and {num_symbols}")
    return AffineMap(n, num_symbols, [Dim(i) for i in range(n)])


def permutation(perm) -> AffineMap:
    """``(d0, ..) -> (d{perm[0]}, d{perm[1]}, ..)`` (MLIR ``getPermutationMap``).

    >>> print(permutation((1, 2, 0)))
    (d0, d1, d2) -> (d1, d2, d0)
    """
    try:
        p = tuple(_as_int(i, "permutation entry") for i in perm)
    except TypeError:
        raise LayoutError(f"permutation: expected a sequence of ints, got {perm!r}") from None
    if sorted(p) != list(range(len(p))):
        raise LayoutError(f"permutation: {p} is not a permutation of 0..{len(p) - 1}")
    return AffineMap(len(p), 0, [Dim(i) for i in p])


def constant_map(values, num_dims: int = 0) -> AffineMap:
    """A map with constant results (MLIR ``getConstantMap`` for several values).

    >>> print(constant_map((3, -1))), print(constant_map((0,), num_dims=2))
    () -> (3, -1)
    (d0, d1) -> (0)
    (None, None)
    """
    try:
        vals = [Constant(_as_int(v, "constant")) for v in values]
    except TypeError:
        raise LayoutError(f"constant_map: expected a sequence of ints, got {values!r}") from None
    return AffineMap(num_dims, 0, vals)


def print_map(num_dims: int, num_symbols: int, results) -> str:
    """MLIR's printed form of a map, ``(d0, d1)[s0] -> (r0, r1)`` (what ``str(m)`` returns).

    Dims and symbols print as ``d<i>``/``s<i>`` whatever names the parsed text
    gave them, so the text parses back to an equal map.

    >>> print_map(1, 1, [Dim(0).floordiv(Symbol(0))])
    '(d0)[s0] -> (d0 floordiv s0)'
    """
    dims = ", ".join(f"d{i}" for i in range(num_dims))
    syms = "[" + ", ".join(f"s{i}" for i in range(num_symbols)) + "]" if num_symbols else ""
    return f"({dims}){syms} -> ({', '.join(print_expr(r) for r in results)})"
