"""``lens.read(text)``: a whole dump -> a :class:`Dump` of its layouts by SSA value and its priced moves.

>>> from unilayout import lens
>>> d = lens.read('''#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
... #b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
... module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
...   tt.func @k(%x: tensor<64x128xf16, #a>) {
...     %0 = ttg.convert_layout %x : tensor<64x128xf16, #a> -> tensor<64x128xf16, #b>
...     tt.return
...   }
... }''')
>>> d.kind, d.num_warps, d.target, [v.name for v in d.values]
('triton', 4, 'cuda:90', ['%x', '%0'])
>>> d.layout("%0").bases[0]
('register', [[1, 0], [2, 0], [16, 0], [32, 0], [0, 32], [0, 64]])
>>> [(m.op, m.level, m.scratch_bytes) for m in d.moves]
[('ttg.convert_layout', 'shared-memory round trip', 16384)]
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..errors import LayoutError
from . import mlir
from .triton import Layouts, moves

__all__ = ["Dump", "LayoutValue", "read", "KNOWN_DIALECTS"]

KNOWN_DIALECTS = frozenset({"tt", "ttg", "ttng", "triton_gpu", "triton_nvidia_gpu", "amdg", "amdgpu", "nvgpu", "nvvm",
                            "scf", "arith", "math", "cf", "func", "gpu", "llvm", "builtin", "tensor", "memref",
                            "affine", "vector", "ub", "proton", "gluon", "ttir", "ttnn", "d2m", "ttcore", "ttkernel",
                            "ttmetal", "emitc", "linalg", "bufferization", "tosa", "stablehlo", "sdy", "mhlo",
                            "module", "return"})
_ENC = re.compile(r"#(ttg|ttng|triton_gpu)\.|#(ttnn|ttcore|tt)\.")


class LayoutValue(NamedTuple):
    """An SSA value whose type carries a layout: where its type is written (1-based line, 0-based columns).

    >>> LayoutValue("k", "%0", "tensor<4xf32, #b>", 3, 10, 27).name
    '%0'
    """

    function: str
    name: str
    type: str
    line: int
    col: int
    end: int


class Dump:
    """What the lens read from one dump (built by :func:`read`).

    ``kind`` ('triton', 'tt-mlir' or 'mlir'), ``attributes`` (the module's),
    ``num_warps``, ``threads_per_warp``, ``num_ctas``, ``target``, ``aliases``
    (``{name: text}``), ``functions`` (names), ``values`` (:class:`LayoutValue`
    of every layout-carrying SSA value, in order), ``moves``
    (``lens.triton.Move`` or ``lens.ttmlir.Move``, in order), ``unknown_ops``
    (op names of dialects the lens does not know: read, not priced).

    >>> read("module {\\n}").functions
    []
    """

    def __init__(self, module, kind, values, moves_, unknown, layouts):
        self.module = module
        self.kind = kind
        self.attributes = dict(module.attributes)
        self.num_warps = self.attributes.get("ttg.num-warps")
        self.threads_per_warp = self.attributes.get("ttg.threads-per-warp", 32 if kind == "triton" else None)
        self.num_ctas = self.attributes.get("ttg.num-ctas", 1 if kind == "triton" else None)
        self.target = self.attributes.get("ttg.target")
        self.aliases = dict(module.aliases)
        self.functions = [f.name for f in module.functions]
        self.values = values
        self.moves = moves_
        self.unknown_ops = unknown
        self._layouts = layouts

    def __repr__(self):
        return (f"<lens.Dump {self.kind}: {len(self.functions)} function(s), {len(self.values)} layout values, "
                f"{len(self.moves)} moves>")

    def value(self, name: str, function: str | None = None) -> LayoutValue:
        """The :class:`LayoutValue` named ``name`` (in ``function``, default: the first that has it).

        >>> read("module {\\n  tt.func @f(%a: tensor<4xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], "
        ...      "warpsPerCTA = [1], order = [0]}>>) {\\n  }\\n}").value("%a").line
        2
        """
        for v in self.values:
            if v.name == name and (function is None or v.function == function):
                return v
        raise LayoutError(f"lens: no layout-carrying value {name}" + (f" in @{function}" if function else ""))

    def layout(self, name: str, function: str | None = None):
        """The layout value of one SSA value: a ``LinearLayout`` for Triton types, the tt family's value for
        tt-mlir tensors (``unilayout.parse`` of the type and the aliases it uses).

        >>> d = read("#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>\\n"
        ...          "module {\\n  tt.func @f(%a: tensor<32xf32, #b>) {\\n  }\\n}")
        >>> d.layout("%a").out_dims
        [('dim0', 32)]
        """
        v = self.value(name, function)
        return self._layouts(v)

    def layouts(self, function: str | None = None) -> dict:
        """``{SSA name: layout}`` of one function (default: the first).

        >>> read("module {\\n}").layouts()
        {}
        """
        fn = function if function is not None else (self.functions[0] if self.functions else None)
        return {v.name: self._layouts(v) for v in self.values if v.function == fn}

    def table(self) -> str:
        """The moves as one text table per function (``lens.table.format_table``)."""
        from .table import format_table  # lazy: the table module is needed only when printing

        return format_table(self)

    def to_json(self) -> dict:
        """Everything as plain JSON data (``lens.table.to_json``)."""
        from .table import to_json  # lazy: the table module is needed only when printing

        return to_json(self)


def _kind(module) -> str:
    text = " ".join(module.aliases.values()) + " " + " ".join(module.attributes)
    if re.search(r"#(ttg|ttng|triton_gpu)\.|\bttg\.", text):
        return "triton"
    if re.search(r"#(ttnn|ttcore|tt)\.", text):
        return "tt-mlir"
    for fn in module.functions:
        for op in fn.ops[:50]:
            for s in op.spans:
                m = _ENC.search(s.text)
                if m:
                    return "triton" if m.group(1) else "tt-mlir"
    return "mlir"


def _values(module):
    """Every SSA value whose type carries an encoding, with the place its type is written."""
    lines = module.text.splitlines()
    for fn in module.functions:
        head = lines[fn.line - 1] if fn.line else ""
        made = {name: op for op in fn.ops for name in op.results}
        for name, t in fn.types.items():
            if "#" in t and t.startswith(("tensor<", "!ttg.memdesc<", "memref<")):
                yield _place(fn, name, t, head, made.get(name))


def _place(fn, name, t, head, op) -> LayoutValue:
    if op is not None:
        spans = [s for s in op.spans if s.text == t]
        if spans:
            return LayoutValue(fn.name, name, t, spans[-1].line, spans[-1].col, spans[-1].end)
        return LayoutValue(fn.name, name, t, op.line, 0, 0)
    at = head.find(name + ":")
    col = head.find(t, at) if at >= 0 else -1
    if col >= 0:
        return LayoutValue(fn.name, name, t, fn.line, col, col + len(t))
    return LayoutValue(fn.name, name, t, fn.line, 0, 0)


def read(text: str) -> Dump:
    """Read a whole TTGIR/TTIR or tt-mlir dump: every layout by SSA value, every data-moving op priced.

    Triton dumps price ``ttg.convert_layout``, ``ttg.local_alloc/local_store/local_load``,
    ``ttg.async_copy_global_to_local`` and ``ttng.tmem_load/tmem_store`` as Triton 3.9 lowers them
    (``lens.triton``); tt-mlir dumps price ``ttnn.to_layout``, ``ttnn.to_memory_config``,
    ``d2m.to_layout`` and ``d2m.view_layout`` with ``plan.reshard_cost`` (``lens.ttmlir``). Ops
    of dialects the lens does not know are listed in ``unknown_ops``; a malformed type is a
    ``ParseError`` naming its line and column.

    >>> read('''module {
    ...   tt.func @f(%a: i32) {
    ...     %0 = mydialect.frob %a : i32
    ...     tt.return
    ...   }
    ... }''').unknown_ops
    ['mydialect.frob']
    >>> read("module {\\n  tt.func @f() {\\n    %0 = tt.splat %a : i32 -> tensor<4xi32, #b\\n  }\\n}")
    Traceback (most recent call last):
    ...
    unilayout.errors.ParseError: line 3, column 31: the type 'tensor<4xi32, #b' never closes its '<' at position 56
          %0 = tt.splat %a : i32 -> tensor<4xi32, #b
                                    ^
    """
    module = mlir.read_module(text)
    kind = _kind(module)
    unknown = sorted({op.name for fn in module.functions for op in fn.ops
                      if op.name.split(".", 1)[0] not in KNOWN_DIALECTS})
    values = list(_values(module))
    if kind == "tt-mlir":
        from . import ttmlir  # lazy: the tt family loads only for tt-mlir dumps

        layouts = ttmlir.Layouts(module)
        priced = ttmlir.moves(module, layouts)

        def get(v):
            return layouts.get(v.type)
    else:
        layouts = Layouts(module)
        priced = moves(module, layouts) if kind == "triton" else []

        def get(v):
            return layouts.get(v.type, (v.line, v.col))
    return Dump(module, kind, values, priced, unknown, get)
