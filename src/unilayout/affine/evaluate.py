"""Compile affine expressions once into numpy code (vectorised) or plain Python code (scalar).

The tree is turned into the source of one small function, with common
subexpressions computed once; numpy then does all the per-point work:
``floordiv``/``mod``/``ceildiv`` by a power of two become shifts and masks
(exact for negative values too, as int64 is two's complement), other divisors
``//`` and ``%`` (numpy floors, like MLIR). Before running, the inputs'
ranges are propagated through the tree; if any intermediate value could leave
int64 the evaluation raises ``LayoutError`` instead of wrapping around.

>>> from unilayout.affine.text import parse_expr
>>> import numpy as np
>>> f = compile_numpy([parse_expr("d0 floordiv 8"), parse_expr("d0 mod 8 + s0")], 1, 1)
>>> [r.tolist() for r in f(np.arange(-2, 10), 100)]
[[-1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1], [106, 107, 100, 101, 102, 103, 104, 105, 106, 107, 100, 101]]
"""

from __future__ import annotations

import numpy as np

from ..errors import LayoutError
from .expr import ADD, CEILDIV, FLOORDIV, MOD, MUL, Binary, Constant, Dim, Symbol

__all__ = ["compile_numpy", "compile_scalar", "value_range"]

_INT64_MIN = -(1 << 63)
_INT64_MAX = (1 << 63) - 1


def _divisor_error(value):
    raise LayoutError(f"a symbolic divisor evaluated to {value}; divisors must be >= 1")


def _check_np(b):
    if np.ndim(b) == 0:
        if b < 1:
            _divisor_error(int(b))
    elif b.size and b.min() < 1:
        _divisor_error(int(b.min()))
    return b


def _check_py(b):
    if b < 1:
        _divisor_error(b)
    return b


def _codegen(results, num_dims, num_symbols, vectorised):
    """Source of ``def _f(d0.., s0..)`` returning a tuple of the results."""
    counts = {}
    stack = list(results)
    while stack:
        e = stack.pop()
        if type(e) is Binary:
            c = counts.get(e, 0)
            counts[e] = c + 1
            if c == 0:
                stack.append(e.lhs)
                stack.append(e.rhs)
    # x floordiv q and x mod q both present (q constant, not a power of two when
    # vectorised): one divmod pass computes both.
    floors = {(e.lhs, e.rhs.value) for e in counts if e.op == FLOORDIV and type(e.rhs) is Constant}
    pairs = {
        (e.lhs, e.rhs.value)
        for e in counts
        if e.op == MOD and type(e.rhs) is Constant and (e.lhs, e.rhs.value) in floors
        and not (vectorised and e.rhs.value & (e.rhs.value - 1) == 0)
    }
    lines = []
    names = {}

    def emit(e):
        t = type(e)
        if t is Dim:
            return f"d{e.position}"
        if t is Symbol:
            return f"s{e.position}"
        if t is Constant:
            return f"({e.value})"
        if e in names:
            return names[e]
        op, rhs = e.op, e.rhs
        if op in (FLOORDIV, MOD) and type(rhs) is Constant and (e.lhs, rhs.value) in pairs:
            a = emit(e.lhs)
            k = len(lines)
            lines.append(f"    f{k}, m{k} = _divmod({a}, {rhs.value})")
            names[Binary(FLOORDIV, e.lhs, rhs)] = f"f{k}"
            names[Binary(MOD, e.lhs, rhs)] = f"m{k}"
            return names[e]
        a = emit(e.lhs)
        if op in (ADD, MUL):
            src = f"({a} {'+' if op == ADD else '*'} {emit(rhs)})"
        elif type(rhs) is Constant:
            q = rhs.value
            pow2 = vectorised and q & (q - 1) == 0
            k = q.bit_length() - 1
            if op == FLOORDIV:
                src = f"({a} >> {k})" if pow2 else f"({a} // {q})"
            elif op == MOD:
                src = f"({a} & {q - 1})" if pow2 else f"({a} % {q})"
            else:
                src = f"(-((-{a}) >> {k}))" if pow2 else f"(-((-{a}) // {q}))"
        else:
            b = emit(rhs)
            name = f"q{len(lines)}"
            lines.append(f"    {name} = _check({b})")
            if op == FLOORDIV:
                src = f"({a} // {name})"
            elif op == MOD:
                src = f"({a} % {name})"
            else:
                src = f"(-((-{a}) // {name}))"
        if counts.get(e, 0) > 1:
            name = f"t{len(lines)}"
            lines.append(f"    {name} = {src}")
            names[e] = name
            return name
        return src

    outs = [emit(r) for r in results]
    params = [f"d{i}" for i in range(num_dims)] + [f"s{i}" for i in range(num_symbols)]
    body = "\n".join(lines)
    ret = ", ".join(outs) + ("," if len(outs) == 1 else "")
    return f"def _f({', '.join(params)}):\n{body}\n    return ({ret})\n"


def compile_scalar(results, num_dims, num_symbols):
    """A Python function of dims then symbols (ints) returning the tuple of results (exact ints).

    >>> from unilayout.affine.text import parse_expr
    >>> compile_scalar([parse_expr("(d0 + s0) ceildiv 4")], 1, 1)(5, 2)
    (2,)
    """
    src = _codegen(results, num_dims, num_symbols, vectorised=False)
    scope = {"_check": _check_py, "_divmod": divmod}
    exec(compile(src, "<affine-map-scalar>", "exec"), scope)
    return scope["_f"]


def value_range(e, ranges):
    """Inclusive (lo, hi) enclosing every value of ``e`` (and of its subtrees), or None.

    ``ranges`` maps ``Dim``/``Symbol`` leaves to (lo, hi). Divisor ranges are
    clamped to >= 1 (a smaller divisor is rejected at run time). None means an
    intermediate value may leave int64.

    >>> from unilayout.affine.text import parse_expr
    >>> value_range(parse_expr("d0 * 4 + 3"), {Dim(0): (0, 9)})
    (3, 39)
    """
    return _range(e, ranges, {})


def _range(e, ranges, memo):
    t = type(e)
    if t is Constant:
        r = (e.value, e.value)
    elif t is not Binary:
        r = ranges[e]
    else:
        if e in memo:
            return memo[e]
        a = _range(e.lhs, ranges, memo)
        b = _range(e.rhs, ranges, memo)
        if a is None or b is None:
            return None
        op = e.op
        if op == ADD:
            r = (a[0] + b[0], a[1] + b[1])
        elif op == MUL:
            c = (a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1])
            r = (min(c), max(c))
        else:
            blo, bhi = max(b[0], 1), max(b[1], 1)
            if op == FLOORDIV:
                c = (a[0] // blo, a[0] // bhi, a[1] // blo, a[1] // bhi)
                r = (min(c), max(c))
            elif op == CEILDIV:
                c = (-(-a[0] // blo), -(-a[0] // bhi), -(-a[1] // blo), -(-a[1] // bhi))
                r = (min(c), max(c))
                if -a[0] > _INT64_MAX:  # the negation inside ceildiv
                    return None
            else:
                r = (0, bhi - 1) if a[0] < 0 else (0, min(a[1], bhi - 1))
        memo[e] = r
    if r[0] < _INT64_MIN or r[1] > _INT64_MAX:
        return None
    return r


def compile_numpy(results, num_dims, num_symbols):
    """A vectorised function: int arrays (dims then symbols, broadcast) -> tuple of int64 arrays.

    Every result has the broadcast shape of the inputs (results that do not
    depend on every input are read-only broadcast views). Raises
    ``LayoutError`` for non-integer inputs, possible int64 overflow, or a
    symbolic divisor < 1.

    >>> from unilayout.affine.text import parse_expr
    >>> f = compile_numpy([parse_expr("d0 * 3 + d1"), parse_expr("d1 ceildiv 2")], 2, 0)
    >>> [r.tolist() for r in f(np.arange(2)[:, None], np.arange(3))]
    [[[0, 1, 2], [3, 4, 5]], [[0, 1, 1], [0, 1, 1]]]
    """
    results = tuple(results)
    src = _codegen(results, num_dims, num_symbols, vectorised=True)
    scope = {"_check": _check_np, "_divmod": np.divmod}
    exec(compile(src, "<affine-map-numpy>", "exec"), scope)
    raw = scope["_f"]
    leaves = [Dim(i) for i in range(num_dims)] + [Symbol(i) for i in range(num_symbols)]
    nargs = len(leaves)

    def run(*args):
        if len(args) != nargs:
            raise LayoutError(
                f"expected {num_dims} dim and {num_symbols} symbol operand(s) ({nargs} in all), got {len(args)}"
            )
        arrays = []
        ranges = {}
        empty = False
        for leaf, a in zip(leaves, args):
            arr = np.asarray(a)
            kind = arr.dtype.kind
            if kind == "O":
                if not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in arr.flat):
                    raise LayoutError(f"operand {leaf} must hold integers")
                try:
                    arr = arr.astype(np.int64)
                except OverflowError:
                    raise LayoutError(f"operand {leaf} has values outside int64") from None
            elif kind not in "iu":
                if not (arr.size == 0 and kind == "f"):
                    raise LayoutError(f"operand {leaf} must hold integers, got dtype {arr.dtype}")
                arr = arr.astype(np.int64)
            if arr.size == 0:
                empty = True
                ranges[leaf] = (0, 0)
            else:
                lo, hi = int(arr.min()), int(arr.max())
                if lo < _INT64_MIN or hi > _INT64_MAX:
                    raise LayoutError(f"operand {leaf} has values outside int64 ({lo}..{hi})")
                ranges[leaf] = (lo, hi)
            if arr.dtype != np.int64:
                arr = arr.astype(np.int64)
            arrays.append(arr)
        try:
            shape = np.broadcast_shapes(*(a.shape for a in arrays))
        except ValueError as exc:
            raise LayoutError(f"operands do not broadcast together: {exc}") from None
        if not empty:
            for r in results:
                if _range(r, ranges, {}) is None:
                    raise LayoutError(
                        f"evaluating {r} on these operands could overflow int64; use the exact scalar call instead"
                    )
        out = raw(*arrays)
        return tuple(
            o if isinstance(o, np.ndarray) and o.shape == shape and o.dtype == np.int64
            else np.broadcast_to(np.asarray(o, dtype=np.int64), shape)
            for o in out
        )

    return run
