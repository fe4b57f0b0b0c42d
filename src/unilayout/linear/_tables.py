"""The numpy kernels under ``LinearLayout.index_map`` and ``LinearLayout.evaluate``.

They read a layout's basis columns only (``_bases``, ``_outs``, ``_columns()``),
so ``linear.layout`` builds on them without importing ``linear.evaluate``,
which holds the public, type-checked functions of the same names and explains
the method (doubling tables, one XOR per input bit). ``_span_table`` is the
doubling step: row ``x`` of the table is the XOR of the columns of x's set bits.

>>> _span_table([1, 2, 4], np.empty(8, dtype=np.int64)).tolist()
[0, 1, 2, 3, 4, 5, 6, 7]
>>> _span_table([3, 5], np.empty(4, dtype=np.int64)).tolist()
[0, 3, 5, 6]
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from .._ints import as_int_array, check_table
from ..errors import LayoutError

#: index_map refuses layouts with more input bits than this (2**32 rows).
MAX_INDEX_MAP_BITS = 32
_TABLE_BITS = 16


def _span_table(cols, out: np.ndarray) -> np.ndarray:
    """out[x] = XOR of cols[c] for the set bits c of x, for x < 2**len(cols)."""
    out[0] = 0
    h = 1
    for col in cols:
        np.bitwise_xor(out[:h], col, out=out[h:2 * h])
        h *= 2
    return out


def _per_out_columns(layout):
    """Columns split per out-dim, for layouts whose flattened output exceeds int64."""
    per = []
    for j, (name, size) in enumerate(layout._outs):
        if size > 1 << 62:
            raise LayoutError(
                f"out-dim {name!r} has size {size}, beyond int64: use apply() for single points"
            )
        per.append([v[j] for _, vecs in layout._bases for v in vecs])
    return per


def index_map(layout) -> np.ndarray:
    """The kernel of ``linear.index_map`` (which documents it), for a value known to be a LinearLayout."""
    n = layout.total_in_dim_size_log2
    if n > MAX_INDEX_MAP_BITS:
        raise LayoutError(
            f"index_map: the layout has 2**{n} inputs, more than the 2**{MAX_INDEX_MAP_BITS} it will "
            "enumerate: use evaluate() on the inputs you need"
        )
    N = 1 << n
    k = len(layout._outs)
    check_table(N * k, "index_map")
    if k == 0:
        return np.empty((N, 0), dtype=np.int64)
    # Built as (k, N) so each out-dim is one contiguous pass; returned as its (N, k) view.
    res = np.empty((k, N), dtype=np.int64)
    nbits = layout.total_out_dim_size_log2
    if nbits <= 63:
        if k == 1:
            _span_table(layout._columns(), res[0])
            return res.T
        flat = _span_table(layout._columns(), np.empty(N, dtype=np.int64))
        shift = 0
        last = k - 1
        for j, (_, size) in enumerate(layout._outs):
            b = size.bit_length() - 1
            if shift == 0:
                np.bitwise_and(flat, size - 1, out=res[j])
            elif j == last:
                np.right_shift(flat, shift, out=res[j])
            else:
                np.right_shift(flat, shift, out=res[j])
                res[j] &= size - 1
            shift += b
        return res.T
    for j, cols in enumerate(_per_out_columns(layout)):
        _span_table(cols, res[j])
    return res.T


def check_in_dims(names, given, what: str) -> None:
    """``LayoutError`` ("<what> exactly the in-dims [...]; missing [...]; unknown [...]") unless ``given`` has each name once."""
    if set(given) != set(names) or len(given) != len(names):
        missing = [n for n in names if n not in given]
        extra = [k for k in given if k not in names]
        raise LayoutError(
            f"{what} exactly the in-dims {names}"
            + (f"; missing {missing}" if missing else "")
            + (f"; unknown {extra}" if extra else "")
        )


def evaluate(layout, ins: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """The kernel of ``linear.evaluate`` (which documents it), for a value known to be a LinearLayout."""
    if not isinstance(ins, Mapping):
        raise LayoutError(f"evaluate: expected a dict {{in_dim: array}}, got {type(ins).__name__}")
    names = layout.in_dim_names
    check_in_dims(names, ins, "evaluate: expected arrays for")
    arrays = []
    for name, vecs in layout._bases:
        a = as_int_array(ins[name], f"evaluate: values of in-dim {name!r}")  # exact int64 or LayoutError
        if len(vecs) > 62:
            raise LayoutError(f"evaluate: in-dim {name!r} has 2**{len(vecs)} values, beyond int64: use apply()")
        a = a.astype(np.int64, copy=False)
        if a.size and (a.min() < 0 or a.max() >= (1 << len(vecs))):
            bad = a[(a < 0) | (a >= (1 << len(vecs)))].flat[0]
            raise LayoutError(f"evaluate: {name}={int(bad)} is outside [0, {1 << len(vecs)})")
        arrays.append(a)
    try:
        arrays = np.broadcast_arrays(*arrays) if arrays else []
    except ValueError as e:
        raise LayoutError(f"evaluate: the in-dim arrays do not broadcast together: {e}") from None
    shape = arrays[0].shape if arrays else ()
    check_table(math.prod(shape) * (1 + len(layout._outs)), f"evaluate: broadcast shape {shape}")
    outs = layout._outs
    nbits = layout.total_out_dim_size_log2
    if nbits <= 63:
        groups = [layout._columns()]
    else:
        groups = _per_out_columns(layout)
    results = []
    for cols in groups:
        acc = np.zeros(shape, dtype=np.int64)
        c = 0
        for (_, vecs), a in zip(layout._bases, arrays):
            k = len(vecs)
            for lo in range(0, k, _TABLE_BITS):
                hi = min(k, lo + _TABLE_BITS)
                chunk = cols[c + lo:c + hi]
                if not any(chunk):
                    continue
                table = _span_table(chunk, np.empty(1 << (hi - lo), dtype=np.int64))
                idx = a if (lo == 0 and hi == k) else (a >> lo) & ((1 << (hi - lo)) - 1)
                acc ^= table[idx]
            c += k
        results.append(acc)
    if nbits <= 63:
        flat = results[0]
        out = {}
        shift = 0
        for name, size in outs:
            out[name] = (flat >> shift) & (size - 1)
            shift += size.bit_length() - 1
        return out
    return {name: r for (name, _), r in zip(outs, results)}
