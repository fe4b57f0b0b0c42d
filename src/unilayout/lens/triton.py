"""Price every op of a TTGIR dump that moves data between layouts, as Triton 3.9's lowering does.

The data-moving ops and what the lens says of each:

=================================  =====================================================================
op                                 level and figures
=================================  =====================================================================
``ttg.convert_layout``             ``plan.triton.triton_lowering``: nothing, a register permutation, warp
                                   shuffles (``shfl.sync``) or a shared-memory round trip (the scratch
                                   Triton allocates, its swizzle's bank conflicts, vector widths, and
                                   whether ``stmatrix`` / ``ldmatrix`` do the moving)
``ttg.local_alloc`` (a value)      a shared-memory store into the new buffer (its bytes)
``ttg.local_store``                a shared-memory store
``ttg.local_load``                 a shared-memory load
``ttg.async_copy_global_to_local``  global memory straight to shared (``cp.async``)
``ttng.tmem_load`` / ``tmem_store``  tensor memory to registers and back (``tcgen05.ld`` / ``st``)
=================================  =====================================================================

For the shared-memory accesses of the local ops the vector is Triton's
``largestVectorisation`` of the register layout into the buffer (at most 128
bits) and the conflicts ``linear.analysis.bank_conflicts`` of that access.

>>> from unilayout.lens import mlir
>>> m = mlir.read_module('''#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
... #b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
... module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
...   tt.func @k(%x: tensor<64x128xf16, #a>) {
...     %0 = ttg.convert_layout %x : tensor<64x128xf16, #a> -> tensor<64x128xf16, #b>
...     tt.return
...   }
... }''')
>>> mv = moves(m, Layouts(m))[0]
>>> mv.level, mv.scratch_bytes, mv.instructions
('shared-memory round trip', 16384, ('st.shared.v4.b32', 'ld.shared.v4.b32', 'bar.sync'))
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .. import linear
from ..errors import LayoutError, NotRepresentableError, ParseError
from ..plan.triton import access_vector, element_bits, shared_access_ptx, triton_lowering
from .mlir import ALIAS_REF

__all__ = ["Move", "Layouts", "moves", "MOVING_OPS"]

MOVING_OPS = ("ttg.convert_layout", "ttg.local_alloc", "ttg.local_store", "ttg.local_load",
              "ttg.async_copy_global_to_local", "ttng.tmem_load", "ttng.tmem_store")
_LEVEL = {"none": "none", "register": "register permutation", "shuffle": "warp shuffle",
          "shared": "shared-memory round trip"}


class Move(NamedTuple):
    """One data-moving op of a dump, priced (see the module docstring).

    ``scratch_bytes``: the scratch a convert's lowering allocates, or the buffer
    a ``local_alloc`` creates; ``moved_bytes``: the tensor's bytes;
    ``store_conflicts`` / ``load_conflicts``: extra wavefronts per shared access
    (Triton's ``2**k - 1``); ``store_vector`` / ``load_vector``: elements per
    access; ``instructions``: the PTX classes; ``note``: why a figure is missing.

    >>> Move("f", "ttg.local_load", 3, None, "%1", "%2", "a", "b", "shared-memory load",
    ...      0, 64, None, 0, None, 4, ("ld.shared.v2.b32",), "").level
    'shared-memory load'
    """

    function: str
    op: str
    line: int
    location: object
    source_value: str
    destination_value: str
    source: str
    destination: str
    level: str
    scratch_bytes: object
    moved_bytes: object
    store_conflicts: object
    load_conflicts: object
    store_vector: object
    load_vector: object
    instructions: tuple
    note: str


class Layouts:
    """The layout of every type text of one module, resolved through its aliases once per distinct text.

    >>> from unilayout.lens import mlir
    >>> L = Layouts(mlir.read_module("#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>"))
    >>> L.get("tensor<32xf32, #b>").out_dims
    [('dim0', 32)]
    """

    def __init__(self, module):
        self.module = module
        self._cache: dict = {}
        self._where: dict = {}

    def get(self, type_text: str, where=None):
        """The ``LinearLayout`` of a ``tensor<..>`` / ``!ttg.memdesc<..>`` type (cached), None if it carries no
        Triton encoding. ``where`` (line, column) places a ``ParseError`` in the dump."""
        if type_text in self._cache:
            return self._cache[type_text]
        got = None
        if "#" in type_text and (type_text.startswith("!ttg.memdesc") or _triton_enc(type_text, self.module)):
            text = self.module.with_aliases(type_text)
            try:
                got = linear.encodings.types.layout(text)
            except NotRepresentableError as e:
                got = e
            except ParseError as e:
                if "does not read" in e.message:  # a well-formed encoding unilayout has no value for: a note, not fatal
                    self._cache[type_text] = NotRepresentableError(e.message.split(":")[0])
                    return self._cache[type_text]
                line, col = where or (0, 0)
                raise ParseError(f"line {line}, column {col + 1}: {e.message}", self.module.text,
                                 _offset(self.module.text, line, col)) from None
            except LayoutError as e:
                line, col = where or (0, 0)
                raise ParseError(f"line {line}, column {col + 1}: {e}", self.module.text,
                                 _offset(self.module.text, line, col)) from None
        self._cache[type_text] = got
        return got


def _triton_enc(type_text: str, module) -> bool:
    """Whether the type's encoding is a Triton one (``#ttg.``/``#ttng.`` inline or through an alias)."""
    for name in ALIAS_REF.findall(type_text):
        if name.startswith(("ttg.", "ttng.", "triton_gpu.")):
            return True
        body = module.aliases.get(name, "")
        if body.startswith(("#ttg.", "#ttng.", "#triton_gpu.")):
            return True
    return False


def _offset(text: str, line: int, col: int) -> int:
    if line <= 0:
        return 0
    at = 0
    for _ in range(line - 1):
        nl = text.find("\n", at)
        if nl < 0:
            return len(text)
        at = nl + 1
    return at + col


def _capability(target) -> object:
    """``"cuda:90"`` -> 90; None for other targets (AMD: Triton's lowering there is not this model)."""
    m = re.fullmatch(r"cuda:(\d+)", str(target or "cuda:90"))
    return int(m.group(1)) if m else None


def _bytes(type_text: str, bits) -> object:
    m = re.search(r"<((?:\d+x)+)", type_text)
    if not m or not bits:
        return None
    n = 1
    for d in m.group(1).rstrip("x").split("x"):
        n *= int(d)
    return n * bits // 8


def _vector(cvt, bits) -> int:
    """Elements one access moves (``plan.triton.access_vector`` of the register -> offset layout)."""
    flat = cvt.flatten_outs()
    regs = [int(v[0]) for n, vecs in flat.bases if n == "register" for v in vecs]
    rest = [int(v[0]) for n, vecs in flat.bases if n != "register" for v in vecs]
    return access_vector(regs, rest, bits)


def _matrix(reg, shared, bits, store, cap):
    """``stmatrix`` / ``ldmatrix`` (``.trans``) when Triton's ``lowerLdStMatrix`` takes the access, else None.

    Plain: 32-bit words of ``32/bits`` registers on the lowest offsets, lanes 0 and 1 on the next two, nothing
    else on those bits (a register order may be chosen). Transposed (16-bit only): lanes 2, 3, 4 on offsets 1, 2,
    4 and nothing else there. ``stmatrix`` needs sm_90, ``ldmatrix`` sm_75; one CTA (no cluster shared memory)."""
    if cap is None or cap < (90 if store else 75) or (reg.has_in_dim("block") and reg.in_dim_size("block") > 1):
        return None
    flat = reg.remove_zero_bases_along_dim("register").invert_and_compose(shared).flatten_outs()
    get = dict(flat.bases)
    regs = [int(v[0]) for v in get.get("register", [])]
    lanes = [int(v[0]) for v in get.get("lane", [])]
    warps = [int(v[0]) for v in get.get("warp", [])]
    name = "stmatrix" if store else "ldmatrix"
    e = max(0, (32 // bits).bit_length() - 1)
    if bits <= 32 and len(lanes) >= 2 and all(1 << i in regs for i in range(e)):
        tile = {1 << i for i in range(e)}
        rest = [r for r in regs if r not in tile] + lanes[2:] + warps
        low = (1 << (e + 2)) - 1
        if lanes[:2] == [1 << e, 2 << e] and not any(b & low for b in rest):
            return name
    if bits == 16 and regs and len(lanes) >= 5 and lanes[2:5] == [1, 2, 4]:
        if not any(b & 7 for b in regs + lanes[:2] + warps):
            return name + ".trans"
    return None


def _shared_access(reg, shared, bits):
    """(vector, conflicts) of one register <-> shared access (see :func:`_vector`), the register layout
    without its broadcast registers, and the bank conflicts of that access."""
    reg = reg.remove_zero_bases_along_dim("register") if reg.has_in_dim("register") else reg
    vec = _vector(reg.invert_and_compose(shared), bits)
    return vec, linear.analysis.bank_conflicts(reg, shared, bits, vec=vec)




def moves(module, layouts: Layouts) -> list:
    """Every data-moving op of ``module`` priced (:class:`Move`), in the order of the dump.

    >>> from unilayout.lens import mlir
    >>> moves(mlir.read_module("module {\\n}"), None)
    []
    """
    cap = _capability(module.attributes.get("ttg.target"))
    out, seen = [], {}
    for fn in module.functions:
        for op in fn.ops:
            if op.name in MOVING_OPS:
                key = (op.name, tuple(s.text for s in op.spans))  # a dump repeats its moves: price each kind once
                if key not in seen:
                    seen[key] = _price(fn.name, op, module, layouts, cap)
                mv = seen[key]
                out.append(mv._replace(function=fn.name, line=op.line, location=module.location(op.location),
                                       source_value=op.operands[0] if op.operands else "",
                                       destination_value=_dst_value(op)))
    return out


def _dst_value(op) -> str:
    return op.results[0] if op.results else (op.operands[1] if len(op.operands) > 1 else "")


def _price(fname, op, module, layouts, cap) -> Move:
    spans = op.spans
    loc = module.location(op.location)
    srcv = op.operands[0] if op.operands else ""
    dstv = _dst_value(op)
    if not spans:
        return Move(fname, op.name, op.line, loc, srcv, dstv, "", "", "unknown", None, None, None, None, None,
                    None, (), "no tensor or memdesc type on the line")
    src, dst = spans[0], spans[-1]
    base = dict(function=fname, op=op.name, line=op.line, location=loc, source_value=srcv, destination_value=dstv,
                source=src.text, destination=dst.text)
    # a copy from global memory reads pointers: the elements are what the buffer holds
    bits = element_bits(dst.text) if "!tt.ptr" in src.text else (element_bits(src.text) or element_bits(dst.text))
    if op.name == "ttg.local_alloc" and len(spans) == 1:
        return Move(**base, level="allocation", scratch_bytes=_bytes(dst.text, bits), moved_bytes=0,
                    store_conflicts=None, load_conflicts=None, store_vector=None, load_vector=None, instructions=(),
                    note="")
    a = layouts.get(src.text, (src.line, src.col))
    b = layouts.get(dst.text, (dst.line, dst.col))
    moved = _bytes(src.text if "memdesc" not in src.text else dst.text, bits)
    for x in (a, b):
        if isinstance(x, Exception):
            return Move(**base, level="unknown", scratch_bytes=None, moved_bytes=moved, store_conflicts=None,
                        load_conflicts=None, store_vector=None, load_vector=None, instructions=(), note=str(x))
    if a is None or b is None or not all(isinstance(x, linear.LinearLayout) for x in (a, b)):
        why = "a type without a Triton layout" if a is None or b is None else \
            "a padded_shared buffer (an affine address map, not linear): not modelled"
        return Move(**base, level="unknown", scratch_bytes=None, moved_bytes=moved, store_conflicts=None,
                    load_conflicts=None, store_vector=None, load_vector=None, instructions=(), note=why)
    if op.name == "ttg.convert_layout":
        if cap is None:
            c = triton_lowering(a, b, bits or 32)
            return Move(**base, level=_LEVEL[c.path], scratch_bytes=None, moved_bytes=moved, store_conflicts=None,
                        load_conflicts=None, store_vector=None, load_vector=None, instructions=(),
                        note=f"target {module.attributes.get('ttg.target')}: only NVIDIA's lowering is modelled")
        c = triton_lowering(a, b, bits or 32, cap)
        shared = c.path == "shared"
        return Move(**base, level=_LEVEL[c.path], scratch_bytes=c.scratch_bytes, moved_bytes=moved,
                    store_conflicts=c.store_conflicts if shared else None,
                    load_conflicts=c.load_conflicts if shared else None,
                    store_vector=c.store_vector if shared else None, load_vector=c.load_vector if shared else None,
                    instructions=c.instructions, note="")
    got = _local(op, base, a, b, bits or 32, moved, cap)
    if cap is None:  # AMD and other targets: the buffer's bytes hold, the access is not NVIDIA's
        got = got._replace(store_conflicts=None, load_conflicts=None, store_vector=None, load_vector=None,
                           instructions=(), note=f"target {module.attributes.get('ttg.target')}: only NVIDIA's "
                                                 "lowering is modelled")
    return got


def _local(op, base, a, b, bits, moved, cap) -> Move:
    """local_alloc / local_store / local_load / async copy / tensor memory: one access between registers and memory."""
    name = op.name
    if name.startswith("ttng.tmem"):
        ins = ("tcgen05.ld",) if name == "ttng.tmem_load" else ("tcgen05.st",)
        level = "tensor-memory load" if name == "ttng.tmem_load" else "tensor-memory store"
        return Move(**base, level=level, scratch_bytes=0, moved_bytes=moved, store_conflicts=None,
                    load_conflicts=None, store_vector=None, load_vector=None, instructions=ins, note="")
    store = name != "ttg.local_load"
    reg, shared = (a, b) if store else (b, a)
    try:
        vec, conflicts = _shared_access(reg, shared, bits)
        matrix = None if name == "ttg.async_copy_global_to_local" else _matrix(reg, shared, bits, store, cap)
    except LayoutError as e:
        return Move(**base, level="unknown", scratch_bytes=None, moved_bytes=moved, store_conflicts=None,
                    load_conflicts=None, store_vector=None, load_vector=None, instructions=(), note=str(e))
    if name == "ttg.async_copy_global_to_local":
        width = min(16, vec * bits // 8)
        return Move(**base, level="global to shared", scratch_bytes=0, moved_bytes=moved, store_conflicts=conflicts,
                    load_conflicts=None, store_vector=vec, load_vector=None,
                    instructions=(f"cp.async.{'cg' if width == 16 else 'ca'}.shared.global",), note="")
    scratch = _bytes(base["destination"], bits) if name == "ttg.local_alloc" else 0
    if matrix:  # one 16-byte row a lane; Triton's own conflict count of these rows is not modelled here
        vec, conflicts = 128 // bits, None
    if store:
        return Move(**base, level="shared-memory store", scratch_bytes=scratch, moved_bytes=moved,
                    store_conflicts=conflicts, load_conflicts=None, store_vector=vec, load_vector=None,
                    instructions=(matrix or shared_access_ptx("st", vec, bits),), note="")
    return Move(**base, level="shared-memory load", scratch_bytes=0, moved_bytes=moved, store_conflicts=None,
                load_conflicts=conflicts, store_vector=None, load_vector=vec,
                instructions=(matrix or shared_access_ptx("ld", vec, bits),), note="")
