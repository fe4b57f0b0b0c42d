"""What a Triton layout conversion costs: levels crossed, shuffle rounds, shared-memory staging.

``convert_layout`` between two distributed encodings of one tensor moves
each element from the (register, lane, warp, block) that holds it in
``src`` to the one that holds it in ``dst``. ``cvt = dst.invert_and_compose(src)``
says where each destination slot's element comes from; the existing
analyses of ``unilayout.linear.analysis`` price it:

- ``levels`` / ``level``: the hardware levels the conversion still moves
  data across (``conversion_levels`` / ``conversion_level``): ``none``,
  ``register`` (a register permutation), ``lane`` (within a warp), ``warp``
  or ``block`` (through shared memory or the cluster);
- ``shuffle_rounds`` (``lane`` level only, else None): warp shuffles per
  thread of the simple schedule — one destination register at a time; in
  that round each lane offers one register, so a round is needed per
  distinct register other lanes ask one lane for (unilayout's count, a
  bound on what Triton emits, not Triton's own number);
- a shared-memory *staging* layout (``optimal_shared_layout``, any level
  above ``register``): its bytes, the bank conflicts of storing ``src`` and
  loading ``dst`` (``bank_conflicts``) and the vector widths of both
  accesses (``largest_vectorisation``).

>>> from unilayout.linear import encodings as E
>>> src = E.blocked([32, 32], [1, 1], [1, 32], [1, 1], [1, 0])   # a lane per column
>>> dst = E.blocked([32, 32], [1, 1], [32, 1], [1, 1], [0, 1])   # a lane per row
>>> c = triton_conversion(src, dst, bitwidth=16)   # a transpose: 31 rounds per register by shuffles
>>> c.level, c.shuffle_rounds, c.shared_bytes, c.store_conflicts, c.load_conflicts
('lane', 992, 2048, 0, 0)
"""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np

from .. import linear
from .._ints import as_pow2
from ..errors import LayoutError

__all__ = ["TritonCost", "triton_conversion", "shuffle_rounds", "element_bits"]

_TENSOR_ELEM = re.compile(r"(?:tensor|!ttg\.memdesc)\s*<\s*(?:\d+\s*x\s*)+(!tt\.ptr|[A-Za-z][\w]*)")
_WIDTH = re.compile(r"(?:[fiu]|bf|si|ui)(\d+)")


def element_bits(text: str):
    """Bits of one element of the Triton tensor type in ``text`` (the last ``tensor<..>`` or memdesc), or None.

    What Triton's conversion lowering counts in shared memory: the element
    type's width, at least 8 (``i1`` is stored as a byte), 64 for ``!tt.ptr``;
    ``f8E4M3FN`` and kin are 8. None when the text carries no tensor type
    (a bare encoding, a CuTe layout) or an element type without a width.

    >>> element_bits("tensor<128x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], "
    ...              "warpsPerCTA = [4, 1], order = [1, 0]}>>")
    16
    >>> element_bits("tensor<32xi1, #blocked>"), element_bits("tensor<8x8x!tt.ptr<f32>, #b>"), element_bits("(8,8):(8,1)")
    (8, 64, None)
    """
    found = _TENSOR_ELEM.findall(text)
    if not found:
        return None
    elem = found[-1]
    if elem == "!tt.ptr":
        return 64
    m = _WIDTH.match(elem)
    return max(8, int(m.group(1))) if m else None


class TritonCost(NamedTuple):
    """The price of a Triton ``convert_layout`` (fields in the module docstring).

    ``staging`` is the shared ``LinearLayout`` (None when nothing leaves the registers).

    >>> TritonCost("none", (), 0, 0, 0, 0, 0, 0, None).level
    'none'
    """

    level: str
    levels: tuple
    shuffle_rounds: object
    shared_bytes: int
    store_conflicts: int
    load_conflicts: int
    store_vector: int
    load_vector: int
    staging: object


def shuffle_rounds(src, dst) -> int:
    """Warp-shuffle rounds per thread of the one-register-at-a-time schedule (module docstring).

    For every destination register ``r`` that some lane must fetch from
    another lane, the rounds are the largest number of distinct source
    registers one source lane is asked for by other lanes; the total is
    summed over ``r``.
    Warp 0 of block 0 is counted (by linearity every warp is the same).

    **Pre-condition**: the conversion crosses no warp or block
    (``conversion_level`` is ``none``, ``register`` or ``lane``).

    >>> from unilayout.linear import LinearLayout
    >>> src = LinearLayout({"register": [[1]], "lane": [[2], [4]]}, ["dim0"])
    >>> dst = LinearLayout({"register": [[4]], "lane": [[1], [2]]}, ["dim0"])
    >>> shuffle_rounds(src, dst)     # per register, one source lane is asked for both of its registers
    4
    """
    cvt = dst.invert_and_compose(src)
    for d in ("warp", "block"):
        if cvt.has_in_dim(d) and cvt.has_out_dim(d):
            vals = linear.evaluate(cvt, {**{n: 0 for n in cvt.in_dim_names}, d: np.arange(cvt.in_dim_size(d))})[d]
            if (vals != np.arange(cvt.in_dim_size(d))).any():
                raise LayoutError(f"shuffle_rounds: the conversion moves data across {d}s: warp shuffles cannot do it")
    regs = cvt.in_dim_size("register") if cvt.has_in_dim("register") else 1
    lanes = cvt.in_dim_size("lane") if cvt.has_in_dim("lane") else 1
    r = np.arange(regs)[:, None]
    l = np.arange(lanes)[None, :]
    ins = {n: 0 for n in cvt.in_dim_names}
    if cvt.has_in_dim("register"):
        ins["register"] = r
    if cvt.has_in_dim("lane"):
        ins["lane"] = l
    out = linear.evaluate(cvt, ins)
    src_lane = np.broadcast_to(out["lane"] if "lane" in out else np.zeros(1, dtype=np.int64), (regs, lanes))
    src_reg = np.broadcast_to(out["register"] if "register" in out else np.zeros(1, dtype=np.int64), (regs, lanes))
    width = int(src_reg.max()) + 1
    own = np.arange(lanes)
    total = 0
    for k in range(regs):
        away = src_lane[k] != own
        if not away.any():
            continue
        pairs = np.unique(src_lane[k][away] * width + src_reg[k][away])
        total += int(np.bincount(pairs // width, minlength=lanes).max())
    return total


def triton_conversion(src, dst, bitwidth=32) -> TritonCost:
    """Price ``convert_layout(src -> dst)`` for elements of ``bitwidth`` bits (see the module docstring).

    **Pre-conditions**: ``src`` and ``dst`` are distributed linear layouts
    (in-dims register, lane, warp, block) over the same out-dims ``dim0..``.

    >>> from unilayout.linear import encodings as E
    >>> a = E.blocked([64, 64], [1, 4], [8, 4], [4, 1], [1, 0])
    >>> b = E.blocked([64, 64], [4, 1], [4, 8], [1, 4], [0, 1])
    >>> c = triton_conversion(a, b, bitwidth=16)
    >>> c.level, c.shuffle_rounds, c.shared_bytes, c.store_vector, c.load_vector, c.store_conflicts + c.load_conflicts
    ('warp', None, 8192, 4, 4, 0)
    """
    A = linear.analysis
    for name, L in (("src", src), ("dst", dst)):
        if not isinstance(L, linear.LinearLayout):
            raise LayoutError(f"triton_conversion: {name} must be a LinearLayout, got {type(L).__name__}")
    bitwidth = as_pow2(bitwidth, "bitwidth")
    if src.out_dims != dst.out_dims:
        raise LayoutError(
            f"triton_conversion: src and dst must cover the same tensor, got {src.out_dims} and {dst.out_dims}"
        )
    levels = A.conversion_levels(src, dst)
    level = A.conversion_level(src, dst)
    if level in ("none", "register"):
        return TritonCost(level, levels, 0, 0, 0, 0, 0, 0, None)
    rounds = shuffle_rounds(src, dst) if level == "lane" else None
    shared = A.optimal_shared_layout(src, dst, bitwidth)
    store = A.bank_conflicts(src, shared, bitwidth)
    load = A.bank_conflicts(dst, shared, bitwidth)
    vs = A.largest_vectorisation(src.invert_and_compose(shared), bitwidth).width
    vd = A.largest_vectorisation(dst.invert_and_compose(shared), bitwidth).width
    nbytes = shared.in_dim_size("offset") * bitwidth // 8
    return TritonCost(level, levels, rounds, nbytes, store, load, vs, vd, shared)
