"""A ``Kernel`` printed in each language: C, CUDA, Triton, MLIR affine maps, numpy and Python.

One walk over the expressions serves every language: a sub-expression used
more than once (a swizzle reads its offset twice) becomes a local (``t0``),
operators are spelled and parenthesised per language, and where an operand may
be negative C, CUDA and Triton (whose ``/`` and ``%`` truncate) call small
floor-division helpers emitted with the function; Python and numpy floor by
themselves. ``mlir-affine`` prints the unreduced expression as MLIR's
quasi-affine syntax; a bit operation it cannot write (an XOR of overlapping
bits, a mask that is not a run of bits) is ``NotRepresentableError``.

>>> from unilayout.codegen import ir
>>> from unilayout.codegen.lower import Kernel
>>> i = ir.var("i", 64)
>>> k = Kernel("f", (("i", 64),), ("offset",), (ir.add(ir.mul(ir.mod(i, 8), 8), ir.floordiv(i, 8)),), "C", "x",
...            "t", "i -> offset")
>>> print(print_kernel(k, "python"))
def f(i):
    \"\"\"i -> offset\"\"\"
    return ((i & 7) << 3) + (i >> 3)
"""

from __future__ import annotations

import keyword

from ..errors import LayoutError, NotRepresentableError
from . import ir

__all__ = ["LANGS", "print_kernel"]

#: The languages ``emit`` writes (``cute-cpp`` only for CuTe values: ``codegen.cute_cpp``).
LANGS = ("c", "cuda", "cute-cpp", "triton", "mlir-affine", "numpy", "python")

#: C and C++ keywords an in-dim or output name may collide with (``register``): printed with a trailing ``_``.
_C_WORDS = frozenset("auto break case char const continue default do double else enum extern float for goto if "
                     "inline int long register restrict return short signed sizeof static struct switch typedef "
                     "union unsigned void volatile while bool class delete new private public template this "
                     "operator".split())
_PREC = {"|": 6, "^": 7, "&": 8, "<<": 11, ">>": 11, "+": 12, "-": 12, "*": 13, "//": 13, "%": 13}
_BITS = ("|", "^", "&", "<<", ">>")
_INT32 = (-(1 << 31), (1 << 31) - 1)


def _shared(exprs):
    """Nodes (by identity) referenced more than once, in an order where each comes after what it uses."""
    uses, order = {}, []

    def walk(n):
        if n.op in ("const", "var"):
            return
        k = id(n)
        uses[k] = uses.get(k, 0) + 1
        if uses[k] > 1:
            return
        walk(n.a)
        if isinstance(n.b, ir.Node):
            walk(n.b)
        order.append(n)

    for e in exprs:
        walk(e)
    return [n for n in order if uses[id(n)] > 1]


class _Printer:
    """Spells one language's expressions; ``helpers`` collects the floor helpers it needed."""

    floor_native = True  # // and % floor by themselves (Python, numpy)

    reserved = frozenset(keyword.kwlist)

    def __init__(self, names):
        self.names = names  # id(node) -> local name
        self.helpers = set()

    def ident(self, name):
        """``name`` as an identifier of the language (a keyword gets a trailing ``_``)."""
        return name + "_" if name in self.reserved else name

    def const(self, v):
        return str(v) if v >= 0 else f"({v})"

    def expr(self, n, parent=None, right=False):
        if n.op == "const":
            return self.const(n.a)
        if n.op == "var":
            return self.ident(n.a)
        if id(n) in self.names:
            return self.names[id(n)]
        text, op = self.binary(n)
        if parent is None or op is None:
            return text
        return f"({text})" if self._needs(op, parent, right) else text

    @staticmethod
    def _needs(op, parent, right):
        """Parentheses around a child ``op`` under ``parent``: by precedence, and always between different bit
        operators (what a reader, and ``-Wparentheses``, expects)."""
        if op == parent and op in ("+", "*", "|", "^", "&"):
            return False
        if op in _BITS or parent in _BITS:
            return True
        p, q = _PREC[op], _PREC[parent]
        return p < q or (p == q and right)

    def binary(self, n):
        op = n.op
        k = n.b.a if n.b.op == "const" else None
        a = self.expr(n.a, op if op in _PREC else None)
        if op == "ceil":
            return self.ceil(n, a, k), None
        if op in ("//", "%") and not self.floor_native and n.a.lo < 0:
            self.helpers.add(op)
            return self.call("floordiv" if op == "//" else "mod", self.expr(n.a), k), None
        b = self.expr(n.b, op, right=True)
        return f"{a} {self.spell(op)} {b}", op

    def spell(self, op):
        return op

    def call(self, fn, a, k):
        return f"ul_{fn}({a}, {k})"

    def ceil(self, n, a, k):
        inner = self.expr(n.a)
        inner = inner if n.a.op in ("const", "var") or id(n.a) in self.names else f"({inner})"
        return f"-(-{inner} // {k})"


class _CPrinter(_Printer):
    floor_native = False
    reserved = _C_WORDS

    def __init__(self, names, int_type):
        super().__init__(names)
        self.int_type = int_type

    def const(self, v):
        if self.int_type != "int" and not _INT32[0] <= v <= _INT32[1]:
            return f"INT64_C({v})"
        return str(v) if v >= 0 else f"({v})"

    def spell(self, op):
        return "/" if op == "//" else op

    def ceil(self, n, a, k):
        if n.a.lo >= 0:
            return f"({self.expr(n.a, '+')} + {k - 1}) / {k}"
        self.helpers.add("ceil")
        return self.call("ceildiv", self.expr(n.a), k)


class _TritonPrinter(_Printer):
    floor_native = False  # tl's // and % on integers truncate, as C

    def ceil(self, n, a, k):
        if n.a.lo >= 0:
            return f"({self.expr(n.a, '+')} + {k - 1}) // {k}"
        self.helpers.add("ceil")
        return self.call("ceildiv", self.expr(n.a), k)


def _fits_int32(exprs):
    seen = []

    def walk(n):
        seen.append((n.lo, n.hi))
        if n.op not in ("const", "var"):
            walk(n.a)
            if isinstance(n.b, ir.Node):
                walk(n.b)

    for e in exprs:
        walk(e)
    return all(_INT32[0] <= lo and hi <= _INT32[1] for lo, hi in seen)


def _body(k, printer):
    """``(locals [(name, text)], outputs [text])`` with shared sub-expressions hoisted."""
    shared = _shared(k.exprs)
    taken = {n for n, _ in k.inputs} | set(k.outputs)
    locals_ = []
    for node in shared:
        j = len(locals_)
        name = f"t{j}"
        while name in taken:
            name = "_" + name
        text = printer.expr(node)
        printer.names[id(node)] = name
        locals_.append((name, text))
    return locals_, [printer.expr(e) for e in k.exprs]


_C_HELPERS = {
    "//": "static inline {t} ul_floordiv({t} a, {t} b) {{ return a / b - (a % b != 0 && a < 0); }}",
    "%": "static inline {t} ul_mod({t} a, {t} b) {{ {t} r = a % b; return r < 0 ? r + b : r; }}",
    "ceil": "static inline {t} ul_ceildiv({t} a, {t} b) {{ return a / b + (a % b != 0 && a > 0); }}",
}
_HELPER_NAMES = {"//": "floordiv", "%": "mod", "ceil": "ceildiv"}
_TRITON_HELPERS = {
    "//": "@triton.jit\ndef ul_floordiv(a, b):\n    q = a // b\n    return tl.where((a % b != 0) & (a < 0), q - 1, q)",
    "%": "@triton.jit\ndef ul_mod(a, b):\n    r = a % b\n    return tl.where(r < 0, r + b, r)",
    "ceil": "@triton.jit\ndef ul_ceildiv(a, b):\n    q = a // b\n    return tl.where((a % b != 0) & (a > 0), q + 1, q)",
}


def _print_c(k, cuda):
    memo = {}
    exprs = tuple(ir.reduce_strength(e, memo) for e in k.exprs)
    k = k._replace(exprs=exprs)
    t = "int" if cuda and _fits_int32(exprs) else ("int64_t" if not cuda else "long long")
    p = _CPrinter({}, t)
    locals_, outs = _body(k, p)
    qual = "__device__ __forceinline__ " if cuda else "static inline "
    args = ", ".join(f"{t} {p.ident(n)}" for n, _ in k.inputs)
    outputs = [p.ident(o) for o in k.outputs]
    lines = [f"/* {k.about} */"]
    for h in sorted(p.helpers):  # guarded, so that several emitted functions paste into one file
        guard = f"UL_{_HELPER_NAMES[h]}_{t.replace(' ', '_')}".upper()
        lines += [f"#ifndef {guard}", f"#define {guard}",
                  ("__device__ " if cuda else "") + _C_HELPERS[h].format(t=t), "#endif"]
    if len(outs) == 1:
        lines.append(f"{qual}{t} {k.name}({args}) {{")
        lines += [f"    const {t} {n} = {v};" for n, v in locals_]
        lines.append(f"    return {outs[0]};")
    else:
        outs_args = ", ".join(f"{t} *{o}" for o in outputs)
        lines.append(f"{qual}void {k.name}({args}, {outs_args}) {{")
        lines += [f"    const {t} {n} = {v};" for n, v in locals_]
        lines += [f"    *{o} = {v};" for o, v in zip(outputs, outs)]
    lines.append("}")
    head = [] if cuda else ["#include <stdint.h>"]
    return "\n".join(head + lines)


def _print_python(k, numpy):
    memo = {}
    exprs = tuple(ir.reduce_strength(e, memo) for e in k.exprs)
    k = k._replace(exprs=exprs)
    p = _Printer({})
    locals_, outs = _body(k, p)
    args = ", ".join(p.ident(n) for n, _ in k.inputs)
    lines = ["import numpy as np", "", ""] if numpy else []
    lines.append(f"def {k.name}({args}):")
    lines.append(f'    """{k.about}"""')
    if numpy:
        lines += [f"    {p.ident(n)} = np.asarray({p.ident(n)}, dtype=np.int64)" for n, _ in k.inputs]
    lines += [f"    {n} = {v}" for n, v in locals_]
    if numpy:  # a constant result is broadcast to the inputs' shape
        shape = " + ".join(f"0 * {p.ident(n)}" for n, _ in k.inputs[:1]) or "0"
        outs = [o if not e.is_const else f"{o} + {shape}" for o, e in zip(outs, exprs)]
    lines.append("    return " + (outs[0] if len(outs) == 1 else ", ".join(outs)))
    return "\n".join(lines)


def _print_triton(k):
    memo = {}
    exprs = tuple(ir.reduce_strength(e, memo) for e in k.exprs)
    k = k._replace(exprs=exprs)
    p = _TritonPrinter({})
    locals_, outs = _body(k, p)
    args = ", ".join(p.ident(n) for n, _ in k.inputs)
    lines = ["import triton", "import triton.language as tl", ""]
    for h in sorted(p.helpers):
        lines += ["", _TRITON_HELPERS[h], ""]
    outs = [o if not e.is_const else f"{o} + 0 * {p.ident(k.inputs[0][0])}" for o, e in zip(outs, exprs)]
    lines += ["", "@triton.jit", f"def {k.name}({args}):", f'    """{k.about}"""']
    lines += [f"    {n} = {v}" for n, v in locals_]
    lines.append("    return " + (outs[0] if len(outs) == 1 else ", ".join(outs)))
    return "\n".join(lines)


def _mlir_node(n, names):
    """MLIR quasi-affine text of a node (bit operations rewritten where they are affine)."""
    if n.op == "const":
        return str(n.a), 100
    if n.op == "var":
        return names[n.a], 100
    op, k = n.op, (n.b.a if isinstance(n.b, ir.Node) and n.b.op == "const" else None)

    def sub(x, level):
        text, p = _mlir_node(x, names)
        return f"({text})" if p < level else text

    if op in ("+", "|", "^"):
        if op != "+" and _overlap(n.a, n.b):
            raise NotRepresentableError(f"codegen: mlir-affine cannot write {op} of overlapping bits ({n}): "
                                        "XOR is not quasi-affine")
        return f"{sub(n.a, 1)} + {sub(n.b, 2)}", 1
    if op == "-":
        return f"{sub(n.a, 1)} - {sub(n.b, 2)}", 1
    if op == "*":
        return f"{sub(n.a, 2)} * {k}", 2
    if op in ("//", "%", "ceil"):
        word = {"//": "floordiv", "%": "mod", "ceil": "ceildiv"}[op]
        return f"{sub(n.a, 3)} {word} {k}", 2
    if op == ">>":
        return f"{sub(n.a, 3)} floordiv {1 << k}", 2
    if op == "<<":
        return f"{sub(n.a, 2)} * {1 << k}", 2
    if op == "&":
        lo = (k & -k).bit_length() - 1
        run = k >> lo
        if run & (run + 1):
            raise NotRepresentableError(f"codegen: mlir-affine cannot write the mask {k:#x} of {n} (not a run of bits)")
        inner = sub(n.a, 3) if lo == 0 else f"({sub(n.a, 3)} floordiv {1 << lo})"
        text = f"{inner} mod {run + 1}"
        return (text, 2) if lo == 0 else (f"({text}) * {1 << lo}", 2)
    raise NotRepresentableError(f"codegen: mlir-affine has no {op}")


def _overlap(a, b) -> bool:
    return a.lo < 0 or b.lo < 0 or bool(ir.possible_bits(a) & ir.possible_bits(b))


def _print_mlir(k):
    names = {n: f"d{j}" for j, (n, _) in enumerate(k.inputs)}
    results = ", ".join(_mlir_node(e, names)[0] for e in k.exprs)
    dims = ", ".join(names[n] for n, _ in k.inputs)
    return f"affine_map<({dims}) -> ({results})>"


def print_kernel(k, lang: str) -> str:
    """The source text of kernel ``k`` in ``lang`` (one of ``LANGS`` but ``cute-cpp``).

    >>> from unilayout.codegen.lower import Kernel
    >>> x = ir.var("x", 16)
    >>> k = Kernel("g", (("x", 16),), ("y",), (ir.floordiv(x, 4),), "C", "affine", "t", "x -> y")
    >>> print_kernel(k, "mlir-affine")
    'affine_map<(d0) -> (d0 floordiv 4)>'
    """
    if lang in ("c", "cuda"):
        return _print_c(k, lang == "cuda")
    if lang in ("python", "numpy"):
        return _print_python(k, lang == "numpy")
    if lang == "triton":
        return _print_triton(k)
    if lang == "mlir-affine":
        return _print_mlir(k)
    if lang == "cute-cpp":
        raise NotRepresentableError(f"codegen: cute-cpp writes CuTe layouts; a {k.family} value has no CuTe C++ form")
    raise LayoutError(f"codegen: unknown language {lang!r}: expected one of {', '.join(LANGS)}")
