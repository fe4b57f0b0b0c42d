"""The linear family's record: Triton linear layouts over GF(2), and every Triton encoding text that gives one.

Texts: ``#ttg.linear<{..}>``, Triton's ``toString`` (``- register=1 -> (0, 1)``),
``tensor<SHAPExT, #ttg.*>``, ``!ttg.memdesc<..>`` and ``#alias = ..`` lines
above one. The domain is the flattened input (first in-dim least
significant); the box lists the in-dims' sizes.

>>> from unilayout import linear
>>> L = LINEAR.parse("#ttg.linear<{register = [[1]], lane = [[2]], warp = [], block = []}>")
>>> LINEAR.box(L), LINEAR.index_map(L).tolist(), LINEAR.canonical(L)
((2, 2, 1, 1), [[0], [1], [2], [3]], '#ttg.linear<{register = [[1]], lane = [[2]], warp = [], block = []}>')
"""

from __future__ import annotations

import math

import numpy as np

from .._family import Family, only_options
from ..errors import LayoutError
from .analysis.contiguity import contiguity as _contiguity
from .encodings.types import layout as _parse_ttgir
from .layout import LinearLayout
from .text import parse as _parse_linear

__all__ = ["LINEAR", "LinearFamily"]

_LINEAR_TEXTS = ("#ttg.linear", "- ", "where out dims", "(empty layout")
_HARDWARE = {"register", "lane", "warp", "block"}

def _picture():
    """This family's ``picture`` module, imported when a value is first drawn: reading a text loads no drawing kit."""
    from . import picture  # lazy: import time (the first parse of a text does not load the pictures)

    return picture



class LinearFamily(Family):
    """``LinearLayout`` values from ``#ttg.linear``, ``toString`` and every Triton encoding on a tensor type."""

    name, types = "linear", (LinearLayout,)
    glosses = {"contiguity": lambda v, d: f"{v} (consecutive elements along the fastest dim held in consecutive "
                                           "registers or offsets: Triton's getContigPerThread[order[0]])"}
    index_order, flat_domain = "F", True  # the flattened input, first in-dim least significant

    def parse(self, text, **given):
        body = text.lstrip()
        if body.startswith(_LINEAR_TEXTS) and not body.startswith("#ttg.linear_"):
            return _parse_linear(text)
        return _parse_ttgir(text)  # Triton's tensor types, encodings and alias lines

    def index_map(self, L, shape=None):
        self.refuse_shape(shape)
        return L.index_map()

    def box(self, L):
        return tuple(s for _, s in L.in_dims)

    def canonical(self, L):
        try:
            return L.to_attr()
        except LayoutError:  # no Triton attribute: Triton's toString (tensor memory's on one line; it reads back)
            if {"row", "col"} <= set(L.in_dim_names):
                return " ".join(str(L).split())
            return str(L).strip("\n")

    def facts(self, L, shape):
        d = {"in_dims": {n: int(L.in_dim_size(n)) for n in L.in_dim_names},
             "out_dims": {n: int(L.out_dim_size(n)) for n in L.out_dim_names},
             "size": int(L.total_in_dim_size), "cosize": int(L.total_out_dim_size),
             "injective": bool(L.is_injective()), "surjective": bool(L.is_surjective())}
        d["bijective"] = d["injective"] and d["surjective"]
        d["contiguity"] = int(_contiguity(L))
        return d

    def tables(self, L, shape, max_cells):
        out = [("bases (Triton)", str(L).strip("\n"))]
        n = int(L.total_in_dim_size)
        views = _picture()
        if set(L.in_dim_names) <= _HARDWARE and "lane" in L.in_dim_names:
            if n > max_cells:
                out.append(("views", f"(not shown: {n:,} inputs > {max_cells:,}; use --max-cells or render)"))
            else:
                out.append(("hardware view (Triton get_distributed_view(True))", views.hardware_view(L).rstrip("\n")))
                out.append(("tensor view (Triton get_distributed_view(False))", views.tensor_view(L).rstrip("\n")))
        elif "offset" in L.in_dim_names and set(L.in_dim_names) <= {"offset", "block"}:
            if int(L.total_out_dim_size) > max_cells:
                out.append(("views", f"(not shown: {int(L.total_out_dim_size):,} elements > {max_cells:,})"))
            else:
                try:
                    out.append(("hardware view (Triton get_shared_view(True))",
                                views.shared_hardware_view(L).rstrip("\n")))
                    out.append(("tensor view (Triton get_shared_view(False))",
                                views.shared_tensor_view(L).rstrip("\n")))
                except LayoutError as e:
                    out.append(("views", f"(not shown: {e})"))
        return out

    def picture(self, L, *, color=None, max_cells, labels=True, **rest):
        only_options(self.name, rest)
        return _picture().linear_scene(L, color or "thread", max_cells=max_cells, labels=labels is not False)

    def cells(self, L, shape=None, *, details=True):
        return _picture().linear_cells(L, details=details)

    def bits(self, L):
        return [v for _, vals in L.flat_bases() for v in vals]

    def same(self, a, b, shape):
        """Same in-dims (names, sizes), same out-dim names, same image of every input bit (orders ignored)."""
        if dict(a.in_dims) != dict(b.in_dims) or set(a.out_dim_names) != set(b.out_dim_names):
            return False
        bb, bo = dict(b.bases), b.out_dim_names
        return all(dict(zip(a.out_dim_names, va)) == dict(zip(bo, vb))
                   for name, vecs in a.bases for va, vb in zip(vecs, bb[name]))

    def values_as(self, L, table, k):
        """Several out-dims as one offset (``k == 1``): first out-dim least significant."""
        if k != 1:
            return None
        out, shift = np.zeros(table.shape[0], dtype=np.int64), 0
        for j, (_, size) in enumerate(L.out_dims):
            out |= table[:, j] << shift
            shift += size.bit_length() - 1
        return out.reshape(-1, 1)

    def size(self, L, shape=None):
        return math.prod(L.out_dim_size(d) for d in L.out_dim_names)

    def rank(self, L):
        return len(L.in_dim_names) + len(L.out_dim_names)


LINEAR = LinearFamily()
FAMILY = LINEAR
