"""Every family's value as a ``Kernel``: named inputs with extents, named outputs, one index expression each.

- CuTe ``Layout``: one input per top-level mode (``i`` for a rank-1 layout,
  ``i0, i1, ..`` otherwise), each split colexicographically into its leaves
  (``(i // 4) % 2``), times the strides, summed; basis strides (``1@0``) give
  one output per coordinate position; ``Sw<B,M,S> o off o L`` applies
  ``x ^ ((x & yyy) >> S)`` to ``off + L``; ``A o off o B`` evaluates ``A`` at
  the 1-D coordinate ``off + B``.
- Linear layouts (Triton encodings): one input per in-dim (``register``,
  ``lane``, ``warp``, ``block``; ``offset`` for shared layouts), one output per
  out-dim, the XOR of the bases of the set input bits; a run of input bits
  that lands on a run of output bits of one out-dim is one shifted field
  (``(lane >> 2 & 7) << 3``), fields with disjoint bits are joined by ``|``.
- TileLang layouts and fragments: their own expressions (inputs ``i, j, ..``
  and ``rep``; outputs the output coordinate, or ``thread`` and the index).
- Every other family through its exact affine form (``convert_to(x,
  "affine")``) over its box: affine maps (a box from ``shape=``), TSL, XLA
  tiled layouts, metal layouts (logical index -> core coordinates and offset
  in the shard), devices; a family with no affine form but a linear one (a
  plug-in's register layouts) through that.

Inverses (``inverse_kernel``): a linear layout that is invertible, a CuTe
layout that is a bijection onto ``[0, size)`` (its ``right_inverse``), a
metal layout from (core, shard coordinates) back to the logical index.

>>> from unilayout import cute
>>> k = kernel(cute.parse("(4,8):(8,1)"))
>>> k.inputs, k.outputs, [str(e) for e in k.exprs]
((('i0', 4), ('i1', 8)), ('offset',), ['(i0 * 8) + i1'])
"""

from __future__ import annotations

import math
from typing import NamedTuple

from .. import _families
from .._ints import check_table
from ..errors import LayoutError, NotRepresentableError
from . import ir

__all__ = ["Kernel", "kernel", "inverse_kernel"]


class Kernel(NamedTuple):
    """A layout as code: ``inputs`` ((name, extent), ...), ``outputs`` (names), ``exprs`` (one ``ir.Node`` each).

    ``order`` says how ``index_map``'s rows enumerate the inputs (``"C"``: last
    input fastest, ``"F"``: first fastest); ``family`` and ``text`` name the
    value; ``about`` is one line for the emitted comment.

    >>> Kernel("f", (("x", 4),), ("y",), (ir.var("x", 4),), "C", "affine", "(d0) -> (d0)", "d0 -> d0").outputs
    ('y',)
    """

    name: str
    inputs: tuple
    outputs: tuple
    exprs: tuple
    order: str
    family: str
    text: str
    about: str


# --- CuTe ----------------------------------------------------------------------------------------

def _leaves(shape, stride):
    if isinstance(shape, tuple):
        for s, d in zip(shape, stride):
            yield from _leaves(s, d)
    else:
        yield shape, stride


def _mode_terms(x, shape, stride):
    """``[(leaf coordinate expr, stride), ...]`` of one mode at coordinate ``x`` (colexicographic).

    As CuTe's ``crd2idx`` of an integer, the last leaf takes the whole quotient
    (a coordinate past the mode's size extends it); inside the size the range
    analysis drops that ``mod`` anyway.
    """
    leaves = list(_leaves(shape, stride))
    out, prod = [], 1
    for j, (s, d) in enumerate(leaves):
        q = ir.floordiv(x, prod)
        if j == len(leaves) - 1:
            out.append((q, d))
        elif s != 1:
            out.append((ir.mod(q, s), d))
        prod *= s
    return out


def _cute_terms(layout, coords):
    shape, stride = layout.shape, layout.stride
    modes = list(zip(shape, stride)) if isinstance(shape, tuple) else [(shape, stride)]
    terms = []
    for x, (s, d) in zip(coords, modes):
        terms += _mode_terms(x, s, d)
    return terms


def _sum_offsets(terms):
    acc = ir.const(0)
    for e, d in terms:
        if isinstance(d, int):
            acc = ir.add(acc, ir.mul(e, d))
        else:
            raise NotRepresentableError(f"codegen: stride {d} is a basis element; the layout's values are coordinates")
    return acc


def _sum_coords(terms):
    """Basis strides: ``{position path: expr}`` summed position by position."""
    out = {}
    for e, d in terms:
        if isinstance(d, int):
            if d:
                raise NotRepresentableError(f"codegen: stride {d} mixes integers with basis strides")
            continue
        mode = d.mode if isinstance(d.mode, tuple) else (d.mode,)
        out[mode] = ir.add(out.get(mode, ir.const(0)), ir.mul(e, d.value))
    return out


def _is_basis(layout):
    return any(not isinstance(d, int) for _, d in _leaves(layout.shape, layout.stride))


def _split_1d(x, layout):
    """A 1-D coordinate ``x`` of ``layout`` as one coordinate per top-level mode (colexicographic)."""
    shape = layout.shape
    sizes = [math.prod(_flat(s)) for s in shape] if isinstance(shape, tuple) else [math.prod(_flat(shape))]
    out, prod = [], 1
    for j, n in enumerate(sizes):
        q = ir.floordiv(x, prod)
        out.append(q if j == len(sizes) - 1 else ir.mod(q, n))
        prod *= n
    return out


def _flat(s):
    return [v for v, _ in _leaves(s, s)]


def _swizzle(sw, x):
    """``x ^ ((x & yyy) >> S)`` (``<<`` when ``S < 0``)."""
    if sw.bits == 0:
        return x
    y = ir.bit_and(x, sw._yyy)
    return ir.xor(x, ir.shr(y, sw.shift) if sw.shift >= 0 else ir.shl(y, -sw.shift))


def _cute_inputs(layout):
    shape = layout.shape
    sizes = [math.prod(_flat(s)) for s in shape] if isinstance(shape, tuple) else [math.prod(_flat(shape))]
    names = ["i"] if len(sizes) == 1 else [f"i{k}" for k in range(len(sizes))]
    return tuple(zip(names, sizes))


def _cute_kernel(x, name):
    from .. import cute  # lazy: the cute family loads only when a CuTe value is lowered

    if isinstance(x, cute.Swizzle):
        inputs = (("x", x.size),)
        expr = _swizzle(x, ir.var("x", x.size))
        return Kernel(name, inputs, ("offset",), (expr,), "F", "cute", str(x), f"{x}: offset -> swizzled offset")
    inner = x.inner if isinstance(x, cute.ComposedLayout) else x
    inputs = _cute_inputs(inner)
    coords = [ir.var(n, e) for n, e in inputs]
    if _is_basis(inner):
        if isinstance(x, cute.ComposedLayout):
            raise NotRepresentableError(f"codegen: {x} composes a basis-stride layout; its values are coordinates")
        by_mode = _sum_coords(_cute_terms(inner, coords))
        modes = sorted(by_mode) or [(0,)]
        if all(len(m) == 1 for m in modes):  # a flat coordinate: every position up to the last one used
            modes = [(j,) for j in range(modes[-1][0] + 1)]
        outs = tuple("c" + "_".join(map(str, m)) for m in modes)
        exprs = tuple(by_mode.get(m, ir.const(0)) for m in modes)
        return Kernel(name, inputs, outs, exprs, "F", "cute", str(x), f"{x}: coordinate -> coordinate")
    e = _sum_offsets(_cute_terms(inner, coords))
    if isinstance(x, cute.ComposedLayout):
        e = ir.add(e, x.offset)
        if isinstance(x.outer, cute.Swizzle):
            e = _swizzle(x.outer, e)
        elif isinstance(x.outer, cute.Layout) and not _is_basis(x.outer):
            e = _sum_offsets(_cute_terms(x.outer, _split_1d(e, x.outer)))
        else:
            raise NotRepresentableError(f"codegen: the outer function of {x} is not a swizzle or an integer layout")
    return Kernel(name, inputs, ("offset",), (e,), "F", "cute", str(x), f"{x}: coordinate -> offset")


# --- linear layouts -------------------------------------------------------------------------------

def _fields(var_node, bases, out_index, out_bits):
    """The contribution of one in-dim to one out-dim: runs of input bits landing on runs of output bits."""
    parts, j = [], 0
    n = len(bases)
    while j < n:
        v = bases[j][out_index]
        if v == 0:
            j += 1
            continue
        if v & (v - 1) == 0:  # a single output bit: extend the run while bit j+t -> bit p+t
            p, t = v.bit_length() - 1, 1
            while j + t < n and bases[j + t][out_index] == 1 << (p + t):
                t += 1
            field = ir.bit_and(ir.shr(var_node, j), (1 << t) - 1)
            parts.append(ir.shl(field, p))
            j += t
        else:  # several output bits: ((x >> j) & 1) * v
            parts.append(ir.mul(ir.bit_and(ir.shr(var_node, j), 1), v))
            j += 1
    return parts


def _join(parts):
    """XOR the parts; parts whose possible bits are disjoint are joined by ``|`` (same value, the expert's form)."""
    acc, seen = ir.const(0), 0
    for p in parts:
        bits = ir.possible_bits(p)
        acc = ir.bit_or(acc, p) if bits & seen == 0 else ir.xor(acc, p)
        seen |= bits
    return acc


def _linear_kernel(L, name):
    ins = [(n, s) for n, s in L.in_dims if s > 1]
    outs = [n for n, _ in L.out_dims]
    vars_ = {n: ir.var(n, s) for n, s in ins}
    bases = dict(L.bases)
    exprs = []
    for k, _ in enumerate(outs):
        parts = []
        for n, _ in ins:
            parts += _fields(vars_[n], bases[n], k, None)
        exprs.append(_join(parts))
    inputs = tuple(ins) or ((L.in_dims[0][0] if L.in_dims else "x", 1),)
    about = ", ".join(n for n, _ in inputs) + " -> " + ", ".join(outs)
    return Kernel(name, tuple(inputs), tuple(outs), tuple(exprs), "F", "linear", "", about)


# --- everything through affine --------------------------------------------------------------------

def _affine_node(e, dims):
    from ..affine.expr import Binary, Constant, Dim  # lazy: the affine family loads only when lowered

    if isinstance(e, Constant):
        return ir.const(e.value)
    if isinstance(e, Dim):
        return dims[e.position]
    if not isinstance(e, Binary):
        raise NotRepresentableError(f"codegen: {e} has symbols; bind them (affine.AffineMap.replace) first")
    a = _affine_node(e.lhs, dims)
    if e.op == "+":
        return ir.add(a, _affine_node(e.rhs, dims))
    b = _affine_node(e.rhs, dims)
    if e.op == "*":
        if b.is_const:
            return ir.mul(a, b.a)
        if a.is_const:
            return ir.mul(b, a.a)
        raise NotRepresentableError(f"codegen: {e} multiplies two non-constant values")
    if not b.is_const:
        raise NotRepresentableError(f"codegen: {e} divides by a non-constant value")
    return {"floordiv": ir.floordiv, "ceildiv": ir.ceildiv, "mod": ir.mod}[e.op](a, b.a)


def _affine_kernel(m, box, name, family, text):
    if m.num_symbols:
        raise NotRepresentableError(f"codegen: {m} has {m.num_symbols} symbol(s); bind them first")
    if box is None or len(box) != m.num_dims:
        raise LayoutError(f"codegen: {m} needs a box of {m.num_dims} sizes (shape=)")
    inputs = tuple((f"d{k}", int(s)) for k, s in enumerate(box))
    dims = [ir.var(n, s) for n, s in inputs]
    exprs = tuple(_affine_node(r, dims) for r in m.results)
    outs = tuple(f"r{k}" for k in range(len(exprs))) if len(exprs) != 1 else ("offset",)
    return Kernel(name, inputs, outs, exprs, "C", family, text, f"{text}: ({', '.join(n for n, _ in inputs)}) -> "
                  f"({', '.join(outs)})")


def _tilelang_node(e, env):
    """A TileLang expression tuple (``tilelang.expr``) as an index-expression node."""
    op = e[0]
    if op == "int":
        return ir.const(e[1])
    if op == "var":
        return env[e[1]]
    if op == "neg":
        return ir.mul(_tilelang_node(e[1], env), -1)
    a, b = (_tilelang_node(x, env) for x in e[1:3])
    if op in ("+", "-"):
        return (ir.add if op == "+" else ir.sub)(a, b)
    if op == "*":
        if b.is_const or a.is_const:
            return ir.mul(a, b.a) if b.is_const else ir.mul(b, a.a)
        raise NotRepresentableError(f"codegen: {e} multiplies two non-constant values")
    if op in ("//", "floordiv", "%", "floormod"):
        if not b.is_const or b.a < 1:
            raise NotRepresentableError(f"codegen: {e} divides by something other than a positive constant")
        return (ir.floordiv if op in ("//", "floordiv") else ir.mod)(a, b.a)
    if op in ("bitwise_xor", "bitwise_or", "bitwise_and", "shift_left", "shift_right"):
        if op == "bitwise_and" and b.is_const:
            return ir.bit_and(a, b.a)
        if op in ("shift_left", "shift_right"):
            if not b.is_const:
                raise NotRepresentableError(f"codegen: {e} shifts by a non-constant amount")
            return (ir.shl if op == "shift_left" else ir.shr)(a, b.a)
        if op == "bitwise_and":
            raise NotRepresentableError(f"codegen: {e} masks with a non-constant value")
        return (ir.xor if op == "bitwise_xor" else ir.bit_or)(a, b)
    raise NotRepresentableError(f"codegen: TileLang's {op} has no index code here (truncating division, min, max)")


def _tilelang_kernel(x, name, text):
    from ..tilelang import Fragment, placeholders  # lazy: the TileLang family loads only for its values

    names = placeholders(len(x.input_shape))
    inputs = [(n.lstrip("_"), s) for n, s in zip(names, x.input_shape)]
    env = {n: ir.var(v, s) for n, (v, s) in zip(names, inputs)}
    if isinstance(x, Fragment):
        if x.replicate > 1:
            inputs.append(("rep", x.replicate))
            env["_rep"] = ir.var("rep", x.replicate)
        exprs = [_tilelang_node(x.thread, env)] + [_tilelang_node(e, env) for e in x.index]
        outs = ("thread",) + tuple(f"index{k}" for k in range(len(x.index)))
        about = f"TileLang fragment: ({', '.join(n for n, _ in inputs)}) -> thread, index in its buffer"
    else:
        exprs = [_tilelang_node(e, env) for e in x.index]
        outs = tuple(f"out{k}" for k in range(len(x.index)))
        about = f"TileLang layout: ({', '.join(n for n, _ in inputs)}) -> ({', '.join(outs)})"
    return Kernel(name, tuple(inputs), outs, tuple(exprs), "C", "tilelang", text, about)


def kernel(x, name: str = "layout", shape=None) -> Kernel:
    """The ``Kernel`` of any family's value (``shape``: the box of a value that has none, e.g. an affine map).

    >>> from unilayout import affine
    >>> k = kernel(affine.parse("(d0, d1) -> (d0 * 8 + d1 floordiv 4)"), shape=(4, 16))
    >>> [str(e) for e in k.exprs]
    ['(d0 * 8) + (d1 // 4)']
    """
    rec = _families.record(x)
    if rec.name == "cute":
        return _cute_kernel(x, name)._replace(text=rec.canonical(x))
    if rec.name == "linear":
        return _linear_kernel(x, name)._replace(text=rec.canonical(x))
    if rec.name == "tilelang":
        return _tilelang_kernel(x, name, rec.canonical(x))
    from ..convert import convert_to  # lazy: the bridges load only for families lowered through affine

    box = rec.box(x) if shape is None else tuple(shape)
    if rec.name == "affine":
        return _affine_kernel(x, box, name, rec.name, rec.canonical(x))
    try:
        m = convert_to(x, "affine")
    except NotRepresentableError as e:  # a family with a GF(2) form but no affine one (a plug-in's registers)
        try:
            return _linear_kernel(convert_to(x, "linear"), name)._replace(text=rec.canonical(x), family=rec.name)
        except (NotRepresentableError, LayoutError):
            raise e from None
    return _affine_kernel(m, box, name, rec.name, rec.canonical(x))


def inverse_kernel(x, name: str = "layout_inverse") -> Kernel:
    """The ``Kernel`` of the inverse: an invertible linear layout's ``invert()``, a bijective CuTe layout's,
    a metal layout's (core, shard coordinates) -> logical index.

    >>> from unilayout import cute
    >>> k = inverse_kernel(cute.parse("(4,8):(8,1)"))
    >>> k.inputs, [str(e) for e in k.exprs]
    ((('i', 32),), ['((i % 8) * 4) + (i // 8)'])
    """
    rec = _families.record(x)
    if rec.name == "linear":
        if not x.is_invertible():
            raise NotRepresentableError("codegen: this linear layout is not invertible (not a bijection)")
        return _linear_kernel(x.invert(), name)._replace(text="inverse of " + rec.canonical(x))
    if rec.name == "cute":
        from .. import cute  # lazy: the cute family loads only when a CuTe value is lowered

        if not isinstance(x, cute.Layout) or _is_basis(x):
            raise NotRepresentableError(f"codegen: an inverse is emitted for integer CuTe layouts, not {x}")
        n = cute.size(x)
        if cute.cosize(x) != n or not _bijective(x):
            raise NotRepresentableError(f"codegen: {x} is not a bijection onto [0, {n}); it has no inverse")
        inv = cute.coalesce(cute.right_inverse(x))
        i = ir.var("i", n)
        e = _sum_offsets(_cute_terms(inv, _split_1d(i, inv)))
        return Kernel(name, (("i", n),), ("coord",), (e,), "F", "cute", f"inverse of {x}",
                      f"offset -> coordinate of {x} (1-D, colexicographic)")
    if rec.name == "metal":
        return _metal_inverse(x, name)._replace(text="inverse of " + rec.canonical(x))
    raise NotRepresentableError(f"codegen: no inverse is emitted for a {rec.name} value "
                                "(linear, CuTe and metal layouts)")


def _linear_terms(e):
    """``({dim: coefficient}, constant)`` of an affine expression that is a sum of multiples of dims, else None."""
    from ..affine.expr import Binary, Constant, Dim  # lazy: the affine family loads only when lowered

    if isinstance(e, Constant):
        return {}, e.value
    if isinstance(e, Dim):
        return {e.position: 1}, 0
    if isinstance(e, Binary) and e.op == "+":
        a, b = _linear_terms(e.lhs), _linear_terms(e.rhs)
        if a is None or b is None:
            return None
        terms = dict(a[0])
        for k, v in b[0].items():
            terms[k] = terms.get(k, 0) + v
        return terms, a[1] + b[1]
    if isinstance(e, Binary) and e.op == "*":
        for x, c in ((e.lhs, e.rhs), (e.rhs, e.lhs)):
            if isinstance(c, Constant):
                t = _linear_terms(x)
                return None if t is None else ({k: v * c.value for k, v in t[0].items()}, t[1] * c.value)
    return None


def _metal_inverse(ml, name):
    """(core coordinates, shard coordinates) -> the logical index held there (data slots; padding is not checked).

    Each physical dim ``p = core * shard + slot`` is a sum of logical dims
    times strides (the collapse, aligned strides included); well-nested
    strides invert greedily from the largest: ``d = (p mod larger) // stride``.
    """
    grid, shard, padded = tuple(ml.grid), tuple(ml.shard_shape), tuple(ml.padded_shard_shape)
    inputs = tuple((f"core{j}", g) for j, g in enumerate(grid)) + tuple((f"slot{j}", q) for j, q in enumerate(padded))
    cores = [ir.var(n, e) for n, e in inputs[:len(grid)]]
    slots = [ir.var(n, e) for n, e in inputs[len(grid):]]
    sizes = tuple(ml.logical_shape)
    out = [ir.const(0)] * len(sizes)
    for j, r in enumerate(ml.linear.results):
        t = _linear_terms(r)
        if t is None:
            raise NotRepresentableError(f"codegen: physical dim {j} of {ml.linear} is not a sum of strided dims; "
                                        "its inverse is not emitted")
        terms, off = t
        p = ir.add(ir.add(ir.mul(cores[j], shard[j]), slots[j]), -off)
        used = sorted(((c, k) for k, c in terms.items() if sizes[k] > 1), reverse=True)
        reach = 0
        for c, k in used[::-1]:
            if c <= reach:
                raise NotRepresentableError(f"codegen: the strides of {ml.linear} overlap; it has no inverse")
            reach += c * (sizes[k] - 1)
        for a, (c, k) in enumerate(used):  # largest stride first: d = rest // c, the rest below the next stride
            out[k] = ir.floordiv(p, c) if a == 0 else ir.floordiv(ir.mod(p, used[a - 1][0]), c)
    outs = tuple(f"d{k}" for k in range(len(sizes)))
    return Kernel(name, inputs, outs, tuple(out), "C", "metal", "",
                  "core coordinates, shard coordinates -> logical index (data slots)")


def _bijective(layout) -> bool:
    import numpy as np  # lazy: only the inverse check tabulates

    check_table(layout.size, "codegen inverse: the layout's points")
    m = layout.index_map()
    return m.size == 0 or (int(m.min()) == 0 and np.unique(m).size == m.size and int(m.max()) == m.size - 1)
